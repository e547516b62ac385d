// Infantry fire through the Morale Check (A7-A10, asl_infantry.h): hand-derived exact values
// for the first attack and the phase, both engines, and the refusals.
//
// Every expected value below is worked out by hand from the IFT columns it uses (A7.3, copied
// here from the chart: ASL reference digest §7.1) and 2d6 counts, in the comment beside it.
// Ways of an Original DR o on 2d6: w(o) = 6 - |o - 7|; of those, one is doubles for even o.
#include <cmath>
#include <string>

#include "asl_test_util.h"
#include "salvo/rules/asl_infantry.h"
#include "salvo/rules/asl_sensitivity.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "support/mc_agreement.h"
#include "support/named.h"
#include "support/refusal.h"

using namespace salvo;
using namespace salvo::asl;

namespace {

// 8 FP, no Cowering (firer.cowers = false), no DRM, at a good order squad of morale 7.
// The 8 column (A7.3): Final 2 1KIA, 3 K/2, 4-5 2MC, 6-7 1MC, 8 NMC, 9 PTC, 10+ no effect.
Situation eight_fp() {
  Situation s;
  s.name = "8 FP at a 4-4-7";
  s.firer.weapon = Weapon::kInfantry;
  s.firer.fp = 8;
  s.firer.normal_range = 6;
  s.firer.cowers = false;
  s.target.type = TargetType::kInfantry;
  s.target.morale = 7;
  s.fire.range = 3;
  return s;
}

using testing::solve;
using testing::Solved;
using testing::with;

constexpr double k1296 = 1296.0;  // 36 x 36: an IFT DR, then an MC DR

/// A [[then]] attack of `fp` inherent FP with its Normal Range.
InfantryAttack attack(int fp, int normal_range) {
  InfantryAttack a;
  a.fp = fp;
  a.normal_range = normal_range;
  return a;
}

}  // namespace

TEST_CASE("infantry: the Morale Check against morale 7 without a leader", "[asl][infantry]") {
  const Solved s = solve(eight_fp());
  // One attack (no MG): first attack == phase.
  // eliminated: Final 2 1KIA (1 way); K/2 (o = 3, 2 ways) reduces the squad to a HS whose 2MC
  // Original 12 is a Casualty MC that eliminates it (1 way): 36 + 2 = 38 / 1296.
  CHECK(s.phase("eliminated") == Approx(38 / k1296).margin(1e-12));
  // Casualty Reduction: every K/2 (2 x 36 = 72), and every Original 12 on the MC results o = 4..8
  // (3 + 4 + 5 + 6 + 5 = 23 ways, 1 way each): 95.
  CHECK(s.phase("casualty_reduction") == Approx(95 / k1296).margin(1e-12));
  // broken (a good order unit breaks): the K/2 HS fails its 2MC on d >= 6 but is eliminated on
  // 12: 2 x 25 = 50; 2MC (o = 4, 5: 7 ways) d >= 6: 7 x 26 = 182; 1MC (o = 6, 7: 11 ways) d >= 7:
  // 11 x 21 = 231; NMC (o = 8: 5 ways) d >= 8: 5 x 15 = 75. 538.
  CHECK(s.phase("broken") == Approx(538 / k1296).margin(1e-12));
  // pinned: Final MC DR == 7: 2MC d = 5 (4 ways): 2 x 4 + 7 x 4; 1MC d = 6 (5): 11 x 5; NMC d = 7
  // (6): 5 x 6; PTC (o = 9: 4 ways) a failed TC d >= 8 (15): 4 x 15. 8 + 28 + 55 + 30 + 60 = 181.
  CHECK(s.phase("pinned") == Approx(181 / k1296).margin(1e-12));
  // Heat of Battle: an Original MC DR 2 whenever an MC is rolled: o = 3..8, 25 ways.
  CHECK(s.phase("heat_of_battle") == Approx(25 / k1296).margin(1e-12));
  // The states at the end: broken squad = 2MC/1MC/NMC failures without 12 = (182 - 7) + (231 - 11)
  // + (75 - 5) = 465; reduced_broken = 50 + the 12s on o = 4..8 (23) = 73.
  CHECK(s.outcome("broken") == Approx(465 / k1296).margin(1e-12));
  CHECK(s.outcome("reduced_broken") == Approx(73 / k1296).margin(1e-12));
  CHECK(s.outcome("reduced_pinned") == Approx(8 / k1296).margin(1e-12));
  CHECK(s.outcome("pinned") == Approx(173 / k1296).margin(1e-12));
  CHECK(s.outcome("eliminated") == Approx(38 / k1296).margin(1e-12));
  // broken or worse: broken, Reduced and broken, or eliminated: 465 + 73 + 38 = 576.
  CHECK(s.phase("broken_or_worse") == Approx(576 / k1296).margin(1e-12));
  CHECK(s.end("rof_exhausted") == Approx(1 - 38 / k1296).margin(1e-12));
  CHECK(s.shots() == Approx(1).margin(1e-12));
}

TEST_CASE("infantry: a leader's -1 on the target's Morale Check and Pin TC", "[asl][infantry]") {
  Situation sit = eight_fp();
  sit.target.leader = -1;  // A10.21
  const Solved s = solve(sit);
  // Original 12s do not change: eliminated 38 and Casualty Reduction 95 as without him.
  CHECK(s.phase("eliminated") == Approx(38 / k1296).margin(1e-12));
  CHECK(s.phase("casualty_reduction") == Approx(95 / k1296).margin(1e-12));
  // broken: K/2 HS 2MC d - 1 + 2 > 7: d >= 7 less the 12: 2 x 20; 2MC d >= 7: 7 x 21; 1MC d >= 8:
  // 11 x 15; NMC d >= 9: 5 x 10. 40 + 147 + 165 + 50 = 402.
  CHECK(s.phase("broken") == Approx(402 / k1296).margin(1e-12));
  // pinned: Final 7: 2MC d = 6 (5): 2 x 5 + 7 x 5; 1MC d = 7 (6): 11 x 6; NMC d = 8 (5): 5 x 5; PTC
  // fails on d - 1 > 7, d >= 9 (10): 4 x 10. 10 + 35 + 66 + 25 + 40 = 176.
  CHECK(s.phase("pinned") == Approx(176 / k1296).margin(1e-12));
}

TEST_CASE("infantry: a broken target is Reduced when it fails and eliminated on an Original 12", "[asl][infantry]") {
  Situation sit = eight_fp();
  sit.target.broken = true;  // broken side morale 7 (the default: target.morale)
  const Solved s = solve(sit);
  // eliminated: 1KIA 36; K/2 reduces it to a broken HS whose 2MC fails (d >= 6, 26 ways, a 12
  // included) and eliminates it: 2 x 26 = 52; an Original 12 on the MC results o = 4..8: 23. 111.
  CHECK(s.phase("eliminated") == Approx(111 / k1296).margin(1e-12));
  CHECK(s.phase("broken") == Approx(0).margin(1e-12));  // already broken: never "breaks"
  CHECK(s.phase("pinned") == Approx(0).margin(1e-12));  // A7.305, A7.8: no pins for broken units
}

TEST_CASE("infantry: ELR Replacement and crews", "[asl][infantry]") {
  Situation sit = eight_fp();
  sit.target.elr = 0;  // any failed MC exceeds it
  // replaced: every break (538) and the K/2 HS's Original 12 (2 x 1, final 14 > 7): 540.
  CHECK(solve(sit).phase("replaced") == Approx(540 / k1296).margin(1e-12));
  sit.target.personnel = Personnel::kCrew;
  const Solved crew = solve(sit);
  CHECK(crew.phase("replaced") == Approx(0).margin(1e-12));        // A19.11
  CHECK(crew.phase("heat_of_battle") == Approx(0).margin(1e-12));  // A15.1
  // A crew: K/2 eliminates it (72), 1KIA (36), a Casualty MC (Original 12) on o = 4..8 (23). 131.
  CHECK(crew.phase("eliminated") == Approx(131 / k1296).margin(1e-12));
}

TEST_CASE("infantry: Cowering shifts a column and ends on the 1 FP column", "[asl][infantry]") {
  // 1 FP, no DRM. The 1 column: Final 2-3 1MC, 4 NMC, 5 PTC. Without Cowering (a 0 leader directs
  // it) MC or worse on o <= 4: 1 + 2 + 3 = 6 ways; with it, doubles on the 1 column have no
  // effect: o = 2 and the 2-2 of o = 4 drop out, 4 ways.
  Situation sit = eight_fp();
  sit.firer.fp = 1;
  sit.firer.cowers.reset();  // German: cowers
  CHECK(solve(sit).first("mc_or_worse") == Approx(4 / 36.0).margin(1e-12));
  CHECK(solve(sit).first("cowered") == Approx(6 / 36.0).margin(1e-12));
  sit.firer.leader = 0;
  CHECK(solve(sit).first("mc_or_worse") == Approx(6 / 36.0).margin(1e-12));
  CHECK(solve(sit).first("cowered") == Approx(0).margin(1e-12));
  // 6 FP at -1: PTC or worse on Final <= 8 of the 6 column, o <= 9: non-doubles 2+2+4+4+6+4+4 = 26.
  // Cowering doubles: one column left, the 4 column, PTC or worse to Final 7 (o <= 8: 2-2, 3-3,
  // 4-4 and 1-1: 4); Inexperienced, two columns, the 2 column, to Final 6 (o <= 7: 3).
  sit.firer.leader.reset();
  sit.firer.fp = 6;
  sit.fire.extra_drm = -1;
  CHECK(solve(sit).first("ptc_or_worse") == Approx(30 / 36.0).margin(1e-12));
  sit.firer.inexperienced = true;
  CHECK(solve(sit).first("ptc_or_worse") == Approx(29 / 36.0).margin(1e-12));
  sit.firer.nationality = Nationality::kFinnish;  // Finns do not cower (A7.9)
  CHECK(solve(sit).first("cowered") == Approx(0).margin(1e-12));
}

TEST_CASE("infantry: the SW MG fires on while it keeps its ROF and breaks down on its B#", "[asl][infantry]") {
  // A 2 FP MG alone (fp 0) with a 0 leader (no Cowering), ROF 2, at +5 TEM: the 2 column has no
  // effect at Final >= 7, so the target is never touched and only the dice decide the phase.
  Situation sit = eight_fp();
  sit.firer.fp = 0;
  sit.firer.normal_range.reset();
  sit.firer.mg = SwMg{2, 6, 2, 12};
  sit.firer.leader = 0;
  sit.target.tem = 5;
  // It fires again on colored 1-2 (Original <= 8 < 12): 12/36 = 1/3; E[shots] = 1 / (1 - 1/3).
  Solved s = solve(sit);
  CHECK(s.shots() == Approx(1.5).margin(1e-12));
  // B12: an Original 12 on any attack, (1/36) / (1 - 1/3) = 1/24.
  CHECK(s.phase("malfunction") == Approx(1.0 / 24).margin(1e-12));
  // B7: it keeps ROF on colored 1 with white 1-5, colored 2 with white 1-4: 9/36; it malfunctions
  // on Original >= 7 (21/36): P = (21/36) / (1 - 9/36) = 7/9; E[shots] = 1 / (1 - 1/4).
  sit.firer.mg->breakdown = 7;
  s = solve(sit);
  CHECK(s.shots() == Approx(4.0 / 3).margin(1e-12));
  CHECK(s.phase("malfunction") == Approx(7.0 / 9).margin(1e-12));
  CHECK(s.end("malfunction") == Approx(7.0 / 9).margin(1e-12));
  // At most 2 attacks (A9.2 in the MPh): the phase ends on the cap when the second keeps its ROF
  // too (a lost ROF or a malfunction is the reason first).
  sit.fire.max_shots = 2;
  s = solve(sit);
  CHECK(s.shots() == Approx(1 + 9.0 / 36).margin(1e-12));
  CHECK(s.end("shot_cap") == Approx(9.0 / 36 * 9 / 36).margin(1e-12));
  // A pinned firer has no Multiple ROF (A7.81): one attack.
  sit.fire.max_shots.reset();
  sit.fire.pinned = true;
  sit.target.tem = 0;
  CHECK(solve(sit).shots() == Approx(1).margin(1e-12));
}

TEST_CASE("infantry: a concealed target halves the attack until a PTC or worse reveals it", "[asl][infantry]") {
  Situation sit = eight_fp();
  sit.target.concealed = true;
  // 8 FP halved: the 4 column, PTC or worse to Final 7: 21/36 (8 column: Final 9, 30/36).
  CHECK(solve(sit).first("ptc_or_worse") == Approx(21 / 36.0).margin(1e-12));
  sit.target.concealed = false;
  CHECK(solve(sit).first("ptc_or_worse") == Approx(30 / 36.0).margin(1e-12));
}

TEST_CASE("infantry: Monte Carlo agrees with exact (standard errors of the exact values)", "[asl][infantry][mc]") {
  std::vector<Situation> cases;
  Situation fg = eight_fp();
  fg.name = "4-6-7 and LMG at a 4-4-7 in woods";
  fg.firer.fp = 4;
  fg.firer.cowers.reset();
  fg.firer.mg = SwMg{2, 6, 1, 11};
  fg.target.tem = 1;
  cases.push_back(fg);
  Situation dff = fg;
  dff.name = "Defensive First Fire at a moving HS in the open";
  dff.fire.phase = Phase::kDefensive;
  dff.target.tem = 0;
  dff.target.ffmo = dff.target.ffnam = true;
  dff.target.personnel = Personnel::kHalfSquad;
  dff.target.elr = 1;
  dff.fire.max_shots = 3;
  cases.push_back(dff);
  Situation mmg = fg;
  mmg.name = "MMG with a leader at a concealed squad";
  mmg.firer.fp = 0;
  mmg.firer.normal_range.reset();
  mmg.firer.mg = SwMg{4, 10, 3, 12};
  mmg.firer.leader = -1;
  mmg.target.concealed = true;
  mmg.target.leader = -1;
  mmg.target.morale = 8;
  mmg.target.broken_morale = 9;
  mmg.fire.stop_on = StopOn::kEffect;
  cases.push_back(mmg);
  test::McAgreement agree;
  std::uint64_t key = 700;
  for (const Situation& s : cases)
    agree.both_engines(compile(s).program, test::mc_options(20261125, key++, 200'000), s.name);
  agree.judge();
  CHECK(agree.size() > 60);
}

TEST_CASE("infantry: what it refuses", "[asl][infantry]") {
  Situation s = eight_fp();
  s.target.morale.reset();
  CHECK(test::refusal(check(s)) == "target.morale: missing: the target's Morale Level, for its Morale Check (A10.1)");
  s = eight_fp();
  s.fire.range = 13;
  CHECK(test::refusal(check(s)) == "fire.range: beyond twice the inherent FP's Normal Range 6: it cannot fire (A7.22)");
  s = eight_fp();
  s.firer.fp = 0;
  s.firer.normal_range.reset();
  s.firer.mg = SwMg{4, 12, 2, 12};
  s.fire.range = 17;
  CHECK(test::refusal(check(s)) ==
        "fire.range: a MG fires beyond 16 hexes only with a leader directing it (A9.4): set firer.leader");
  s = eight_fp();
  s.target.ffmo = true;
  CHECK(test::refusal(check(s)) == "target.ffmo: FFMO and FFNAM apply only to Defensive First Fire (A8.13)");
  s = eight_fp();
  s.firer.gun = *parse_gun("75L");
  CHECK(test::refusal(check(s)) == "firer.gun: not used by infantry fire (firer.weapon = \"infantry\"): remove it");
  // The infantry keys in a situation that is not infantry fire would do nothing: refused.
  Situation gun = testing::base();
  gun.target.morale = 7;
  CHECK(test::refusal(check(gun)) ==
        "target.morale: is for infantry fire (firer.weapon = \"infantry\", A7-A10): this "
        "situation does not read it; remove it");
  s = eight_fp();
  s.target.type = TargetType::kVehicle;
  CHECK(test::refusal(check(s)).rfind("target.type: infantry fire attacks Personnel", 0) == 0);
}

TEST_CASE("infantry: a second firer attacks the same target after the first (A7.31)", "[asl][infantry]") {
  // Two 8 FP attacks without Cowering at a crew of morale 7. One attack from good order (the 8
  // column as above; a crew is eliminated by any Casualty Reduction): eliminated 36 (1KIA) + 72
  // (K/2) + 23 (Original 12 on o = 4..8) = 131; broken 175 + 220 + 70 = 465 (2MC d 6-11, 1MC d
  // 7-11, NMC d 8-11); pinned 28 + 55 + 30 + 60 = 173; unharmed 527. From pinned: eliminated 131,
  // broken 465, else still pinned. From broken: eliminated 36 + 72 + a failed MC (d >= 6, 7, 8:
  // 7 x 26 + 11 x 21 + 5 x 15 = 488) = 596.
  // P(eliminated) = (131 x 1296 + (527 + 173) x 131 + 465 x 596) / 1296^2 = 538616 / 1679616.
  Situation sit = eight_fp();
  sit.target.personnel = Personnel::kCrew;
  sit.then.push_back(with(attack(8, 6), [](InfantryAttack& a) { a.cowers = false; }));
  const Solved s = solve(sit);
  CHECK(s.first("eliminated") == Approx(131 / k1296).margin(1e-12));
  CHECK(s.phase("eliminated") == Approx(538616 / (k1296 * k1296)).margin(1e-12));
  CHECK(s.shots() == Approx(1 + (1296 - 131) / k1296).margin(1e-12));
  CHECK(s.end("target_eliminated") == Approx(538616 / (k1296 * k1296)).margin(1e-12));
  // The second firer at 13 hexes, beyond twice its Normal Range: refused, naming it.
  sit.then[0].range = 13;
  CHECK(test::refusal(check(sit)) ==
        "then: attack 2 ([[then]] 1): beyond twice the inherent FP's Normal Range 6: it cannot fire (A7.22)");
}

TEST_CASE("infantry: a [[then]] attack has its own Opportunity Fire and DRM (A7.25)", "[asl][infantry]") {
  // fire.extra_drm is the first attack's: 1 FP at +10 (Final DR >= 12) has no effect; the second
  // 1 FP attack, with no DRM, is PTC or worse on a DR <= 5 (the 1 column), 10/36.
  Situation s = eight_fp();
  s.firer.fp = 1;
  s.fire.extra_drm = 10;
  s.then.push_back(with(attack(1, 6), [](InfantryAttack& a) { a.cowers = false; }));
  CHECK(solve(s).phase("ptc_or_worse") == Approx(10 / 36.0).margin(1e-12));
  // Opportunity Fire is declared by each firer (A7.25): in the AFPh the first attack is
  // Opportunity Fire, the second (an MG, ROF 3) is not, so it has no Multiple ROF: two attacks,
  // and the MG malfunctions on its one Original 12 (1/36). Nothing can harm the target.
  Situation a = eight_fp();
  a.firer.fp = 2;
  a.firer.leader = 0;
  a.target.tem = 6;
  a.target.hindrance = 10;
  a.fire.phase = Phase::kAdvancing;
  a.fire.opportunity = true;
  InfantryAttack mg;
  mg.leader = 0;
  mg.mg = SwMg{2, 6, 3, 12};
  a.then.push_back(mg);
  const Solved r = solve(a);
  CHECK(r.shots() == Approx(2).margin(1e-12));
  CHECK(r.phase("malfunction") == Approx(1 / 36.0).margin(1e-12));
  a.then[0].opportunity = true;  // its own Opportunity Fire: ROF 3 on a colored dr <= 3, 1/2
  CHECK(solve(a).shots() == Approx(1 + 2).margin(1e-12));
}

TEST_CASE("infantry: sensitivity acts on every [[then]] attack's DRM and leader", "[asl][infantry][sensitivity]") {
  // Two attacks at a squad in woods (TEM +1), the second directed by a leader (-1): the TEM's
  // "one worse" is TEM +2 for both; the leader's removal unsets every attack's leader.
  Situation s = eight_fp();
  s.target.tem = 1;
  s.fire.extra_drm = 1;
  InfantryAttack second = attack(4, 6);
  second.leader = -1;
  second.extra_drm = 2;
  s.then.push_back(second);
  bool extra_seen = false, leader_seen = false;
  for (const Variant& v : sensitivity_variants(s, compile(s).explain)) {
    INFO(v.rule << (v.worse ? " worse: " : ": ") << v.change);
    if (v.rule == "[extra_drm]" && v.worse) {
      extra_seen = true;
      CHECK(v.situation.fire.extra_drm == 2);
      CHECK(v.situation.then.at(0).extra_drm == 3);
    }
    if (v.rule == "[extra_drm]" && !v.worse) {
      CHECK(v.situation.fire.extra_drm == 0);
      CHECK(v.situation.then.at(0).extra_drm == 0);
    }
    if (v.rule == "A7.53" && !v.worse) {
      leader_seen = true;
      CHECK_FALSE(v.situation.then.at(0).leader.has_value());
    }
  }
  CHECK(extra_seen);
  CHECK(leader_seen);
}
