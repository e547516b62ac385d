#pragma once
// toml_nodes.h — the toml++-facing half of the loader helpers (private to salvo::load).

#include <toml++/toml.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace salvo::load::detail {

/// Parse a document. Throws InputError "NAME:LINE:COL: TOML syntax error: <description>".
toml::table parse_toml(std::string_view text, const std::string& source_name);

/// A file's text and its parsed tree, owned together: sweep points are made on demand from
/// nodes of the tree (SweepPoints), so they keep it alive.
struct Document {
  std::string file, text;
  toml::table root;
};
/// Copy `text` and parse it (parse_toml).
std::shared_ptr<const Document> parse_document(std::string_view text, const std::string& source_name);

/// Line of a source position, 1-based; 1 when toml++ recorded none.
int line_of(const toml::source_position& pos);
inline int line_of(const toml::node& node) { return line_of(node.source().begin); }

/// A document's text with its line starts, for slicing out values as written.
class SourceText {
 public:
  explicit SourceText(std::string_view text);
  /// The text of `region` (one line only), or "" when it cannot be located. Slices taken in
  /// file order cost time proportional to the distance between them.
  std::string slice(const toml::source_region& region);

 private:
  std::size_t advance(std::size_t pos, toml::source_index code_points) const;
  std::string_view text_;
  std::vector<std::size_t> line_starts_;
  toml::source_index cursor_line_ = 0, cursor_column_ = 0;  ///< where the last slice ended
  std::size_t cursor_byte_ = 0;
};

/// The text of `region` in `text` (one line only), or "" when it cannot be located.
std::string source_slice(const toml::source_region& region, std::string_view text);

/// A value as an error message shows what it found: strings quoted, integers in decimal,
/// floats as written, booleans true/false, "an array", "a table".
std::string describe(const toml::node& node, std::string_view text);

/// A value as written, strings without quotes (sweep labels): 6, 2.5, AP, true.
std::string as_written(const toml::node& node, std::string_view text);
/// The same, for many values of one document in file order (a [sweep] array): linear time.
std::string as_written(const toml::node& node, SourceText& text);

/// The lengths of the arrays in a [sweep] table and its dotted sub-tables (what is not an array
/// counts 1): the sweep's size is their product, known before any value is read.
std::vector<std::size_t> sweep_array_lengths(const toml::table& sweep);

/// One key of a table with its value.
struct Entry {
  std::string key;
  const toml::node* node = nullptr;
  toml::source_position pos;  ///< where the key is written
};

/// The entries of a table in the order they are written (toml++ keeps them sorted by key).
std::vector<Entry> entries_in_file_order(const toml::table& table);

}  // namespace salvo::load::detail
