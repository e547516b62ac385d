#pragma once
/// salvo/load/toml_util.h — small helpers for strict TOML loaders, free of toml++ types.
///
/// The toml++-facing half (parse with file:line:col errors, values as written, keys in file
/// order) lives beside the sources in rules/load/src/toml_nodes.h: it needs toml++'s compile
/// definitions, which salvo::load keeps private.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace salvo::load {

/// Levenshtein distance (insertions, deletions, substitutions; bytes).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The known name nearest to `name` if within `max_distance` edits (first one on ties);
/// otherwise the only known name whose last dotted segment equals `name`'s ("range" ->
/// "fire.range"); otherwise nullopt.
std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& known,
                                        std::size_t max_distance = 2);

/// `s` as a TOML basic string: "prep", "a \"b\"", "tab\there".
std::string toml_quote(std::string_view s);

/// `key` as TOML writes one key: bare (A-Z a-z 0-9 _ -) or quoted ("fire.range").
std::string toml_key(std::string_view key);

/// The whole file as bytes. Throws InputError "PATH: cannot read: <strerror>".
std::string read_text_file(const std::string& path);

/// The value of a situation file's top-level `ruleset` key ("asl", ...), or "" if it has none
/// or it is not a string. Throws InputError if the file cannot be read or is not TOML.
std::string ruleset_of_file(const std::string& path);

}  // namespace salvo::load
