#pragma once
// Helpers for the ASL rules tests: a plain situation, scripted dice, and an exhaustive
// enumeration of every dice sequence of a fire phase through the reference interpreter.

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_reference.h"
#include "support/dice_paths.h"
#include "salvo/rules/asl_shot.h"

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
    if (r.pair != want_pair) throw std::logic_error(want_pair ? "rules asked for a DR, script has a dr" : "rules asked for a dr, script has a DR");
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

/// Exact odds by enumerating every dice sequence (odometer over the draws of each path).
struct Enumerated {
  std::vector<double> first_flags, phase_flags;      // P(flag seen)
  std::vector<double> first_counts, phase_counts;    // E[counter]
  std::vector<double> first_outcomes, phase_outcomes;
  std::vector<double> end_reasons;
  std::size_t paths = 0;
};

inline Enumerated enumerate_phase(const Situation& s, std::size_t max_paths = 5'000'000) {
  Enumerated e;
  e.first_flags.assign(kNumFlags, 0.0);
  e.phase_flags.assign(kNumFlags, 0.0);
  e.first_counts.assign(kNumCounters, 0.0);
  e.phase_counts.assign(kNumCounters, 0.0);
  e.first_outcomes.assign(kNumOutcomes, 0.0);
  e.phase_outcomes.assign(kNumOutcomes, 0.0);
  e.end_reasons.assign(kNumEndReasons, 0.0);
  PhaseTrace t;
  const auto visit = [&](double p) {
    FlagMask first = 0, phase = 0;
    bool open = true;
    for (const StepRecord& st : t.steps) {
      phase |= st.flags;
      for (int c = 0; c < kNumCounters; ++c) e.phase_counts[static_cast<std::size_t>(c)] += p * st.counts[static_cast<std::size_t>(c)];
      if (open) {
        first |= st.flags;
        for (int c = 0; c < kNumCounters; ++c) e.first_counts[static_cast<std::size_t>(c)] += p * st.counts[static_cast<std::size_t>(c)];
        if (st.fired || &st == &t.steps.back()) {
          open = false;
          e.first_outcomes[static_cast<std::size_t>(st.outcome)] += p;
        }
      }
    }
    e.phase_outcomes[static_cast<std::size_t>(t.steps.back().outcome)] += p;
    e.end_reasons[static_cast<std::size_t>(t.end)] += p;
    for (int f = 0; f < kNumFlags; ++f) {
      if (first & (FlagMask{1} << f)) e.first_flags[static_cast<std::size_t>(f)] += p;
      if (phase & (FlagMask{1} << f)) e.phase_flags[static_cast<std::size_t>(f)] += p;
    }
    ++e.paths;
  };
  const double cut = test::for_each_dice_path([&](Dice& d) { t = resolve_phase(s, d); }, visit,
                                              std::numeric_limits<std::size_t>::max(), max_paths);
  if (cut != 0.0) throw std::logic_error("enumeration: a path was cut");
  return e;
}

}  // namespace salvo::asl::testing
