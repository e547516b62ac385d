// One ASL ordnance shot: build its specification from a situation, then resolve it from dice.
#include "salvo/rules/asl_shot.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "salvo/rules/asl_arc.h"
#include "salvo/rules/asl_latw.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {
const char* ammo_text(Ammo a) { return name_in(kAmmoNames, a).data(); }  // a literal: NUL-terminated

namespace {

const char* facing_text(Facing f) { return name_in(kFacingNames, f).data(); }

bool in_obstacle(Terrain t) { return t != Terrain::kOpen; }

// C2.5 EXC: a 76-82mm mortar has no Conditional ROF.
bool conditional_rof_exempt(const Firer& f) { return f.mortar && f.gun.caliber_mm >= 76 && f.gun.caliber_mm <= 82; }

// Add a modifier to `total`, and to the explanation `drm` unless it is null.
void add(std::vector<Modifier>* drm, int& total, std::string_view what, int value, std::string_view rule) {
  if (value == 0) return;
  total += value;
  if (drm) drm->push_back(Modifier{std::string(what), value, std::string(rule)});
}

std::string case_c_text(const Firer& f, const ShotContext& ctx, bool bounding) {
  return std::string(ctx.follow_up ? "Case C: AFPh follow-up shot, D3.32 (Case B +2, "
                     : bounding    ? "Case C: Bounding First Fire (Case B +2, "
                                   : "Case C: Motion Fire (Case B +2, ") +
         (f.stabilized                                  ? "stabilized +1"
          : f.gun_type == GunType::kNT || f.bow_mounted ? "NT +3"
                                                        : "T/ST +2") +
         ")";
}

// Multiple-ROF in effect for the shot (C2.24; lost or lowered per C2.5, C5.2, C5.4).
int effective_rof(const Situation& s, const ShotContext& ctx) {
  const Firer& f = s.firer;
  const Fire& fire = s.fire;
  if (ctx.intensive) return 0;                                         // C5.6: never retains ROF
  if (ctx.follow_up) return 0;                                         // D3.32: "again once"
  if (fire.phase == Phase::kAdvancing && !fire.opportunity) return 0;  // C5.2
  if (fire.pinned) return 0;                                           // C5.4
  const int rof = multiple_rof(f);                                     // A21.12-.13
  if (ctx.shots_fired == 0 && !ctx.later_turn && ca_hexspines(s) > 0 && !f.vehicle && f.gun_type == GunType::kNT &&
      !conditional_rof_exempt(f))
    return std::max(0, rof - 1);  // C2.5 Conditional ROF
  return rof;
}

}  // namespace

int crew_penalty(const Firer& f) { return (f.captured ? 1 : 0) + (f.non_qualified ? 1 : 0); }

int multiple_rof(const Firer& f) { return std::max(0, f.rof - crew_penalty(f)); }

bool repairable(const Firer& f) { return !f.captured && (f.vehicle || !f.non_qualified); }

bool conditional_rof_bars_intensive(const Situation& s) {
  const Firer& f = s.firer;
  return !f.vehicle && f.gun_type == GunType::kNT && ca_hexspines(s) > 0 && multiple_rof(f) == 0 &&
         !conditional_rof_exempt(f);
}

Ammo shot_ammo(const Situation& s, const ShotContext& ctx) {
  if (is_latw(s.firer)) return latw_ammo(s.firer);  // C13: HEAT, the ATR's AP; no depletion (C8.3)
  // C8.4-.6, C8.9: once Canister, SMOKE or WP is gone the Gun fires nothing else in this situation.
  if (s.firer.weapon == Weapon::kCanister || places_smoke(s.firer)) return ctx.special_out ? Ammo::kNone : s.firer.ammo;
  return ctx.special_out ? s.firer.fallback_ammo : s.firer.ammo;
}

ShotSpec build_shot(const Situation& s, const ShotContext& ctx, ShotExplain* ex) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  ShotSpec spec;
  ShotExplain local;
  ShotExplain& e = ex ? *ex : local;
  spec.ammo = shot_ammo(s, ctx);
  e.ammo = spec.ammo;
  const bool bounding = fire.phase == Phase::kBounding;

  // --- To Hit number (C3.3, C4; a LATW's own table, C13) ---
  const bool latw = is_latw(f);
  if (latw) {
    e.basic_th = latw_basic_th(f, fire.range);  // no C4 modification: none reaches beyond 12 hexes (C4.1)
  } else {
    bool red = uses_red_th(f.nationality, f.year, f.month, f.vehicle, nullptr);
    if (f.th_color != ThColor::kAuto) red = f.th_color == ThColor::kRed;
    if (crew_penalty(f) > 0) red = true;          // A21.12-.13, C5.8
    if (t.type == TargetType::kArea) red = true;  // C3.3 EXC: the Area row is red only
    e.basic_th = basic_th(t.type, red, fire.range);
    e.th_mods = gun_ammo_modifications(f.gun, spec.ammo, f.nationality, fire.range);
  }
  if (places_smoke(f)) e.ammo_name = f.weapon == Weapon::kSmoke ? "SMOKE" : "WP";
  if (places_smoke(f) && fire.range <= table_data().c4_smoke[1])
    e.th_mods.push_back({"SMOKE at 12 hexes or less", table_data().c4_smoke[0], "C4.4"});
  int mth = e.basic_th;
  for (const Modifier& m : e.th_mods) mth += m.value;
  if (s.override_.modified_th) {
    e.th_mods.push_back({"override of the Modified TH#", *s.override_.modified_th - mth, "[override]"});
    mth = *s.override_.modified_th;
  }
  e.modified_th = spec.modified_th = mth;

  // --- To Hit DRM: firer-based (C5), target-based (C6) ---
  int drm = 0;
  std::vector<Modifier>* const d = ex ? &e.drm : nullptr;  // the explanation, when asked for
  // C5.12: the CA-changing shot only (a later turn's CA already points at the target);
  // C5.13: never Bounding First Fire.
  if (ctx.shots_fired == 0 && !ctx.later_turn && !bounding)
    for (const Modifier& m : case_a_modifiers(s)) add(d, drm, m.what, m.value, m.rule);
  // C5.34 Case C3, a LATW's instead of Case B: +2 in the AFPh, +2 for a backblast (C13.8).
  if (latw && fire.phase == Phase::kAdvancing && !fire.opportunity)
    add(d, drm, "Case C3: LATW in the Advancing Fire Phase", case_drm(ThCase::kC3), "C5.34");
  if (latw && backblast_drm(s))
    add(d, drm, "Case C3: backblast, from ground-level rubble or a building", case_drm(ThCase::kC3Backblast),
        "C5.34, C13.8");
  // C5.2 Case B; a firer with Case C has it already: Case C is Case B's +2 plus the gun type's
  // (C5.3, C5.63 "an inherent part of Case C").
  if (!latw && fire.phase == Phase::kAdvancing && !fire.opportunity && !(bounding || fire.motion))
    add(d, drm,
        in_obstacle(fire.firer_terrain) ? "Case B: Advancing Fire from woods/building/rubble"
                                        : "Case B: Advancing Fire",
        case_drm(in_obstacle(fire.firer_terrain) ? ThCase::kBObstacle : ThCase::kB), "C5.2");
  if (bounding || fire.motion) {
    // A bow-mounted weapon is NT (D3.11, the CA chart's "Bow Guns (VCA)").
    const int gun = case_drm(f.stabilized                                  ? ThCase::kCStabilized
                             : f.gun_type == GunType::kNT || f.bow_mounted ? ThCase::kCNonTurreted
                                                                           : ThCase::kCTurreted);
    add(d, drm, d ? case_c_text(f, ctx, bounding) : std::string(), case_drm(ThCase::kC) + gun, "C5.3");
    if (fire.los_mp && !ctx.follow_up) {  // C1/C2 count the MP of the MPh shot
      // C5.31-.32 count the MP in LOS "at the time of the shot"; in its own MPh a vehicle spends
      // at least one more MP before each further shot (C5.3), so shot k has los_mp + k or more.
      const double mp = *fire.los_mp + (bounding ? ctx.shots_fired : 0);
      if (mp <= 2.0)
        add(d, drm, "Case C2: firer in target's LOS <= 2 MP", case_drm(ThCase::kC2), "C5.32");
      else if (mp <= 3.0)
        add(d, drm, "Case C1: firer in target's LOS 2.5-3 MP", case_drm(ThCase::kC1), "C5.31");
    }
  }
  if (fire.motion && f.weapon == Weapon::kGun) {  // MG/IFE roll no To Hit DR: their FP is halved (D2.42)
    // C5.35 Case C4: a Motion/Non-Stopped firer; gyrostabilized +1, otherwise the lower die of
    // the TH DR counts double.
    if (f.stabilized)
      add(d, drm, "Case C4: Motion Fire, gyrostabilized", case_drm(ThCase::kC4Stabilized), "C5.35");
    else {
      spec.double_lower_die = e.double_lower_die = true;
      if (d) d->push_back({"Case C4: Motion Fire: the lower die of the To Hit DR counts double", 0, "C5.35"});
    }
  }
  if (fire.pinned) add(d, drm, "Case D: pinned firer", case_drm(ThCase::kD), "C5.4");
  if (fire.same_hex && !latw) {  // Case E is NA to SW (the chart's "S")
    const bool twice = in_obstacle(fire.firer_terrain) && !f.bypass && !t.bypass;  // C5.5: not in Bypass
    add(d, drm, twice ? "Case E: same hex, woods/building/rubble (x2)" : "Case E: same hex",
        (twice ? 2 : 1) * case_drm(ThCase::kE), "C5.5");
  }
  if (ctx.intensive) add(d, drm, "Case F: Intensive Fire", case_drm(ThCase::kF), "C5.61");
  if (f.captured) add(d, drm, "Case H: captured weapon", case_drm(ThCase::kH), "C5.8");
  if (f.non_qualified) add(d, drm, "Case H: non-qualified crew", case_drm(ThCase::kH), "C5.8");
  if (fire.buttoned_up) add(d, drm, "Case I: buttoned up", case_drm(ThCase::kI), "C5.9");
  if (t.moving) {
    // C6.17: Defensive First Fire at the same target in the same Location comes once per MF/MP it
    // expends (EX: J2 for the first shot, J1 for the second and third, J for the fourth and
    // fifth), so shot k finds the target at least k MP further along.
    const std::optional<double> mp = t.mp_in_los ? std::optional<double>(*t.mp_in_los + ctx.shots_fired) : std::nullopt;
    if (fire.phase == Phase::kDefensive && mp && *mp <= 1.0)
      add(d, drm, "Case J2: Defensive First Fire, target spent <= 1 MP in LOS", case_drm(ThCase::kJ2), "C6.12");
    else if (fire.phase == Phase::kDefensive && mp && *mp <= 3.0)
      add(d, drm, "Case J1: Defensive First Fire, target spent <= 3 MP in LOS", case_drm(ThCase::kJ1), "C6.11");
    else
      add(d, drm, "Case J: moving target", case_drm(ThCase::kJ), "C6.1");
  }
  if (t.ffnam) add(d, drm, "Case J3: FFNAM", case_drm(ThCase::kJ3), "C6.13");
  if (t.ffmo) add(d, drm, "Case J4: FFMO", case_drm(ThCase::kJ4), "C6.14");
  if (t.concealed && !ctx.revealed) add(d, drm, "Case K: concealed target", case_drm(ThCase::kK), "C6.2");
  const bool area = t.type == TargetType::kArea;  // C3.331: no Case L, no TEM on the To Hit DR
  // C6.3: Case L is NA with the Area Target Type, in the firer's own hex, for a firer in Motion,
  // and against a Motion/Non-Stopped vehicle: a vehicle target fired on while it moves
  // (target.moving) is Non-Stopped. A vehicle that has stopped is target.moving = false.
  const bool moving_vehicle = t.moving && t.type == TargetType::kVehicle;
  // Case L is NA to a LATW using its own To Hit table, so to all but the ATR (C6.3).
  const bool point_blank =
      !area && !fire.same_hex && !fire.motion && !moving_vehicle && (!latw || f.weapon == Weapon::kAtr);
  if (point_blank && fire.range == 1) add(d, drm, "Case L: Point Blank, 1 hex", case_drm(ThCase::kL1), "C6.3");
  if (point_blank && fire.range == 2) add(d, drm, "Case L: Point Blank, 2 hexes", case_drm(ThCase::kL2), "C6.3");
  // C6.55: a firer that moves keeps (and gains) Acquisition only with a gyrostabilized gun.
  // C6.5: a LATW never gains Acquisition ("not FT or LATW").
  const bool keeps_acq = !latw && (f.stabilized || !(bounding || fire.motion));
  const int acq_before = ctx.later_turn ? ctx.carried_acquisition : fire.acquisition;
  // C6.5, C6.57; C6.56: SMOKE acquires nothing (an existing Acquisition is used).
  const int built = places_smoke(f) ? 0 : ctx.acquiring_shots >= 0 ? ctx.acquiring_shots : ctx.shots_fired;
  const int acq = keeps_acq ? std::min(2, acq_before + built) : 0;
  // C5.71: no Acquisition DRM on a Deliberate Immobilization attempt (Acquisition is still gained).
  if (acq > 0 && !fire.deliberate_immobilization)
    add(d, drm, acq == 1 ? "Case N: Acquisition (-1)" : "Case N: Acquisition (-2)", acq * case_drm(ThCase::kN), "C6.5");
  if (fire.deliberate_immobilization)
    add(d, drm, "Case G: Deliberate Immobilization attempt", case_drm(ThCase::kG), "C5.7");
  if (t.size != 0) add(d, drm, "Case P: target size", t.size, "C6.7");
  if (!area && target_tem(t) != 0)
    add(d, drm, t.emplaced && t.tem < 2 ? "Case Q: Emplaced Gun" : "Case Q: TEM", target_tem(t),
        t.emplaced && t.tem < 2 ? "C11.2" : "C6.8");
  if (t.hindrance != 0) add(d, drm, "Case R: hindrance", t.hindrance, "C6.9");
  if (leader_drm(f) != 0) add(d, drm, leader_name(f), leader_drm(f), leader_rule(f));
  if (latw && f.leader) add(d, drm, "leader directing the To Hit DR", *f.leader, "A7.531");
  if (latw && f.cx) add(d, drm, "CX firer", case_drm(ThCase::kCx), "A4.51");
  if (fire.extra_drm != 0) add(d, drm, "other DRM", fire.extra_drm, "[extra_drm]");
  e.total_drm = spec.drm = drm;

  spec.hull_down = t.hull_down;
  spec.same_hex = fire.same_hex;
  spec.target_bypass = t.bypass;
  spec.facing = t.facing;
  spec.multiple_hits = f.gun.caliber_mm >= 15 && f.gun.caliber_mm <= 40 && !area && !latw;  // C3.8: not LATW
  // C5.72: every hit is a hull hit (immobilized) or nothing, so a second hit changes nothing.
  spec.deliberate_immobilization = fire.deliberate_immobilization;
  if (spec.deliberate_immobilization) spec.multiple_hits = false;

  // --- To Kill (C7) per aspect ---
  spec.he = spec.ammo == Ammo::kHE;
  spec.red_cs = t.red_cs;
  const int tk_range = fire.same_hex ? 0 : fire.range;
  // C7.32: the German 28LL and 40LL always use the APCR To Kill table unless firing HE.
  const Ammo tk_ammo = spec.ammo == Ammo::kAP && always_apcr(f.gun, f.nationality) ? Ammo::kAPCR : spec.ammo;
  const std::optional<int> table_tk = latw ? latw_basic_tk(f) : basic_tk(f.gun, tk_ammo, f.nationality);
  std::optional<int> base_tk = s.override_.basic_tk ? s.override_.basic_tk : table_tk;
  if (fire.deliberate_immobilization) {
    // C5.71: only if the Basic TK# of the ammunition fired is > the target's lowest hull AF.
    const std::optional<int> lowest = t.unarmored || !t.armor.hull_front || !t.armor.hull_side
                                          ? std::nullopt
                                          : std::optional<int>(std::min(*t.armor.hull_front, *t.armor.hull_side));
    if (!lowest)
      throw RulesError("fire.deliberate_immobilization",
                       "needs the target's hull AF, front and side (C5.71): not against an unarmored hull");
    if (!base_tk || *base_tk <= *lowest)
      throw RulesError("fire.deliberate_immobilization",
                       "the Basic TK# of " + std::string(ammo_text(spec.ammo)) + " (" +
                           (base_tk ? std::to_string(*base_tk) : std::string("none")) +
                           ") must be > the target's lowest hull AF (" + std::to_string(*lowest) + ", C5.71)");
  }
  bool uncertain = false;
  // C13.22: the ATR reads Case D's "<= 25mm" row; HEAT has no Case D (C7.332).
  const std::optional<int> range_change =
      latw ? case_d(Gun{.caliber_mm = 20, .barrel = Gun::Barrel::kNormal, .designation = "20"}, tk_ammo, tk_range,
                    nullptr)
           : case_d(f.gun, tk_ammo, tk_range, &uncertain);
  // Personnel targets and MG/IFE fire go to the IFT instead (asl_ift.cpp).
  const bool ift_effects = build_ift_effects(s, ctx, spec, e);
  for (int loc = 0; loc < 2 && !ift_effects; ++loc)
    for (int fc = 0; fc < 3; ++fc)
      for (int crit = 0; crit < 2; ++crit) {
        const auto location = static_cast<Location>(loc);
        const auto facing = static_cast<Facing>(fc);
        const bool critical = crit == 1;
        ArmorFactor af;
        if (!t.unarmored) {
          af = location == Location::kHull ? (facing == Facing::kFront ? t.armor.hull_front : t.armor.hull_side)
                                           : (facing == Facing::kFront ? t.armor.turret_front : t.armor.turret_side);
          if (af && location == Location::kTurret && t.turret_armor != TurretArmor::kNormal)
            af = armor_factor_step(*af, t.turret_armor == TurretArmor::kSuperior ? 1 : -1);  // D1.62-.63
        }
        KillSpec& k = spec.kill[static_cast<std::size_t>(kill_index(location, facing, critical))];
        // Explain the aspects this situation can strike: its Target Facing (all three for
        // same-hex fire, D3.2).
        const bool explained = ex && (fire.same_hex || facing == t.facing);
        AspectKill ak;
        const auto mod_note = [&](const char* what, int value, const char* rule) {
          if (explained) ak.mods.push_back({what, value, rule});
        };
        if (explained) ak.aspect = std::string(location == Location::kHull ? "hull " : "turret ") + facing_text(facing);
        ak.critical = critical;
        if (!af) {
          // Unarmored target or aspect (C7.311, C7.321, C7.331, C7.34): a Final TK#, doubled on a CH.
          const std::optional<int> u = latw ? latw_unarmored_tk(f) : unarmored_final_tk(f.gun, spec.ammo);
          if (!u)
            throw RulesError("firer.gun", "no unarmored-target To Kill number for " + f.gun.designation + " " +
                                              ammo_text(spec.ammo) + " (C7.311)");
          k.unarmored = true;
          k.final_tk = critical ? 2 * *u : *u;
          ak.basic_tk = k.final_tk;
          if (critical) mod_note("Critical Hit doubles the Final TK# vs unarmored", *u, "C3.71");
          ak.final_tk = k.final_tk;
        } else {
          if (!base_tk)
            throw RulesError("firer.gun", std::string("no ") + ammo_text(spec.ammo) + " To Kill entry for " +
                                              f.gun.designation + " (C7.3); give override.basic_tk");
          const int basic = critical ? 2 * *base_tk : *base_tk;  // C7.23 Case C: CH doubles first
          ak.basic_tk = basic;
          int mod = basic;
          if (critical) mod_note("TK Case C: Critical Hit doubles the Basic TK#", *base_tk, "C3.72");
          if (facing == Facing::kRear) {
            mod_note("TK Case A: rear Target Facing", table_data().tk_case_a_rear, "C7.21");
            mod += table_data().tk_case_a_rear;
          }
          if (!range_change) {
            k.possible = false;
            mod_note("TK Case D: range beyond the table (NA): no kill possible", 0, "C7.24");
          } else if (*range_change != 0) {
            mod_note("TK Case D: range", *range_change, "C7.24");
            mod += *range_change;
          }
          k.final_tk = mod - *af;
          ak.af = af;
          ak.final_tk = k.final_tk;
        }
        if (explained) e.kills.push_back(std::move(ak));
      }

  // --- Malfunction (A9.7, A.11, C2.28, C5.62, C5.8, D3.7, D3.71) ---
  int b = f.breakdown;
  std::optional<int> x = f.x_number;
  bool circled = f.low_ammo;
  // A.11: any use that lowers the B# turns the weapon's *original* B# into an X#; reductions
  // are cumulative, the X# stays the original B# (EX: a captured LMG B12 on Sustained Fire is
  // B8/X12). D3.71: Low Ammo "changes the original B# to an X#".
  auto lower = [&](int by) {
    x = x ? std::min(*x, f.breakdown) : f.breakdown;
    b -= by;
  };
  if (circled && ctx.low_ammo_marked) {
    lower(1);  // D3.71: the original B# becomes an X#, the new B# is one less
    circled = false;
  }
  if (latw) {
    // C13.47 a Bazooka's and Panzerschreck's X# (no B#), C13.63 the PIAT's B10, C13.26 the ATR's
    // B#/X#, C13.36 none for a Panzerfaust. Inexperienced (A19.32) one lower, captured (A21.11)
    // two: a B# so lowered turns the original into an X# (A.11); an X# alone is lowered itself.
    // A9.7: a SW has the inherent B12 unless its counter prints a B# or an X# (an ATR's X#: no B#).
    const bool x_only = !can_malfunction(f) && !is_panzerfaust(f);
    const int original = f.weapon == Weapon::kPiat                 ? table_data().piat_breakdown[0]
                         : f.weapon == Weapon::kAtr && !f.x_number ? f.breakdown
                                                                   : kNoBreakdownNumber;
    b = original;
    x = x_only ? f.x_number : std::nullopt;
    const int by = (f.inexperienced ? 1 : 0) + 2 * crew_penalty(f);
    if (by > 0 && x_only) {
      *x -= by;
    } else if (by > 0 && original != kNoBreakdownNumber) {
      x = x ? std::min(*x, original) : original;
      b = original - by;
    }
    circled = false;
    if (is_panzerfaust(f)) spec.firer_casualty = pf_casualty_dr(f);
  }
  if (!latw && crew_penalty(f) > 0) lower(2 * crew_penalty(f));  // A21.11, A21.13 (doubled for both), C5.8
  if (ctx.intensive) lower(2);                                   // C5.62
  spec.breakdown = e.breakdown = b;
  spec.x_number = e.x_number = x;
  spec.low_ammo_possible = circled;

  // --- Special ammunition depletion (C8.9, C8.2, C8.12, C8.92); Canister on the IFT DR (C8.4) ---
  if (f.weapon == Weapon::kCanister || places_smoke(f)) {
    spec.depletion = e.depletion = *f.depletion + (f.elite ? 1 : 0);                  // check_ift requires it
  } else if (is_special(spec.ammo) && !always_apcr(f.gun, f.nationality) && !latw) {  // C8.3: SCW do not deplete
    std::optional<int> dep = f.depletion;
    if (!dep) dep = default_depletion(f.nationality, f.gun, spec.ammo, f.year, f.month);
    if (!dep)
      throw RulesError("firer.depletion", std::string(ammo_text(spec.ammo)) +
                                              " needs a Depletion # (C8.9) and the C8.12 chart has none for this gun "
                                              "and date; give the number on the counter");
    if (f.elite) *dep += 1;  // C8.2
    spec.depletion = e.depletion = dep;
  }

  // --- Rate of Fire (C2.24) ---
  spec.rof = e.rof = ift_rof(s, effective_rof(s, ctx));
  spec.keeps_rof = !ctx.intensive && !ctx.follow_up;
  return spec;
}

Breakdown breakdown(const ShotSpec& spec, int o) {
  if (spec.firer_casualty && o >= *spec.firer_casualty) return Breakdown::kFirerCasualty;  // C13.36
  if (spec.x_number && o >= *spec.x_number) return Breakdown::kDisabled;                   // A9.7 X#
  if (spec.low_ammo_possible) {
    if (o == 12) return Breakdown::kMalfunction;          // D3.71
    if (o >= spec.breakdown) return Breakdown::kLowAmmo;  // D3.71
    return Breakdown::kNone;
  }
  return o >= spec.breakdown ? Breakdown::kMalfunction : Breakdown::kNone;  // A9.7, C2.28, D3.7
}

Depletion depletion(const ShotSpec& spec, int o) {
  if (!spec.depletion) return Depletion::kNotSpecial;
  if (o < *spec.depletion) return Depletion::kUsed;
  if (o == *spec.depletion) return Depletion::kRunsOut;
  return Depletion::kNotAvailable;
}

int final_th_dr(const ShotSpec& spec, int colored, int white) {
  // C5.35 Case C4: the lower die counts double for a non-gyrostabilized Motion firer.
  return colored + white + (spec.double_lower_die ? std::min(colored, white) : 0) + spec.drm;
}

int lowest_final_th_dr(const ShotSpec& spec) { return final_th_dr(spec, 1, 1); }

bool needs_subsequent_dr(const ShotSpec& spec, int colored, int white) {
  if (spec.ift.target == TargetType::kInfantry) return infantry_needs_subsequent_dr(spec, colored, white);
  if (colored + white != 2) return false;
  const int lowest = lowest_final_th_dr(spec);
  return lowest >= spec.modified_th;  // C3.6 (lowest misses) or C3.7 (only the lowest hits)
}

namespace {
Hit to_hit_located(const ShotSpec& spec, int c, int w, int sub) {
  if (spec.ift.target == TargetType::kInfantry) return to_hit_infantry(spec, c, w, sub);  // C3.7 ITT
  Hit h;
  h.facing = spec.same_hex ? (c <= 2   ? Facing::kRear
                              : c <= 4 ? Facing::kSide
                                       : Facing::kFront)  // D3.2
                           : spec.facing;
  const int lowest = lowest_final_th_dr(spec);
  const bool original_2 = c + w == 2;
  if (lowest > spec.modified_th) {
    // C3.6 Improbable Hit: only an Original 2 followed by a subsequent dr of 1-3.
    if (!original_2) return h;
    h.improbable = true;
    if (sub == 1) {
      h.hit = h.critical = true;
      h.location = spec.hull_down ? Location::kTurret : Location::kHull;  // C3.9 EXC
    } else if (sub == 2) {
      h.hit = true;
      h.location = Location::kTurret;
    } else if (sub == 3 && !spec.hull_down) {
      h.hit = true;
      h.location = Location::kHull;
    }
    return h;
  }
  if (original_2) {
    // C3.7: an Original 2 is a CH; if only the lowest Final DR hits, a CH needs a subsequent dr 1.
    h.hit = true;
    h.critical = lowest < spec.modified_th || sub == 1;
    h.location = spec.hull_down ? Location::kTurret : Location::kHull;  // doubles: hull (C3.9), HD: turret
    // C3.8: a non-CH hit on Original doubles; vs HD it is "a normal turret hit" (C3.7)
    h.multiple = !h.critical && spec.multiple_hits;
    return h;
  }
  if (final_th_dr(spec, c, w) > spec.modified_th) return h;       // C3.3: miss
  h.location = c < w ? Location::kTurret : Location::kHull;       // C3.9
  if (spec.hull_down && h.location == Location::kHull) return h;  // D4.2: HD hull is not hit
  h.hit = true;
  h.multiple = spec.multiple_hits && c == w;  // C3.8
  return h;
}
}  // namespace

Hit to_hit(const ShotSpec& spec, int c, int w, int sub) {
  Hit h = to_hit_located(spec, c, w, sub);
  if (spec.deliberate_immobilization) h.critical = false;  // C5.72: not resolved as a CH
  // D3.2 EXC (An 97): from within the hex, a hull hit on a vehicle in Bypass strikes its side; a
  // turret hit strikes the turret facing toward the firer (the situation's facing).
  if (spec.same_hex && spec.target_bypass) h.facing = h.location == Location::kHull ? Facing::kSide : spec.facing;
  return h;
}

Outcome to_kill(const ShotSpec& spec, const KillSpec& k, Location loc, int c, int w) {
  if (spec.ift.effects != Effects::kToKill) return ift_effect(spec.ift, k.critical, c + w);  // A7.3, C3.71
  const int dr = c + w;
  if (dr == 12) return kOutcomeDud;  // C7.35: Original TK DR 12 is a Dud
  if (!k.possible) return kOutcomeNoEffect;
  const int tk = k.final_tk;
  const int burn_dr = spec.red_cs && !k.unarmored ? dr - 1 : dr;              // C7.7 note A
  if (dr < tk) return 2 * burn_dr <= tk ? kOutcomeBurn : kOutcomeEliminated;  // C7.6, C7.7
  if (k.unarmored) return dr == tk ? kOutcomeImmobilized : kOutcomeNoEffect;  // Unarmored Vehicle Destruction Table
  if (dr == tk) return loc == Location::kTurret ? kOutcomeShock : kOutcomeImmobilized;  // C7.41, C7.5
  if (dr == tk + 1) {
    if (!spec.he) return kOutcomePossibleShock;                             // C7.41 non-HE
    return loc == Location::kTurret ? kOutcomeShock : kOutcomeImmobilized;  // C7.7 HE at TK+1
  }
  return kOutcomeNoEffect;
}

Location second_hit_location(int c, int w) { return c < w ? Location::kTurret : Location::kHull; }

SecondHit second_hit(const ShotSpec& spec, const Hit& first, int c, int w) {
  const Location loc = second_hit_location(c, w);
  if (spec.hull_down && loc == Location::kHull) return SecondHit{nullptr, false};  // D4.2: the hull is not hit
  const KillSpec& k = spec.kill[static_cast<std::size_t>(kill_index(loc, first.facing, false))];
  return SecondHit{k.possible ? &k : nullptr, true};
}

std::uint32_t outcome_flags(Outcome o) {
  switch (o) {
    case kOutcomeBurn:
      return (1u << kFlagBurn) | (1u << kFlagKill);
    case kOutcomeEliminated:
      return (1u << kFlagEliminated) | (1u << kFlagKill);
    case kOutcomeShock:
      return 1u << kFlagShock;
    case kOutcomeImmobilized:
      return 1u << kFlagImmobilized;
    case kOutcomePossibleShock:
      return 1u << kFlagPossibleShock;
    case kOutcomeDud:
      return 1u << kFlagDud;
    default:
      return ift_outcome_flags(o);
  }
}

}  // namespace salvo::asl
