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
#include <utility>
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

/// A key as a message shows it: as written, or TOML-quoted if it holds a control character
/// (a quoted key may: "a\nb" = 1), so a message stays one line and sends no terminal escapes.
std::string printable_key(std::string_view key);

/// The number of points of a sweep with axes of these sizes, and whether it exceeds `limit`
/// (overflow included); `message` is then "expands to N situations, more than the limit of L".
struct SweepSize {
  std::size_t total = 1;
  bool too_big = false;
  std::string message;
};
SweepSize sweep_size(const std::vector<std::size_t>& axis_sizes, std::size_t limit);

/// Calls f(index) for each point of the cartesian product of axes of these sizes, first axis
/// slowest; index[i] is the value index of axis i.
template <class F>
void for_each_sweep_point(const std::vector<std::size_t>& sizes, std::size_t total, F&& f) {
  std::vector<std::size_t> index(sizes.size(), 0);
  for (std::size_t n = 0; n < total; ++n) {
    f(index);
    for (std::size_t i = sizes.size(); i-- > 0;) {
      if (++index[i] < sizes[i]) break;
      index[i] = 0;
    }
  }
}

/// " (sweep point: fire.range=3, target.tem=2)" for a rules error at a sweep point; "" if none.
std::string sweep_point_suffix(const std::vector<std::pair<std::string, std::string>>& values);

/// The input size limit salvo applies to every file it reads (situations and charts) unless
/// told otherwise (--max-file-size): 4 MiB.
inline constexpr std::size_t kDefaultMaxFileBytes = std::size_t{4} << 20;
/// The largest limit --max-file-size takes: 1 GiB.
inline constexpr std::size_t kMaxFileBytesLimit = std::size_t{1} << 30;

/// The whole file as bytes, read once (so /dev/stdin and pipes work), at most `max_bytes`: a
/// larger input is refused after reading max_bytes + 1 bytes, so /dev/zero costs nothing.
/// Throws InputError "PATH: cannot read: <strerror>" or
/// "PATH: N bytes, more than the input limit of M (raise it with --max-file-size)".
std::string read_text_file(const std::string& path, std::size_t max_bytes = kDefaultMaxFileBytes);

/// The value of a situation's top-level `ruleset` key ("asl", ...), or "" if it has none or it
/// is not a string. Throws InputError if the text is not TOML.
std::string ruleset_of_text(std::string_view text, const std::string& source_name);

}  // namespace salvo::load
