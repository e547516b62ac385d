// 1943 chart data: the Weapon Size Index (3.6), result boxes, the names of the chart's
// modifiers, structural checks, the illustrative chart and the hash of a chart.
#include <algorithm>
#include <set>

#include "salvo/core/hash.h"
#include "salvo/rules/w1943.h"

namespace salvo::w1943 {
namespace {

// 3.6 Weapon Size Index: historical size -> 1943 shell size category.
const std::vector<std::pair<std::string, int>>& size_index() {
  static const std::vector<std::pair<std::string, int>> index = {
      {"machine_gun", 0}, {"atr_15mm", 1}, {"30mm", 2},         {"45mm", 3},          {"57mm", 4},
      {"75mm", 5},        {"85mm", 6},     {"100mm", 7},        {"120mm", 8},         {"150mm", 9},
      {"170mm", 10},      {"200mm", 11},   {"light_mortar", 1}, {"medium_mortar", 3}, {"heavy_mortar", 5},
  };
  return index;
}

// The chart's hash: every value as 8 bytes (Fnv1a::i64), strings a character at a time.
struct Fnv {
  Fnv1a f;
  std::uint64_t& h = f.h;
  void mix(std::int64_t v) { f.i64(v); }
  void str(const std::string& s) {
    mix(static_cast<std::int64_t>(s.size()));
    for (char c : s) mix(c);
  }
  void table(const ResultTable& t) {
    mix(t.lowest);
    mix(static_cast<std::int64_t>(t.results.size()));
    for (Result r : t.results) mix(static_cast<int>(r));
  }
  void bands(const std::vector<RangeBand>& b) {
    mix(static_cast<std::int64_t>(b.size()));
    for (const RangeBand& x : b) {
      mix(x.from);
      mix(x.to);
      mix(x.value);
    }
  }
  void mods(const std::map<std::string, int>& m) {
    mix(static_cast<std::int64_t>(m.size()));
    for (const auto& [k, v] : m) {
      str(k);
      mix(v);
    }
  }
};

void band_problems(const std::vector<RangeBand>& bands, const std::string& where, std::vector<std::string>& out) {
  if (bands.empty()) {
    out.push_back(where + ": no range bands");
    return;
  }
  if (bands[0].from != 0) out.push_back(where + "[0]: the first band must start at 0 yards");
  for (std::size_t i = 0; i < bands.size(); ++i) {
    if (bands[i].to < bands[i].from) out.push_back(where + "[" + std::to_string(i) + "]: ends before it starts");
    if (i > 0 && bands[i].from <= bands[i - 1].to)
      out.push_back(where + "[" + std::to_string(i) + "]: overlaps band " + std::to_string(i - 1));
    if (i > 0 && bands[i].from > bands[i - 1].to + 1)
      out.push_back(where + "[" + std::to_string(i) + "]: gap after band " + std::to_string(i - 1));
  }
}

void mod_problems(const std::map<std::string, int>& a, const std::map<std::string, int>* b,
                  const std::vector<std::string>& names, const std::string& where, std::vector<std::string>& out) {
  for (const std::string& n : names)
    if (!a.count(n) && !(b && b->count(n))) out.push_back(where + ": missing modifier " + n);
  for (const auto* m : {&a, b}) {
    if (!m) continue;
    for (const auto& [k, v] : *m)
      if (std::find(names.begin(), names.end(), k) == names.end()) out.push_back(where + ": unknown modifier " + k);
  }
}

void table_problems(const ResultTable& t, int lo, int hi, const std::string& where, std::vector<std::string>& out) {
  if (t.results.empty()) {
    out.push_back(where + ": no result boxes");
    return;
  }
  for (int f = lo; f <= hi; ++f)
    if (f < t.lowest || f > t.highest()) out.push_back(where + ": missing result for die face " + std::to_string(f));
}

}  // namespace

const std::vector<std::string> kSmallArmsModifiers = {"hmg",           "lmg",        "at_prone",    "at_packed",
                                                      "at_rushing",    "soft_cover", "solid_cover", "hard_cover",
                                                      "moving_firing", "demoralized"};
const std::vector<std::string> kAntiTankModifiers = {"large_target",    "small_target",    "stationary_in_open",
                                                     "solid_cover",     "hard_cover",      "range_1000_2000",
                                                     "moving_target",   "moved",           "damaged",
                                                     "range_under_200", "range_under_400", "apcp_under_600",
                                                     "flank_rear",      "over_1000",       "firing_he"};
const std::vector<std::string> kAntiPersonnelModifiers = {
    "stationary_in_open", "packed_infantry", "solid_cover", "hard_cover",
    "range_1000_2000",    "moving_target",   "moved",       "damaged",
    "range_under_200",    "range_under_400", "over_1000"};

std::optional<int> shell_size_of(const std::string& weapon_class) {
  for (const auto& [name, size] : size_index())
    if (name == weapon_class) return size;
  return std::nullopt;
}

std::optional<WeaponClass> weapon_class(const std::string& weapon) {
  using M = MachineGun;
  // name, MG, mortar, small arms, direct artillery, flamethrower, smoke.
  struct Row {
    const char* name;
    WeaponClass c;
  };
  static const Row rows[] = {
      {"rifle", {M::kNone, false, true, false, false, false}},
      {"assault", {M::kNone, false, true, false, false, false}},
      // Anti-tank rifles: infantry fire (3.5 weapon differential) and a 3.6 shell size (ATR, 1).
      {"atr", {M::kNone, false, true, true, false, false}},
      // 3.7: "light machine guns may not fire in any anti-tank capacity"; medium and heavy MGs
      // fire on tank targets with the Direct Artillery Anti-Tank modifiers.
      {"lmg", {M::kLight, false, true, false, false, false}},
      {"mmg", {M::kMedium, false, true, true, false, false}},
      {"hmg", {M::kHeavy, false, true, true, false, false}},
      // 3.2: "Towed cannons, vehicle-mounted cannons and mortars may only conduct direct fire";
      // 3.7 Light Smoke: "All mortar sections may use light smoke, as can vehicles with an S
      // weapon code" (salvo cannot see a gun's code: every gun may).
      {"light_gun", {M::kNone, false, false, true, false, true}},
      {"field_gun", {M::kNone, false, false, true, false, true}},
      {"tank_gun", {M::kNone, false, false, true, false, true}},
      {"flamethrower", {M::kNone, false, false, false, true, false}},
  };
  for (const Row& r : rows)
    if (weapon == r.name) return r.c;
  // 3.7 Mortars: Direct Artillery Fire chart, HE and light smoke.
  const std::string suffix = "_mortar";
  if (weapon == "mortar" ||
      (weapon.size() > suffix.size() && weapon.compare(weapon.size() - suffix.size(), suffix.size(), suffix) == 0))
    return WeaponClass{M::kNone, true, false, true, false, true};
  return std::nullopt;
}

const std::vector<std::string>& shell_size_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& e : size_index()) n.push_back(e.first);
    return n;
  }();
  return names;
}

const char* result_name(Result r) {
  static constexpr std::array<Named<Result>, 4> kResultNames = {
      {{"none", Result::kNone}, {"I", Result::kImmobilized}, {"D", Result::kDamaged}, {"K", Result::kKilled}}};
  return name_in(kResultNames, r).data();
}

Result ResultTable::at(int total) const {
  const int i = std::clamp(total, lowest, highest()) - lowest;
  return results[static_cast<std::size_t>(i)];
}

std::uint64_t Chart::hash() const {
  Fnv f;
  f.str(name);
  f.mods(ranges);
  f.mix(small_arms_dice);
  f.mods(small_arms_mods);
  f.bands(small_arms_bands);
  f.table(small_arms_results);
  f.bands(artillery_bands);
  for (const ArtillerySection* s : {&anti_tank, &anti_personnel}) {
    f.mods(s->to_hit);
    f.mods(s->to_kill);
    f.table(s->kill);
  }
  for (int v : shell_size_kill) f.mix(v);
  return f.h;
}

std::vector<std::string> chart_problems(const Chart& c) {
  std::vector<std::string> out;
  if (c.small_arms_dice != 1 && c.small_arms_dice != 2) out.push_back("small_arms.dice: expected 1d6 or 2d6");
  mod_problems(c.small_arms_mods, nullptr, kSmallArmsModifiers, "small_arms.modifiers", out);
  band_problems(c.small_arms_bands, "small_arms.range_bands", out);
  table_problems(c.small_arms_results, c.small_arms_dice, 6 * c.small_arms_dice, "small_arms.results", out);
  band_problems(c.artillery_bands, "artillery.range_bands", out);
  mod_problems(c.anti_tank.to_hit, &c.anti_tank.to_kill, kAntiTankModifiers, "artillery.anti_tank", out);
  mod_problems(c.anti_personnel.to_hit, &c.anti_personnel.to_kill, kAntiPersonnelModifiers, "artillery.anti_personnel",
               out);
  table_problems(c.anti_tank.kill, 1, 6, "artillery.kill.anti_tank", out);
  table_problems(c.anti_personnel.kill, 1, 6, "artillery.kill.anti_personnel", out);
  for (const auto& [k, v] : c.ranges)
    if (v <= 0) out.push_back("ranges." + k + ": expected a positive number of yards");
  return out;
}

Chart illustrative_chart() {
  // Keep in step with examples/1943/illustrative-chart.toml (a test loads both and compares).
  using R = Result;
  Chart c;
  c.name = "illustrative (not the published chart)";
  c.ranges = {{"rifle", 800},         {"assault", 120},    {"lmg", 1000},          {"mmg", 1200},
              {"hmg", 1400},          {"atr", 800},        {"light_mortar", 1000}, {"medium_mortar", 1800},
              {"heavy_mortar", 1800}, {"light_gun", 1600}, {"field_gun", 2000},    {"tank_gun", 2000},
              {"flamethrower", 40}};
  c.small_arms_dice = 2;
  c.small_arms_mods = {
      {"hmg", 2},         {"lmg", 1},          {"at_prone", -2},   {"at_packed", 2},      {"at_rushing", 1},
      {"soft_cover", -1}, {"solid_cover", -2}, {"hard_cover", -3}, {"moving_firing", -2}, {"demoralized", -2}};
  c.small_arms_bands = {{0, 399, 0}, {400, 1000, -2}, {1001, 1400, -4}};
  c.small_arms_results = {2,
                          {R::kNone, R::kNone, R::kNone, R::kNone, R::kNone, R::kDamaged, R::kDamaged, R::kDamaged,
                           R::kKilled, R::kKilled, R::kKilled}};
  c.artillery_bands = {{0, 999, 7}, {1000, 2000, 8}};
  c.anti_tank.to_hit = {{"large_target", 1},   {"small_target", -1}, {"stationary_in_open", 1},
                        {"solid_cover", -1},   {"hard_cover", -2},   {"range_1000_2000", -1},
                        {"moving_target", -1}, {"moved", -2},        {"damaged", -1}};
  c.anti_tank.to_kill = {{"range_under_200", 2}, {"range_under_400", 1}, {"apcp_under_600", 1},
                         {"flank_rear", 2},      {"over_1000", -1},      {"firing_he", -2}};
  c.anti_tank.kill = {1, {R::kNone, R::kNone, R::kImmobilized, R::kDamaged, R::kKilled, R::kKilled}};
  c.anti_personnel.to_hit = {{"stationary_in_open", 1}, {"packed_infantry", 1}, {"solid_cover", -1}, {"hard_cover", -2},
                             {"range_1000_2000", -1},   {"moving_target", -1},  {"moved", -2},       {"damaged", -1}};
  c.anti_personnel.to_kill = {{"range_under_200", 1}, {"range_under_400", 0}, {"over_1000", -1}};
  c.anti_personnel.kill = {1, {R::kNone, R::kNone, R::kDamaged, R::kDamaged, R::kKilled, R::kKilled}};
  c.shell_size_kill = {-2, -1, -1, 0, 0, 1, 1, 1, 2, 2, 2, 3};
  return c;
}

std::uint64_t rules_data_hash(const Chart& chart) {
  Fnv f;
  for (const auto& [name, size] : size_index()) {
    f.str(name);
    f.mix(size);
  }
  for (int v : {kWeakFire, kRemnantFire, kOutstandingHit, kAbysmalHit, kMediumMgKill, kHeavyMgKill, kMortarMinRange,
                kMortarMaxRange})
    f.mix(v);
  f.str(kRulesDataVersion);
  f.mix(static_cast<std::int64_t>(chart.hash()));
  return f.h;
}

}  // namespace salvo::w1943
