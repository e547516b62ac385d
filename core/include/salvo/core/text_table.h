#pragma once
/// salvo/core/text_table.h — aligned plain-text tables: columns padded to their widest cell
/// (counted in code points, so "±" is one column), two spaces between columns, no trailing
/// spaces. Used by the reports and by each ruleset's `explain` listing.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace salvo {

enum class Align : std::uint8_t { kLeft, kRight };

struct TextTable {
  std::vector<Align> align;
  std::vector<std::vector<std::string>> rows;  // the first row is the header
  std::string indent = "";

  std::string render() const {
    std::vector<std::size_t> width(align.size(), 0);
    for (const auto& row : rows) widen(width, row);
    std::string out;
    for (const auto& row : rows) out += line(row, width);
    return out;
  }

  // Column widths grown to fit `row` (a table too big to hold: widen over every row, then
  // print each with line()).
  void widen(std::vector<std::size_t>& width, const std::vector<std::string>& row) const {
    width.resize(align.size(), 0);
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  }

  // One row padded to `width`, without trailing spaces, with its newline.
  std::string line(const std::vector<std::string>& row, const std::vector<std::size_t>& width) const {
    std::string text = indent;
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      if (c) text += "  ";
      const std::size_t pad = width[c] - display_width(row[c]);
      if (align[c] == Align::kRight)
        text += std::string(pad, ' ') + row[c];
      else
        text += row[c] + std::string(pad, ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text + '\n';
  }

  // Code points, so that "±" counts as one column.
  static std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s)
      if ((c & 0xC0) != 0x80) ++n;
    return n;
  }
};

}  // namespace salvo
