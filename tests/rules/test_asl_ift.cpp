// The Infantry Fire Table and the shots resolved on it: the rulebook's worked examples as exact
// tests, scripted dice through the reference interpreter, and the rules conflicts.
#include <algorithm>
#include <string>

#include "asl_cases.h"
#include "asl_test_util.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/sim/exact.h"
#include "support/named.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

/// A situation of a Gun that rolls no IFT To Hit DR itself: `weapon` firing from a non-vehicular
/// `gun`, `depletion` its Depletion Number, at `type` `range` hexes away.
Situation special_fire(const char* gun, Weapon weapon, int depletion, TargetType type, int range) {
  Situation s;
  s.firer.gun = *parse_gun(gun);
  s.firer.vehicle = false;
  s.firer.weapon = weapon;
  s.firer.depletion = depletion;
  s.target.type = type;
  s.fire.range = range;
  return s;
}

/// P(flag) over the first shot of the exact solution.
double first_flag(const Situation& v, const char* flag) {
  const Compiled c = compile(v);
  return test::flag(c.program, salvo::sim::solve_exact(c.program).first, flag);
}

/// `base` changed by `edit` is refused by check() on `key`.
template <class Edit>
void check_refused_on(Situation base, Edit edit, const char* key) {
  edit(base);
  const auto e = check(base);
  REQUIRE(e);
  CHECK(e->key() == key);
}

/// German 75L HE at a squad 6 hexes away on the Infantry Target Type.
Situation itt() {
  Situation s = base();
  s.name = "itt";
  s.firer.ammo = Ammo::kHE;
  s.target.type = TargetType::kInfantry;
  return s;
}

/// A vehicular MG of `fp` FP at a squad 5 hexes away.
Situation mg(int fp) {
  Situation s = base();
  s.name = "mg";
  s.firer.weapon = Weapon::kMg;
  s.firer.fp = fp;
  s.firer.normal_range = 8;  // required for MG fire (A7.22): no Long Range Fire at 5 hexes
  s.target.type = TargetType::kInfantry;
  s.fire.range = 5;
  return s;
}

}  // namespace

TEST_CASE("A7.306 EX and A7.308 EX on the IFT", "[asl][ift]") {
  CHECK(ift_personnel(8, 6) == kOutcome1Mc);  // A7.306 EX: 8 FP, Final 6
  CHECK(ift_personnel(8, 8) == kOutcomeNmc);  // A7.308 EX
  CHECK(ift_personnel(8, 4) == kOutcome2Mc);
  CHECK(ift_personnel(8, 7) == kOutcome1Mc);
  CHECK(vehicle_line(8, 7) == kOutcomeImmobilized);  // A7.308 EX: 8 FP Final 7 immobilizes
  CHECK(vehicle_line(8, 6) == kOutcomeEliminated);
  CHECK(vehicle_line(8, 3) == kOutcomeBurn);
  CHECK(vehicle_line(8, 8) == kOutcomeNoEffect);
  // Both ends of the table and its corners.
  CHECK(ift_personnel(1, -3) == kOutcome1Kia);
  CHECK(ift_personnel(36, 0) == kOutcome7Kia);
  CHECK(ift_personnel(1, 5) == kOutcomePtc);
  CHECK(ift_personnel(1, 6) == kOutcomeNoEffect);
  CHECK(ift_personnel(36, 15) == kOutcomePtc);
  CHECK(ift_personnel(36, 20) == kOutcomePtc);
  CHECK(ift_personnel(20, 4) == kOutcomeK4);
  CHECK(ift_personnel(12, 3) == kOutcomeK3);
  const int kill_numbers[] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
  for (std::size_t i = 0; i < std::size(kIftColumns); ++i)
    CHECK(vehicle_line_kill_number(kIftColumns[i]) == kill_numbers[i]);
}

TEST_CASE("C.6 HE caliber columns, C.7 Heavy Payload, C8.31 HE equivalency, A7.3 columns", "[asl][ift]") {
  // C.6: caliber (mm) and its HE FP column; a 90mm Gun uses the 16 FP column.
  const std::pair<int, int> columns[] = {{90, 16}, {100, 20}, {105, 20}, {75, 12},  {57, 6},   {50, 6},  {45, 4},
                                         {37, 4},  {20, 1},   {15, 0},   {120, 24}, {150, 30}, {200, 36}};
  for (const auto& [mm, fp] : columns) {
    INFO(mm << "mm");
    CHECK(he_fp(mm) == fp);
  }
  CHECK(heavy_payload_drm(2 * he_fp(120)) == -1);  // C.7 EX: a 120mm CH is 48 FP: -1
  CHECK(heavy_payload_drm(36) == 0);
  CHECK(heavy_payload_drm(43) == 0);
  CHECK(heavy_payload_drm(60) == -3);
  CHECK(he_equivalent_fp(*parse_gun("75L"), Ammo::kAP) == 2);
  CHECK(he_equivalent_fp(*parse_gun("28LL"), Ammo::kAPCR) == 1);
  CHECK(ift_column(0.5) == 0);
  CHECK(ift_column(1) == 1);
  CHECK(ift_column(5.5) == 4);
  CHECK(ift_column(6) == 6);
  CHECK(ift_column(99) == 36);
}

TEST_CASE("C3.3 To Hit rows for the Infantry and Area Target Types", "[asl][ift]") {
  CHECK(basic_th_infantry(false, 6) == 8);   // C3.7 EX
  CHECK(basic_th_infantry(false, 40) == 2);  // C3.6 EX: German 37-42
  CHECK(basic_th_infantry(false, 13) == 6);  // jekl.com: German 75L at 13 hexes, 6 +1 L
  CHECK(basic_th_infantry(true, 10) == 6);
  CHECK(basic_th_area(6) == 7);
  CHECK(basic_th_area(15) == 8);
  Situation s = itt();
  s.fire.range = 13;
  CHECK(first_shot(s).modified_th == 7);  // 6 +1 L (C4.12)
  s.target.type = TargetType::kArea;
  s.fire.range = 6;
  CHECK(first_shot(s).modified_th == 7);  // Area row, red for every nationality
}

TEST_CASE("C3.7 EX: Critical Hits on the Infantry Target Type", "[asl][ift]") {
  // Modified TH# 8; DRM +1: CH only on an Original 2. DRM 0 (-1 Acquisition): Original <= 3.
  // DRM -1 (-2 Acquisition): Original <= 4. No subsequent dr is needed in any of them.
  for (int acquisition = 0; acquisition <= 2; ++acquisition) {
    Situation s = itt();
    s.fire.extra_drm = 1;
    s.fire.acquisition = acquisition;
    const ShotSpec spec = first_shot(s);
    REQUIRE(spec.modified_th == 8);
    REQUIRE(spec.drm == 1 - acquisition);
    const int ch_up_to = 2 + acquisition;
    for (int c = 1; c <= 6; ++c)
      for (int w = 1; w <= 6; ++w) {
        INFO("acquisition " << acquisition << ", DR " << c << "," << w);
        REQUIRE_FALSE(needs_subsequent_dr(spec, c, w));
        const Hit h = to_hit(spec, c, w, 0);
        CHECK(h.hit == (c + w + spec.drm <= 8));
        CHECK(h.critical == (c + w <= ch_up_to));
      }
  }
}

TEST_CASE("C3.7: an Original 2 that is not a CH by its Final DR rolls the subsequent dr", "[asl][ift]") {
  Situation s = itt();
  s.target.tem = 3;  // Original 2 -> Final 5: 10 is not < 8
  const ShotSpec spec = first_shot(s);
  REQUIRE(spec.drm == 3);
  REQUIRE(needs_subsequent_dr(spec, 1, 1));
  for (int dr = 1; dr <= 6; ++dr) {
    INFO("subsequent dr " << dr);
    const Hit h = to_hit(spec, 1, 1, dr);
    CHECK(h.hit);
    CHECK(h.critical == (dr <= 4));  // 1, or <= half of 8
  }
  // Scripted: CH on dr 4; the CH Effects DR on 24 FP at -3 (TEM +3 reversed): 5 - 3 = 2 -> 3KIA.
  PhaseTrace t = run_script(s, {TH(1, 1), DR(4), TK(2, 3)});
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].outcome == kOutcome3Kia);
  CHECK((t.steps[0].flags & (1u << kFlagCritical)) != 0);
  CHECK(t.end == kEndTargetDestroyed);
  // dr 5: a normal hit; 12 FP column, no TEM on the Effects DR (C.3): 4 -> 3MC.
  t = run_script(s, {TH(1, 1), DR(5), TK(2, 2)});
  CHECK(t.steps[0].outcome == kOutcome3Mc);
  CHECK((t.steps[0].flags & (1u << kFlagCritical)) == 0);
  CHECK(t.end == kEndRofExhausted);
}

TEST_CASE("scripted dice: HE on the Infantry Target Type", "[asl][ift]") {
  Situation s = itt();
  s.target.tem = 1;  // woods: paid on the To Hit DR
  // Original 7 + 1 = 8 <= 8: hit, not a CH (16 is not < 8); 12 FP column, Effects DR 4: 3MC.
  PhaseTrace t = run_script(s, {TH(3, 4), TK(2, 2)});
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].outcome == kOutcome3Mc);
  const std::uint32_t want = (1u << kFlagHit) | (1u << kFlagPtcOrWorse) | (1u << kFlagMcOrWorse);
  CHECK(t.steps[0].flags == want);
  // Original 2, Final 3: CH; 24 FP, TEM +1 reversed: 6 - 1 = 5 -> K/4.
  t = run_script(s, {TH(1, 1), TK(3, 3)});
  CHECK(t.steps[0].outcome == kOutcomeK4);
  CHECK((t.steps[0].flags & (1u << kFlagCasualty)) != 0);
  CHECK((t.steps[0].flags & (1u << kFlagKia)) == 0);
  // A miss: Original 8 + 1 = 9.
  t = run_script(s, {TH(4, 4)});
  CHECK(t.steps[0].outcome == kOutcomeMiss);
  // ROF 1 kept on a colored 1; Acquisition -1 on the second shot.
  s.firer.rof = 1;
  t = run_script(s, {TH(1, 5), TK(6, 6), TH(2, 6), TK(4, 4)});
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].outcome == kOutcomeNoEffect);  // 12 FP, DR 12: "—"
  CHECK(t.steps[1].outcome == kOutcome1Mc);       // 8 + 1 - 1 = 8 hits; 12 FP, DR 8: 1MC
  CHECK(t.end == kEndRofExhausted);
}

TEST_CASE("scripted dice: Improbable Hit and Multiple Hits on the Infantry Target Type", "[asl][ift]") {
  Situation s = itt();
  s.fire.extra_drm = 7;  // lowest Final 9 > 8: only an Original 2 and a dr of 1-3 hit (C3.6)
  PhaseTrace t = run_script(s, {TH(1, 1), DR(2), TK(3, 4)});
  CHECK(t.steps[0].outcome == kOutcome1Mc);  // normal hit: 12 FP, DR 7
  t = run_script(s, {TH(1, 1), DR(1), TK(3, 4)});
  CHECK(t.steps[0].outcome == kOutcome3Mc);  // CH: 24 FP, DR 7
  t = run_script(s, {TH(1, 1), DR(4)});
  CHECK(t.steps[0].outcome == kOutcomeMiss);

  // C3.8: a 37L (4 FP HE) non-CH hit on Original doubles: two Effects DR, the better kept.
  s = itt();
  s.firer.gun = *parse_gun("37L");
  t = run_script(s, {TH(2, 2), TK(3, 3), TK(1, 2)});
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].outcome == kOutcome2Mc);  // 4 FP: DR 6 NMC, DR 3 2MC
  CHECK(t.steps[0].counts[kCounterHits] == 2);
}

TEST_CASE("scripted dice: HE on the Area Target Type, C3.71 EX", "[asl][ift]") {
  Situation s = itt();
  s.target.type = TargetType::kArea;
  s.target.tem = 1;
  s.firer.rof = 2;  // C3.33: the Area Target Type uses all ROF
  const ShotSpec spec = first_shot(s);
  CHECK(spec.modified_th == 7);
  CHECK(spec.drm == 0);  // TEM goes to the Effects DR (C3.331)
  CHECK(spec.rof == 0);
  CHECK(spec.ift.normal.column == 6);  // 12 FP halved (C3.33)
  CHECK(spec.ift.normal.drm == 1);
  CHECK(spec.ift.critical.column == 24);  // full FP doubled, no halving (C3.71)
  CHECK(spec.ift.critical.drm == -1);
  PhaseTrace t = run_script(s, {TH(1, 6), TK(2, 3)});
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].outcome == kOutcome1Mc);  // 6 FP, 5 + 1 = 6
  CHECK(t.end == kEndRofExhausted);

  // C3.71 EX: a 50mm HE CH vs a Non-Assault-moving squad in woods: 12 FP column at -2.
  s = itt();
  s.firer.gun = *parse_gun("50");
  s.target.type = TargetType::kArea;
  s.target.tem = 1;
  s.target.ffnam = true;
  s.fire.phase = Phase::kDefensive;
  const ShotSpec ex = first_shot(s);
  CHECK(ex.ift.critical.column == 12);
  CHECK(ex.ift.critical.drm == -2);
  t = run_script(s, {TH(1, 1), TK(2, 2)});
  CHECK((t.steps[0].flags & (1u << kFlagCritical)) != 0);
  CHECK(t.steps[0].outcome == kOutcome1Kia);  // 4 - 2 = 2 on 12 FP
}

TEST_CASE("C3.33, C3.71: 20mm HE on the Area Target Type: a normal hit (1/2 FP) does nothing, a CH attacks on 2 FP",
          "[asl][ift]") {
  Situation s = base();
  s.firer.gun = *parse_gun("20L");
  s.firer.ammo = Ammo::kHE;
  s.target.type = TargetType::kArea;
  REQUIRE_FALSE(check(s).has_value());
  // Area row, 0-6 hexes: TH# 7, hit on DR <= 7 (21/36); an Original 2 is a CH (1/36), attacking
  // on the 2 FP column at DRM 0: PTC or worse on an Effects DR <= 6 (15/36).
  const RollProgram p = compile(s).program;
  const auto r = salvo::sim::solve_exact(p);
  CHECK(test::flag(p, r.first, "hit") == Approx(21.0 / 36).epsilon(1e-12));
  CHECK(test::flag(p, r.first, "ptc_or_worse") == Approx(15.0 / 1296).epsilon(1e-12));
}

TEST_CASE("C.7 EX: a 120mm CH is 48 FP, resolved on the 36+ column at -1", "[asl][ift]") {
  Situation s = itt();
  s.firer.gun = *parse_gun("120");
  const ShotSpec spec = first_shot(s);
  CHECK(spec.ift.normal.column == 24);
  CHECK(spec.ift.critical.column == 36);
  CHECK(spec.ift.critical.drm == -1);
}

TEST_CASE("scripted dice: vehicular MG and IFE on the IFT", "[asl][ift][mg]") {
  Situation s = mg(4);
  s.target.tem = 1;
  PhaseTrace t = run_script(s, {TK(3, 2)});
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].outcome == kOutcomeNmc);  // 4 FP, 5 + 1 = 6
  CHECK(t.steps[0].counts[kCounterShots] == 1);
  CHECK(t.steps[0].counts[kCounterHits] == 0);
  // D3.7: malfunction on an Original 12; the attack is still resolved (A9.7).
  t = run_script(s, {TK(6, 6)});
  CHECK((t.steps[0].flags & (1u << kFlagMalfunction)) != 0);
  CHECK(t.end == kEndMalfunction);
  // A9.2: the colored dr of the IFT DR keeps a Multiple ROF.
  s.firer.rof = 2;
  t = run_script(s, {TK(1, 3), TK(2, 1), TK(5, 1)});
  REQUIRE(t.steps.size() == 3);
  CHECK(t.steps[1].outcome == kOutcome1Mc);  // 3 + 1 = 4 on 4 FP
  CHECK(t.end == kEndRofExhausted);

  // D3.52: Case A as an IFT DRM, first shot only; bow MG = NT: +3.
  s = mg(2);
  s.firer.gun_type = GunType::kNT;
  s.fire.ca_change = 1;
  CHECK(first_shot(s).ift.normal.drm == 3);
  CHECK(shot_after(s, 1).ift.normal.drm == 0);
  // ... a bow MG is NT whatever its gun_type says (D3.52 "Bow MG = NT", D3.11)
  s.firer.gun_type = GunType::kT;
  s.firer.bow_mounted = true;
  CHECK(first_shot(s).ift.normal.drm == 3);
  // ... and from the Covered Arc geometry: a turret MG (T) turning 2 hexspines, +2; from woods, +4
  s = mg(4);
  s.fire.vca = 0;
  s.fire.tca = 0;
  s.fire.target_direction = 2;
  CHECK(first_shot(s).ift.normal.drm == 2);
  s.fire.firer_terrain = Terrain::kWoods;
  CHECK(first_shot(s).ift.normal.drm == 4);
  // Halved FP (fractions kept): AFPh (D3.53), Bounding Fire (D3.31), Long Range (A7.22).
  s = mg(8);
  s.fire.phase = Phase::kAdvancing;
  CHECK(first_shot(s).ift.normal.column == 4);
  s.fire.phase = Phase::kBounding;
  CHECK(first_shot(s).ift.normal.column == 4);
  s.firer.normal_range = 4;  // range 5 > 4: halved again, 2 FP
  CHECK(first_shot(s).ift.normal.column == 2);
  s = mg(3);
  s.fire.phase = Phase::kAdvancing;  // 1.5 FP: the 1 FP column
  CHECK(first_shot(s).ift.normal.column == 1);
  s = mg(4);
  s.fire.range = 1;  // Point Blank Fire doubles (A7.21)
  CHECK(first_shot(s).ift.normal.column == 8);
  // IFE: ROF -1 and half FP beyond 16 hexes (C2.29).
  s = mg(12);
  s.firer.weapon = Weapon::kIfe;
  s.firer.normal_range.reset();  // IFE: 16 hexes (C2.29)
  s.firer.rof = 2;
  s.fire.range = 20;
  const ShotSpec ife = first_shot(s);
  CHECK(ife.rof == 1);
  CHECK(ife.ift.normal.column == 6);
}

TEST_CASE("scripted dice: MG on the IFT Vehicle line (A7.308, A7.309)", "[asl][ift][mg]") {
  Situation s = mg(8);
  s.target.type = TargetType::kVehicle;
  s.target.unarmored = true;
  s.target.armor = Armor{std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  PhaseTrace t = run_script(s, {TK(3, 4)});
  CHECK(t.steps[0].outcome == kOutcomeImmobilized);  // A7.308 EX: 8 FP, Final 7
  // A7.309: 1 FP with +2 TEM: an Original 2 is Final 4 > Kill Number 3, but the dr 2 eliminates.
  s = mg(1);
  s.target.type = TargetType::kVehicle;
  s.target.unarmored = true;
  s.target.armor = Armor{std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  s.target.tem = 2;
  t = run_script(s, {TK(1, 1), DR(2)});
  CHECK(t.steps[0].outcome == kOutcomeEliminated);
  CHECK(t.end == kEndTargetDestroyed);
  t = run_script(s, {TK(1, 1), DR(3)});
  CHECK(t.steps[0].outcome == kOutcomeImmobilized);
  t = run_script(s, {TK(1, 1), DR(5)});
  CHECK(t.steps[0].outcome == kOutcomeNoEffect);
}

TEST_CASE("IFT rules conflicts are refused with the key and the rule", "[asl][ift][errors]") {
  Situation mg_no_normal_range = mg(4);
  mg_no_normal_range.firer.normal_range.reset();
  const std::vector<Case> cs =
      cases("ift-refused.toml",
            {{"base", base()}, {"itt", itt()}, {"mg 4", mg(4)}, {"mg 4, no Normal Range", mg_no_normal_range}});
  check_cases(cs, 12);
  const Situation armored = with(mg(4), [](Situation& s) { s.target.type = TargetType::kVehicle; });
  CHECK(refusal(armored).rfind("target.armor: MG/IFE fire vs an armored vehicle", 0) == 0);
}

TEST_CASE("program names follow the kind of target and weapon", "[asl][ift]") {
  auto has = [](const std::vector<std::string>& v, const std::string& n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  const RollProgram vehicle = compile(base()).program;
  CHECK_FALSE(has(vehicle.flag_names, "kia"));
  CHECK_FALSE(has(vehicle.outcome_names, "1mc"));
  CHECK(has(vehicle.outcome_names, "burn"));
  const RollProgram personnel = compile(itt()).program;
  CHECK(has(personnel.flag_names, "hit"));
  CHECK(has(personnel.flag_names, "kia"));
  CHECK_FALSE(has(personnel.flag_names, "burn"));
  CHECK(has(personnel.outcome_names, "k_2"));
  CHECK_FALSE(has(personnel.outcome_names, "dud"));
  const RollProgram mgp = compile(mg(4)).program;
  CHECK_FALSE(has(mgp.flag_names, "hit"));
  CHECK_FALSE(has(mgp.outcome_names, "miss"));
  CHECK_FALSE(has(mgp.counter_names, "hits"));
}

TEST_CASE("example file: an HE shot at a squad in woods", "[asl][ift][load]") {
  const auto f = load::load_file(std::string(SALVO_SOURCE_DIR) + "/examples/he-at-squad-in-woods.toml");
  REQUIRE(f.situations.size() == 1);
  const Situation& s = f.situations[0].situation;
  CHECK(s.target.type == TargetType::kInfantry);
  // Infantry row, 7-12 hexes, black: Basic TH# 7, no C4 modification within 12 hexes; DRM +2,
  // the woods TEM paid on the To Hit DR (C6.8) and Case I (C5.9): a hit on an Original DR <= 5
  // (10/36), an Original 2 among them (a CH or a normal hit by the subsequent dr, C3.7).
  const ShotSpec spec = first_shot(s);
  CHECK(spec.modified_th == 7);
  CHECK(spec.drm == 2);
  const Compiled c = compile(s);
  c.program.validate();
  CHECK(test::flag(c.program, salvo::sim::solve_exact(c.program).first, "hit") == Approx(10.0 / 36).epsilon(1e-12));
}

TEST_CASE("C8.4: Canister is an IFT attack by the Gun's size whose DR is also the depletion check", "[asl][ift]") {
  // A 75mm Gun's Canister: 20 FP (C8.4) at 2 hexes, DRM 0, Depletion Number 8. From the IFT's 20
  // FP column: 1KIA on a Final DR <= 3, K/4 on 4, PTC or worse on every DR <= 12. An Original DR
  // > 8 is no Canister at all (C8.9: not fired, and nothing else to fire), 8 uses the last.
  Situation s = special_fire("75", Weapon::kCanister, 8, TargetType::kInfantry, 2);
  s.firer.nationality = Nationality::kAmerican;
  REQUIRE_FALSE(check(s));
  const auto p = first_flag;
  CHECK(p(s, "kia") == Approx(3.0 / 36).epsilon(1e-12));
  CHECK(p(s, "casualty") == Approx(6.0 / 36).epsilon(1e-12));
  CHECK(p(s, "ptc_or_worse") == Approx(26.0 / 36).epsilon(1e-12));
  CHECK(p(s, "depleted") == Approx(15.0 / 36).epsilon(1e-12));
  {  // the 20 FP column, not 16: a DR of 5 is a 4MC (16 FP: 3MC)
    const Compiled c = compile(s);
    CHECK(test::outcome(c.program, salvo::sim::solve_exact(c.program).first, "4mc") == Approx(4.0 / 36).epsilon(1e-12));
  }
  CHECK(p(s, "malfunction") == Approx(1.0 / 36).epsilon(1e-12));
  // C8.41: the adjacent hex as Area Fire, 10 FP: the 8 FP column, 1KIA on <= 2, K/2 on 3.
  Situation adjacent = s;
  adjacent.fire.range = 1;
  CHECK(p(adjacent, "kia") == Approx(1.0 / 36).epsilon(1e-12));
  CHECK(p(adjacent, "casualty") == Approx(3.0 / 36).epsilon(1e-12));
  // TEM +1 on the IFT DR: casualty on an Original DR <= 3.
  Situation woods = s;
  woods.target.tem = 1;
  CHECK(p(woods, "casualty") == Approx(3.0 / 36).epsilon(1e-12));
  // Refused: beyond 2 hexes, a size with no Canister FP, armored targets, no Depletion Number.
  auto refused = [&](auto edit, const char* key) { check_refused_on(s, edit, key); };
  refused([](Situation& v) { v.fire.range = 3; }, "fire.range");
  refused([](Situation& v) { v.firer.gun = *parse_gun("76L"); }, "firer.gun");
  refused([](Situation& v) { v.target.type = TargetType::kVehicle; }, "target.armor");
  refused([](Situation& v) { v.firer.depletion.reset(); }, "firer.depletion");
}

TEST_CASE("C11.4-.6: a hit on a Gun: the Gun Destruction Table first, then the crew behind its gunshield",
          "[asl][ift]") {
  // C11.5 EX: a 75L fires HE on the Infantry Target Type at a Gun 6 hexes away, Modified TH# 8,
  // Target Size +1 (C2.271): a hit on an Original DR <= 7 (21/36), a CH only on an Original 2 (a
  // Final 3 < 8/2). A hit attacks on the 12 FP column: 1KIA on a Final 2 eliminates Gun and crew,
  // K/3 on 3 malfunctions the Gun and reduces the crew; any other DR is a Near Miss on the crew,
  // +2 for its gunshield: 4 -> 6 2MC, 5-6 -> 1MC, 7 -> 9 NMC, 8 -> 10 PTC, 9+ no effect.
  Situation s;
  s.firer.nationality = Nationality::kGerman;
  s.firer.gun = *parse_gun("75L");
  s.firer.ammo = Ammo::kHE;
  s.target.type = TargetType::kInfantry;
  s.target.gun = true;
  s.target.size = 1;
  s.target.gunshield = true;
  s.fire.range = 6;
  REQUIRE_FALSE(check(s));
  auto window = [](const Situation& v) {
    const Compiled c = compile(v);
    return std::pair{c.program, salvo::sim::solve_exact(c.program).first};
  };
  auto [p, w] = window(s);
  const double hit = 20.0 / 36;  // non-CH hits: Original 3..7
  CHECK(test::flag(p, w, "hit") == Approx(21.0 / 36).epsilon(1e-12));
  CHECK(test::flag(p, w, "eliminated") == Approx(1.0 / 36 + hit / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "k_3") == Approx(hit * 2 / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "2mc") == Approx(hit * 3 / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "1mc") == Approx(hit * 9 / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "nmc") == Approx(hit * 6 / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "ptc") == Approx(hit * 5 / 36).epsilon(1e-12));

  // AP: the 2 FP column of its HE equivalency (C8.31); a K/1 on an IFT DR of 2 eliminates the
  // Gun (C11.52); the Near Miss 3 -> 5 NMC, 4 -> 6 PTC.
  Situation ap = s;
  ap.firer.ammo = Ammo::kAP;
  std::tie(p, w) = window(ap);
  CHECK(test::flag(p, w, "eliminated") == Approx(1.0 / 36 + hit / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "k_1") == 0.0);
  CHECK(test::outcome(p, w, "nmc") == Approx(hit * 2 / 36).epsilon(1e-12));
  CHECK(test::outcome(p, w, "ptc") == Approx(hit * 3 / 36).epsilon(1e-12));

  // C11.2 EX: Emplaced, the +2 TEM and the Target Size make +3 on the To Hit DR: a hit on an
  // Original DR <= 5.
  Situation emplaced = s;
  emplaced.target.emplaced = true;
  std::tie(p, w) = window(emplaced);
  CHECK(test::flag(p, w, "hit") == Approx(10.0 / 36).epsilon(1e-12));

  // Refused: the Vehicle Target Type, MG fire, a gunshield on a target that is not a Gun.
  Situation v = s;
  v.target.type = TargetType::kVehicle;
  REQUIRE(check(v));
  CHECK(check(v)->key() == "target.type");
  v = s;
  v.target.gun = false;
  REQUIRE(check(v));
  CHECK(check(v)->key() == "target.gunshield");
}

TEST_CASE("C8.5-.6: SMOKE and WP on the Area Target Type, the Depletion Number on the To Hit DR", "[asl][ift]") {
  // A 75 fires SMOKE at 6 hexes: the Area row's red Basic TH# 7, +2 for SMOKE at <= 12 hexes
  // (C4.4) = 9; s# 7: an Original DR > 7 is no SMOKE (C8.9), so it is placed on an Original DR
  // <= 7 (21/36, all of them <= 9), and 7 or more uses up the last (21/36).
  Situation s = special_fire("75", Weapon::kSmoke, 7, TargetType::kArea, 6);
  REQUIRE_FALSE(check(s));
  const auto first = first_flag;
  CHECK(first(s, "hit") == Approx(21.0 / 36).epsilon(1e-12));
  CHECK(first(s, "depleted") == Approx(21.0 / 36).epsilon(1e-12));
  // 13 hexes: Basic TH# 8 and no C4.4 bonus; s# 10: placed on an Original DR <= 8 (26/36).
  Situation far = s;
  far.fire.range = 13;
  far.firer.depletion = 10;
  CHECK(first(far, "hit") == Approx(26.0 / 36).epsilon(1e-12));
  // WP from an 81mm mortar at 10 hexes, WP# 8: placed on an Original DR <= 8; every placement is
  // an NMC for the hex (A24.31).
  Situation wp = s;
  wp.firer.gun = *parse_gun("81");
  wp.firer.mortar = true;
  wp.firer.min_range = 2;
  wp.firer.weapon = Weapon::kWp;
  wp.firer.depletion = 8;
  wp.fire.range = 10;
  REQUIRE_FALSE(check(wp));
  CHECK(first(wp, "hit") == Approx(26.0 / 36).epsilon(1e-12));
  CHECK(first(wp, "mc_or_worse") == Approx(26.0 / 36).epsilon(1e-12));
  // Refused: another Target Type, the AFPh for SMOKE, no Depletion Number.
  auto refused = [&](auto edit, const char* key) { check_refused_on(s, edit, key); };
  refused([](Situation& v) { v.target.type = TargetType::kInfantry; }, "target.type");
  refused([](Situation& v) { v.fire.phase = Phase::kAdvancing; }, "fire.phase");
  refused([](Situation& v) { v.firer.depletion.reset(); }, "firer.depletion");
}
