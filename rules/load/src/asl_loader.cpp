// asl_loader.cpp — ASL situation files (TOML) into asl::Situation, strictly.
//
// Every setting the file format knows is one entry of a schema (dotted path + a function that
// validates a TOML value and stores it). The same entries serve the tables and the [sweep]
// axes, so a swept value is checked exactly like a value written in its table.

#include "salvo/load/asl_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "salvo/load/toml_util.h"
#include "salvo/rules/asl.h"
#include "toml_nodes.h"

namespace salvo::load {
namespace {

using asl::Situation;
using detail::describe;
using detail::line_of;

/// Where messages point: the file name as given and its text (for values as written).
struct Ctx {
  const std::string& file;
  std::string_view text;
};

/// Where each setting was made: dotted path -> line.
using Lines = std::map<std::string, int, std::less<>>;

[[noreturn]] void fail(const Ctx& c, int line, std::string_view key, std::string_view what) {
  throw InputError(fmt::format("{}:{}: {}: {}", c.file, line, printable_key(key), what));
}

[[noreturn]] void expected(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what) {
  fail(c, line_of(n), path, fmt::format("expected {}, got {}", what, describe(n, c.text)));
}

// ---- Readers: one TOML value into one C++ value, or an error naming the path ----

int read_int(const Ctx& c, std::string_view path, const toml::node& n, int lo, int hi) {
  const auto* v = n.as_integer();
  if (v == nullptr || v->get() < lo || v->get() > hi) {
    expected(c, path, n, fmt::format("an integer in {}..{}", lo, hi));
  }
  return static_cast<int>(v->get());
}

bool read_bool(const Ctx& c, std::string_view path, const toml::node& n) {
  const auto* v = n.as_boolean();
  if (v == nullptr) expected(c, path, n, "true or false");
  return v->get();
}

/// A movement-point count: integer or float, >= 0, a multiple of 0.5.
double read_mp(const Ctx& c, std::string_view path, const toml::node& n) {
  std::optional<double> x;
  if (const auto* i = n.as_integer()) x = static_cast<double>(i->get());
  if (const auto* f = n.as_floating_point()) x = f->get();
  if (!x || !std::isfinite(*x) || *x < 0 || std::floor(*x * 2) != *x * 2) {
    expected(c, path, n, "a number >= 0 in steps of 0.5");
  }
  return *x;
}

template <class E>
using Names = std::vector<std::pair<std::string_view, E>>;

template <class E>
std::string one_of(const Names<E>& names) {
  std::string list;
  for (const auto& [name, value] : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return "one of " + list;
}

template <class E>
E read_enum(const Ctx& c, std::string_view path, const toml::node& n, const Names<E>& names) {
  if (const auto* s = n.as_string()) {
    for (const auto& [name, value] : names) {
      if (s->get() == name) return value;
    }
  }
  expected(c, path, n, one_of(names));
}

constexpr std::string_view kArmorFactorScale =
    "an armor factor (0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26 or \"unarmored\")";

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

// ---- Names of enumerated settings, as written in files ----

const Names<asl::Nationality> kNationalities = {
    {"german", asl::Nationality::kGerman},
    {"russian", asl::Nationality::kRussian},
    {"american", asl::Nationality::kAmerican},
    {"british", asl::Nationality::kBritish},
    {"french", asl::Nationality::kFrench},
    {"italian", asl::Nationality::kItalian},
    {"finnish", asl::Nationality::kFinnish},
    {"swedish", asl::Nationality::kSwedish},
    {"axis_minor", asl::Nationality::kAxisMinor},
    {"allied_minor", asl::Nationality::kAlliedMinor},
    {"japanese", asl::Nationality::kJapanese},
    {"chinese_gmd", asl::Nationality::kChineseGmd},
    {"chinese_communist", asl::Nationality::kChineseCommunist},
    {"partisan", asl::Nationality::kPartisan},
    {"thai", asl::Nationality::kThai},
    {"burmese", asl::Nationality::kBurmese},
    {"indonesian", asl::Nationality::kIndonesian},
    {"korean_us", asl::Nationality::kKoreanUs},
    {"rok", asl::Nationality::kRok},
    {"bcfk", asl::Nationality::kBcfk},
    {"kpa", asl::Nationality::kKpa},
    {"cpva", asl::Nationality::kCpva},
};
const Names<asl::ThColor> kThColors = {
    {"auto", asl::ThColor::kAuto}, {"red", asl::ThColor::kRed}, {"black", asl::ThColor::kBlack}};
const Names<asl::Ammo> kAmmo = {{"AP", asl::Ammo::kAP},
                                {"APCR", asl::Ammo::kAPCR},
                                {"APDS", asl::Ammo::kAPDS},
                                {"HEAT", asl::Ammo::kHEAT},
                                {"HE", asl::Ammo::kHE}};
const Names<asl::Ammo> kFallbackAmmo = {{"AP", asl::Ammo::kAP},     {"APCR", asl::Ammo::kAPCR},
                                        {"APDS", asl::Ammo::kAPDS}, {"HEAT", asl::Ammo::kHEAT},
                                        {"HE", asl::Ammo::kHE},     {"none", asl::Ammo::kNone}};
const Names<asl::GunType> kGunTypes = {
    {"T", asl::GunType::kT}, {"ST", asl::GunType::kST}, {"NT", asl::GunType::kNT}};
const Names<asl::TargetType> kTargetTypes = {{"vehicle", asl::TargetType::kVehicle},
                                             {"infantry", asl::TargetType::kInfantry},
                                             {"area", asl::TargetType::kArea}};
const Names<asl::Weapon> kWeapons = {{"gun", asl::Weapon::kGun}, {"mg", asl::Weapon::kMg}, {"ife", asl::Weapon::kIfe}};
const Names<asl::MovementRoll> kMovementRolls = {
    {"esb", asl::MovementRoll::kEsb}, {"start", asl::MovementRoll::kStart}, {"motion", asl::MovementRoll::kMotion}};
const Names<asl::Manufacturer> kManufacturers = {
    {"american", asl::Manufacturer::kAmerican}, {"czech", asl::Manufacturer::kCzech},
    {"russian", asl::Manufacturer::kRussian},   {"british", asl::Manufacturer::kBritish},
    {"german", asl::Manufacturer::kGerman},     {"french", asl::Manufacturer::kFrench},
    {"italian", asl::Manufacturer::kItalian},   {"other", asl::Manufacturer::kOther}};

/// A [movement] setting: writing any of them makes the situation a movement roll (D2).
template <class T>
auto movement_at(T asl::Movement::*member) {
  return [member](Situation& s) -> T& {
    if (!s.movement) s.movement.emplace();
    return *s.movement.*member;
  };
}
const Names<asl::TurretArmor> kTurretArmor = {{"normal", asl::TurretArmor::kNormal},
                                              {"superior", asl::TurretArmor::kSuperior},
                                              {"inferior", asl::TurretArmor::kInferior}};
const Names<asl::Facing> kFacings = {
    {"front", asl::Facing::kFront}, {"side", asl::Facing::kSide}, {"rear", asl::Facing::kRear}};
const Names<int> kSizes = {  // C6.7 Case P
    {"very_large", -2},
    {"large", -1},
    {"average", 0},
    {"small", 1},
    {"very_small", 2}};
const Names<asl::Phase> kPhases = {{"prep", asl::Phase::kPrep},
                                   {"defensive", asl::Phase::kDefensive},
                                   {"final", asl::Phase::kFinal},
                                   {"advancing", asl::Phase::kAdvancing},
                                   {"bounding", asl::Phase::kBounding}};
const Names<asl::Terrain> kTerrains = {{"open", asl::Terrain::kOpen},
                                       {"woods", asl::Terrain::kWoods},
                                       {"building", asl::Terrain::kBuilding},
                                       {"rubble", asl::Terrain::kRubble}};
const Names<asl::StopOn> kStopOn = {
    {"destroyed", asl::StopOn::kDestroyed}, {"effect", asl::StopOn::kEffect}, {"never", asl::StopOn::kNever}};

constexpr std::pair<std::string_view, asl::ArmorFactor asl::Armor::*> kAspects[] = {
    {"hull_front", &asl::Armor::hull_front},
    {"hull_side", &asl::Armor::hull_side},
    {"turret_front", &asl::Armor::turret_front},
    {"turret_side", &asl::Armor::turret_side},
};

// ---- The schema ----

/// Validate `value` (the setting at `path`) and store it in `s`; record sub-settings' lines
/// in `lines` when given (only target.armor has any).
using ApplyFn = std::function<void(const Ctx& c, const std::string& path, const toml::node& value,
                                   Situation& s, Lines* lines)>;

struct Field {
  std::string path;
  ApplyFn apply;
};

/// The setting `s.*part.*member`, as the field makers' `get`.
template <class Part, class T>
struct Member {
  Part Situation::*part;
  T Part::*member;
  T& operator()(Situation& s) const { return s.*part.*member; }
};
template <class Part, class T>
Member<Part, T> at(Part Situation::*part, T Part::*member) {
  return {part, member};
}

template <class Get>
Field int_field(std::string path, int lo, int hi, Get get) {
  return {std::move(path), [lo, hi, get](const Ctx& c, const std::string& p, const toml::node& n,
                                         Situation& s, Lines*) { get(s) = read_int(c, p, n, lo, hi); }};
}

template <class Get>
Field bool_field(std::string path, Get get) {
  return {std::move(path), [get](const Ctx& c, const std::string& p, const toml::node& n, Situation& s,
                                 Lines*) { get(s) = read_bool(c, p, n); }};
}

template <class Get>
Field mp_field(std::string path, Get get) {
  return {std::move(path), [get](const Ctx& c, const std::string& p, const toml::node& n, Situation& s,
                                 Lines*) { get(s) = read_mp(c, p, n); }};
}

template <class E, class Get>
Field enum_field(std::string path, const Names<E>& names, Get get) {
  return {std::move(path), [&names, get](const Ctx& c, const std::string& p, const toml::node& n,
                                         Situation& s, Lines*) { get(s) = read_enum(c, p, n, names); }};
}

void apply_name(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines*) {
  const auto* v = n.as_string();
  if (v == nullptr) expected(c, path, n, "a string");
  s.name = v->get();
}

void apply_gun(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines*) {
  std::optional<asl::Gun> gun;
  if (const auto* v = n.as_string()) gun = asl::parse_gun(v->get());
  if (!gun) expected(c, path, n, "a gun designation (\"75\", \"37*\", \"75L\", \"88LL\")");
  s.firer.gun = *gun;
}

void apply_size(const Ctx& c, const std::string& path, const toml::node& n, Situation& s, Lines*) {
  if (const auto* i = n.as_integer(); i != nullptr && i->get() >= -2 && i->get() <= 2) {
    s.target.size = static_cast<int>(i->get());
    return;
  }
  if (const auto* v = n.as_string()) {
    for (const auto& [name, value] : kSizes) {
      if (v->get() == name) {
        s.target.size = value;
        return;
      }
    }
  }
  expected(c, path, n, one_of(kSizes) + " or an integer in -2..2");
}

[[noreturn]] void unknown(const Ctx& c, int line, const std::string& path, const toml::node& value);

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
  for (const detail::Entry& e : detail::entries_in_file_order(*table)) {
    const std::string sub = path + "." + e.key;
    const auto* aspect = std::find_if(std::begin(kAspects), std::end(kAspects),
                                      [&](const auto& a) { return a.first == e.key; });
    if (aspect == std::end(kAspects)) unknown(c, line_of(e.pos), sub, *e.node);
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

Field armor_aspect_field(std::string_view aspect, asl::ArmorFactor asl::Armor::*member) {
  return {"target.armor." + std::string(aspect),
          [member](const Ctx& c, const std::string& p, const toml::node& n, Situation& s, Lines*) {
            s.target.armor.*member = read_armor_factor(c, p, n);
          }};
}

/// Every setting, in the order of the format's documentation.
const std::vector<Field>& schema() {
  static const std::vector<Field> fields = [] {
    std::vector<Field> f;
    f.push_back({"name", apply_name});
    // [firer]
    f.push_back(
        enum_field("firer.nationality", kNationalities, at(&Situation::firer, &asl::Firer::nationality)));
    f.push_back(int_field("firer.year", 1939, 1953, at(&Situation::firer, &asl::Firer::year)));
    f.push_back(int_field("firer.month", 1, 12, at(&Situation::firer, &asl::Firer::month)));
    f.push_back(enum_field("firer.th_color", kThColors, at(&Situation::firer, &asl::Firer::th_color)));
    f.push_back({"firer.gun", apply_gun});
    f.push_back(enum_field("firer.ammo", kAmmo, at(&Situation::firer, &asl::Firer::ammo)));
    f.push_back(int_field("firer.rof", 0, 3, at(&Situation::firer, &asl::Firer::rof)));
    f.push_back(int_field("firer.breakdown", 2, 12, at(&Situation::firer, &asl::Firer::breakdown)));
    f.push_back(int_field("firer.x_number", 2, 12, at(&Situation::firer, &asl::Firer::x_number)));
    f.push_back(bool_field("firer.low_ammo", at(&Situation::firer, &asl::Firer::low_ammo)));
    f.push_back(bool_field("firer.low_ammo_marked", at(&Situation::firer, &asl::Firer::low_ammo_marked)));
    f.push_back(int_field("firer.depletion", 2, 12, at(&Situation::firer, &asl::Firer::depletion)));
    f.push_back(bool_field("firer.elite", at(&Situation::firer, &asl::Firer::elite)));
    f.push_back(
        enum_field("firer.fallback_ammo", kFallbackAmmo, at(&Situation::firer, &asl::Firer::fallback_ammo)));
    f.push_back(enum_field("firer.gun_type", kGunTypes, at(&Situation::firer, &asl::Firer::gun_type)));
    f.push_back(bool_field("firer.vehicle", at(&Situation::firer, &asl::Firer::vehicle)));
    f.push_back(bool_field("firer.stabilized", at(&Situation::firer, &asl::Firer::stabilized)));
    f.push_back(int_field("firer.armor_leader", -3, 0, at(&Situation::firer, &asl::Firer::armor_leader)));
    f.push_back(bool_field("firer.captured", at(&Situation::firer, &asl::Firer::captured)));
    f.push_back(bool_field("firer.non_qualified", at(&Situation::firer, &asl::Firer::non_qualified)));
    f.push_back(bool_field("firer.no_intensive_fire", at(&Situation::firer, &asl::Firer::no_intensive_fire)));
    f.push_back(enum_field("firer.weapon", kWeapons, at(&Situation::firer, &asl::Firer::weapon)));
    f.push_back(int_field("firer.fp", 1, 200, at(&Situation::firer, &asl::Firer::fp)));
    f.push_back(int_field("firer.normal_range", 1, 100, at(&Situation::firer, &asl::Firer::normal_range)));
    f.push_back(int_field("firer.repair", 1, 5, at(&Situation::firer, &asl::Firer::repair)));
    f.push_back(bool_field("firer.bow_mounted", at(&Situation::firer, &asl::Firer::bow_mounted)));
    f.push_back(bool_field("firer.bypass", at(&Situation::firer, &asl::Firer::bypass)));
    f.push_back(int_field("firer.cafp", 0, 5, at(&Situation::firer, &asl::Firer::cafp)));
    // [target]
    f.push_back(enum_field("target.type", kTargetTypes, at(&Situation::target, &asl::Target::type)));
    f.push_back({"target.armor", apply_armor});
    for (const auto& [aspect, member] : kAspects) f.push_back(armor_aspect_field(aspect, member));
    f.push_back(
        enum_field("target.turret_armor", kTurretArmor, at(&Situation::target, &asl::Target::turret_armor)));
    f.push_back(enum_field("target.facing", kFacings, at(&Situation::target, &asl::Target::facing)));
    f.push_back({"target.size", apply_size});
    f.push_back(bool_field("target.hull_down", at(&Situation::target, &asl::Target::hull_down)));
    f.push_back(bool_field("target.moving", at(&Situation::target, &asl::Target::moving)));
    f.push_back(mp_field("target.mp_in_los", at(&Situation::target, &asl::Target::mp_in_los)));
    f.push_back(bool_field("target.concealed", at(&Situation::target, &asl::Target::concealed)));
    f.push_back(int_field("target.tem", -3, 6, at(&Situation::target, &asl::Target::tem)));
    f.push_back(int_field("target.hindrance", 0, 10, at(&Situation::target, &asl::Target::hindrance)));
    f.push_back(bool_field("target.red_cs", at(&Situation::target, &asl::Target::red_cs)));
    f.push_back(bool_field("target.ffnam", at(&Situation::target, &asl::Target::ffnam)));
    f.push_back(bool_field("target.ffmo", at(&Situation::target, &asl::Target::ffmo)));
    f.push_back(bool_field("target.bypass", at(&Situation::target, &asl::Target::bypass)));
    // [fire]
    f.push_back(int_field("fire.range", 0, 200, at(&Situation::fire, &asl::Fire::range)));
    f.push_back(enum_field("fire.phase", kPhases, at(&Situation::fire, &asl::Fire::phase)));
    f.push_back(bool_field("fire.opportunity", at(&Situation::fire, &asl::Fire::opportunity)));
    f.push_back(int_field("fire.ca_change", 0, 3, at(&Situation::fire, &asl::Fire::ca_change)));
    f.push_back(enum_field("fire.firer_terrain", kTerrains, at(&Situation::fire, &asl::Fire::firer_terrain)));
    f.push_back(bool_field("fire.buttoned_up", at(&Situation::fire, &asl::Fire::buttoned_up)));
    f.push_back(bool_field("fire.same_hex", at(&Situation::fire, &asl::Fire::same_hex)));
    f.push_back(int_field("fire.acquisition", 0, 2, at(&Situation::fire, &asl::Fire::acquisition)));
    f.push_back(int_field("fire.extra_drm", -10, 10, at(&Situation::fire, &asl::Fire::extra_drm)));
    f.push_back(mp_field("fire.los_mp", at(&Situation::fire, &asl::Fire::los_mp)));
    f.push_back(bool_field("fire.pinned", at(&Situation::fire, &asl::Fire::pinned)));
    f.push_back(int_field("fire.max_shots", 1, 100, at(&Situation::fire, &asl::Fire::max_shots)));
    f.push_back(bool_field("fire.intensive_fire", at(&Situation::fire, &asl::Fire::intensive_fire)));
    f.push_back(enum_field("fire.stop_on", kStopOn, at(&Situation::fire, &asl::Fire::stop_on)));
    f.push_back(int_field("fire.vca", 0, 5, at(&Situation::fire, &asl::Fire::vca)));
    f.push_back(int_field("fire.tca", 0, 5, at(&Situation::fire, &asl::Fire::tca)));
    f.push_back(int_field("fire.target_direction", 0, 5, at(&Situation::fire, &asl::Fire::target_direction)));
    f.push_back(bool_field("fire.pivot", at(&Situation::fire, &asl::Fire::pivot)));
    f.push_back(int_field("fire.maintained_ca", 0, 12, at(&Situation::fire, &asl::Fire::maintained_ca)));
    f.push_back(bool_field("fire.motion", at(&Situation::fire, &asl::Fire::motion)));
    f.push_back(bool_field("fire.follow_up", at(&Situation::fire, &asl::Fire::follow_up)));
    f.push_back(int_field("fire.turns", 1, asl::kMaxTurns, at(&Situation::fire, &asl::Fire::turns)));
    f.push_back(int_field("fire.rally_phases", 1, 2, at(&Situation::fire, &asl::Fire::rally_phases)));
    // [override]
    f.push_back(
        int_field("override.modified_th", -10, 20, at(&Situation::override_, &asl::Override::modified_th)));
    f.push_back(int_field("override.basic_tk", 0, 60, at(&Situation::override_, &asl::Override::basic_tk)));
    // [movement] (D2.5, D2.51, D2.401)
    f.push_back(enum_field("movement.roll", kMovementRolls, movement_at(&asl::Movement::roll)));
    f.push_back(int_field("movement.mp_allotment", 1, 99, movement_at(&asl::Movement::mp_allotment)));
    f.push_back(bool_field("movement.red_mp", movement_at(&asl::Movement::red_mp)));
    f.push_back(mp_field("movement.mp_sought", movement_at(&asl::Movement::mp_sought)));
    f.push_back(enum_field("movement.manufacturer", kManufacturers, movement_at(&asl::Movement::manufacturer)));
    f.push_back(mp_field("movement.mp_in_los", movement_at(&asl::Movement::mp_in_los)));
    f.push_back(int_field("movement.drm", -10, 10, movement_at(&asl::Movement::drm)));
    return f;
  }();
  return fields;
}

constexpr std::string_view kTables[] = {"firer", "target", "fire", "override", "movement", "sweep"};

bool is_table_name(std::string_view key) {
  return std::find(std::begin(kTables), std::end(kTables), key) != std::end(kTables);
}

const Field* find_field(std::string_view path) {
  const auto& fields = schema();
  const auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.path == path; });
  return it == fields.end() ? nullptr : &*it;
}

/// Every name a key could have been meant to be (for "did you mean").
const std::vector<std::string>& known_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"ruleset"};
    for (const auto t : kTables) n.emplace_back(t);
    for (const Field& f : schema()) n.push_back(f.path);
    return n;
  }();
  return names;
}

/// `[foo]` and `[[foo]]` are tables; anything else is a key.
void unknown(const Ctx& c, int line, const std::string& path, const toml::node& value) {
  const auto* array = value.as_array();
  const bool is_table =
      value.is_table() || (array != nullptr && !array->empty() && array->is_array_of_tables());
  std::string what = is_table ? "unknown table" : "unknown key";
  if (const auto guess = closest_name(path, known_names())) what += " (did you mean " + *guess + "?)";
  fail(c, line, path, what);
}

// ---- Walking the document ----

enum class ItemKind { kRuleset, kField, kSweepAxis, kUnknown, kNotATable };

/// One key of the file, found while walking it; processed in file order.
struct Item {
  ItemKind kind;
  std::string path;
  const toml::node* node;
  toml::source_position pos;
  const Field* field = nullptr;
};

/// [sweep] and its dotted sub-tables: `"fire.range" = [...]` and `fire.range = [...]` alike.
void collect_sweep(const toml::table& table, const std::string& prefix, std::vector<Item>& items) {
  for (const detail::Entry& e : detail::entries_in_file_order(table)) {
    const std::string path = prefix.empty() ? e.key : prefix + "." + e.key;
    if (const auto* sub = e.node->as_table()) {
      collect_sweep(*sub, path, items);
    } else {
      items.push_back({ItemKind::kSweepAxis, path, e.node, e.pos});
    }
  }
}

/// One [sweep] axis, validated.
struct Axis {
  const Field* field;
  std::string path;
  int line;
  std::vector<const toml::node*> values;
  std::vector<std::string> labels;  ///< values as written
};

std::string sweep_key(const std::string& path) { return "sweep." + toml_key(path); }

Axis make_axis(const Ctx& c, const Item& item, const std::vector<Axis>& axes) {
  const int line = line_of(item.pos);
  if (item.path == "ruleset") fail(c, line, item.path, "cannot be swept");
  if (is_table_name(item.path)) {
    fail(c, line, item.path, "is a table, not a setting (sweep its keys one by one)");
  }
  const Field* field = find_field(item.path);
  if (field == nullptr) unknown(c, line, item.path, *item.node);
  const auto* array = item.node->as_array();
  if (array == nullptr) expected(c, sweep_key(item.path), *item.node, "an array of values");
  if (array->empty()) fail(c, line, sweep_key(item.path), "empty array (give at least one value)");
  for (const Axis& a : axes) {
    if (a.path == item.path) {
      fail(c, line, sweep_key(item.path), fmt::format("swept twice (also on line {})", a.line));
    }
  }

  Axis axis{field, item.path, line, {}, {}};
  detail::SourceText source(c.text);
  for (const toml::node& value : *array) {
    Situation scratch;  // validate each value now, so errors come in file order
    field->apply(c, item.path, value, scratch, nullptr);
    axis.values.push_back(&value);
    axis.labels.push_back(detail::as_written(value, source));
  }
  return axis;
}

/// The line to blame for a rules conflict on `key`: where it (or a table holding it) was swept
/// or set, else its table's header, else 1.
int conflict_line(const std::string& key, const Lines& swept, const Lines& set, const Lines& headers) {
  for (const Lines* lines : {&swept, &set}) {
    for (std::string k = key; !k.empty();) {
      if (const auto it = lines->find(k); it != lines->end()) return it->second;
      const auto dot = k.rfind('.');
      k = dot == std::string::npos ? std::string() : k.substr(0, dot);
    }
  }
  const auto table = headers.find(std::string_view(key).substr(0, key.find('.')));
  return table != headers.end() ? table->second : 1;
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
      {asl::MovementRoll::kEsb, "esb", "D2.5", {"roll", "mp_allotment", "red_mp", "mp_sought", "manufacturer", "drm"}},
      {asl::MovementRoll::kStart, "start", "D2.51", {"roll", "red_mp", "drm"}},
      {asl::MovementRoll::kMotion, "motion", "D2.401", {"roll", "mp_in_los", "red_mp", "drm"}},
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
constexpr NoEffect kNoEffect[] = {
    {"target.mp_in_los",
     [](const Situation& s) { return s.fire.phase == asl::Phase::kDefensive && s.target.moving; },
     "matters only against a moving target in Defensive First Fire (target.moving = true, fire.phase = "
     "\"defensive\", C6.11-.12): remove it"},
    {"firer.elite", [](const Situation& s) { return asl::is_special(s.firer.ammo); },
     "an elite crew's +1 is to the Depletion Number of special ammunition, APCR, APDS or HEAT (C8.2): remove it"},
    {"firer.fallback_ammo", [](const Situation& s) { return asl::is_special(s.firer.ammo); },
     "the fallback is fired only when special ammunition (APCR, APDS or HEAT) runs out (C8.9): remove it"},
    {"firer.depletion", [](const Situation& s) { return asl::is_special(s.firer.ammo); },
     "a Depletion Number applies only to special ammunition, APCR, APDS or HEAT (C8.1, C8.9): remove it"},
    {"fire.rally_phases", [](const Situation& s) { return s.fire.turns > 1; },
     "matters only in a duel over several turns (fire.turns > 1): remove it"},
};

LoadedFile load(std::string_view source_text, const std::string& source_file, const LoadOptions& options) {
  const auto doc = detail::parse_document(source_text, source_file);
  const std::string& file = doc->file;
  const Ctx c{file, doc->text};
  const toml::table& root = doc->root;

  // Collect every key with where it is written.
  std::vector<Item> items;
  Lines headers;  // table -> header line
  std::optional<int> sweep_line;
  for (const detail::Entry& e : detail::entries_in_file_order(root)) {
    const auto* table = e.node->as_table();
    if (e.key == "ruleset") {
      items.push_back({ItemKind::kRuleset, e.key, e.node, e.pos});
    } else if (is_table_name(e.key)) {
      if (table == nullptr) {
        items.push_back({ItemKind::kNotATable, e.key, e.node, e.pos});
        continue;
      }
      headers[e.key] = line_of(*table);
      if (e.key == "sweep") {
        sweep_line = line_of(*table);
        // The size from the arrays' lengths, refused before any value is read.
        const SweepSize size = sweep_size(detail::sweep_array_lengths(*table), options.max_situations);
        if (size.too_big) fail(c, *sweep_line, "sweep", size.message);
        collect_sweep(*table, "", items);
        continue;
      }
      for (const detail::Entry& sub : detail::entries_in_file_order(*table)) {
        const std::string path = e.key + "." + sub.key;
        const Field* field = find_field(path);
        items.push_back({field ? ItemKind::kField : ItemKind::kUnknown, path, sub.node, sub.pos, field});
      }
    } else if (const Field* field = find_field(e.key)) {
      items.push_back({ItemKind::kField, e.key, e.node, e.pos, field});
    } else {
      items.push_back({ItemKind::kUnknown, e.key, e.node, e.pos});
    }
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
  });

  // Validate and apply, first error in file order wins.
  LoadedFile out;
  out.path = file;
  Situation base;
  Lines set, swept;
  bool have_name = false;
  std::vector<Axis> axes;
  for (const Item& item : items) {
    const int line = line_of(item.pos);
    switch (item.kind) {
      case ItemKind::kRuleset: {
        const auto* v = item.node->as_string();
        if (v == nullptr || v->get() != "asl") expected(c, "ruleset", *item.node, "\"asl\" or \"1943\"");
        out.ruleset = v->get();
        set[item.path] = line;
        break;
      }
      case ItemKind::kField:
        item.field->apply(c, item.path, *item.node, base, &set);
        set[item.path] = line;
        have_name = have_name || item.path == "name";
        break;
      case ItemKind::kSweepAxis:
        axes.push_back(make_axis(c, item, axes));
        swept[item.path] = line;
        break;
      case ItemKind::kUnknown:
        unknown(c, line, item.path, *item.node);
      case ItemKind::kNotATable:
        expected(c, item.path, *item.node, "a table");
    }
  }
  if (out.ruleset.empty()) fail(c, 1, "ruleset", "required (ruleset = \"asl\")");
  check_movement_keys(c, items, base);
  if (!have_name) base.name = std::filesystem::path(file).stem().string();

  // Size of the sweep, refused before anything is built.
  std::vector<std::size_t> sizes;
  for (const Axis& a : axes) sizes.push_back(a.values.size());
  const SweepSize size = sweep_size(sizes, options.max_situations);
  if (!axes.empty() && size.too_big) fail(c, sweep_line.value_or(1), "sweep", size.message);

  // A setting without effect is refused if it matters at no point of the sweep.
  std::vector<const NoEffect*> unused;
  for (const NoEffect& n : kNoEffect)
    if (set.count(n.key) || swept.count(n.key)) unused.push_back(&n);

  // The points, made on demand from their index (first axis slowest); each is made once here
  // to check it against the rules, then dropped: memory does not grow with the sweep.
  for (const Axis& a : axes) out.sweep_keys.push_back(a.path);
  auto make = [doc, base, axes = std::move(axes), sizes](std::size_t n) {
    const Ctx cx{doc->file, doc->text};
    const std::vector<std::size_t> index = sweep_index(sizes, n);
    LoadedSituation point{base, {}};
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const Axis& a = axes[i];
      a.field->apply(cx, a.path, *a.values[index[i]], point.situation, nullptr);
      point.sweep_values.emplace_back(a.path, a.labels[index[i]]);
    }
    return point;
  };
  for (std::size_t n = 0; n < size.total; ++n) {
    const LoadedSituation point = make(n);
    if (const auto error = asl::check(point.situation)) {
      const std::string& key = error->key();
      const std::string message = key.empty()
                                      ? fmt::format("{}:1: {}", file, error->what())
                                      : fmt::format("{}:{}: {}: {}", file, conflict_line(key, swept, set, headers),
                                                    key, error->what());
      throw InputError(message + sweep_point_suffix(point.sweep_values));
    }
    std::erase_if(unused, [&](const NoEffect* e) { return e->matters(point.situation); });
  }
  if (!unused.empty()) {
    const NoEffect& n = *unused.front();
    fail(c, conflict_line(std::string(n.key), swept, set, headers), n.key,
         fmt::format("has no effect here: {}", n.why));
  }
  out.situations = SweepPoints<LoadedSituation>(size.total, std::move(make));
  return out;
}

}  // namespace

LoadedFile load_file(const std::string& path, const LoadOptions& options) {
  const std::string text = read_text_file(path, options.max_file_bytes);
  return load(text, path, options);
}

LoadedFile load_string(std::string_view toml, const std::string& source_name, const LoadOptions& options) {
  return load(toml, source_name, options);
}

}  // namespace salvo::load
