#pragma once
// The fast Monte Carlo kernel (internal to salvo::sim). Generic over RollProgram:
//  - per state, a table over two symbols (36 x 36) gives the leaf reached and whether the
//    second symbol was used (deeper DAGs continue with a node walk, rarely);
//  - a trial's running summary (flags seen, counters, outcomes, state) is interned as a small
//    integer; a table maps (summary, leaf) to the next summary, so a step is two lookups and a
//    trial is tallied by counting visits to its final summary;
//  - kLanes independent lanes are interleaved so their dependency chains overlap.
// Summaries that the precomputed table does not reach (long runs) continue in a plain scalar
// walk, so every program runs and the tallies equal run_blocks_reference exactly.

#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim::detail {

/// A trial's running summary: everything its tallies depend on, and the state of its next step.
struct Summary {
  std::int32_t state = 0;  ///< state of the next step; -1 once the trial has ended
  FlagMask run_mask = 0;
  FlagMask first_mask = 0;
  std::uint32_t run_cnt[kMaxCounters] = {};
  std::uint32_t first_cnt[kMaxCounters] = {};
  std::uint8_t run_outcome = 0;
  std::uint8_t first_outcome = 0;
  std::uint8_t end_reason = 0;
  bool first_open = true;
  bool ended = false;

  friend bool operator==(const Summary&, const Summary&) = default;
};

/// A program prepared for the fast kernel. Immutable once built: blocks may run concurrently.
class FastProgram {
 public:
  explicit FastProgram(const RollProgram& program);

  /// Tallies of blocks [block_begin, block_end), added into `out` (sized by the program).
  void run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin, std::uint64_t block_end,
           std::uint64_t trials_total, Tallies& out) const;

  std::size_t num_summaries() const { return summaries_.size(); }

 private:
  friend class LaneRunner;

  const RollProgram* program_;
  std::int32_t initial_ = 0;
  std::vector<std::uint32_t> s2_;                          // state * 1296 + s0 * 36 + s1
  std::vector<std::vector<std::int32_t>> local_leaves_;    // per state: its leaves, sorted
  std::uint32_t width_ = 1;                                // row width of trans_
  std::vector<Summary> summaries_;                         // id 0: a fresh trial
  std::vector<std::uint64_t> trans_;                       // id * width_ + local leaf
};

}  // namespace salvo::sim::detail
