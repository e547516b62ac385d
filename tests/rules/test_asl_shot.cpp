// Scripted dice through the reference interpreter: each line of the To Hit, To Kill,
// malfunction, depletion and Rate of Fire rules.
#include <algorithm>

#include "asl_test_util.h"
#include "salvo/sim/exact.h"
#include "support/named.h"

using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {
constexpr std::uint32_t bit(int f) { return 1u << f; }
}  // namespace

// base(): German 75L AP vs AF 8 front at 6 hexes. Modified TH# 10, DRM 0.
// Final TK# = 17 + 0 (Case D, 3-6 hexes, >= 65mm) - 8 = 9.

TEST_CASE("C3.3: a Final DR <= Modified TH# hits, C3.9 turret if colored < white", "[asl][th]") {
  Situation s = base();
  s.fire.buttoned_up = true;                                          // Case I +1
  CHECK(run_script(s, {TH(4, 6)}).steps[0].outcome == kOutcomeMiss);  // 10 + 1 = 11
  const PhaseTrace t = run_script(s, {TH(3, 6), TK(6, 6)});           // 9 + 1 = 10: hit
  CHECK(t.steps[0].flags & bit(kFlagHit));
  CHECK(t.steps[0].counts[kCounterHits] == 1);
  CHECK(t.steps[0].counts[kCounterShots] == 1);
}

TEST_CASE("C7.7 AFV Destruction Table, each line (Final TK# 9)", "[asl][tk]") {
  Situation s = base();
  s.target.armor = Armor{8, 8, 8, 8};
  SECTION("DR <= half TK#: burning wreck") {
    CHECK(run_script(s, {TH(2, 3), TK(1, 3)}).steps[0].outcome == kOutcomeBurn);
  }
  SECTION("DR < TK#: eliminated") { CHECK(run_script(s, {TH(2, 3), TK(4, 4)}).steps[0].outcome == kOutcomeEliminated); }
  SECTION("DR 5 > 4.5: eliminated, not burning") {
    CHECK(run_script(s, {TH(2, 3), TK(2, 3)}).steps[0].outcome == kOutcomeEliminated);
  }
  SECTION("DR = TK#, turret hit: Shock") {
    CHECK(run_script(s, {TH(2, 3), TK(4, 5)}).steps[0].outcome == kOutcomeShock);
  }
  SECTION("DR = TK#, hull hit: Immobilized") {
    CHECK(run_script(s, {TH(3, 2), TK(4, 5)}).steps[0].outcome == kOutcomeImmobilized);
  }
  SECTION("DR = TK# + 1, non-HE: possible Shock (hull or turret)") {
    CHECK(run_script(s, {TH(3, 2), TK(5, 5)}).steps[0].outcome == kOutcomePossibleShock);
    CHECK(run_script(s, {TH(2, 3), TK(5, 5)}).steps[0].outcome == kOutcomePossibleShock);
  }
  SECTION("DR >= TK# + 2: no effect") {
    CHECK(run_script(s, {TH(2, 3), TK(5, 6)}).steps[0].outcome == kOutcomeNoEffect);
  }
  SECTION("flags follow the outcome") {
    const auto f = run_script(s, {TH(2, 3), TK(1, 3)}).steps[0].flags;
    CHECK(f & bit(kFlagBurn));
    CHECK(f & bit(kFlagKill));
    CHECK_FALSE(f & bit(kFlagEliminated));
  }
  SECTION("note A: red CS# takes -1 on the burn check only") {
    s.target.red_cs = true;
    CHECK(run_script(s, {TH(2, 3), TK(2, 3)}).steps[0].outcome == kOutcomeBurn);  // 2*(5-1) = 8 <= 9
    CHECK(run_script(s, {TH(2, 3), TK(4, 5)}).steps[0].outcome == kOutcomeShock);
  }
}

TEST_CASE("C7.35: an Original TK DR of 12 is a Dud, whatever the Final TK#", "[asl][tk]") {
  Situation s = base();
  s.firer.gun = *parse_gun("88LL");  // Basic TK# 27: Final TK# 19
  const PhaseTrace t = run_script(s, {TH(2, 3), TK(6, 6)});
  CHECK(t.steps[0].outcome == kOutcomeDud);
  CHECK(t.steps[0].flags & bit(kFlagDud));
  CHECK_FALSE(t.steps[0].flags & bit(kFlagKill));
  CHECK(run_script(s, {TH(2, 3), TK(5, 6)}).steps[0].outcome == kOutcomeEliminated);
}

TEST_CASE("C7.7: HE at TK# + 1 immobilizes (hull) or shocks (turret)", "[asl][tk]") {
  Situation s = base();
  s.firer.ammo = Ammo::kHE;            // 75L HE: Basic TK# 7 (C7.34), no Case D
  s.target.armor = Armor{1, 1, 1, 1};  // Final TK# 6
  CHECK(run_script(s, {TH(3, 2), TK(3, 4)}).steps[0].outcome == kOutcomeImmobilized);
  CHECK(run_script(s, {TH(2, 3), TK(3, 4)}).steps[0].outcome == kOutcomeShock);
  CHECK(run_script(s, {TH(2, 3), TK(3, 3)}).steps[0].outcome == kOutcomeShock);
  CHECK(run_script(s, {TH(2, 3), TK(4, 4)}).steps[0].outcome == kOutcomeNoEffect);
  CHECK(run_script(s, {TH(2, 3), TK(1, 2)}).steps[0].outcome == kOutcomeBurn);
}

TEST_CASE("C7.311: AP vs an unarmored vehicle uses a Final TK#, doubled on a CH", "[asl][tk]") {
  Situation s = base();
  s.target.unarmored = true;                                                    // 75L AP: Final TK# 9 (65-84mm)
  CHECK(run_script(s, {TH(2, 3), TK(2, 2)}).steps[0].outcome == kOutcomeBurn);  // 4 <= 4.5
  CHECK(run_script(s, {TH(2, 3), TK(4, 4)}).steps[0].outcome == kOutcomeEliminated);
  CHECK(run_script(s, {TH(2, 3), TK(4, 5)}).steps[0].outcome == kOutcomeImmobilized);  // = TK#, any location
  CHECK(run_script(s, {TH(2, 3), TK(5, 5)}).steps[0].outcome == kOutcomeNoEffect);     // no possible Shock
  CHECK(run_script(s, {TH(1, 1), TK(5, 6)}).steps[0].outcome == kOutcomeEliminated);   // CH: 18
  CHECK(run_script(s, {TH(1, 1), TK(6, 6)}).steps[0].outcome == kOutcomeDud);
}

TEST_CASE("C3.72: a CH doubles the Basic TK# before the other Cases", "[asl][tk]") {
  Situation s = base();
  s.target.armor = Armor{18, 18, 18, 18};  // normal hit: 17 - 18 = -1; CH: 34 - 18 = 16
  CHECK(run_script(s, {TH(2, 3), TK(1, 1)}).steps[0].outcome == kOutcomeNoEffect);
  const PhaseTrace t = run_script(s, {TH(1, 1), TK(6, 6 - 1)});
  CHECK(t.steps[0].outcome == kOutcomeEliminated);  // 11 < 16
  CHECK(t.steps[0].flags & bit(kFlagCritical));
}

TEST_CASE("C7.21: rear Target Facing adds 1 to the TK#, D1.62 superior turret armor", "[asl][tk]") {
  Situation s = base();
  s.target.facing = Facing::kRear;
  s.target.armor = Armor{8, 6, 8, 6};  // rear uses side AF 6: 17 + 1 - 6 = 12
  CHECK(run_script(s, {TH(3, 2), TK(6, 6 - 0)}).steps[0].outcome == kOutcomeDud);
  CHECK(run_script(s, {TH(3, 2), TK(6, 5)}).steps[0].outcome == kOutcomeEliminated);  // 11 < 12
  s.target.turret_armor = TurretArmor::kSuperior;                                // turret side 6 -> 8: 17 + 1 - 8 = 10
  CHECK(run_script(s, {TH(2, 3), TK(5, 5)}).steps[0].outcome == kOutcomeShock);  // 10 = TK#
}

TEST_CASE("C7.24: Case D 'NA' means the hit cannot kill and no TK DR is rolled", "[asl][tk]") {
  Situation s = base();
  s.firer.gun = *parse_gun("37L");  // 37-57mm AP row: NA from 61 hexes
  s.fire.range = 61;
  s.fire.extra_drm = -10;
  const PhaseTrace t = run_script(s, {TH(2, 3)});
  CHECK(t.steps[0].flags & bit(kFlagHit));
  CHECK(t.steps[0].outcome == kOutcomeNoEffect);
}

TEST_CASE("C3.8: Multiple Hits for a 15-40mm Gun on Original doubles, the firer keeps the better", "[asl][th]") {
  Situation s = base();
  s.firer.gun = *parse_gun("37L");     // AP Basic TK# 9, Case D 0 at 6 hexes
  s.target.armor = Armor{1, 1, 4, 4};  // hull 8, turret 5
  SECTION("two TK DRs; the first decides the second hit's location") {
    // Doubles 3-3: hull hit. TK1 (2,5) = 7 < 8: eliminated; colored < white: second hit on the
    // turret (Final TK# 5): TK2 (1,1) = 2 <= 2.5: burning wreck. Best: burn.
    const PhaseTrace t = run_script(s, {TH(3, 3), TK(2, 5), TK(1, 1)});
    CHECK(t.steps[0].flags & bit(kFlagMultipleHit));
    CHECK(t.steps[0].counts[kCounterHits] == 2);
    CHECK(t.steps[0].outcome == kOutcomeBurn);
  }
  SECTION("second hit on the hull when the first TK DR's colored >= white") {
    // TK1 (6,6): Dud; TK2 (3,3) = 6 vs hull Final TK# 8: eliminated.
    CHECK(run_script(s, {TH(3, 3), TK(6, 6), TK(3, 3)}).steps[0].outcome == kOutcomeEliminated);
    // TK1 (5,4) = 9 = TK# + 1 on the hull: possible Shock; TK2 (4,5), hull again: the same.
    CHECK(run_script(s, {TH(3, 3), TK(5, 4), TK(4, 5)}).steps[0].outcome == kOutcomePossibleShock);
  }
  SECTION("not for a 75mm Gun, nor a CH, nor a non-doubles hit") {
    CHECK_FALSE(run_script(s, {TH(2, 3), TK(6, 6)}).steps[0].flags & bit(kFlagMultipleHit));
    CHECK_FALSE(run_script(s, {TH(1, 1), TK(6, 6)}).steps[0].flags & bit(kFlagMultipleHit));
    s.firer.gun = *parse_gun("75L");
    CHECK_FALSE(run_script(s, {TH(3, 3), TK(6, 6)}).steps[0].flags & bit(kFlagMultipleHit));
  }
}

TEST_CASE("D4.2: a hull-down target is hit only on the turret (and by a CH)", "[asl][th]") {
  Situation s = base();
  s.target.hull_down = true;
  CHECK(run_script(s, {TH(3, 2)}).steps[0].outcome == kOutcomeMiss);             // hull hit: none
  CHECK(run_script(s, {TH(3, 3)}).steps[0].outcome == kOutcomeMiss);             // doubles: hull
  CHECK(run_script(s, {TH(2, 3), TK(4, 5)}).steps[0].outcome == kOutcomeShock);  // turret, = TK#
  // C3.9 EXC: a CH vs a HD target strikes the turret: 34 - 8 = 26; DR 9 <= 13: burning wreck.
  CHECK(run_script(s, {TH(1, 1), TK(4, 5)}).steps[0].outcome == kOutcomeBurn);
  CHECK(run_script(s, {TH(1, 1), TK(6, 6)}).steps[0].flags & bit(kFlagCritical));
}

TEST_CASE("C3.7, C3.8: vs hull down, a non-CH Original 2 is a normal turret hit and a Multiple Hit", "[asl][th]") {
  Situation s = base();
  s.target.hull_down = true;
  s.firer.gun = *parse_gun("20L");
  s.target.armor = Armor{1, 1, 1, 1};
  s.fire.extra_drm = 8;  // Modified TH# 10: only an Original 2 (Final 10) hits
  SECTION("subsequent dr 2-6: not a CH; two hits, the second located by the first TK DR") {
    // TK1 colored < white: the second hit strikes the turret, and is rolled for
    const PhaseTrace t = run_script(s, {TH(1, 1), DR(3), TK(1, 2), TK(6, 6)});
    CHECK(t.steps[0].flags & bit(kFlagMultipleHit));
    CHECK_FALSE(t.steps[0].flags & bit(kFlagCritical));
    CHECK(t.steps[0].counts[kCounterHits] == 2);
    // TK1 colored >= white: the second hit strikes the hull, which a HD target does not show
    // (D4.2): no TK DR for it, and it is no hit: the shot scored one
    const PhaseTrace hull = run_script(s, {TH(1, 1), DR(3), TK(2, 1)});
    CHECK(hull.steps[0].flags & bit(kFlagMultipleHit));
    CHECK(hull.steps[0].counts[kCounterHits] == 1);
    // ... so a Dud on the first TK DR stands (the second hit struck nothing)
    CHECK(run_script(s, {TH(1, 1), DR(3), TK(6, 6)}).steps[0].outcome == kOutcomeDud);
  }
  SECTION("subsequent dr 1: a CH, never a Multiple Hit") {
    CHECK_FALSE(run_script(s, {TH(1, 1), DR(1), TK(6, 6)}).steps[0].flags & bit(kFlagMultipleHit));
  }
  SECTION("exact: P(Multiple Hit) on the first shot = 1/36 x 5/6 = 5/216") {
    s.fire.max_shots = 1;
    CHECK(enumerate_phase(s).first_flags[kFlagMultipleHit] == Approx(5.0 / 216).epsilon(1e-12));
    // Hits: a CH (1/6) is one; otherwise one on the turret plus a second when the first TK DR's
    // colored die is below the white (15/36): 1/36 x (1/6 + 5/6 x (1 + 15/36)) = 97/2592.
    const salvo::RollProgram p = compile(s).program;
    CHECK(salvo::test::counter(p, salvo::sim::solve_exact(p).first, "hits") == Approx(97.0 / 2592).epsilon(1e-12));
  }
}

TEST_CASE("D3.2: same-hex fire takes Target Facing from the colored dr", "[asl][th]") {
  Situation s = base();
  s.fire.same_hex = true;
  s.fire.range = 0;
  // Case E +2. Hull front 26, hull side/rear 1. TK at 0 hexes: Case D +1.
  s.target.armor = Armor{26, 1, 26, 26};
  // colored 1-2: rear: 17 + 1 + 1 - 1 = 18 -> DR 11 eliminated
  CHECK(run_script(s, {TH(2, 1), TK(5, 6)}).steps[0].outcome == kOutcomeEliminated);
  // colored 3-4: side: 17 + 1 - 1 = 17
  CHECK(run_script(s, {TH(3, 1), TK(5, 6)}).steps[0].outcome == kOutcomeEliminated);
  // colored 5-6: front: 17 + 1 - 26 = -8: no effect; 5+1+2 = 8 hits
  CHECK(run_script(s, {TH(5, 1), TK(1, 1)}).steps[0].outcome == kOutcomeNoEffect);
}

TEST_CASE("A9.7/C2.28: Original TH DR >= B# malfunctions, the attack is still resolved", "[asl][malfunction]") {
  Situation s = base();
  s.firer.breakdown = 10;
  s.firer.rof = 6;  // keep ROF on any colored dr: the malfunction alone ends the phase
  const PhaseTrace t = run_script(s, {TH(4, 6), TK(1, 2)});  // 10: hit, turret
  CHECK(t.steps[0].flags & bit(kFlagMalfunction));
  CHECK(t.steps[0].outcome == kOutcomeBurn);
  CHECK(t.end == kEndTargetDestroyed);
  const PhaseTrace u = run_script(s, {TH(4, 6), TK(6, 6)});
  CHECK(u.end == kEndMalfunction);
  const PhaseTrace v = run_script(s, {TH(4, 5), TK(6, 6), TH(6, 6)});  // 12 - 1: miss, malfunction
  CHECK(v.steps.size() == 2);
  CHECK(v.end == kEndMalfunction);
  SECTION("a printed X#: >= X# disables") {
    s.firer.x_number = 11;
    const PhaseTrace x = run_script(s, {TH(5, 6)});  // 11: miss
    CHECK(x.steps[0].flags & bit(kFlagDisabled));
    CHECK(x.steps[0].flags & bit(kFlagMalfunction));
  }
}

TEST_CASE("C2.24: the phase goes on while the colored dr <= ROF", "[asl][rof]") {
  Situation s = base();
  s.firer.rof = 2;
  s.fire.extra_drm = 6;  // Final DR >= 8: only low rolls hit; these all miss
  const PhaseTrace t = run_script(s, {TH(1, 6), TH(2, 6), TH(3, 6)});
  CHECK(t.steps.size() == 3);
  CHECK(t.end == kEndRofExhausted);
  SECTION("Acquisition: -1 then -2 on later shots at the same target (C6.5)") {
    CHECK(shot_after(s, 0).drm == 6);
    CHECK(shot_after(s, 1).drm == 5);
    CHECK(shot_after(s, 2).drm == 4);
    CHECK(shot_after(s, 5).drm == 4);
  }
  SECTION("a shot cap ends the phase") {
    s.fire.max_shots = 2;
    const PhaseTrace u = run_script(s, {TH(1, 6), TH(1, 6)});
    CHECK(u.end == kEndShotCap);
  }
  SECTION("the Advancing Fire Phase loses Multiple ROF (C5.2) and adds Case B") {
    s.fire.phase = Phase::kAdvancing;
    const PhaseTrace u = run_script(s, {TH(1, 6)});
    CHECK(u.end == kEndRofExhausted);
    CHECK(first_shot(s).drm == 8);
  }
}

TEST_CASE("C5.6: Intensive Fire adds one shot at +2 with B# -2, after the normal ROF", "[asl][rof]") {
  Situation s = base();
  s.firer.rof = 1;
  s.fire.intensive_fire = true;
  s.fire.extra_drm = 6;
  SECTION("ROF lost, then the Intensive Fire shot; it never retains ROF") {
    const PhaseTrace t = run_script(s, {TH(1, 6), TH(2, 6), TH(1, 6)});
    CHECK(t.steps.size() == 3);
    CHECK(t.end == kEndIntensiveFireDone);
    const ShotSpec spec = build_shot(s, ShotContext{2, false, false, true}, nullptr);
    CHECK(spec.drm == 6 - 2 + 2);
    CHECK(spec.breakdown == 10);
    CHECK(spec.x_number == 12);  // A.11
  }
  SECTION("on the Intensive Fire shot 10 malfunctions and 12 disables") {
    CHECK(run_script(s, {TH(2, 6), TH(4, 6)}).steps[1].flags & bit(kFlagMalfunction));
    CHECK_FALSE(run_script(s, {TH(2, 6), TH(5, 6)}).steps[1].flags & bit(kFlagDisabled));
    CHECK(run_script(s, {TH(2, 6), TH(6, 6)}).steps[1].flags & bit(kFlagDisabled));
  }
}

TEST_CASE("A.11: B# reductions are cumulative and the X# stays the original B#", "[asl][malfunction]") {
  // A.11 EX: a German LMG B12 on Sustained Fire is B10/X12; captured as well, B8/X12.
  Situation s = base();  // B12, no X#
  s.firer.captured = true;
  s.fire.intensive_fire = true;
  s.firer.rof = 0;
  const ShotSpec first = first_shot(s);
  CHECK(first.breakdown == 10);
  CHECK(first.x_number == 12);
  const ShotSpec intensive = build_shot(s, ShotContext{1, false, false, true}, nullptr);
  CHECK(intensive.breakdown == 8);  // captured -2, Intensive Fire -2
  CHECK(intensive.x_number == 12);  // not 10: the X# is the original B#
  SECTION("the Intensive Fire shot: 8-11 malfunction, only 12 disables") {
    s.fire.extra_drm = 6;  // the first shot misses on these rolls and loses ROF (ROF 0)
    const PhaseTrace t = run_script(s, {TH(1, 2), TH(5, 6)});  // 11 on the IF shot
    CHECK(t.steps[1].flags & bit(kFlagMalfunction));
    CHECK_FALSE(t.steps[1].flags & bit(kFlagDisabled));
    CHECK(run_script(s, {TH(1, 2), TH(6, 6)}).steps[1].flags & bit(kFlagDisabled));
  }
  SECTION("D3.71 Low Ammo with another reduction: a circled B11 marked Low Ammo, captured, is B8/X11") {
    Situation u = base();
    u.firer.breakdown = 11;
    u.firer.low_ammo = true;
    u.firer.low_ammo_marked = true;
    u.firer.captured = true;
    const ShotSpec spec = build_shot(u, ShotContext{.low_ammo_marked = true}, nullptr);
    CHECK(spec.breakdown == 8);
    CHECK(spec.x_number == 11);
  }
}

TEST_CASE("A21.11-.13: captured or non-qualified use: red TH#, Case H, B# -2, Multiple ROF -1, both doubled",
          "[asl][malfunction][rof]") {
  // A21.12: "Captured weapons must reduce any Multiple ROF capability by one. All attacks by
  // captured ordnance must use the red To Hit Numbers and add a +2 DRM". A21.13: non-qualified
  // friendly MMC apply the 21.11-.12 penalties; non-qualified enemy MMC double them.
  Situation s = base();  // German 75L, B12; at 8 hexes the black Basic TH# is 9, the red 8
  s.firer.vehicle = false;
  s.fire.range = 8;
  {
    ShotExplain e;
    build_shot(s, ShotContext{}, &e);
    REQUIRE(e.basic_th == 9);
  }
  s.firer.rof = 2;
  const auto spec_of = [](const Situation& v) {
    ShotExplain e;
    const ShotSpec spec = build_shot(v, ShotContext{}, &e);
    return std::make_pair(spec, e);
  };
  for (const int mode : {1, 2, 3}) {  // captured, non-qualified, both
    Situation v = s;
    v.firer.captured = (mode & 1) != 0;
    v.firer.non_qualified = (mode & 2) != 0;
    const int level = mode == 3 ? 2 : 1;
    INFO("captured " << v.firer.captured << ", non-qualified " << v.firer.non_qualified);
    const auto [spec, e] = spec_of(v);
    CHECK(e.basic_th == 8);  // the red number
    CHECK(spec.drm == 2 * level);
    CHECK(spec.breakdown == 12 - 2 * level);
    CHECK(spec.x_number == 12);
    CHECK(spec.rof == 2 - level);
  }
  // ROF 1 captured: no Multiple ROF left, one shot a phase whatever the colored dr.
  s.firer.rof = 1;
  s.firer.captured = true;
  s.fire.extra_drm = 6;
  CHECK(run_script(s, {TH(1, 6)}).steps.size() == 1);  // colored 1 misses, and the ROF is gone
  s.fire.extra_drm = 0;
  const salvo::RollProgram p = compile(s).program;
  CHECK(salvo::test::counter(p, salvo::sim::solve_exact(p).run, "shots") == Approx(1.0).margin(1e-12));
  // A vehicle's weapons are not manned by non-qualified Infantry.
  s.firer.captured = false;
  s.firer.non_qualified = true;
  s.firer.vehicle = true;
  REQUIRE(check(s).has_value());
  CHECK(check(s)->key() == std::string("firer.non_qualified"));
}

TEST_CASE("C6.57: a concealed target is acquired only by the shot that removes its concealment (a hit)", "[asl][rof]") {
  Situation s = base();
  s.target.concealed = true;
  s.target.armor = Armor{26, 26, 26, 26};  // a hit does nothing: the phase goes on
  s.firer.rof = 3;
  s.fire.range = 8;      // Modified TH# 9
  s.fire.extra_drm = 3;  // + Case K 2: hits on an Original DR <= 4
  // Misses keep Case K and gain no Acquisition
  CHECK(build_shot(s, ShotContext{.shots_fired = 2, .acquiring_shots = 0}, nullptr).drm == 5);
  // After the hit: no Case K, and that shot acquired the target
  CHECK(build_shot(s, ShotContext{.shots_fired = 2, .revealed = true, .acquiring_shots = 1}, nullptr).drm == 2);
  // Scripted: miss (ROF kept), miss, hit on the turret (no effect), then the fourth shot at
  // 9 - 3 + 1 = DR 7 hits, since its DRM is +3 - 1 = +2; it would have missed at +5.
  const PhaseTrace t = run_script(s, {TH(1, 5), TH(2, 4), TH(1, 2), TK(3, 3), TH(4, 3), TK(5, 5)});
  REQUIRE(t.steps.size() == 4);
  CHECK_FALSE(t.steps[1].flags & bit(kFlagHit));
  CHECK(t.steps[2].flags & bit(kFlagHit));
  CHECK(t.steps[3].flags & bit(kFlagHit));
  SECTION("the Area Target Type acquires it shot by shot; a hit still removes the concealment") {
    s.target.type = TargetType::kArea;
    s.firer.ammo = Ammo::kHE;
    const auto area_drm = [&](ShotContext c) { return build_shot(s, c, nullptr).drm; };
    CHECK(area_drm(ShotContext{.shots_fired = 1}) - area_drm(ShotContext{}) == -1);  // Acquisition after a miss
    CHECK(area_drm(ShotContext{.shots_fired = 1, .revealed = true}) - area_drm(ShotContext{}) == -3);  // no Case K
  }
  SECTION("exact: P(hit in the phase) = (6/36) / (1 - 12/36) = 1/4, misses never acquiring") {
    // Hits: DR 2-4 (6/36). Misses that keep ROF 3: colored 1 & white 4-6, 2 & 3-6, 3 & 2-6 (12/36).
    s.target.armor = Armor{8, 8, 8, 8};
    const salvo::RollProgram p = compile(s).program;
    CHECK(salvo::test::flag(p, salvo::sim::solve_exact(p).run, "hit") == Approx(0.25).epsilon(1e-12));
  }
}

TEST_CASE("C8.9: special ammunition depletion against the Depletion #", "[asl][ammo]") {
  Situation s = base();
  s.firer.ammo = Ammo::kAPCR;
  s.firer.depletion = 5;
  s.firer.fallback_ammo = Ammo::kAP;
  s.firer.rof = 6;
  s.fire.extra_drm = 8;  // only 2 hits (and is a CH subsequent-dr case): all rolls below miss
  SECTION("< Depletion #: the ammo is used, and is still there") {
    const PhaseTrace t = run_script(s, {TH(1, 3), TH(6, 6)});
    CHECK_FALSE(t.steps[0].flags & bit(kFlagDepleted));
    CHECK(shot_after(s, 1).ammo == Ammo::kAPCR);
  }
  SECTION("= Depletion #: used, and runs out for the rest of the scenario") {
    const PhaseTrace t = run_script(s, {TH(2, 3), TH(6, 6)});
    CHECK(t.steps[0].flags & bit(kFlagDepleted));
    CHECK(t.steps[0].fired);
  }
  SECTION("> Depletion #: no such ammo, no shot; the next TH DR is with the fallback") {
    const PhaseTrace t = run_script(s, {TH(3, 3), TH(6, 6)});
    REQUIRE(t.steps.size() == 2);
    CHECK_FALSE(t.steps[0].fired);
    CHECK(t.steps[0].outcome == kOutcomeNoShot);
    CHECK(t.steps[0].counts[kCounterShots] == 0);
    CHECK(t.steps[1].fired);
    CHECK(t.end == kEndMalfunction);
  }
  SECTION("> Depletion # with no fallback: the phase ends") {
    s.firer.fallback_ammo = Ammo::kNone;
    const PhaseTrace t = run_script(s, {TH(3, 3)});
    CHECK(t.end == kEndOutOfAmmo);
  }
  SECTION("> Depletion # and a malfunction: considered fired (C8.9)") {
    s.firer.breakdown = 10;
    const PhaseTrace t = run_script(s, {TH(4, 6)});
    CHECK(t.steps[0].fired);
    CHECK(t.steps[0].flags & bit(kFlagMalfunction));
    CHECK(t.steps[0].flags & bit(kFlagDepleted));
    CHECK(t.end == kEndMalfunction);
  }
  SECTION("C8.2: elite adds 1 to the Depletion #") {
    s.firer.elite = true;
    CHECK(first_shot(s).depletion == 6);
  }
}

TEST_CASE("stop_on: destroyed, any effect, never", "[asl][rof]") {
  Situation s = base();
  s.firer.rof = 6;
  s.fire.max_shots = 2;
  SECTION("destroyed (default): a kill ends the phase") {
    CHECK(run_script(s, {TH(2, 3), TK(1, 1)}).end == kEndTargetDestroyed);
    CHECK(run_script(s, {TH(2, 3), TK(4, 5), TH(2, 3), TK(6, 6)}).end == kEndShotCap);  // shock: go on
  }
  SECTION("effect: a shock ends it") {
    s.fire.stop_on = StopOn::kEffect;
    CHECK(run_script(s, {TH(2, 3), TK(4, 5)}).end == kEndTargetEffect);
  }
  SECTION("never: keep firing") {
    s.fire.stop_on = StopOn::kNever;
    CHECK(run_script(s, {TH(2, 3), TK(1, 1), TH(2, 3), TK(6, 6)}).end == kEndShotCap);
  }
  SECTION("never: a destroyed target's fate is settled; later shots only hit or miss") {
    s.fire.stop_on = StopOn::kNever;
    // Shot 1 eliminates (TK DR 5 < Final TK#, 2 x 5 above it: no burn); shot 2 would burn (TK
    // DR 2) a live target, but this one is a wreck: a hit, no effect, no burn.
    const PhaseTrace t = run_script(s, {TH(2, 3), TK(2, 3), TH(2, 3), TK(1, 1)});
    REQUIRE(t.steps.size() == 2);
    CHECK(t.steps[0].outcome == kOutcomeEliminated);
    CHECK(t.steps[1].outcome == kOutcomeNoEffect);
    CHECK((t.steps[1].flags & (1u << kFlagHit)) != 0);
    CHECK((t.steps[1].flags & ((1u << kFlagBurn) | (1u << kFlagKill) | (1u << kFlagEliminated))) == 0);
    CHECK(t.steps[1].counts[kCounterHits] == 1);
    CHECK(t.end == kEndShotCap);
    // The compiled program is held to this interpreter by exhaustive enumeration on the "stop
    // never" situations of test_asl_engines.cpp, and to tests/differential/ammo_model.py.
  }
}

TEST_CASE("C5.31-.32: Case C1/C2 count the MP in LOS at each Bounding First Fire shot", "[asl][rof][bounding]") {
  // C5.3: a vehicle with Multiple ROF spends another MP before each further MPh shot, so with 1 MP
  // in LOS at the first shot: C2 (1 MP), C2 (2 MP), C1 (3 MP), then neither.
  Situation s = base();
  s.firer.gun = *parse_gun("75");
  s.fire.range = 5;  // Modified TH# 10
  s.fire.phase = Phase::kBounding;
  s.fire.los_mp = 1.0;
  s.firer.rof = 1;
  s.target.armor = Armor{26, 26, 26, 26};  // no kill: the phase goes on while the ROF is kept
  const auto drm = [&](int shots) { return shot_after(s, shots).drm; };
  CHECK(drm(0) == 6);  // Case C +4 (Case B +2, T +2), C2 +2
  CHECK(drm(1) == 6);
  CHECK(drm(2) == 5);  // C1
  CHECK(drm(3) == 4);
  CHECK(drm(7) == 4);
  // Exact P(no hit in the phase). At DRM +6 a shot misses on DR >= 5 (30/36), keeping ROF 1 on
  // colored 1 with white 4-6 (3/36) and ending otherwise (27/36); at +5, 2/36 and 24/36; at +4,
  // 1/36 and 20/36, repeated: P = 27/36 + 3/36 27/36 + (3/36)^2 24/36 + (3/36)^2 2/36 (20/36)/(1 - 1/36).
  const double a = 1.0 / 36;
  const double never = 27 * a + 3 * a * 27 * a + 9 * a * a * 24 * a + 9 * a * a * 2 * a * (20 * a) / (1 - a);
  const salvo::RollProgram p = compile(s).program;
  CHECK(salvo::test::flag(p, salvo::sim::solve_exact(p).run, "hit") == Approx(1 - never).epsilon(1e-12));
}

TEST_CASE("D3.32: after Bounding First Fire that kept its ROF, one more shot in the AFPh with Case C",
          "[asl][rof][bounding]") {
  Situation s = base();
  s.override_.modified_th = 10;
  s.fire.phase = Phase::kBounding;
  s.fire.los_mp = 2.0;  // Case C2 +2 on the MPh shot only
  s.firer.rof = 2;
  s.fire.max_shots = 1;
  s.fire.follow_up = true;
  ShotExplain mph, afph;
  CHECK(build_shot(s, ShotContext{}, &mph).drm == 6);  // Case C +4 (T), C2 +2
  const ShotSpec follow = build_shot(s, ShotContext{.shots_fired = 1, .follow_up = true}, &afph);
  CHECK(follow.drm == 4);  // Case C only; no Acquisition without a gyrostabilizer (C6.55)
  CHECK(follow.rof == 0);
  REQUIRE(!afph.drm.empty());
  CHECK(afph.drm[0].what == "Case C: AFPh follow-up shot, D3.32 (Case B +2, T/ST +2)");
  // MPh: 2+1 = 3, Final 9 hits; colored 2 <= ROF 2 keeps the ROF. AFPh: 3+2 = 5, Final 9 hits
  // (with C2 it would be 11, a miss). TK 12: Duds.
  const PhaseTrace kept = run_script(s, {TH(2, 1), TK(6, 6), TH(3, 2), TK(6, 6)});
  CHECK(kept.end == kEndFollowUpDone);
  REQUIRE(kept.steps.size() == 2);
  CHECK((kept.steps[1].flags & (1u << kFlagHit)) != 0);
  // Colored 3 > ROF 2: the ROF is exhausted in the MPh, no AFPh shot.
  CHECK(run_script(s, {TH(3, 1), TK(6, 6)}).end == kEndShotCap);
  // Without follow_up the MPh shots end the phase.
  s.fire.follow_up = false;
  CHECK(run_script(s, {TH(2, 1), TK(6, 6)}).end == kEndShotCap);
}

TEST_CASE("C4.3, C7.32: the German 28LL and 40LL use the APCR table for AP too, and never deplete", "[asl][ammo][tk]") {
  // C7.32: they "always use this table unless firing HE"; C4.3: not subject to APCR depletion,
  // so no fallback ammunition is ever needed (the default fallback, AP, is not even checked).
  for (const char* gun : {"28LL", "40LL"}) {
    for (const Ammo ammo : {Ammo::kAP, Ammo::kAPCR}) {
      Situation s = base();
      s.firer.gun = *parse_gun(gun);
      s.firer.ammo = ammo;
      s.fire.range = 4;
      INFO(gun << (ammo == Ammo::kAP ? " AP" : " APCR"));
      REQUIRE_FALSE(check(s).has_value());
      const ShotSpec spec = first_shot(s);
      CHECK_FALSE(spec.depletion.has_value());
      const KillSpec& k = spec.kill[static_cast<std::size_t>(kill_index(Location::kHull, Facing::kFront, false))];
      // Basic TK# 12 (28LL) or 14 (40LL) from the APCR table, Case D +1 at 4 hexes (APCR <= 57mm), AF 8.
      CHECK(k.final_tk == (std::string(gun) == "28LL" ? 12 : 14) + 1 - 8);
    }
  }
}

TEST_CASE("C5.3, C5.63: Case C holds Case B's +2, so AFPh Motion Fire does not add Case B again",
          "[asl][th][bounding]") {
  // A gyrostabilized vehicle in Motion firing in its AFPh: Case C (+2 Case B, +1 stabilized) and
  // Case C4 (+1) = +4, nothing more (C5.3: "add the +2 DRM of Case B to ... Case C").
  Situation s = base();
  s.fire.phase = Phase::kAdvancing;
  s.fire.motion = true;
  s.firer.stabilized = true;
  CHECK(first_shot(s).drm == 4);
  s.firer.stabilized = false;  // T: Case C +4, and the lower die counts double
  const ShotSpec t = first_shot(s);
  CHECK(t.drm == 4);
  CHECK(t.double_lower_die);
  s.fire.motion = false;  // not moving: Case B alone
  CHECK(first_shot(s).drm == 2);
  s.fire.firer_terrain = Terrain::kWoods;
  CHECK(first_shot(s).drm == 3);
}

TEST_CASE("C6.17: each further Defensive First Fire shot finds the moving target at least 1 MP on", "[asl][th]") {
  // C6.17 EX: "using Case J2 for the first shot, J1 for the second and third shots, and Case J
  // for the fourth and fifth".
  Situation s = base();
  s.fire.phase = Phase::kDefensive;
  s.target.moving = true;
  s.target.mp_in_los = 1.0;
  s.firer.rof = 3;
  const int expected[] = {4, 3, 3, 2, 2};
  for (int k = 0; k < 5; ++k) {
    INFO("shot " << k + 1);
    CHECK(shot_after(s, k).drm == expected[k] - std::min(2, k));  // Acquisition -1/-2
  }
  // Over a phase (ROF 1, three shots at most, a target that cannot be harmed): shot 1 (+4) hits
  // on an Original DR <= 6 (15/36); shot 2 (J1 +3, Acquisition -1) on <= 8 (26/36), fired after a
  // colored 1 (1/6); shot 3 (+3 -2) on <= 9 (30/36), after two (1/36).
  s.firer.rof = 1;
  s.override_.modified_th = 10;
  s.override_.basic_tk = 5;
  s.target.armor = Armor{18, 18, 18, 18};
  s.fire.max_shots = 3;
  const double hits = 15.0 / 36 + (1.0 / 6) * (26.0 / 36) + (1.0 / 36) * (30.0 / 36);
  const salvo::RollProgram p = compile(s).program;
  CHECK(salvo::test::counter(p, salvo::sim::solve_exact(p).run, "hits") == Approx(hits).epsilon(1e-12));
}

TEST_CASE("C5.3, D3.11: a bow-mounted weapon's Case C is the NT one", "[asl][th][bounding]") {
  // Case C: Case B +2 plus the gun type, "T/ST +2, NT +3"; a bow-mounted weapon is NT (D3.11).
  Situation s = base();
  s.fire.phase = Phase::kBounding;
  s.firer.gun_type = GunType::kT;
  CHECK(first_shot(s).drm == 4);
  s.firer.bow_mounted = true;
  CHECK(first_shot(s).drm == 5);
  s.firer.stabilized = true;  // a gyrostabilized gun: +1 whatever its mount
  CHECK(first_shot(s).drm == 3);
}

TEST_CASE("C6.3: no Case L against a Motion or Non-Stopped vehicle, but against moving Infantry", "[asl][th]") {
  // Hand-derived from C6.3 ("NA vs a Motion/Non-Stopped vehicle"): at 1 hex a stopped vehicle
  // gets Case L -2; the same vehicle fired on while it moves gets Case J +2 and no Case L.
  Situation s = base();
  s.fire.range = 1;
  CHECK(first_shot(s).drm == -2);  // L
  s.target.moving = true;
  CHECK(first_shot(s).drm == 2);  // J, no L (before: J + L = 0)
  s.fire.range = 2;
  CHECK(first_shot(s).drm == 2);  // J, no L -1 (before: 1)
  // Personnel moving in the open: Case J, and Case L still applies (C6.3 names vehicles only).
  Situation p = base();
  p.target.type = TargetType::kInfantry;
  p.fire.range = 1;
  p.target.moving = true;
  CHECK(first_shot(p).drm == 0);  // J +2, L -2
  // The first shot, with the Modified TH# set to 10: a moving vehicle at 1 hex is hit on a Final
  // DR <= 10 - 2 = 8, 26/36 (before, with Case L: DRM 0, <= 10, 33/36).
  s.fire.range = 1;
  s.override_.modified_th = 10;
  const salvo::RollProgram program = compile(s).program;
  CHECK(salvo::test::flag(program, salvo::sim::solve_exact(program).first, "hit") == Approx(26.0 / 36).epsilon(1e-12));
}

TEST_CASE("D3.45: an Inexperienced Crew's quasi-Armor Leader adds +1 to the To Hit DR", "[asl][th]") {
  // base(): Modified TH# 10, DRM 0. With the crew's +1 a Final DR <= 10 needs an Original DR
  // <= 9: 9 hits on an Original 9 without it, misses with it.
  Situation s = base();
  s.firer.inexperienced_crew = true;
  CHECK(run_script(s, {TH(4, 6)}).steps[0].outcome == kOutcomeMiss);  // 10 + 1 = 11
  CHECK(run_script(s, {TH(3, 6), TK(6, 6)}).steps[0].flags & bit(kFlagHit));
  const Compiled c = compile(s);
  CHECK(salvo::test::flag(c.program, salvo::sim::solve_exact(c.program).first, "hit") ==
        Approx(30.0 / 36).epsilon(1e-12));  // Original DR <= 9: 30 of 36
  // Not with a real Armor Leader, not on a non-vehicular Gun.
  s.firer.armor_leader = -1;
  REQUIRE(check(s));
  CHECK(check(s)->key() == "firer.armor_leader");
  s.firer.armor_leader = 0;
  s.firer.vehicle = false;
  REQUIRE(check(s));
  CHECK(check(s)->key() == "firer.inexperienced_crew");
}

TEST_CASE("C5.7-.72: a Deliberate Immobilization hull hit immobilizes, a turret hit does nothing", "[asl][th]") {
  // base(): Modified TH# 10. Case G +5: a hit on an Original DR <= 5, 10 of 36; C3.9: a hull hit
  // when colored >= white: (1,1) (2,1) (2,2) (3,1) (3,2) (4,1), 6 of 36; turret hits (1,2) (1,3)
  // (1,4) (2,3) have no effect. No To Kill DR, no CH.
  Situation s = base();
  s.fire.deliberate_immobilization = true;
  CHECK(run_script(s, {TH(2, 1)}).steps[0].outcome == kOutcomeImmobilized);
  CHECK(run_script(s, {TH(1, 1)}).steps[0].outcome == kOutcomeImmobilized);  // an Original 2: no CH (C5.72)
  CHECK(run_script(s, {TH(1, 4)}).steps[0].outcome == kOutcomeNoEffect);     // turret
  CHECK(run_script(s, {TH(2, 4)}).steps[0].outcome == kOutcomeMiss);         // 6 + 5 = 11
  Compiled c = compile(s);
  auto r = salvo::sim::solve_exact(c.program);
  CHECK(salvo::test::flag(c.program, r.first, "hit") == Approx(10.0 / 36).epsilon(1e-12));
  CHECK(salvo::test::flag(c.program, r.first, "immobilized") == Approx(6.0 / 36).epsilon(1e-12));
  CHECK(salvo::test::flag(c.program, r.first, "critical") == 0.0);
  CHECK(salvo::test::flag(c.program, r.first, "kill") == 0.0);

  // ROF 1 and an Acquisition of -2 that Case G does not use (C5.71): every shot as the first;
  // the phase goes on on a colored 1 without immobilization, 5 of 36 ((1,2)..(1,6)), and stops
  // once the target is immobilized. P = (6/36) / (1 - 5/36) = 6/31.
  s.firer.rof = 1;
  s.fire.acquisition = 2;
  c = compile(s);
  r = salvo::sim::solve_exact(c.program);
  CHECK(salvo::test::flag(c.program, r.run, "immobilized") == Approx(6.0 / 31).epsilon(1e-12));
  CHECK(salvo::test::flag(c.program, r.first, "hit") == Approx(10.0 / 36).epsilon(1e-12));
}

TEST_CASE("C5.71: where a Deliberate Immobilization attempt is refused", "[asl][th]") {
  Situation s = base();
  s.fire.deliberate_immobilization = true;
  REQUIRE_FALSE(check(s));
  auto refused = [&](auto edit) {
    Situation v = s;
    edit(v);
    const auto e = check(v);
    REQUIRE(e);
    CHECK(e->key() == "fire.deliberate_immobilization");
  };
  refused([](Situation& v) { v.fire.range = 7; });
  refused([](Situation& v) { v.target.hull_down = true; });
  refused([](Situation& v) {
    v.target.type = TargetType::kArea;
    v.firer.ammo = Ammo::kHE;
  });
  refused([](Situation& v) { v.fire.turns = 2; });
  // 75L AP Basic TK# 17 (C7.31) against a lowest hull AF of 18: not > it.
  refused([](Situation& v) { v.target.armor = Armor{26, 18, 26, 18}; });
  // The lowest hull AF counts, not the aspect hit: 17 > 11 allows it against the front's 26.
  Situation front = s;
  front.target.armor = Armor{26, 11, 26, 11};
  CHECK_FALSE(check(front));
}
