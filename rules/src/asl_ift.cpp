// The Infantry Fire Table and the shots resolved on it: HE vs Personnel on the Infantry and Area
// Target Types, vehicular MG and IFE fire, the IFT Vehicle line.
#include "salvo/rules/asl_ift.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "checks.h"
#include "salvo/rules/asl_arc.h"
#include "salvo/rules/asl_shot.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {

std::string fp_text(double fp) {
  if (fp == std::floor(fp)) return std::to_string(static_cast<int>(fp));
  std::string t = std::to_string(fp);
  while (t.back() == '0') t.pop_back();
  return t;
}

std::string signed_text(int v) {
  std::string t = std::to_string(v);
  if (v > 0) t.insert(t.begin(), '+');
  return t;
}

void add_modifier(std::vector<Modifier>& mods, int& total, std::string what, int value, std::string rule) {
  if (value == 0) return;
  total += value;
  mods.push_back(Modifier{std::move(what), value, std::move(rule)});
}

std::string modifiers_text(const std::vector<Modifier>& mods) {
  std::string out;
  for (const Modifier& m : mods)
    out += (out.empty() ? "" : ", ") + signed_text(m.value) + " " + m.what + " (" + m.rule + ")";
  return out.empty() ? "none" : out;
}

namespace {

// The charts (A7.3 IFT, A7.308 Kill Numbers, C.6 column calibers, C3 Infantry and Area rows)
// are in table_data() (asl_tables.cpp).

int column_index(int column) {
  const auto& columns = table_data().ift_columns;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return static_cast<int>(i);
  throw std::logic_error("IFT: no column " + std::to_string(column));
}

// FP of an ordnance hit vs Personnel (C.6 HE columns; C8.31 HE equivalency).
int ordnance_fp(const Firer& f, Ammo ammo) {
  return ammo == Ammo::kHE ? he_fp(f.gun.caliber_mm) : he_equivalent_fp(f.gun, ammo);
}

// B13.3 Air Bursts: ordnance HE that hits a unit in woods, not in an entrenchment or pillbox, has
// -1 instead of the woods TEM on its Effects DR (salvo's reading: on the Area and the Infantry
// Target Types, normal hits and CH alike, mortars included; not AP HE equivalency, not MG/IFE).
bool air_burst(const Situation& s, Ammo ammo) {
  const Target& t = s.target;
  return s.firer.weapon == Weapon::kGun && ammo == Ammo::kHE && t.type != TargetType::kVehicle &&
         t.terrain == Terrain::kWoods && !t.entrenched;
}

// MG/IFE fire and Canister: the FP after every halving and multiplication, the column, the IFT
// DRM.
void build_direct(const Situation& s, const ShotContext& ctx, ShotSpec& spec, ShotExplain& e) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  IftSpec& ift = spec.ift;
  ift.direct = true;
  ift.effects = t.type == TargetType::kVehicle ? Effects::kVehicleLine : Effects::kPersonnel;
  // No To Hit DR: the IFT DR is the attack (D3.5, C2.29).
  spec.drm = 0;
  spec.modified_th = 0;
  spec.multiple_hits = false;  // C3.8: never MG or IFE
  e.direct_ift = true;
  e.basic_th = e.modified_th = e.total_drm = 0;
  e.th_mods.clear();
  e.drm.clear();

  const bool ife = f.weapon == Weapon::kIfe;
  double fp = f.fp;
  std::string fp_steps = std::string(ife ? "IFE " : "MG ") + std::to_string(f.fp) + " FP";
  auto scale = [&](double by, const std::string& why) {
    fp *= by;
    fp_steps += (by < 1 ? ", halved: " : by == 2 ? ", doubled: " : ", tripled: ") + why;
  };
  if (f.weapon == Weapon::kCanister) {
    // C8.4: the FP of the Gun's size; halved as Area Fire for Bounding (First) Fire, Motion,
    // Intensive Fire or a "?" target (quartered when two apply); C8.41: the adjacent hex is
    // attacked as Area Fire, with no doubling for Point Blank Fire.
    fp = canister_fp(f.gun.caliber_mm);
    fp_steps = "Canister, " + std::to_string(f.gun.caliber_mm) + "mm: " + fp_text(fp) + " FP (C8.4)";
    if (fire.range == 1) scale(0.5, "Area Fire in the adjacent hex, no Point Blank Fire (C8.41)");
    if (fire.phase == Phase::kBounding) scale(0.5, "Bounding (First) Fire (C8.4)");
    if (fire.motion) scale(0.5, "Motion Fire (C8.4)");
    if (ctx.intensive) scale(0.5, "Intensive Fire (C8.4)");
    if (t.concealed) scale(0.5, "concealed target (C8.4)");
  } else {
    const int normal_range = ife ? 16 : f.normal_range.value_or(0);
    if (normal_range > 0 && fire.range > normal_range)
      scale(0.5, ife ? "IFE beyond 16 hexes (C2.29)" : "Long Range Fire (A7.22)");
    if (fire.same_hex)
      scale(3, "Triple Point Blank Fire (A7.212)");
    else if (fire.range == 1)
      scale(2, "Point Blank Fire (A7.21)");
    if (fire.phase == Phase::kAdvancing && !fire.opportunity) scale(0.5, "Advancing Fire Phase (D3.53)");
    if (fire.phase == Phase::kBounding) scale(0.5, "Bounding (First) Fire (D3.31, D3.52)");
    if (fire.motion) scale(0.5, "Motion Fire (D2.42)");
    if (fire.pinned) scale(0.5, "pinned firer (A7.8)");
    if (t.concealed) scale(0.5, "concealed target (A12.14)");
  }
  const int column = ift_column(fp);
  if (column == 0)
    throw RulesError("firer.fp", "FP " + fp_text(fp) + " after halving is below 1: no IFT column (A7.3)");
  ift.normal.column = column;
  e.effects.push_back(fp_steps + " = " + fp_text(fp) + " FP: " + std::to_string(column) + " FP column (A7.3)");

  std::vector<Modifier> mods;
  int drm = 0;
  // D3.52: "a DRM to its IFT DR equal to the pertinent To Hit DRM of Case A" (counted and doubled
  // as for a To Hit DR); C5.12 the CA-changing shot only, C5.13 never Bounding First Fire.
  if (ctx.shots_fired == 0 && !ctx.later_turn && fire.phase != Phase::kBounding)
    for (const Modifier& m : case_a_modifiers(s))
      add_modifier(mods, drm, "as an IFT DRM, " + m.what, m.value, m.rule + ", D3.52");
  add_modifier(mods, drm, "TEM", t.tem, "A7.3");
  add_modifier(mods, drm, "hindrance", t.hindrance, "A6.7");
  if (t.ffnam) add_modifier(mods, drm, "FFNAM", -1, "A4.6");
  if (t.ffmo) add_modifier(mods, drm, "FFMO", -1, "A4.6");
  add_modifier(mods, drm, leader_name(f), leader_drm(f), leader_rule(f));
  add_modifier(mods, drm, "other DRM", fire.extra_drm, "[extra_drm]");
  ift.normal.drm = drm;
  e.effects.push_back("IFT DRM " + signed_text(drm) + ": " + modifiers_text(mods));
  if (ift.effects == Effects::kVehicleLine)
    e.effects.push_back("Vehicle line: Kill Number " + std::to_string(vehicle_line_kill_number(column)) +
                        "; an Original 2 adds the Unlikely Kill dr (A7.308, A7.309)");
  e.effects.push_back(
      std::string("malfunction on an Original IFT DR >= B# (D3.7)") + (ife ? "; IFE ROF -1 (C2.29)" : "") +
      (f.weapon == Weapon::kCanister ? "; the IFT DR is also the Canister depletion and ROF check (C8.4, C8.9)" : ""));
}

}  // namespace

int canister_fp(int caliber_mm) {  // C8.4, from the chart data
  for (const auto& [size, fp] : table_data().canister_fp)
    if (size == caliber_mm) return fp;
  return 0;
}

int ift_column(double fp) {
  int col = 0;
  for (int c : table_data().ift_columns)
    if (c <= fp) col = c;
  return col;
}

Outcome ift_personnel(int column, int final_dr) {
  const auto& ift = table_data().ift;
  const int row = std::clamp(final_dr, 0, static_cast<int>(ift.size()) - 1);
  return ift[static_cast<std::size_t>(row)][static_cast<std::size_t>(column_index(column))];
}

int vehicle_line_kill_number(int column) {
  return table_data().vehicle_kill_number[static_cast<std::size_t>(column_index(column))];
}

Outcome vehicle_line(int column, int final_dr) {
  const int k = vehicle_line_kill_number(column);
  if (final_dr < k) return 2 * final_dr <= k ? kOutcomeBurn : kOutcomeEliminated;  // A7.308
  return final_dr == k ? kOutcomeImmobilized : kOutcomeNoEffect;
}

Outcome unlikely_kill(int dr, bool hull_down) {
  // A7.309: the result of the dr; a hull-down vehicle is not immobilized.
  const auto& by_dr = table_data().unlikely_kill;
  if (dr < 1 || dr > static_cast<int>(by_dr.size())) return kOutcomeNoEffect;
  const Outcome o = by_dr[static_cast<std::size_t>(dr - 1)];
  return hull_down && o == kOutcomeImmobilized ? kOutcomeNoEffect : o;
}

int he_fp(int caliber_mm) {
  const TableData& t = table_data();
  int fp = 0;
  for (std::size_t i = 0; i < t.ift_columns.size(); ++i)
    if (t.ift_column_caliber[i] <= caliber_mm) fp = t.ift_columns[i];  // C.6
  return fp;
}

int he_equivalent_fp(const Gun& gun, Ammo ammo) {
  if (ammo == Ammo::kAP || ammo == Ammo::kAPCR || ammo == Ammo::kAPDS) return gun.caliber_mm < 37 ? 1 : 2;  // C8.31
  return 0;
}

int heavy_payload_drm(int fp) { return fp > 36 ? -((fp - 36) / 8) : 0; }  // C.7

int basic_th_infantry(bool red, int range) {
  const auto col = static_cast<std::size_t>(th_range_column(range));
  return red ? table_data().th_infantry_red[col] : table_data().th_infantry_black[col];
}

int basic_th_area(int range) { return table_data().th_area[static_cast<std::size_t>(th_range_column(range))]; }

int basic_th(TargetType type, bool red, int range) {
  switch (type) {
    case TargetType::kInfantry:
      return basic_th_infantry(red, range);
    case TargetType::kArea:
      return basic_th_area(range);  // C3.3 EXC: red only, all nationalities
    case TargetType::kVehicle:
      break;
  }
  return basic_th_vehicle(red, range);
}

Outcome ift_effect(const IftSpec& ift, bool critical, int original_dr) {
  // C8.52: SMOKE is placed in the hex hit; A24.31: WP makes every unit in it take an NMC.
  if (ift.placement == Weapon::kSmoke) return kOutcomeNoEffect;
  if (ift.placement == Weapon::kWp) return kOutcomeNmc;
  const IftAttack& a = critical ? ift.critical : ift.normal;
  const int final_dr = original_dr + a.drm;
  if (ift.gun) {
    // C11.4, C11.6 Gun Destruction Table: a CH, or a KIA on the Final DR before the gunshield,
    // eliminates the Gun and its crew; a K malfunctions the Gun and its crew suffers Casualty
    // Reduction (AP: eliminated, C11.52). Otherwise a Near Miss: the gunshield DRM applies to
    // the crew's result.
    if (critical) return kOutcomeEliminated;
    const Outcome direct = ift_personnel(a.column, final_dr);
    if (direct >= kOutcome1Kia || (ift.ap && direct >= kOutcomeK1)) return kOutcomeEliminated;
    if (direct >= kOutcomeK1) return direct;
    return ift_personnel(a.column, final_dr + ift.gunshield);
  }
  return ift.effects == Effects::kVehicleLine ? vehicle_line(a.column, final_dr) : ift_personnel(a.column, final_dr);
}

std::uint32_t ift_outcome_flags(Outcome o) {
  if (o < kOutcomePtc) return 0;
  std::uint32_t f = 1u << kFlagPtcOrWorse;
  if (o >= kOutcomeNmc) f |= 1u << kFlagMcOrWorse;
  if (o >= kOutcomeK1) f |= 1u << kFlagCasualty;
  if (o >= kOutcome1Kia) f |= 1u << kFlagKia;
  return f;
}

bool destroys_target(Outcome o) { return o == kOutcomeBurn || o == kOutcomeEliminated || o >= kOutcome1Kia; }

bool unmans_gun(const Target& t, Outcome o) { return t.gun && o >= kOutcomeK1 && o <= kOutcomeK4; }

bool build_ift_effects(const Situation& s, const ShotContext& ctx, ShotSpec& spec, ShotExplain& e) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  spec.ift.target = t.type;
  spec.ift.hull_down = t.hull_down;
  if (direct_ift(f)) {
    build_direct(s, ctx, spec, e);
    return true;
  }
  if (places_smoke(f)) {  // C8.5, C8.6: the Area Target Type; a hit places it
    spec.ift.effects = Effects::kPersonnel;
    spec.ift.placement = f.weapon;
    e.effects.push_back(
        f.weapon == Weapon::kSmoke
            ? "a hit places SMOKE in the target hex (C8.52); no attack"
            : "a hit places WP in the target hex: every unit in it takes an NMC (A24.31), not rolled here");
    for (std::size_t i = 0; i < spec.kill.size(); ++i) spec.kill[i] = KillSpec{true, false, 0, (i & 1) != 0};
    return true;
  }
  if (t.type == TargetType::kVehicle) return false;

  // Ordnance hit vs Personnel (C.6, C3.32-.331, C3.71, C.7, C8.31).
  IftSpec& ift = spec.ift;
  ift.effects = Effects::kPersonnel;
  const int fp = ordnance_fp(f, spec.ammo);
  if (fp == 0)
    throw RulesError("firer.ammo", "no IFT FP for " + f.gun.designation + (spec.ammo == Ammo::kHEAT ? " HEAT" : " HE") +
                                       " vs Personnel (C.6, C8.31)");
  const std::string source = spec.ammo == Ammo::kHE
                                 ? "HE " + std::to_string(f.gun.caliber_mm) + "mm: " + std::to_string(fp) + " FP (C.6)"
                                 : "AP-type HE equivalency: " + std::to_string(fp) + " FP (C8.31)";
  const bool burst = air_burst(s, spec.ammo);
  if (t.gun) {
    // C11.4-.52: a hit on a Gun; its crew behind a gunshield (C11.5), which on the Area Target
    // Type is not added to a positive TEM (salvo's reading: the TEM is kept, it shields the Gun too).
    ift.gun = true;
    ift.ap = spec.ammo == Ammo::kAP || spec.ammo == Ammo::kAPCR || spec.ammo == Ammo::kAPDS;
    ift.gunshield = t.gunshield && (t.type == TargetType::kInfantry || target_tem(t) <= 0) ? 2 : 0;
    e.effects.push_back(
        std::string("Gun (C11.4, C11.6): a CH, or a KIA on the Final DR before the gunshield, eliminates Gun and crew; "
                    "a K malfunctions the Gun, its crew suffers Casualty Reduction") +
        (ift.ap ? " (AP-type: eliminated, C11.52)" : "") + "; else a Near Miss on the crew" +
        (ift.gunshield ? ", +2 gunshield (C11.5)" : ""));
  }
  if (t.type == TargetType::kInfantry) {
    // C.3: TEM and hindrance were paid on the To Hit DR; B13.3 Air Burst -1 on the Effects DR.
    ift.normal = IftAttack{ift_column(fp), burst ? -1 : 0};
    e.effects.push_back("hit: " + source + ", " + std::to_string(ift.normal.column) + " FP column, Effects DRM " +
                        (burst ? "-1 Air Burst (B13.3; the woods TEM was paid on the To Hit DR, C6.8)"
                               : "0 (TEM and hindrance were paid on the To Hit DR, C.3)"));
  } else {
    const double half = fp / 2.0;
    const int column = ift_column(half);
    // C3.33 half FP; C3.331 TEM on the Effects DR, B13.3 Air Burst -1 instead of the woods TEM.
    ift.normal = IftAttack{column, burst ? -1 : target_tem(t)};
    if (column == 0)  // below the 1 FP column: a normal hit attacks nothing; a CH still does (C3.71)
      e.effects.push_back("hit: " + source + ", halved to " + fp_text(half) +
                          " FP (C3.33): below the 1 FP column, no effect (A7.3)");
    else
      e.effects.push_back(
          "hit: " + source + ", halved to " + fp_text(half) + " FP (C3.33): " + std::to_string(column) +
          " FP column, Effects DRM " +
          (burst ? "-1 Air Burst instead of the woods TEM (B13.3)" : signed_text(target_tem(t)) + " TEM (C3.331)"));
  }
  // C3.71: full FP doubled (no prior halving), positive TEM reversed; FFMO/FFNAM still apply.
  const int crit_fp = 2 * fp;
  std::vector<Modifier> mods;
  int drm = 0;
  add_modifier(mods, drm, "Heavy Payload", heavy_payload_drm(crit_fp), "C.7");
  if (burst)
    add_modifier(mods, drm, "Air Burst instead of the woods TEM", -1, "B13.3, C3.71");
  else
    add_modifier(mods, drm, target_tem(t) > 0 ? "TEM reversed" : "negative TEM",
                 target_tem(t) > 0 ? -target_tem(t) : target_tem(t), "C3.71");
  if (t.ffnam) add_modifier(mods, drm, "FFNAM", -1, "C3.71");
  if (t.ffmo) add_modifier(mods, drm, "FFMO", -1, "C3.71");
  ift.critical = IftAttack{ift_column(std::min(crit_fp, 36)), drm};
  e.effects.push_back("Critical Hit: " + std::to_string(fp) + " FP doubled = " + std::to_string(crit_fp) +
                      " FP (C3.71): " + std::to_string(ift.critical.column) + " FP column, Effects DRM " +
                      signed_text(drm) + ": " + modifiers_text(mods));
  for (std::size_t i = 0; i < spec.kill.size(); ++i) {
    const bool critical = (i & 1) != 0;                                              // kill_index: the critical bit
    spec.kill[i] = KillSpec{critical || ift.normal.column > 0, false, 0, critical};  // no column: no Effects DR
  }
  return true;
}

int ift_rof(const Situation& s, int rof) {
  if (!direct_ift(s.firer) && s.target.type == TargetType::kArea && !s.firer.mortar) return 0;  // C3.33 (non-mortar)
  if (s.firer.weapon == Weapon::kIfe) return std::max(0, rof - 1);                              // C2.29
  return rof;
}

bool infantry_needs_subsequent_dr(const ShotSpec& spec, int c, int w) {
  if (c + w != 2) return false;
  const int lowest = lowest_final_th_dr(spec);
  // C3.6 Improbable Hit, or an Original 2 hit that is not already a CH by its Final DR (C3.7).
  return lowest > spec.modified_th || 2 * lowest >= spec.modified_th;
}

Hit to_hit_infantry(const ShotSpec& spec, int c, int w, int sub) {
  Hit h;
  h.facing = spec.facing;
  const int m = spec.modified_th;
  const bool original_2 = c + w == 2;
  if (lowest_final_th_dr(spec) > m) {
    // C3.6: Original 2 and a subsequent dr of 1 (CH), 2 or 3 (normal hits vs non-vehicular targets).
    if (!original_2) return h;
    h.improbable = true;
    h.hit = sub >= 1 && sub <= 3;
    h.critical = sub == 1;
    return h;
  }
  const int final_dr = final_th_dr(spec, c, w);
  if (final_dr > m) return h;  // C3.3: miss
  h.hit = true;
  h.location = c < w ? Location::kTurret : Location::kHull;
  if (2 * final_dr < m)
    h.critical = true;  // C3.7: Final < half the Modified TH#
  else if (original_2)
    h.critical = sub == 1 || 2 * sub <= m;                   // C3.7: subsequent dr 1 or <= half
  h.multiple = !h.critical && spec.multiple_hits && c == w;  // C3.8
  return h;
}

bool direct_needs_subsequent_dr(const ShotSpec& spec, int c, int w) {
  return spec.ift.direct && spec.ift.effects == Effects::kVehicleLine && c + w == 2;  // A7.309
}

Outcome direct_ift(const ShotSpec& spec, int c, int w, int sub) {
  const Outcome o = ift_effect(spec.ift, false, c + w);
  if (!direct_needs_subsequent_dr(spec, c, w)) return o;
  return std::max(o, unlikely_kill(sub, spec.ift.hull_down));  // A7.309: a better result stands
}

std::optional<RulesError> check_ift(const Situation& s) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  constexpr auto err = refusal;
  if ((t.emplaced || t.gunshield) && !t.gun)
    return err(t.emplaced ? "target.emplaced" : "target.gunshield",
               "is for a Gun as the target: set target.gun = true (C11)");
  if (t.gun) {  // C11
    if (t.type == TargetType::kVehicle)
      return err("target.type",
                 "a Gun is fired on with the Infantry or the Area Target Type (C11.2), not the Vehicle Target Type "
                 "(C3.31): \"infantry\" or \"area\"");
    if (f.weapon != Weapon::kGun)
      return err("target.gun",
                 "MG, IFE and Canister destroy a Gun only by Random SW/Gun Destruction (A9.74, C11.6): "
                 "not modelled");
    if (t.terrain != Terrain::kOpen)
      return err("target.terrain",
                 "a Gun in woods (the Air Burst against its crew and the Gun, B13.3) is not modelled: set the woods' "
                 "TEM with target.tem and leave target.terrain out");
    if (t.ffnam || t.ffmo) return err(t.ffnam ? "target.ffnam" : "target.ffmo", "a Gun's crew does not move (C11)");
  }
  if (t.ffnam || t.ffmo) {
    const char* key = t.ffnam ? "target.ffnam" : "target.ffmo";
    if (t.type == TargetType::kVehicle) return err(key, "FFNAM and FFMO apply to Infantry targets (C6.13, C6.14)");
    if (fire.phase != Phase::kDefensive)
      return err(key, "FFNAM and FFMO apply only to Defensive First Fire (C6.13, C6.14)");
    if (t.ffnam && t.moving) return err("target.moving", "Case J does not apply with FFNAM (C6.13)");
    if (t.ffmo && t.tem > 0)
      return err("target.ffmo",
                 "FFMO is for a target moving in Open Ground (C6.14): it has no positive TEM, got target.tem = " +
                     std::to_string(t.tem));
  }
  if (t.type != TargetType::kVehicle && t.hull_down)
    return err("target.hull_down", "only a vehicle can be hull down (D4.2)");
  if (t.entrenched && t.terrain != Terrain::kWoods)
    return err(
        "target.entrenched",
        "matters only in woods, where it cancels the Air Burst (B13.3): set target.terrain = \"woods\" or remove it");
  if (t.terrain != Terrain::kOpen && t.type == TargetType::kVehicle)
    return err("target.terrain",
               "only Infantry and Area targets use the target's terrain here (B13.3 Air Bursts); a vehicle's TEM is "
               "target.tem");
  if (t.terrain == Terrain::kWoods && !t.entrenched && t.tem != 1)
    return err("target.tem",
               "a unit in woods has the woods TEM +1 (B13), got " + std::to_string(t.tem) +
                   ": set target.tem = 1, or target.entrenched = true for an entrenchment's or pillbox's TEM");
  if (f.mortar) {
    // C9.1, C3.33: a mortar fires HE on the Area Target Type only, never closer than its minimum range.
    if (direct_ift(f))
      return err("firer.weapon", "a mortar fires as ordnance (To Hit), not as MG/IFE or Canister: remove firer.weapon");
    if (t.type != TargetType::kArea)
      return err("target.type",
                 "a mortar always uses the Area Target Type (C3.33, C9.1): set target.type = \"area\" (mortar hits vs "
                 "vehicles, C1.55, are not modelled)");
    if (f.ammo != Ammo::kHE && !places_smoke(f))
      return err("firer.ammo",
                 "a mortar fires HE here (C9.1; it has no AP, APCR, APDS or HEAT); for SMOKE or WP set firer.weapon");
    if (!f.min_range)
      return err("firer.min_range", "required for a mortar: the minimum range printed on its counter (C9.1)");
    if (f.max_range && *f.max_range < *f.min_range)
      return err("firer.max_range", "below the minimum range " + std::to_string(*f.min_range));
    if (fire.range < *f.min_range)
      return err("fire.range", "below the mortar's minimum range of " + std::to_string(*f.min_range) +
                                   " hexes (C9.1), got " + std::to_string(fire.range));
    if (f.max_range && fire.range > *f.max_range)
      return err("fire.range", "beyond the mortar's maximum range of " + std::to_string(*f.max_range) +
                                   " hexes (C9.1), got " + std::to_string(fire.range));
    if (light_mortar(f)) {
      if (fire.ca_change != 0 || fire.vca || fire.tca || fire.target_direction || fire.pivot || fire.maintained_ca)
        return err(fire.ca_change != 0     ? "fire.ca_change"
                   : fire.vca              ? "fire.vca"
                   : fire.tca              ? "fire.tca"
                   : fire.target_direction ? "fire.target_direction"
                   : fire.pivot            ? "fire.pivot"
                                           : "fire.maintained_ca",
                   "a light mortar has no Covered Arc and pays no Case A (C9.2): remove it");
      if (fire.intensive_fire)
        return err("fire.intensive_fire", "a light mortar is a SW: only Guns use Intensive Fire (C5.6, C9.2)");
      if (f.vehicle)
        return err("firer.vehicle", "a light mortar is a SW, not a vehicular Gun (C9.2): set firer.vehicle = false");
    }
  } else if (f.min_range || f.max_range) {
    return err(f.min_range ? "firer.min_range" : "firer.max_range",
               "a printed range is for a mortar (firer.mortar = true, C9.1)");
  }
  if (f.weapon == Weapon::kCanister) {
    auto no = [&](const char* key, const char* why) { return err(key, std::string(why)); };
    if (canister_fp(f.gun.caliber_mm) == 0)
      return err("firer.gun", "Canister has an FP for 37, 57, 75 and 105mm Guns only (C8.4), got " + f.gun.designation);
    if (!f.depletion) return no("firer.depletion", "Canister needs its Depletion Number from the counter (C8.4, C8.9)");
    if (f.fp != 0) return no("firer.fp", "Canister's FP comes from the Gun's size (C8.4): remove firer.fp");
    if (f.normal_range) return no("firer.normal_range", "Canister has no Normal Range (C8.4): remove it");
    if (t.type == TargetType::kArea)
      return no("target.type", "Canister attacks \"infantry\" or an unarmored \"vehicle\" on the IFT (C8.4)");
    if (t.type == TargetType::kVehicle && !t.unarmored)
      return no("target.armor", "Canister is ineffective vs armored targets (C8.4): give target.armor = \"unarmored\"");
    if (fire.same_hex || fire.range == 0) return no("fire.range", "Canister has no effect in the firer's hex (C8.41)");
    if (fire.range > 2)
      return err("fire.range",
                 "Canister is fired at the vertex two hexsides away (C8.4), or at the adjacent hex (C8.41): range "
                 "1 or 2, got " +
                     std::to_string(fire.range));
    if (is_special(f.ammo) || f.ammo == Ammo::kHE)
      return no("firer.ammo", "Canister is its own ammunition (firer.weapon = \"canister\"): remove firer.ammo");
    if (fire.acquisition != 0) return no("fire.acquisition", "Canister uses no Acquisition (C6.5)");
    if (fire.pinned)
      return no("fire.pinned", "a pinned firer's Canister is not modelled: C8.4 names no halving for it");
    if (f.armor_leader != 0 || f.inexperienced_crew)
      return no(f.armor_leader != 0 ? "firer.armor_leader" : "firer.inexperienced_crew",
                "an Armor Leader modifies a To Hit DR (D3.44); Canister rolls none (C8.4): not modelled");
    return std::nullopt;
  }
  if (places_smoke(f)) {  // C8.5, C8.6
    const char* key = "firer.weapon";
    if (t.type != TargetType::kArea)
      return err("target.type", "SMOKE and WP are fired on the Area Target Type (C3.33): \"area\"");
    if (!f.depletion)
      return err("firer.depletion", "SMOKE and WP need their Depletion Number from the counter (s#, WP#; C8.9)");
    if (is_special(f.ammo) || f.ammo == Ammo::kHE)
      return err("firer.ammo", "SMOKE or WP is the ammunition here (firer.weapon): remove firer.ammo");
    if (f.fp != 0 || f.normal_range) return err(f.fp != 0 ? "firer.fp" : "firer.normal_range", "not for SMOKE or WP");
    if (t.gun) return err(key, "SMOKE or WP at a Gun: fire it at the Gun's hex (target.gun = false)");
    // C8.5: SMOKE at the start of the PFPh or DFPh; C8.6: WP in any friendly fire phase.
    const bool smoke_phase = fire.phase == Phase::kPrep || fire.phase == Phase::kFinal ||
                             (f.weapon == Weapon::kWp && fire.phase == Phase::kAdvancing);
    if (!smoke_phase)
      return err("fire.phase",
                 f.weapon == Weapon::kSmoke
                     ? "SMOKE is placed at the start of the PFPh or DFPh (C8.5): \"prep\" or \"final\""
                     : "WP is fired in a friendly fire phase (C8.6): \"prep\", \"final\" or \"advancing\"");
  }
  if (f.weapon == Weapon::kMg || f.weapon == Weapon::kIfe) {
    const bool ife = f.weapon == Weapon::kIfe;
    if (f.fp < 1) return err("firer.fp", "MG/IFE fire needs its FP: firer.fp >= 1 (D3.5, C2.29)");
    if (!ife && !f.vehicle)
      return err("firer.weapon",
                 "an MG here is vehicular (D3.5): set firer.vehicle = true (SW MG with Cowering, A9, is not modelled)");
    if (t.type == TargetType::kArea)
      return err(
          "target.type",
          "the Area Target Type is for ordnance (C3.33): MG/IFE fire attacks \"infantry\" or an unarmored \"vehicle\"");
    if (t.type == TargetType::kVehicle && !t.unarmored)
      return err("target.armor",
                 "MG/IFE fire vs an armored vehicle is a To Kill attack (A9.61, D3.54), not modelled: give "
                 "target.armor = \"unarmored\" for the IFT Vehicle line (A7.308)");
    if (fire.intensive_fire)
      return err("fire.intensive_fire",
                 "only Guns use Intensive Fire (C5.6); IFE uses Sustained Fire penalties (C2.29)");
    if (is_special(f.ammo)) return err("firer.ammo", "MG/IFE fire uses no special ammunition (C8.9)");
    if (ife && f.normal_range)
      return err("firer.normal_range", "IFE has a Normal Range of 16 hexes (C2.29): remove firer.normal_range");
    if (!ife && !f.normal_range)
      return err("firer.normal_range",
                 "required for MG fire: the MG's Normal Range (Long Range Fire halves its FP beyond it and it reaches "
                 "twice as far, A7.22)");
    if (!ife && f.inexperienced_crew)
      return err("firer.inexperienced_crew",
                 "an Inexperienced Crew's +1 applies where an Armor Leader's would (D3.45), and an Armor Leader cannot "
                 "modify a vehicular MG attack unless the MG is the MA (D3.44): remove it");
    if (!ife && f.armor_leader != 0)
      return err("firer.armor_leader",
                 "an Armor Leader cannot modify a vehicular MG attack unless the MG is the MA (D3.44); an MG MA is not "
                 "modelled");
    if (ife && fire.range > 32)
      return err("fire.range",
                 "IFE reaches 32 hexes, twice its Normal Range of 16 (C2.29), got " + std::to_string(fire.range));
    if (!ife && f.normal_range && fire.range > 2 * *f.normal_range)
      return err("fire.range", "beyond twice the MG's Normal Range of " + std::to_string(*f.normal_range) +
                                   " (A7.22), got " + std::to_string(fire.range));
    return std::nullopt;
  }
  if (f.normal_range) return err("firer.normal_range", "a Normal Range is for MG fire (firer.weapon = \"mg\") (A7.22)");
  if (f.fp != 0)
    return err("firer.fp",
               "FP is for MG/IFE fire (firer.weapon = \"mg\" or \"ife\"); ordnance HE uses its caliber column (C.6)");
  if (t.type == TargetType::kVehicle) return std::nullopt;
  const bool area = t.type == TargetType::kArea;
  for (const Ammo a : {f.ammo, is_special(f.ammo) ? f.fallback_ammo : f.ammo}) {
    if (places_smoke(f)) break;  // SMOKE or WP, whatever firer.ammo says (refused above if set)
    if (a == Ammo::kHEAT)
      return err("firer.ammo", "HEAT vs Personnel (C8.31) is not modelled: fire HE, or AP with its HE equivalency");
    if (area && a != Ammo::kHE && a != Ammo::kNone) return err("firer.ammo", "the Area Target Type fires HE (C3.33)");
  }
  if (f.ammo == Ammo::kHE && he_fp(f.gun.caliber_mm) == 0)
    return err("firer.gun", "a Gun below 20mm has no HE column on the IFT (C.6)");
  if (area && fire.same_hex) return err("fire.same_hex", "the Area Target Type is not allowed at range 0 (C3.33)");
  if (area && fire.phase == Phase::kBounding)
    return err("fire.phase", "the Area Target Type is not allowed as Bounding First Fire or Motion Fire (C3.33)");
  if (area && fire.motion)
    return err("fire.motion", "the Area Target Type is not allowed as Bounding First Fire or Motion Fire (C3.33)");
  return std::nullopt;
}

void name_program(RollProgram& p, const Situation& s) {
  const bool direct = direct_ift(s.firer);
  const bool personnel = s.target.type != TargetType::kVehicle;
  // The flags, outcomes and counters this situation cannot produce, as bit masks by index
  const auto bits = [](std::initializer_list<int> indices) {
    std::uint64_t m = 0;
    for (const int i : indices) m |= std::uint64_t{1} << i;
    return m;
  };
  const std::uint64_t ift_flags = bits({kFlagPtcOrWorse, kFlagMcOrWorse, kFlagCasualty, kFlagKia});
  const std::uint64_t tk_flags =
      bits({kFlagKill, kFlagBurn, kFlagEliminated, kFlagImmobilized, kFlagShock, kFlagPossibleShock, kFlagDud});
  const std::uint64_t tk_outcomes =
      bits({kOutcomeDud, kOutcomePossibleShock, kOutcomeImmobilized, kOutcomeShock, kOutcomeEliminated, kOutcomeBurn});
  std::uint64_t ift_outcomes = 0;
  for (int o = kOutcomePtc; o <= kOutcome7Kia; ++o) ift_outcomes |= std::uint64_t{1} << o;
  std::uint64_t drop_flags = personnel ? tk_flags : ift_flags;
  std::uint64_t drop_outcomes = personnel ? tk_outcomes : ift_outcomes;
  if (s.target.gun) {  // C11.6: the Gun and its crew eliminated
    drop_flags &= ~bits({kFlagKill, kFlagEliminated});
    drop_outcomes &= ~bits({kOutcomeEliminated});
  }
  std::uint64_t drop_counters = 0;
  if (direct) {  // no To Hit DR: no hits, criticals or misses; no ammunition to deplete but Canister's
    drop_flags |= bits({kFlagHit, kFlagCritical, kFlagMultipleHit});
    if (s.firer.weapon != Weapon::kCanister) drop_flags |= bits({kFlagDepleted});
    drop_outcomes |= bits({kOutcomeMiss});
    drop_counters |= bits({kCounterHits});
    if (!personnel) {  // the Vehicle line neither shocks nor duds (A7.308)
      drop_flags |= bits({kFlagShock, kFlagPossibleShock, kFlagDud});
      drop_outcomes |= bits({kOutcomeDud, kOutcomePossibleShock, kOutcomeShock});
    }
  }
  // What a LATW cannot produce (C3.8: no Multiple Hits; C8.3: no ammunition to run short of), and
  // what only a Panzerfaust can (C13.31, C13.36).
  const bool pf = is_panzerfaust(s.firer);
  if (is_latw(s.firer)) drop_flags |= bits({kFlagMultipleHit, kFlagLowAmmo, kFlagDepleted});
  if (pf) drop_flags |= bits({kFlagMalfunction, kFlagDisabled});
  drop_flags |= bits({kFlagFirerCasualty});
  drop_flags |= bits({kFlagFirerPinned, kFlagFirerBroken});
  if (pf) drop_flags &= ~bits({kFlagFirerCasualty, s.fire.pinned ? kFlagFirerBroken : kFlagFirerPinned});
  std::uint64_t drop_ends = 0;  // a one-phase program's end reasons
  if (!s.fire.follow_up) drop_ends |= bits({kEndFollowUpDone});
  if (!pf) drop_ends |= bits({kEndPfCheckFailed});
  if (is_latw(s.firer)) drop_ends |= bits({kEndIntensiveFireDone, kEndOutOfAmmo});
  if (s.fire.turns > 1) drop_outcomes = drop_ends = 0;  // a duel's outcomes are the target's status
  // A LATW duel never runs out of ammunition (C8.3).
  if (s.fire.turns > 1 && is_latw(s.firer)) drop_ends = std::uint64_t{1} << duel::end_out_of_ammo(s.fire.turns);
  // Old index -> new index (-1: dropped), keeping the order of the rest.
  auto remap = [](std::vector<std::string>& names, std::uint64_t drop) {
    std::vector<int> map(names.size(), -1);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i < 64 && (drop >> i & 1u)) continue;
      map[i] = static_cast<int>(kept);
      if (kept != i) names[kept] = std::move(names[i]);
      ++kept;
    }
    names.resize(kept);
    return map;
  };
  static_assert(kNumOutcomes <= 64 && kNumCounters <= 64 && kNumFlags <= 64 && kNumEndReasons <= 64);
  const std::vector<int> fmap = remap(p.flag_names, drop_flags);
  const std::vector<int> omap = remap(p.outcome_names, drop_outcomes);
  const std::vector<int> cmap = remap(p.counter_names, drop_counters);
  const std::vector<int> emap = remap(p.end_reason_names, drop_ends);
  for (auto& series : p.turn_series)  // per-turn flags are never dropped; they move up
    if (series.kind == RollProgram::TurnSeries::Kind::kFlag)
      series.first = static_cast<std::uint32_t>(fmap.at(series.first));
  for (Leaf& l : p.leaves) {
    FlagMask flags = 0;
    for (std::size_t i = 0; i < fmap.size(); ++i) {
      if (!(l.flags & (FlagMask{1} << i))) continue;
      if (fmap[i] < 0)
        throw std::logic_error("name_program: a leaf sets the dropped flag " +
                               std::string(flag_name(static_cast<int>(i))));
      flags |= FlagMask{1} << fmap[static_cast<std::size_t>(i)];
    }
    l.flags = flags;
    if (omap.at(l.outcome) < 0)
      throw std::logic_error("name_program: a leaf has the dropped outcome " + std::string(outcome_name(l.outcome)));
    l.outcome = static_cast<std::uint8_t>(omap[l.outcome]);
    if (l.next_state < 0) {  // a leaf that ends the run names why
      if (emap.at(l.end_reason) < 0)
        throw std::logic_error("name_program: a leaf ends for the dropped reason " +
                               std::string(end_reason_name(l.end_reason)));
      l.end_reason = static_cast<std::uint8_t>(emap[l.end_reason]);
    }
    std::array<std::uint8_t, kMaxCounters> counts{};
    for (std::size_t i = 0; i < cmap.size(); ++i) {
      if (l.counts[i] == 0) continue;
      if (cmap[i] < 0)
        throw std::logic_error("name_program: a leaf counts the dropped counter " +
                               std::string(counter_name(static_cast<int>(i))));
      counts[static_cast<std::size_t>(cmap[i])] = l.counts[i];
    }
    l.counts = counts;
  }
}

void ift_notes(const Situation& s, std::vector<std::string>& notes) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  if ((f.weapon == Weapon::kGun || is_latw(f)) && t.type == TargetType::kVehicle) return;
  if (places_smoke(f)) {
    notes.push_back(
        std::string(f.weapon == Weapon::kSmoke ? "SMOKE" : "WP") +
        ": p_hit is the chance it is placed in the target hex (C8.52); an Original DR > the Depletion Number is no " +
        (f.weapon == Weapon::kSmoke ? "SMOKE" : "WP") +
        " at all (C8.9), and the Gun then fires nothing else here; SMOKE acquires nothing, an existing Acquisition "
        "is used (C6.56); Case K applies (target.concealed) only if the hex holds enemy units none of which are "
        "Known (C6.2)");
    if (f.weapon == Weapon::kWp)
      notes.push_back(
          "WP: every unit in the hex takes an NMC (outcome nmc), which salvo does not roll: leadership and TEM are "
          "negative DRM on it, positive after a CH (A24.31); full strength only in the PFPh, Dispersed otherwise "
          "(C8.6)");
    else
      notes.push_back(
          "SMOKE: full strength only at the start of the PFPh before other fire, Dispersed otherwise (C8.51)");
    return;
  }
  if (t.type != TargetType::kVehicle) {
    notes.push_back(
        "IFT results are reported as categories (ptc, nmc, 1mc..4mc, k_1..k_4 = K/#, 1kia..7kia); no Morale Check is "
        "rolled (A7.3)");
    notes.push_back(
        "a #KIA result ends the phase as target_destroyed: at least # units eliminated, all others broken (A7.301)");
  }
  if (t.gun)
    notes.push_back(
        "a Gun (C11): p_eliminated is the Gun and its crew eliminated (a CH, or a KIA on the Final DR before the "
        "gunshield, C11.4); an outcome k_# is the Gun malfunctioned and its crew's Casualty Reduction; the other "
        "outcomes and the ptc/mc/casualty/kia flags are the crew's; reading: on the Area Target Type a positive TEM "
        "(or Emplacement) is kept and the gunshield is then not added (C11.5: one or the other)");
  if (f.weapon == Weapon::kGun) {
    if (t.type == TargetType::kInfantry)
      notes.push_back(
          "Infantry Target Type: CH when the Final TH DR < half the Modified TH#, or an Original 2 with a subsequent "
          "dr of 1 or <= half the Modified TH# (C3.7); the Improbable Hit dr 1 is a CH, 2-3 a normal hit (C3.6)");
    else if (f.mortar)
      notes.push_back(
          "mortar (C9.1): Area Target Type, red Basic TH# for every nationality; Cases C1-C4, E, G, L and TEM not on "
          "the To Hit DR; it keeps its Multiple ROF (C3.33); Area Acquisition builds shot by shot (C6.5, C6.521)");
    else
      notes.push_back(
          "Area Target Type: red Basic TH# for every nationality; Cases C1-C4, E, G, L and TEM not on the To Hit DR; "
          "all ROF used (C3.3, C3.33, C3.331)");
    if (light_mortar(f))
      notes.push_back(
          "reading: a light mortar is one of <= 60mm (C9.2): no Covered Arc and no Case A; a lone SMC's loss of "
          "Multiple ROF (C9.2) and spotted fire (C9.31) are not modelled");
    else if (f.mortar && f.gun.caliber_mm >= 76 && f.gun.caliber_mm <= 82)
      notes.push_back("a 76-82mm mortar keeps its full ROF when it changes CA (C2.5 EXC)");
    if (air_burst(s, f.ammo))
      notes.push_back(
          "reading: Air Burst (B13.3): HE hits on a unit in woods, not entrenched, have -1 instead of the woods TEM on "
          "the Effects DR, on both the Area and the Infantry Target Type, CH included (C3.71); on the Infantry Target "
          "Type the woods TEM +1 stays on the To Hit DR (C6.8)");
    notes.push_back("multiple hits (C3.8): the firer keeps the better IFT result (the lower Effects DR)");
    return;
  }
  if (f.weapon == Weapon::kCanister) {
    notes.push_back("no Cowering for Canister (A7.9)");
    notes.push_back(
        "readings for Canister (C8.4): the target is in the three hexes of the vertex two hexsides away (range 2), "
        "or in the adjacent hex as Area Fire (range 1, C8.41); the 57mm's 16 FP is from the chapter's chart (the "
        "rule's table lists 37, 75 and 105mm); once Canister runs out (an Original IFT DR >= its Depletion Number, "
        "C8.9) "
        "the Gun fires nothing else in this situation; Advancing Fire halves it only as Bounding Fire");
  } else {
    notes.push_back("no Cowering for vehicular fire or IFE (A7.9)");
  }
  notes.push_back(
      "FP halvings are cumulative and fractions are kept; the column is the rightmost not above the FP (A7.3)");
}

}  // namespace salvo::asl
