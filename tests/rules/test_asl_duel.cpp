// Duels over several turns (fire.turns > 1): repair in the Rally Phase (D3.7, A9.72), Low Ammo
// and spent special ammunition carried over (D3.71, C8.9), Acquisition carried over and lost on
// a malfunction (C6.5), Shock recovery (C7.42). The compiled program is checked against the
// duel interpreter (a plain turn loop) by Monte Carlo within 5 standard errors, against
// hand-derived numbers, against the one-turn program for the first turn, and through both
// engines.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "asl_cases.h"
#include "asl_test_util.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "support/mc_agreement.h"
#include "support/named.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

#ifdef SALVO_SANITIZED
constexpr std::uint64_t kRefTrials = 20'000;
#else
constexpr std::uint64_t kRefTrials = 100'000;
#endif

Situation duel_base(int turns) {
  Situation s = base();
  s.fire.turns = turns;
  return s;
}

/// duel_base(turns) fired by a non-vehicular NT Gun with R# `repair` (A9.72).
Situation gun_duel(int turns, int repair) {
  Situation s = duel_base(turns);
  s.firer.vehicle = false;
  s.firer.gun_type = GunType::kNT;
  s.firer.repair = repair;
  return s;
}

}  // namespace

// A varied set of duels (asl_test_util.h): tests/rules/cases/duels.toml.
std::vector<Situation> salvo::asl::testing::duels() { return situations_of(cases("duels.toml", {{"base", base()}})); }

namespace {

// What the interpreter's trials add up to, divided by their number: indexed as the duel
// program numbers its flags and end reasons (duel::flag_names, duel::end_reason_names), its
// outcomes (duel::Status) and the rules' counters.
test::PathTally sample(const Situation& s, std::uint64_t trials, std::uint64_t seed) {
  const int T = s.fire.turns;
  DuelInterpreter interp(s);
  RandomDice dice(seed);
  test::PathTally r(static_cast<std::size_t>(duel::num_flags(T)), kNumCounters, duel::kNumStatus,
                    static_cast<std::size_t>(duel::num_end_reasons(T)));
  for (std::uint64_t n = 0; n < trials; ++n) {
    const DuelTrace t = interp.run(dice);
    REQUIRE(!t.steps.empty());
    r.add(1.0, t.steps, std::min(t.first_window_steps, t.steps.size()), t.end);
  }
  r.divide(static_cast<double>(trials));
  return r;
}

/// f(duel, its program) for each duel, the duel named in the test's messages.
template <class F>
void each_duel(F&& f) {
  for (const Situation& s : duels()) {
    INFO("situation: " << s.name);
    f(s, compile(s));
  }
}

}  // namespace

TEST_CASE("duel: exact engine on the compiled program agrees with the duel interpreter", "[asl][duel]") {
  std::uint64_t seed = 1;
  test::McAgreement agree;
  each_duel([&](const Situation& s, const Compiled& c) {
    c.program.validate();
    const sim::RunResult ex = sim::solve_exact(c.program);
    const test::PathTally m = sample(s, kRefTrials, 20261122 + seed++);
    const std::uint64_t n = kRefTrials;
    const std::string at = s.name + ": ";
    const auto all_flags = duel::flag_names(s.fire.turns);
    for (std::size_t f = 0; f < all_flags.size(); ++f) {
      const auto i = test::find_name(c.program.flag_names, all_flags[f]);
      if (!i) {  // a flag this target type cannot produce
        CHECK(m.run_flags[f] == 0);
        continue;
      }
      agree.proportion(ex.first.flags[*i].value, m.first_flags[f], n, at + "turn 1 flag " + all_flags[f]);
      agree.proportion(ex.run.flags[*i].value, m.run_flags[f], n, at + "flag " + all_flags[f]);
    }
    REQUIRE(c.program.outcome_names.size() == static_cast<std::size_t>(duel::kNumStatus));
    for (std::size_t o = 0; o < c.program.outcome_names.size(); ++o) {
      agree.proportion(ex.first.outcomes[o].value, m.first_outcomes[o], n,
                       at + "status after turn 1: " + c.program.outcome_names[o]);
      agree.proportion(ex.run.outcomes[o].value, m.run_outcomes[o], n,
                       at + "final status: " + c.program.outcome_names[o]);
    }
    REQUIRE(c.program.end_reason_names == duel::end_reason_names(s.fire.turns));
    for (std::size_t e = 0; e < c.program.end_reason_names.size(); ++e)
      agree.proportion(ex.run.end_reasons[e].value, m.end_reasons[e], n, at + "end " + c.program.end_reason_names[e]);
    for (std::size_t k = 0; k < kNumCounters; ++k) {
      const std::string name = counter_name(static_cast<int>(k));
      const int counter = static_cast<int>(test::index_of(c.program.counter_names, name));
      const test::Moments exact = test::exact_counter_moments(c.program, sim::Window::kRun, counter);
      CHECK(exact.mean == Approx(test::counter(c.program, ex.run, name)).margin(1e-9));
      agree.mean(exact.mean, exact.variance, m.run_counts[k], n, at + "counter " + name);
    }
  });
  agree.judge();
  CHECK(duels().size() >= 12);
}

TEST_CASE("duel: Monte Carlo agrees with exact, identical on 1 and 2 threads", "[asl][duel][mc]") {
  std::uint64_t key = 100;
  test::McAgreement agree;
  each_duel([&](const Situation& s, const Compiled& c) {
    sim::McOptions o = test::mc_options(99, key++, 200'000);
    o.threads = 1;
    sim::Tallies t1;
    agree.both_engines(c.program, o, s.name, &t1);
    CHECK(t1 == test::tallies_on(c.program, o, 2));
  });
  agree.judge();
}

TEST_CASE("duel: the first turn is the one-turn fire phase", "[asl][duel]") {
  for (Situation s : duels()) {
    INFO("situation: " << s.name);
    // A Gun's turn ends when a K leaves it without its crew (unmans_gun); a single phase fires on.
    if (s.target.gun) continue;
    const Compiled d = compile(s);
    const sim::RunResult rd = sim::solve_exact(d.program);
    s.fire.turns = 1;
    // C2.5: the duel's first turn takes no Intensive Fire shot, as a one-turn phase without it.
    if (conditional_rof_bars_intensive(s)) s.fire.intensive_fire = false;
    const Compiled one = compile(s);
    const sim::RunResult r1 = sim::solve_exact(one.program);
    // Every per-step flag over turn 1 == over the one-turn phase.
    for (std::size_t i = 0; i < one.program.flag_names.size(); ++i) {
      INFO("flag " << one.program.flag_names[i]);
      CHECK(test::flag(d.program, rd.first, one.program.flag_names[i]) == Approx(r1.run.flags[i].value).margin(1e-12));
    }
    const double destroyed1 = test::end_reason(one.program, r1, "target_destroyed");
    CHECK(test::end_reason(d.program, rd, "destroyed_turn_1") == Approx(destroyed1).margin(1e-12));
    CHECK(test::flag(d.program, rd.run, "destroyed_by_turn_1") == Approx(destroyed1).margin(1e-12));
    CHECK(test::flag(d.program, rd.run, "gun_out_turn_1") ==
          Approx(test::flag(one.program, r1.run, "malfunction")).margin(1e-12));
    // Cumulative flags grow; destroyed by the last turn == every destroyed_turn_t end.
    const int T = d.program.end_reason_names.size() > 3 ? static_cast<int>(d.program.end_reason_names.size()) - 3 : 0;
    double ends = 0, prev = 0, prev_out = 0;
    for (int t = 1; t <= T; ++t) {
      ends += test::end_reason(d.program, rd, "destroyed_turn_" + std::to_string(t));
      const double by = test::flag(d.program, rd.run, "destroyed_by_turn_" + std::to_string(t));
      const double out = test::flag(d.program, rd.run, "gun_out_by_turn_" + std::to_string(t));
      CHECK(by == Approx(ends).margin(1e-12));
      CHECK(by >= prev - 1e-12);
      CHECK(out >= prev_out - 1e-12);
      CHECK(out >= test::flag(d.program, rd.run, "gun_out_turn_" + std::to_string(t)) - 1e-12);
      prev = by;
      prev_out = out;
    }
  }
}

TEST_CASE("duel: repair by hand (D3.7): a gun that malfunctions on every shot", "[asl][duel]") {
  // B2: every Original TH DR malfunctions the gun. The target cannot be harmed.
  Situation s = duel_base(3);
  s.firer.breakdown = 2;
  s.target.armor = Armor{18, 18, 18, 18};
  s.override_.basic_tk = 5;
  const Compiled c = compile(s);
  const sim::RunResult r = sim::solve_exact(c.program);
  // Turn 1 fires and malfunctions. RPh 2: 1 repairs (fire, malfunction), 6 disables (nothing
  // left to roll: the run ends), else still out. RPh 3 (5/6): 1 repairs and fires, 6 disables
  // (the run ends with the gun out for good), else still out (repairable: the turns ran out).
  CHECK(test::counter(c.program, r.run, "shots") == Approx(47.0 / 36).margin(1e-12));
  CHECK(test::flag(c.program, r.run, "disabled") == Approx(11.0 / 36).margin(1e-12));
  CHECK(test::end_reason(c.program, r, "gun_disabled") == Approx(11.0 / 36).margin(1e-12));
  CHECK(test::end_reason(c.program, r, "turns_over") == Approx(25.0 / 36).margin(1e-12));
  for (int t = 1; t <= 3; ++t) {
    CHECK(test::flag(c.program, r.run, "gun_out_turn_" + std::to_string(t)) == Approx(1.0).margin(1e-12));
    CHECK(test::flag(c.program, r.run, "destroyed_by_turn_" + std::to_string(t)) == 0.0);
  }
  CHECK(r.run.outcomes[duel::kIntact].value == Approx(1.0).margin(1e-12));
}

TEST_CASE("duel: a non-vehicular Gun repairs on dr <= R# (A9.72)", "[asl][duel]") {
  Situation s = gun_duel(2, 3);
  s.firer.breakdown = 2;
  s.target.armor = Armor{18, 18, 18, 18};
  s.override_.basic_tk = 5;
  const Compiled c = compile(s);
  const sim::RunResult r = sim::solve_exact(c.program);
  CHECK(test::counter(c.program, r.run, "shots") == Approx(1.0 + 3.0 / 6).margin(1e-12));
  CHECK(test::flag(c.program, r.run, "disabled") == Approx(1.0 / 6).margin(1e-12));
}

TEST_CASE("duel: a captured weapon is never repaired (A9.72): once out, the duel ends", "[asl][duel]") {
  // Captured: B# 12 - 2 = 10, the original 12 an X# (A21.11, A.11). The target cannot be harmed.
  // Each turn the gun fires once (ROF 0) unless it is out: DR 10-11 (5/36) malfunctions it for
  // good, 12 (1/36) disables it; either way nothing more can change and the duel ends, with the
  // gun out for good (also when that happens on the last turn).
  for (const bool vehicle : {true, false}) {
    Situation s = duel_base(3);
    s.firer.captured = true;
    s.firer.vehicle = vehicle;
    if (!vehicle) s.firer.gun_type = GunType::kNT;  // no R# needed: it is never used
    s.target.armor = Armor{18, 18, 18, 18};
    s.override_.basic_tk = 5;
    INFO("vehicle " << vehicle);
    const Compiled c = compile(s);
    const sim::RunResult r = sim::solve_exact(c.program);
    const double ok = 30.0 / 36;
    CHECK(test::counter(c.program, r.run, "shots") == Approx(1 + ok + ok * ok).margin(1e-12));
    CHECK(test::flag(c.program, r.run, "disabled") == Approx((1 + ok + ok * ok) / 36).margin(1e-12));
    CHECK(test::flag(c.program, r.run, "malfunction") == Approx((1 + ok + ok * ok) * 6 / 36).margin(1e-12));
    CHECK(test::end_reason(c.program, r, "gun_disabled") == Approx(1 - ok * ok * ok).margin(1e-12));
    CHECK(test::end_reason(c.program, r, "turns_over") == Approx(ok * ok * ok).margin(1e-12));
    CHECK(test::flag(c.program, r.run, "gun_out_turn_3") == Approx(1 - ok * ok * ok).margin(1e-12));
  }
}

TEST_CASE("duel: a malfunctioned gun with no ammunition left makes no repair attempt and the duel ends",
          "[asl][duel]") {
  // APCR with Depletion # 3 and no fallback (C8.9), B8, two turns; the target cannot be harmed.
  // Turn 1: DR 2 fires and keeps APCR (1/36); DR 3 fires the last round (2/36); DR 4-7 finds
  // none (18/36); DR 8-12 finds none and malfunctions (15/36). Out of ammunition, the gun has
  // nothing to repair for: the duel ends (out of ammunition) and nothing is disabled.
  Situation s = duel_base(2);
  s.firer.ammo = Ammo::kAPCR;
  s.firer.depletion = 3;
  s.firer.fallback_ammo = Ammo::kNone;
  s.firer.breakdown = 8;
  s.target.armor = Armor{26, 26, 26, 26};
  s.override_.basic_tk = 5;
  const Compiled c = compile(s);
  const sim::RunResult r = sim::solve_exact(c.program);
  CHECK(test::flag(c.program, r.run, "disabled") == 0.0);
  // Only DR 2 on both turns' shots leaves APCR when the turns run out.
  CHECK(test::end_reason(c.program, r, "out_of_ammo") == Approx(1 - 1.0 / 1296).margin(1e-12));
  CHECK(test::end_reason(c.program, r, "turns_over") == Approx(1.0 / 1296).margin(1e-12));
  CHECK(test::flag(c.program, r.run, "malfunction") == Approx(15.0 / 36 + 15.0 / 1296).margin(1e-12));
  CHECK(test::flag(c.program, r.run, "gun_out_turn_2") == Approx(15.0 / 36 + 15.0 / 1296).margin(1e-12));
  // The interpreter agrees on a scripted run: 9 malfunctions with no APCR; no repair dr is asked.
  DuelInterpreter d(s);
  ScriptedDice dice({TH(5, 4)});
  const DuelTrace t = d.run(dice);
  CHECK(dice.all_used());
  CHECK(t.end == duel::end_out_of_ammo(2));
}

TEST_CASE("duel interpreter, scripted: C2.5 bars Intensive Fire in the first turn only", "[asl][duel]") {
  // A non-vehicular NT Gun without Multiple ROF changes CA for its first shot: no Intensive Fire
  // that Player Turn (C2.5). In turn 2 the CA is unchanged: after its shot, the Intensive Fire shot.
  Situation s = gun_duel(2, 2);
  s.fire.ca_change = 1;
  s.fire.intensive_fire = true;
  s.override_.modified_th = 2;  // every scripted shot misses
  DuelInterpreter d(s);
  ScriptedDice dice({TH(6, 3), TH(6, 3), TH(6, 3)});
  const DuelTrace t = d.run(dice);
  CHECK(dice.all_used());
  CHECK(t.steps.size() == 3);
  CHECK(t.first_window_steps == 1);
  CHECK(t.end == duel::end_turns_over(2));
  s.fire.turns = 1;
  CHECK(check(s)->what() == std::string("a Gun without Multiple ROF that changes CA under Conditional ROF cannot "
                                        "Intensive Fire this Player Turn (C2.5)"));
}

TEST_CASE("duel interpreter, scripted: Acquisition carries over and is lost on a malfunction (C6.5)", "[asl][duel]") {
  Situation s = duel_base(2);
  s.override_.modified_th = 7;  // hit on a Final TH DR <= 7; no other DRM
  {
    // Turn 1 misses with 11; turn 2 fires at -1 Acquisition: 8 hits (Final 7). TK 12: a Dud.
    DuelInterpreter d(s);
    ScriptedDice dice({TH(6, 5), TH(4, 4), TK(6, 6)});
    const DuelTrace t = d.run(dice);
    CHECK(dice.all_used());
    REQUIRE(t.steps.size() == 2);
    CHECK((t.steps[1].flags & (FlagMask{1} << kFlagHit)) != 0);
    CHECK((t.steps[1].flags & (FlagMask{1} << kFlagDud)) != 0);
    CHECK(t.end == duel::end_turns_over(2));
    CHECK(t.first_window_steps == 1);
  }
  {
    // Turn 1: 12 malfunctions. RPh 2: dr 1 repairs. Turn 2: 8 misses (the Acquisition is gone).
    // Turn 3: 8 hits at -1.
    s.fire.turns = 3;
    DuelInterpreter d(s);
    ScriptedDice dice({TH(6, 6), DR(1), TH(4, 4), TH(4, 4), TK(6, 6)});
    const DuelTrace t = d.run(dice);
    CHECK(dice.all_used());
    REQUIRE(t.steps.size() == 4);
    CHECK((t.steps[0].flags & (FlagMask{1} << duel::flag_gun_out(1, 3))) != 0);
    CHECK((t.steps[0].flags & (FlagMask{1} << duel::flag_gun_out_by(3, 3))) != 0);
    CHECK((t.steps[2].flags & (FlagMask{1} << kFlagHit)) == 0);
    CHECK((t.steps[2].flags & (FlagMask{1} << duel::flag_gun_out(2, 3))) == 0);
    CHECK((t.steps[3].flags & (FlagMask{1} << kFlagHit)) != 0);
    CHECK(t.end == duel::end_turns_over(3));
  }
}

TEST_CASE("duel interpreter, scripted: Shock, Unconfirmed Kill, wreck (C7.42)", "[asl][duel]") {
  Situation s = duel_base(3);
  s.override_.modified_th = 7;
  s.override_.basic_tk = 16;
  const ShotSpec spec = first_shot(s);
  const int tk = spec.kill[static_cast<std::size_t>(kill_index(Location::kTurret, Facing::kFront, false))].final_tk;
  REQUIRE(tk >= 4);
  REQUIRE(tk <= 11);
  const int c = tk / 2, w = tk - tk / 2;  // TK DR == TK#: a turret hit Shocks (C7.41)
  {
    // Turn 1: (1,3) hits the turret (colored < white); TK DR = TK#: Shock. RPh 2: dr 4 -> UK.
    // Turn 2: 11 misses. RPh 3: dr 5 -> the UK AFV is a wreck: destroyed in turn 3.
    DuelInterpreter d(s);
    ScriptedDice dice({TH(1, 3), TK(c, w), DR(4), TH(6, 5), DR(5)});
    const DuelTrace t = d.run(dice);
    CHECK(dice.all_used());
    REQUIRE(t.steps.size() == 4);
    CHECK(t.steps[0].outcome == static_cast<Outcome>(duel::kShocked));
    CHECK(t.steps[1].outcome == static_cast<Outcome>(duel::kUnconfirmedKill));
    CHECK(t.steps[2].outcome == static_cast<Outcome>(duel::kUnconfirmedKill));
    CHECK(t.steps[3].outcome == static_cast<Outcome>(duel::kDestroyed));
    CHECK(t.end == duel::end_destroyed(3));
    CHECK((t.steps[3].flags & (FlagMask{1} << duel::flag_destroyed_by(3))) != 0);
    CHECK((t.steps[3].flags & (FlagMask{1} << duel::flag_destroyed_by(2))) == 0);
  }
  {
    // RPh 2: dr 2 removes the Shock at once.
    DuelInterpreter d(s);
    ScriptedDice dice({TH(1, 3), TK(c, w), DR(2), TH(6, 5), TH(6, 5)});
    const DuelTrace t = d.run(dice);
    CHECK(dice.all_used());
    REQUIRE(t.steps.size() == 4);
    CHECK(t.steps[1].outcome == static_cast<Outcome>(duel::kIntact));
    CHECK(t.end == duel::end_turns_over(3));
  }
}

TEST_CASE("duel: bad settings are refused with the key", "[asl][duel][errors]") {
  check_refused({
      {duel_base(13), "fire.turns: expected 1 to 12 turns, got 13"},
      {with(duel_base(3), [](Situation& s) { s.fire.stop_on = StopOn::kNever; }),
       "fire.stop_on: a duel over several turns ends when the target is destroyed: fire.stop_on = \"never\" is for one "
       "fire phase"},
      {with(duel_base(3), [](Situation& s) { s.firer.vehicle = false; }),
       "firer.repair: a non-vehicular Gun in a duel over several turns needs its R# (firer.repair) to roll for repair "
       "(A9.72)"},
      {with(duel_base(3), [](Situation& s) { s.firer.repair = 2; }),
       "firer.repair: a vehicle's weapon is repaired on a dr of 1 (D3.7); firer.repair is the R# of a non-vehicular "
       "Gun (A9.72)"},
      {with(duel_base(3), [](Situation& s) { s.target.type = TargetType::kInfantry; }),
       "fire.turns: a duel over several turns needs a vehicle target (target.type = \"vehicle\"): salvo does not model "
       "rallying Personnel"},
      {with(duel_base(3), [](Situation& s) { s.fire.rally_phases = 3; }),
       "fire.rally_phases: expected 1 or 2 Rally Phases between the firer's fire phases, got 3"},
  });
}
