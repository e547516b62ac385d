#pragma once
// A ruleset for tests only: one die, "hit on N+". It shows what a ruleset needs to give salvo,
// and that a new one is this folder and one call to Registry::add: odds, compare, chart and every
// output format work on it with no change elsewhere.
//
// A situation file:
//   ruleset = "d6"
//   name = "three shots, hit on 4+"
//   hit_on = 4   # a d6 roll of this or more hits, 2..6
//   shots = 3    # shots fired, 1..10; the run stops at the first hit
//   [sweep]      # optional: arrays of values for hit_on and shots
//   hit_on = [3, 4, 5]
#include <cstddef>
#include <memory>

#include "salvo/rulesets/ruleset.h"

namespace salvo::testing {

std::unique_ptr<Ruleset> make_d6_ruleset();

/// How many d6 situations were compiled so far (for the runner's tests: how often it compiles).
std::size_t d6_compiles();

}  // namespace salvo::testing
