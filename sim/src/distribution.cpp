#include "salvo/sim/distribution.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "chain.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/rng.h"
#include "salvo/sim/stats.h"
#include "trial.h"

namespace salvo::sim {
namespace {

template <class T>
constexpr std::size_t idx(T i) {
  return static_cast<std::size_t>(i);
}

bool closes(const Leaf& l, Window w) { return l.next_state < 0 || (w == Window::kFirst && l.closes_window); }

/// Distribution of a statistic that starts at level 0 and moves to next(level, leaf) >= level
/// at every step, over `levels` levels. x_L (rows: states, columns: final level) solves
/// (I - Q_L) x_L = R_L where Q_L keeps the steps that stay at level L and R_L collects the
/// window's end and the jumps to higher levels, whose x is already known.
Distribution solve_levels(const RollProgram& prog, Window window, int levels,
                          const std::function<int(int, const Leaf&)>& next) {
  const detail::Chain c = detail::reachable_chain(prog);
  const auto n = static_cast<Eigen::Index>(c.states.size());
  const auto nl = static_cast<Eigen::Index>(levels);
  std::vector<Eigen::MatrixXd> x(idx(levels));
  for (int level = levels - 1; level >= 0; --level) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Identity(n, n);
    Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n, nl);
    for (Eigen::Index i = 0; i < n; ++i)
      for (std::uint32_t m = c.begin[idx(i)]; m < c.begin[idx(i) + 1]; ++m) {
        const Leaf& leaf = prog.leaves[idx(c.leaf[m])];
        const double p = c.p[m];
        const int to = next(level, leaf);
        if (to < level || to >= levels) throw std::logic_error("distribution: level moved out of range");
        if (closes(leaf, window)) {
          rhs(i, to) += p;
        } else {
          const Eigen::Index j = c.row_of[idx(leaf.next_state)];
          if (to == level)
            a(i, j) -= p;
          else
            rhs.row(i) += p * x[idx(to)].row(j);
        }
      }
    x[idx(level)] = Eigen::PartialPivLU<Eigen::MatrixXd>(a).solve(rhs);
  }
  // Row 0 at level 0 is the answer; it must sum to 1 (the window ends with probability 1)
  Distribution d;
  d.method = Method::kExact;
  double sum = 0.0;
  for (Eigen::Index k = 0; k < nl; ++k) {
    const double v = std::clamp(x[0](0, k), 0.0, 1.0);
    d.p.push_back(Estimate{v, v, v});
    sum += v;
  }
  if (!(std::abs(sum - 1.0) < 1e-9))
    throw std::runtime_error("distribution: the chain is not absorbing (total " + std::to_string(sum) + ")");
  return d;
}

void check_counter(const RollProgram& prog, int counter, int cap) {
  if (counter < 0 || idx(counter) >= prog.counter_names.size())
    throw std::invalid_argument("distribution: no counter " + std::to_string(counter));
  if (cap < 1 || cap > 1024) throw std::invalid_argument("distribution: cap must be in 1..1024");
}

}  // namespace

Distribution exact_counter_distribution(const RollProgram& program, Window window, int counter, int cap) {
  check_counter(program, counter, cap);
  return solve_levels(program, window, cap + 1, [counter, cap](int level, const Leaf& leaf) {
    return std::min(cap, level + leaf.counts[idx(counter)]);
  });
}

Distribution exact_outcome_distribution(const RollProgram& program, Window window, int flag) {
  const int k = static_cast<int>(program.outcome_names.size());
  const FlagMask bit = flag >= 0 ? FlagMask{1} << flag : 0u;
  return solve_levels(program, window, 2 * k, [k, bit](int level, const Leaf& leaf) {
    const int outcome = std::max(level % k, static_cast<int>(leaf.outcome));
    const int seen = level / k | ((leaf.flags & bit) ? 1 : 0);
    return outcome + k * seen;
  });
}

McDistributions mc_distributions(const RollProgram& program, const McDistributionOptions& options, Window window,
                                 int counter, int cap, int flag) {
  check_counter(program, counter, cap);
  const std::size_t k = program.outcome_names.size();
  const FlagMask bit = flag >= 0 ? FlagMask{1} << flag : 0u;
  const std::uint64_t num_blocks = (options.trials + kBlockTrials - 1) / kBlockTrials;
  struct Hist {
    std::vector<std::uint64_t> counter, outcome;
    std::uint64_t trials = 0;
  };
  // One slot per block, held until the end: their number must be a size (wasm32: 32 bits)
  if (!std::in_range<std::size_t>(num_blocks))
    throw std::length_error("mc_distributions: too many trials for this platform's memory");
  std::vector<Hist> slots(static_cast<std::size_t>(num_blocks));

  // Each block on its own (seed, situation key, block) stream, as the Monte Carlo engine
  Workers(options.threads).for_each(std::size_t{0}, slots.size(), [&](std::size_t b) {
    Hist& h = slots[b];
    h.counter.assign(idx(cap) + 1, 0);
    h.outcome.assign(2 * k, 0);
    DiceStream dice(options.seed, options.situation_key, b);
    const std::uint64_t trials = std::min(kBlockTrials, options.trials - b * kBlockTrials);
    for (std::uint64_t t = 0; t < trials; ++t) {
      const detail::TrialRecord rec = detail::run_trial(program, dice);
      if (!rec.finished) continue;  // never for an absorbing program
      const detail::TrialWindow& w = window == Window::kFirst ? rec.first : rec.run;
      ++h.counter[std::min<std::size_t>(idx(cap), w.counts[idx(counter)])];
      ++h.outcome[w.max_outcome + k * ((w.mask & bit) ? 1 : 0)];
      ++h.trials;
    }
  });

  // Reduce in block order (integer sums: exact in any order)
  Hist total;
  total.counter.assign(idx(cap) + 1, 0);
  total.outcome.assign(2 * k, 0);
  for (const Hist& h : slots) {
    total.trials += h.trials;
    for (std::size_t i = 0; i < h.counter.size(); ++i) total.counter[i] += h.counter[i];
    for (std::size_t i = 0; i < h.outcome.size(); ++i) total.outcome[i] += h.outcome[i];
  }
  McDistributions out;
  for (Distribution* d : {&out.counter, &out.outcome}) {
    d->method = Method::kMonteCarlo;
    d->trials = total.trials;
  }
  for (std::uint64_t v : total.counter) out.counter.p.push_back(wilson_interval(v, total.trials));
  for (std::uint64_t v : total.outcome) out.outcome.p.push_back(wilson_interval(v, total.trials));
  return out;
}

}  // namespace salvo::sim
