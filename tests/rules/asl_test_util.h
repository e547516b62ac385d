#pragma once
// Helpers for the ASL rules tests: a plain situation, scripted dice, an exhaustive enumeration
// of every dice sequence of a fire phase through the reference interpreter (and the exact
// engine held to it), and the message a rules conflict is refused with.

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_reference.h"
#include "salvo/rules/asl_shot.h"
#include "salvo/sim/exact.h"
#include "support/dice_paths.h"
#include "support/named.h"
#include "support/refusal.h"

namespace salvo::asl::testing {

/// German 75L AP, ROF 0, B12, vs an AFV with AF 8 all round, front, range 6, Prep Fire.
inline Situation base() {
  Situation s;
  s.name = "base";
  s.firer.nationality = Nationality::kGerman;
  s.firer.gun = *parse_gun("75L");
  s.firer.ammo = Ammo::kAP;
  s.firer.rof = 0;
  s.target.armor = Armor{8, 8, 8, 8};
  s.fire.range = 6;
  return s;
}

/// `start` named `name` and changed by `edit`: one case of a test's list of situations.
template <class Edit>
Situation variant(Situation start, const std::string& name, Edit&& edit) {
  start.name = name;
  edit(start);
  return start;
}

/// Random dice for the interpreters.
struct RandomDice : Dice {
  std::mt19937_64 g;
  explicit RandomDice(std::uint64_t seed) : g(seed) {}
  int pair() override { return static_cast<int>(g() % 36); }  // 2^64 mod 36 bias ~ 2e-18: immaterial
  int d6() override { return static_cast<int>(g() % 6); }
};

/// A varied set of one-phase situations, each named (test_asl_engines.cpp): the plain shot, ROF,
/// Multiple Hits, subsequent dr, hull down, special ammunition, Low Ammo, X#, Intensive Fire,
/// Case A, Bounding and Defensive First Fire, stop rules. Not capped (cap_for_enumeration).
std::vector<Situation> varied_situations();

/// A varied set of duels over several turns (fire.turns > 1), each named (test_asl_duel.cpp).
std::vector<Situation> duels();

/// The situation named `name` in `v` (a test taking a case of another test's list); throws
/// std::logic_error if there is none.
inline Situation named_in(const std::vector<Situation>& v, std::string_view name) {
  for (const Situation& s : v)
    if (s.name == name) return s;
  throw std::logic_error("no situation named \"" + std::string(name) + "\"");
}

/// The situation named `name` in `v` changed by `edit`, and named "<name>, <change>".
template <class Edit>
Situation changed(const std::vector<Situation>& v, std::string_view name, std::string_view change, Edit&& edit) {
  return variant(named_in(v, name), std::string(name) + ", " + std::string(change), edit);
}

/// For an exhaustive enumeration: at most two shots; one for a gun of 40mm or less (its
/// Multiple Hits branch 36^3 ways a shot), for special ammunition (its missing-ammo attempts add
/// a step), and where `one_shot` (sanitizer builds: all but a few named cases, sanitized.h; a
/// second shot multiplies the dice sequences by about 36^2).
inline void cap_for_enumeration(Situation& s, bool one_shot) {
  const bool special = s.firer.ammo == Ammo::kAPCR || s.firer.ammo == Ammo::kHEAT;
  const int cap = s.firer.gun.caliber_mm <= 40 || special || one_shot ? 1 : 2;
  if (!s.fire.max_shots || *s.fire.max_shots > cap) s.fire.max_shots = cap;
}

/// The shot built after `shots_fired` shots of the phase at the target (no explanation).
inline ShotSpec shot_after(const Situation& s, int shots_fired) {
  return build_shot(s, ShotContext{.shots_fired = shots_fired}, nullptr);
}
inline ShotSpec first_shot(const Situation& s) { return shot_after(s, 0); }

/// One die as scripted: an ordered pair (colored, white) or a single dr.
struct Roll {
  bool pair;
  int a;
  int b;
};
inline Roll TH(int colored, int white) { return Roll{true, colored, white}; }
inline Roll TK(int colored, int white) { return Roll{true, colored, white}; }
inline Roll DR(int dr) { return Roll{false, dr, 0}; }

/// Dice that replay a script and fail the test if the rules ask for a different die.
class ScriptedDice : public Dice {
 public:
  explicit ScriptedDice(std::vector<Roll> script) : script_(std::move(script)) {}
  int pair() override {
    const Roll r = next(true);
    return pair_face(r.a, r.b);
  }
  int d6() override { return next(false).a - 1; }
  std::size_t used() const { return i_; }
  bool all_used() const { return i_ == script_.size(); }

 private:
  Roll next(bool want_pair) {
    if (i_ >= script_.size()) throw std::logic_error("scripted dice exhausted");
    const Roll r = script_[i_++];
    if (r.pair != want_pair)
      throw std::logic_error(want_pair ? "rules asked for a DR, script has a dr"
                                       : "rules asked for a dr, script has a DR");
    return r;
  }
  std::vector<Roll> script_;
  std::size_t i_ = 0;
};

/// Resolve a phase from a script; require that every scripted die was used.
inline PhaseTrace run_script(const Situation& s, std::vector<Roll> script) {
  ScriptedDice d(std::move(script));
  PhaseTrace t = resolve_phase(s, d);
  REQUIRE(d.all_used());
  return t;
}

/// Exact odds by enumerating every dice sequence of a fire phase (the odometer of
/// support/dice_paths.h), indexed as the rules number their flags, counters, outcomes and end
/// reasons. The first window runs to the first shot fired (or the last step).
inline test::PathTally enumerate_phase(const Situation& s, std::size_t max_paths = 5'000'000) {
  test::PathTally e(kNumFlags, kNumCounters, kNumOutcomes, kNumEndReasons);
  PhaseTrace t;
  const auto visit = [&](double p) {
    std::size_t first_steps = t.steps.size();
    for (std::size_t i = 0; i < t.steps.size(); ++i)
      if (t.steps[i].fired) {
        first_steps = i + 1;
        break;
      }
    e.add(p, t.steps, first_steps, t.end);
  };
  const double cut = test::for_each_dice_path([&](Dice& d) { t = resolve_phase(s, d); }, visit,
                                              std::numeric_limits<std::size_t>::max(), max_paths);
  if (cut != 0.0) throw std::logic_error("enumeration: a path was cut");
  return e;
}

/// The rules' names of what enumerate_phase counts.
inline test::PathNames rule_names() {
  const auto i = [](std::size_t k) { return static_cast<int>(k); };
  return {[=](std::size_t k) { return std::string(flag_name(i(k))); },
          [=](std::size_t k) { return std::string(counter_name(i(k))); },
          [=](std::size_t k) { return std::string(outcome_name(i(k))); },
          [=](std::size_t k) { return std::string(end_reason_name(i(k))); }};
}

/// The exact engine on the compiled program == the enumeration of the reference interpreter,
/// quantity by quantity (1e-12), matched by name; whatever the program does not name must have
/// probability and expectation 0 within `unnamed_margin`.
inline void check_exact_equals_enumeration(const Situation& s, double unnamed_margin) {
  INFO("situation: " << s.name);
  const Compiled c = compile(s);
  c.program.validate();
  test::check_exact_against_paths(c.program, sim::solve_exact(c.program), enumerate_phase(s), rule_names(),
                                  {.margin = 1e-12, .counter_margin = 1e-12, .unnamed = unnamed_margin});
}

/// A situation compiled and solved exactly, its quantities looked up by name.
struct Solved {
  RollProgram program;
  sim::RunResult result;
  double first(const char* flag) const { return test::flag(program, result.first, flag); }
  double phase(const char* flag) const { return test::flag(program, result.run, flag); }
  double outcome(const char* name) const { return test::outcome(program, result.run, name); }
  double end(const char* name) const { return test::end_reason(program, result, name); }
  double shots() const { return test::counter(program, result.run, "shots"); }
  double hits() const { return test::counter(program, result.run, "hits"); }
  bool names_flag(const char* flag) const { return test::find_name(program.flag_names, flag).has_value(); }
};

/// Each flag's probability over the run of `r` equals its exact value (to 1e-12): rows {flag, p}.
inline void check_phases(const Solved& r, std::initializer_list<std::pair<const char*, double>> exact) {
  for (const auto& [flag, p] : exact) {
    INFO("flag " << flag);
    CHECK(r.phase(flag) == Approx(p).margin(1e-12));
  }
}

inline Solved solve(const Situation& s) {
  Compiled c = compile(s);
  c.program.validate();
  sim::RunResult r = sim::solve_exact(c.program);
  return {std::move(c.program), std::move(r)};
}

/// What check() refuses `s` with, "key: message"; fails the test if it accepts `s`.
inline std::string refusal(const Situation& s) { return test::refusal(check(s)); }

using test::with;

/// check() refuses each case's situation with exactly its refusal.
inline void check_refused(const std::vector<test::Refused<Situation>>& cases) {
  test::check_refused([](const Situation& s) { return refusal(s); }, cases);
}

}  // namespace salvo::asl::testing
