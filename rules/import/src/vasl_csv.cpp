// vasl_csv.cpp — the community's counter listings (<nationality>_vehicles.csv,
// <nationality>_ordnance.csv) into a salvo unit library (salvo/load/units.h).
//
// Each column the importer uses has one reader in a table (kVehicleColumns, kOrdnanceColumns). A
// reader gets the cell with its daggers removed and either reads it, ignores it, or says why it
// could not: the value then stays unset and the cell is listed in ImportResult::not_read.

#include "salvo/import/vasl_csv.h"

#include <csv.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace salvo::import {

// A note has no cell; nor has a cell not read because it is empty, whose reason says so ("empty: ...").
std::string Remark::str() const {
  if (cell.empty()) return fmt::format("{}:{}: {}: {}", file, row, column, why);
  return fmt::format("{}:{}: {}: could not read \"{}\": {}", file, row, column, cell, why);
}

namespace {

// ---- Text ----

constexpr std::string_view kDagger = "\xE2\x80\xA0";  // U+2020 DAGGER

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// Removes `prefix` from the front of `s` if it is there.
bool eat(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

/// The number `s` starts with (1 to `max_digits` digits), removed from `s`.
std::optional<int> eat_number(std::string_view& s, std::size_t max_digits) {
  std::size_t n = 0;
  while (n < s.size() && n <= max_digits && is_digit(s[n])) ++n;
  if (n == 0 || n > max_digits) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < n; ++i) value = value * 10 + (s[i] - '0');
  s.remove_prefix(n);
  return value;
}

/// The whole of `s` as a number in lo..hi.
std::optional<int> whole_number(std::string_view s, int lo, int hi) {
  const auto value = eat_number(s, 3);
  if (!value || !s.empty() || *value < lo || *value > hi) return std::nullopt;
  return value;
}

/// What `s` holds between `open` and `close`, if it is exactly that.
std::optional<std::string_view> enclosed(std::string_view s, std::string_view open, std::string_view close) {
  if (s.size() < open.size() + close.size() || !eat(s, open) || !s.ends_with(close)) return std::nullopt;
  s.remove_suffix(close.size());
  return s;
}

/// What `s` holds inside <tag>...</tag>, if it is exactly that.
std::optional<std::string_view> inside(std::string_view s, std::string_view tag) {
  return enclosed(s, fmt::format("<{}>", tag), fmt::format("</{}>", tag));
}

/// `s` cut at each `separator` outside markup (<...>) and square brackets, the pieces as written.
std::vector<std::string_view> pieces(std::string_view s, char separator) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '[') ++depth;
    if ((s[i] == '>' || s[i] == ']') && depth > 0) --depth;
    if (s[i] != separator || depth > 0) continue;
    out.push_back(s.substr(start, i - start));
    start = i + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

/// The tokens of a cell: its pieces between `separator`s, trimmed, empty ones dropped.
std::vector<std::string_view> tokens(std::string_view s, char separator) {
  std::vector<std::string_view> out;
  for (const std::string_view piece : pieces(s, separator)) {
    if (const auto token = trim(piece); !token.empty()) out.push_back(token);
  }
  return out;
}

/// A cell without its daggers (each possibly followed by <sup>N</sup>), and whether it had any.
struct Undaggered {
  std::string text;
  bool dagger = false;
};

Undaggered strip_daggers(std::string_view s) {
  Undaggered out;
  while (!s.empty()) {
    if (!eat(s, kDagger)) {
      out.text += s.front();
      s.remove_prefix(1);
      continue;
    }
    out.dagger = true;
    if (std::string_view rest = s; eat(rest, "<sup>")) {
      if (const auto end = rest.find("</sup>"); end != std::string_view::npos) s = rest.substr(end + 6);
    }
  }
  out.text = std::string(trim(out.text));
  return out;
}

/// Text without its tags (<i>, <sub>, <span ...>), the HTML entities decoded, spaces collapsed.
std::string plain_text(std::string_view s) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {{"&amp;", '&'},  {"&lt;", '<'},   {"&gt;", '>'},
                                                                    {"&quot;", '"'}, {"&#39;", '\''}, {"&nbsp;", ' '}};
  std::string out;
  const auto add = [&out](char c) {
    if (!is_space(c))
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  };
  while (!s.empty()) {
    if (s.front() == '<' && s.find('>') != std::string_view::npos) {
      s.remove_prefix(s.find('>') + 1);
      continue;
    }
    const auto* entity = std::find_if(std::begin(kEntities), std::end(kEntities),
                                      [&s](const auto& e) { return s.starts_with(e.first); });
    if (entity != std::end(kEntities)) {
      add(entity->second);
      s.remove_prefix(entity->first.size());
      continue;
    }
    add(s.front());
    s.remove_prefix(1);
  }
  return std::string(trim(out));
}

/// The length of the valid UTF-8 sequence at s[i], or 0 if there is none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&s](std::size_t k) -> unsigned char {
    return k < s.size() ? static_cast<unsigned char>(s[k]) : 0;
  };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

/// `s` as a TOML basic string: quotes, backslashes and control characters escaped, invalid UTF-8
/// replaced by U+FFFD.
std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out + '"';
}

/// `s` for a TOML comment: control characters and invalid UTF-8 replaced.
std::string comment_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_length(s, i);
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      out += '?';
      i += std::max<std::size_t>(n, 1);
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

/// `s` shortened to 60 characters (UTF-8 code points), for a Remark.
std::string shorten(std::string_view s) {
  constexpr std::size_t kMax = 60;
  std::size_t chars = 0, cut = 0;
  for (std::size_t i = 0; i < s.size(); i += std::max<std::size_t>(utf8_length(s, i), 1)) {
    if (chars == kMax - 1) cut = i;
    if (++chars > kMax) return std::string(s.substr(0, cut)) + "\xE2\x80\xA6";  // U+2026 ellipsis
  }
  return std::string(s);
}

/// The file name without its folders.
std::string_view base_name(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// Unit names compare without regard to case, spaces and punctuation (salvo::load::unit_key).
std::string name_key(std::string_view name) {
  std::string key;
  for (const char c : name) {
    if (static_cast<unsigned char>(c) >= 0x80 || is_digit(c) || (c >= 'a' && c <= 'z')) key += c;
    if (c >= 'A' && c <= 'Z') key += static_cast<char>(c - 'A' + 'a');
  }
  return key;
}

// ---- CSV ----

using Record = std::vector<std::string>;

/// The records of a CSV text (RFC 4180 quoting; blank lines are not records). Throws
/// std::runtime_error naming `file` if it is not valid CSV.
std::vector<Record> read_csv(const std::string& file, std::string_view text) {
  struct Sink {
    std::vector<Record> records;
    Record current;
  } sink;
  const auto on_field = [](void* s, std::size_t len, void* data) {
    auto* k = static_cast<Sink*>(data);
    k->current.push_back(s == nullptr ? std::string() : std::string(static_cast<const char*>(s), len));
  };
  const auto on_record = [](int, void* data) {
    auto* k = static_cast<Sink*>(data);
    k->records.push_back(std::move(k->current));
    k->current.clear();
  };
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    throw std::runtime_error(file + ": could not start the CSV parser");
  }
  const bool ok = csv_parse(&parser, text.data(), text.size(), on_field, on_record, &sink) == text.size() &&
                  csv_fini(&parser, on_field, on_record, &sink) == 0;
  const int error = csv_error(&parser);
  csv_free(&parser);
  if (!ok) {
    throw std::runtime_error(
        fmt::format("{}: not valid CSV: {} (row {})", file, csv_strerror(error), sink.records.size() + 1));
  }
  return sink.records;
}

// ---- The unit being read ----

/// The armor factors a counter can show, in order: a turret's superior (+) or inferior (-) armor is
/// the next value up or down (D1.62, D1.63).
constexpr int kArmorScale[] = {0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26};

struct ArmorFactors {
  int hull_front = 0, hull_side = 0, turret_front = 0, turret_side = 0;
};

/// One [[unit]] of the library; unset values are not written.
struct UnitOut {
  std::string name, kind, unit_class, dates, source;
  std::vector<std::string> notes;
  // [unit.firer]
  std::optional<std::string> nationality, gun, gun_type;
  std::optional<int> rof, breakdown, x_number, min_range, max_range;
  bool low_ammo = false, bow_mounted = false, mortar = false, no_intensive_fire = false;
  // [unit.target]
  std::optional<ArmorFactors> armor;
  std::optional<int> size;
  bool red_cs = false;
  // [unit.movement]
  std::optional<int> mp_allotment;
  bool red_mp = false;
  // [unit.depletion]: "APCR" -> the year from which each number applies (0: every year), C8.91
  std::map<std::string, std::map<int, int>> depletion;
};

// ---- Reading a row ----

/// What a reader made of its cell.
struct Outcome {
  enum class Kind { kRead, kIgnored, kNotRead };
  Kind kind = Kind::kRead;
  std::string why;  ///< kNotRead: the reason
  static Outcome ok() { return {}; }
  static Outcome ignore() { return {Kind::kIgnored, {}}; }
  static Outcome fail(std::string why) { return {Kind::kNotRead, std::move(why)}; }
};

class RowReader;

/// A cell (or a token of it) handed to a column's reader.
struct Cell {
  std::string_view text;  ///< trimmed, daggers removed
  UnitOut& unit;
  RowReader& row;
  std::string_view column;
  void note(std::string why) const;
};

using Reader = Outcome (*)(const Cell&);

/// How a column's cell is cut before reading: whole, or tokens between ';' or ',' (not inside
/// [ ] or markup).
enum class Split { kCell, kSemicolons, kCommas };

struct Column {
  std::string_view name;
  Reader read;
  Split split = Split::kCell;
  bool needs_gun = false;  ///< read only if the unit's gun was read (rof, B#, depletion)
};

/// A kind of listing: what its file name ends with and how its columns are read.
struct ListingKind {
  std::string_view suffix;      ///< "_vehicles.csv"
  std::string_view unit_kind;   ///< "vehicle"
  std::string_view note_name;   ///< where a dagger sends the reader
  std::string_view gun_column;  ///< the column the gun comes from
  bool italic_class;            ///< the name cell carries the type in italics
  std::span<const Column> columns;
};

/// A listing being read.
struct Listing {
  std::string file;  ///< as given
  const ListingKind* kind = nullptr;
  std::optional<std::string> nationality;
  std::map<std::string, std::size_t, std::less<>> columns;  ///< header name -> index
};

class RowReader {
 public:
  RowReader(const Listing& listing, int row, const Record& record, ImportResult& result, UnitOut& unit)
      : listing_(listing), row_(row), record_(record), result_(result), unit_(unit) {}

  /// The cell of `column` as written (trimmed; "" if the record is short).
  std::string_view raw(std::string_view column) const {
    const auto at = listing_.columns.find(column);
    if (at == listing_.columns.end() || at->second >= record_.size()) return {};
    return trim(record_[at->second]);
  }

  void not_read(std::string_view column, std::string_view cell, std::string why) {
    result_.not_read.push_back({listing_.file, row_, std::string(column), shorten(cell), std::move(why)});
  }
  /// The cell of `column` not read (a reader refusing another column's value).
  void refuse(std::string_view column, std::string why) { not_read(column, raw(column), std::move(why)); }

  /// A remark on a value read: in the unit's notes and in the result's.
  void note(std::string_view column, std::string why) {
    unit_.notes.push_back(fmt::format("{}: {}", column, why));
    result_.notes.push_back({listing_.file, row_, std::string(column), {}, std::move(why)});
  }

  /// Read the cell of `column` into the unit.
  void read(const Column& column) {
    const std::string_view cell = raw(column.name);
    if (column.needs_gun && !unit_.gun) {
      if (!cell.empty()) {
        not_read(column.name, cell, fmt::format("no gun was read from {}", listing_.kind->gun_column));
      }
      return;
    }
    bool dagger = false;
    if (column.split == Split::kCell) {
      dagger = read_piece(column, cell);
    } else {
      for (const std::string_view token : tokens(cell, column.split == Split::kSemicolons ? ';' : ',')) {
        dagger = read_piece(column, token) || dagger;
      }
    }
    if (dagger) note(column.name, fmt::format("dagger: check the {}", listing_.kind->note_name));
  }

 private:
  /// Read a cell or a token: whether it was read with a dagger.
  bool read_piece(const Column& column, std::string_view piece) {
    const Undaggered text = strip_daggers(piece);
    const Outcome outcome = column.read(Cell{text.text, unit_, *this, column.name});
    if (outcome.kind == Outcome::Kind::kNotRead) not_read(column.name, piece, outcome.why);
    return outcome.kind == Outcome::Kind::kRead && text.dagger;
  }

  const Listing& listing_;
  int row_;
  const Record& record_;
  ImportResult& result_;
  UnitOut& unit_;
};

void Cell::note(std::string why) const { row.note(column, std::move(why)); }

// ---- The column readers ----

Outcome read_dates(const Cell& c) {
  c.unit.dates = plain_text(c.text);
  return Outcome::ok();
}

Outcome read_size(const Cell& c) {
  static constexpr std::pair<std::string_view, int> kSizes[] = {{"+2", 2}, {"+1", 1}, {"0", 0}, {"-1", -1}, {"-2", -2}};
  if (c.text.empty()) return Outcome::ok();
  const auto* size =
      std::find_if(std::begin(kSizes), std::end(kSizes), [&c](const auto& s) { return s.first == c.text; });
  if (size == std::end(kSizes)) return Outcome::fail("expected +2, +1, 0, -1 or -2");
  c.unit.size = size->second;
  return Outcome::ok();
}

std::optional<int> armor_factor(std::string_view s) {
  const auto value = whole_number(s, 0, 26);
  if (!value || std::find(std::begin(kArmorScale), std::end(kArmorScale), *value) == std::end(kArmorScale)) {
    return std::nullopt;
  }
  return value;
}

/// af: "F/S" (front / side and rear) or "N" (every aspect); the turret as the hull until ta.
Outcome read_af(const Cell& c) {
  if (c.text.empty()) {
    c.note("empty: no armor factors, the unit cannot be a target until target.armor is set");
    return Outcome::ok();
  }
  const auto slash = c.text.find('/');
  const auto front = armor_factor(c.text.substr(0, slash));
  const auto side = slash == std::string_view::npos ? front : armor_factor(c.text.substr(slash + 1));
  if (!front || !side) {
    return Outcome::fail("expected F/S or N, each on the armor scale 0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26");
  }
  c.unit.armor = ArmorFactors{*front, *side, *front, *side};
  return Outcome::ok();
}

/// Turret armor steps on the armor scale: +1 superior (D1.62), -1 inferior (D1.63).
struct TurretSteps {
  int front = 0, side = 0;
};

/// ta: "" or parts "+F", "-SR", "+FSR" separated by "/".
std::optional<TurretSteps> parse_ta(std::string_view s) {
  TurretSteps steps;
  if (s.empty()) return steps;
  bool front_seen = false, side_seen = false;
  for (std::string_view part : pieces(s, '/')) {
    const int sign = eat(part, "+") ? 1 : eat(part, "-") ? -1 : 0;
    const bool front = part == "F" || part == "FSR", side = part == "SR" || part == "FSR";
    if (sign == 0 || (!front && !side) || (front && front_seen) || (side && side_seen)) return std::nullopt;
    if (front) steps.front = sign;
    if (side) steps.side = sign;
    front_seen = front_seen || front;
    side_seen = side_seen || side;
  }
  return steps;
}

/// `factor` moved `step` places along the armor scale, if it stays on it.
std::optional<int> step_on_scale(int factor, int step) {
  const auto* at = std::find(std::begin(kArmorScale), std::end(kArmorScale), factor);
  const auto index = (at - std::begin(kArmorScale)) + step;
  if (index < 0 || index >= static_cast<std::ptrdiff_t>(std::size(kArmorScale))) return std::nullopt;
  return kArmorScale[index];
}

/// A turret armor that cannot be read leaves the whole armor unread.
Outcome refuse_armor(const Cell& c, std::string why) {
  if (c.unit.armor) {
    c.unit.armor.reset();
    c.row.refuse("af", "its turret armor (ta) could not be read");
  }
  return Outcome::fail(std::move(why));
}

Outcome read_ta(const Cell& c) {
  const auto steps = parse_ta(c.text);
  if (!steps) return refuse_armor(c, "expected +F, -F, +SR, -SR, +FSR or -FSR, separated by \"/\" (\"-F/+SR\")");
  if (!c.unit.armor) return Outcome::ok();
  ArmorFactors& armor = *c.unit.armor;
  const auto front = step_on_scale(armor.hull_front, steps->front);
  const auto side = step_on_scale(armor.hull_side, steps->side);
  if (!front || !side) {
    return refuse_armor(c, "the turret armor steps off the armor scale (D1.62: none above 26; D1.63: none below 0)");
  }
  armor.turret_front = *front;
  armor.turret_side = *side;
  return Outcome::ok();
}

Outcome read_cs(const Cell& c) {
  if (c.text.empty() || whole_number(c.text, 1, 12)) return Outcome::ok();  // a plain CS#: nothing to write
  if (const auto bold = inside(c.text, "b"); bold && whole_number(*bold, 1, 12)) {
    c.unit.red_cs = true;
    c.note("bold read as a red CS# (a reading)");
    return Outcome::ok();
  }
  return Outcome::fail("expected a CS# or a bold CS# (red)");
}

/// The cell as a whole number in [lo, hi] into `value`, written plainly or inside <tag>...</tag>
/// (a red or circled value printed in bold or italic: then `marked` set and `why` noted). False
/// if it is neither.
bool read_number_maybe_in(const Cell& c, std::string_view tag, int lo, int hi, std::optional<int>& value, bool& marked,
                          const char* why) {
  if (const auto n = whole_number(c.text, lo, hi)) {
    value = *n;
    return true;
  }
  if (const auto in = inside(c.text, tag))
    if (const auto n = whole_number(*in, lo, hi)) {
      value = *n;
      marked = true;
      c.note(why);
      return true;
    }
  return false;
}

Outcome read_mp(const Cell& c) {
  if (c.text.empty() || read_number_maybe_in(c, "b", 1, 99, c.unit.mp_allotment, c.unit.red_mp,
                                             "bold read as a red MP allotment (a reading)"))
    return Outcome::ok();
  return Outcome::fail("expected an MP allotment or a bold one (red); superscripts are not read");
}

/// gt: the gun's mount for Case A (C5.11).
Outcome read_gt(const Cell& c) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"T", "T"}, {"ST", "ST"}, {"NT", "NT"}, {"RST", "ST"}, {"1MT", "ST"}};
  if (c.text.empty()) return Outcome::ok();
  const auto* type =
      std::find_if(std::begin(kTypes), std::end(kTypes), [&c](const auto& t) { return t.first == c.text; });
  if (type == std::end(kTypes)) return Outcome::fail("expected T, ST, NT, RST or 1MT");
  c.unit.gun_type = std::string(type->second);
  if (type->first != type->second) c.note("RST/1MT use the ST column of Case A, C5.11");
  return Outcome::ok();
}

/// A caliber in the listing's notation: 1-3 digits, bare or under an overscore/underscore span,
/// then "", "*", "L" or "LL": the gun salvo reads ("75L"), and whether a mark was dropped.
struct Caliber {
  std::string gun;
  bool marked = false;
};

std::optional<Caliber> parse_caliber(std::string_view s) {
  static constexpr std::string_view kMarks[] = {R"(<span style="text-decoration:overline">)",
                                                R"(<span style="text-decoration:underline">)"};
  Caliber caliber;
  caliber.marked = std::any_of(std::begin(kMarks), std::end(kMarks), [&s](std::string_view m) { return eat(s, m); });
  const auto mm = eat_number(s, 3);
  if (!mm || *mm < 1 || (caliber.marked && !eat(s, "</span>"))) return std::nullopt;
  if (s != "" && s != "*" && s != "L" && s != "LL") return std::nullopt;
  caliber.gun = fmt::format("{}{}", *mm, s);
  return caliber;
}

Outcome read_gun(const Cell& c, std::string_view text, std::string_view expected) {
  const auto caliber = parse_caliber(text);
  if (!caliber) return Outcome::fail(std::string(expected));
  c.unit.gun = caliber->gun;
  if (caliber->marked) c.note("the overscore/underscore mark is not used by salvo");
  return Outcome::ok();
}

/// ma: "T" (turret) or "B" (bow, hull mount) and the gun; no gun: no main armament (silently).
Outcome read_ma(const Cell& c) {
  if (c.text.empty()) return Outcome::ok();
  std::string_view text = c.text;
  const bool turret = eat(text, "T"), bow = !turret && eat(text, "B");
  if (!turret && !bow) return Outcome::fail("expected T or B and a gun (\"T75L\", \"B105*\"); not imported as a gun");
  const Outcome outcome = read_gun(c, text, "expected T or B and a gun (\"T75L\", \"B105*\"); not imported as a gun");
  if (outcome.kind == Outcome::Kind::kRead) c.unit.bow_mounted = bow;
  return outcome;
}

Outcome read_caliber(const Cell& c) {
  if (c.text.empty()) return Outcome::fail("empty: no gun");
  return read_gun(c, c.text, "expected a gun (\"75L\", \"81*\")");
}

/// rof_ife: "N", or "N (M)" with the vehicle's IFE (M), not imported.
Outcome read_rof(const Cell& c) {
  if (c.text.empty()) return Outcome::ok();
  std::string_view text = c.text;
  const int rof = eat_number(text, 1).value_or(0);
  text = trim(text);
  const auto ife = enclosed(text, "(", ")");
  const int fp = ife ? whole_number(*ife, 1, 200).value_or(0) : 0;
  if (rof < 1 || rof > 3 || (!text.empty() && fp == 0)) {
    return Outcome::fail("expected a ROF of 1-3, with its IFE in brackets if any (\"2 (4)\")");
  }
  c.unit.rof = rof;
  if (fp != 0) {
    c.note(fmt::format("IFE ({}) not imported: use firer.weapon = \"ife\" and firer.fp = {} in a situation", fp, fp));
  }
  return Outcome::ok();
}

Outcome read_breakdown(const Cell& c) {
  if (c.text.empty() || read_number_maybe_in(c, "i", 2, 12, c.unit.breakdown, c.unit.low_ammo,
                                             "italic read as a circled B#, Low Ammo D3.71 (a reading)"))
    return Outcome::ok();
  if (std::string_view x = c.text; eat(x, "X")) {
    if (const auto number = whole_number(x, 2, 12)) {
      c.unit.x_number = *number;
      return Outcome::ok();
    }
  }
  return Outcome::fail("expected a B# of 2-12, an italic B# (\"<i>11</i>\") or an X# (\"X11\")");
}

/// A special ammunition's Depletion Numbers (C8.1): "A5" (every year), "A4<sup>1</sup>/5<sup>2</sup>"
/// (each from the year written, C8.91: 9 = 1939, 0-8 = 1940-48).
struct Depletion {
  std::string_view ammo;
  std::map<int, int> by_year;  ///< 0: every year
};

std::optional<Depletion> parse_depletion(std::string_view s) {
  static constexpr std::pair<char, std::string_view> kAmmo[] = {{'A', "APCR"}, {'D', "APDS"}, {'H', "HEAT"}};
  const auto* ammo = std::find_if(std::begin(kAmmo), std::end(kAmmo),
                                  [&s](const auto& a) { return !s.empty() && s.front() == a.first; });
  if (ammo == std::end(kAmmo)) return std::nullopt;
  Depletion depletion{ammo->second, {}};
  for (std::string_view entry : pieces(s.substr(1), '/')) {
    const auto number = eat_number(entry, 2);
    int year = 0;
    if (eat(entry, "<sup>")) {
      if (entry.empty() || !is_digit(entry.front())) return std::nullopt;
      year = entry.front() == '9' ? 1939 : 1940 + (entry.front() - '0');
      entry.remove_prefix(1);
      if (!eat(entry, "</sup>")) return std::nullopt;
    }
    const bool mixed = !depletion.by_year.empty() && (year == 0) != depletion.by_year.contains(0);
    const bool in_order = depletion.by_year.empty() || year > depletion.by_year.rbegin()->first;
    if (!number || *number < 2 || *number > 12 || !entry.empty() || mixed || !in_order) return std::nullopt;
    depletion.by_year[year] = *number;
  }
  if (depletion.by_year.empty()) return std::nullopt;
  return depletion;
}

/// Tokens of the ammunition and special columns that salvo does not use, by how they start.
constexpr std::pair<std::string_view, std::string_view> kUnusedTokens[] = {
    {"AP", "Limited Stowage (C8.8) is not modelled by salvo"},
    {"HE", "Limited Stowage (C8.8) is not modelled by salvo"},
    {"WP", "White Phosphorus is not used by salvo"},
    {"IR", "Illuminating Rounds are not used by salvo"},
    {"s", "smoke is not used by salvo"},
    {"C", "Canister is not used by salvo"},
    {"Opt", "optional weapons are not imported"},
    {"QSU", "Quick Set Up is not used by salvo"},
    {"NM", "not used by salvo"},
    {"RFNM", "not used by salvo"},
    {"LF", "Limbered Fire is not imported"},
    {"uses ", "not imported: check the Ordnance Note"},
};

/// An ammunition token: Depletion Numbers, or the reason it is not read.
Outcome read_depletion(const Cell& c, std::string_view otherwise) {
  if (const auto depletion = parse_depletion(c.text)) {
    const std::string ammo(depletion->ammo);
    if (c.unit.depletion.contains(ammo)) return Outcome::fail(ammo + " is listed twice");
    c.unit.depletion[ammo] = depletion->by_year;
    return Outcome::ok();
  }
  const auto* unused = std::find_if(std::begin(kUnusedTokens), std::end(kUnusedTokens),
                                    [&c](const auto& u) { return c.text.starts_with(u.first); });
  if (unused != std::end(kUnusedTokens)) return Outcome::fail(std::string(unused->second));
  if (c.text.find('[') != std::string_view::npos) return Outcome::fail("the bracketed notation is not read");
  return Outcome::fail(std::string(otherwise));
}

Outcome read_ammunition(const Cell& c) {
  return read_depletion(c,
                        "expected A (APCR), D (APDS) or H (HEAT) with Depletion Numbers of 2-12, each from "
                        "a year if any (\"A4<sup>1</sup>/5<sup>2</sup>\")");
}

/// ordnance gun_type: a mortar, or the Gun's class.
Outcome read_gun_type(const Cell& c) {
  static constexpr std::string_view kClasses[] = {"MTR", "AT", "INF", "ART", "AA", "RCL"};
  if (c.text.empty()) return Outcome::ok();
  if (std::find(std::begin(kClasses), std::end(kClasses), c.text) == std::end(kClasses)) {
    return Outcome::fail("expected MTR, AT, INF, ART, AA or RCL");
  }
  c.unit.unit_class = std::string(c.text);
  c.unit.mortar = c.text == "MTR";
  return Outcome::ok();
}

/// ordnance range: a mortar's minimum and maximum range; ignored for other Guns.
Outcome read_range(const Cell& c) {
  if (!c.unit.mortar) return Outcome::ignore();
  if (c.text.empty()) return Outcome::fail("empty: a mortar needs its range");
  const auto dash = c.text.find('-');
  const auto min = whole_number(c.text.substr(0, dash), 0, 200);
  const auto max = dash == std::string_view::npos ? std::nullopt : whole_number(c.text.substr(dash + 1), 1, 500);
  if (!min || !max || *min > *max) return Outcome::fail("expected a mortar's range as MIN-MAX (\"2-60\")");
  c.unit.min_range = *min;
  c.unit.max_range = *max;
  return Outcome::ok();
}

/// ordnance special: the gun's mount, no Intensive Fire, and its special ammunition.
Outcome read_special(const Cell& c) {
  if (c.text == "NT" || c.text == "T") {
    if (c.unit.gun_type && *c.unit.gun_type != c.text) return Outcome::fail("a second gun type");
    c.unit.gun_type = std::string(c.text);
    return Outcome::ok();
  }
  if (c.text == "no IF") {
    c.unit.no_intensive_fire = true;
    return Outcome::ok();
  }
  if (!c.unit.gun && parse_depletion(c.text)) return Outcome::fail("no gun was read from caliber");
  return read_depletion(c, "not used by salvo");
}

constexpr Column kVehicleColumns[] = {
    {"dates", read_dates},
    {"size", read_size},
    {"af", read_af},
    {"ta", read_ta},  // after af: it steps af's values
    {"cs", read_cs},
    {"mp", read_mp},
    {"gt", read_gt},
    {"ma", read_ma},  // before the columns that need its gun
    {"rof_ife", read_rof, Split::kCell, true},
    {"breakdown", read_breakdown, Split::kCell, true},
    {"ammunition", read_ammunition, Split::kSemicolons, true},
};

constexpr Column kOrdnanceColumns[] = {
    {"gun_type", read_gun_type},  // before range: a mortar's
    {"caliber", read_caliber},    // before the columns that need its gun
    {"rof_ife", read_rof, Split::kCell, true},
    {"breakdown", read_breakdown, Split::kCell, true},
    {"range", read_range},
    {"dates", read_dates},
    {"special", read_special, Split::kCommas},
};

constexpr ListingKind kKinds[] = {
    {"_vehicles.csv", "vehicle", "Vehicle Note", "ma", true, kVehicleColumns},
    {"_ordnance.csv", "gun", "Ordnance Note", "caliber", false, kOrdnanceColumns},
};

// ---- Listings ----

/// The salvo nationality of a file name prefix, if it has one.
std::optional<std::string> nationality_of(std::string_view prefix) {
  static constexpr std::pair<std::string_view, std::string_view> kNationalities[] = {
      {"german", "german"},     {"russian", "russian"}, {"american", "american"},   {"british", "british"},
      {"french", "french"},     {"italian", "italian"}, {"finnish", "finnish"},     {"swedish", "swedish"},
      {"japanese", "japanese"}, {"axis", "axis_minor"}, {"allied", "allied_minor"}, {"chinese", "chinese_gmd"}};
  for (const auto& [from, to] : kNationalities) {
    if (from == prefix) return std::string(to);
  }
  return std::nullopt;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

[[noreturn]] void not_a_listing(const std::string& file, const std::string& why) {
  throw std::runtime_error(fmt::format("{}: not a vehicle or ordnance listing: {}", file, why));
}

/// The listing `file` is, from its name and its header. Throws if it is not one.
Listing open_listing(const CsvFile& file, const Record& header) {
  const std::string base = lower(base_name(file.name));
  Listing listing{file.name, nullptr, std::nullopt, {}};
  for (const ListingKind& kind : kKinds) {
    if (base.size() > kind.suffix.size() && base.ends_with(kind.suffix)) listing.kind = &kind;
  }
  if (listing.kind == nullptr) not_a_listing(file.name, "its name does not end in _vehicles.csv or _ordnance.csv");
  for (std::size_t i = 0; i < header.size(); ++i) listing.columns.emplace(trim(header[i]), i);
  if (!listing.columns.contains("name")) not_a_listing(file.name, "its header has no column \"name\"");
  for (const Column& column : listing.kind->columns) {
    if (!listing.columns.contains(column.name)) {
      not_a_listing(file.name, fmt::format("its header has no column \"{}\"", column.name));
    }
  }
  listing.nationality = nationality_of(std::string_view(base).substr(0, base.size() - listing.kind->suffix.size()));
  return listing;
}

/// The units read so far, and where each name was first seen.
struct Library {
  std::vector<UnitOut> units;
  std::unordered_map<std::string, std::pair<std::string, int>> first_at;  ///< name_key -> file, row
};

/// The second row of the files: the display header, its cells in bold.
bool is_display_header(int row, std::string_view name_cell) { return row == 2 && inside(name_cell, "b"); }

void read_row(const Listing& listing, int row, const Record& record, ImportResult& result, Library& library) {
  UnitOut unit;
  RowReader reader(listing, row, record, result, unit);
  const std::string_view name_cell = reader.raw("name");
  if (is_display_header(row, name_cell)) return;
  const Undaggered undaggered = strip_daggers(name_cell);
  if (listing.kind->italic_class) {
    // "PzKpfw IVF<sub>2</sub> <i>MT</i>": the name outside the italics, the class inside.
    std::string outside, italic;
    std::string_view rest = undaggered.text;
    for (auto open = rest.find("<i>"); open != std::string_view::npos; open = rest.find("<i>")) {
      outside += fmt::format("{} ", rest.substr(0, open));
      const auto close = rest.find("</i>", open);
      italic += fmt::format("{} ", rest.substr(open + 3, close == std::string_view::npos ? close : close - open - 3));
      rest = close == std::string_view::npos ? std::string_view() : rest.substr(close + 4);
    }
    unit.name = plain_text(outside + std::string(rest));
    unit.unit_class = plain_text(italic);
  } else {
    unit.name = plain_text(undaggered.text);
  }
  if (unit.name.empty()) return;
  const auto [first, fresh] = library.first_at.try_emplace(name_key(unit.name), listing.file, row);
  if (!fresh) {
    reader.not_read("name", name_cell,
                    fmt::format("duplicate name, first at {} row {}", first->second.first, first->second.second));
    return;
  }
  if (undaggered.dagger) reader.note("name", fmt::format("dagger: check the {}", listing.kind->note_name));
  unit.kind = std::string(listing.kind->unit_kind);
  unit.source = fmt::format("{} row {}", base_name(listing.file), row);
  unit.nationality = listing.nationality;
  for (const Column& column : listing.kind->columns) reader.read(column);
  library.units.push_back(std::move(unit));
}

void read_listing(const CsvFile& file, ImportResult& result, Library& library) {
  std::string_view text = file.text;
  eat(text, "\xEF\xBB\xBF");  // a byte order mark
  const std::vector<Record> records = read_csv(file.name, text);
  if (records.empty()) not_a_listing(file.name, "it is empty");
  const Listing listing = open_listing(file, records.front());
  if (!listing.nationality) {
    const std::string base = lower(base_name(file.name));
    const std::string prefix = base.substr(0, base.size() - listing.kind->suffix.size());
    result.not_read.push_back(
        {file.name, 1, "name", prefix,
         fmt::format("no salvo nationality for the file name prefix {}: set firer.nationality in your situation",
                     prefix)});
  }
  for (std::size_t i = 1; i < records.size(); ++i) {
    read_row(listing, static_cast<int>(i) + 1, records[i], result, library);
  }
}

// ---- The unit library ----

using Keys = std::vector<std::pair<std::string_view, std::string>>;

void add_int(Keys& keys, std::string_view key, const std::optional<int>& value) {
  if (value) keys.emplace_back(key, std::to_string(*value));
}
void add_true(Keys& keys, std::string_view key, bool value) {
  if (value) keys.emplace_back(key, "true");
}

Keys firer_keys(const UnitOut& u) {
  Keys keys;
  if (u.nationality) keys.emplace_back("nationality", toml_string(*u.nationality));
  if (u.gun) keys.emplace_back("gun", toml_string(*u.gun));
  add_int(keys, "rof", u.rof);
  add_int(keys, "breakdown", u.breakdown);
  add_int(keys, "x_number", u.x_number);
  add_true(keys, "low_ammo", u.low_ammo);
  if (u.gun_type) keys.emplace_back("gun_type", toml_string(*u.gun_type));
  add_true(keys, "bow_mounted", u.bow_mounted);
  add_true(keys, "mortar", u.mortar);
  add_int(keys, "min_range", u.min_range);
  add_int(keys, "max_range", u.max_range);
  add_true(keys, "no_intensive_fire", u.no_intensive_fire);
  return keys;
}

Keys target_keys(const UnitOut& u) {
  Keys keys;
  if (const auto& a = u.armor) {
    keys.emplace_back("armor", fmt::format("{{ hull_front = {}, hull_side = {}, turret_front = {}, turret_side = {} }}",
                                           a->hull_front, a->hull_side, a->turret_front, a->turret_side));
  }
  add_int(keys, "size", u.size);
  add_true(keys, "red_cs", u.red_cs);
  return keys;
}

Keys movement_keys(const UnitOut& u) {
  Keys keys;
  add_int(keys, "mp_allotment", u.mp_allotment);
  add_true(keys, "red_mp", u.red_mp);
  return keys;
}

Keys depletion_keys(const UnitOut& u) {
  Keys keys;
  for (const auto& [ammo, by_year] : u.depletion) {
    if (by_year.contains(0)) {
      keys.emplace_back(ammo, std::to_string(by_year.at(0)));
      continue;
    }
    std::vector<std::string> years;
    for (const auto& [year, number] : by_year) years.push_back(fmt::format("{} = {}", year, number));
    keys.emplace_back(ammo, fmt::format("{{ {} }}", fmt::join(years, ", ")));
  }
  return keys;
}

void write_table(std::string& out, std::string_view header, const Keys& keys) {
  if (keys.empty()) return;
  out += fmt::format("[{}]\n", header);
  for (const auto& [key, value] : keys) out += fmt::format("{} = {}\n", key, value);
}

void write_unit(std::string& out, const UnitOut& u) {
  out += fmt::format("\n[[unit]]\nname = {}\nkind = {}\n", toml_string(u.name), toml_string(u.kind));
  if (!u.unit_class.empty()) out += fmt::format("class = {}\n", toml_string(u.unit_class));
  if (!u.dates.empty()) out += fmt::format("dates = {}\n", toml_string(u.dates));
  out += fmt::format("source = {}\n", toml_string(u.source));
  if (!u.notes.empty()) {
    std::vector<std::string> notes;
    for (const std::string& note : u.notes) notes.push_back(toml_string(note));
    out += fmt::format("notes = [{}]\n", fmt::join(notes, ", "));
  }
  write_table(out, "unit.firer", firer_keys(u));
  write_table(out, "unit.target", target_keys(u));
  write_table(out, "unit.movement", movement_keys(u));
  write_table(out, "unit.depletion", depletion_keys(u));
}

std::string write_library(const std::vector<CsvFile>& files, const std::vector<UnitOut>& units) {
  std::vector<std::string> names;
  for (const CsvFile& f : files) names.push_back(comment_text(base_name(f.name)));
  std::string out = fmt::format(
      "# Imported by `salvo units import` from: {}\n# Check every value against your own counters.\n"
      "library = \"asl-units\"\n",
      fmt::join(names, ", "));
  for (const UnitOut& unit : units) write_unit(out, unit);
  return out;
}

}  // namespace

ImportResult import_vasl_csv(const std::vector<CsvFile>& files) {
  ImportResult result;
  Library library;
  for (const CsvFile& file : files) read_listing(file, result, library);
  result.units = static_cast<int>(library.units.size());
  result.toml = write_library(files, library.units);
  return result;
}

}  // namespace salvo::import
