// The counter-listing importer (salvo/import/vasl_csv.h) on synthetic listings: every row's name
// and values below are made up, in the files' notation. Each notation read right (checked in the
// TOML it writes, parsed back), each malformed cell reported by file, row and column.

#include <toml++/toml.h>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/import/vasl_csv.h"
#include "support/thrown.h"

namespace {

using salvo::import::CsvFile;
using salvo::import::import_vasl_csv;
using salvo::import::ImportResult;
using salvo::import::Remark;

// ---- Synthetic listings ----

/// A row: column -> cell as written (before CSV quoting).
using Row = std::map<std::string, std::string>;

/// The columns of the synthetic listings, in file order; some the importer ignores.
const std::vector<std::string> kVehicleColumns = {"count", "name",    "radioless", "weight", "dates",      "size",
                                                  "af",    "ta",      "ot",        "cs",     "mp",         "gt",
                                                  "ma",    "rof_ife", "breakdown", "bmg",    "ammunition", "notes"};
const std::vector<std::string> kOrdnanceColumns = {"count",   "name",      "gun_type", "caliber",
                                                   "rof_ife", "breakdown", "range",    "manhandling",
                                                   "dates",   "special",   "notes"};

/// A plain vehicle, every cell readable; `changes` replace its cells.
Row vehicle(const Row& changes = {}) {
  Row row = {{"count", "4"},    {"name", "Testwagen A <i>MT</i>"},
             {"weight", "21"},  {"dates", "41-44"},
             {"size", "0"},     {"af", "6/3"},
             {"cs", "5"},       {"mp", "14"},
             {"gt", "T"},       {"ma", "T75L"},
             {"rof_ife", "1"},  {"bmg", "3"},
             {"notes", "12, N"}};
  for (const auto& [column, cell] : changes) row[column] = cell;
  return row;
}

/// A plain Gun (an anti-tank gun); `changes` replace its cells.
Row gun(const Row& changes = {}) {
  Row row = {{"count", "3"},  {"name", "Testkanone 50"}, {"gun_type", "AT"}, {"caliber", "50L"}, {"rof_ife", "2"},
             {"range", "90"}, {"manhandling", "10"},     {"dates", "40-45"}, {"special", "NT"},  {"notes", "4"}};
  for (const auto& [column, cell] : changes) row[column] = cell;
  return row;
}

std::string csv_cell(std::string_view cell) {
  if (cell.find_first_of(",\"\n") == std::string_view::npos) return std::string(cell);
  std::string out = "\"";
  for (const char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& columns, const Row& row) {
  std::string line;
  for (const std::string& column : columns) {
    if (&column != &columns.front()) line += ',';
    if (const auto at = row.find(column); at != row.end()) line += csv_cell(at->second);
  }
  return line + "\n";
}

/// The display header, the second row of the real files: every cell bold.
std::string display_line(const std::vector<std::string>& columns) {
  Row row;
  for (const std::string& column : columns) row[column] = "<b>" + column + "</b>";
  row["name"] = "<b>Name & <i>Type</i></b>";
  return csv_line(columns, row);
}

/// A listing: the header, the display header, then `rows` (the first at row 3).
std::string listing(const std::vector<std::string>& columns, const std::vector<Row>& rows) {
  std::string text;
  for (const std::string& column : columns) text += (text.empty() ? "" : ",") + column;
  text += "\n" + display_line(columns);
  for (const Row& row : rows) text += csv_line(columns, row);
  return text;
}

CsvFile vehicles(const std::vector<Row>& rows, std::string name = "german_vehicles.csv") {
  return {std::move(name), listing(kVehicleColumns, rows)};
}
CsvFile ordnance(const std::vector<Row>& rows, std::string name = "german_ordnance.csv") {
  return {std::move(name), listing(kOrdnanceColumns, rows)};
}

// ---- The result ----

struct Imported {
  ImportResult result;
  toml::table doc;

  const toml::table& unit(std::size_t i = 0) const {
    const toml::array* units = doc["unit"].as_array();
    REQUIRE(units != nullptr);
    REQUIRE(i < units->size());
    return *(*units)[i].as_table();
  }
  std::optional<std::string> text(std::string_view path, std::size_t i = 0) const {
    return unit(i).at_path(path).value<std::string>();
  }
  std::optional<std::int64_t> number(std::string_view path, std::size_t i = 0) const {
    return unit(i).at_path(path).value<std::int64_t>();
  }
  std::optional<bool> flag(std::string_view path, std::size_t i = 0) const {
    return unit(i).at_path(path).value<bool>();
  }
  bool has(std::string_view path, std::size_t i = 0) const { return static_cast<bool>(unit(i).at_path(path)); }
  std::vector<std::string> notes(std::size_t i = 0) const {
    std::vector<std::string> out;
    if (const toml::array* a = unit(i)["notes"].as_array()) {
      for (const toml::node& n : *a) out.push_back(n.value<std::string>().value_or("?"));
    }
    return out;
  }
  std::size_t units() const {
    const toml::array* units = doc["unit"].as_array();
    return units == nullptr ? 0 : units->size();
  }
};

/// Import `files`; the output must parse as TOML.
Imported import_files(const std::vector<CsvFile>& files) {
  Imported out{import_vasl_csv(files), {}};
  INFO(out.result.toml);
  try {
    out.doc = toml::parse(out.result.toml);
  } catch (const toml::parse_error& e) {
    FAIL("the unit library is not valid TOML: " << e.description());
  }
  CHECK(out.doc["library"].value<std::string>() == "asl-units");
  CHECK(static_cast<std::size_t>(out.result.units) == out.units());
  return out;
}

Imported import_vehicle(const Row& changes) { return import_files({vehicles({vehicle(changes)})}); }
Imported import_gun(const Row& changes) { return import_files({ordnance({gun(changes)})}); }

/// The one remark about `column`, checked to exist once.
Remark only(const std::vector<Remark>& remarks, std::string_view column) {
  std::vector<Remark> found;
  for (const Remark& r : remarks) {
    if (r.column == column) found.push_back(r);
  }
  INFO("remarks on column " << column);
  REQUIRE(found.size() == 1);
  return found.front();
}

std::string all(const std::vector<Remark>& remarks) {
  std::string out;
  for (const Remark& r : remarks) out += r.str() + "\n";
  return out;
}

/// The cells not read, in the order reported: "row:column=cell".
std::vector<std::string> not_read_cells(const Imported& im) {
  std::vector<std::string> out;
  for (const Remark& r : im.result.not_read) out.push_back(std::to_string(r.row) + ":" + r.column + "=" + r.cell);
  return out;
}

/// A cell of `column` not read: the only remark, at row 3 of german_vehicles.csv (or `file`).
void check_not_read(const Imported& im, std::string_view column, std::string_view cell,
                    std::string_view file = "german_vehicles.csv", int row = 3) {
  INFO(all(im.result.not_read));
  REQUIRE(im.result.not_read.size() == 1);
  const Remark& r = im.result.not_read.front();
  CHECK(r.file == file);
  CHECK(r.row == row);
  CHECK(r.column == column);
  CHECK(r.cell == cell);
  CHECK(!r.why.empty());
}

/// Each of `cells` in `column` of a plain vehicle: not read (check_not_read), and none of the
/// keys `absent` written.
void check_cells_not_read(std::string_view column, std::initializer_list<const char*> cells,
                          std::initializer_list<std::string_view> absent) {
  for (const std::string cell : cells) {
    CAPTURE(cell);
    const Imported im = import_vehicle({{std::string(column), cell}});
    check_not_read(im, column, cell);
    for (const std::string_view key : absent) CHECK_FALSE(im.has(key));
  }
}

/// A row whose gun cell (`column`, holding `cell`) reads as no gun: that cell and rof_ife are
/// reported, and so is each of the row's `others` (column, cell), which need the gun; none of
/// the keys of the gun, `unset` among them, is written; the gun type, which does not need the
/// gun, is.
void check_no_gun(const Imported& im, const std::string& column, const std::string& cell,
                  const std::vector<std::pair<std::string, std::string>>& others, std::string_view unset,
                  const std::string& gun_type) {
  INFO(all(im.result.not_read));
  REQUIRE(im.result.not_read.size() == 2 + others.size());
  CHECK(only(im.result.not_read, column).cell == cell);
  CHECK(only(im.result.not_read, "rof_ife").why == "no gun was read from " + column);
  for (const auto& [other, other_cell] : others) CHECK(only(im.result.not_read, other).cell == other_cell);
  for (const std::string_view key :
       std::initializer_list<std::string_view>{"firer.gun", "firer.rof", "firer.breakdown", unset, "depletion"}) {
    CHECK_FALSE(im.has(key));
  }
  CHECK(im.text("firer.gun_type") == gun_type);
}

/// A number that a mark on its cell flags: in `column`, the cell `plain` reads as `plain_value`
/// into `key` without the flag `flag`; the cell `marked` as `marked_value` with the flag, and the
/// one note `note`.
struct MarkedNumber {
  std::string column, key, flag;
  std::string plain;
  std::int64_t plain_value;
  std::string marked;
  std::int64_t marked_value;
  std::string note;
};

void check_marked_number(const MarkedNumber& m) {
  Imported im = import_vehicle({{m.column, m.plain}});
  CHECK(im.number(m.key) == m.plain_value);
  CHECK_FALSE(im.has(m.flag));
  im = import_vehicle({{m.column, m.marked}});
  CHECK(im.number(m.key) == m.marked_value);
  CHECK(im.flag(m.flag) == true);
  CHECK(im.notes() == std::vector<std::string>{m.note});
}

// ---- Whole rows ----

TEST_CASE("a plain vehicle row becomes a unit with every value read", "[import]") {
  const Imported im = import_vehicle({});
  INFO(all(im.result.not_read));
  CHECK(im.result.not_read.empty());
  CHECK(im.result.notes.empty());
  REQUIRE(im.units() == 1);
  CHECK(im.text("name") == "Testwagen A");
  CHECK(im.text("kind") == "vehicle");
  CHECK(im.text("class") == "MT");
  CHECK(im.text("dates") == "41-44");
  CHECK(im.text("source") == "german_vehicles.csv row 3");
  CHECK_FALSE(im.has("notes"));
  CHECK(im.text("firer.nationality") == "german");
  CHECK(im.text("firer.gun") == "75L");
  CHECK(im.number("firer.rof") == 1);
  CHECK(im.text("firer.gun_type") == "T");
  CHECK_FALSE(im.has("firer.breakdown"));
  CHECK_FALSE(im.has("firer.bow_mounted"));
  CHECK(im.number("target.armor.hull_front") == 6);
  CHECK(im.number("target.armor.hull_side") == 3);
  CHECK(im.number("target.armor.turret_front") == 6);
  CHECK(im.number("target.armor.turret_side") == 3);
  CHECK_FALSE(im.has("target.turret_armor"));
  CHECK(im.number("target.size") == 0);
  CHECK_FALSE(im.has("target.red_cs"));
  CHECK(im.number("movement.mp_allotment") == 14);
  CHECK_FALSE(im.has("movement.red_mp"));
  CHECK_FALSE(im.has("depletion"));
  CHECK_FALSE(im.has("firer.vehicle"));
}

TEST_CASE("the library text starts with its header comment", "[import]") {
  const ImportResult r = import_vasl_csv({vehicles({vehicle()}), ordnance({gun()}, "data/russian_ordnance.csv")});
  CHECK(
      r.toml.starts_with("# Imported by `salvo units import` from: german_vehicles.csv, russian_ordnance.csv\n"
                         "# Check every value against your own counters.\nlibrary = \"asl-units\"\n"));
  CHECK(r.units == 2);
}

TEST_CASE("only the keys read are written", "[import]") {
  const Imported im = import_vehicle({{"dates", ""},
                                      {"size", ""},
                                      {"af", ""},
                                      {"cs", ""},
                                      {"mp", ""},
                                      {"gt", ""},
                                      {"ma", ""},
                                      {"rof_ife", ""},
                                      {"name", "Testlaster <i></i>"}});
  CHECK(im.result.not_read.empty());
  CHECK(im.text("name") == "Testlaster");
  CHECK_FALSE(im.has("class"));
  CHECK_FALSE(im.has("dates"));
  CHECK(im.text("firer.nationality") == "german");
  CHECK(im.unit()["firer"].as_table()->size() == 1);
  CHECK_FALSE(im.has("target"));
  CHECK_FALSE(im.has("movement"));
  CHECK_FALSE(im.has("depletion"));
  // The empty af, the one note.
  CHECK(im.notes() ==
        std::vector<std::string>{"af: empty: no armor factors, the unit cannot be a target until target.armor is set"});
}

TEST_CASE("the display header row and rows without a name are skipped silently", "[import]") {
  const Imported im =
      import_files({vehicles({vehicle({{"name", ""}}), vehicle({{"name", "<i>LT</i>"}}), vehicle({{"count", ""}})})});
  CHECK(im.result.not_read.empty());
  REQUIRE(im.units() == 1);
  CHECK(im.text("source") == "german_vehicles.csv row 5");
  // Without the display row, the first row is row 2 and is read.
  const std::string header = "count,name,dates,size,af,ta,cs,mp,gt,ma,rof_ife,breakdown,ammunition\n";
  const Imported plain =
      import_files({{"german_vehicles.csv", header + "1,Testwagen B <i>LT</i>,40,+1,1,,3,15,ST,T37,1,,\n"}});
  REQUIRE(plain.units() == 1);
  CHECK(plain.text("source") == "german_vehicles.csv row 2");
  CHECK(plain.number("target.size") == 1);
}

TEST_CASE("names lose their markup and vehicles take their class from the italics", "[import]") {
  const Imported im = import_files({vehicles({vehicle({{"name", "Testwagen IVF<sub>2</sub> <i>MT</i>"}}),
                                              vehicle({{"name", "Testwagen C <i>AG/TD</i> w/ Opt &amp; MG"}}),
                                              vehicle({{"name", "  Testwagen   D   <i> LT </i>"}})}),
                                    ordnance({gun({{"name", "7.5cm Testkanone<sup>x</sup> <i>1</i>"}})})});
  REQUIRE(im.units() == 4);
  CHECK(im.text("name", 0) == "Testwagen IVF2");
  CHECK(im.text("class", 0) == "MT");
  CHECK(im.text("name", 1) == "Testwagen C w/ Opt & MG");
  CHECK(im.text("class", 1) == "AG/TD");
  CHECK(im.text("name", 2) == "Testwagen D");
  CHECK(im.text("class", 2) == "LT");
  CHECK(im.text("name", 3) == "7.5cm Testkanonex 1");
  CHECK(im.text("class", 3) == "AT");  // a Gun's class is its gun_type
}

// ---- Vehicle cells ----

TEST_CASE("size", "[import]") {
  const std::pair<std::string, int> sizes[] = {{"+2", 2}, {"+1", 1}, {"0", 0}, {"-1", -1}, {"-2", -2}};
  for (const auto& [cell, size] : sizes) {
    CAPTURE(cell);
    CHECK(import_vehicle({{"size", cell}}).number("target.size") == size);
  }
  check_cells_not_read("size", {"+3", "1", "–", "<b>0</b>", "0 (+1)"}, {"target.size"});
}

TEST_CASE("af as F/S or one factor for every aspect", "[import]") {
  Imported im = import_vehicle({{"af", "11"}});
  CHECK(im.number("target.armor.hull_front") == 11);
  CHECK(im.number("target.armor.hull_side") == 11);
  CHECK(im.number("target.armor.turret_front") == 11);
  CHECK(im.number("target.armor.turret_side") == 11);
  im = import_vehicle({{"af", "26/0"}});
  CHECK(im.number("target.armor.hull_front") == 26);
  CHECK(im.number("target.armor.turret_side") == 0);
  check_cells_not_read("af", {"1/1/\xE2\x98\x85T", "\xE2\x98\x85", "5/3", "8/27", "8/", "/3", "8/3/3", "<b>8</b>/3"},
                       {"target.armor"});
}

TEST_CASE("ta steps the turret armor along the armor scale", "[import]") {
  struct Case {
    std::string af, ta;
    int turret_front, turret_side;
  };
  const Case cases[] = {
      {"11/8", "+F", 14, 8},    // D1.62: superior, the next higher value
      {"6/4", "-SR", 6, 3},     // D1.63: inferior, the next lower value
      {"6/4", "-F", 4, 4},      //
      {"8/3", "+FSR", 11, 4},   //
      {"8/3", "-F/+SR", 6, 4},  //
      {"14/1", "-FSR", 11, 0},  //
      {"1", "+SR/-F", 0, 2},    //
      {"4/2", "", 4, 2},        // the turret as the hull
  };
  for (const Case& c : cases) {
    CAPTURE(c.af, c.ta);
    const Imported im = import_vehicle({{"af", c.af}, {"ta", c.ta}});
    CHECK(im.result.not_read.empty());
    CHECK(im.number("target.armor.turret_front") == c.turret_front);
    CHECK(im.number("target.armor.turret_side") == c.turret_side);
    CHECK_FALSE(im.has("target.turret_armor"));
  }
  CHECK(import_vehicle({{"af", "11/8"}, {"ta", "+F"}}).number("target.armor.hull_front") == 11);
}

TEST_CASE("a ta that cannot be read leaves the armor unread", "[import]") {
  struct Case {
    std::string af, ta;
  };
  const Case cases[] = {{"26/8", "+F"}, {"8/0", "-SR"}, {"8/3", "+T"},           {"8/3", "F"},     {"8/3", "+F/-F"},
                        {"8/3", "+f"},  {"8/3", "+F/"}, {"8/3", "\xE2\x98\x85"}, {"8/3", "+F +SR"}};
  for (const Case& c : cases) {
    CAPTURE(c.af, c.ta);
    const Imported im = import_vehicle({{"af", c.af}, {"ta", c.ta}});
    INFO(all(im.result.not_read));
    REQUIRE(im.result.not_read.size() == 2);
    const Remark ta = only(im.result.not_read, "ta"), af = only(im.result.not_read, "af");
    CHECK(ta.cell == c.ta);
    CHECK(ta.row == 3);
    CHECK(af.cell == c.af);
    CHECK(af.why == "its turret armor (ta) could not be read");
    CHECK_FALSE(im.has("target.armor"));
    CHECK(im.number("target.size") == 0);  // the rest of the row is read
  }
  // Without af, a bad ta is reported alone.
  const Imported im = import_vehicle({{"af", ""}, {"ta", "+X"}});
  check_not_read(im, "ta", "+X");
}

TEST_CASE("cs bold is read as a red CS#", "[import]") {
  Imported im = import_vehicle({{"cs", "<b>5</b>"}});
  CHECK(im.flag("target.red_cs") == true);
  CHECK(im.notes() == std::vector<std::string>{"cs: bold read as a red CS# (a reading)"});
  REQUIRE(im.result.notes.size() == 1);
  CHECK(im.result.notes[0].str() == "german_vehicles.csv:3: cs: bold read as a red CS# (a reading)");
  im = import_vehicle({{"cs", "7"}});
  CHECK_FALSE(im.has("target.red_cs"));
  CHECK(im.result.notes.empty());
  check_cells_not_read("cs", {"<i>2</i>", "<b>x</b>", "5a", "<b>5</b>x"}, {"target.red_cs"});
}

TEST_CASE("mp plain and bold", "[import]") {
  check_marked_number({"mp", "movement.mp_allotment", "movement.red_mp", "13", 13, "<b>12</b>", 12,
                       "mp: bold read as a red MP allotment (a reading)"});
  check_cells_not_read("mp", {"25<sup>t</sup>", "<b>14</b><sup>2</sup>", "<i>12</i>", "0", "100", "12t"}, {"movement"});
}

TEST_CASE("gt into the gun type of Case A", "[import]") {
  const std::pair<std::string, std::string> types[] = {
      {"T", "T"}, {"ST", "ST"}, {"NT", "NT"}, {"RST", "ST"}, {"1MT", "ST"}};
  for (const auto& [cell, type] : types) {
    CAPTURE(cell);
    const Imported im = import_vehicle({{"gt", cell}});
    CHECK(im.text("firer.gun_type") == type);
    if (cell == "RST" || cell == "1MT") {
      CHECK(im.notes() == std::vector<std::string>{"gt: RST/1MT use the ST column of Case A, C5.11"});
    } else {
      CHECK(im.notes().empty());
    }
  }
  CHECK_FALSE(import_vehicle({{"gt", ""}}).has("firer.gun_type"));
  check_cells_not_read("gt", {"T-NT", "BMG", "t", "<b>T</b>"}, {"firer.gun_type"});
}

TEST_CASE("ma into the gun and its mount", "[import]") {
  struct Case {
    std::string cell, gun;
    bool bow, marked;
  };
  const Case cases[] = {
      {"T75L", "75L", false, false},
      {"B75*", "75*", true, false},
      {"T37", "37", false, false},
      {"B88LL", "88LL", true, false},
      {"T8", "8", false, false},
      {R"(T<span style="text-decoration:overline">75</span>*)", "75*", false, true},
      {R"(B<span style="text-decoration:overline">150</span>)", "150", true, true},
      {R"(T<span style="text-decoration:underline">40</span>L)", "40L", false, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.cell);
    const Imported im = import_vehicle({{"ma", c.cell}});
    CHECK(im.result.not_read.empty());
    CHECK(im.text("firer.gun") == c.gun);
    CHECK(im.flag("firer.bow_mounted") == (c.bow ? std::optional<bool>(true) : std::nullopt));
    CHECK(im.number("firer.rof") == 1);
    if (c.marked) {
      CHECK(im.notes() == std::vector<std::string>{"ma: the overscore/underscore mark is not used by salvo"});
    } else {
      CHECK(im.notes().empty());
    }
  }
}

TEST_CASE("no gun from ma means no rof breakdown or depletion", "[import]") {
  for (const std::string cell :
       {"CMG", "AAMG", "BF24", "<b>TF30</b>", "S75", "T1234", "T75LLL", "T0", "75L", "T 75",
        R"(T<span style="text-decoration:overline">75*</span>)", R"(T<span style="text-decoration:blink">75</span>)"}) {
    CAPTURE(cell);
    const Imported im = import_vehicle({{"ma", cell}, {"breakdown", "11"}, {"ammunition", "A5"}});
    CHECK(im.text("kind") == "vehicle");
    check_no_gun(im, "ma", cell, {{"breakdown", "11"}, {"ammunition", "A5"}}, "firer.bow_mounted", "T");
  }
  // An empty ma: no gun, silently; a rof then is reported.
  Imported im = import_vehicle({{"ma", ""}, {"rof_ife", ""}});
  CHECK(im.result.not_read.empty());
  CHECK_FALSE(im.has("firer.gun"));
  im = import_vehicle({{"ma", ""}});
  check_not_read(im, "rof_ife", "1");
}

TEST_CASE("rof_ife", "[import]") {
  Imported im = import_vehicle({{"rof_ife", "3"}});
  CHECK(im.number("firer.rof") == 3);
  CHECK(im.notes().empty());
  im = import_vehicle({{"rof_ife", "2 (4)"}});
  CHECK(im.number("firer.rof") == 2);
  CHECK(im.notes() == std::vector<std::string>{
                          "rof_ife: IFE (4) not imported: use firer.weapon = \"ife\" and firer.fp = 4 in a situation"});
  im = import_vehicle({{"rof_ife", "3 (20)"}});
  CHECK(im.number("firer.rof") == 3);
  CHECK(im.result.notes.size() == 1);
  im = import_vehicle({{"rof_ife", ""}});
  CHECK_FALSE(im.has("firer.rof"));
  CHECK(im.result.not_read.empty());
  check_cells_not_read("rof_ife", {"<b>2</b>", "<i>1</i>", "4", "0", "1*", "1 or 2", "2 (4", "2 ()", "(4)", "2 (0)"},
                       {"firer.rof"});
}

TEST_CASE("breakdown plain italic and X", "[import]") {
  check_marked_number({"breakdown", "firer.breakdown", "firer.low_ammo", "11", 11, "<i>10</i>", 10,
                       "breakdown: italic read as a circled B#, Low Ammo D3.71 (a reading)"});
  const Imported im = import_vehicle({{"breakdown", "X12"}});
  CHECK(im.number("firer.x_number") == 12);
  CHECK_FALSE(im.has("firer.breakdown"));
  check_cells_not_read("breakdown", {"<b>X11</b>", "<b>11</b>", "13", "1", "X", "X13", "<i>X11</i>", "11*"},
                       {"firer.breakdown", "firer.x_number"});
}

TEST_CASE("ammunition Depletion Numbers for every year", "[import]") {
  const Imported im = import_vehicle({{"ammunition", "A5; D7 ;H6"}});
  CHECK(im.result.not_read.empty());
  CHECK(im.number("depletion.APCR") == 5);
  CHECK(im.number("depletion.APDS") == 7);
  CHECK(im.number("depletion.HEAT") == 6);
  CHECK(im.result.toml.find("APCR = 5\nAPDS = 7\nHEAT = 6\n") != std::string::npos);
}

TEST_CASE("ammunition Depletion Numbers by year", "[import]") {
  // C8.91: the superscript is the year from which the number applies; 9 = 1939, 0-8 = 1940-48.
  Imported im = import_vehicle({{"ammunition", "A4<sup>9</sup>/5<sup>0</sup>/4<sup>3</sup>/3<sup>8</sup>"}});
  CHECK(im.result.not_read.empty());
  CHECK(im.number("depletion.APCR.1939") == 4);
  CHECK(im.number("depletion.APCR.1940") == 5);
  CHECK(im.number("depletion.APCR.1943") == 4);
  CHECK(im.number("depletion.APCR.1948") == 3);
  CHECK(im.unit()["depletion"]["APCR"].as_table()->size() == 4);
  im = import_vehicle({{"ammunition", "A5<sup>2</sup>/4<sup>3</sup>; H6"}});
  CHECK(im.result.toml.find("APCR = { 1942 = 5, 1943 = 4 }\nHEAT = 6\n") != std::string::npos);
  CHECK(im.number("depletion.HEAT") == 6);
}

TEST_CASE("ammunition tokens not read are reported one by one", "[import]") {
  struct Case {
    std::string token, why;
  };
  const Case cases[] = {
      {"AP7", "Limited Stowage (C8.8) is not modelled by salvo"},
      {"HE7", "Limited Stowage (C8.8) is not modelled by salvo"},
      {"IR", "Illuminating Rounds are not used by salvo"},
      {"WP6", "White Phosphorus is not used by salvo"},
      {"s7", "smoke is not used by salvo"},
      {"C6", "Canister is not used by salvo"},
      {"Opt 2", "optional weapons are not imported"},
      {"H6[9]", "the bracketed notation is not read"},
      {"A5<sup>2</sup>/6", ""},              // years on some entries only
      {"A5/6", ""},                          // two numbers for every year
      {"A4<sup>2+</sup>", ""},               // not one digit
      {"A4<sup>3</sup>/5<sup>2</sup>", ""},  // years out of order
      {"A13", ""},                           // off 2-12
      {"A1", ""},                            //
      {"X5", ""},                            // not A, D or H
      {"A", ""},                             //
      {"8", ""},                             //
      {"<b>A5</b>", ""},                     //
  };
  for (const Case& c : cases) {
    CAPTURE(c.token);
    const Imported im = import_vehicle({{"ammunition", "D8; " + c.token + "; H7"}});
    INFO(all(im.result.not_read));
    REQUIRE(im.result.not_read.size() == 1);
    const Remark& r = im.result.not_read.front();
    CHECK(r.column == "ammunition");
    CHECK(r.row == 3);
    CHECK(r.cell == c.token);
    if (!c.why.empty()) CHECK(r.why == c.why);
    // The other tokens of the cell are read.
    CHECK(im.number("depletion.APDS") == 8);
    CHECK(im.number("depletion.HEAT") == 7);
    CHECK_FALSE(im.has("depletion.APCR"));
  }
  // One ammunition twice: the second not read.
  const Imported twice = import_vehicle({{"ammunition", "A5; A6"}});
  check_not_read(twice, "ammunition", "A6");
  CHECK(twice.number("depletion.APCR") == 5);
}

TEST_CASE("daggers are dropped from the values and noted", "[import]") {
  const Imported im = import_vehicle({{"name", "Testwagen E\xE2\x80\xA0 <i>MT</i>"},
                                      {"dates", "8/42-45\xE2\x80\xA0"},
                                      {"size", "+1\xE2\x80\xA0"},
                                      {"mp", "<b>15</b>\xE2\x80\xA0"},
                                      {"cs", "4\xE2\x80\xA0\xE2\x80\xA0<sup>1</sup>"},
                                      {"ma", "T75L\xE2\x80\xA0<sup>2</sup>"},
                                      {"breakdown", "X11\xE2\x80\xA0"},
                                      {"ammunition", "A5<sup>2</sup>/4<sup>3</sup>\xE2\x80\xA0; H6\xE2\x80\xA0"}});
  INFO(all(im.result.not_read));
  CHECK(im.result.not_read.empty());
  CHECK(im.text("name") == "Testwagen E");
  CHECK(im.text("dates") == "8/42-45");
  CHECK(im.number("target.size") == 1);
  CHECK(im.number("movement.mp_allotment") == 15);
  CHECK(im.flag("movement.red_mp") == true);
  CHECK(im.text("firer.gun") == "75L");
  CHECK(im.number("firer.x_number") == 11);
  CHECK(im.number("depletion.APCR.1942") == 5);
  CHECK(im.number("depletion.HEAT") == 6);
  const std::vector<std::string> notes = im.notes();
  const std::vector<std::string> expected = {
      "name: dagger: check the Vehicle Note",
      "dates: dagger: check the Vehicle Note",
      "size: dagger: check the Vehicle Note",
      "cs: dagger: check the Vehicle Note",
      "mp: bold read as a red MP allotment (a reading)",
      "mp: dagger: check the Vehicle Note",
      "ma: dagger: check the Vehicle Note",
      "breakdown: dagger: check the Vehicle Note",
      "ammunition: dagger: check the Vehicle Note",  // once for the cell
  };
  CHECK(notes == expected);
  REQUIRE(im.result.notes.size() == expected.size());
  CHECK(im.result.notes[1].column == "dates");
  CHECK(im.result.notes[1].row == 3);
  CHECK(im.result.notes[1].why == "dagger: check the Vehicle Note");
  // A cell not read gets no dagger note.
  const Imported bad = import_vehicle({{"size", "+3\xE2\x80\xA0"}});
  check_not_read(bad, "size", "+3\xE2\x80\xA0");
  CHECK(bad.result.notes.empty());
}

// ---- Ordnance cells ----

TEST_CASE("a plain ordnance row becomes a gun", "[import]") {
  const Imported im = import_gun({});
  INFO(all(im.result.not_read));
  CHECK(im.result.not_read.empty());
  CHECK(im.text("name") == "Testkanone 50");
  CHECK(im.text("kind") == "gun");
  CHECK(im.text("class") == "AT");
  CHECK(im.text("dates") == "40-45");
  CHECK(im.text("source") == "german_ordnance.csv row 3");
  CHECK(im.text("firer.nationality") == "german");
  CHECK(im.text("firer.gun") == "50L");
  CHECK(im.number("firer.rof") == 2);
  CHECK(im.text("firer.gun_type") == "NT");
  CHECK_FALSE(im.has("firer.mortar"));
  CHECK_FALSE(im.has("firer.min_range"));  // a range for a non-mortar is ignored
  CHECK_FALSE(im.has("target"));
  CHECK_FALSE(im.has("movement"));
}

TEST_CASE("gun_type", "[import]") {
  for (const std::string type : {"AT", "INF", "ART", "AA", "RCL"}) {
    CAPTURE(type);
    const Imported im = import_gun({{"gun_type", type}});
    CHECK(im.text("class") == type);
    CHECK_FALSE(im.has("firer.mortar"));
  }
  const Imported mortar = import_gun({{"gun_type", "MTR"}, {"range", "2-60"}});
  CHECK(mortar.flag("firer.mortar") == true);
  CHECK(mortar.number("firer.min_range") == 2);
  CHECK(mortar.number("firer.max_range") == 60);
  for (const std::string type : {"MORTAR", "<b>AT</b>", "at"}) {
    CAPTURE(type);
    const Imported im = import_gun({{"gun_type", type}});
    check_not_read(im, "gun_type", type, "german_ordnance.csv");
    CHECK_FALSE(im.has("class"));
  }
}

TEST_CASE("a mortar range that cannot be read", "[import]") {
  for (const std::string range : {"60", "2-", "-60", "60-2", "2 - 60x", "2-601", ""}) {
    CAPTURE(range);
    const Imported im = import_gun({{"gun_type", "MTR"}, {"range", range}});
    check_not_read(im, "range", range, "german_ordnance.csv");
    CHECK_FALSE(im.has("firer.min_range"));
    CHECK_FALSE(im.has("firer.max_range"));
  }
  CHECK(import_gun({{"gun_type", "MTR"}, {"range", ""}}).result.not_read.front().str() ==
        "german_ordnance.csv:3: range: empty: a mortar needs its range");
  // Anything goes in a non-mortar's range.
  CHECK(import_gun({{"range", "\xE2\x80\xA0<b>x</b>"}}).result.not_read.empty());
  CHECK(import_gun({{"range", "\xE2\x80\xA0"}}).result.notes.empty());
}

TEST_CASE("caliber", "[import]") {
  Imported im = import_gun({{"caliber", R"(<span style="text-decoration:overline">81</span>*)"}});
  CHECK(im.text("firer.gun") == "81*");
  CHECK(im.notes() == std::vector<std::string>{"caliber: the overscore/underscore mark is not used by salvo"});
  im = import_gun({{"caliber", R"(<span style="text-decoration:underline">40</span>LL)"}});
  CHECK(im.text("firer.gun") == "40LL");
  im = import_gun({{"caliber", "105"}});
  CHECK(im.text("firer.gun") == "105");
  CHECK(im.notes().empty());
  for (const std::string caliber : {"", "12.7", "T75", "75LLL", "<b>75</b>"}) {
    CAPTURE(caliber);
    im = import_gun({{"caliber", caliber}, {"breakdown", "<i>11</i>"}, {"special", "NT, A5"}});
    CHECK(im.text("kind") == "gun");
    check_no_gun(im, "caliber", caliber, {{"breakdown", "<i>11</i>"}, {"special", "A5"}}, "firer.low_ammo", "NT");
  }
}

TEST_CASE("ordnance rof_ife and breakdown read as for vehicles", "[import]") {
  Imported im = import_gun({{"rof_ife", "3 (8)"}, {"breakdown", "<i>12</i>"}});
  CHECK(im.number("firer.rof") == 3);
  CHECK(im.number("firer.breakdown") == 12);
  CHECK(im.flag("firer.low_ammo") == true);
  CHECK(im.notes().size() == 2);
  im = import_gun({{"breakdown", "X10"}});
  CHECK(im.number("firer.x_number") == 10);
  im = import_gun({{"rof_ife", "<b>1</b>"}});
  check_not_read(im, "rof_ife", "<b>1</b>", "german_ordnance.csv");
}

TEST_CASE("ordnance special tokens", "[import]") {
  const Imported im = import_gun(
      {{"special",
        "T, QSU, A4<sup>1</sup>/5<sup>2</sup>/4<sup>3</sup>, LF [88\xE2\x80\xA0, 1 ROF, B11, <b>M4</b>, -1], no IF, "
        "H6[9]\xE2\x80\xA0, s7, uses APCR TK Table\xE2\x80\xA0, NM, h-d, D6"}});
  CHECK(im.text("firer.gun_type") == "T");
  CHECK(im.flag("firer.no_intensive_fire") == true);
  CHECK(im.number("depletion.APCR.1941") == 4);
  CHECK(im.number("depletion.APCR.1942") == 5);
  CHECK(im.number("depletion.APCR.1943") == 4);
  CHECK(im.number("depletion.APDS") == 6);
  CHECK(im.notes().empty());  // the daggers are on tokens not read
  std::vector<std::string> cells;
  for (const Remark& r : im.result.not_read) {
    CHECK(r.column == "special");
    CHECK(r.row == 3);
    CHECK(!r.why.empty());
    cells.push_back(r.cell);
  }
  CHECK(cells == std::vector<std::string>{"QSU", "LF [88\xE2\x80\xA0, 1 ROF, B11, <b>M4</b>, -1]", "H6[9]\xE2\x80\xA0",
                                          "s7", "uses APCR TK Table\xE2\x80\xA0", "NM", "h-d"});
}

TEST_CASE("ordnance special dagger and gun type", "[import]") {
  Imported im = import_gun({{"special", "NT, H7\xE2\x80\xA0"}});
  CHECK(im.number("depletion.HEAT") == 7);
  CHECK(im.notes() == std::vector<std::string>{"special: dagger: check the Ordnance Note"});
  im = import_gun({{"special", "NT, T"}});
  check_not_read(im, "special", "T", "german_ordnance.csv");
  CHECK(im.text("firer.gun_type") == "NT");
  im = import_gun({{"special", ""}});
  CHECK_FALSE(im.has("firer.gun_type"));
  CHECK(im.result.not_read.empty());
}

// ---- Files ----

TEST_CASE("nationality from the file name prefix", "[import]") {
  const std::pair<std::string, std::string> prefixes[] = {
      {"german", "german"},     {"russian", "russian"}, {"american", "american"},   {"british", "british"},
      {"french", "french"},     {"italian", "italian"}, {"finnish", "finnish"},     {"swedish", "swedish"},
      {"japanese", "japanese"}, {"axis", "axis_minor"}, {"allied", "allied_minor"}, {"chinese", "chinese_gmd"}};
  for (const auto& [prefix, nationality] : prefixes) {
    CAPTURE(prefix);
    const Imported im = import_files({ordnance({gun()}, "data/" + prefix + "_ordnance.csv")});
    CHECK(im.text("firer.nationality") == nationality);
    CHECK(im.result.not_read.empty());
  }
  for (const std::string prefix : {"communist", "un", "common", "shared", "Germans"}) {
    CAPTURE(prefix);
    const Imported im = import_files({vehicles({vehicle()}, prefix + "_vehicles.csv")});
    CHECK_FALSE(im.has("firer.nationality"));
    CHECK(im.text("firer.gun") == "75L");
    REQUIRE(im.result.not_read.size() == 1);
    const Remark& r = im.result.not_read.front();
    CHECK(r.row == 1);
    CHECK(r.column == "name");
    CHECK(r.why == "no salvo nationality for the file name prefix " +
                       std::string(prefix == "Germans" ? "germans" : prefix) +
                       ": set firer.nationality in your situation");
  }
}

TEST_CASE("duplicate names keep the first", "[import]") {
  const Imported im = import_files(
      {vehicles({vehicle({{"name", "Testwagen F <i>MT</i>"}, {"mp", "11"}}),
                 vehicle({{"name", "Testwagen G <i>LT</i>"}}),
                 vehicle({{"name", "testwagen-f <i>AC</i>"}, {"size", "bad"}})}),
       ordnance({gun({{"name", "TESTWAGEN  G"}}), gun({{"name", "Testwagen H"}})}, "russian_ordnance.csv")});
  REQUIRE(im.units() == 3);
  CHECK(im.text("name", 0) == "Testwagen F");
  CHECK(im.number("movement.mp_allotment", 0) == 11);
  CHECK(im.text("name", 1) == "Testwagen G");
  CHECK(im.text("name", 2) == "Testwagen H");
  INFO(all(im.result.not_read));
  REQUIRE(im.result.not_read.size() == 2);  // the duplicates' other cells are not read at all
  CHECK(im.result.not_read[0].str() ==
        "german_vehicles.csv:5: name: could not read \"testwagen-f <i>AC</i>\": duplicate name, first at "
        "german_vehicles.csv row 3");
  CHECK(im.result.not_read[1].file == "russian_ordnance.csv");
  CHECK(im.result.not_read[1].row == 3);
  CHECK(im.result.not_read[1].why == "duplicate name, first at german_vehicles.csv row 4");
}

TEST_CASE("rows are counted in CSV records", "[import]") {
  // A quoted name with commas and doubled quotes, then a row after a quoted cell with a comma.
  const Imported im = import_files({vehicles({
      vehicle({{"name", "Testwagen \"J\", late <i>MT</i>"}, {"notes", "1, \"x\", 2"}}),
      vehicle({{"name", "Testwagen K <i>LT</i>"}, {"mp", "25<sup>t</sup>"}}),
      vehicle({{"name", "Testwagen L <i>LT</i>"}, {"notes", "3,\n4"}}),  // a cell over two lines
      vehicle({{"name", "Testwagen M <i>LT</i>"}, {"gt", "X"}}),
  })});
  REQUIRE(im.units() == 4);
  CHECK(im.text("name", 0) == "Testwagen \"J\", late");
  CHECK(im.text("source", 0) == "german_vehicles.csv row 3");
  CHECK(im.text("source", 1) == "german_vehicles.csv row 4");
  CHECK(im.text("source", 3) == "german_vehicles.csv row 6");
  CHECK(not_read_cells(im) == std::vector<std::string>{"4:mp=25<sup>t</sup>", "6:gt=X"});
}

TEST_CASE("CRLF line endings", "[import]") {
  std::string text = vehicles({vehicle(), vehicle({{"name", "Testwagen N <i>LT</i>"}, {"af", "9"}})}).text;
  std::string crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const Imported im = import_files({{"italian_vehicles.csv", crlf}});
  REQUIRE(im.units() == 2);
  CHECK(im.result.notes.empty());
  CHECK(im.text("name", 1) == "Testwagen N");
  CHECK(im.text("class", 1) == "LT");
  CHECK(im.text("firer.nationality", 1) == "italian");
  CHECK(not_read_cells(im) == std::vector<std::string>{"4:af=9"});
  CHECK(im.number("movement.mp_allotment", 0) == 14);
}

TEST_CASE("a file that is not a listing throws naming it", "[import]") {
  const auto message = [](const CsvFile& file) {
    return salvo::test::message_of<std::runtime_error>([&] { import_vasl_csv({vehicles({vehicle()}), file}); });
  };
  CHECK(message(vehicles({vehicle()}, "german_units.csv")) ==
        "german_units.csv: not a vehicle or ordnance listing: its name does not end in _vehicles.csv or "
        "_ordnance.csv");
  CHECK(message({"_vehicles.csv", "name,ma\n"}).starts_with("_vehicles.csv: not a vehicle or ordnance listing"));
  CHECK(message({"german_vehicles.csv", "count,name,dates,size,af,ta,cs,mp,gt,rof_ife,breakdown,ammunition\n"}) ==
        "german_vehicles.csv: not a vehicle or ordnance listing: its header has no column \"ma\"");
  // An ordnance header in a vehicle file name, and the reverse.
  CHECK(message({"german_vehicles.csv", ordnance({gun()}).text})
            .starts_with("german_vehicles.csv: not a vehicle or ordnance listing: its header has no column"));
  CHECK(message({"german_ordnance.csv", vehicles({vehicle()}).text}) ==
        "german_ordnance.csv: not a vehicle or ordnance listing: its header has no column \"gun_type\"");
  CHECK(message({"german_ordnance.csv", ""}) == "german_ordnance.csv: not a vehicle or ordnance listing: it is empty");
  CHECK(message({"german_ordnance.csv", "a;b;c\n1;2;3\n"}).starts_with("german_ordnance.csv: not a vehicle"));
  CHECK(message({"german_ordnance.csv", ordnance({gun()}).text + "1,\"unterminated\n"})
            .starts_with("german_ordnance.csv: not valid CSV"));
  CHECK(message({"german_ordnance.csv", ordnance({gun()}).text + "1,ab\"c\n"})
            .starts_with("german_ordnance.csv: not valid CSV"));
}

TEST_CASE("strings are valid TOML whatever the cells hold", "[import]") {
  const std::string odd = "Test\\wagen \"O\"\x01\x7f \xC3\xA9\xFF";
  const Imported im =
      import_files({vehicles({vehicle({{"name", odd + " <i>M\tT</i>"}, {"dates", "41\\42"}})}, "ax\nis_vehicles.csv")});
  CHECK(im.text("name") == "Test\\wagen \"O\"\x01\x7f \xC3\xA9\xEF\xBF\xBD");
  CHECK(im.text("class") == "M T");
  CHECK(im.text("dates") == "41\\42");
  CHECK(im.text("source") == "ax\nis_vehicles.csv row 3");
  CHECK(im.result.toml.starts_with("# Imported by `salvo units import` from: ax?is_vehicles.csv\n"));
}

TEST_CASE("a remark shows its file row column and cell", "[import]") {
  const Imported im = import_vehicle({{"gt", std::string(70, 'x') + "\xC3\xA9"}});
  REQUIRE(im.result.not_read.size() == 1);
  const Remark& r = im.result.not_read.front();
  CHECK(r.cell == std::string(59, 'x') + "\xE2\x80\xA6");  // 60 characters
  CHECK(r.str() == "german_vehicles.csv:3: gt: could not read \"" + r.cell + "\": expected T, ST, NT, RST or 1MT");
  const Imported short_cell = import_vehicle({{"gt", std::string(59, 'x') + "\xC3\xA9"}});
  CHECK(short_cell.result.not_read.front().cell == std::string(59, 'x') + "\xC3\xA9");
}

TEST_CASE("an empty list of files gives an empty library", "[import]") {
  const Imported im = import_files({});
  CHECK(im.units() == 0);
  CHECK(im.result.not_read.empty());
}

}  // namespace
