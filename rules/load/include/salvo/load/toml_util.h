#pragma once
/// salvo/load/toml_util.h — small helpers for strict TOML loaders, free of toml++ types.
///
/// The toml++-facing half (parse with file:line:col errors, values as written, keys in file
/// order) lives beside the sources in rules/load/src/toml_nodes.h, and the schema kit the loaders
/// are written with (messages, typed readers, allowed keys, sweeps) in rules/load/src/schema.h:
/// they need toml++'s compile definitions, which salvo::load keeps private.

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/core/text.h"

namespace salvo::load {

/// Levenshtein distance (insertions, deletions, substitutions; bytes).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The known name nearest to `name` if within `max_distance` edits (first one on ties);
/// otherwise the only known name whose last dotted segment equals `name`'s ("range" ->
/// "fire.range"); otherwise nullopt.
std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& known,
                                        std::size_t max_distance = 2);

/// `s` as a TOML basic string (core/text.h).
using salvo::toml_quote;

/// `key` as TOML writes one key: bare (A-Z a-z 0-9 _ -) or quoted ("fire.range").
std::string toml_key(std::string_view key);

/// A key as a message shows it: as written, or TOML-quoted if it holds a control character
/// (salvo::printable, core/text.h).
inline std::string printable_key(std::string_view key) { return salvo::printable(key); }

/// The number of points of a sweep with axes of these sizes, and whether it exceeds `limit`
/// (overflow included); `message` is then "expands to N situations, more than the limit of L".
struct SweepSize {
  std::size_t total = 1;
  bool too_big = false;
  std::string message;
};
SweepSize sweep_size(const std::vector<std::size_t>& axis_sizes, std::size_t limit);

/// The points of a sweep, made on demand from their cartesian index (first axis slowest): what
/// stays in memory is the base situation and the axes' values, not every point, so a sweep of
/// 10^6 points over five axes costs kilobytes. Indexing and iteration return points by value.
template <class Point>
class SweepPoints {
 public:
  using Make = std::function<Point(std::size_t)>;
  SweepPoints() = default;
  SweepPoints(std::size_t size, Make make) : size_(size), make_(std::move(make)) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Point operator[](std::size_t i) const { return make_(i); }
  /// Throws std::out_of_range past the end.
  Point at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("sweep point " + std::to_string(i) + " of " + std::to_string(size_));
    return make_(i);
  }

  class iterator {
   public:
    using value_type = Point;
    using difference_type = std::ptrdiff_t;
    iterator(const SweepPoints* points, std::size_t i) : points_(points), i_(i) {}
    Point operator*() const { return (*points_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const SweepPoints* points_;
    std::size_t i_;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size_}; }

 private:
  std::size_t size_ = 0;
  Make make_;
};

/// The index of each axis at point n of a sweep of axes of these sizes (first axis slowest).
std::vector<std::size_t> sweep_index(const std::vector<std::size_t>& sizes, std::size_t n);

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

/// `text`, a file given whole under `name` (not read from a path), if it is within max_bytes.
/// Throws the InputError read_text_file gives for a larger file.
const std::string& checked_text(const std::string& text, const std::string& name, std::size_t max_bytes);

/// The value of a situation's top-level `ruleset` key ("asl", ...), or "" if it has none or it
/// is not a string. Throws InputError if the text is not TOML.
std::string ruleset_of_text(std::string_view text, const std::string& source_name);

}  // namespace salvo::load
