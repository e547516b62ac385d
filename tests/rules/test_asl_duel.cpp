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

}  // namespace

// A varied set of duels (asl_test_util.h).
std::vector<Situation> salvo::asl::testing::duels() {
  std::vector<Situation> v;
  auto add = [&](const std::string& name, int turns, auto&& edit) {
    v.push_back(variant(duel_base(turns), name, edit));
  };
  add("75L ROF 2, 5 turns", 5, [](Situation& s) { s.firer.rof = 2; });
  add("Sherman 75 vs Panther, 5 turns", 5, [](Situation& s) {
    s.firer.nationality = Nationality::kAmerican;
    s.firer.gun = *parse_gun("75");
    s.firer.rof = 2;
    s.target.armor = Armor{18, 8, 14, 8};
  });
  add("B10 X11, 4 turns", 4, [](Situation& s) {
    s.firer.breakdown = 10;
    s.firer.x_number = 11;
    s.firer.rof = 1;
  });
  add("circled B10, Low Ammo carries over", 4, [](Situation& s) {
    s.firer.breakdown = 10;
    s.firer.low_ammo = true;
    s.firer.rof = 2;
  });
  add("APCR depletion, AP fallback", 4, [](Situation& s) {
    s.firer.ammo = Ammo::kAPCR;
    s.firer.depletion = 5;
    s.firer.rof = 2;
    s.target.armor = Armor{14, 8, 11, 8};
    s.fire.range = 14;
  });
  add("APCR, no fallback", 3, [](Situation& s) {
    s.firer.ammo = Ammo::kAPCR;
    s.firer.depletion = 5;
    s.firer.fallback_ammo = Ammo::kNone;
    s.firer.rof = 1;
    s.target.armor = Armor{14, 8, 11, 8};
    s.fire.range = 14;
  });
  add("NT Gun R3, CA change, 2 Rally Phases", 4, [](Situation& s) {
    s.firer.vehicle = false;
    s.firer.gun_type = GunType::kNT;
    s.firer.gun = *parse_gun("50L");
    s.firer.rof = 2;
    s.firer.repair = 3;
    s.firer.breakdown = 10;
    s.fire.ca_change = 1;
    s.fire.rally_phases = 2;
  });
  add("HE vs light armor, stop on effect", 5, [](Situation& s) {
    s.firer.ammo = Ammo::kHE;
    s.target.armor = Armor{2, 1, 2, 1};
    s.firer.rof = 1;
    s.fire.stop_on = StopOn::kEffect;
  });
  add("bounding fire, no Acquisition", 3, [](Situation& s) {
    s.fire.phase = Phase::kBounding;
    s.fire.los_mp = 3.0;
    s.firer.rof = 1;
  });
  add("hull down, improbable", 3, [](Situation& s) {
    s.target.hull_down = true;
    s.fire.extra_drm = 7;
    s.firer.rof = 1;
  });
  add("37L multiple hits", 3, [](Situation& s) {
    s.firer.gun = *parse_gun("37L");
    s.firer.rof = 3;
    s.target.armor = Armor{2, 1, 2, 1};
  });
  add("concealed target, Acquisition only after a hit (C6.57)", 4, [](Situation& s) {
    s.target.concealed = true;
    s.fire.range = 8;
    s.fire.extra_drm = 3;
    s.firer.rof = 2;
    s.target.armor = Armor{14, 8, 14, 8};
  });
  add("HE at an AT Gun behind its gunshield: a K unmans it (C11.6, A7.302)", 4, [](Situation& s) {
    s.firer.ammo = Ammo::kHE;
    s.firer.rof = 1;
    s.target.type = TargetType::kInfantry;
    s.target.gun = true;
    s.target.gunshield = true;
    s.target.size = 1;
  });
  add("intensive fire B11", 3, [](Situation& s) {
    s.firer.rof = 1;
    s.fire.intensive_fire = true;
    s.firer.breakdown = 11;
  });
  add("many shocks, 2 Rally Phases, 6 turns", 6, [](Situation& s) {
    s.override_.modified_th = 7;
    s.override_.basic_tk = 16;
    s.fire.rally_phases = 2;
    s.firer.breakdown = 11;
  });
  add("captured 75L ROF 2: ROF 1, B10 X12, never repaired (A21.11-.12, A9.72)", 4, [](Situation& s) {
    s.firer.captured = true;
    s.firer.rof = 2;
    s.fire.extra_drm = -2;
  });
  add("Gun manned by non-qualified Infantry: no repair, R# unused (A21.13, A9.72)", 3, [](Situation& s) {
    s.firer.vehicle = false;
    s.firer.gun_type = GunType::kT;
    s.firer.non_qualified = true;
    s.firer.rof = 1;
    s.firer.breakdown = 11;
  });
  add("APCR, no fallback, B8: no repair once out of ammunition", 3, [](Situation& s) {
    s.firer.ammo = Ammo::kAPCR;
    s.firer.depletion = 4;
    s.firer.fallback_ammo = Ammo::kNone;
    s.firer.breakdown = 8;
    s.target.armor = Armor{11, 8, 11, 8};
    s.fire.range = 8;
  });
  add("C2.5: NT Gun ROF 0 changing CA, Intensive Fire from turn 2", 3, [](Situation& s) {
    s.firer.vehicle = false;
    s.firer.gun_type = GunType::kNT;
    s.firer.repair = 2;
    s.fire.ca_change = 1;
    s.fire.intensive_fire = true;
    s.firer.breakdown = 11;
  });
  add("Case A turret, acquired at start", 4, [](Situation& s) {
    s.fire.tca = 0;
    s.fire.target_direction = 2;
    s.fire.acquisition = 1;
    s.firer.gun_type = GunType::kST;
    s.firer.rof = 1;
  });
  return v;
}

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

}  // namespace

TEST_CASE("duel: exact engine on the compiled program agrees with the duel interpreter", "[asl][duel]") {
  std::uint64_t seed = 1;
  test::McAgreement agree;
  for (const Situation& s : duels()) {
    INFO("situation: " << s.name);
    const Compiled c = compile(s);
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
  }
  agree.judge();
  CHECK(duels().size() >= 12);
}

TEST_CASE("duel: Monte Carlo agrees with exact, identical on 1 and 2 threads", "[asl][duel][mc]") {
  std::uint64_t key = 100;
  test::McAgreement agree;
  for (const Situation& s : duels()) {
    INFO("situation: " << s.name);
    const Compiled c = compile(s);
    sim::McOptions o = test::mc_options(99, key++, 200'000);
    o.threads = 1;
    sim::Tallies t1;
    agree.both_engines(c.program, o, s.name, &t1);
    CHECK(t1 == test::tallies_on(c.program, o, 2));
  }
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
  Situation s = duel_base(2);
  s.firer.vehicle = false;
  s.firer.gun_type = GunType::kNT;
  s.firer.repair = 3;
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
  Situation s = duel_base(2);
  s.firer.vehicle = false;
  s.firer.gun_type = GunType::kNT;
  s.firer.repair = 2;
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
