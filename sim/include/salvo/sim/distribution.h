#pragma once
/// salvo/sim/distribution.h — distributions of what a window of a run adds up to, beyond the
/// means and flag probabilities of RunResult: how many hits a phase scores (0, 1, 2, ... capped),
/// and the best outcome it reaches together with whether a given flag was seen.
///
/// Exact: the chain's states are augmented with the statistic so far (the count, capped; or the
/// highest outcome index and the flag), which only ever grows, so the augmented chain is solved
/// level by level from the top with one small LU per level. Monte Carlo: the same walk as the
/// Monte Carlo engine on the same (seed, situation key, block) streams, tallied per trial.

#include <atomic>
#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim {

/// Which window of a run: up to the first closing step, or the whole run (the phase).
enum class Window : std::uint8_t { kFirst, kRun };

/// P(statistic == k) for k = 0 .. p.size() - 1, each with its 95% interval (exact: lo == hi).
struct Distribution {
  Method method = Method::kExact;
  std::uint64_t trials = 0;  ///< Monte Carlo trials (0 for exact)
  std::vector<Estimate> p;
};

/// Exact distribution of counter `counter` summed over the window, capped: p[k] for k < cap is
/// P(sum == k); p[cap] is P(sum >= cap). cap in 1..1024. Throws std::runtime_error if the chain
/// is not absorbing, std::invalid_argument on a bad counter or cap.
Distribution exact_counter_distribution(const RollProgram& program, Window window, int counter, int cap);

/// Exact joint distribution of the highest outcome index reached by the window's steps and
/// whether flag `flag` was seen in it: p[o + K * seen] with K = outcome_names.size(), so
/// p.size() == 2 K. flag < 0: never seen (only p[0 .. K) can be non-zero). Rulesets order
/// their outcomes from least to most severe, so this is the distribution of the best effect.
Distribution exact_outcome_distribution(const RollProgram& program, Window window, int flag);

struct McDistributionOptions {
  std::uint64_t seed = 1;
  std::uint64_t situation_key = 0;
  std::uint64_t trials = 1'000'000;
  int threads = 0;  ///< 0 = all cores; results never depend on it
};

/// Both distributions above by Monte Carlo (Wilson intervals per bucket), in one pass.
struct McDistributions {
  Distribution counter;  ///< as exact_counter_distribution
  Distribution outcome;  ///< as exact_outcome_distribution
};
McDistributions mc_distributions(const RollProgram& program, const McDistributionOptions& options, Window window,
                                 int counter, int cap, int flag);

}  // namespace salvo::sim
