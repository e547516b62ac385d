#pragma once
// The walk kernel (internal to salvo::sim): the Monte Carlo kernel for programs with too many
// states for the fast kernel's per-state tables (fights). Equal tally for tally to the plain
// walker (run_blocks_reference) on the same dice streams: one lane after another, one trial at
// a time, as the reference, but each node's table says where its next two dice symbols lead (a
// leaf after one or two rolls, or the node two rolls down), so a step is one or two lookups.
// (Stepping the lanes in turn, to overlap the memory reads of several trials, was measured
// slower on a 2-against-2 fight: its steps are bound by their arithmetic, not by memory.)

#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim::detail {

/// A program prepared for the walk kernel (at most kWalkMaxNodes nodes). Immutable once built:
/// blocks may run concurrently. Keeps a reference to the program.
class WalkProgram {
 public:
  explicit WalkProgram(const RollProgram& program);

  /// Tallies of blocks [block_begin, block_end), added into `out` (sized by the program).
  void run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin, std::uint64_t block_end,
           std::uint64_t trials_total, Tallies& out) const;

 private:
  const RollProgram* program_;
  // Entry (node * 36 + s0) * 36 + s1: index << 2 | leaf << 1 | (symbols rolled - 1)
  std::vector<std::uint32_t> tables_;
};

}  // namespace salvo::sim::detail
