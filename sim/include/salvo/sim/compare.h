#pragma once
/// salvo/sim/compare.h — options compared against the same target on the same dice.
///
/// For every quantity of a window (P(flag), E[counter]) and a pair of options (A, B): both
/// values, the difference A - B with its 95% interval, and the chance that A's result is higher
/// than B's.
///
/// Exact: the difference of the exact values (an option against itself: exactly 0), and
///   P(A higher) = P(X_A > X_B) for X_A, X_B the window's results of two separate runs, each
///   with its own dice (flags: 0/1; counters: the exact counter distribution, sums of 64 or
///   more counted as equal).
/// Monte Carlo, common random numbers: trial t of every option replays one dice stream, keyed
///   by (seed, situation key, t). The difference is the mean of the paired per-trial
///   differences with a normal 95% interval from their sample variance (an option against
///   itself: every difference is 0, so the value and both ends are exactly 0). P(A higher) is
///   the same independent-runs quantity as above, from each option's own histogram; the
///   paired fractions of trials in which A (or B) came out higher on the same dice are reported
///   beside it with Wilson intervals.

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/distribution.h"
#include "salvo/sim/result.h"

namespace salvo::sim {

/// One quantity of one window compared between options A and B.
struct QuantityDiff {
  std::string name;  ///< "p_<flag>" or "e_<counter>"
  Window window = Window::kRun;
  Estimate a, b;                            ///< each option's value
  Estimate diff;                            ///< A - B, 95% interval (exact: lo == hi)
  double p_a_higher = 0.0;                  ///< P(X_A > X_B), separate runs
  double p_b_higher = 0.0;                  ///< P(X_B > X_A), separate runs
  std::optional<Estimate> paired_a_higher;  ///< Monte Carlo: fraction of trials, same dice
  std::optional<Estimate> paired_b_higher;
};

struct Comparison {
  Method method = Method::kExact;
  std::uint64_t trials = 0;  ///< Monte Carlo trials (0 for exact)
  bool interrupted = false;
  std::vector<QuantityDiff> quantities;  ///< first window, then the run; flags, then counters
};

/// Exact comparison of two programs. Throws std::invalid_argument if their names differ,
/// std::runtime_error if a chain is not absorbing.
Comparison compare_exact(const RollProgram& a, const RollProgram& b);

struct CompareOptions {
  std::uint64_t seed = 1;
  std::uint64_t situation_key = 0;  ///< the target (sweep point) being compared
  std::uint64_t trials = 1'000'000;
  int threads = 0;                          ///< 0 = all cores; results never depend on it
  const std::atomic<bool>* stop = nullptr;  ///< set: stop at the next wave of blocks
  std::function<void(std::uint64_t done, std::uint64_t planned)> progress;  ///< optional
};

/// Monte Carlo with common random numbers: options[0] against each of options[1..], all on
/// the same per-trial dice streams. Returns options.size() - 1 comparisons.
std::vector<Comparison> compare_mc(const std::vector<const RollProgram*>& options, const CompareOptions& o);

/// The dice stream of trial `trial` of a comparison (exposed for tests).
std::uint64_t compare_stream_key(std::uint64_t situation_key);

}  // namespace salvo::sim
