#pragma once
/// salvo/sim/montecarlo.h — the Monte Carlo engine: lanes of trials roll real dice and walk
/// the same tables as the exact engine. Blocks of trials run as TBB tasks; a block's trials are
/// dealt to kLanes lanes, and lane l of block b draws from the dice stream keyed by
/// (seed, situation key, b * kLanes + l), so the tallies depend on the seed and the trial count
/// only, never on the thread count.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim {

inline constexpr std::uint64_t kBlockTrials = 1u << 16;  ///< trials per block (last may be partial)
/// Programs with more states, none of which shares its DAG through a leaf table, run on the walk
/// kernel (run_blocks_walk), not the fast kernel, whose tables take about 3 KB a state of its
/// likeliest trials' (per DAG where states share one); both see the same trials.
inline constexpr std::size_t kFastKernelMaxStates = 16'384;
inline constexpr std::size_t kWalkMaxNodes = 256;             ///< run_blocks_walk's tables: at most this many nodes
inline constexpr std::uint32_t kMaxStepsPerTrial = 1u << 20;  ///< safety limit; counted in truncated
inline constexpr std::uint64_t kLanes = 16;                   ///< independent dice streams (lanes) per block

/// Dice stream number of lane `lane` (0..kLanes-1) of block `block` (see stream_state).
constexpr std::uint64_t lane_stream(std::uint64_t block, std::uint64_t lane) { return block * kLanes + lane; }
/// Trials run by lane `lane` of a block of `block_trials` trials: an equal share, the first
/// block_trials % kLanes lanes one more. Each lane runs its trials one after another.
constexpr std::uint64_t lane_trials(std::uint64_t block_trials, std::uint64_t lane) {
  return block_trials / kLanes + (lane < block_trials % kLanes ? 1 : 0);
}

struct McOptions {
  std::uint64_t seed = 1;
  std::uint64_t situation_key = 0;           ///< distinguishes situations of a sweep (index in the sweep)
  std::uint64_t trials = 1'000'000;          ///< with precision == 0: exactly this many trials
  double precision = 0.0;                    ///< > 0: run until every 95% half-width <= precision ...
  std::uint64_t max_trials = 1'000'000'000;  ///< ... or this many trials, whichever comes first
  int threads = 0;                           ///< 0 = all cores; results never depend on it
  const std::atomic<bool>* stop = nullptr;   ///< set (e.g. by SIGINT): stop at the next block boundary
  std::function<void(std::uint64_t done, std::uint64_t planned)> progress;  ///< optional
};

/// Run trials [block_begin, block_end) blocks of a program; serial, deterministic.
/// `trials_total` bounds the last block (blocks are kBlockTrials each, the last partial).
/// The fast kernel: lanes interleaved, precomputed two-roll tables, tallies by trial summary.
Tallies run_blocks(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                   std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total);

/// The same as run_blocks, by the plain generic walker: one lane after another, one trial at a
/// time, one roll at a time. The reference the fast kernel must equal tally for tally.
Tallies run_blocks_reference(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                             std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total);

/// The same as run_blocks_reference, rolling two dice a table lookup (a table per node, 5 KB
/// each) and following a record per leaf (8 bytes each), for programs of at most
/// kWalkMaxNodes nodes (larger ones run on the reference): the kernel for programs with too
/// many states for the fast one. Equal to the reference tally for tally.
Tallies run_blocks_walk(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                        std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total);

namespace detail {
class FastProgram;
class WalkProgram;
}  // namespace detail

/// A program prepared once for the kernels, then run block by block (the engine, an MPI rank,
/// the browser's stepper): the fast kernel for a program of at most kFastKernelMaxStates
/// states or with leaf tables (a fight's), else the walk kernel, else (more than kWalkMaxNodes
/// nodes) the reference walker.
/// The same tallies whichever runs. Immutable once built: blocks may run concurrently. Keeps a
/// reference to the program.
class PreparedProgram {
 public:
  /// `trials`: the trials it will run (0: not known), how much preparation pays.
  explicit PreparedProgram(const RollProgram& program, std::uint64_t trials = 0);
  ~PreparedProgram();
  PreparedProgram(const PreparedProgram&) = delete;
  PreparedProgram& operator=(const PreparedProgram&) = delete;

  /// Tallies of blocks [block_begin, block_end), as run_blocks.
  Tallies run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin, std::uint64_t block_end,
              std::uint64_t trials_total) const;

 private:
  const RollProgram& program_;
  std::unique_ptr<detail::FastProgram> fast_;
  std::unique_ptr<detail::WalkProgram> walk_;
};

/// Empty tallies sized by the program's names.
Tallies empty_tallies(const RollProgram& program);

/// a += b: integer sums, so blocks add in any grouping to the same tallies.
void add_tallies(Tallies& a, const Tallies& b);

/// Estimates with 95% intervals (Wilson for probabilities, normal for means) from tallies.
RunResult estimates_from(const RollProgram& program, const Tallies& tallies);

/// Precision mode's rounds: the cumulative trial count to reach after `done` trials (0 at the
/// start): 2^20, then each round doubles (1, 3, 7, ... x 2^20), capped at `max_trials`. A run
/// spread over processes (app/ Team) follows the same rounds, so it stops at the same count.
std::uint64_t precision_round_target(std::uint64_t done, std::uint64_t max_trials);

/// True if every 95% half-width of both windows of `r` is at most `precision`.
bool precision_reached(const RunResult& r, double precision);

/// The whole Monte Carlo run per the options (TBB over blocks).
RunResult monte_carlo(const RollProgram& program, const McOptions& options, Tallies* tallies_out = nullptr);

}  // namespace salvo::sim
