// toml_util.cpp — strict-TOML helpers: suggestions, quoting, file reading, toml++ node access.

#include "salvo/load/toml_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

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

std::string toml_quote(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string toml_key(std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return bare ? std::string(key) : toml_quote(key);
}

std::string read_text_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw InputError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::string text;
  char buffer[1 << 14];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  const int error = errno;  // fread on a directory fails with EISDIR
  std::fclose(f);
  if (failed) throw InputError(fmt::format("{}: cannot read: {}", path, std::strerror(error)));
  return text;
}

}  // namespace salvo::load

namespace salvo::load::detail {

toml::table parse_toml(std::string_view text, const std::string& source_name) {
  try {
    return toml::parse(text, std::string_view(source_name));
  } catch (const toml::parse_error& e) {
    std::string description(e.description());
    std::replace(description.begin(), description.end(), '\n', ' ');
    throw InputError(fmt::format("{}:{}:{}: TOML syntax error: {}", source_name, line_of(e.source().begin),
                                 std::max<toml::source_index>(e.source().begin.column, 1), description));
  }
}

int line_of(const toml::source_position& pos) { return pos.line > 0 ? static_cast<int>(pos.line) : 1; }

std::string source_slice(const toml::source_region& region, std::string_view text) {
  const toml::source_position b = region.begin, e = region.end;
  if (b.line == 0 || b.line != e.line || b.column == 0 || e.column <= b.column) return {};

  // Find the line, then step over (column - 1) code points: toml++ counts columns in code points.
  std::size_t at = 0;
  for (toml::source_index line = 1; line < b.line; ++line) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return {};
    ++at;
  }
  const auto advance = [&](std::size_t pos, toml::source_index code_points) {
    for (toml::source_index k = 0; k < code_points && pos < text.size(); ++k) {
      ++pos;
      while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
    }
    return pos;
  };
  const std::size_t first = advance(at, b.column - 1);
  const std::size_t last = advance(first, e.column - b.column);
  if (first >= text.size() || last > text.size()) return {};
  const std::string_view slice = text.substr(first, last - first);
  if (slice.find('\n') != std::string_view::npos) return {};
  return std::string(slice);
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
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  std::string written = source_slice(node.source(), text);
  if (!written.empty()) return written;
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  return printed(node);
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

std::string ruleset_of_file(const std::string& path) {
  const toml::table table = detail::parse_toml(read_text_file(path), path);
  if (const auto* r = table.get_as<std::string>("ruleset")) return r->get();
  return "";
}

}  // namespace salvo::load
