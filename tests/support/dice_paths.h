#pragma once
// Every dice sequence a scalar interpreter can ask for, each with its probability: an odometer
// over the draws of each path (36 faces for an ordered pair, 6 for a dr). The exhaustive
// enumerations of the ASL and 1943 tests are built on it, and on PathTally, which adds the
// paths up (also the sampled trials of the duel interpreter), and check_exact_against_paths,
// which holds the exact engine's result to that sum quantity by quantity. Also P(2d6 <= n) in
// closed form, for hand-derived expectations.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "salvo/core/rules.h"
#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::test {

/// Run `play` (which draws from the dice it is given) once per dice sequence, and call
/// `visit(p)` after each complete play with the sequence's probability. A play that asks for
/// more than `max_draws` draws is cut: its probability goes to the return value (the truncated
/// mass) and `visit` is not called. Throws std::runtime_error past `max_paths` sequences, and
/// std::logic_error if a sequence changes shape (the same draws asking for a different die).
inline double for_each_dice_path(const std::function<void(Dice&)>& play, const std::function<void(double)>& visit,
                                 std::size_t max_draws = 64, std::size_t max_paths = 5'000'000) {
  struct Cut {};
  struct Odometer : Dice {
    std::vector<int> choice, arity;
    std::size_t pos = 0, max = 0;
    int draw(int n) {
      if (pos == max) throw Cut{};
      if (pos == choice.size()) {
        choice.push_back(0);
        arity.push_back(n);
      }
      if (arity[pos] != n) throw std::logic_error("enumeration: the draw sequence changed shape");
      return choice[pos++];
    }
    int pair() override { return draw(36); }
    int d6() override { return draw(6); }
  } od;
  od.max = max_draws;
  double truncated = 0.0;
  for (std::size_t paths = 1;; ++paths) {
    if (paths > max_paths) throw std::runtime_error("enumeration: too many paths");
    od.pos = 0;
    bool cut = false;
    try {
      play(od);
    } catch (const Cut&) {
      cut = true;
    }
    od.choice.resize(od.pos);
    od.arity.resize(od.pos);
    double p = 1.0;
    for (int a : od.arity) p /= a;
    if (cut)
      truncated += p;
    else
      visit(p);
    // Next sequence: advance the odometer from the last draw.
    while (!od.choice.empty() && od.choice.back() + 1 == od.arity.back()) {
      od.choice.pop_back();
      od.arity.pop_back();
    }
    if (od.choice.empty()) return truncated;
    ++od.choice.back();
  }
}

/// P(2d6 <= n): the share of the 36 ordered pairs of dice whose sum is at most `n`.
inline double p_2d6_at_most(int n) {
  int ways = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) ways += a + b <= n ? 1 : 0;
  return ways / 36.0;
}

/// What the runs of an interpreter add up to, each run (a dice path, or a sampled trial)
/// weighted: P(flag seen) and E[counter] over the first window and the whole run, P(outcome) at
/// the end of each window, P(end reason). Indexed as the interpreter numbers its quantities.
struct PathTally {
  std::vector<double> first_flags, run_flags, first_counts, run_counts, first_outcomes, run_outcomes, end_reasons;
  double truncated = 0.0;  ///< probability of the paths cut (for_each_dice_path's return)
  std::size_t paths = 0;

  PathTally(std::size_t flags, std::size_t counters, std::size_t outcomes, std::size_t ends)
      : first_flags(flags, 0.0),
        run_flags(flags, 0.0),
        first_counts(counters, 0.0),
        run_counts(counters, 0.0),
        first_outcomes(outcomes, 0.0),
        run_outcomes(outcomes, 0.0),
        end_reasons(ends, 0.0) {
    if (counters > static_cast<std::size_t>(kMaxCounters)) throw std::logic_error("PathTally: too many counters");
  }

  /// One run of weight `p`: its steps (each with `flags`, `counts` and `outcome`), of which the
  /// first `first_steps` (at least 1) make the first window, and how it ended.
  template <class Step>
  void add(double p, const std::vector<Step>& steps, std::size_t first_steps, int end) {
    FlagMask first = 0, run = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& st = steps[i];
      run |= st.flags;
      for (std::size_t c = 0; c < run_counts.size(); ++c) run_counts[c] += p * st.counts[c];
      if (i < first_steps) {
        first |= st.flags;
        for (std::size_t c = 0; c < first_counts.size(); ++c) first_counts[c] += p * st.counts[c];
      }
    }
    first_outcomes[static_cast<std::size_t>(steps[std::min(first_steps, steps.size()) - 1].outcome)] += p;
    run_outcomes[static_cast<std::size_t>(steps.back().outcome)] += p;
    end_reasons[static_cast<std::size_t>(end)] += p;
    for (std::size_t f = 0; f < run_flags.size(); ++f) {
      if (first & (FlagMask{1} << f)) first_flags[f] += p;
      if (run & (FlagMask{1} << f)) run_flags[f] += p;
    }
    ++paths;
  }

  /// Every sum divided by `n`: from counts of sampled trials to their means.
  void divide(double n) {
    for (auto* v : {&first_flags, &run_flags, &first_counts, &run_counts, &first_outcomes, &run_outcomes, &end_reasons})
      for (double& x : *v) x /= n;
  }
};

/// The names of an interpreter's quantities, by its own numbering.
struct PathNames {
  std::function<std::string(std::size_t)> flag, counter, outcome, end_reason;
};

/// How close the exact engine must come to the path tally: `margin` (`counter_margin` for
/// counters); a quantity the program does not name must be 0 within `unnamed`.
struct PathTolerance {
  double margin = 1e-12;
  double counter_margin = 1e-12;
  double unnamed = 1e-12;
};

/// The exact engine's result `r` on `program` against the tally of the interpreter's paths,
/// quantity by quantity, matched by name (a program names only what its kind of run can
/// produce): first window and run, flags, counters, outcomes and end reasons.
inline void check_exact_against_paths(const RollProgram& program, const sim::RunResult& r, const PathTally& e,
                                      const PathNames& names, const PathTolerance& tol) {
  const auto check = [&](const char* what, const std::vector<sim::Estimate>& got,
                         const std::vector<std::string>& program_names, const std::vector<double>& want,
                         const std::function<std::string(std::size_t)>& name_of, double margin) {
    REQUIRE(got.size() == program_names.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      const std::string n = name_of(i);
      INFO(what << " " << n);
      const auto it = std::find(program_names.begin(), program_names.end(), n);
      if (it == program_names.end()) {
        CHECK(want[i] == Approx(0.0).margin(tol.unnamed));
        continue;
      }
      CHECK(got[static_cast<std::size_t>(it - program_names.begin())].value == Approx(want[i]).margin(margin));
    }
  };
  check("first window flag", r.first.flags, program.flag_names, e.first_flags, names.flag, tol.margin);
  check("run flag", r.run.flags, program.flag_names, e.run_flags, names.flag, tol.margin);
  check("first window counter", r.first.counters, program.counter_names, e.first_counts, names.counter,
        tol.counter_margin);
  check("run counter", r.run.counters, program.counter_names, e.run_counts, names.counter, tol.counter_margin);
  check("first window outcome", r.first.outcomes, program.outcome_names, e.first_outcomes, names.outcome, tol.margin);
  check("run outcome", r.run.outcomes, program.outcome_names, e.run_outcomes, names.outcome, tol.margin);
  check("end reason", r.run.end_reasons, program.end_reason_names, e.end_reasons, names.end_reason, tol.margin);
}

/// A program's own names: for an interpreter that numbers its quantities as the program does.
inline PathNames program_names(const RollProgram& p) {
  const auto of = [](const std::vector<std::string>& v) {
    return [&v](std::size_t i) { return i < v.size() ? v[i] : "#" + std::to_string(i); };
  };
  return {of(p.flag_names), of(p.counter_names), of(p.outcome_names), of(p.end_reason_names)};
}

}  // namespace salvo::test
