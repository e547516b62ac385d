// Light Anti-Tank Weapons (C13, asl_latw.h): hand-derived exact values for each weapon's To Hit
// at several ranges, the PF Check, a Panzerfaust attempt end to end, To Kill, breakdown, the
// readings; the exact engine against the reference interpreter's enumeration and Monte Carlo;
// the refusals.
//
// Every expected value is worked out by hand in the comment beside it. 2d6 counts of an Original
// DR <= n (out of 36): n = 2: 1, 3: 3, 4: 6, 5: 10, 6: 15, 7: 21, 8: 26, 9: 30, 10: 33, 11: 35.
// Of the hits, a turret hit has colored dr < white dr (C3.9); an Original 2 (1, 1) is a CH, on
// the hull.
#include <map>
#include <string>
#include <vector>

#include "asl_cases.h"
#include "asl_test_util.h"
#include "salvo/rules/asl_latw.h"
#include "salvo/rules/asl_sensitivity.h"
#include "salvo/sim/exact.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::asl;
using testing::Case;
using testing::cases;
using testing::check_cases;
using testing::solve;
using testing::Solved;

namespace {

constexpr double k36 = 36.0;
constexpr double k1296 = 1296.0;

// A LATW at an AFV with AF 8 all round, front, 1 hex away, in Prep Fire, August 1944. The To Hit
// tables and X# are made-up counter values (salvo reads the player's): the Bazooka's and
// Panzerschreck's [11, 9, 8, 7, 4] with X11 and X10, the PIAT's [11, 9, 7, 5].
Situation latw(Weapon w) {
  Situation s;
  s.name = latw_name(w);
  s.firer.weapon = w;
  s.firer.vehicle = false;
  s.firer.nationality = w == Weapon::kBazooka ? Nationality::kAmerican
                        : w == Weapon::kPiat  ? Nationality::kBritish
                                              : Nationality::kGerman;
  s.firer.year = 1944;
  s.firer.month = 8;
  if (w == Weapon::kBazooka || w == Weapon::kPanzerschreck) {
    s.firer.to_hit = {11, 9, 8, 7, 4};
    s.firer.x_number = w == Weapon::kBazooka ? 11 : 10;
  }
  if (w == Weapon::kPiat) s.firer.to_hit = {11, 9, 7, 5};
  s.target.armor = Armor{8, 8, 8, 8};
  s.fire.range = 1;
  return s;
}

/// latw(w) at `range` hexes against a target of AF `af` all round.
Situation latw(Weapon w, int range, int af) {
  Situation s = latw(w);
  s.fire.range = range;
  s.target.armor = Armor{af, af, af, af};
  return s;
}

// P(hit) of one shot: the phase's hits over its shots (a Panzerfaust's shot follows its check).
double hit_per_shot(const Solved& s) { return s.hits() / s.shots(); }

}  // namespace

TEST_CASE("LATW: the PF Check before a Panzerfaust's shot (C13.31, A25.76)", "[asl][latw]") {
  // A shot on a Final dr <= 3; an Original 6 never a shot, it pins the firer (breaks a pinned one).
  const auto shot = [](const Situation& s) { return solve(s).shots(); };
  Situation pf = latw(Weapon::kPanzerfaust);
  const Solved squad = solve(pf);
  CHECK(squad.shots() == Approx(3 / 6.0).margin(1e-12));  // dr 1-3
  CHECK(squad.phase("firer_pinned") == Approx(1 / 6.0).margin(1e-12));
  CHECK(squad.end("pf_check_failed") == Approx(3 / 6.0).margin(1e-12));
  CHECK(squad.outcome("no_shot") == Approx(3 / 6.0).margin(1e-12));
  CHECK_FALSE(squad.names_flag("firer_broken"));
  CHECK_FALSE(squad.names_flag("malfunction"));  // no breakdown (C13.36)

  Situation s = pf;
  s.firer.personnel = Personnel::kHalfSquad;  // +1: dr 1-2
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
  s.firer.personnel = Personnel::kCrew;  // +1
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
  s = pf;
  s.firer.year = 1945;  // -1: dr 1-4 (an Original 5 is a Final 4)
  s.firer.month = 1;
  CHECK(shot(s) == Approx(4 / 6.0).margin(1e-12));
  s.firer.personnel = Personnel::kSmc;  // +2 - 1: dr 1-2
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
  s.firer.personnel = Personnel::kSquad;
  s.firer.cx = true;  // +1 - 1: dr 1-3
  CHECK(shot(s) == Approx(3 / 6.0).margin(1e-12));
  s = pf;
  s.target.unarmored = true;  // +1 vs other than an AFV: dr 1-2
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
  s = pf;
  s.firer.leader = -2;  // no leadership drm on the check (C13.31's delta)
  CHECK(shot(s) == Approx(3 / 6.0).margin(1e-12));
  s = pf;
  s.fire.pinned = true;  // an Original 6 breaks a pinned firer
  const Solved pinned = solve(s);
  CHECK(pinned.phase("firer_broken") == Approx(1 / 6.0).margin(1e-12));
  CHECK_FALSE(pinned.names_flag("firer_pinned"));
  s = pf;
  s.firer.nationality = Nationality::kFinnish;  // A25.76: a Final dr <= 2
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
  s.firer.year = 1945;  // no date drm for the Finns
  s.firer.month = 3;
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
  s = latw(Weapon::kPfk);
  s.firer.year = 1943;  // +1 in August-September 1943: dr 1-2
  s.firer.month = 8;
  CHECK(shot(s) == Approx(2 / 6.0).margin(1e-12));
}

TEST_CASE("LATW: a Panzerfaust at a Sherman's front at 1 hex, end to end (C13.3-.36)", "[asl][latw]") {
  // examples/latw/panzerfaust-at-sherman.toml: a squad in 8/1944, Prep Fire, no DRM.
  // PF Check: a shot 3/6, firer pinned 1/6. To Hit: Basic TH# 10 - 2 = 8 (C13.33), no Case L
  // (a reading, C6.3): hits 26/36, of them the CH (1, 1). To Kill: HEAT 31 vs hull front AF 6
  // (Final 25) or turret front AF 8 (Final 23): burns on a DR <= 12 or <= 11, so every TK DR but
  // the Dud (12) burns, 35/36; a CH (62) too. An Original TH DR 12: a miss and the firer's
  // Casualty Reduction (C13.36).
  Situation s = latw(Weapon::kPanzerfaust);
  s.target.armor = Armor{6, 3, 8, 6};
  const Solved r = solve(s);
  check_phases(r, {{"hit", 3 / 6.0 * 26 / k36},
                   {"critical", 3 / 6.0 / k36},
                   {"kill", 3 / 6.0 * 26 / k36 * 35 / k36},
                   {"burn", 3 / 6.0 * 26 / k36 * 35 / k36},
                   {"eliminated", 0},
                   {"dud", 3 / 6.0 * 26 / k36 / k36},
                   {"firer_pinned", 1 / 6.0},
                   {"firer_casualty", 3 / 6.0 / k36}});
  CHECK(r.outcome("miss") == Approx(3 / 6.0 * 10 / k36).margin(1e-12));
  CHECK(r.end("target_destroyed") == Approx(3 / 6.0 * 26 / k36 * 35 / k36).margin(1e-12));
  CHECK(r.end("rof_exhausted") == Approx(3 / 6.0 * (1 - 26 / k36 * 35 / k36)).margin(1e-12));
  CHECK(r.first("hit") == Approx(r.phase("hit")).margin(1e-12));  // one shot

  // Inexperienced Personnel: an Original 11 or 12 harms the firer (C13.36, A19.32): 3/36.
  s.firer.inexperienced = true;
  CHECK(solve(s).phase("firer_casualty") == Approx(3 / 6.0 * 3 / k36).margin(1e-12));
}

TEST_CASE("LATW: the Panzerfaust's To Hit by range (C13.32-.33)", "[asl][latw]") {
  // Basic TH# 10 - 2 a hex: range 0 10 (Original <= 10: 33/36), 1 8 (26), 2 6 (15: the C13.33
  // EX's Modified TH# 6), 3 4 (6, in 1945); the AFPh adds Case C3 +2 (C5.34): at 2 hexes <= 4,
  // 6/36 (the C13.33 EX), none as Opportunity Fire; a leader's -1 at 1 hex: <= 9, 30/36.
  Situation s = latw(Weapon::kPanzerfaust);
  s.fire.range = 0;
  s.fire.same_hex = true;
  CHECK(hit_per_shot(solve(s)) == Approx(33 / k36).margin(1e-12));
  s = latw(Weapon::kPanzerfaust);
  CHECK(hit_per_shot(solve(s)) == Approx(26 / k36).margin(1e-12));
  s.fire.range = 2;
  CHECK(hit_per_shot(solve(s)) == Approx(15 / k36).margin(1e-12));
  s.fire.phase = Phase::kAdvancing;
  CHECK(hit_per_shot(solve(s)) == Approx(6 / k36).margin(1e-12));
  s.fire.opportunity = true;
  CHECK(hit_per_shot(solve(s)) == Approx(15 / k36).margin(1e-12));
  s = latw(Weapon::kPanzerfaust);
  s.firer.year = 1945;
  s.fire.range = 3;
  CHECK(hit_per_shot(solve(s)) == Approx(6 / k36).margin(1e-12));
  s = latw(Weapon::kPanzerfaust);
  s.firer.leader = -1;
  CHECK(hit_per_shot(solve(s)) == Approx(30 / k36).margin(1e-12));
}

TEST_CASE("LATW: a hit only on the lowest Final DR is a CH only on a subsequent dr of 1 (C3.7)", "[asl][latw]") {
  // A PF in 1945 (PF Check 4/6) at 3 hexes (TH# 4) at a moving tank in the DFPh (Case J +2): the
  // lowest Final DR, 4, is the only one that hits: on an Original 2 a subsequent dr 1 is a CH,
  // 2-6 a normal hull hit (C3.7 EXC). Hull front AF 26: a normal hit's Final TK# 31 - 26 = 5
  // kills on a DR of 2-4 (6/36); the CH's 62 - 26 = 36 on all but the Dud (35/36).
  Situation s = latw(Weapon::kPanzerfaust);
  s.firer.year = 1945;
  s.fire.range = 3;
  s.fire.phase = Phase::kFinal;
  s.target.moving = true;
  s.target.armor = Armor{26, 26, 0, 0};
  const Solved r = solve(s);
  check_phases(
      r,
      {{"hit", 4 / 6.0 / k36}, {"critical", 4 / 6.0 / k36 / 6}, {"kill", 4 / 6.0 / k36 * (35.0 / 216 + 30.0 / 216)}});
}

TEST_CASE("LATW: a Bazooka's own To Hit table, hit location and hull down (C13.42, C3.9, D4.2)", "[asl][latw]") {
  // A BAZ 44 at 3 hexes: Basic TH# 7, hits 21/36: turret (colored < white, DR <= 7) 9, the CH 1,
  // hull 11. Turret AF 26 (TK 16 - 26: nothing), hull AF 0 (Final TK# 16: all but the Dud kill):
  // kills = (11 + 1)/36 x 35/36. Hull down: only turret hits and the CH, which is then a turret
  // hit (C3.7 EXC): 10/36 hit; its Final TK# 32 - 26 = 6 kills on a DR of 2-5, 10/36.
  // X11: an Original 11-12 removes it, 3/36 (C13.47).
  Situation s = latw(Weapon::kBazooka);
  s.fire.range = 3;
  s.target.armor = Armor{0, 0, 26, 26};
  const Solved r = solve(s);
  check_phases(r, {{"hit", 21 / k36},
                   {"critical", 1 / k36},
                   {"kill", 12 / k36 * 35 / k36},
                   {"disabled", 3 / k36},
                   {"malfunction", 3 / k36}});
  CHECK_FALSE(r.names_flag("multiple_hit"));  // C3.8: no Multiple Hits with a LATW
  s.target.hull_down = true;
  const Solved hd = solve(s);
  CHECK(hd.phase("hit") == Approx(10 / k36).margin(1e-12));
  CHECK(hd.phase("kill") == Approx(1 / k36 * 10 / k36).margin(1e-12));
  // Each range of the table: 0 11 (35: the X# removes it on 11 and 12, the shot still resolved,
  // A9.7), 1 9 (30), 2 8 (26), 4 4 (6).
  for (const auto& [range, hits] : {std::pair{0, 35}, std::pair{1, 30}, std::pair{2, 26}, std::pair{4, 6}}) {
    Situation at = latw(Weapon::kBazooka);
    at.fire.range = range;
    at.fire.same_hex = range == 0;
    INFO("range " << range);
    CHECK(solve(at).phase("hit") == Approx(hits / k36).margin(1e-12));
  }
}

TEST_CASE("LATW: Case C3 in the AFPh and for a backblast from a building (C5.34, C13.8)", "[asl][latw]") {
  // A BAZ 44 at 3 hexes (TH# 7): the AFPh +2 (Original <= 5: 10/36); from a building too, +4
  // (<= 3: 3/36); as Opportunity Fire neither (21/36); Prep Fire from a building +2 (10/36).
  Situation s = latw(Weapon::kBazooka);
  s.fire.range = 3;
  s.fire.phase = Phase::kAdvancing;
  CHECK(solve(s).phase("hit") == Approx(10 / k36).margin(1e-12));
  s.fire.firer_terrain = Terrain::kBuilding;
  CHECK(solve(s).phase("hit") == Approx(3 / k36).margin(1e-12));
  s.fire.opportunity = true;
  CHECK(solve(s).phase("hit") == Approx(21 / k36).margin(1e-12));
  s.fire.opportunity = false;
  s.fire.phase = Phase::kPrep;
  s.fire.firer_terrain = Terrain::kRubble;
  CHECK(solve(s).phase("hit") == Approx(10 / k36).margin(1e-12));
  // The PIAT has no backblast (C13.6) but takes the AFPh's +2: at 1 hex, TH# 9, <= 7: 21/36.
  Situation piat = latw(Weapon::kPiat);
  piat.fire.phase = Phase::kAdvancing;
  CHECK(solve(piat).phase("hit") == Approx(21 / k36).margin(1e-12));
}

TEST_CASE("LATW: an Improbable Hit on a LATW table (C3.6)", "[asl][latw]") {
  // A BAZ 44 at 3 hexes (TH# 7) with +6: the lowest Final DR, 8, misses; an Original 2 hits on a
  // subsequent dr 1 (CH), 2 (turret) or 3 (hull): 1/36 x 3/6; hull down: 1/36 x 2/6.
  Situation s = latw(Weapon::kBazooka);
  s.fire.range = 3;
  s.fire.extra_drm = 6;
  CHECK(solve(s).phase("hit") == Approx(3 / (6 * k36)).margin(1e-12));
  CHECK(solve(s).phase("critical") == Approx(1 / (6 * k36)).margin(1e-12));
  s.target.hull_down = true;
  CHECK(solve(s).phase("hit") == Approx(2 / (6 * k36)).margin(1e-12));
}

TEST_CASE("LATW: HEAT To Kill, a Panzerschreck against AF 18 (C7.33, C7.4-.7)", "[asl][latw]") {
  // A PSK at 1 hex (TH# 9): 30 hits, the CH and 29 others: 13 turret (colored < white, DR <= 9),
  // 16 hull. Final TK# 26 - 18 = 8: a TK DR <= 4 burns (6/36), 5-7 eliminates (15/36), 8
  // immobilizes a hull hit and shocks a turret hit (5/36), 9 is a possible Shock (4/36), 12 a Dud.
  // The CH: 52 - 18 = 34, every DR but the Dud burns. X10: an Original 10-12 removes it (6/36).
  Situation s = latw(Weapon::kPanzerschreck, 1, 18);
  const Solved r = solve(s);
  check_phases(r, {{"burn", (29 * 6 + 35) / k1296},
                   {"eliminated", 29 * 15 / k1296},
                   {"kill", (29 * 21 + 35) / k1296},
                   {"immobilized", 16 * 5 / k1296},
                   {"shock", 13 * 5 / k1296},
                   {"possible_shock", 29 * 4 / k1296},
                   {"dud", 30 / k1296},
                   {"disabled", 6 / k36}});
  // The rear: +1 (C7.21), Final TK# 9: eliminated on a DR of 5-8, 20/36.
  s.target.facing = Facing::kRear;
  CHECK(solve(s).phase("eliminated") == Approx(29 * 20 / k1296).margin(1e-12));
}

TEST_CASE("LATW: the Bazooka's To Kill by date (C13.43)", "[asl][latw]") {
  // In 1943 a BAZ 43, Basic TK# 13, against AF 11: Final TK# 2. At 2 hexes (TH# 8): 26 hits,
  // the CH and 25 others, 11 turret and 14 hull. A TK DR 2 (1/36) immobilizes a hull hit and
  // shocks a turret hit; 3 (2/36) is a possible Shock. The CH: 26 - 11 = 15, burning on a DR <= 7
  // (21/36), eliminating on 8-11 (14/36). From 1944 (BAZ 44+, 16) the Final TK# is 5.
  Situation s = latw(Weapon::kBazooka, 2, 11);
  s.firer.year = 1943;
  const Solved r = solve(s);
  check_phases(r, {{"kill", 35 / k1296},
                   {"burn", 21 / k1296},
                   {"immobilized", 14 / k1296},
                   {"shock", 11 / k1296},
                   {"possible_shock", 25 * 2 / k1296}});
  s.firer.year = 1944;  // Final TK# 5: non-CH hits kill on a DR of 2-4 (6/36)
  CHECK(solve(s).phase("kill") == Approx((25 * 6 + 35) / k1296).margin(1e-12));
}

TEST_CASE("LATW: the ATR on the C3 table, with Case L and Case D's <= 25mm row (C13.2-.26)", "[asl][latw]") {
  // A German ATR (Basic TK# 5) at 1 hex at AF 1 all round, rear: C3 black 10, Case L -2: every
  // DR hits (36/36); 35 non-CH hits, 15 turret and 20 hull. TK# 5 + 2 (Case D, 0-1 hex) + 1
  // (rear) - 1 = 7: burn on a DR <= 3 (3/36), eliminated 4-6 (12/36), 7 immobilizes / shocks
  // (6/36), 8 possible Shock (5/36). The CH: 10 + 2 + 1 - 1 = 12: burn <= 6 (15/36), eliminated
  // 7-11 (20/36). B12: an Original 12 malfunctions it (1/36).
  Situation s = latw(Weapon::kAtr, 1, 1);
  s.target.facing = Facing::kRear;
  const Solved r = solve(s);
  check_phases(r, {{"hit", 1.0},
                   {"kill", (35 * 15 + 35) / k1296},
                   {"burn", (35 * 3 + 15) / k1296},
                   {"immobilized", 20 * 6 / k1296},
                   {"shock", 15 * 6 / k1296},
                   {"possible_shock", 35 * 5 / k1296},
                   {"malfunction", 1 / k36}});
  // At a moving tank: no Case L, Case J +2: Original <= 8, 26/36.
  s.target.moving = true;
  CHECK(solve(s).phase("hit") == Approx(26 / k36).margin(1e-12));
  // The Russian ATR reads the red listing, 6 (C7.31): its CH at 12 + 2 + 1 - 1 = 14 burns on a DR <= 7.
  s.target.moving = false;
  s.firer.nationality = Nationality::kRussian;
  CHECK(solve(s).phase("burn") == Approx((35 * 6 + 21) / k1296).margin(1e-12));  // non-CH 8: DR <= 4
}

TEST_CASE("LATW: an ATR's Multiple ROF builds no Acquisition (C2.24, C6.5)", "[asl][latw]") {
  // ROF 1 at 7 hexes (C3 black 9: 30/36 a shot), AF 26 (no kill possible): it fires again on a
  // colored dr of 1, so 1 + 1/6 + 1/36 + ... = 6/5 shots, and every shot hits 30/36: 1 hit. With
  // Acquisition (-1, -2) the later shots would hit more often.
  Situation s = latw(Weapon::kAtr, 7, 26);
  s.firer.rof = 1;
  const Solved r = solve(s);
  CHECK(r.shots() == Approx(6 / 5.0).margin(1e-12));
  CHECK(r.hits() == Approx(1.0).margin(1e-12));
}

TEST_CASE("LATW: breakdown, Inexperienced and captured use (C13.47, C13.63, A19.32, A21.11, A.11)", "[asl][latw]") {
  // The PIAT's B10: an Original 10-12 malfunctions it, 6/36. Inexperienced: B9, and the B10 an
  // X10 (A.11): 9 malfunctions (4/36), 10-12 eliminates (6/36).
  Situation piat = latw(Weapon::kPiat);
  CHECK(solve(piat).phase("malfunction") == Approx(6 / k36).margin(1e-12));
  CHECK(solve(piat).phase("disabled") == Approx(0).margin(1e-12));
  piat.firer.inexperienced = true;
  CHECK(solve(piat).phase("malfunction") == Approx(10 / k36).margin(1e-12));
  CHECK(solve(piat).phase("disabled") == Approx(6 / k36).margin(1e-12));
  // An Inexperienced BAZ: X11 - 1 = X10, 6/36.
  Situation baz = latw(Weapon::kBazooka);
  baz.firer.inexperienced = true;
  CHECK(solve(baz).phase("disabled") == Approx(6 / k36).margin(1e-12));
  // An ATR whose counter prints X12 has no B# (A9.7): captured, X10, removed on 10-12 (6/36);
  // Inexperienced, X11 (3/36).
  Situation atr = latw(Weapon::kAtr);
  atr.firer.x_number = 12;
  atr.firer.captured = true;
  atr.fire.range = 3;
  CHECK(solve(atr).phase("disabled") == Approx(6 / k36).margin(1e-12));
  CHECK(solve(atr).phase("malfunction") == Approx(6 / k36).margin(1e-12));
  atr.firer.captured = false;
  atr.firer.inexperienced = true;
  CHECK(solve(atr).phase("disabled") == Approx(3 / k36).margin(1e-12));
  // A captured PSK fired by Americans: Case H +2, X10 - 2 = X8 (a reading: no red table); at 2
  // hexes (TH# 8): Original <= 6, 15/36; removed on 8-12, 15/36.
  Situation psk = latw(Weapon::kPanzerschreck);
  psk.firer.nationality = Nationality::kAmerican;
  psk.firer.captured = true;
  psk.fire.range = 2;
  CHECK(solve(psk).phase("hit") == Approx(15 / k36).margin(1e-12));
  CHECK(solve(psk).phase("disabled") == Approx(15 / k36).margin(1e-12));
}

TEST_CASE("LATW: a Panzerfaust at an unarmored truck (C13.31, C7.331)", "[asl][latw]") {
  // PF Check +1 (not an AFV): a shot 2/6. At 1 hex 26 hits, the CH and 25 others. Final TK# 11:
  // burn on a DR <= 5 (10/36), eliminated 6-10 (23/36), 11 immobilized (2/36). The CH: 22, every
  // DR but the Dud burns.
  Situation s = latw(Weapon::kPanzerfaust);
  s.target.unarmored = true;
  const Solved r = solve(s);
  check_phases(r, {{"kill", 2 / 6.0 * (25 * 33 + 35) / k1296},
                   {"burn", 2 / 6.0 * (25 * 10 + 35) / k1296},
                   {"immobilized", 2 / 6.0 * 25 * 2 / k1296}});
}

TEST_CASE("LATW: Deliberate Immobilization with a Bazooka (C5.7-.72)", "[asl][latw]") {
  // At 2 hexes (TH# 8) with Case G +5: Original <= 3, of which (1, 1) and (2, 1) are hull hits,
  // which immobilize (no TK DR, no CH): 2/36. Basic TK# 16 > the lowest hull AF 8.
  Situation s = latw(Weapon::kBazooka);
  s.fire.range = 2;
  s.fire.deliberate_immobilization = true;
  const Solved r = solve(s);
  check_phases(r, {{"hit", 3 / k36}, {"immobilized", 2 / k36}, {"kill", 0}});
}

namespace {

// LATW situations for the engines: each weapon, the PF Check's outcomes, CH and Improbable Hits,
// hull down, rear, breakdown, ROF.
std::vector<Situation> engine_cases() {
  using testing::variant;
  std::vector<Situation> v;
  Situation pf = latw(Weapon::kPanzerfaust);
  pf.target.armor = Armor{6, 3, 8, 6};
  v.push_back(variant(pf, "PF at a Sherman, 1 hex", [](Situation&) {}));
  v.push_back(variant(pf, "PF pinned firer, Inexperienced", [](Situation& s) {
    s.fire.pinned = true;
    s.firer.inexperienced = true;
  }));
  v.push_back(variant(pf, "PF 1945, 3 hexes, moving target", [](Situation& s) {
    s.firer.year = 1945;
    s.fire.range = 3;
    s.fire.phase = Phase::kFinal;
    s.target.moving = true;
    s.target.armor = Armor{26, 26, 0, 0};
  }));
  v.push_back(variant(pf, "PF HS at a truck", [](Situation& s) {
    s.firer.personnel = Personnel::kHalfSquad;
    s.target.unarmored = true;
  }));
  Situation baz = latw(Weapon::kBazooka);
  v.push_back(variant(baz, "BAZ 44, 3 hexes, hull down", [](Situation& s) {
    s.fire.range = 3;
    s.target.armor = Armor{0, 0, 26, 26};
    s.target.hull_down = true;
  }));
  v.push_back(variant(baz, "BAZ 44, Improbable Hits", [](Situation& s) {
    s.fire.range = 3;
    s.fire.extra_drm = 6;
  }));
  v.push_back(variant(baz, "BAZ 43 in the AFPh from a building", [](Situation& s) {
    s.firer.year = 1943;
    s.fire.phase = Phase::kAdvancing;
    s.fire.firer_terrain = Terrain::kBuilding;
    s.target.armor = Armor{11, 11, 11, 11};
  }));
  Situation psk = latw(Weapon::kPanzerschreck);
  v.push_back(variant(psk, "PSK rear at AF 18", [](Situation& s) {
    s.target.armor = Armor{18, 18, 18, 18};
    s.target.facing = Facing::kRear;
  }));
  v.push_back(variant(psk, "PSK captured, range 0", [](Situation& s) {
    s.firer.nationality = Nationality::kAmerican;
    s.firer.captured = true;
    s.fire.range = 0;
    s.fire.same_hex = true;
  }));
  v.push_back(variant(latw(Weapon::kPiat), "PIAT Inexperienced, leader", [](Situation& s) {
    s.firer.inexperienced = true;
    s.firer.leader = -1;
    s.target.concealed = true;
  }));
  Situation atr = latw(Weapon::kAtr);
  v.push_back(variant(atr, "ATR rear AF 1", [](Situation& s) {
    s.target.armor = Armor{1, 1, 1, 1};
    s.target.facing = Facing::kRear;
  }));
  v.push_back(variant(atr, "ATR ROF 1, 2 shots", [](Situation& s) {
    s.firer.rof = 1;
    s.firer.nationality = Nationality::kRussian;
    s.fire.range = 2;
    s.fire.max_shots = 2;
    s.target.armor = Armor{2, 1, 2, 1};
    s.target.facing = Facing::kSide;
  }));
  return v;
}

}  // namespace

TEST_CASE("LATW: the exact engine equals the reference interpreter's enumeration", "[asl][latw][engines]") {
  for (const Situation& s : engine_cases()) testing::check_exact_equals_enumeration(s, 1e-12);
}

TEST_CASE("LATW: Monte Carlo agrees with exact", "[asl][latw][engines]") {
  test::McAgreement agree;
  std::uint64_t key = 900;
  for (const Situation& s : engine_cases())
    agree.both_engines(compile(s).program, test::mc_options(20261127, key++, 100'000), s.name);
  agree.judge();
  CHECK(agree.size() > 200);
}

TEST_CASE("LATW: what it refuses", "[asl][latw]") {
  std::map<std::string, Situation> bases = {{"base", testing::base()},
                                            {"bazooka", latw(Weapon::kBazooka)},
                                            {"panzerschreck", latw(Weapon::kPanzerschreck)},
                                            {"piat", latw(Weapon::kPiat)},
                                            {"panzerfaust", latw(Weapon::kPanzerfaust)},
                                            {"pfk", latw(Weapon::kPfk)},
                                            {"atr", latw(Weapon::kAtr)}};
  bases["bazooka, no To Hit table"] = bases["bazooka"];
  bases["bazooka, no To Hit table"].firer.to_hit.clear();
  bases["panzerschreck, no X#"] = bases["panzerschreck"];
  bases["panzerschreck, no X#"].firer.x_number.reset();
  const std::vector<Case> cs = cases("latw-refused.toml", bases);
  check_cases(cs, 24);
  CHECK(cs.size() == 24 + 2);
}

TEST_CASE("LATW: a PIAT team over two turns, repairing its B10 (C13.63, A9.72)", "[asl][latw][duel]") {
  // AF 26: only a CH can harm it (the PIAT's 30 - 26 = 4: a TK DR <= 3, 3/36), which ends the
  // duel in turn 1 with 1/36 x 3/36 = 3/1296. Turn 1 malfunctions on an Original 10-12, 1/6. In
  // the Rally Phase a dr <= 2 repairs it (1/3), a 6 eliminates it (1/6), else it stays out. It
  // fires in turn 2 with 1 - 3/1296 - 1/6 + 1/6 x 1/3 = 1149/1296; eliminated 1/6 x 1/6 = 1/36.
  Situation s = latw(Weapon::kPiat);
  s.target.armor = Armor{26, 26, 26, 26};
  s.fire.turns = 2;
  const Solved r = solve(s);
  CHECK(r.shots() == Approx(1 + 1149 / k1296).margin(1e-12));
  CHECK(r.phase("disabled") == Approx(1 / 36.0).margin(1e-12));
  // A Bazooka's X# removes it for good: it fires in turn 2 unless an Original 11-12 (3/36)
  // removed it or a CH (32 - 26 = 6: a TK DR <= 5, 10/36) destroyed the target in turn 1:
  // 1 + (1296 - 108 - 10)/1296 shots.
  Situation baz = latw(Weapon::kBazooka);
  baz.target.armor = Armor{26, 26, 26, 26};
  baz.fire.turns = 2;
  CHECK(solve(baz).shots() == Approx(1 + 1178 / k1296).margin(1e-12));
}

TEST_CASE("LATW: sensitivity varies Case C3, the backblast, CX and the leader", "[asl][latw][sensitivity]") {
  // A BAZ 44 at 2 hexes (TH# 8) in the AFPh from a building, CX, a leader's -1: DRM +2 +2 +1 -1.
  Situation s = latw(Weapon::kBazooka);
  s.fire.range = 2;
  s.fire.phase = Phase::kAdvancing;
  s.fire.firer_terrain = Terrain::kBuilding;
  s.firer.cx = true;
  s.firer.leader = -1;
  std::vector<std::string> changes;
  for (const Variant& v : sensitivity_variants(s, compile(s).explain))
    changes.push_back(v.rule + (v.worse ? " worse: " : ": ") + v.change);
  CHECK(changes == std::vector<std::string>{
                       "C5.34: fire.phase = \"prep\" (not the AFPh)", "C5.34 worse: fire.extra_drm = 1",
                       "C5.34, C13.8: fire.firer_terrain = \"open\"", "C5.34, C13.8 worse: fire.extra_drm = 1",
                       "A7.531: firer.leader unset (no leader directs it)", "A7.531 worse: firer.leader = 0",
                       "A4.51: firer.cx = false", "A4.51 worse: fire.extra_drm = 1"});
  // Without the AFPh's +2 alone the DRM are +2 +1 -1 = +2 on TH# 8: Original <= 6, 15/36.
  for (const Variant& v : sensitivity_variants(s, compile(s).explain))
    if (v.rule == "C5.34" && !v.worse) CHECK(solve(v.situation).phase("hit") == Approx(15 / k36).margin(1e-12));
}
