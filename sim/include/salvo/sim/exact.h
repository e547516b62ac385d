#pragma once
/// salvo/sim/exact.h — the exact engine: enumerate a roll program's tables with their weights
/// (1/36 per ordered pair, 1/6 per dr) and solve the absorbing Markov chain. No truncation.
/// The chain is solved one strongly connected component at a time, successors first: a state
/// that loops only on itself (the usual case) costs one division per unknown; a cycle through
/// several states, a small dense LU (Eigen).

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim {

/// Exact probabilities for both windows. Throws std::runtime_error if the chain is not
/// absorbing (a run could go on for ever) or the solve fails.
/// Also throws if check_exact_result() fails.
RunResult solve_exact(const RollProgram& program);

/// Outcome and end-reason partitions must sum to 1 within this (both windows).
inline constexpr double kPartitionTolerance = 1e-12;

/// Throw std::runtime_error ("exact: first window: outcome probabilities sum to ..., not 1
/// within 1e-12") unless every value is finite, and the outcomes of each window and the end
/// reasons of the run are probabilities summing to 1 within kPartitionTolerance.
void check_exact_result(const RunResult& result);

/// The solve's scratch is kept per thread for the next solve, unless the program had more
/// states than this (a large fight's scratch is hundreds of MB: it is given back at once).
inline constexpr std::size_t kKeptSolveStates = 65'536;

namespace detail {
/// The bytes the calling thread's solve scratch holds now (tests).
std::size_t solve_scratch_bytes();
}  // namespace detail

}  // namespace salvo::sim
