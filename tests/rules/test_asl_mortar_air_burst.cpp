// Mortars (C9) and Air Bursts (B13.3): hand-derived odds as exact tests through the exact engine
// and the reference interpreter, the IFT attack of each hit, and the rules conflicts.
//
// Hand derivations (36 ordered To Hit DR, 36 IFT DR):
// - German 81mm mortar, ROF 3, Area Target Type at 8 hexes: Area row TH# 7 (C3.3, red for all),
//   no C4 modification (> 57mm, no barrel letter). A mortar keeps its Multiple ROF on the Area
//   Target Type (C3.33 takes it only from non-mortars): it fires again while the colored dr <= 3
//   (C2.24), P = 1/2 each shot, so E[shots] = 2. Area Acquisition (C6.5, C6.521): DRM 0, -1, -2, ...
//   P(hit) per shot 21/36, 26/36, 30/36, ...; E[hits] = 21/36 + 26/72 + 30/72 = 49/36.
//   P(no hit in the phase): the phase goes on after a miss only with colored dr <= 3:
//   miss & colored <= 3 is 3/36 at DRM 0 (DR 8: (2,6), (3,5); DR 9: (3,6)), 1/36 at -1 ((3,6)),
//   0 at -2; so P(no hit) = 12/36 + 3/36 * (9/36 + 1/36 * 6/36) = 919/2592, P(hit) = 1673/2592.
// - 105 HE on the Area Target Type vs a squad in woods at 40 hexes: Area row TH# 6, hits on an
//   Original DR <= 6 (15/36), an Original 2 is a CH (C3.7). A normal hit: 20 FP halved (C3.33),
//   8 FP column; MC or worse on a Final DR <= 8. Woods TEM +1 (C3.331): Original <= 7, 21/36; Air
//   Burst -1 instead (B13.3): Original <= 9, 30/36. A CH: 40 FP on the 36 column (C3.71, no Heavy
//   Payload below 44 FP, C.7) at -1: always MC or worse. P(MC or worse) = (14*21 + 36)/1296 =
//   330/1296 = 25.46% without the Air Burst, (14*30 + 36)/1296 = 456/1296 = 35.19% with it.
#include <algorithm>
#include <string>

#include "asl_cases.h"
#include "asl_test_util.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/sim/exact.h"
#include "support/named.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

/// The cases of tests/rules/cases/mortar.toml: the bases, then the rules conflicts.
const std::vector<Case>& mortar_cases() {
  static const std::vector<Case> cs = cases("mortar.toml", {{"base", base()}});
  return cs;
}

/// German 81mm mortar (a Gun, NT), ROF 3, minimum range 3, HE on the Area Target Type at 8 hexes.
Situation mortar81() { return named_in(situations_of(mortar_cases()), "81mm mortar"); }

/// German 105 HE on the Area Target Type vs a squad in woods at 40 hexes.
Situation area105_in_woods() { return named_in(situations_of(mortar_cases()), "105 area woods"); }

}  // namespace

TEST_CASE("C3.33, C9.1: an 81mm mortar with ROF 3 keeps its Multiple ROF on the Area Target Type", "[asl][mortar]") {
  const Situation s = mortar81();
  REQUIRE_FALSE(check(s).has_value());
  const ShotSpec spec = first_shot(s);
  CHECK(spec.modified_th == 7);  // C3.3 Area row, 7-12 hexes
  CHECK(spec.drm == 0);
  CHECK(spec.rof == 3);                // C3.33: only a non-mortar loses its ROF
  CHECK(spec.ift.normal.column == 8);  // C.6 81mm: 16 FP, halved (C3.33)
  CHECK(spec.ift.normal.drm == 0);
  CHECK(spec.ift.critical.column == 30);  // C3.71: 32 FP
  CHECK_FALSE(spec.multiple_hits);        // C3.8: not on the Area Target Type

  const Compiled c = compile(s);
  const sim::RunResult r = sim::solve_exact(c.program);
  const auto& p = c.program;
  CHECK(test::flag(p, r.first, "hit") == Approx(21.0 / 36).epsilon(1e-12));
  CHECK(test::counter(p, r.run, "shots") == Approx(2.0).epsilon(1e-12));
  CHECK(test::counter(p, r.run, "hits") == Approx(49.0 / 36).epsilon(1e-12));
  CHECK(test::flag(p, r.run, "hit") == Approx(1673.0 / 2592).epsilon(1e-12));

  // The reference interpreter, every dice sequence of a phase capped at 2 shots (the uncapped
  // phase has no last shot to enumerate): E[shots] = 1 + 1/2; P(no hit) = 12/36 + 3/36 * 10/36.
  Situation capped = s;
  capped.fire.max_shots = 2;
  const test::PathTally e = enumerate_phase(capped);
  const Compiled cc = compile(capped);
  const sim::RunResult rc = sim::solve_exact(cc.program);
  CHECK(e.run_counts[kCounterShots] == Approx(1.5).epsilon(1e-9));
  CHECK(test::counter(cc.program, rc.run, "shots") == Approx(1.5).epsilon(1e-12));
  CHECK(e.run_flags[kFlagHit] == Approx(834.0 / 1296).epsilon(1e-9));
  CHECK(test::flag(cc.program, rc.run, "hit") == Approx(834.0 / 1296).epsilon(1e-12));

  // Scripted dice: colored 3 keeps the ROF (C2.24), Acquisition -1 on the second shot (C6.5).
  const PhaseTrace t = run_script(s, {TH(3, 6), TH(4, 4), TK(3, 3)});
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].outcome == kOutcomeMiss);  // 9 > 7
  CHECK(t.steps[1].outcome == kOutcome1Mc);   // 8 - 1 = 7 <= 7 hits; IFT 8 column, DR 6: 1MC
  CHECK(t.end == kEndRofExhausted);
}

TEST_CASE("C2.5 EXC: a 76-82mm mortar keeps its full ROF when it changes CA, a 120mm mortar does not",
          "[asl][mortar]") {
  Situation s = mortar81();
  s.fire.ca_change = 1;
  CHECK(first_shot(s).rof == 3);
  CHECK(first_shot(s).drm == 3);  // C5.1 Case A, NT
  s.firer.gun = *parse_gun("120");
  CHECK(first_shot(s).rof == 2);  // C2.5 Conditional ROF
}

TEST_CASE("C9.2, C3.71 EX: a 50mm light mortar's CH vs a Non-Assault-moving squad in woods: 12 FP column at -2",
          "[asl][mortar][air_burst]") {
  Situation s = base();
  s.firer.gun = *parse_gun("50");
  s.firer.mortar = true;
  s.firer.min_range = 1;
  s.firer.vehicle = false;
  s.firer.ammo = Ammo::kHE;
  s.firer.rof = 2;
  s.target.type = TargetType::kArea;
  s.target.terrain = Terrain::kWoods;
  s.target.tem = 1;
  s.target.ffnam = true;
  s.fire.phase = Phase::kDefensive;
  REQUIRE_FALSE(check(s).has_value());
  const ShotSpec spec = first_shot(s);
  CHECK(spec.rof == 2);
  CHECK(spec.ift.normal.column == 2);     // 6 FP halved: 3 FP, the 2 FP column
  CHECK(spec.ift.normal.drm == -1);       // B13.3 Air Burst instead of +1; FFNAM is a To Hit DRM (C6.13)
  CHECK(spec.ift.critical.column == 12);  // C3.71 EX
  CHECK(spec.ift.critical.drm == -2);     // Air Burst -1, FFNAM -1 (C3.71)
}

TEST_CASE("B13.3 Air Burst: 105 HE on the Area Target Type vs a squad in woods", "[asl][air_burst]") {
  Situation s = area105_in_woods();
  REQUIRE_FALSE(check(s).has_value());
  ShotSpec spec = first_shot(s);
  CHECK(spec.modified_th == 6);
  CHECK(spec.drm == 0);  // C3.331: no TEM on the To Hit DR
  CHECK(spec.ift.normal.column == 8);
  CHECK(spec.ift.normal.drm == -1);  // B13.3: -1 instead of the woods TEM +1
  CHECK(spec.ift.critical.column == 36);
  CHECK(spec.ift.critical.drm == -1);  // C3.71: Air Burst still applies (not a reversed TEM)

  const auto mc = [](const Situation& sit) {
    const Compiled c = compile(sit);
    const sim::RunResult r = sim::solve_exact(c.program);
    return test::flag(c.program, r.run, "mc_or_worse");
  };
  CHECK(mc(s) == Approx(456.0 / 1296).epsilon(1e-12));  // 35.19%
  CHECK(enumerate_phase(s).run_flags[kFlagMcOrWorse] == Approx(456.0 / 1296).epsilon(1e-9));

  // In an entrenchment (or pillbox) in woods: no Air Burst, the entrenchment's TEM (B13.3).
  s.target.entrenched = true;
  s.target.tem = 2;
  spec = first_shot(s);
  CHECK(spec.ift.normal.drm == 2);
  CHECK(spec.ift.critical.drm == -2);
  // Not in woods: the TEM +1 as before (C3.331): 25.46%.
  s.target.entrenched = false;
  s.target.terrain = Terrain::kOpen;
  s.target.tem = 1;
  CHECK(first_shot(s).ift.normal.drm == 1);
  CHECK(mc(s) == Approx(330.0 / 1296).epsilon(1e-12));
}

TEST_CASE(
    "B13.3 Air Burst on the Infantry Target Type (salvo's reading): woods TEM on the To Hit DR, -1 on the Effects DR",
    "[asl][air_burst]") {
  Situation s = base();
  s.firer.ammo = Ammo::kHE;
  s.target.type = TargetType::kInfantry;
  s.target.terrain = Terrain::kWoods;
  s.target.tem = 1;
  REQUIRE_FALSE(check(s).has_value());
  ShotSpec spec = first_shot(s);
  CHECK(spec.drm == 1);  // C6.8 Case Q
  CHECK(spec.ift.normal.column == 12);
  CHECK(spec.ift.normal.drm == -1);  // B13.3
  CHECK(spec.ift.critical.drm == -1);
  // AP's HE equivalency is not HE: no Air Burst (B13.3), no TEM on the Effects DR (C.3).
  s.firer.ammo = Ammo::kAP;
  spec = first_shot(s);
  CHECK(spec.ift.normal.drm == 0);
  CHECK(spec.ift.critical.drm == -1);  // C3.71: the TEM reversed
  // Vehicular MG fire: the woods TEM on the IFT DR, no Air Burst.
  s.firer.weapon = Weapon::kMg;
  s.firer.fp = 4;
  s.firer.normal_range = 8;
  s.firer.ammo = Ammo::kAP;
  s.fire.range = 5;
  REQUIRE_FALSE(check(s).has_value());
  CHECK(first_shot(s).ift.normal.drm == 1);
}

TEST_CASE("rules conflicts of mortars and woods", "[asl][mortar][air_burst]") {
  check_cases(std::vector<Case>(mortar_cases().begin() + 2, mortar_cases().end()), 11);  // after the 2 bases
}
