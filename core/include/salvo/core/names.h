#pragma once
/// salvo/core/names.h — the words a file or a command line spells a choice with, written once per
/// choice: the loaders and the command line read them, messages and reports write them back.

#include <optional>
#include <string_view>

namespace salvo {

/// One choice: the word, and what it means.
template <class E>
struct Named {
  std::string_view name;
  E value;
};

/// The word `table` spells `value` with, or "?" when the table does not name it.
template <class Table, class E>
constexpr std::string_view name_in(const Table& table, E value) {
  for (const auto& n : table)
    if (n.value == value) return n.name;
  return "?";
}

/// The value `table` names `name`, if it names it.
template <class Table>
constexpr auto value_in(const Table& table, std::string_view name) -> std::optional<decltype(table[0].value)> {
  for (const auto& n : table)
    if (n.name == name) return n.value;
  return std::nullopt;
}

}  // namespace salvo
