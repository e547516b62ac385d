#pragma once
/// salvo/sim/montecarlo.h — the Monte Carlo engine: lanes of trials roll real dice and walk
/// the same tables as the exact engine. Blocks of trials run as TBB tasks; each block's dice
/// stream is keyed by (seed, situation key, block index), so the tallies depend on the seed and
/// the trial count only, never on the thread count.

#include <atomic>
#include <cstdint>
#include <functional>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim {

inline constexpr std::uint64_t kBlockTrials = 1u << 16;  ///< trials per block (last may be partial)
inline constexpr std::uint32_t kMaxStepsPerTrial = 1u << 20;  ///< safety limit; counted in truncated

struct McOptions {
  std::uint64_t seed = 1;
  std::uint64_t situation_key = 0;  ///< distinguishes situations of a sweep (index in the sweep)
  std::uint64_t trials = 1'000'000;  ///< with precision == 0: exactly this many trials
  double precision = 0.0;            ///< > 0: run until every 95% half-width <= precision ...
  std::uint64_t max_trials = 1'000'000'000;  ///< ... or this many trials, whichever comes first
  int threads = 0;                   ///< 0 = all cores; results never depend on it
  const std::atomic<bool>* stop = nullptr;  ///< set (e.g. by SIGINT): stop at the next block boundary
  std::function<void(std::uint64_t done, std::uint64_t planned)> progress;  ///< optional
};

/// Run trials [block_begin, block_end) blocks of a program; serial, deterministic.
/// `trials_total` bounds the last block (blocks are kBlockTrials each, the last partial).
Tallies run_blocks(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                   std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total);

/// Estimates with 95% intervals (Wilson for probabilities, normal for means) from tallies.
RunResult estimates_from(const RollProgram& program, const Tallies& tallies);

/// The whole Monte Carlo run per the options (TBB over blocks).
RunResult monte_carlo(const RollProgram& program, const McOptions& options, Tallies* tallies_out = nullptr);

}  // namespace salvo::sim
