#pragma once
// Tables of bad inputs and the exact message each is refused with, for the tests that pin
// messages: each case is written once, as data, and checked by one line.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace salvo::test {

/// An input (a file's text, or a path) and the exact message it is refused with.
struct Refusal {
  std::string input;
  std::string message;
};

/// Each case's input is refused with exactly its message; `error_of` maps an input to the
/// message it is refused with (test::message_of, most often).
template <class ErrorOf>
void check_refusals(ErrorOf&& error_of, const std::vector<Refusal>& cases) {
  for (const Refusal& c : cases) {
    INFO("input: " << c.input);
    CHECK(error_of(c.input) == c.message);
  }
}

}  // namespace salvo::test
