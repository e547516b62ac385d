#pragma once
/// salvo/sim/result.h — what an engine returns: one result type for exact and Monte Carlo runs.

#include <cstdint>
#include <string>
#include <vector>

namespace salvo::sim {

enum class Method : std::uint8_t { kExact, kMonteCarlo };

/// A probability or expectation with its 95% interval. Exact results have lo == hi == value.
struct Estimate {
  double value = 0.0;
  double lo = 0.0;
  double hi = 0.0;
};

/// Statistics of one window of a run (the first window, or the whole run).
struct WindowStats {
  std::vector<Estimate> flags;        ///< P(flag seen at least once in the window), by flag index
  std::vector<Estimate> counters;     ///< E[sum of the counter over the window], by counter index
  std::vector<Estimate> outcomes;     ///< P(outcome of the window's last step == k)
  std::vector<Estimate> end_reasons;  ///< whole run only: P(run ended for reason k)
};

/// Result of running one compiled program.
struct RunResult {
  Method method = Method::kExact;
  std::uint64_t trials = 0;  ///< Monte Carlo trials actually run (0 for exact)
  bool interrupted = false;  ///< Monte Carlo stopped early (e.g. SIGINT); trials says how many ran
  WindowStats first;         ///< first window: up to the first shot fired
  WindowStats run;           ///< the whole run (the fire phase)
};

/// Integer tallies of one window of Monte Carlo trials. Integer sums add exactly, so tallies
/// from blocks can be reduced in any order with identical results.
struct WindowTallies {
  std::vector<std::uint64_t> flags;          ///< trials in which flag i was seen
  std::vector<std::uint64_t> counter_sum;    ///< sum over trials of counter i
  std::vector<std::uint64_t> counter_sumsq;  ///< sum over trials of (counter i)^2
  std::vector<std::uint64_t> outcomes;       ///< trials whose window ended with outcome k
  std::vector<std::uint64_t> end_reasons;    ///< trials that ended for reason k (run window)

  friend bool operator==(const WindowTallies&, const WindowTallies&) = default;
};

struct Tallies {
  std::uint64_t trials = 0;
  std::uint64_t truncated = 0;  ///< trials cut off by the step limit (should be 0)
  WindowTallies first;
  WindowTallies run;

  friend bool operator==(const Tallies&, const Tallies&) = default;
};

}  // namespace salvo::sim
