#pragma once
/// salvo/sim/exact.h — the exact engine: enumerate a roll program's tables with their weights
/// (1/36 per ordered pair, 1/6 per dr) and solve the absorbing Markov chain. No truncation.

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim {

/// Exact probabilities for both windows. Throws std::runtime_error if the chain is not
/// absorbing (a run could go on for ever) or the solve fails.
RunResult solve_exact(const RollProgram& program);

}  // namespace salvo::sim
