#pragma once
/// salvo/core/text.h — text as salvo shows it to a person: one line, no terminal control.

#include <string>
#include <string_view>

namespace salvo {

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

}  // namespace salvo
