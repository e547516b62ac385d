// Comparison statistics, distributions and sensitivity variants, on programs whose answers
// are known exactly.

#include <catch2/catch.hpp>
#include <cmath>

#include "rules/asl_test_util.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_sensitivity.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/distribution.h"
#include "salvo/sim/exact.h"
#include "sim/programs.h"

namespace {

using namespace salvo;
using namespace salvo::sim;

/// One d6: faces 1..k kill, the rest miss; either way the run ends. P(kill) = k / 6.
RollProgram one_shot(int k) {
  ProgramBuilder b;
  const std::int32_t s = b.reserve_state("shot");
  const Link kill = b.leaf(testing::make_leaf(1u, {1, 0, 0, 0}, 1, -1, 0, true));
  const Link miss = b.leaf(testing::make_leaf(0u, {1, 0, 0, 0}, 0, -1, 1, true));
  std::vector<Link> faces;
  for (int f = 0; f < 6; ++f) faces.push_back(f < k ? kill : miss);
  b.set_state_root(s, b.node(DieKind::kD6, faces));
  RollProgram p = b.take();
  p.flag_names = {"kill"};
  p.counter_names = {"shots"};
  p.outcome_names = {"miss", "kill"};
  p.end_reason_names = {"killed", "missed"};
  return p;
}

const QuantityDiff& find(const Comparison& c, const std::string& name, Window w) {
  for (const QuantityDiff& q : c.quantities)
    if (q.name == name && q.window == w) return q;
  FAIL("no quantity " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("an option compared with itself differs by exactly 0", "[analysis][compare]") {
  const testing::KnownProgram d6 = testing::d6_loop();
  const Comparison ex = compare_exact(d6.program, d6.program);
  for (const QuantityDiff& q : ex.quantities) {
    CHECK(q.diff.value == 0.0);
    CHECK(q.diff.lo == 0.0);
    CHECK(q.diff.hi == 0.0);
    CHECK(q.p_a_higher == q.p_b_higher);  // symmetric
  }
  CompareOptions o;
  o.seed = 7;
  o.trials = 100'000;
  const std::vector<Comparison> mc = compare_mc({&d6.program, &d6.program}, o);
  REQUIRE(mc.size() == 1);
  CHECK(mc[0].trials == o.trials);
  for (const QuantityDiff& q : mc[0].quantities) {
    CHECK(q.diff.value == 0.0);
    CHECK(q.diff.lo == 0.0);
    CHECK(q.diff.hi == 0.0);
    CHECK(q.a.value == q.b.value);
    CHECK(q.paired_a_higher->value == 0.0);
    CHECK(q.paired_b_higher->value == 0.0);
  }
}

TEST_CASE("a known pair of exact options gives the exact difference", "[analysis][compare]") {
  // A kills on 1-4 (2/3), B on 1-2 (1/3): difference 1/3; with separate dice A is higher
  // (A kills, B does not) with 2/3 * 2/3 = 4/9, B higher with 1/3 * 1/3 = 1/9.
  const RollProgram a = one_shot(4), b = one_shot(2);
  const Comparison ex = compare_exact(a, b);
  const QuantityDiff& kill = find(ex, "p_kill", Window::kRun);
  CHECK(kill.diff.value == Approx(1.0 / 3.0).margin(1e-15));
  CHECK(kill.p_a_higher == Approx(4.0 / 9.0).margin(1e-15));
  CHECK(kill.p_b_higher == Approx(1.0 / 9.0).margin(1e-15));
  CHECK(find(ex, "e_shots", Window::kRun).diff.value == 0.0);

  // Common dice: every trial where B kills, A kills too, so B is never higher; the paired
  // difference d is 0/1 with mean 1/3 and variance 2/9: se = sqrt(2/9/n). 5 se.
  CompareOptions o;
  o.seed = 11;
  o.trials = 200'000;
  const Comparison mc = compare_mc({&a, &b}, o).at(0);
  const QuantityDiff& m = find(mc, "p_kill", Window::kRun);
  const double se = std::sqrt(2.0 / 9.0 / static_cast<double>(o.trials));
  CHECK(std::abs(m.diff.value - 1.0 / 3.0) < 5 * se);
  CHECK(m.diff.lo < 1.0 / 3.0 + 5 * se);
  CHECK(m.diff.hi > 1.0 / 3.0 - 5 * se);
  CHECK(m.diff.hi - m.diff.lo == Approx(2 * 1.959963984540054 * se).epsilon(0.05));
  CHECK(m.paired_b_higher->value == 0.0);
  CHECK(m.paired_a_higher->value == m.diff.value);
  // Same seed and trials, any thread count: identical
  o.threads = 1;
  const Comparison one = compare_mc({&a, &b}, o).at(0);
  CHECK(find(one, "p_kill", Window::kRun).diff.value == m.diff.value);
}

TEST_CASE("compare_exact on ASL situations is the difference of the exact solves", "[analysis][compare]") {
  asl::Situation s = asl::testing::base();
  asl::Situation t = s;
  t.fire.ca_change = 1;
  const RollProgram ps = asl::compile(s).program, pt = asl::compile(t).program;
  const Comparison c = compare_exact(ps, pt);
  const double want = solve_exact(ps).run.flags[asl::kFlagKill].value - solve_exact(pt).run.flags[asl::kFlagKill].value;
  CHECK(find(c, "p_kill", Window::kRun).diff.value == want);
  CHECK(want > 0.0);
}

TEST_CASE("exact hits distribution of a known chain", "[analysis][distribution]") {
  // d6 loop: 1-2 hit and again (1/3), 3 hit and end (1/6), 4-6 end (1/2).
  // P(0) = 1/2, P(n >= 1) = (1/3)^n / 2 + (1/3)^(n-1) / 6.
  const testing::KnownProgram d6 = testing::d6_loop();
  const Distribution d = exact_counter_distribution(d6.program, Window::kRun, 1, 3);
  REQUIRE(d.p.size() == 4);
  const auto pn = [](int n) { return n == 0 ? 0.5 : std::pow(1.0 / 3.0, n) / 2 + std::pow(1.0 / 3.0, n - 1) / 6; };
  for (int n = 0; n < 3; ++n) CHECK(d.p[static_cast<std::size_t>(n)].value == Approx(pn(n)).margin(1e-14));
  CHECK(d.p[3].value == Approx(1.0 - pn(0) - pn(1) - pn(2)).margin(1e-14));

  // Monte Carlo on the same chain: every bucket within 5 se
  McDistributionOptions o;
  o.trials = 200'000;
  const McDistributions m = mc_distributions(d6.program, o, Window::kRun, 1, 3, 0);
  for (std::size_t n = 0; n < 4; ++n) {
    const double p = d.p[n].value;
    CHECK(std::abs(m.counter.p[n].value - p) < 5 * std::sqrt(p * (1 - p) / static_cast<double>(o.trials)));
  }
  // Outcome x flag: P(best outcome "killed" and hit seen) = P(kill) = 1/4
  const Distribution od = exact_outcome_distribution(d6.program, Window::kRun, 0);
  const std::size_t k = d6.program.outcome_names.size();
  CHECK(od.p[1 + k].value == Approx(0.25).margin(1e-14));
}

TEST_CASE("exact distributions agree with the exact engine on ASL situations", "[analysis][distribution]") {
  asl::Situation s = asl::testing::base();
  s.firer.rof = 2;
  s.firer.breakdown = 11;
  const RollProgram p = asl::compile(s).program;
  const RunResult r = solve_exact(p);
  const Distribution hits = exact_counter_distribution(p, Window::kRun, asl::kCounterHits, 40);
  double mean = 0.0;
  for (std::size_t n = 0; n < hits.p.size(); ++n) mean += static_cast<double>(n) * hits.p[n].value;
  CHECK(mean == Approx(r.run.counters[asl::kCounterHits].value).epsilon(1e-9));
  // P(best outcome is burn or eliminated) = P(kill)
  const Distribution best = exact_outcome_distribution(p, Window::kRun, asl::kFlagMalfunction);
  const std::size_t k = p.outcome_names.size();
  double kill = 0.0, malf = 0.0;
  for (std::size_t seen = 0; seen < 2; ++seen) {
    kill += best.p[asl::kOutcomeBurn + k * seen].value + best.p[asl::kOutcomeEliminated + k * seen].value;
    for (std::size_t o = 0; o < k; ++o) malf += seen ? best.p[o + k].value : 0.0;
  }
  CHECK(kill == Approx(r.run.flags[asl::kFlagKill].value).epsilon(1e-9));
  CHECK(malf == Approx(r.run.flags[asl::kFlagMalfunction].value).epsilon(1e-9));
}

TEST_CASE("sensitivity variants remove each modifier or make it one worse", "[analysis][sensitivity]") {
  asl::Situation s = asl::testing::base();
  s.fire.buttoned_up = true;
  s.fire.ca_change = 1;
  s.target.tem = 1;
  const asl::Compiled c = asl::compile(s);
  const std::vector<asl::Variant> v = asl::sensitivity_variants(s, c.explain);
  const auto kill = [](const asl::Situation& x) {
    return solve_exact(asl::compile(x).program).run.flags[asl::kFlagKill].value;
  };
  const double base = kill(s);
  int removed = 0;
  for (const asl::Variant& x : v) {
    INFO(x.modifier << " " << x.change);
    if (x.worse) {
      CHECK(kill(x.situation) < base);
    } else {
      ++removed;
      CHECK(kill(x.situation) > base);
    }
  }
  CHECK(removed == 3);  // Case A, Case I, Case Q
  bool saw_buttoned = false;
  for (const asl::Variant& x : v)
    if (x.rule == "C5.9" && !x.worse) {
      saw_buttoned = true;
      CHECK_FALSE(x.situation.fire.buttoned_up);
    }
  CHECK(saw_buttoned);
}
