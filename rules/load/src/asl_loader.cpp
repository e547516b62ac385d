// asl_loader.cpp — ASL situation files (TOML) into asl::Situation, strictly.
//
// Every setting the file format knows is one entry of a schema (schema.h: dotted path + a
// function that validates a TOML value and stores it). The same entries serve the tables and the
// [sweep] axes, so a swept value is checked exactly like a value written in its table.

#include "salvo/load/asl_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "asl_schema.h"
#include "salvo/load/toml_util.h"
#include "salvo/load/units.h"
#include "salvo/rules/asl.h"
#include "schema.h"

namespace salvo::load {
namespace {

using asl::Situation;
using namespace detail;

constexpr std::string_view kUnitName = "a unit's name from the unit libraries (units = ...)";
constexpr std::string_view kMpSteps = "a number >= 0 in steps of 0.5";  ///< a movement-point count

constexpr std::string_view kArmorFactorScale = "an armor factor (0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26 or \"unarmored\")";

/// C7.2 armor factors (D1.6): the printed scale, or "unarmored" (nullopt).
asl::ArmorFactor read_armor_factor(const Ctx& c, std::string_view path, const toml::node& n) {
  static constexpr int kScale[] = {0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26};
  if (const auto* s = n.as_string(); s != nullptr && s->get() == "unarmored") return std::nullopt;
  if (const auto* i = n.as_integer()) {
    if (std::find(std::begin(kScale), std::end(kScale), i->get()) != std::end(kScale)) {
      return static_cast<int>(i->get());
    }
  }
  expected(c, path, n, kArmorFactorScale);
}

// ---- Names of enumerated settings, as written in files (in_enum_order: in the enum's order) ----

const Choices<asl::Nationality> kNationalities = in_enum_order<asl::Nationality::kCpva>(
    {"german",   "russian",     "american",          "british",    "french",
     "italian",  "finnish",     "swedish",           "axis_minor", "allied_minor",
     "japanese", "chinese_gmd", "chinese_communist", "partisan",   "thai",
     "burmese",  "indonesian",  "korean_us",         "rok",        "bcfk",
     "kpa",      "cpva"});
const Choices<asl::ThColor> kThColors = in_enum_order<asl::ThColor::kBlack>({"auto", "red", "black"});
const Choices<asl::Ammo> kAmmo =
    choices_of(asl::kAmmoNames, {asl::Ammo::kAP, asl::Ammo::kAPCR, asl::Ammo::kAPDS, asl::Ammo::kHEAT, asl::Ammo::kHE});
const Choices<asl::Ammo> kFallbackAmmo = choices_of(asl::kAmmoNames);
const Choices<asl::GunType> kGunTypes = choices_of(asl::kGunTypeNames);
const Choices<asl::TargetType> kTargetTypes = in_enum_order<asl::TargetType::kArea>({"vehicle", "infantry", "area"});
const Choices<asl::Weapon> kWeapons =
    in_enum_order<asl::Weapon::kAtr>({"gun", "mg", "ife", "canister", "smoke", "wp", "infantry", "bazooka",
                                      "panzerschreck", "piat", "panzerfaust", "pfk", "atr"});
/// Who makes a PF Check (C13.31): a SMC too.
const Choices<asl::Personnel> kFirerPersonnel =
    in_enum_order<asl::Personnel::kSmc>({"squad", "half_squad", "crew", "smc"});
const Choices<asl::Personnel> kPersonnel =
    choices_of(kFirerPersonnel, {asl::Personnel::kSquad, asl::Personnel::kHalfSquad, asl::Personnel::kCrew});

/// firer.mg: the SW MG infantry fire with (A9): {fp, normal_range, rof, breakdown}.
struct MgKey {
  const char* name;
  int lo, hi;
  int asl::SwMg::*member;
};
constexpr MgKey kMgKeys[] = {{"fp", 1, 50, &asl::SwMg::fp},
                             {"normal_range", 1, 50, &asl::SwMg::normal_range},
                             {"rof", 0, 3, &asl::SwMg::rof},
                             {"breakdown", 2, 12, &asl::SwMg::breakdown}};
const Choices<asl::MovementRoll> kMovementRolls = {
    {"esb", asl::MovementRoll::kEsb}, {"start", asl::MovementRoll::kStart}, {"motion", asl::MovementRoll::kMotion}};
const Choices<asl::Manufacturer> kManufacturers = in_enum_order<asl::Manufacturer::kOther>(
    {"american", "czech", "russian", "british", "german", "french", "italian", "other"});

const Choices<asl::TurretArmor> kTurretArmor =
    in_enum_order<asl::TurretArmor::kInferior>({"normal", "superior", "inferior"});
const Choices<asl::Facing> kFacings = choices_of(asl::kFacingNames);
const Choices<int> kSizes = {  // C6.7 Case P
    {"very_large", -2},
    {"large", -1},
    {"average", 0},
    {"small", 1},
    {"very_small", 2}};
const Choices<asl::Phase> kPhases =
    in_enum_order<asl::Phase::kBounding>({"prep", "defensive", "final", "advancing", "bounding"});
const Choices<asl::Terrain> kTerrains = in_enum_order<asl::Terrain::kRubble>({"open", "woods", "building", "rubble"});
const Choices<asl::StopOn> kStopOn = in_enum_order<asl::StopOn::kNever>({"destroyed", "effect", "never"});

constexpr std::pair<std::string_view, asl::ArmorFactor asl::Armor::*> kAspects[] = {
    {"hull_front", &asl::Armor::hull_front},
    {"hull_side", &asl::Armor::hull_side},
    {"turret_front", &asl::Armor::turret_front},
    {"turret_side", &asl::Armor::turret_side},
};

// ---- The schema ----

const Schema<Situation>& schema();

void apply_gun(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines*) {
  std::optional<asl::Gun> gun;
  if (const auto* v = n.as_string()) gun = asl::parse_gun(v->get());
  if (!gun) expected(c, path, n, "a gun designation (\"75\", \"37*\", \"75L\", \"88LL\")");
  s.firer.gun = *gun;
}

/// firer.to_hit: a LATW counter's To Hit table, the Basic TH# at range 0, 1, 2, ... (C13.42).
void apply_to_hit(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines*) {
  constexpr std::size_t kMaxRanges = 13;  // 0..12 hexes: no LATW table reaches further
  const toml::array& a = read_array(c, path, n, "an array of Basic TH#, at range 0, 1, 2, ... (C13.42)");
  if (a.empty() || a.size() > kMaxRanges)
    fail(c, line_of(n), path,
         fmt::format("expected the Basic TH# at range 0, 1, 2, ...: 1 to {} numbers, got {}", kMaxRanges, a.size()));
  s.firer.to_hit.clear();
  for (std::size_t i = 0; i < a.size(); ++i)
    s.firer.to_hit.push_back(read_int(c, fmt::format("{}[{}]", path, i), a[i], 0, 12));
}

void apply_size(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines*) {
  if (const auto* i = n.as_integer(); i != nullptr && i->get() >= -2 && i->get() <= 2) {
    s.target.size = static_cast<int>(i->get());
    return;
  }
  if (const auto size = choice_of(n, kSizes)) {
    s.target.size = *size;
    return;
  }
  expected(c, path, n, one_of(kSizes) + " or an integer in -2..2");
}

/// target.armor: "unarmored" (the whole vehicle, C7.311) or a table of all four aspects.
void apply_armor(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines* lines) {
  if (const auto* v = n.as_string(); v != nullptr && v->get() == "unarmored") {
    s.target.unarmored = true;
    for (const auto& [name, member] : kAspects) s.target.armor.*member = std::nullopt;
    return;
  }
  const auto* table = n.as_table();
  if (table == nullptr) {
    expected(c, path, n, "\"unarmored\" or a table of hull_front, hull_side, turret_front, turret_side");
  }
  s.target.unarmored = false;
  bool seen[std::size(kAspects)] = {};
  for (const Entry& e : entries_in_file_order(*table)) {
    const std::string sub = path + "." + e.key;
    const auto* aspect =
        std::find_if(std::begin(kAspects), std::end(kAspects), [&](const auto& a) { return a.first == e.key; });
    if (aspect == std::end(kAspects)) unknown(c, line_of(e.pos), sub, *e.node, schema().keys);
    s.target.armor.*(aspect->second) = read_armor_factor(c, sub, *e.node);
    seen[aspect - std::begin(kAspects)] = true;
    if (lines != nullptr) (*lines)[sub] = line_of(e.pos);
  }
  for (std::size_t k = 0; k < std::size(kAspects); ++k) {
    if (!seen[k]) {
      fail(c, line_of(n), path,
           fmt::format("missing {} (a table needs all four of hull_front, hull_side, turret_front, "
                       "turret_side)",
                       kAspects[k].first));
    }
  }
}

asl::SwMg read_mg(const Ctx& c, const std::string& path, const toml::node& n, Lines* lines) {
  const auto& table = read_table(c, path, n);
  asl::SwMg mg;
  for (const Entry& e : entries_in_file_order(table)) {
    const std::string sub = path + "." + e.key;
    const auto* key =
        std::find_if(std::begin(kMgKeys), std::end(kMgKeys), [&](const MgKey& k) { return e.key == k.name; });
    if (key == std::end(kMgKeys)) {
      std::vector<std::string> known;
      for (const MgKey& k : kMgKeys) known.push_back(path + "." + k.name);
      unknown(c, line_of(e.pos), sub, known);
    }
    mg.*(key->member) = read_int(c, sub, *e.node, key->lo, key->hi);
    if (lines != nullptr) (*lines)[sub] = line_of(e.pos);
  }
  require(c, table, path, {"fp", "normal_range"});
  return mg;
}

void apply_mg(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines* lines) {
  s.firer.mg = read_mg(c, path, n, lines);
}

/// [[then]]: the later attacks of infantry fire on the same target (A7.31), each a table of the
/// firer's own keys (docs/infantry.md).
std::vector<asl::InfantryAttack> read_then(const Ctx& c, const std::string& path, const toml::node& n) {
  constexpr std::size_t kMaxAttacks = 16;
  const toml::array& items = read_array(c, path, n, "an array of tables ([[then]])");
  if (items.size() > kMaxAttacks)
    fail(c, line_of(n), path, fmt::format("at most {} later attacks, got {}", kMaxAttacks, items.size()));
  const std::vector<std::string> names = {"fp",       "normal_range", "mg",     "leader",      "inexperienced",
                                          "cowers",   "range",        "pinned", "opportunity", "extra_drm",
                                          "max_shots"};
  std::vector<asl::InfantryAttack> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string at = fmt::format("{}[{}]", path, i + 1);
    const toml::table& t = read_table(c, at, items[i]);
    asl::InfantryAttack a;
    for (const Entry& e : entries_in_file_order(t)) {
      const std::string sub = at + "." + e.key;
      const toml::node& v = *e.node;
      if (e.key == "fp")
        a.fp = read_int(c, sub, v, 0, 200);
      else if (e.key == "normal_range")
        a.normal_range = read_int(c, sub, v, 1, 100);
      else if (e.key == "mg")
        a.mg = read_mg(c, sub, v, nullptr);
      else if (e.key == "leader")
        a.leader = read_int(c, sub, v, -3, 2);
      else if (e.key == "inexperienced")
        a.inexperienced = read_bool(c, sub, v);
      else if (e.key == "cowers")
        a.cowers = read_bool(c, sub, v);
      else if (e.key == "range")
        a.range = read_int(c, sub, v, 0, 200);
      else if (e.key == "pinned")
        a.pinned = read_bool(c, sub, v);
      else if (e.key == "opportunity")
        a.opportunity = read_bool(c, sub, v);
      else if (e.key == "extra_drm")
        a.extra_drm = read_int(c, sub, v, -10, 10);
      else if (e.key == "max_shots")
        a.max_shots = read_int(c, sub, v, 1, 100);
      else {
        std::vector<std::string> known;
        for (const std::string& k : names) known.push_back(at + "." + k);
        unknown(c, line_of(e.pos), sub, known);
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

/// firer.unit, target.unit, movement.unit: a unit's name from the unit libraries (docs/units.md);
/// a [movement] setting makes the situation a movement roll (D2).
ApplyFn<Situation> unit_ref(std::string asl::UnitRefs::*ref) {
  return [ref](const Ctx& c, const std::string& p, const toml::node& n, Situation& sit, Lines*) {
    if (ref == &asl::UnitRefs::movement && !sit.movement) sit.movement.emplace();
    sit.units.*ref = read_string(c, p, n, kUnitName);
  };
}

/// target.type: a Gun is not a Target Type of its own (C11.2, C3.31).
void apply_target_type(const Ctx& c, const std::string& p, const toml::node& n, Situation& sit, Lines*) {
  if (const auto* v = n.as_string(); v != nullptr && v->get() == "gun")
    fail(c, line_of(n), p,
         "a Gun is fired on with the Infantry or the Area Target Type: set target.type = \"infantry\" (or "
         "\"area\") and target.gun = true (C11.2)");
  sit.target.type = read_choice(c, p, n, kTargetTypes);
}

/// Every setting, in the order of the format's documentation.
const Schema<Situation>& schema() {
  static const Schema<Situation> fields = [] {
    Schema<Situation> s;
    s.keys.ruleset = "asl";
    s.keys.ruleset_expected = "\"asl\" or \"1943\"";  // the ruleset key chooses the loader
    s.keys.tables = {"firer", "target", "fire", "override", "movement", "sweep"};
    s.keys.roots = {"units", "then"};  // the unit libraries (docs/units.md) and [[then]] attacks, read by load()
    using asl::Fire, asl::Firer, asl::Movement, asl::Override, asl::Target;
    const auto firer = settings("firer", &Situation::firer);
    const auto target = settings("target", &Situation::target);
    const auto fire = settings("fire", &Situation::fire);
    const auto override_ = settings("override", &Situation::override_);
    const Settings<Situation, asl::SwMg> mg{"firer.mg", [](Situation& sit) -> asl::SwMg& {
                                              if (!sit.firer.mg) sit.firer.mg.emplace();
                                              return *sit.firer.mg;
                                            }};
    const Settings<Situation, Movement> movement{"movement", [](Situation& sit) -> Movement& {
                                                   if (!sit.movement) sit.movement.emplace();
                                                   return *sit.movement;
                                                 }};
    s.add({top_level<Situation>()("name", &Situation::name)});
    // [firer]
    s.add({firer("unit", unit_ref(&asl::UnitRefs::firer)), firer("nationality", &Firer::nationality, kNationalities),
           firer("year", &Firer::year, 1939, 1953), firer("month", &Firer::month, 1, 12),
           firer("th_color", &Firer::th_color, kThColors), firer("gun", apply_gun), firer("ammo", &Firer::ammo, kAmmo),
           firer("rof", &Firer::rof, 0, 3), firer("breakdown", &Firer::breakdown, 2, 12),
           firer("x_number", &Firer::x_number, 2, 12), firer("low_ammo", &Firer::low_ammo),
           firer("low_ammo_marked", &Firer::low_ammo_marked), firer("depletion", &Firer::depletion, 2, 12),
           firer("elite", &Firer::elite), firer("fallback_ammo", &Firer::fallback_ammo, kFallbackAmmo),
           firer("gun_type", &Firer::gun_type, kGunTypes), firer("vehicle", &Firer::vehicle),
           firer("stabilized", &Firer::stabilized), firer("armor_leader", &Firer::armor_leader, -3, 0),
           firer("inexperienced_crew", &Firer::inexperienced_crew), firer("captured", &Firer::captured),
           firer("non_qualified", &Firer::non_qualified), firer("no_intensive_fire", &Firer::no_intensive_fire),
           firer("weapon", &Firer::weapon, kWeapons), firer("fp", &Firer::fp, 0, 200),
           firer("normal_range", &Firer::normal_range, 1, 100), firer("repair", &Firer::repair, 1, 5),
           firer("bow_mounted", &Firer::bow_mounted), firer("bypass", &Firer::bypass),
           firer("cafp", &Firer::cafp, 0, 5), firer("mortar", &Firer::mortar),
           firer("min_range", &Firer::min_range, 0, 200), firer("max_range", &Firer::max_range, 1, 500),
           // infantry fire (A7-A10, asl_infantry.h)
           firer("leader", &Firer::leader, -3, 2), firer("inexperienced", &Firer::inexperienced),
           firer("cowers", &Firer::cowers), firer("mg", apply_mg),
           // Light Anti-Tank Weapons (C13, asl_latw.h)
           firer("to_hit", apply_to_hit), firer("personnel", &Firer::personnel, kFirerPersonnel),
           firer("cx", &Firer::cx)});
    for (const MgKey& k : kMgKeys) s.add({mg(k.name, k.member, k.lo, k.hi)});
    // [target]
    s.add({target("unit", unit_ref(&asl::UnitRefs::target)), target("type", apply_target_type),
           target("armor", apply_armor)});
    for (const auto& aspect : kAspects) {
      s.add("target.armor." + std::string(aspect.first),
            [member = aspect.second](const Ctx& c, const std::string& p, const toml::node& n, Situation& sit, Lines*) {
              sit.target.armor.*member = read_armor_factor(c, p, n);
            });
    }
    s.add({target("turret_armor", &Target::turret_armor, kTurretArmor), target("facing", &Target::facing, kFacings),
           target("size", apply_size), target("hull_down", &Target::hull_down), target("moving", &Target::moving),
           target("mp_in_los", &Target::mp_in_los, 0, 0.5, kMpSteps), target("concealed", &Target::concealed),
           target("tem", &Target::tem, -3, 6), target("hindrance", &Target::hindrance, 0, 10),
           target("red_cs", &Target::red_cs), target("ffnam", &Target::ffnam), target("ffmo", &Target::ffmo),
           target("bypass", &Target::bypass), target("terrain", &Target::terrain, kTerrains),
           target("entrenched", &Target::entrenched), target("gun", &Target::gun),
           target("emplaced", &Target::emplaced), target("gunshield", &Target::gunshield),
           target("personnel", &Target::personnel, kPersonnel), target("morale", &Target::morale, 2, 10),
           target("broken_morale", &Target::broken_morale, 2, 10), target("broken", &Target::broken),
           target("leader", &Target::leader, -3, 2), target("elr", &Target::elr, 0, 5),
           target("encircled", &Target::encircled),
           // [fire]
           fire("range", &Fire::range, 0, 200), fire("phase", &Fire::phase, kPhases),
           fire("opportunity", &Fire::opportunity), fire("ca_change", &Fire::ca_change, 0, 3),
           fire("firer_terrain", &Fire::firer_terrain, kTerrains), fire("buttoned_up", &Fire::buttoned_up),
           fire("same_hex", &Fire::same_hex), fire("acquisition", &Fire::acquisition, 0, 2),
           fire("extra_drm", &Fire::extra_drm, -10, 10), fire("los_mp", &Fire::los_mp, 0, 0.5, kMpSteps),
           fire("pinned", &Fire::pinned), fire("max_shots", &Fire::max_shots, 1, 100),
           fire("intensive_fire", &Fire::intensive_fire), fire("stop_on", &Fire::stop_on, kStopOn),
           fire("vca", &Fire::vca, 0, 5), fire("tca", &Fire::tca, 0, 5),
           fire("target_direction", &Fire::target_direction, 0, 5), fire("pivot", &Fire::pivot),
           fire("maintained_ca", &Fire::maintained_ca, 0, 12), fire("motion", &Fire::motion),
           fire("follow_up", &Fire::follow_up), fire("deliberate_immobilization", &Fire::deliberate_immobilization),
           fire("turns", &Fire::turns, 1, asl::kMaxTurns), fire("rally_phases", &Fire::rally_phases, 1, 2),
           // [override]
           override_("modified_th", &Override::modified_th, -10, 20), override_("basic_tk", &Override::basic_tk, 0, 60),
           // [movement] (D2.5, D2.51, D2.401)
           movement("unit", unit_ref(&asl::UnitRefs::movement)), movement("roll", &Movement::roll, kMovementRolls),
           movement("mp_allotment", &Movement::mp_allotment, 1, 99), movement("red_mp", &Movement::red_mp),
           movement("mp_sought", &Movement::mp_sought, 0, 0.5, kMpSteps),
           movement("manufacturer", &Movement::manufacturer, kManufacturers),
           movement("mp_in_los", &Movement::mp_in_los, 0, 0.5, kMpSteps), movement("drm", &Movement::drm, -10, 10)});
    return s;
  }();
  return fields;
}

/// A movement roll (D2) reads only its own [movement] keys: any other key of the file would be
/// silently ignored, so it is an error.
void check_movement_keys(const Ctx& c, const std::vector<Item>& items, const Situation& base) {
  if (!base.movement) return;
  const bool roll_swept = std::any_of(items.begin(), items.end(), [](const Item& i) {
    return i.kind == ItemKind::kSweepAxis && i.path == "movement.roll";
  });
  struct Use {
    asl::MovementRoll roll;
    const char* name;
    const char* rule;
    std::vector<std::string_view> keys;
  };
  static const std::vector<Use> uses = {
      {asl::MovementRoll::kEsb,
       "esb",
       "D2.5",
       {"unit", "roll", "mp_allotment", "red_mp", "mp_sought", "manufacturer", "drm"}},
      {asl::MovementRoll::kStart, "start", "D2.51", {"unit", "roll", "red_mp", "drm"}},
      {asl::MovementRoll::kMotion, "motion", "D2.401", {"unit", "roll", "mp_in_los", "red_mp", "drm"}},
  };
  const auto use = std::find_if(uses.begin(), uses.end(), [&](const Use& u) { return u.roll == base.movement->roll; });
  for (const Item& item : items) {
    if (item.kind != ItemKind::kField && item.kind != ItemKind::kSweepAxis) continue;
    if (item.path == "name") continue;
    const int line = line_of(item.pos);
    if (item.path.rfind("movement.", 0) != 0)
      fail(c, line, item.path, "a movement roll (D2) uses only its [movement] keys: this key would have no effect");
    if (roll_swept || use == uses.end()) continue;
    const std::string_view key = std::string_view(item.path).substr(9);
    if (std::find(use->keys.begin(), use->keys.end(), key) == use->keys.end())
      fail(c, line, item.path, fmt::format("not used by the \"{}\" roll ({}): remove it", use->name, use->rule));
  }
}

/// Settings that change nothing where they are set (a player who sets a key expects it to
/// matter): each names its key, when it has an effect, and why not otherwise.
struct NoEffect {
  std::string_view key;
  bool (*matters)(const Situation&);
  std::string_view why;
};
/// What a Depletion Number (and an elite crew's +1 to it) governs: special ammunition, Canister,
/// Smoke (C8.1, C8.2, C8.4, C8.9).
bool has_depletion(const Situation& s) {
  return asl::is_special(s.firer.ammo) || s.firer.weapon == asl::Weapon::kCanister || asl::places_smoke(s.firer);
}
constexpr NoEffect kNoEffect[] = {
    {"target.mp_in_los", [](const Situation& s) { return s.fire.phase == asl::Phase::kDefensive && s.target.moving; },
     "matters only against a moving target in Defensive First Fire (target.moving = true, fire.phase = "
     "\"defensive\", C6.11-.12): remove it"},
    {"firer.elite", has_depletion,
     "an elite crew's +1 is to the Depletion Number of special ammunition, APCR, APDS, HEAT or Canister (C8.2): "
     "remove it"},
    {"firer.fallback_ammo", [](const Situation& s) { return asl::is_special(s.firer.ammo); },
     "the fallback is fired only when special ammunition (APCR, APDS or HEAT) runs out (C8.9): remove it"},
    {"firer.depletion", has_depletion,
     "a Depletion Number applies only to special ammunition, APCR, APDS, HEAT or Canister (C8.1, C8.4, C8.9): remove "
     "it"},
    {"fire.rally_phases", [](const Situation& s) { return s.fire.turns > 1; },
     "matters only in a duel over several turns (fire.turns > 1): remove it"},
    // C13.36, C13.47, C13.63: the Panzerfaust has no breakdown, the Bazooka and Panzerschreck an
    // X# only, the PIAT the rule's B10 and R2.
    {"firer.breakdown",
     [](const Situation& s) {
       return !asl::is_latw(s.firer) || (s.firer.weapon == asl::Weapon::kAtr && !s.firer.x_number);
     },
     "a Panzerfaust has no B#, a Bazooka or Panzerschreck an X# only, the PIAT's B10 is the rule's, an ATR with an "
     "X# has no B# (C13.36, C13.47, C13.63, A9.7): remove it"},

};

// ---- Unit libraries (docs/units.md) ----

constexpr std::string_view kUnitRoles[] = {"firer", "target", "movement"};

std::string& unit_name(Situation& s, std::string_view role) {
  return role == "firer" ? s.units.firer : role == "target" ? s.units.target : s.units.movement;
}

/// The values of the units a situation names, under the file's own: a point gets the unit's
/// settings, then the file's written settings again (expand() then applies the sweep values
/// again), then, for special ammunition, the unit's Depletion Number for the year (C8.91) unless
/// the file sets one.
class UnitLayer {
 public:
  UnitLayer(std::shared_ptr<const Document> doc, std::shared_ptr<const UnitLibraries> libraries, const Walk& w)
      : doc_(std::move(doc)), libraries_(std::move(libraries)) {
    for (const Item& item : w.items)
      if (item.kind == ItemKind::kField) written_.push_back({*item.field, item.node, item.path});
    for (std::string_view role : kUnitRoles) lines_.push_back(w.conflict_line(std::string(role) + ".unit"));
    depletion_written_ = w.set.count("firer.depletion") || w.swept.count("firer.depletion");
  }

  void operator()(Situation& s) const {
    const Ctx c{doc_->file, doc_->text};
    std::vector<std::string> notes;
    for (std::size_t r = 0; r < std::size(kUnitRoles); ++r) {
      const std::string_view role = kUnitRoles[r];
      const std::string& name = unit_name(s, role);
      if (name.empty()) continue;
      const std::string key = std::string(role) + ".unit";
      const UnitLibraries::Found found = find_unit(c, lines_[r], key, name, libraries_.get());
      if (role == "target" && !found.unit->has("target.armor") && found.unit->kind == "vehicle")
        fail(c, lines_[r], key,
             fmt::format("the unit {} has no armor factors in {}: add target.armor to it or to this file",
                         toml_quote(found.unit->name), found.library));
      if (role == "target" && found.unit->kind == "gun")
        fail(c, lines_[r], key,
             fmt::format("{} is a Gun: a Gun as a target is not modelled yet", toml_quote(found.unit->name)));
      libraries_->apply(found, role, s);
      notes.push_back(note(role, found));
    }
    const std::string firer = s.units.firer, target = s.units.target, movement = s.units.movement;
    for (const WrittenField& f : written_) asl_schema().fields[f.field].apply(c, f.path, *f.node, s, nullptr);
    s.units.notes = std::move(notes);
    if (!firer.empty() && asl::is_special(s.firer.ammo) && !depletion_written_) depletion(c, s);
  }

 private:
  struct WrittenField {
    std::size_t field;
    const toml::node* node;
    std::string path;
  };

  // "firer.unit "PzKpfw IVH" (units.toml:12): gun, rof, gun_type from the unit; set in this
  // file instead: firer.rof".
  std::string note(std::string_view role, const UnitLibraries::Found& found) const {
    std::string from_unit, from_file;
    if (role == "firer") from_unit = "kind";  // firer.vehicle
    for (const UnitSetting& u : found.unit->settings) {
      if (u.path.compare(0, role.size(), role) != 0) continue;
      const bool overridden = std::any_of(written_.begin(), written_.end(), [&](const WrittenField& f) {
        return f.path == u.path || f.path.rfind(u.path + ".", 0) == 0 || u.path.rfind(f.path + ".", 0) == 0;
      });
      std::string& list = overridden ? from_file : from_unit;
      list += (list.empty() ? "" : ", ") + u.path.substr(role.size() + 1);
    }
    return fmt::format("{}.unit {} ({}:{}): {} from the unit{}", role, toml_quote(found.unit->name), found.library,
                       found.unit->line, from_unit.empty() ? "nothing" : from_unit,
                       from_file.empty() ? "" : "; set in this file instead: " + from_file);
  }

  // C8.1, C8.91: the special ammunition's Depletion Number in the scenario year.
  void depletion(const Ctx& c, Situation& s) const {
    const UnitLibraries::Found found = *libraries_->find(s.units.firer);
    s.firer.depletion = unit_depletion(c, lines_[0], "firer.unit", found, s.firer);
    s.units.notes.push_back(
        fmt::format("firer.depletion {}: the unit's Depletion Number for this ammunition in {} (C8.91)",
                    *s.firer.depletion, s.firer.year));
  }

  std::shared_ptr<const Document> doc_;
  std::shared_ptr<const UnitLibraries> libraries_;
  std::vector<WrittenField> written_;
  std::vector<int> lines_;  // where each role's unit is named (or swept)
  bool depletion_written_ = false;
};

/// A unit library given where a situation or a fight is expected.
void refuse_library(const Document& doc) {
  if (doc.root.contains("library"))
    fail(Ctx{doc.file, doc.text}, 1, "library",
         "this is a unit library, not a situation: name it in a situation with units = [\"" +
             std::filesystem::path(doc.file).filename().string() + "\"] (docs/units.md)");
}

LoadedFile load(const std::shared_ptr<const Document>& doc, const LoadOptions& options) {
  const std::string& file = doc->file;
  const Ctx c{file, doc->text};
  refuse_library(*doc);
  Situation defaults;
  defaults.name = std::filesystem::path(file).stem().string();
  std::shared_ptr<const UnitLibraries> libraries;
  int units_line = 1;
  std::vector<asl::InfantryAttack> then;
  int then_line = 0;
  Walked<Situation> w =
      walk(c, doc->root, schema(), options.max_situations, std::move(defaults), [&](const Item& item) {
        if (item.path == "then") {
          then_line = line_of(item.pos);
          then = read_then(c, item.path, *item.node);
          return;
        }
        units_line = line_of(item.pos);
        libraries = read_unit_libraries(c, item.path, *item.node, options.max_file_bytes);
      });
  if (then_line > 0) {
    w.base.then = std::move(then);
    w.set["then"] = then_line;  // a rules conflict in a later attack is blamed here
  }
  check_movement_keys(c, w.items, w.base);
  bool names_unit = false;
  for (std::string_view role : kUnitRoles) {
    const std::string key = std::string(role) + ".unit";
    if (w.set.count(key) || w.swept.count(key)) names_unit = true;
  }
  if (libraries && !names_unit)
    fail(c, units_line, "units",
         "has no effect here: no firer.unit, target.unit or movement.unit names a unit: remove it");

  LoadedFile out;
  out.path = file;
  out.ruleset = schema().keys.ruleset;
  out.sweep_keys = w.sweep_keys;

  // A setting without effect is refused if it matters at no point of the sweep.
  std::vector<const NoEffect*> unused;
  for (const NoEffect& n : kNoEffect)
    if (w.set.count(n.key) || w.swept.count(n.key)) unused.push_back(&n);

  // A rules conflict on a value a unit set is blamed on the line that names the unit.
  for (std::string_view role : kUnitRoles) {
    const std::string key = std::string(role) + ".unit";
    const std::string& name = unit_name(w.base, role);
    if (!w.set.count(key) || name.empty()) continue;
    const UnitLibraries::Found found = find_unit(c, w.set.at(key), key, name, libraries.get());
    for (const UnitSetting& u : found.unit->settings)
      if (!w.set.count(u.path)) w.set[u.path] = w.set.at(key);
  }
  std::function<void(Situation&)> under;
  if (names_unit) under = UnitLayer(doc, libraries, w);
  // A Light Anti-Tank Weapon is a SW (C13.1): firer.vehicle is false unless the file says.
  const bool latw_possible = asl::is_latw(w.base.firer) || w.swept.count("firer.weapon");
  if (latw_possible && !w.set.count("firer.vehicle") && !w.swept.count("firer.vehicle"))
    under = [layer = std::move(under)](Situation& s) {
      if (layer) layer(s);
      if (asl::is_latw(s.firer)) s.firer.vehicle = false;
    };
  out.situations = expand<LoadedSituation>(
      doc, w, options.max_situations,
      [&](const LoadedSituation& point) {
        if (const auto error = asl::check(point.situation)) {
          if (error->key().empty())
            throw InputError(fmt::format("{}:1: {}", file, error->what()) + sweep_point_suffix(point.sweep_values));
          rules_conflict(c, w, error->key(), error->what(), point.sweep_values);
        }
        std::erase_if(unused, [&](const NoEffect* e) { return e->matters(point.situation); });
      },
      std::move(under));
  if (!unused.empty()) {
    const NoEffect& n = *unused.front();
    fail(c, w.conflict_line(std::string(n.key)), n.key, fmt::format("has no effect here: {}", n.why));
  }
  return out;
}

}  // namespace

const Schema<Situation>& detail::asl_schema() { return schema(); }

LoadedFile load_file(const std::string& path, const LoadOptions& options) {
  const std::string text = read_text_file(path, options.max_file_bytes);
  return load(parse_document(text, path), options);
}

LoadedFile load_string(std::string_view toml, const std::string& source_name, const LoadOptions& options) {
  return load(parse_document(toml, source_name), options);
}

asl::Situation edit_situation(asl::Situation base, std::string_view toml, const std::string& source_name) {
  const auto doc = parse_document(toml, source_name);
  const Ctx c{doc->file, doc->text};
  refuse_library(*doc);
  Walked<Situation> w =
      walk(c, doc->root, schema(), LoadOptions{}.max_situations, std::move(base), [&](const Item& item) {
        fail(c, line_of(item.pos), item.path, "not an edit of a situation's settings: remove it");
      });
  if (w.sweep_line) fail(c, *w.sweep_line, "sweep", "not an edit of a situation's settings: remove it");
  return std::move(w.base);
}

std::variant<LoadedFile, LoadedFight> load_any_string(std::string_view toml, const std::string& source_name,
                                                      const LoadOptions& options) {
  const auto doc = parse_document(toml, source_name);
  refuse_library(*doc);
  if (detail::is_fight(doc->root)) return detail::load_fight(doc, options);
  return load(doc, options);
}

}  // namespace salvo::load
