// The exact engine solves the chain state by state (strongly connected components, successors
// first). Checked here against a plain dense solve of the whole chain — one LU of I - Q per
// window and one per flag, the textbook absorbing-chain equations — on random programs with
// cycles through several states, on programs whose only cycles are single states, and on
// programs with a flag set inside a cycle.

#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "salvo/sim/exact.h"
#include "sim/programs.h"

using namespace salvo;
using namespace salvo::sim;

namespace {

/// P(each leaf) in one step from `state`, by walking every path of its DAG (a leaf link through
/// the state's leaf table, if it has one).
std::vector<double> leaf_distribution(const RollProgram& p, std::int32_t state) {
  std::vector<double> leaf_p(p.leaves.size(), 0.0);
  const std::function<void(std::uint32_t, double)> walk = [&](std::uint32_t n, double w) {
    const int nf = faces(p.nodes[n].die);
    for (int f = 0; f < nf; ++f) {
      const Link l = p.link(n, f);
      if (l.is_leaf())
        leaf_p[static_cast<std::size_t>(p.leaf_of(static_cast<std::size_t>(state), l))] += w / nf;
      else
        walk(static_cast<std::uint32_t>(l.index()), w / nf);
    }
  };
  walk(p.state_root[static_cast<std::size_t>(state)], 1.0);
  return leaf_p;
}

/// The textbook solve of one window over every state of the program (all reachable here).
WindowStats dense_window(const RollProgram& p, bool first_window) {
  const auto n = static_cast<Eigen::Index>(p.num_states());
  const auto closes = [&](const Leaf& l) { return l.next_state < 0 || (first_window && l.closes_window); };
  std::vector<std::vector<double>> dist;
  for (Eigen::Index s = 0; s < n; ++s) dist.push_back(leaf_distribution(p, static_cast<std::int32_t>(s)));
  const auto solve = [&](FlagMask drop, const std::function<double(const Leaf&)>& reward) {
    // h = b + Q' h, Q' the steps that go on and set none of `drop`
    Eigen::MatrixXd a = Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
    for (Eigen::Index s = 0; s < n; ++s)
      for (std::size_t k = 0; k < p.leaves.size(); ++k) {
        const double w = dist[static_cast<std::size_t>(s)][k];
        if (w == 0.0) continue;
        const Leaf& l = p.leaves[k];
        b(s) += w * reward(l);
        if (!closes(l) && !(l.flags & drop)) a(s, l.next_state) -= w;
      }
    return Eigen::VectorXd(a.partialPivLu().solve(b))(p.initial_state);
  };
  WindowStats w;
  const auto est = [](double v) { return Estimate{v, v, v}; };
  for (std::size_t f = 0; f < p.flag_names.size(); ++f) {
    const FlagMask bit = FlagMask{1} << f;
    w.flags.push_back(est(solve(bit, [&](const Leaf& l) { return (l.flags & bit) ? 1.0 : 0.0; })));
  }
  for (std::size_t c = 0; c < p.counter_names.size(); ++c)
    w.counters.push_back(est(solve(0, [&](const Leaf& l) { return static_cast<double>(l.counts[c]); })));
  for (std::size_t o = 0; o < p.outcome_names.size(); ++o)
    w.outcomes.push_back(est(solve(0, [&](const Leaf& l) { return closes(l) && l.outcome == o ? 1.0 : 0.0; })));
  if (!first_window)
    for (std::size_t r = 0; r < p.end_reason_names.size(); ++r)
      w.end_reasons.push_back(
          est(solve(0, [&](const Leaf& l) { return l.next_state < 0 && l.end_reason == r ? 1.0 : 0.0; })));
  return w;
}

void check_close(const std::vector<Estimate>& got, const std::vector<Estimate>& want, const char* what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("#" << i << ": got " << got[i].value << ", want " << want[i].value);
    CHECK(std::abs(got[i].value - want[i].value) <= 1e-12);
  }
}

void check_against_dense(const RollProgram& p) {
  REQUIRE_NOTHROW(p.validate());
  const RunResult r = solve_exact(p);
  for (const bool first : {true, false}) {
    INFO((first ? "first window" : "whole run"));
    const WindowStats want = dense_window(p, first);
    const WindowStats& got = first ? r.first : r.run;
    check_close(got.flags, want.flags, "flags");
    check_close(got.counters, want.counters, "counters");
    check_close(got.outcomes, want.outcomes, "outcomes");
    check_close(got.end_reasons, want.end_reasons, "end reasons");
  }
}

/// A program whose states only step to themselves or to later states (every cycle is a single
/// state, like the shots of a fire phase that saturate), with flags on the steps that stay.
RollProgram layered_program(std::uint64_t seed, int states) {
  SplitMix64 rng(seed);
  const auto below = [&](std::uint64_t n) { return static_cast<int>(rng.next() % n); };
  ProgramBuilder b;
  std::vector<std::int32_t> ids;
  for (int s = 0; s < states; ++s) ids.push_back(b.reserve_state("layer " + std::to_string(s)));
  for (int s = 0; s < states; ++s) {
    const auto leaf = [&](bool end) {
      Leaf l;
      l.flags = static_cast<FlagMask>(below(16));
      l.counts = {static_cast<std::uint8_t>(below(3)), 1, 0, 0};
      l.outcome = static_cast<std::uint8_t>(below(3));
      l.closes_window = below(4) == 0;
      const int to = s + below(3);  // itself, or one of the next two
      l.next_state = end || to >= states ? -1 : ids[static_cast<std::size_t>(to)];
      l.end_reason = static_cast<std::uint8_t>(below(2));
      return b.leaf(l);
    };
    std::vector<Link> tk;
    for (int f = 0; f < 36; ++f) tk.push_back(leaf(false));
    const Link kill = b.node(DieKind::kPair, tk);
    std::vector<Link> th;
    for (int f = 0; f < 36; ++f) th.push_back(f < 3 ? leaf(true) : below(3) == 0 ? kill : leaf(false));
    b.set_state_root(ids[static_cast<std::size_t>(s)], b.node(DieKind::kPair, th));
  }
  RollProgram p = b.take();
  p.flag_names = {"f0", "f1", "f2", "f3"};
  p.counter_names = {"c0", "c1"};
  p.outcome_names = {"o0", "o1", "o2"};
  p.end_reason_names = {"r0", "r1"};
  return p;
}

}  // namespace

TEST_CASE("exact: the component-wise solve equals a dense solve of the whole chain", "[exact]") {
  SECTION("random programs: cycles through several states") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed)
      for (const int states : {1, 2, 3, 6, 10}) {
        INFO("seed " << seed << ", " << states << " states");
        RollProgram p = testing::random_program(seed, states);
        // Every state of a random program can end the run: the dense solve covers them all,
        // reachable or not, and each can be the initial state.
        for (std::int32_t s = 0; s < states; s += 3) {
          p.initial_state = s;
          check_against_dense(p);
        }
      }
  }
  SECTION("layered programs: only single-state cycles") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      INFO("seed " << seed);
      check_against_dense(layered_program(seed, 1 + static_cast<int>(seed % 7)));
    }
  }
  SECTION("the hand-built programs") {
    for (const testing::KnownProgram& k : testing::known_programs()) {
      INFO(k.name);
      check_against_dense(k.program);
    }
  }
}

TEST_CASE("exact: solving again gives bit-identical results (scratch reused)", "[exact]") {
  const RollProgram big = layered_program(7, 7);
  const RollProgram small = testing::random_program(3, 2);
  const RunResult a = solve_exact(big);
  const RunResult b = solve_exact(small);
  const RunResult a2 = solve_exact(big);
  const RunResult b2 = solve_exact(small);
  const auto same = [](const RunResult& x, const RunResult& y) {
    for (const auto& [u, v] : {std::pair{&x.first, &y.first}, std::pair{&x.run, &y.run}})
      for (const auto& [p, q] : {std::pair{&u->flags, &v->flags}, std::pair{&u->counters, &v->counters},
                                 std::pair{&u->outcomes, &v->outcomes}, std::pair{&u->end_reasons, &v->end_reasons}}) {
        if (p->size() != q->size()) return false;
        for (std::size_t i = 0; i < p->size(); ++i)
          if ((*p)[i].value != (*q)[i].value) return false;
      }
    return true;
  };
  CHECK(same(a, a2));
  CHECK(same(b, b2));
}
