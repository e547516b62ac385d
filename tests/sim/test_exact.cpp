// Tier 2 (analytic): the exact engine against closed forms of hand-built programs.

#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "salvo/sim/exact.h"
#include "sim/programs.h"

using namespace salvo;
using namespace salvo::sim;
using salvo::sim::testing::KnownProgram;
using salvo::sim::testing::WindowAnswer;

namespace {

void check_exact(const std::vector<Estimate>& got, const std::vector<double>& want, const char* what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("index " << i << ": got " << got[i].value << ", want " << want[i]);
    CHECK(std::abs(got[i].value - want[i]) <= 1e-12);
    CHECK(got[i].lo == got[i].value);
    CHECK(got[i].hi == got[i].value);
  }
}

void check_window(const WindowStats& got, const WindowAnswer& want) {
  check_exact(got.flags, want.flags, "flags");
  check_exact(got.counters, want.counters, "counters");
  check_exact(got.outcomes, want.outcomes, "outcomes");
  check_exact(got.end_reasons, want.end_reasons, "end reasons");
}

}  // namespace

TEST_CASE("exact: hand-built programs match their closed forms", "[exact]") {
  for (const KnownProgram& k : testing::known_programs()) {
    SECTION(k.name) {
      REQUIRE_NOTHROW(k.program.validate());
      const RunResult r = solve_exact(k.program);
      CHECK(r.method == Method::kExact);
      CHECK(r.trials == 0);
      CHECK_FALSE(r.interrupted);
      {
        INFO("first window");
        check_window(r.first, k.first);
        CHECK(r.first.end_reasons.empty());
      }
      {
        INFO("whole run");
        check_window(r.run, k.run);
      }
    }
  }
}

TEST_CASE("exact: only states reachable from the initial state count", "[exact]") {
  const RollProgram p = testing::trap_program(false);
  REQUIRE_NOTHROW(p.validate());
  const RunResult r = solve_exact(p);
  REQUIRE(r.run.counters.size() == 1);
  CHECK(std::abs(r.run.counters[0].value - 2.0) <= 1e-12);  // geometric, p = 1/2
  CHECK(std::abs(r.run.outcomes[0].value - 1.0) <= 1e-12);
}

TEST_CASE("exact: a run that can go on for ever is rejected", "[exact]") {
  SECTION("reachable trap") {
    const RollProgram p = testing::trap_program(true);
    REQUIRE_NOTHROW(p.validate());
    CHECK_THROWS_WITH(solve_exact(p), "exact: the run can go on for ever from state trap");
  }
  SECTION("single state that always loops") {
    ProgramBuilder b;
    const std::int32_t s = b.reserve_state("loop");
    const Link again = b.leaf(testing::make_leaf(0u, {0, 0, 0, 0}, 0, s));
    b.set_state_root(s, b.node(DieKind::kD6, std::vector<Link>(6, again)));
    RollProgram p = b.take();
    p.outcome_names = {"none"};
    p.end_reason_names = {"none"};
    REQUIRE_NOTHROW(p.validate());
    CHECK_THROWS_AS(solve_exact(p), std::runtime_error);
    CHECK_THROWS_WITH(solve_exact(p), "exact: the run can go on for ever from state loop");
  }
}

TEST_CASE("exact: the initial state need not be state 0", "[exact]") {
  // pair chain started in B: P(kill) = 1/6 + 5/6 * 5/17 = 42/102 = 7/17
  KnownProgram k = testing::pair_chain();
  k.program.initial_state = 1;
  const RunResult r = solve_exact(k.program);
  CHECK(std::abs(r.run.end_reasons[1].value - 7.0 / 17.0) <= 1e-12);
  CHECK(std::abs(r.run.counters[0].value - (1.0 + 5.0 / 6.0 * 6.0)) <= 1e-12);
}

TEST_CASE("exact: a state's leaf table is checked against the links of its DAG", "[exact]") {
  // shared_dag()'s states reach slots 0 and 1: a table of one entry leaves slot 1 standing for
  // nothing; a table entry past the leaves stands for no leaf.
  KnownProgram k = testing::shared_dag();
  RollProgram short_table = k.program;
  short_table.state_leaves.erase(short_table.state_leaves.begin() + 1);
  for (std::size_t s = 1; s < short_table.state_leaf_begin.size(); ++s) --short_table.state_leaf_begin[s];
  CHECK_THROWS_WITH(short_table.validate(), "roll program: leaf index out of range");
  RollProgram bad_entry = k.program;
  bad_entry.state_leaves[0] = static_cast<std::int32_t>(bad_entry.leaves.size());
  CHECK_THROWS_WITH(bad_entry.validate(), "roll program: leaf table entry out of range");
  // A leaf table changes what the program is: its hash.
  RollProgram swapped = k.program;
  std::swap(swapped.state_leaves[0], swapped.state_leaves[2]);
  CHECK(swapped.hash() != k.program.hash());
}

TEST_CASE("exact: a large program's solve gives its scratch back, a small one's keeps it", "[exact]") {
  // A run of n states, each a dr: 1-3 on to the next (the last: the end), 4-6 the end.
  const auto chain = [](std::int32_t n) {
    ProgramBuilder b;
    const Link end = b.leaf(testing::make_leaf(0u, {0, 0, 0, 0}, 0, -1));
    for (std::int32_t s = 0; s < n; ++s) b.reserve_state();
    for (std::int32_t s = 0; s < n; ++s) {
      const Link on = s + 1 < n ? b.leaf(testing::make_leaf(1u, {1, 0, 0, 0}, 1, s + 1)) : end;
      b.set_state_root(s, b.node(DieKind::kD6, std::vector<Link>{on, on, on, end, end, end}));
    }
    return testing::take_named(b, {{"on"}, {"steps"}, {"ended", "went_on"}, {"end"}});
  };
  const RollProgram small = chain(10);
  const RollProgram large = chain(static_cast<std::int32_t>(kKeptSolveStates) + 1);
  const RunResult r = solve_exact(small);
  CHECK(std::abs(r.run.counters[0].value - (1.0 - std::pow(0.5, 9))) < 1e-12);  // the sum of 2^-k, k = 1..9
  CHECK(detail::solve_scratch_bytes() > 0);                                     // kept for the next solve
  const RunResult big = solve_exact(large);
  CHECK(std::abs(big.run.counters[0].value - 1.0) < 1e-12);
  CHECK(detail::solve_scratch_bytes() == 0);
}
