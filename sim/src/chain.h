#pragma once
// The reachable states of a roll program and the one-step leaf distribution of each: the
// enumeration the exact engine solves, shared with the engines that solve augmented chains
// (distribution.cpp). Internal to salvo::sim.

#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"

namespace salvo::sim::detail {

struct Chain {
  std::vector<std::int32_t> states;  ///< reachable states, breadth-first; row i is states[i]
  std::vector<std::int32_t> row_of;  ///< state -> row, -1 if unreachable
  std::vector<std::uint32_t> begin;  ///< moves of row i: [begin[i], begin[i + 1])
  std::vector<std::int32_t> leaf;    ///< each move's leaf, in leaf index order within a row
  std::vector<double> p;             ///< each move's probability
};

/// The chain as the exact engine enumerates it (the same sums, in the same order).
Chain reachable_chain(const RollProgram& program);

}  // namespace salvo::sim::detail
