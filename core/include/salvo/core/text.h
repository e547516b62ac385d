#pragma once
/// salvo/core/text.h — text as salvo shows it to a person: one line, no terminal control.

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace salvo {

/// 1234567 as "1,234,567".
inline std::string with_commas(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// `s` as a TOML basic string: "prep", "a \"b\"", "tab\there", control characters as \uXXXX.
inline std::string toml_quote(std::string_view s) {
  constexpr char kHex[] = "0123456789ABCDEF";
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
        if (const auto u = static_cast<unsigned char>(c); u < 0x20 || u == 0x7f) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out + '"';
}

/// A name, key or value as messages and tables show it: as written, or TOML-quoted if it holds
/// a control character (a quoted TOML key or string may: "a\nb"), so it stays on one line and
/// sends no terminal escapes.
inline std::string printable(std::string_view s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return toml_quote(s);
  return std::string(s);
}

/// The whole of `text` as a decimal number in std::from_chars' format (no leading space or '+',
/// no hexadecimal), or nullopt. Where the standard library has no floating-point from_chars
/// (libc++ 14, the emscripten build) strtod reads it, checked to the same format.
inline std::optional<double> parse_number(std::string_view text) {
  double v = 0.0;
#if defined(__cpp_lib_to_chars)
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
#else
  if (text.empty() || text.front() == '+' || text.find_first_of(" \t\n\v\f\rxXpP") != std::string_view::npos)
    return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
#endif
  return v;
}

}  // namespace salvo
