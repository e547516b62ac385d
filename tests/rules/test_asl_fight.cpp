// Fights (asl_fight.h): closed forms derived by hand, a one-sided fight against the duel it
// must equal, and the refusals. The engine checks: test_asl_fight_engines.cpp.
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "asl_test_util.h"
#include "fight_test_util.h"
#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/named.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

TEST_CASE("fight: two units alternating from A - closed form over n turns", "[asl][fight]") {
  // Each round A fires, then B. q = (1 - pA)(1 - pB) is the chance a round decides nothing.
  // P(A wins within n rounds) = pA (1 - q^n) / (1 - q); P(B wins) = (1 - pA) pB (1 - q^n) / (1 - q);
  // P(neither) = q^n; the fight ends in turn k < n with chance q^(k-1) (1 - q).
  for (const auto& [tha, thb, n] : {std::tuple{7, 6, 1}, std::tuple{7, 6, 5}, std::tuple{5, 9, 12}}) {
    const double pa = p_dr_at_most(tha), pb = p_dr_at_most(thb), q = (1 - pa) * (1 - pb);
    const Fight f = fight_of({killer("a", 0, tha), killer("b", 1, thb)}, {FightStep::kFireA, FightStep::kFireB}, n);
    const RollProgram p = compile(f);
    const sim::RunResult r = sim::solve_exact(p);
    INFO("TH " << tha << " vs " << thb << ", " << n << " turns");
    const double s = (1 - std::pow(q, n)) / (1 - q);
    CHECK(flag(p, r, "a_wins") == Approx(pa * s).margin(1e-12));
    CHECK(flag(p, r, "b_wins") == Approx((1 - pa) * pb * s).margin(1e-12));
    CHECK(flag(p, r, "neither") == Approx(std::pow(q, n)).margin(1e-12));
    CHECK(flag(p, r, "b_destroyed") == Approx(pa * s).margin(1e-12));
    CHECK(flag(p, r, "a_destroyed") == Approx((1 - pa) * pb * s).margin(1e-12));
    double turns = n * std::pow(q, n);
    for (int k = 1; k <= n; ++k) {
      turns += k * std::pow(q, k - 1) * (1 - q);
      CHECK(test::end_reason(p, r, "a_wins_turn_" + std::to_string(k)) ==
            Approx(std::pow(q, k - 1) * pa).margin(1e-12));
      CHECK(test::end_reason(p, r, "b_wins_turn_" + std::to_string(k)) ==
            Approx(std::pow(q, k - 1) * (1 - pa) * pb).margin(1e-12));
    }
    CHECK(test::counter(p, r.run, "game_turns") == Approx(turns).margin(1e-12));
    // The first window is the first game turn.
    CHECK(test::outcome(p, r.first, "a_wins") == Approx(pa).margin(1e-12));
    CHECK(test::outcome(p, r.first, "b_wins") == Approx((1 - pa) * pb).margin(1e-12));
  }
}

TEST_CASE("fight: who fires first matters - closed form with B first", "[asl][fight]") {
  const double pa = p_dr_at_most(8), pb = p_dr_at_most(6), q = (1 - pa) * (1 - pb);
  const int n = 4;
  const Fight f = fight_of({killer("a", 0, 8), killer("b", 1, 6)}, {FightStep::kFireB, FightStep::kFireA}, n);
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  const double s = (1 - std::pow(q, n)) / (1 - q);
  CHECK(flag(p, r, "b_wins") == Approx(pb * s).margin(1e-12));
  CHECK(flag(p, r, "a_wins") == Approx((1 - pb) * pa * s).margin(1e-12));
}

TEST_CASE("fight: the ASL game turn - closed form", "[asl][fight]") {
  // Per game turn: A fires (PFPh), B (DFPh), then B (PFPh), A (DFPh); the Rally Phases roll
  // nothing here. Within a turn: A wins with pA + (1-pA)(1-pB)^2 pA; B with
  // (1-pA) pB + (1-pA)(1-pB) pB; the turn decides nothing with c = (1-pA)^2 (1-pB)^2.
  const double pa = p_dr_at_most(6), pb = p_dr_at_most(7);
  const double wa = pa + (1 - pa) * (1 - pb) * (1 - pb) * pa;
  const double wb = (1 - pa) * pb + (1 - pa) * (1 - pb) * pb;
  const double c = (1 - pa) * (1 - pa) * (1 - pb) * (1 - pb);
  const int n = 3;
  Fight f = fight_of({killer("a", 0, 6), killer("b", 1, 7)}, {}, n);
  f.sequence = asl_game_turn();  // the default
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  const double s = (1 - std::pow(c, n)) / (1 - c);
  CHECK(flag(p, r, "a_wins") == Approx(wa * s).margin(1e-12));
  CHECK(flag(p, r, "b_wins") == Approx(wb * s).margin(1e-12));
  CHECK(flag(p, r, "neither") == Approx(std::pow(c, n)).margin(1e-12));
}

TEST_CASE("fight: three firers at one target that never fires back", "[asl][fight]") {
  // Side B never owns a fire phase. Each turn the three fire in turn until one kills: the
  // target survives a turn with (1-p1)(1-p2)(1-p3), and n turns with its n-th power.
  const double p1 = p_dr_at_most(5), p2 = p_dr_at_most(6), p3 = p_dr_at_most(8);
  const double miss = (1 - p1) * (1 - p2) * (1 - p3);
  const int n = 3;
  const Fight f = fight_of({killer("s1", 0, 5), killer("s2", 0, 6), killer("s3", 0, 8), killer("tiger", 1, 12)},
                           {FightStep::kRally, FightStep::kFireA}, n);
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(flag(p, r, "a_wins") == Approx(1 - std::pow(miss, n)).margin(1e-12));
  CHECK(test::outcome(p, r.first, "a_wins") == Approx(1 - miss).margin(1e-12));
  CHECK(test::flag(p, r.first, "tiger_destroyed") == Approx(1 - miss).margin(1e-12));
  // shots: the first fires every turn, the second when the first failed, ...
  double shots = 0, alive = 1;
  for (int t = 0; t < n; ++t) {
    shots += alive * (1 + (1 - p1) + (1 - p1) * (1 - p2));
    alive *= miss;
  }
  CHECK(test::counter(p, r.run, "shots") == Approx(shots).margin(1e-12));
}

TEST_CASE("fight: a unit's fate is counted when it happens - closed form 1 against 2", "[asl][fight]") {
  // A fires once a turn at b1 (auto: the first able enemy); B's two fire at A. b1 destroyed in
  // turn 1 does not end the fight. Turn 1: b1 destroyed with pa. Else b1 and b2 fire at A: A
  // survives with (1 - pb)^2 and fires at b1 again in turn 2.
  const double pa = p_dr_at_most(5), pb = p_dr_at_most(4);
  const Fight f =
      fight_of({killer("a", 0, 5), killer("b1", 1, 4), killer("b2", 1, 4)}, {FightStep::kFireA, FightStep::kFireB}, 2);
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(test::flag(p, r.first, "b1_destroyed") == Approx(pa).margin(1e-12));
  CHECK(flag(p, r, "b1_destroyed") == Approx(pa + (1 - pa) * (1 - pb) * (1 - pb) * pa).margin(1e-12));
  // A is destroyed in turn 1 if it missed and either B unit hit; after a kill of b1, b2 alone.
  const double a_dies_1 = (1 - pa) * (1 - (1 - pb) * (1 - pb)) + pa * pb;
  CHECK(test::flag(p, r.first, "a_destroyed") == Approx(a_dies_1).margin(1e-12));
}

TEST_CASE("fight: once a Player Turn, unless the Multiple ROF was kept at the shot cap - closed form", "[asl][fight]") {
  // Derived by hand. a fires at b, which never fires back, with ROF 2 and killer()'s Modified
  // TH# 5 (a hit on an Original DR <= 7), a kill unless the TK DR is a Dud:
  // p = 21/36 x 35/36 = 735/1296 a shot. Its ROF is kept on a colored dr <= 2 (C2.24): a shot
  // keeps it and does not kill on a colored 2 and white 6 (a miss), or on a colored 1-2 that hits
  // (11/36) with a Dud (1/36): q = 1/36 + 11/1296 = 47/1296.
  // - Its whole phase (no cap): the chain goes on while it keeps its ROF: P(kill) = p / (1 - q).
  //   A second "A" step in the same Player Turn adds nothing: it fired (C2.24).
  // - fire.max_shots = 1: one shot a step; in a later step of the same Player Turn it fires again
  //   only if its last shot kept the ROF. Three steps: P(kill) = p (1 + q + q^2).
  // - ROF 0 and the cap: one shot in all, p.
  const double p = 735.0 / 1296.0, q = 47.0 / 1296.0;
  const auto fight = [](int rof, std::optional<int> cap) {
    FightUnit a = killer("a", 0, 5), b = killer("b", 1, 5);
    a.firer.rof = rof;
    a.fire.max_shots = cap;
    return fight_of({a, b}, {FightStep::kFireA, FightStep::kFireA, FightStep::kFireA}, 1);
  };
  const auto kill = [](const Fight& f) {
    const RollProgram prog = compile(f);
    return flag(prog, sim::solve_exact(prog), "b_destroyed");
  };
  CHECK(kill(fight(2, std::nullopt)) == Approx(p / (1 - q)).margin(1e-12));
  CHECK(kill(fight(2, 1)) == Approx(p * (1 + q + q * q)).margin(1e-12));
  CHECK(kill(fight(0, 1)) == Approx(p).margin(1e-12));
}

TEST_CASE("fight: two firers that malfunction and repair - closed form over two game turns", "[asl][fight]") {
  // Derived by hand. a1 and a2 fire in turn at b, which never fires back, in two game turns of
  // [Rally Phase, A's fire]. Each is killer()'s with Modified TH# 5 and B# 12: a phase kills b
  // with k = 21/36 x 35/36 (a hit on an Original DR <= 7 that is no Dud), and malfunctions the
  // gun on an Original 12 with m = 1/36, a miss. In the second Rally Phase a malfunctioned gun
  // rolls for repair (D3.7): dr 1 repairs it (it fires), 6 disables it, else it stays out. The
  // malfunction lost its Acquisition (C6.5): repaired, it hits only on an Original DR <= 5 and
  // kills with kr = 10/36 x 35/36. A unit's two turns leave b alive with
  // n = (1-k-m)(1-k) + m (1/6 (1-kr) + 5/6), and the two units' dice are their own:
  // P(b destroyed) = 1 - n^2.
  // a1 is out of action at some point if it malfunctions in turn 1 (m), or, still able, fires
  // again in turn 2 (b alive: a2 missed in turn 1) and malfunctions then:
  // m + (1-k-m)(1-k) m. a2 fires in turn 1 if a1 did not kill (1-k), and in turn 2 if b lives
  // through a1's two turns (n) and a2 came out of turn 1 able (1-k-m):
  // P(a2 out) = (1-k) m + n (1-k-m) m.
  const double k = 21.0 / 36 * 35.0 / 36, m = 1.0 / 36, kr = 10.0 / 36 * 35.0 / 36;
  const double n = (1 - k - m) * (1 - k) + m * ((1 - kr) / 6 + 5.0 / 6);
  FightUnit a1 = killer("a1", 0, 5), a2 = killer("a2", 0, 5);
  a1.firer.breakdown = a2.firer.breakdown = 12;
  const Fight f = fight_of({a1, a2, killer("b", 1, 5)}, {FightStep::kRally, FightStep::kFireA}, 2);
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(flag(p, r, "b_destroyed") == Approx(1 - n * n).margin(1e-12));
  CHECK(flag(p, r, "a_wins") == Approx(1 - n * n).margin(1e-12));
  CHECK(flag(p, r, "a1_gun_out") == Approx(m + (1 - k - m) * (1 - k) * m).margin(1e-12));
  CHECK(flag(p, r, "a2_gun_out") == Approx((1 - k) * m + n * (1 - k - m) * m).margin(1e-12));
}

TEST_CASE("fight: Shock, its recovery and the next target - closed form over two game turns", "[asl][fight]") {
  // Derived by hand. a fires HE at b1 and b2 (target "auto": the first enemy still able to
  // fight), which never fire back, in two game turns of [Rally Phase, A's fire]; no ROF.
  // With Acquisition -2 and Modified TH# 2 it hits on an Original DR <= 4: (1,1) a CH (C3.7),
  // (1,2) and (1,3) the turret (colored < white, C3.9), (2,1), (2,2), (3,1) the hull. Its Final
  // TK# is 15 - 8 = 7 (HE: no Case D): a TK DR 2-6 kills (15/36), 7 or 8 Shocks on the turret
  // and immobilizes the hull (11/36, C7.41, C7.5), 9-12 do nothing; a CH doubles the Basic TK#
  // (22: all but a Dud kill). A shot at b1: kill K = (35 + 5 x 15)/1296, Shock S = 2 x 11/1296,
  // immobilized M = 3 x 11/1296.
  // Turn 1: a fires at b1. Rally Phase of turn 2: a Shocked b1 is no longer Shocked on a dr 1-2,
  // else Unconfirmed Kill (C7.42). Turn 2: a fires at b1 if it is alive and not Shocked or UK
  // (still Acquired: K again); else at b2 (C6.5: Acquisition lost on another target; with no
  // DRM only an Original 2 hits, the lowest Final DR, so a CH needs a subsequent dr of 1, else
  // a hull hit, C3.7): K2 = (35/6 + 5 x 15/6)/1296.
  const double K = 110.0 / 1296, S = 22.0 / 1296, M = 33.0 / 1296, K2 = 110.0 / 7776;
  FightUnit a = killer("a", 0, 2);
  a.firer.ammo = Ammo::kHE;
  a.override_.basic_tk = 15;
  const Fight f = fight_of({a, killer("b1", 1, 2), killer("b2", 1, 2)}, {FightStep::kRally, FightStep::kFireA}, 2);
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  const double again = (1 - K - S) + S / 3;  // b1 fired at again in turn 2
  CHECK(flag(p, r, "b1_destroyed") == Approx(K + again * K).margin(1e-12));
  CHECK(flag(p, r, "b2_destroyed") == Approx((K + 2 * S / 3) * K2).margin(1e-12));
  CHECK(flag(p, r, "a_wins") == Approx(K * K2).margin(1e-12));
  // immobilized in turn 1, or fired at again not yet immobilized (minus those immobilized)
  CHECK(flag(p, r, "b1_immobilized") == Approx(M + (again - M) * M).margin(1e-12));
  CHECK(test::flag(p, r.first, "b1_destroyed") == Approx(K).margin(1e-12));
}

TEST_CASE("fight: a tank against a Gun - closed form from C3.7, C11.6 and the IFT", "[asl][fight][gun]") {
  // Derived by hand. The tank (A) fires a 75L with Modified TH# 6 on the Infantry Target Type
  // (C11.2) with full Acquisition (-2): Final = Original - 2. It hits on an Original DR <= 8
  // (26/36). On the ITT a hit is a CH when 2 x Final < 6, an Original DR <= 4 (6/36, C3.7), and
  // a CH destroys a Gun and its manning Infantry (C3.71, C11.6). A normal hit (Original 5-8,
  // 20/36) attacks with HE on the 12 FP column (75mm, C.6), no DRM: an Effects DR of 2 is 1KIA
  // (Gun and crew eliminated), 3 is K/3 (the Gun malfunctions and Casualty Reduction eliminates
  // its crew, A7.302: out of the fight), 3/36; anything else is a Near Miss, whose crew check
  // salvo does not roll. pA = 6/36 + 20/36 x 3/36 = 276/1296.
  // With AP the hit attacks with its HE equivalency, the 2 FP column (C8.31): DR 2 is K/1, which
  // AP makes the Gun's elimination (C11.52), 1/36; pA = 6/36 + 20/36 x 1/36 = 236/1296.
  // The Gun (B) kills the tank with killer()'s chance. A fires first in each round: the closed
  // form of the first test.
  for (const Ammo ammo : {Ammo::kHE, Ammo::kAP}) {
    const double pa = (ammo == Ammo::kHE ? 276.0 : 236.0) / 1296.0, pb = p_dr_at_most(5), q = (1 - pa) * (1 - pb);
    FightUnit tank = killer("tank", 0, 6);
    tank.firer.ammo = ammo;
    FightUnit gun = killer("gun", 1, 5);
    gun.firer.vehicle = false;
    gun.firer.repair = 1;
    gun.as_target.type = TargetType::kInfantry;
    gun.as_target.gun = true;
    gun.as_target.gunshield = true;  // a Near Miss is all it changes: nothing here
    const int n = 4;
    const Fight f = fight_of({tank, gun}, {FightStep::kFireA, FightStep::kFireB}, n);
    const RollProgram p = compile(f);
    const sim::RunResult r = sim::solve_exact(p);
    INFO((ammo == Ammo::kHE ? "HE" : "AP"));
    const double s = (1 - std::pow(q, n)) / (1 - q);
    CHECK(flag(p, r, "a_wins") == Approx(pa * s).margin(1e-12));
    CHECK(flag(p, r, "gun_destroyed") == Approx(pa * s).margin(1e-12));
    CHECK(flag(p, r, "b_wins") == Approx((1 - pa) * pb * s).margin(1e-12));
    CHECK(flag(p, r, "neither") == Approx(std::pow(q, n)).margin(1e-12));
    CHECK(test::outcome(p, r.first, "a_wins") == Approx(pa).margin(1e-12));
  }
}

namespace {

// A duel (fire.turns = T, fire.rally_phases = r): each turn r Rally Phases, then the firer's fire
// phase. As a fight: the firer on side A, the target on side B, which never fires. The two
// programs must give the same numbers.
void check_one_sided(const Situation& d) {
  FightUnit a, b;
  a.name = "firer";
  a.side = 0;
  a.firer = d.firer;
  a.fire = d.fire;
  a.override_ = d.override_;
  b.name = "target";
  b.side = 1;
  b.as_target = d.target;
  b.fire.range = d.fire.range;  // one range between the sides
  if (d.target.gun) {           // a Gun (C11), which never fires here
    b.firer.vehicle = false;
    b.firer.repair = 1;
  }
  std::vector<FightStep> seq(static_cast<std::size_t>(d.fire.rally_phases), FightStep::kRally);
  seq.push_back(FightStep::kFireA);
  const Fight f = fight_of({a, b}, seq, d.fire.turns);
  const RollProgram fp = compile(f);
  const RollProgram dp = asl::compile(d).program;
  const sim::RunResult fr = sim::solve_exact(fp), dr = sim::solve_exact(dp);
  const int T = d.fire.turns;
  INFO(d.name);
  CHECK(flag(fp, fr, "target_destroyed") ==
        Approx(test::flag(dp, dr.run, "destroyed_by_turn_" + std::to_string(T))).margin(1e-12));
  CHECK(flag(fp, fr, "firer_gun_out") ==
        Approx(test::flag(dp, dr.run, "gun_out_by_turn_" + std::to_string(T))).margin(1e-12));
  for (int t = 1; t <= T; ++t)
    CHECK(test::end_reason(fp, fr, "a_wins_turn_" + std::to_string(t)) ==
          Approx(test::end_reason(dp, dr, "destroyed_turn_" + std::to_string(t))).margin(1e-12));
  CHECK(test::counter(fp, fr.run, "shots") == Approx(test::counter(dp, dr.run, "shots")).margin(1e-12));
}

// A random duel: a random fight unit's weapon (fight_test_util.h) at another's armor, over 2 to
// 4 game turns with 1 or 2 Rally Phases each, Acquisition, Intensive Fire and stop rules varied.
Situation random_duel(std::mt19937_64& g, int i) {
  const auto pick = [&g](int n) { return static_cast<int>(g() % static_cast<std::uint64_t>(n)); };
  Situation d = base();
  d.name = "random duel " + std::to_string(i);
  d.firer = random_unit(g, "a", 0).firer;
  d.target = random_unit(g, "b", 1).as_target;
  d.fire.range = 1 + pick(16);
  d.fire.acquisition = pick(3) == 0 ? 1 : 0;
  d.fire.intensive_fire = pick(6) == 0;
  if (pick(4) == 0) d.fire.stop_on = StopOn::kEffect;
  d.fire.turns = 2 + pick(3);
  d.fire.rally_phases = 1 + pick(2);
  return d;
}

}  // namespace

TEST_CASE("fight: a one-sided fight equals the duel it describes", "[asl][fight][duel]") {
  for (const Situation& d : duels()) check_one_sided(d);
  // The duel example
  const auto file = load::load_file(std::string(SALVO_SOURCE_DIR) + "/examples/duel-5-turns.toml");
  REQUIRE(file.situations.size() == 1);
  REQUIRE(file.situations[0].situation.fire.turns == 5);
  check_one_sided(file.situations[0].situation);
  // 200 random duels (fewer under the sanitizers: the same kinds, at a tenth of the time)
  std::mt19937_64 g(1515);
  const int n = salvo::testing::kSanitized ? 20 : 200;
  for (int i = 0; i < n; ++i) check_one_sided(random_duel(g, i));
}

TEST_CASE("fight: later game turns copied from the turn before are the program built from the rules",
          "[asl][fight][turns]") {
  // compile() copies a state of a later game turn from its twin a turn earlier; the program must
  // be the one built state by state (its hash: every table and name).
  const auto same = [](const Fight& f) {
    INFO(f.name << " over " << f.turns << " game turns");
    const RollProgram copied = compile(f);
    const RollProgram built = detail::compile_without_twins(f);
    REQUIRE(copied.num_states() == built.num_states());
    REQUIRE(copied.leaves.size() == built.leaves.size());
    REQUIRE(copied.hash() == built.hash());
  };
  // The example fights (2 against 2: one and two game turns, its states grow fast)
  for (const auto& e : std::filesystem::directory_iterator(std::string(SALVO_SOURCE_DIR) + "/examples/fights")) {
    const std::string path = e.path().string();
    const auto loaded = load::load_any_string(load::read_text_file(path), path);
    for (const auto& point : std::get<load::LoadedFight>(loaded).fights) {
      Fight f = point.situation;
      const bool big = f.units.size() >= 4;
      for (const int turns : {1, 2, 3, 6}) {
        if (big && turns > (salvo::testing::kSanitized ? 1 : 2)) continue;
        f.turns = turns;
        same(f);
      }
    }
  }
  // Random fights over 2 to 5 game turns: vehicles and Guns, infantry; a sequence of only A's
  // fire phase, so that a unit whose gun is out stops the rolls and the fight runs through game
  // turns without a step (a step over several turn ends, the turns over in its middle).
  std::mt19937_64 g(1943);
  const int n = salvo::testing::kSanitized ? 12 : 60;
  for (int i = 0; i < n; ++i) {
    const int na = 1 + (i % 3 == 1), nb = 1;
    Fight f = random_fight(g, "random " + std::to_string(i), na, nb);
    if (i % 4 == 3) {
      f.units = {random_infantry(g, "a0", 0), random_infantry(g, "b0", 1)};
      if (i % 8 == 7) f.units.push_back(random_infantry(g, "a1", 0));
    }
    f.turns = 2 + static_cast<int>(g() % 4);
    if (i % 5 == 0) f.sequence = {FightStep::kRally, FightStep::kFireA, FightStep::kFireB};
    if (i % 5 == 1) {
      f.sequence = {FightStep::kFireA};
      if (!is_infantry(f.units[0])) f.units[0].firer.breakdown = 9;  // (often out, never repaired: no Rally Phase)
    }
    same(f);
  }
}

TEST_CASE("fight: bad fights are refused naming the key", "[asl][fight][input]") {
  Fight f = fight_of({killer("a", 0, 7), killer("b", 1, 7)}, {FightStep::kFireA, FightStep::kFireB}, 2);
  SECTION("own side") {
    f.units.push_back(killer("c", 0, 7));
    f.units[0].target = "c";
    const auto e = check(f);
    REQUIRE(e);
    CHECK(e->key() == "unit.a.target");
    CHECK(std::string(e->what()).find("own side") != std::string::npos);
  }
  SECTION("no such unit") {
    f.units[0].target = "z";
    const auto e = check(f);
    REQUIRE(e);
    CHECK(e->key() == "unit.a.target");
  }
  SECTION("over the state limit") {
    f.units[0].firer.breakdown = 10;  // malfunctions and repairs: more states
    try {
      compile(f, 5);
      FAIL("compiled");
    } catch (const RulesError& e) {
      CHECK(e.key() == "fight.turns");
      CHECK(std::string(e.what()) == "the fight has more than 5 states, more than salvo builds: fewer turns or units");
    }
    const RollProgram p = compile(f);
    CHECK(p.num_states() > 5);
    CHECK_NOTHROW(p.validate());  // its states share their phases' DAGs through leaf tables
    CHECK(p.nodes.size() < p.num_states());
  }
  SECTION("empty side") {
    f.units[1].side = 0;
    const auto e = check(f);
    REQUIRE(e);
    CHECK(std::string(e->what()).find("side B has no unit") != std::string::npos);
  }
}
