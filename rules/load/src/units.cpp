// units.cpp — unit libraries (salvo/load/units.h, docs/units.md), read strictly.
//
// A unit's tables hold keys of a situation's [firer], [target] and [movement]; each value is
// checked by the situation schema's own field, so a library accepts exactly what a situation
// file accepts there, with messages that name the library's line.

#include "salvo/load/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "asl_schema.h"
#include "schema.h"

namespace salvo::load {
namespace {

using namespace detail;

constexpr std::string_view kLibraryMark = "asl-units";

// The keys a unit may set, by situation table: the counter's facts, not the situation's.
constexpr std::string_view kFirerKeys[] = {
    "nationality", "gun",         "rof",    "breakdown", "x_number",  "low_ammo",         "gun_type",
    "stabilized",  "bow_mounted", "mortar", "min_range", "max_range", "no_intensive_fire"};
constexpr std::string_view kTargetKeys[] = {"armor", "turret_armor", "size", "red_cs"};
constexpr std::string_view kMovementKeys[] = {"mp_allotment", "red_mp", "manufacturer"};
struct Role {
  std::string_view name;
  std::span<const std::string_view> keys;
};
constexpr Role kRoles[] = {{"firer", kFirerKeys}, {"target", kTargetKeys}, {"movement", kMovementKeys}};
constexpr std::string_view kSpecialAmmo[] = {"APCR", "APDS", "HEAT"};  // C8.1
const Choices<std::string> kKinds = {{"vehicle", "vehicle"}, {"gun", "gun"}};

std::vector<std::string> with_prefix(std::string_view prefix, std::span<const std::string_view> keys) {
  std::vector<std::string> out;
  for (std::string_view k : keys) out.push_back(std::string(prefix) + "." + std::string(k));
  return out;
}

/// Armor as the counter prints it: front/side-rear, hull and turret (D1.6).
std::string armor_text(const asl::Target& t) {
  if (t.unarmored) return "unarmored";
  auto af = [](const asl::ArmorFactor& a) { return a ? std::to_string(*a) : std::string("-"); };
  return fmt::format("hull {}/{}, turret {}/{}", af(t.armor.hull_front), af(t.armor.hull_side),
                     af(t.armor.turret_front), af(t.armor.turret_side));
}

}  // namespace

struct UnitLibraries::Doc {
  std::shared_ptr<const Document> doc;
  std::vector<Unit> units;
  std::vector<std::vector<const toml::node*>> nodes;  // per unit, its settings' values
};

namespace {

class LibraryReader {
 public:
  explicit LibraryReader(std::shared_ptr<const Document> doc) : c_{doc->file, doc->text} { out_.doc = std::move(doc); }

  UnitLibraries::Doc read() {
    const toml::table& root = out_.doc->root;
    if (!root.contains("library")) {
      const bool situation = root.contains("ruleset");
      fail(c_, 1, "library",
           situation ? "this is a situation or fight file, not a unit library (a library starts with library = "
                       "\"asl-units\", docs/units.md)"
                     : "missing (required): a unit library starts with library = \"asl-units\" (docs/units.md)");
    }
    const toml::node* units = nullptr;
    walk_table(c_, "", root, {"library", "unit"}, [&](const Entry& e, const std::string& path) {
      if (e.key == "library") {
        if (read_string(c_, path, *e.node) != kLibraryMark) expected(c_, path, *e.node, "\"asl-units\"");
      } else {
        units = e.node;
      }
    });
    if (units != nullptr) {
      const toml::array& list = read_array(c_, "unit", *units, "[[unit]] tables");
      for (std::size_t i = 0; i < list.size(); ++i) read_unit(list[i], i);
    }
    return std::move(out_);
  }

 private:
  void read_unit(const toml::node& n, std::size_t index) {
    const std::string at = "unit[" + std::to_string(index + 1) + "]";
    const toml::table& t = read_table(c_, at, n);
    Unit u;
    std::vector<const toml::node*> nodes;
    u.line = line_of(n);
    for (const char* required : {"name", "kind"})
      if (!t.contains(required)) fail(c_, u.line, at + "." + required, "missing (required)");
    asl::Situation scratch;  // each value checked by the situation's own field
    walk_table(
        c_, at, t, {"name", "kind", "class", "dates", "source", "notes", "firer", "target", "movement", "depletion"},
        [&](const Entry& e, const std::string& path) {
          if (e.key == "name") {
            u.name = read_string(c_, path, *e.node, "a unit's name");
            if (unit_key(u.name).empty()) expected(c_, path, *e.node, "a name with a letter or a digit");
            check_unique(u.name, path, line_of(e.pos));
          } else if (e.key == "kind") {
            u.kind = read_choice(c_, path, *e.node, kKinds);
          } else if (e.key == "class") {
            u.unit_class = read_string(c_, path, *e.node);
          } else if (e.key == "dates") {
            u.dates = read_string(c_, path, *e.node);
          } else if (e.key == "source") {
            u.source = read_string(c_, path, *e.node);
          } else if (e.key == "notes") {
            const toml::array& a = read_array(c_, path, *e.node, "an array of strings");
            for (std::size_t k = 0; k < a.size(); ++k)
              u.notes.push_back(read_string(c_, path + "[" + std::to_string(k) + "]", a[k]));
          } else if (e.key == "depletion") {
            read_depletion(read_table(c_, path, *e.node), path, u);
          } else {
            const Role& role =
                *std::find_if(std::begin(kRoles), std::end(kRoles), [&](const Role& r) { return r.name == e.key; });
            read_role(read_table(c_, path, *e.node), path, role, u, nodes, scratch);
          }
        });
    out_.units.push_back(std::move(u));
    out_.nodes.push_back(std::move(nodes));
  }

  void check_unique(const std::string& name, const std::string& path, int line) {
    const std::string key = unit_key(name);
    for (const Unit& other : out_.units)
      if (unit_key(other.name) == key)
        fail(c_, line, path,
             fmt::format("\"{}\" is the name of the unit at line {} (names match without regard to case, spaces "
                         "and punctuation)",
                         name, other.line));
  }

  void read_role(const toml::table& t, const std::string& path, const Role& role, Unit& u,
                 std::vector<const toml::node*>& nodes, asl::Situation& scratch) {
    const Schema<asl::Situation>& schema = asl_schema();
    for (const Entry& e : entries_in_file_order(t)) {
      const std::string key = path + "." + e.key;
      const int line = line_of(e.pos);
      if (std::find(role.keys.begin(), role.keys.end(), e.key) == role.keys.end()) {
        const std::string why =
            schema.keys.field(std::string(role.name) + "." + e.key)
                ? "not a counter value: a unit library holds what the counter prints; set it in the situation"
                : "unknown key";
        std::vector<std::string> known;
        for (const std::string& k : with_prefix(path, role.keys)) known.push_back(k);
        if (why == "unknown key") unknown(c_, line, key, known);
        fail(c_, line, key, why);
      }
      const std::string field = std::string(role.name) + "." + e.key;
      schema.fields[*schema.keys.field(field)].apply(c_, key, *e.node, scratch, nullptr);
      u.settings.push_back(
          {field, field == "target.armor" ? armor_text(scratch.target) : as_written(*e.node, c_.text), line});
      nodes.push_back(e.node);
    }
  }

  // C8.1, C8.91: APCR = 5 (every year) or APCR = { 1942 = 5, 1943 = 4 } (from each year on).
  void read_depletion(const toml::table& t, const std::string& path, Unit& u) {
    std::vector<std::string> known;
    for (std::string_view a : kSpecialAmmo) known.push_back(path + "." + std::string(a));
    for (const Entry& e : entries_in_file_order(t)) {
      const std::string key = path + "." + e.key;
      if (std::find(std::begin(kSpecialAmmo), std::end(kSpecialAmmo), e.key) == std::end(kSpecialAmmo))
        unknown(c_, line_of(e.pos), key, known);
      DepletionByYear years;
      if (const auto* by_year = e.node->as_table()) {
        for (const Entry& y : entries_in_file_order(*by_year)) {
          const std::string ykey = key + "." + y.key;
          int year = 0;
          const bool digits = y.key.size() == 4 && std::all_of(y.key.begin(), y.key.end(), [](char ch) {
                                return std::isdigit(static_cast<unsigned char>(ch)) != 0;
                              });
          if (digits) year = std::stoi(y.key);
          if (year < 1939 || year > 1953)
            fail(c_, line_of(y.pos), ykey, "expected a year 1939..1953 as the key (the year the number applies from)");
          years[year] = read_int(c_, ykey, *y.node, 2, 12);
        }
        if (years.empty()) fail(c_, line_of(*e.node), key, "expected at least one year = Depletion Number");
      } else if (e.node->is_integer()) {
        years[0] = read_int(c_, key, *e.node, 2, 12);
      } else {
        expected(c_, key, *e.node, "a Depletion Number 2..12, or a table of year = Depletion Number");
      }
      u.depletion[e.key] = std::move(years);
    }
  }

  Ctx c_;
  UnitLibraries::Doc out_;
};

}  // namespace

bool Unit::has(std::string_view path) const {
  return std::any_of(settings.begin(), settings.end(), [&](const UnitSetting& s) {
    return s.path == path ||
           (s.path.size() > path.size() && s.path.compare(0, path.size(), path) == 0 && s.path[path.size()] == '.');
  });
}

std::optional<int> Unit::depletion_in(std::string_view ammo, int year) const {
  const auto it = depletion.find(std::string(ammo));
  if (it == depletion.end()) return std::nullopt;
  if (const auto all = it->second.find(0); all != it->second.end()) return all->second;
  int value = 0;
  for (const auto& [from, number] : it->second)
    if (from <= year) value = number;
  return value;
}

std::string unit_key(std::string_view name) {
  std::string key;
  for (char ch : name)
    if (std::isalnum(static_cast<unsigned char>(ch)) != 0 || static_cast<unsigned char>(ch) >= 0x80)
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return key;
}

UnitLibraries UnitLibraries::parse(std::string_view toml, const std::string& source_name) {
  UnitLibraries out;
  out.docs_.push_back(std::make_shared<const Doc>(LibraryReader(parse_document(toml, source_name)).read()));
  return out;
}

UnitLibraries UnitLibraries::read(const std::vector<std::string>& paths, const std::string& base_dir,
                                  std::size_t max_file_bytes) {
  UnitLibraries out;
  for (const std::string& p : paths) {
    std::filesystem::path full(p);
    if (full.is_relative() && !base_dir.empty()) full = std::filesystem::path(base_dir) / full;
    const std::string name = full.lexically_normal().string();
    const std::string text = read_text_file(name, max_file_bytes);
    UnitLibraries one = parse(text, name);
    out.docs_.push_back(std::move(one.docs_.front()));
  }
  return out;
}

std::optional<UnitLibraries::Found> UnitLibraries::find(std::string_view name) const {
  const std::string key = unit_key(name);
  for (const auto& d : docs_)
    for (const Unit& u : d->units)
      if (unit_key(u.name) == key) return Found{&u, d->doc->file};
  return std::nullopt;
}

std::vector<std::string> UnitLibraries::closest(std::string_view name) const {
  const std::string key = unit_key(name);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& d : docs_)
    for (const Unit& u : d->units) {
      const std::string other = unit_key(u.name);
      std::size_t distance = edit_distance(key, other);
      // A name that holds the one asked for ("ivh" in "pzkpfwivh") is close whatever its length.
      if (!key.empty() && other.find(key) != std::string::npos) distance = std::min<std::size_t>(distance, 1);
      if (distance <= std::max<std::size_t>(2, key.size() / 3)) scored.emplace_back(distance, u.name);
    }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && out.size() < 3; ++i) out.push_back(scored[i].second);
  return out;
}

std::vector<UnitLibraries::Found> UnitLibraries::all() const {
  std::vector<Found> out;
  for (const auto& d : docs_)
    for (const Unit& u : d->units) out.push_back({&u, d->doc->file});
  return out;
}

void UnitLibraries::apply(const Found& found, std::string_view role, asl::Situation& s) const {
  for (const auto& d : docs_) {
    for (std::size_t i = 0; i < d->units.size(); ++i) {
      if (&d->units[i] != found.unit) continue;
      const Ctx c{d->doc->file, d->doc->text};
      const Schema<asl::Situation>& schema = asl_schema();
      if (role == "firer") s.firer.vehicle = found.unit->kind == "vehicle";
      for (std::size_t k = 0; k < found.unit->settings.size(); ++k) {
        const UnitSetting& setting = found.unit->settings[k];
        if (setting.path.compare(0, role.size(), role) != 0 || setting.path[role.size()] != '.') continue;
        schema.fields[*schema.keys.field(setting.path)].apply(c, setting.path, *d->nodes[i][k], s, nullptr);
      }
      return;
    }
  }
}

bool is_unit_library(std::string_view toml) {
  try {
    return parse_toml(toml, "").contains("library");
  } catch (const InputError&) {
    return false;
  }
}

std::vector<std::string> describe_unit(const Unit& u) {
  std::vector<std::string> out;
  out.push_back(u.name + (u.unit_class.empty() ? "" : "  (" + u.unit_class + ")") + "  " + u.kind +
                (u.dates.empty() ? "" : ", " + u.dates));
  for (const Role& role : kRoles) {
    std::string line;
    for (const UnitSetting& s : u.settings) {
      if (s.path.compare(0, role.name.size(), role.name) != 0 || s.path[role.name.size()] != '.') continue;
      line += (line.empty() ? "" : "  ") + s.path.substr(role.name.size() + 1) + " = " + s.value;
    }
    if (!line.empty()) out.push_back("  " + std::string(role.name) + ": " + line);
  }
  // The counter's notation: A5²/4³ = APCR Depletion Number 5 from 1942, 4 from 1943 (C8.91).
  static constexpr const char* kSuperscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  for (const auto& [ammo, years] : u.depletion) {
    const char letter = ammo == "APCR" ? 'A' : ammo == "APDS" ? 'D' : 'H';
    std::string line = "  depletion: " + ammo + " " + letter;
    bool first = true;
    for (const auto& [year, number] : years) {
      line += (first ? "" : "/") + std::to_string(number) + (year == 0 ? "" : kSuperscript[year % 10]);
      first = false;
    }
    out.push_back(line + "  (C8.91: the small digit is the year from which the number applies)");
  }
  for (const std::string& n : u.notes) out.push_back("  note: " + n);
  if (!u.source.empty()) out.push_back("  source: " + u.source);
  return out;
}

}  // namespace salvo::load

namespace salvo::load::detail {

std::shared_ptr<const UnitLibraries> read_unit_libraries(const Ctx& c, const std::string& path, const toml::node& units,
                                                         std::size_t max_file_bytes) {
  std::vector<std::string> paths;
  constexpr std::string_view what = "a unit library's path, or an array of them (relative to this file)";
  if (const auto* one = units.as_string()) {
    paths.push_back(one->get());
  } else {
    const toml::array& list = read_array(c, path, units, what);
    if (list.empty()) expected(c, path, units, what);
    for (std::size_t k = 0; k < list.size(); ++k)
      paths.push_back(read_string(c, path + "[" + std::to_string(k) + "]", list[k], what));
  }
  const std::string dir = std::filesystem::path(c.file).parent_path().string();
  try {
    return std::make_shared<const UnitLibraries>(UnitLibraries::read(paths, dir, max_file_bytes));
  } catch (const InputError& e) {
    // The library's own file:line message, after the line that named it.
    fail(c, line_of(units), path, std::string("in a unit library: ") + e.what());
  }
}

UnitLibraries::Found find_unit(const Ctx& c, int line, const std::string& key, const std::string& name,
                               const UnitLibraries* libraries) {
  if (libraries == nullptr)
    fail(c, line, key, "no unit library: add units = [\"my-units.toml\"] at the top of the file (docs/units.md)");
  if (const auto found = libraries->find(name)) return *found;
  std::string libs;
  for (const auto& f : libraries->all())
    if (libs.find(f.library) == std::string::npos) libs += (libs.empty() ? "" : ", ") + f.library;
  std::string hint;
  const std::vector<std::string> close = libraries->closest(name);
  for (std::size_t i = 0; i < close.size(); ++i)
    hint += (i == 0 ? " (did you mean " : i + 1 == close.size() ? " or " : ", ") + toml_quote(close[i]);
  if (!hint.empty()) hint += "?)";
  fail(c, line, key,
       fmt::format("no unit named {} in {}{}", toml_quote(name), libs.empty() ? "the unit libraries (empty)" : libs,
                   hint));
}

int unit_depletion(const Ctx& c, int line, const std::string& key, const UnitLibraries::Found& found,
                   const asl::Firer& firer) {
  const std::string ammo = firer.ammo == asl::Ammo::kAPCR ? "APCR" : firer.ammo == asl::Ammo::kAPDS ? "APDS" : "HEAT";
  const std::optional<int> number = found.unit->depletion_in(ammo, firer.year);
  if (!number)
    fail(c, line, key,
         fmt::format("the unit {} ({}) lists no {} Depletion Number: set firer.depletion if the counter has the "
                     "ammunition (C8.1)",
                     toml_quote(found.unit->name), found.library, ammo));
  if (*number == 0)
    fail(c, line, key,
         fmt::format("the unit {} has no {} in {}: it lists it only from {} (C8.91)", toml_quote(found.unit->name),
                     ammo, firer.year, found.unit->depletion.at(ammo).begin()->first));
  return *number;
}

}  // namespace salvo::load::detail
