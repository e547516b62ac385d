// Covered Arc geometry and Case A: the D3.51 and D2.321 worked examples, exactly.
#include <algorithm>

#include "asl_test_util.h"
#include "salvo/rules/asl_arc.h"

using namespace salvo::asl;
using namespace salvo::asl::testing;

// Directions for the D3.51 example (hexspines of 19X5, clockwise): VCA X6-Y6 = 0, Y6-Y5 = 1,
// X4-Y5 = 2, W5-W6 = 4, W6-X6 = 5.
namespace {
constexpr int kX6Y6 = 0, kY6Y5 = 1, kX4Y5 = 2, kW5W6 = 4, kW6X6 = 5;
constexpr int kMA = 0, kCMG = 1, kBMG = 2;
}  // namespace

TEST_CASE("C5.1: hexspines between two Covered Arcs", "[asl][arc]") {
  CHECK(hexspines_between(0, 0) == 0);
  CHECK(hexspines_between(0, 1) == 1);
  CHECK(hexspines_between(0, 5) == 1);
  CHECK(hexspines_between(1, 4) == 3);
  CHECK(hexspines_between(5, 1) == 2);
  CHECK(case_a_drm(GunType::kT, 1, Terrain::kOpen) == 1);
  CHECK(case_a_drm(GunType::kST, 1, Terrain::kOpen) == 2);
  CHECK(case_a_drm(GunType::kNT, 3, Terrain::kOpen) == 5);
  CHECK(case_a_drm(GunType::kNT, 2, Terrain::kWoods) == 8);  // C5.11: doubled
}

TEST_CASE("D3.51 EX: maintaining CA: +2, +2, +1 (then 0 and +2)", "[asl][arc][example]") {
  // CE Pz IVH: VCA X6-Y6, TCA W6-X6; all turret weapons T type.
  CaTracker pz(kX6Y6, kW6X6, Terrain::kOpen);
  // CMG vs the 4-4-7 in Z5: two-hexspine TCA change to Y6-Y5.
  CHECK(pz.fire(kCMG, Mount::kTurret, GunType::kT, kX6Y6, kY6Y5) == 2);
  // MA vs the same target: the same +2 (D3.51).
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kX6Y6, kY6Y5) == 2);
  // MA kept ROF; one more hexspine to X4-Y5 vs the 6-2-8: +1 (D3.51, C5.12).
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kX6Y6, kX4Y5) == 1);
  // Again vs the 6-2-8: no Case A (C5.12).
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kX6Y6, kX4Y5) == 0);
  // Or two hexspines to W5-W6 vs the 5-2-7: +2.
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kX6Y6, kW5W6) == 2);
}

TEST_CASE("D3.51 EX: a VCA change turns the TCA with it: +4, +5", "[asl][arc][example]") {
  CaTracker pz(kX6Y6, kW6X6, Terrain::kOpen);
  // VCA two hexspines to X4-Y5: the TCA is now at Y5-Y6. BMG vs Z3: +4 (NT).
  CHECK(pz.fire(kBMG, Mount::kBow, GunType::kNT, kX4Y5, 0) == 4);
  CHECK(pz.tca() == kY6Y5);
  // The TCA also changes to X4-Y5 for the same target: +4 +1 = +5.
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kX4Y5, kX4Y5) == 5);
}

TEST_CASE("D3.51 EX: VCA one hexspine, TCA two further: +3, +5", "[asl][arc][example]") {
  CaTracker pz(kX6Y6, kW6X6, Terrain::kOpen);
  const int kY5Y6 = kY6Y5;
  CHECK(pz.fire(kBMG, Mount::kBow, GunType::kNT, kY5Y6, 0) == 3);
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kY5Y6, kW5W6) == 5);
}

TEST_CASE("D3.51 EX: VCA one hexspine, TCA stays at W6-X6: +3, +4", "[asl][arc][example]") {
  CaTracker pz(kX6Y6, kW6X6, Terrain::kOpen);
  const int kY5Y6 = kY6Y5;
  CHECK(pz.fire(kBMG, Mount::kBow, GunType::kNT, kY5Y6, 0) == 3);
  CHECK(pz.fire(kMA, Mount::kTurret, GunType::kT, kY5Y6, kW6X6) == 4);
}

TEST_CASE("D3.51: a turret weapon that pivots the whole vehicle pays NT for the VCA", "[asl][arc]") {
  CaTracker t(0, 0, Terrain::kOpen);
  CHECK(t.fire(kMA, Mount::kTurret, GunType::kT, 2, 2) == 4);   // NT 2 hexspines; TCA turned with it
  CHECK(t.fire(kCMG, Mount::kTurret, GunType::kT, 2, 2) == 4);  // same CA: pays the first weapon's
  CHECK(t.fire(kBMG, Mount::kBow, GunType::kNT, 2, 0) == 4);    // bow: first shot after the VCA change
}

TEST_CASE("D2.321 EX: PSW 234/2 (ST) in Bypass: +3, +2, 0 with Acquisition, +4", "[asl][arc][example]") {
  // Front TCA to the side Target Facing for the 4-4-7: +2 (ST) +1 (to a side facing).
  CHECK(bypass_case_a(GunType::kST, BypassFacing::kFront, BypassFacing::kLeft, false, Terrain::kOpen) == 3);
  // Switching targets within the same side facing: +2 again.
  CHECK(bypass_case_a(GunType::kST, BypassFacing::kLeft, BypassFacing::kLeft, false, Terrain::kOpen) == 2);
  // Continuing to fire on the acquired 4-4-7: no Case A.
  CHECK(bypass_case_a(GunType::kST, BypassFacing::kLeft, BypassFacing::kLeft, true, Terrain::kOpen) == 0);
  // Front to rear: two Target Facings (+3) through a side (+1) = +4.
  CHECK(bypass_case_a(GunType::kST, BypassFacing::kFront, BypassFacing::kRear, false, Terrain::kOpen) == 4);
  // The front TCA pays nothing within its arc.
  CHECK(bypass_case_a(GunType::kST, BypassFacing::kFront, BypassFacing::kFront, false, Terrain::kOpen) == 0);
}

TEST_CASE("D2.32: Bypass Target Facings from the CAFP", "[asl][arc]") {
  CHECK(bypass_facing(2, 2) == BypassFacing::kFront);
  CHECK(bypass_facing(2, 5) == BypassFacing::kRear);
  CHECK(bypass_facing(2, 3) == BypassFacing::kRight);
  CHECK(bypass_facing(2, 4) == BypassFacing::kRight);
  CHECK(bypass_facing(2, 1) == BypassFacing::kLeft);
  CHECK(bypass_facing(2, 0) == BypassFacing::kLeft);
}

// ---- Case A from a situation's geometry, through build_shot ----

namespace {
int case_a_total(const Situation& s) {
  int total = 0;
  for (const Modifier& m : case_a_modifiers(s)) total += m.value;
  return total;
}
}  // namespace

TEST_CASE("Case A from directions: turret, bow, Gun, pivot, terrain doubling", "[asl][arc]") {
  Situation s = base();
  s.fire.vca = 0;
  s.fire.tca = 5;
  s.fire.target_direction = 1;  // two hexspines from the TCA
  s.firer.gun_type = GunType::kT;
  CHECK(case_a_total(s) == 2);
  CHECK(first_shot(s).drm == 2);
  CHECK(shot_after(s, 1).drm == -1);  // C5.12: later shots: Acquisition only
  s.firer.gun_type = GunType::kST;
  CHECK(case_a_total(s) == 3);
  s.fire.firer_terrain = Terrain::kWoods;
  CHECK(case_a_total(s) == 6);  // C5.11
  s.fire.firer_terrain = Terrain::kOpen;
  SECTION("bow-mounted: the VCA turns, NT") {
    s.firer.bow_mounted = true;
    CHECK(case_a_total(s) == 3);  // VCA 0 -> 1: NT +3
    // ... and given as a hexspine count: still NT, whatever gun_type says (D3.11)
    s.fire.vca.reset();
    s.fire.tca.reset();
    s.fire.target_direction.reset();
    s.fire.ca_change = 1;
    CHECK(case_a_total(s) == 3);
    CHECK(case_a_modifiers(s).front().what == "Case A: VCA change of 1 hexspine, NT (bow mount)");
  }
  SECTION("a non-turreted (NT) vehicle: its weapon fires in the VCA, NT (D3.12)") {
    s.firer.gun_type = GunType::kNT;
    s.fire.tca.reset();  // VCA 0 -> target 1: NT +3
    CHECK(case_a_total(s) == 3);
    CHECK(case_a_modifiers(s).front().what == "Case A: VCA change of 1 hexspine, NT (non-turreted)");
  }
  SECTION("pivot: NT for the VCA, then the turret's own Case A") {
    s.firer.gun_type = GunType::kT;
    s.fire.pivot = true;
    s.fire.target_direction = 2;  // VCA 0 -> 2: +4; TCA 5 turns to 1, then 1 -> 2: +1
    CHECK(case_a_total(s) == 5);
  }
  SECTION("a Gun's CA, and C2.5 Conditional ROF from the geometry") {
    s.firer.vehicle = false;
    s.firer.gun_type = GunType::kNT;
    s.firer.rof = 2;
    s.fire.vca.reset();
    CHECK(case_a_total(s) == 4);
    CHECK(first_shot(s).rof == 1);
  }
  SECTION("target within the CA: no Case A") {
    s.fire.target_direction = 5;
    CHECK(case_a_modifiers(s).empty());
  }
  SECTION("Bounding First Fire never pays Case A (C5.13)") {
    s.fire.phase = Phase::kBounding;
    int case_a_lines = 0;
    ShotExplain ex;
    build_shot(s, ShotContext{}, &ex);
    for (const auto& m : ex.drm) case_a_lines += m.rule == "C5.1" ? 1 : 0;
    CHECK(case_a_lines == 0);
  }
}

TEST_CASE("Case A in Bypass from the CAFP: D2.321 through a situation", "[asl][arc]") {
  Situation s = base();
  s.firer.gun = *parse_gun("50L");
  s.firer.gun_type = GunType::kST;
  s.firer.bypass = true;
  s.firer.cafp = 2;
  s.fire.tca = 2;               // front
  s.fire.target_direction = 1;  // a side facing
  CHECK(case_a_total(s) == 3);
  s.fire.target_direction = 5;  // the rear
  CHECK(case_a_total(s) == 4);
  s.fire.tca = 1;
  s.fire.target_direction = 0;  // the same (left) side facing, a new target
  CHECK(case_a_total(s) == 2);
  s.fire.acquisition = 1;
  CHECK(case_a_total(s) == 0);
}

TEST_CASE("geometry errors name the key", "[asl][arc][errors]") {
  check_refused({
      {with(base(), [](Situation& s) { s.firer.bypass = true; }),
       "firer.cafp: a vehicle in Bypass needs its CAFP, the direction its VCA points to (D2.32)"},
      {with(base(), [](Situation& s) { s.fire.target_direction = 3; }),
       "fire.tca: needed with fire.target_direction: the direction the turret points to (D3.12)"},
      {with(base(),
            [](Situation& s) {
              s.firer.bow_mounted = true;
              s.firer.bypass = true;
              s.firer.cafp = 0;
              s.fire.target_direction = 3;
            }),
       "fire.target_direction: a bow-mounted weapon in Bypass cannot fire outside its VCA, the front Target Facing: a "
       "vehicle in stationary Bypass cannot change its VCA to take a shot (D2.33, D2.35)"},
      {with(base(),
            [](Situation& s) {
              s.fire.ca_change = 1;
              s.fire.tca = 0;
              s.fire.target_direction = 1;
            }),
       "fire.ca_change: give either fire.ca_change or the Covered Arc geometry (fire.vca, fire.tca, "
       "fire.target_direction, fire.maintained_ca), not both"},
  });
}

TEST_CASE("C5.35 EX: PSW 234/2 Motion Fire, Modified TH# 10, +4: hits only on 1&4, 1&3, 1&2, 1&1, 2&2",
          "[asl][example]") {
  Situation s = base();
  s.firer.gun = *parse_gun("75*");
  s.override_.modified_th = 10;
  s.fire.motion = true;
  s.firer.gun_type = GunType::kT;  // Case C with a T gun: +4
  const ShotSpec spec = first_shot(s);
  REQUIRE(spec.drm == 4);
  REQUIRE(spec.double_lower_die);
  std::vector<std::pair<int, int>> hits;
  for (int c = 1; c <= 6; ++c)
    for (int w = 1; w <= 6; ++w)
      if (!needs_subsequent_dr(spec, c, w) && to_hit(spec, c, w, 0).hit)
        hits.emplace_back(std::min(c, w), std::max(c, w));
  std::sort(hits.begin(), hits.end());
  hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
  CHECK(hits == std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {1, 3}, {1, 4}, {2, 2}});
  // 1&1: Final 1 + 1 + 1 + 4 = 7 < 10, a CH on the Original 2 with no subsequent dr.
  CHECK(final_th_dr(spec, 1, 1) == 7);
  CHECK(to_hit(spec, 1, 1, 0).critical);
  SECTION("gyrostabilized: +1 instead of doubling") {
    s.firer.stabilized = true;
    const ShotSpec g = first_shot(s);
    CHECK_FALSE(g.double_lower_die);
    CHECK(g.drm == 3 + 1);  // Case C stabilized +3, Case C4 +1
  }
}

TEST_CASE("C6.55: a moving firer keeps Acquisition only with a gyrostabilized gun", "[asl][arc]") {
  Situation s = base();
  s.fire.phase = Phase::kBounding;
  s.firer.rof = 2;
  CHECK(shot_after(s, 2).drm == 4);  // Case C only
  s.firer.stabilized = true;
  CHECK(shot_after(s, 2).drm == 3 - 2);
}

TEST_CASE("D3.2 EXC: from within the hex, a hull hit on a vehicle in Bypass strikes its side", "[asl][arc]") {
  Situation s = base();
  s.fire.same_hex = true;
  s.fire.range = 0;
  s.fire.firer_terrain = Terrain::kWoods;
  s.target.bypass = true;
  s.target.facing = Facing::kFront;  // the turret's facing toward the firer
  const ShotSpec spec = first_shot(s);
  CHECK(spec.drm == 2);                                   // Case E not doubled in Bypass (C5.5)
  CHECK(to_hit(spec, 5, 2, 0).facing == Facing::kSide);   // hull hit: side, not the front of the dr
  CHECK(to_hit(spec, 1, 2, 0).facing == Facing::kFront);  // turret hit: the turret's facing
}
