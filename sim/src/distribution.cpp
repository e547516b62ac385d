#include "salvo/sim/distribution.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
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
/// at every step, over `levels` levels. Forward, from the initial state: m_L (a row per level,
/// a column per state) is the expected number of visits at level L, m_L (I - Q_L) = in_L,
/// where Q_L keeps the steps that stay at level L and in_L is what enters level L (the start,
/// at level 0, and the jumps from lower levels, already known). A sparse LU per level that
/// anything enters: memory grows with the moves and levels x states, never states^2.
Distribution solve_levels(const RollProgram& prog, Window window, int levels,
                          const std::function<int(int, const Leaf&)>& next) {
  const detail::Chain c = detail::reachable_chain(prog);
  const auto n = static_cast<Eigen::Index>(c.states.size());
  std::vector<Eigen::VectorXd> in(idx(levels), Eigen::VectorXd::Zero(n));
  std::vector<double> absorbed(idx(levels), 0.0);
  in[0](0) = 1.0;                                   // row 0 is the initial state
  std::vector<Eigen::Triplet<double>> t, factored;  // the matrix of this level, and of `lu`
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  const auto same = [](const Eigen::Triplet<double>& x, const Eigen::Triplet<double>& y) {
    return x.row() == y.row() && x.col() == y.col() && x.value() == y.value();
  };
  for (int level = 0; level < levels; ++level) {
    if (in[idx(level)].isZero(0.0)) continue;
    // (I - Q_L)^T, so that a column solve gives the row vector m_L
    t.clear();
    for (Eigen::Index i = 0; i < n; ++i) {
      t.emplace_back(i, i, 1.0);
      for (std::uint32_t m = c.begin[idx(i)]; m < c.begin[idx(i) + 1]; ++m) {
        const Leaf& leaf = prog.leaves[idx(c.leaf[m])];
        if (closes(leaf, window) || next(level, leaf) != level) continue;
        t.emplace_back(c.row_of[idx(leaf.next_state)], i, -c.p[m]);
      }
    }
    // Most levels keep the same steps (a counter's: all but the cap's): factorize only anew.
    if (factored.empty() || !std::equal(t.begin(), t.end(), factored.begin(), factored.end(), same)) {
      Eigen::SparseMatrix<double> a(n, n);
      a.setFromTriplets(t.begin(), t.end());
      lu.compute(a);
      if (lu.info() != Eigen::Success) throw std::runtime_error("distribution: the chain is not absorbing");
      factored = t;
    }
    const Eigen::VectorXd visits = lu.solve(in[idx(level)]);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double v = visits(i);
      if (v == 0.0) continue;
      for (std::uint32_t m = c.begin[idx(i)]; m < c.begin[idx(i) + 1]; ++m) {
        const Leaf& leaf = prog.leaves[idx(c.leaf[m])];
        const int to = next(level, leaf);
        if (to < level || to >= levels) throw std::logic_error("distribution: level moved out of range");
        if (closes(leaf, window))
          absorbed[idx(to)] += v * c.p[m];
        else if (to != level)
          in[idx(to)](c.row_of[idx(leaf.next_state)]) += v * c.p[m];
      }
    }
  }
  // The window ends with probability 1
  Distribution d;
  d.method = Method::kExact;
  double sum = 0.0;
  for (const double a : absorbed) {
    const double v = std::clamp(a, 0.0, 1.0);
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
