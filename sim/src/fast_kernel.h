#pragma once
// The fast Monte Carlo kernel (internal to salvo::sim). Generic over RollProgram, and equal
// tally for tally to the plain walker (run_blocks_reference) on the same dice streams:
//  - a trial's running summary (flags seen, counters, outcomes, steps taken, state) is interned
//    as a small integer, likeliest first; each summary has a row of transitions, one per leaf
//    of its state, to the next summary, so a trial's bookkeeping is one table step;
//  - a state's cell table is indexed by the lane's next two dice symbols read as one
//    little-endian 16-bit value (s0 + 256 s1: sparse, 7 tables packed together), and says
//    how many of them the step rolled and which column of the row it reached. Tables are made
//    only for the states of the kept summaries. States that share a DAG through their leaf
//    tables (RollProgram::state_leaves: a fight's) share one cell table, whose column k is leaf
//    link k, so a large fight costs tables per DAG, not per state;
//  - a lane is two registers (symbol pointer, row pointer); kGroupLanes lanes step together
//    in registers, in rounds of kRoundSteps steps;
//  - a step counts a visit only when it ends a trial (the summary's slot); the trials a lane
//    ended in a round follow from its "not ended" slot, so a step carries no other counter.
// Steps the tables do not cover (a third die or more, summaries past the table) hand the lane
// to a plain walk for the rest of that trial. Because the step count is part of the summary,
// the table's summaries form an acyclic graph and the walk knows the trial's exact step count.

#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim::detail {

/// A trial's running summary: everything its tallies depend on, and the state of its next step.
struct Summary {
  std::int32_t state = 0;   ///< state of the next step; -1 once the trial has ended
  std::uint32_t steps = 0;  ///< steps taken
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
/// Not copyable (its rows point into its own tables).
class FastProgram {
 public:
  /// `trials`: the trials the run will take, 0 if not known; a shorter run keeps fewer
  /// summaries of a program with leaf tables, whose search would cost more than it saves.
  explicit FastProgram(const RollProgram& program, std::uint64_t trials = 0);
  FastProgram(const FastProgram&) = delete;
  FastProgram& operator=(const FastProgram&) = delete;

  /// Tallies of blocks [block_begin, block_end), added into `out` (sized by the program).
  void run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin, std::uint64_t block_end,
           std::uint64_t trials_total, Tallies& out) const;

  std::size_t num_summaries() const { return summaries_.size(); }

  union Slot;
  /// A transition: the next summary's row, and the byte offset of the visit slot it counts
  /// ((ended ? next id : 0) * kLanes * 4). next == nullptr: the plain walk takes over, and
  /// `slot` is the step's leaf (a leaf past the table: its first step), unless the step rolls a
  /// third die (the row's last column), where the walk starts from the state's root.
  struct Entry {
    const Slot* next;
    std::size_t slot;
  };
  /// Before each row's entries: its state, and its cell table.
  /// 16 bytes with 32-bit pointers too (WebAssembly), as a Slot is.
  struct alignas(16) RowHeader {
    const std::uint16_t* cells;
    std::uint32_t state;
  };
  /// A row is one header slot, then width_ entry slots.
  union Slot {
    Entry entry{nullptr, 0};
    RowHeader header;
  };

 private:
  friend class LaneRunner;

  /// The row of summary `id` (its first entry).
  const Slot* row(std::size_t id) const { return rows_.data() + id * (width_ + 1) + 1; }
  std::size_t id_of(const Slot* row) const { return static_cast<std::size_t>(row - rows_.data()) / (width_ + 1); }

  const RollProgram* program_;
  std::vector<std::uint16_t> cells_;  // cell tables (see the .cpp)
  std::uint32_t width_ = 1;           // columns per row, the last one "deeper"
  std::vector<Summary> summaries_;    // id 0: a fresh trial
  std::vector<Slot> rows_;            // per summary: a header, width_ entries
};

}  // namespace salvo::sim::detail
