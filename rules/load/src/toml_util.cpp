// toml_util.cpp — strict-TOML helpers: suggestions, quoting, file reading, toml++ node access.

#include "salvo/load/toml_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>

#include <sys/stat.h>

#include "salvo/load/asl_loader.h"
#include "toml_nodes.h"

namespace salvo::load {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Two-row dynamic programme over prefixes of a (rows) and b (columns).
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& known,
                                        std::size_t max_distance) {
  // Nearest by edit distance.
  const std::string* best = nullptr;
  std::size_t best_distance = max_distance + 1;
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(name, k);
    if (d < best_distance) {
      best = &k;
      best_distance = d;
    }
  }
  if (best != nullptr) return *best;

  // Otherwise the same last segment in another table, if that is unambiguous.
  const auto last = [](std::string_view s) {
    const auto dot = s.rfind('.');
    return dot == std::string_view::npos ? s : s.substr(dot + 1);
  };
  const std::string_view leaf = last(name);
  for (const std::string& k : known) {
    if (last(k) != leaf) continue;
    if (best != nullptr) return std::nullopt;
    best = &k;
  }
  if (best != nullptr) return *best;
  return std::nullopt;
}

std::string toml_key(std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return bare ? std::string(key) : toml_quote(key);
}

namespace {

/// "PATH: SIZE the input limit of M (raise it with --max-file-size)".
InputError over_limit(const std::string& path, const std::string& size, std::size_t max_bytes) {
  const std::string limit = max_bytes % (1 << 20) == 0   ? fmt::format("{} MiB", max_bytes >> 20)
                            : max_bytes % (1 << 10) == 0 ? fmt::format("{} KiB", max_bytes >> 10)
                                                         : fmt::format("{} bytes", max_bytes);
  return InputError(fmt::format("{}: {} the input limit of {} (raise it with --max-file-size)", path, size, limit));
}

}  // namespace

const std::string& checked_text(const std::string& text, const std::string& name, std::size_t max_bytes) {
  if (text.size() > max_bytes) throw over_limit(name, fmt::format("{} bytes, more than", text.size()), max_bytes);
  return text;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw InputError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::string text;
  char buffer[1 << 14];
  std::size_t n = 0;
  // At most max_bytes + 1 bytes: one more than the limit is enough to refuse.
  while (text.size() <= max_bytes &&
         (n = std::fread(buffer, 1, std::min(sizeof buffer, max_bytes + 1 - text.size()), f)) > 0)
    text.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  const int error = errno;  // fread on a directory fails with EISDIR
  struct stat st {};
  const bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  std::fclose(f);
  if (failed) throw InputError(fmt::format("{}: cannot read: {}", path, std::strerror(error)));
  if (text.size() > max_bytes)
    throw over_limit(path, regular ? fmt::format("{} bytes, more than", st.st_size) : "larger than", max_bytes);
  return text;
}

}  // namespace salvo::load

namespace salvo::load::detail {

namespace {

/// The deepest nesting a file may have: far beyond any situation or chart (3 or 4 levels), far
/// below what overflows toml++'s recursion.
constexpr int kMaxNesting = 64;

/// What the scan before toml++ refuses: the first non-ASCII byte outside a string or a
/// comment (its code point, or the byte if not UTF-8), or (depth > 0) the first place where
/// the nesting exceeds kMaxNesting. Line and column are 1-based, columns in code points as
/// toml++ counts them.
struct Stray {
  int line = 1;
  int column = 1;
  std::uint32_t code_point = 0;
  bool utf8 = true;
  int depth = 0;
};

// Why: toml++ 3.3 tests every character between tokens for Unicode whitespace, and that test
// (is_non_ascii_horizontal_whitespace) reaches TOML_UNREACHABLE, i.e. undefined behaviour, for
// code points such as U+00E9 (found by fuzz_situation under UBSan). TOML allows non-ASCII text
// only inside strings and comments, so anything else is reported here before toml++ sees it.
// Two more cases are refused, where toml++ runs the same test inside a multi-line basic string:
// a non-ASCII character right after a backslash, or first after a line-ending backslash.
//
// Nesting: toml++ builds dotted keys and headers ([a.a.a...], a.a.a... = 1) recursively, and
// 40,000 levels overflow its stack (a crash with no message, found by a hostile-input audit).
// The scan counts the depth each key, header, inline table and array reaches: a header's
// segments, then the segments of each key, plus one per array or inline table opened inside a
// value, and refuses the first place deeper than kMaxNesting.
std::optional<Stray> stray_non_ascii(std::string_view text) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral };
  In in = In::kCode;
  int line = 1;
  // Where toml++ reads a quote as the start of a string or quoted key: at the start of a line,
  // or after '=', '[', ',', '{' or a '.' that does not follow a digit. Elsewhere (1'x') it is
  // part of a bad value, and toml++ tests the characters after it for whitespace.
  bool opens = true;
  unsigned char last = '\n', before_last = '\n';  // the last two code characters
  bool bare = false;                              // inside a bare value
  std::size_t line_start = 0;
  const auto at = [&](std::size_t i) -> unsigned char {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0;
  };
  const auto triple = [&](std::size_t i, char q) { return at(i) == q && at(i + 1) == q && at(i + 2) == q; };
  const auto stray = [&](std::size_t i) {
    Stray st;
    st.line = line;
    for (std::size_t k = line_start; k < i; ++k) st.column += (at(k) & 0xC0) != 0x80 ? 1 : 0;
    const unsigned char b = at(i);
    const int len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    st.utf8 = len > 0 && i + static_cast<std::size_t>(len) <= text.size();
    st.code_point = st.utf8 ? b & (0x7Fu >> len) : b;
    for (int k = 1; st.utf8 && k < len; ++k) {
      st.utf8 = (at(i + static_cast<std::size_t>(k)) & 0xC0) == 0x80;
      st.code_point = (st.code_point << 6) | (at(i + static_cast<std::size_t>(k)) & 0x3Fu);
    }
    if (!st.utf8) st.code_point = b;
    return st;
  };

  // Nesting state: the current [table]'s depth, a header being read, a key being read and its
  // segments, the open arrays and inline tables with their depths, and '=' just read.
  int table_depth = 0, header_segments = 0, key_segments = 1, value_depth = 0;
  bool header = false, in_key = true, after_equals = false;
  std::vector<int> open;  // depth of each open array or inline table ('[' or '{' in a value)
  std::vector<char> open_kind;
  const auto depth = [&] { return open.empty() ? table_depth : open.back(); };
  // The depth reached at character i, or 0 if within the limit.
  const auto nest = [&](unsigned char c) -> int {
    const bool was_after_equals = after_equals;
    if (c != ' ' && c != '\t' && c != '\r') after_equals = false;
    switch (c) {
      case '[':
        if (open.empty() && (opens || (header && last == '[' && header_segments == 1))) {
          header = true;  // [table] or [[array of tables]]
          header_segments = 1;
          in_key = false;
          return 0;
        }
        [[fallthrough]];
      case '{':
        if (header || in_key) return 0;  // a bad key: toml++ reports it
        open.push_back(was_after_equals ? value_depth : depth() + 1);
        open_kind.push_back(static_cast<char>(c));
        if (c == '{') {
          in_key = true;
          key_segments = 1;
        }
        return open.back() > kMaxNesting ? open.back() : 0;
      case ']':
        if (header) {
          if (last != '[' && last != ']') {
            header = false;
            table_depth = header_segments;
          }
        } else if (!open.empty() && open_kind.back() == '[') {
          open.pop_back();
          open_kind.pop_back();
        }
        return 0;
      case '}':
        if (!open.empty() && open_kind.back() == '{') {
          open.pop_back();
          open_kind.pop_back();
        }
        in_key = false;
        return 0;
      case ',':
        if (!open.empty() && open_kind.back() == '{') {
          in_key = true;
          key_segments = 1;
        }
        return 0;
      case '.':
        if (header) return ++header_segments > kMaxNesting ? header_segments : 0;
        if (in_key) return depth() + ++key_segments > kMaxNesting ? depth() + key_segments : 0;
        return 0;
      case '=':
        if (!in_key) return 0;
        in_key = false;
        after_equals = true;
        value_depth = depth() + key_segments;
        return value_depth > kMaxNesting ? value_depth : 0;
      default:
        return 0;
    }
  };

  std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
  for (; i < text.size(); ++i) {
    const unsigned char c = at(i);
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      if (in == In::kComment || in == In::kBasic || in == In::kLiteral) in = In::kCode;
      if (in == In::kCode) {
        opens = true;
        bare = false;
        header = false;
        after_equals = false;
        if (open.empty()) {
          in_key = true;
          key_segments = 1;
        }
      }
      continue;
    }
    switch (in) {
      case In::kCode: {
        if (c >= 0x80) return stray(i);
        if (const int d = nest(c)) {
          Stray st = stray(i);
          st.depth = d;
          return st;
        }
        const bool space = c == ' ' || c == '\t' || c == '\r';
        if (bare) {
          // Inside a bare value (6, true, or junk like 1'x' or 2[[1["): toml++ tests each
          // character for a value terminator, so nothing here opens a string.
          if (!(space || c == ',' || c == ']' || c == '}' || c == '#')) break;
          bare = false;
        }
        if (c == '#') {
          in = In::kComment;
          break;
        }
        if (space) break;
        const bool after_opener = last == '=' || last == '[' || last == ',' || last == '{' ||
                                  (last == '.' && !(before_last >= '0' && before_last <= '9'));
        const bool quote = c == '"' || c == '\'';
        if (quote && (opens || after_opener)) {
          const bool multi = triple(i, static_cast<char>(c));
          in = c == '"' ? (multi ? In::kMultiBasic : In::kBasic) : (multi ? In::kMultiLiteral : In::kLiteral);
          if (multi) i += 2;
        } else if (!opens && (last == '=' || last == '[' || last == ',') && c != '[' && c != '{' && c != ']' &&
                   c != '}' && c != ',') {
          bare = true;
        }
        before_last = last;
        last = c;
        opens = false;
        break;
      }
      case In::kComment:
        break;
      case In::kBasic:
        if (c == '\\' && at(i + 1) != '\n')
          ++i;  // an escape: skip the escaped character
        else if (c == '"')
          in = In::kCode;
        break;
      case In::kLiteral:
        if (c == '\'') in = In::kCode;
        break;
      case In::kMultiBasic:
        if (c == '\\') {
          // A line-ending backslash: toml++ skips the whitespace after it, testing each character.
          std::size_t k = i + 1;
          while (at(k) == ' ' || at(k) == '\t' || at(k) == '\r') ++k;
          if (at(k) != '\n') {
            if (at(i + 1) >= 0x80) return stray(i + 1);       // toml++ tests it for whitespace too
            if (k > i + 1 && at(k) >= 0x80) return stray(k);  // and the first one after "\ "
            ++i;                                              // an ordinary escape
            break;
          }
          while (k < text.size() && (at(k) == ' ' || at(k) == '\t' || at(k) == '\r' || at(k) == '\n')) {
            if (at(k) == '\n') {
              ++line;
              line_start = k + 1;
            }
            ++k;
          }
          if (at(k) >= 0x80) return stray(k);
          i = k - 1;
        } else if (triple(i, '"')) {
          i += 2;
          while (at(i + 1) == '"') ++i;  // up to two quotes may end the content
          in = In::kCode;
        }
        break;
      case In::kMultiLiteral:
        if (triple(i, '\'')) {
          i += 2;
          while (at(i + 1) == '\'') ++i;
          in = In::kCode;
        }
        break;
    }
  }
  return std::nullopt;
}

}  // namespace

toml::table parse_toml(std::string_view text, const std::string& source_name) {
  if (const auto st = stray_non_ascii(text)) {
    if (st->depth > 0)
      throw InputError(
          fmt::format("{}:{}:{}: TOML nesting deeper than {} levels (dotted keys, [table] headers, arrays "
                      "and inline tables count one level each)",
                      source_name, st->line, st->column, kMaxNesting));
    throw InputError(fmt::format("{}:{}:{}: TOML syntax error: {} outside a string or comment (put text in quotes)",
                                 source_name, st->line, st->column,
                                 st->utf8 ? fmt::format("non-ASCII character U+{:04X}", st->code_point)
                                          : fmt::format("byte 0x{:02X} (not UTF-8)", st->code_point)));
  }
  try {
    return toml::parse(text, std::string_view(source_name));
  } catch (const toml::parse_error& e) {
    std::string description(e.description());
    // One line, no terminal control: toml++ quotes what it saw, which may be a control character.
    for (char& ch : description)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
    throw InputError(fmt::format("{}:{}:{}: TOML syntax error: {}", source_name, line_of(e.source().begin),
                                 std::max<toml::source_index>(e.source().begin.column, 1), description));
  }
}

std::shared_ptr<const Document> parse_document(std::string_view text, const std::string& source_name) {
  auto doc = std::make_shared<Document>();
  doc->file = source_name;
  doc->text = std::string(text);
  doc->root = parse_toml(doc->text, doc->file);
  return doc;
}

int line_of(const toml::source_position& pos) { return pos.line > 0 ? static_cast<int>(pos.line) : 1; }

SourceText::SourceText(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1))
    line_starts_.push_back(at + 1);
}

std::size_t SourceText::advance(std::size_t pos, toml::source_index code_points) const {
  // Runs of ASCII (one code point per byte) are skipped eight bytes at a time.
  std::size_t k = code_points;
  while (k > 0 && pos < text_.size()) {
    if (k >= 8 && pos + 8 <= text_.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, text_.data() + pos, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        pos += 8;
        k -= 8;
        continue;
      }
    }
    ++pos;
    --k;
    while (pos < text_.size() && (static_cast<unsigned char>(text_[pos]) & 0xC0) == 0x80) ++pos;
  }
  return pos;
}

std::string SourceText::slice(const toml::source_region& region) {
  const toml::source_position b = region.begin, e = region.end;
  if (b.line == 0 || b.line != e.line || b.column == 0 || e.column <= b.column || b.line > line_starts_.size())
    return {};
  // Step over (column - 1) code points (toml++ counts columns in code points): from the end of
  // the previous slice when it is on the same line and before this one, so the values of a
  // [sweep] array of 10^6 values on one line take linear time, else from the line's start.
  std::size_t first = 0;
  if (cursor_line_ == b.line && cursor_column_ <= b.column)
    first = advance(cursor_byte_, b.column - cursor_column_);
  else
    first = advance(line_starts_[b.line - 1], b.column - 1);
  const std::size_t last = advance(first, e.column - b.column);
  if (first >= text_.size() || last > text_.size()) return {};
  cursor_line_ = b.line;
  cursor_column_ = e.column;
  cursor_byte_ = last;
  const std::string_view slice = text_.substr(first, last - first);
  if (slice.find('\n') != std::string_view::npos) return {};
  return std::string(slice);
}

std::string source_slice(const toml::source_region& region, std::string_view text) {
  return SourceText(text).slice(region);
}

namespace {
std::string printed(const toml::node& node) {
  std::ostringstream out;
  out << toml::node_view<const toml::node>(&node);
  return out.str();
}
}  // namespace

std::string describe(const toml::node& node, std::string_view text) {
  if (const auto* s = node.as_string()) return toml_quote(s->get());
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (node.is_array()) return "an array";
  if (node.is_table()) return "a table";
  // Floats, dates and times: as written.
  std::string written = source_slice(node.source(), text);
  return written.empty() ? printed(node) : written;
}

std::string as_written(const toml::node& node, std::string_view text) {
  SourceText source(text);
  return as_written(node, source);
}

std::string as_written(const toml::node& node, SourceText& text) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  std::string written = text.slice(node.source());
  if (!written.empty()) return written;
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  return printed(node);
}

std::vector<std::size_t> sweep_array_lengths(const toml::table& sweep) {
  std::vector<std::size_t> lengths;
  for (auto&& [key, node] : sweep) {
    if (const auto* sub = node.as_table()) {
      const std::vector<std::size_t> more = sweep_array_lengths(*sub);
      lengths.insert(lengths.end(), more.begin(), more.end());
    } else if (const auto* array = node.as_array()) {
      lengths.push_back(array->size());
    }
  }
  return lengths;
}

std::vector<Entry> entries_in_file_order(const toml::table& table) {
  std::vector<Entry> entries;
  entries.reserve(table.size());
  for (auto&& [key, node] : table) {
    entries.push_back(Entry{std::string(key.str()), &node, key.source().begin});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
  });
  return entries;
}

}  // namespace salvo::load::detail

namespace salvo::load {

std::string ruleset_of_text(std::string_view text, const std::string& source_name) {
  const toml::table table = detail::parse_toml(text, source_name);
  if (const auto* r = table.get_as<std::string>("ruleset")) return r->get();
  return "";
}

SweepSize sweep_size(const std::vector<std::size_t>& axis_sizes, std::size_t limit) {
  SweepSize out;
  bool overflow = false;
  double approx = 1;
  for (std::size_t n : axis_sizes) {
    overflow = overflow || __builtin_mul_overflow(out.total, n, &out.total);
    approx *= static_cast<double>(n);
  }
  out.too_big = overflow || out.total > limit;
  if (out.too_big)
    out.message = fmt::format("expands to {} situations, more than the limit of {}",
                              overflow ? fmt::format("{:.0f}", approx) : std::to_string(out.total), limit);
  return out;
}

std::vector<std::size_t> sweep_index(const std::vector<std::size_t>& sizes, std::size_t n) {
  std::vector<std::size_t> index(sizes.size(), 0);
  for (std::size_t i = sizes.size(); i-- > 0;) {
    index[i] = n % sizes[i];
    n /= sizes[i];
  }
  return index;
}

std::string sweep_point_suffix(const std::vector<std::pair<std::string, std::string>>& values) {
  if (values.empty()) return "";
  std::string where;
  for (const auto& [k, v] : values) where += (where.empty() ? "" : ", ") + k + "=" + printable_key(v);
  return " (sweep point: " + where + ")";
}

}  // namespace salvo::load
