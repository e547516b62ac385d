// The rulebook's own worked examples, reproduced exactly.
#include "asl_test_util.h"
#include "salvo/rules/asl_tables.h"

using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {
int sum_values(const std::vector<Modifier>& mods) {
  int v = 0;
  for (const auto& m : mods) v += m.value;
  return v;
}
}  // namespace

TEST_CASE("C4.5 EX: German 40LL firing APCR at 25 hexes has Modified TH# 3", "[asl][example]") {
  Situation s = base();
  s.firer.gun = *parse_gun("40LL");
  s.firer.ammo = Ammo::kAPCR;
  s.fire.range = 25;
  ShotExplain ex;
  const ShotSpec spec = build_shot(s, ShotContext{}, &ex);
  CHECK(ex.basic_th == 6);
  // +2 LL, -2 APCR, -2 <=57mm, -1 <=40mm
  REQUIRE(ex.th_mods.size() == 4);
  CHECK(ex.th_mods[0].value == 2);
  CHECK(ex.th_mods[0].rule == "C4.13");
  CHECK(ex.th_mods[1].value == -2);
  CHECK(ex.th_mods[1].rule == "C4.3");
  CHECK(ex.th_mods[2].value == -2);
  CHECK(ex.th_mods[3].value == -1);
  CHECK(spec.modified_th == 3);
  // C4.3: the German 40LL is never subject to APCR depletion.
  CHECK_FALSE(spec.depletion.has_value());
}

TEST_CASE("C4.3: the German 40LL uses the APCR modification even when firing HE", "[asl][example]") {
  Situation s = base();
  s.firer.gun = *parse_gun("40LL");
  s.firer.ammo = Ammo::kHE;
  s.fire.range = 25;
  CHECK(first_shot(s).modified_th == 3);
}

TEST_CASE("C7 EX: 50L AT Gun hits the rear hull of a KV-1E at 25 hexes: Final TK# 4", "[asl][example]") {
  Situation s = base();
  s.firer.gun = *parse_gun("50L");
  s.firer.vehicle = false;
  s.firer.gun_type = GunType::kNT;
  s.target.armor = Armor{11, 8, 11, 8};  // KV-1E: rear uses the side/rear AF 8
  s.target.facing = Facing::kRear;
  s.fire.range = 25;
  ShotExplain ex;
  const ShotSpec spec = build_shot(s, ShotContext{}, &ex);
  const KillSpec& k = spec.kill[kill_index(Location::kHull, Facing::kRear, false)];
  CHECK(k.possible);
  CHECK(k.final_tk == 4);  // Basic 13, +1 (A), -2 (D) = 12; AF 8
  const AspectKill* hull_rear = nullptr;
  for (const auto& a : ex.kills)
    if (a.aspect == "hull rear" && !a.critical) hull_rear = &a;
  REQUIRE(hull_rear);
  CHECK(hull_rear->basic_tk == 13);
  CHECK(hull_rear->basic_tk + sum_values(hull_rear->mods) == 12);
  CHECK(hull_rear->af == 8);
}

TEST_CASE("C7.34 EX: a 76L firing HE has Basic TK# 7, Final TK# 12 vs unarmored", "[asl][example]") {
  const Gun g = *parse_gun("76L");
  CHECK(basic_tk(g, Ammo::kHE, Nationality::kAmerican) == 7);
  CHECK(unarmored_final_tk(g, Ammo::kHE) == 12);
}

TEST_CASE("C7.31: Russian 76L AFV armament has Basic TK# 13, not 17", "[asl][example]") {
  const Gun g = *parse_gun("76L");
  CHECK(basic_tk(g, Ammo::kAP, Nationality::kRussian) == 13);
  CHECK(basic_tk(g, Ammo::kAP, Nationality::kGerman) == 17);
}

TEST_CASE("D3.71 EX: IS-3 with a circled B11", "[asl][example]") {
  Situation s = base();
  s.firer.nationality = Nationality::kRussian;
  s.firer.gun = *parse_gun("122L");
  s.firer.breakdown = 11;
  s.firer.low_ammo = true;
  SECTION("Original 12: the MA malfunctions normally") {
    const PhaseTrace t = run_script(s, {TH(6, 6)});
    CHECK(t.steps[0].flags & (1u << kFlagMalfunction));
    CHECK_FALSE(t.steps[0].flags & (1u << kFlagDisabled));
    CHECK_FALSE(t.steps[0].flags & (1u << kFlagLowAmmo));
    CHECK(t.end == kEndMalfunction);
  }
  SECTION("Original 11: Low Ammo, no malfunction") {
    const PhaseTrace t = run_script(s, {TH(5, 6)});
    CHECK(t.steps[0].flags & (1u << kFlagLowAmmo));
    CHECK_FALSE(t.steps[0].flags & (1u << kFlagMalfunction));
    CHECK(t.end == kEndRofExhausted);
  }
  SECTION("After Low Ammo: 11 or 12 disable the MA, 10 malfunctions it normally") {
    s.firer.low_ammo_marked = true;
    for (auto [c, w] : {std::pair{5, 6}, std::pair{6, 6}}) {
      const PhaseTrace t = run_script(s, {TH(c, w)});
      CHECK(t.steps[0].flags & (1u << kFlagDisabled));
      CHECK(t.end == kEndMalfunction);
    }
    const PhaseTrace t = run_script(s, {TH(4, 6), TK(6, 5)});  // 10 hits (Modified TH# 10)
    CHECK(t.steps[0].flags & (1u << kFlagMalfunction));
    CHECK_FALSE(t.steps[0].flags & (1u << kFlagDisabled));
    CHECK(t.steps[0].flags & (1u << kFlagHit));  // A9.7: the attack is still resolved
  }
  SECTION("Low Ammo carries over to the next shot of the phase") {
    s.firer.rof = 3;
    s.firer.breakdown = 9;
    s.fire.extra_drm = 5;  // every shot misses: no To Kill DR
    // 3+6 = 9: Low Ammo, colored 3 <= ROF 3 keeps ROF; now B8/X9: 3+6 = 9 disables.
    const PhaseTrace t = run_script(s, {TH(3, 6), TH(3, 6)});
    REQUIRE(t.steps.size() == 2);
    CHECK(t.steps[0].flags & (1u << kFlagLowAmmo));
    CHECK(t.steps[1].flags & (1u << kFlagDisabled));
  }
}

TEST_CASE("C2.5 EX: a 50L AT Gun with ROF 3 changing CA fires that shot at ROF 2", "[asl][example]") {
  Situation s = base();
  s.firer.gun = *parse_gun("50L");
  s.firer.vehicle = false;
  s.firer.gun_type = GunType::kNT;
  s.firer.rof = 3;
  s.fire.ca_change = 1;  // Case A NT +3
  SECTION("colored dr 3 on the CA-changing shot loses ROF") {
    const PhaseTrace t = run_script(s, {TH(3, 6)});  // 9 + 3 = 12 > 10: miss
    CHECK(t.steps.size() == 1);
    CHECK(t.end == kEndRofExhausted);
  }
  SECTION("colored dr 2 fires again, and that next shot is back at ROF 3") {
    s.fire.extra_drm = 4;  // every shot misses: no To Kill DR
    const PhaseTrace t = run_script(s, {TH(2, 6), TH(3, 6), TH(4, 6)});
    CHECK(t.steps.size() == 3);
    CHECK(t.end == kEndRofExhausted);
  }
  SECTION("the ROF 2 and the Case A DRM apply to the first shot only") {
    CHECK(first_shot(s).rof == 2);
    CHECK(first_shot(s).drm == 3);
    CHECK(shot_after(s, 1).rof == 3);
    CHECK(shot_after(s, 1).drm == -1);  // Acquisition -1
  }
}

TEST_CASE("C2.5: a vehicle or a T Gun changing CA keeps its full ROF", "[asl][example]") {
  Situation s = base();
  s.firer.gun = *parse_gun("50L");
  s.firer.rof = 3;
  s.fire.ca_change = 1;
  CHECK(first_shot(s).rof == 3);  // vehicle
  s.firer.vehicle = false;
  s.firer.gun_type = GunType::kT;
  CHECK(first_shot(s).rof == 3);
}

TEST_CASE("C3.7: CH on an Original 2, when only the lowest Final DR hits, CH needs a subsequent dr 1",
          "[asl][example]") {
  Situation s = base();  // Modified TH# 10
  SECTION("lowest Final DR 2 + 7 = 9 < 10: Original 2 is a CH, no subsequent dr") {
    s.fire.extra_drm = 7;
    const PhaseTrace t = run_script(s, {TH(1, 1), TK(6, 5)});
    CHECK(t.steps[0].flags & (1u << kFlagCritical));
  }
  SECTION("lowest Final DR 2 + 8 = 10 == 10: subsequent dr 1 makes the CH") {
    s.fire.extra_drm = 8;
    const PhaseTrace t = run_script(s, {TH(1, 1), DR(1), TK(6, 5)});
    CHECK(t.steps[0].flags & (1u << kFlagCritical));
  }
  SECTION("lowest Final DR == Modified TH#: subsequent dr 2-6 is a normal hull hit") {
    s.fire.extra_drm = 8;
    s.target.armor = Armor{8, 8, 26, 26};
    const PhaseTrace t = run_script(s, {TH(1, 1), DR(4), TK(1, 2)});  // hull: 9 - 8... Final TK# 9, DR 3: burn
    CHECK(t.steps[0].flags & (1u << kFlagHit));
    CHECK_FALSE(t.steps[0].flags & (1u << kFlagCritical));
    CHECK(t.steps[0].outcome == kOutcomeBurn);  // hull (AF 8) not turret (AF 26)
  }
}

TEST_CASE("C3.6: Improbable Hits on an Original 2 and a subsequent dr", "[asl][example]") {
  Situation s = base();
  s.fire.extra_drm = 9;                  // lowest Final DR 11 > 10
  s.target.armor = Armor{8, 8, 26, 26};  // hull kills, turret cannot
  CHECK(run_script(s, {TH(1, 1), DR(1), TK(5, 6)}).steps[0].flags & (1u << kFlagCritical));
  SECTION("dr 2: turret hit") {
    const PhaseTrace t = run_script(s, {TH(1, 1), DR(2), TK(1, 2)});
    CHECK(t.steps[0].flags & (1u << kFlagHit));
    CHECK(t.steps[0].outcome == kOutcomeNoEffect);  // turret AF 26
  }
  SECTION("dr 3: hull hit") {
    const PhaseTrace t = run_script(s, {TH(1, 1), DR(3), TK(1, 2)});
    CHECK(t.steps[0].outcome == kOutcomeBurn);
  }
  SECTION("dr 3 vs a hull-down target, and dr 4-6: miss") {
    CHECK(run_script(s, {TH(1, 1), DR(4)}).steps[0].outcome == kOutcomeMiss);
    CHECK(run_script(s, {TH(1, 1), DR(6)}).steps[0].outcome == kOutcomeMiss);
    s.target.hull_down = true;
    CHECK(run_script(s, {TH(1, 1), DR(3)}).steps[0].outcome == kOutcomeMiss);
  }
  SECTION("no Original 2: miss with no subsequent dr") {
    CHECK(run_script(s, {TH(1, 2)}).steps[0].outcome == kOutcomeMiss);
  }
}
