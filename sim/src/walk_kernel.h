#pragma once
// The walk kernel (internal to salvo::sim): the Monte Carlo kernel for programs of more than
// kFastKernelMaxStates states without leaf tables, too many for the fast kernel's tables of a
// state each (fights, whose states share DAGs, run on the fast kernel). Equal tally for tally to the plain
// walker (run_blocks_reference) on the same dice streams: each lane's trials one after another,
// as the reference, but each node's table says where its next two dice symbols lead (a leaf
// after one or two rolls, or the node two rolls down), so a DAG walk is one or two lookups, and
// each leaf has a record of where the next step starts (the next state's root and leaf links),
// so a step's chain of dependent reads is: table entry, leaf link, record, next step; the
// leaf's accounting hangs off that chain. Two lanes are stepped in turn, so that their chains
// overlap (all 16 lanes in turn, their state in arrays, was measured slower).

#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::sim::detail {

/// A program prepared for the walk kernel (see fits). Immutable once built: blocks may run
/// concurrently. Keeps a reference to the program.
class WalkProgram {
 public:
  explicit WalkProgram(const RollProgram& program);

  /// Whether the walk kernel runs `program`: at most kWalkMaxNodes nodes, and its leaves and
  /// leaf-table entries numbered in 32 bits.
  static bool fits(const RollProgram& program);

  /// Tallies of blocks [block_begin, block_end), added into `out` (sized by the program).
  void run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin, std::uint64_t block_end,
           std::uint64_t trials_total, Tallies& out) const;

  /// Where a step starts: a state's root node and its leaf links (leaf link k leads to leaf
  /// ids_[links + k]).
  struct Start {
    std::uint32_t links = 0;
    std::uint32_t root = 0;
  };

 private:
  const RollProgram* program_;
  // Entry (node * 36 + s0) * 36 + s1: index << 2 | leaf << 1 | (symbols rolled - 1)
  std::vector<std::uint32_t> tables_;
  // The leaf of each leaf link: the program's leaf tables (state_leaves), after the leaves by
  // their own index when some state has no table and reaches its leaves directly (own_ids_).
  std::vector<std::int32_t> own_ids_;
  const std::int32_t* ids_ = nullptr;
  std::vector<Start> next_;  // per leaf: where the step after it starts (after the last: unused)
  Start initial_;
};

}  // namespace salvo::sim::detail
