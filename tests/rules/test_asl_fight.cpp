// Fights (asl_fight.h): closed forms derived by hand, a one-sided fight against the duel it
// must equal, Monte Carlo against exact, and the refusals.
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "asl_test_util.h"
#include "fight_interpreter.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "support/mc_agreement.h"
#include "support/named.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

// The chance that a killer() with Modified TH# `th` kills in one fire phase: its Final TH DR
// is the DR - 2 (full Acquisition), and every hit kills but an Original TK DR 12, a Dud
// (C7.35): P(DR <= th + 2) * 35/36.
double p_dr_at_most(int th) {
  int ways = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) ways += a + b <= th + 2 ? 1 : 0;
  return ways / 36.0 * 35.0 / 36.0;
}

// A unit that kills with a fixed chance each fire phase: Modified TH# `th` (C3.3 override), no
// ROF, full Acquisition from the start (C6.5: -2 in every phase, so that no phase differs from
// another), a Basic TK# of 30 that every TK DR but a Dud is below (C7.1, C7.35), and a B# no
// DR reaches (no malfunction). Its chance: p_dr_at_most(th).
FightUnit killer(const std::string& name, int side, int th) {
  FightUnit u;
  u.name = name;
  u.side = side;
  const Situation b = base();
  u.firer = b.firer;
  u.firer.breakdown = 13;
  u.fire = b.fire;
  u.fire.acquisition = 2;
  u.as_target = b.target;
  u.override_.modified_th = th;
  u.override_.basic_tk = 30;
  return u;
}

Fight fight_of(std::vector<FightUnit> units, std::vector<FightStep> sequence, int turns) {
  Fight f;
  f.name = "test";
  f.units = std::move(units);
  f.sequence = std::move(sequence);
  f.turns = turns;
  return f;
}

double flag(const RollProgram& p, const sim::RunResult& r, const std::string& name) {
  return test::flag(p, r.run, name);
}

}  // namespace

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

TEST_CASE("fight: a one-sided fight equals the duel it describes", "[asl][fight][duel]") {
  // A duel (fire.turns = T, fire.rally_phases = r): each turn r Rally Phases, then the firer's
  // fire phase. As a fight: the firer on side A, the target on side B, which never fires.
  for (const Situation& d : duels()) {
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
}

namespace {

// A random unit for the Monte Carlo checks: a real gun and armor, ROF, B#, Low Ammo, APCR.
FightUnit random_unit(std::mt19937_64& g, const std::string& name, int side) {
  const auto pick = [&g](int n) { return static_cast<int>(g() % static_cast<std::uint64_t>(n)); };
  FightUnit u;
  u.name = name;
  u.side = side;
  u.firer.nationality = side == 0 ? Nationality::kAmerican : Nationality::kGerman;
  static const char* const kGuns[] = {"75", "76L", "75L", "88L", "57L", "50L"};
  u.firer.gun = *parse_gun(kGuns[pick(6)]);
  u.firer.rof = pick(3);
  u.firer.breakdown = 10 + pick(3);
  u.firer.low_ammo = pick(3) == 0;
  if (pick(4) == 0 && (u.firer.gun.designation == "75L" || u.firer.gun.designation == "76L")) {
    u.firer.ammo = Ammo::kAPCR;
    u.firer.depletion = 4 + pick(4);
  }
  static const int kAf[] = {3, 4, 6, 8, 11, 14};
  const int front = kAf[pick(6)], side_af = kAf[pick(3)];
  u.as_target.armor = Armor{front, side_af, front, side_af};
  u.as_target.facing = pick(3) == 0 ? Facing::kSide : Facing::kFront;
  u.as_target.hull_down = pick(5) == 0;
  u.fire.acquisition = pick(3) == 0 ? 1 : 0;
  return u;
}

// `na` random units on side A and `nb` on side B, one random range between the sides.
Fight random_fight(std::mt19937_64& g, const std::string& name, int na, int nb) {
  Fight f;
  f.name = name;
  for (int k = 0; k < na; ++k) f.units.push_back(random_unit(g, "a" + std::to_string(k), 0));
  for (int k = 0; k < nb; ++k) f.units.push_back(random_unit(g, "b" + std::to_string(k), 1));
  const int range = 2 + static_cast<int>(g() % 12);
  for (FightUnit& u : f.units) u.fire.range = range;
  return f;
}

}  // namespace

TEST_CASE("fight: Monte Carlo agrees with exact on 32 random fights", "[asl][fight][mc]") {
  // 1 against 1, 2 against 1, 1 against 2 and 2 against 2, over 1 to 3 game turns (2 against
  // 2: one turn, its state space grows fast), in the ASL game turn or alternating.
  std::mt19937_64 g(2026);
  std::vector<Fight> fights;
  for (int i = 0; i < 32; ++i) {
    const int na = 1 + (i % 4 == 1 || i % 4 == 3), nb = 1 + (i % 4 >= 2);
    Fight f = random_fight(g, "random " + std::to_string(i), na, nb);
    if (na + nb == 4)
      f.turns = 1;
    else
      f.turns = 1 + static_cast<int>(g() % (na + nb == 2 ? 3 : 2));
    if (i % 3 == 0) f.sequence = {FightStep::kRally, FightStep::kFireA, FightStep::kFireB};
    if (nb == 2 && i % 2 == 0) f.units[0].target = "b1";
    fights.push_back(f);
  }
#ifdef SALVO_SANITIZED
  constexpr std::uint64_t kTrials = 20'000;
#else
  constexpr std::uint64_t kTrials = 100'000;
#endif
  test::McAgreement agree;
  std::uint64_t key = 1;
  for (const Fight& f : fights) {
    const RollProgram p = compile(f);
    agree.both_engines(p, test::mc_options(7, key, kTrials), f.name);
    ++key;
  }
  agree.judge();
}

TEST_CASE("fight: the compiled program agrees with the plain fight interpreter", "[asl][fight][mc]") {
  // The interpreter (fight_interpreter.h) plays trials with real dice; the compiled program is
  // solved exactly. Every flag of both windows, who won, the turn it ended in and the shots
  // must agree within the Bonferroni-corrected standard error of the exact values.
  std::mt19937_64 g(43);
  std::vector<Fight> fights;
  for (int i = 0; i < 10; ++i) {
    const int na = 1 + (i % 3 == 1), nb = 1 + (i % 3 == 2);
    Fight f = random_fight(g, "interpreted " + std::to_string(i), na, nb);
    f.turns = 1 + static_cast<int>(g() % 3);
    if (i % 4 == 0) f.sequence = {FightStep::kRally, FightStep::kFireA, FightStep::kFireB};
    for (FightUnit& u : f.units) {
      if (i % 2 == 0) {  // light armor and HE: Shock, immobilization, recovery and wrecks in play
        u.as_target.armor = Armor{2, 1, 2, 1};
        u.firer.ammo = Ammo::kHE;
        u.firer.depletion.reset();
      }
      if (i % 5 == 3) u.firer.breakdown = 9;  // malfunctions and repairs
    }
    fights.push_back(f);
  }
#ifdef SALVO_SANITIZED
  constexpr std::uint64_t kTrials = 4'000;
#else
  constexpr std::uint64_t kTrials = 30'000;
#endif
  test::McAgreement agree;
  for (const Fight& f : fights) {
    const RollProgram p = compile(f);
    const sim::RunResult exact = sim::solve_exact(p);
    FightInterpreter interp(f);
    RandomDice dice(std::hash<std::string>{}(f.name));
    std::vector<double> flags(p.flag_names.size()), flags1(p.flag_names.size()), ends(p.end_reason_names.size());
    std::array<double, fight::kNumOutcomes> won1{};
    double turns = 0, shots = 0;
    for (std::uint64_t t = 0; t < kTrials; ++t) {
      const FightRecord rec = interp.run(dice);
      const int side_flag = rec.winner == fight::kOutcomeAWins   ? fight::kAWins
                            : rec.winner == fight::kOutcomeBWins ? fight::kBWins
                                                                 : fight::kNeither;
      ++flags[static_cast<std::size_t>(side_flag)];
      for (std::size_t k = fight::kNumSideFlags; k < flags.size(); ++k) {
        if (rec.flags & (FlagMask{1} << k)) ++flags[k];
        if (rec.flags_turn1 & (FlagMask{1} << k)) ++flags1[k];
      }
      ++ends[static_cast<std::size_t>(rec.winner == fight::kOutcomeAWins   ? fight::end_a_wins(rec.end_turn)
                                      : rec.winner == fight::kOutcomeBWins ? fight::end_b_wins(rec.end_turn, f.turns)
                                                                           : fight::end_turns_over(f.turns))];
      ++won1[static_cast<std::size_t>(rec.winner_turn1)];
      turns += rec.end_turn;
      shots += rec.shots;
    }
    const auto n = static_cast<double>(kTrials);
    for (std::size_t k = 0; k < flags.size(); ++k) {
      agree.proportion(exact.run.flags[k].value, flags[k] / n, kTrials, f.name + " " + p.flag_names[k]);
      if (k >= fight::kNumSideFlags)
        agree.proportion(exact.first.flags[k].value, flags1[k] / n, kTrials, f.name + " turn 1 " + p.flag_names[k]);
    }
    for (std::size_t k = 0; k < ends.size(); ++k)
      agree.proportion(exact.run.end_reasons[k].value, ends[k] / n, kTrials, f.name + " " + p.end_reason_names[k]);
    for (std::size_t k = 0; k < won1.size(); ++k)
      agree.proportion(exact.first.outcomes[k].value, won1[k] / n, kTrials, f.name + " turn 1 " + p.outcome_names[k]);
    const test::Moments mt = test::exact_counter_moments(p, sim::Window::kRun, fight::kGameTurns);
    agree.mean(mt.mean, mt.variance, turns / n, kTrials, f.name + " game turns");
    const test::Moments ms = test::exact_counter_moments(p, sim::Window::kRun, fight::kShots);
    agree.mean(ms.mean, ms.variance, shots / n, kTrials, f.name + " shots");
  }
  CHECK(agree.size() > 250);
  agree.judge();
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
