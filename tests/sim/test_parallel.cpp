// Where work runs (salvo/sim/parallel.h): the serial path a build without TBB always takes is
// the one-thread path of every build, and it gives the same integer tallies as TBB's threads.

#include <catch2/catch.hpp>

#include <thread>
#include <utility>
#include <vector>

#include "salvo/sim/compare.h"
#include "salvo/sim/distribution.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "sim/programs.h"

using namespace salvo;
using namespace salvo::sim;

namespace {

/// The thread count of the parallel run: several threads where TBB is built in.
constexpr int kThreads = 4;

bool same(const Estimate& a, const Estimate& b) { return a.value == b.value && a.lo == b.lo && a.hi == b.hi; }

bool same(const std::vector<Estimate>& a, const std::vector<Estimate>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("parallel: one thread runs every index on the calling thread, in order", "[parallel]") {
  Workers one(1);
  CHECK(one.serial());
  CHECK(one.concurrency() == 1);
  std::vector<std::uint64_t> seen;
  const auto caller = std::this_thread::get_id();
  bool elsewhere = false;
  one.for_each(std::uint64_t{3}, std::uint64_t{40}, [&](std::uint64_t i) {
    seen.push_back(i);
    elsewhere = elsewhere || std::this_thread::get_id() != caller;
  });
  CHECK_FALSE(elsewhere);
  REQUIRE(seen.size() == 37);
  for (std::size_t k = 0; k < seen.size(); ++k) CHECK(seen[k] == 3 + k);

  // With TBB, more threads run in parallel; without it, everything is serial
  Workers many(kThreads);
  CHECK(many.serial() == !kParallel);
  CHECK(many.concurrency() == (kParallel ? kThreads : 1));
  std::vector<int> hits(100, 0);
  many.for_each(std::size_t{0}, hits.size(), [&](std::size_t i) { ++hits[i]; });
  for (int h : hits) CHECK(h == 1);
}

TEST_CASE("parallel: the serial path gives the tallies of TBB's threads, bit for bit", "[parallel][montecarlo]") {
  const auto k = testing::pair_chain();
  const std::uint64_t trials = 37 * kBlockTrials + 5;  // several waves of 4 threads, a partial block
  // `run` on one thread (the serial path) and on kThreads: {serial, threaded}
  const auto serial_and_threaded = [&](auto options, const auto& run) {
    options.seed = 7;
    options.situation_key = 12;
    options.trials = trials;
    options.threads = 1;
    auto serial = run(options);
    options.threads = kThreads;
    return std::pair{std::move(serial), run(options)};
  };

  // Monte Carlo engine: the tallies, and so every estimate
  const auto [ms, mt] = serial_and_threaded(McOptions{}, [&](const McOptions& o) {
    Tallies t;
    monte_carlo(k.program, o, &t);
    return t;
  });
  CHECK(ms.trials == trials);
  CHECK(ms == mt);

  // Distributions
  const auto [ds, dt] = serial_and_threaded(McDistributionOptions{}, [&](const McDistributionOptions& o) {
    return mc_distributions(k.program, o, Window::kRun, 0, 4, 0);
  });
  CHECK(ds.counter.trials == trials);
  CHECK(same(ds.counter.p, dt.counter.p));
  CHECK(same(ds.outcome.p, dt.outcome.p));

  // Common-dice comparison
  const auto [cs, ct] = serial_and_threaded(CompareOptions{}, [&](const CompareOptions& o) {
    return compare_mc({&k.program, &k.program}, o);
  });
  REQUIRE(cs.size() == 1);
  REQUIRE(ct.size() == 1);
  CHECK(cs[0].trials == trials);
  REQUIRE(cs[0].quantities.size() == ct[0].quantities.size());
  for (std::size_t q = 0; q < cs[0].quantities.size(); ++q) {
    const QuantityDiff& a = cs[0].quantities[q];
    const QuantityDiff& b = ct[0].quantities[q];
    CHECK(same(a.a, b.a));
    CHECK(same(a.diff, b.diff));
    REQUIRE(a.paired_a_higher);
    REQUIRE(b.paired_a_higher);
    CHECK(same(*a.paired_a_higher, *b.paired_a_higher));
  }
}
