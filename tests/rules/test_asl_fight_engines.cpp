// Fights (asl_fight.h) on the engines: the compiled program against the plain interpreter
// (fight_interpreter.h) by exhaustive enumeration of the dice on small fights and by sampled
// trials on larger ones, and Monte Carlo against exact.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "fight_test_util.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/dice_paths.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;
using salvo::testing::cut_when_sanitized;
using salvo::testing::kSanitized;
using salvo::testing::release_only;

namespace {

// Four fights with Guns (C11) fired on by tanks firing HE, the Guns firing one shot a step
// (fire.max_shots = 1) in a sequence that gives them several steps of one Player Turn (C2.24):
// 1 against 1, 2 against 1, 1 against 2 and 2 against 2 (a tank and a Gun each).
std::vector<Fight> gun_fights(std::mt19937_64& g) {
  std::vector<Fight> made;
  const auto tank = [&g](const std::string& name, int side) {
    FightUnit u = random_unit(g, name, side);
    u.firer.ammo = Ammo::kHE;
    u.firer.depletion.reset();
    return u;
  };
  const auto gun = [&g](const std::string& name, int side) {
    FightUnit u = random_gun(g, name, side);
    u.fire.max_shots = 1;
    return u;
  };
  const std::vector<std::vector<FightUnit>> sides = {
      {tank("a0", 0), gun("b0", 1)},
      {tank("a0", 0), tank("a1", 0), gun("b0", 1)},
      {gun("a0", 0), tank("b0", 1), tank("b1", 1)},
      {tank("a0", 0), gun("a1", 0), gun("b0", 1), tank("b1", 1)},
  };
  for (std::size_t k = 0; k < sides.size(); ++k) {
    Fight f;
    f.name = "Gun fight " + std::to_string(k);
    f.units = sides[k];
    for (FightUnit& u : f.units) u.fire.range = 3 + static_cast<int>(k);
    f.sequence = {FightStep::kRally, FightStep::kFireB, FightStep::kFireA, FightStep::kFireB, FightStep::kFireB};
    f.turns = k < 2 ? 2 : 1;
    made.push_back(f);
  }
  return made;
}

}  // namespace

TEST_CASE("fight: Monte Carlo agrees with exact on 36 random fights", "[asl][fight][mc]") {
  // 1 against 1, 2 against 1, 1 against 2 and 2 against 2, over 1 to 3 game turns (2 against
  // 2: one turn, its state space grows fast), in the ASL game turn or alternating; then four
  // with Guns, firing shot by shot (gun_fights).
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
  for (const Fight& f : gun_fights(g)) fights.push_back(f);
  constexpr std::uint64_t kTrials = kSanitized ? 20'000 : 100'000;
  // Under the sanitizers a quarter of them, every kind kept (the exact counter distributions
  // the check needs are its cost, not the trials).
  test::McAgreement agree;
  std::uint64_t key = 0;
  for (const Fight& f : fights) {
    ++key;
    if (kSanitized && key <= 32 && (key - 1) / 4 % 4 != 0) continue;  // 0-3, 16-19: each kind twice
    const RollProgram p = compile(f);
    agree.both_engines(p, test::mc_options(7, key, kTrials), f.name);
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
  // Guns fired on (C11) and firing shot by shot while they keep their ROF (C2.24).
  const std::vector<Fight> guns = gun_fights(g);
  fights.push_back(guns[0]);
  fights.push_back(guns[3]);
  // Infantry units: 1 against 1, 2 against 1, 1 against 2, 2 against 2, over 1 to 3 game turns.
  for (int i = 0; i < 6; ++i) {
    Fight f;
    f.name = "infantry " + std::to_string(i);
    const int na = 1 + (i % 4 == 1 || i % 4 == 3), nb = 1 + (i % 4 >= 2);
    for (int k = 0; k < na; ++k) f.units.push_back(random_infantry(g, "a" + std::to_string(k), 0));
    for (int k = 0; k < nb; ++k) f.units.push_back(random_infantry(g, "b" + std::to_string(k), 1));
    const int range = 1 + static_cast<int>(g() % 6);
    for (FightUnit& u : f.units) u.fire.range = range;
    f.turns = 1 + static_cast<int>(g() % 3);
    if (i == 4) f.sequence = {FightStep::kRally, FightStep::kFireA, FightStep::kFireB};
    fights.push_back(f);
  }
  constexpr std::uint64_t kTrials = kSanitized ? 4'000 : 30'000;
  test::McAgreement agree;
  for (const Fight& f : fights) {
    if (cut_when_sanitized(f.name, {"interpreted 0", "interpreted 3", "interpreted 4", "interpreted 8", "Gun fight 3",
                                    "infantry 1", "infantry 3", "infantry 5"}))
      continue;
    const RollProgram p = compile(f);
    const sim::RunResult exact = sim::solve_exact(p);
    FightInterpreter interp(f);
    RandomDice dice(std::hash<std::string>{}(f.name));
    FightTally t(p);
    for (std::uint64_t k = 0; k < kTrials; ++k) t.add(f, interp.run(dice), 1.0);
    const auto n = static_cast<double>(kTrials);
    for (std::size_t k = 0; k < t.flags.size(); ++k) {
      agree.proportion(exact.run.flags[k].value, t.flags[k] / n, kTrials, f.name + " " + p.flag_names[k]);
      if (k >= fight::kNumSideFlags)
        agree.proportion(exact.first.flags[k].value, t.flags1[k] / n, kTrials, f.name + " turn 1 " + p.flag_names[k]);
    }
    for (std::size_t k = 0; k < t.ends.size(); ++k)
      agree.proportion(exact.run.end_reasons[k].value, t.ends[k] / n, kTrials, f.name + " " + p.end_reason_names[k]);
    for (std::size_t k = 0; k < t.won1.size(); ++k)
      agree.proportion(exact.first.outcomes[k].value, t.won1[k] / n, kTrials, f.name + " turn 1 " + p.outcome_names[k]);
    const test::Moments mt = test::exact_counter_moments(p, sim::Window::kRun, fight::kGameTurns);
    agree.mean(mt.mean, mt.variance, t.turns / n, kTrials, f.name + " game turns");
    const test::Moments ms = test::exact_counter_moments(p, sim::Window::kRun, fight::kShots);
    agree.mean(ms.mean, ms.variance, t.shots / n, kTrials, f.name + " shots");
  }
  CHECK(agree.size() > (kSanitized ? 100 : 250));
  agree.judge();
}

namespace {

// Small fights whose every dice sequence can be played: few hitting faces (killer()'s low TH#),
// one or two game turns.
std::vector<Fight> enumerable_fights() {
  std::vector<Fight> out;
  const auto add = [&out](const std::string& name, std::vector<FightUnit> units, std::vector<FightStep> seq,
                          int turns) {
    Fight f = fight_of(std::move(units), std::move(seq), turns);
    f.name = name;
    out.push_back(f);
  };
  const std::vector<FightStep> a_b = {FightStep::kFireA, FightStep::kFireB};
  {  // ROF kept on a colored 1 (two shots at most), a malfunction on 11-12
    FightUnit a = killer("a", 0, 1), b = killer("b", 1, 1);
    a.firer.rof = 1;
    a.fire.max_shots = 2;
    b.firer.breakdown = 11;
    add("1 against 1, ROF and a malfunction", {a, b}, a_b, 1);
  }
  add("2 against 1, both sides firing", {killer("a0", 0, 0), killer("a1", 0, 0), killer("b", 1, 0)}, a_b, 1);
  {  // HE with a Final TK# of 7: kills, Shock and immobilization; malfunctions and their repair,
     // the Shock's recovery in the second game turn's Rally Phase
    // (a UK or Shocked target is passed over for the first able one, C7.42)
    FightUnit a = killer("a", 0, 2);
    a.firer.ammo = Ammo::kHE;
    a.override_.basic_tk = 15;
    a.firer.breakdown = 11;
    add("2 game turns: Shock, recovery, malfunction, repair", {a, killer("b1", 1, 2), killer("b2", 1, 2)},
        {FightStep::kRally, FightStep::kFireA}, 2);
  }
  {  // a tank's HE at a Gun on the Infantry Target Type (C11), which fires back
    FightUnit tank = killer("tank", 0, 2), gun = killer("gun", 1, 0);
    tank.firer.ammo = Ammo::kHE;
    gun.firer.vehicle = false;
    gun.firer.repair = 1;
    gun.as_target.type = TargetType::kInfantry;
    gun.as_target.gun = true;
    gun.as_target.gunshield = true;
    add("a tank against a Gun", {tank, gun}, a_b, 1);
    // the Gun one shot a step, again only with its ROF kept (C2.24); the tank cannot hit
    gun.firer.rof = 2;
    gun.fire.max_shots = 1;
    tank.override_.modified_th = -8;
    add("a Gun firing shot by shot", {tank, gun}, {FightStep::kFireB, FightStep::kFireA, FightStep::kFireB}, 1);
  }
  add("1 against 1 over 2 game turns", {killer("a", 0, 1), killer("b", 1, 1)}, a_b, 2);
  {  // infantry both sides: a squad and its LMG (B#11; no ROF: every chain of attacks would
     // be too many dice paths) at a squad in woods that answers
    FightUnit a = squad("a", 0, 4), b = squad("b", 1, 4);
    a.firer.mg = SwMg{2, 8, 0, 11};
    b.as_target.tem = 1;
    add("infantry 1 against 1, both sides", {a, b}, a_b, 1);
    // an MG that malfunctions on an 8+ (B#8), repaired in the Rally Phase on a dr 1 (A9.72); the
    // target in a building, pinned (PTC) or broken in the first Player Turn, unpinned in the next
    FightUnit mg = squad("mg", 0, 0);
    mg.firer.normal_range.reset();
    mg.firer.mg = SwMg{4, 12, 0, 8};
    FightUnit t = squad("t", 1, 2);
    t.as_target.tem = 3;
    add("infantry MG repair", {mg, t}, {FightStep::kFireA, FightStep::kRally, FightStep::kFireA}, 1);
  }
  return out;
}

}  // namespace

TEST_CASE("fight: the compiled program equals the plain interpreter on every dice path", "[asl][fight]") {
  // Every dice sequence the interpreter can ask for, each with its probability
  // (support/dice_paths.h): what the interpreter's records add up to is the fight's exact
  // distribution, which the exact engine's solve of the compiled program must equal to 1e-12.
  for (const Fight& f : enumerable_fights()) {
    if (release_only(f.name, {"1 against 1 over 2 game turns", "2 against 1, both sides firing",
                              "infantry 1 against 1, both sides"}))
      continue;
    INFO(f.name);
    const RollProgram p = compile(f);
    const sim::RunResult r = sim::solve_exact(p);
    FightInterpreter interp(f);
    FightTally t(p);
    FightRecord rec;
    const double cut = test::for_each_dice_path([&](Dice& d) { rec = interp.run(d); },
                                                [&](double w) { t.add(f, rec, w); }, 64, 12'000'000);
    REQUIRE(cut == 0.0);
    CHECK(t.weight == Approx(1.0).margin(1e-12));
    for (std::size_t k = 0; k < t.flags.size(); ++k) {
      INFO(p.flag_names[k]);
      CHECK(r.run.flags[k].value == Approx(t.flags[k]).margin(1e-12));
      if (k >= fight::kNumSideFlags) CHECK(r.first.flags[k].value == Approx(t.flags1[k]).margin(1e-12));
    }
    for (std::size_t k = 0; k < t.ends.size(); ++k) {
      INFO(p.end_reason_names[k]);
      CHECK(r.run.end_reasons[k].value == Approx(t.ends[k]).margin(1e-12));
    }
    for (std::size_t k = 0; k < t.won1.size(); ++k) CHECK(r.first.outcomes[k].value == Approx(t.won1[k]).margin(1e-12));
    CHECK(r.run.counters[fight::kShots].value == Approx(t.shots).margin(1e-12));
    CHECK(r.first.counters[fight::kShots].value == Approx(t.shots1).margin(1e-12));
    CHECK(r.run.counters[fight::kGameTurns].value == Approx(t.turns).margin(1e-12));
  }
}
