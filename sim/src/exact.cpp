#include "salvo/sim/exact.h"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace salvo::sim {
namespace {

/// A leaf reached from a state in one step, with its total probability.
struct Step {
  std::int32_t leaf;
  double p;
};

/// The one-step distribution over leaves of every reachable state.
struct Chain {
  std::vector<std::int32_t> states;     // reachable states; row i of the matrices is states[i]
  std::vector<std::int32_t> row_of;     // state -> row, -1 if unreachable
  std::vector<std::uint32_t> begin;     // steps of row i: steps[begin[i] .. begin[i+1])
  std::vector<Step> steps;
};

/// Probability of reaching each leaf of a state's DAG: push node probabilities from the root
/// down in decreasing node index (a node links only to nodes of lower index).
void enumerate_state(const RollProgram& prog, std::uint32_t root, std::vector<double>& node_p,
                     std::vector<std::uint32_t>& dag_nodes, std::vector<double>& leaf_p,
                     std::vector<std::int32_t>& touched, std::vector<Step>& out) {
  // Collect the nodes of the DAG
  dag_nodes.clear();
  dag_nodes.push_back(root);
  node_p[root] = 1.0;
  for (std::size_t i = 0; i < dag_nodes.size(); ++i) {
    const RollNode& node = prog.nodes[dag_nodes[i]];
    for (int f = 0; f < faces(node.die); ++f) {
      const Link l = prog.link(dag_nodes[i], f);
      if (l.is_leaf()) continue;
      const auto child = static_cast<std::uint32_t>(l.index());
      if (node_p[child] < 0.0) {  // unvisited (marked -1)
        node_p[child] = 0.0;
        dag_nodes.push_back(child);
      }
    }
  }
  std::sort(dag_nodes.begin(), dag_nodes.end(), std::greater<>());
  // Push probabilities from parents to children and leaves
  for (std::uint32_t n : dag_nodes) {
    const RollNode& node = prog.nodes[n];
    const double w = node_p[n] / faces(node.die);
    for (int f = 0; f < faces(node.die); ++f) {
      const Link l = prog.link(n, f);
      if (l.is_leaf()) {
        const auto leaf = static_cast<std::size_t>(l.index());
        if (leaf_p[leaf] == 0.0) touched.push_back(static_cast<std::int32_t>(leaf));
        leaf_p[leaf] += w;
      } else {
        node_p[static_cast<std::size_t>(l.index())] += w;
      }
    }
    node_p[n] = -1.0;  // reset for the next state
  }
  // Emit the leaves in index order (deterministic summation order downstream)
  std::sort(touched.begin(), touched.end());
  for (std::int32_t leaf : touched) {
    out.push_back(Step{leaf, leaf_p[static_cast<std::size_t>(leaf)]});
    leaf_p[static_cast<std::size_t>(leaf)] = 0.0;
  }
  touched.clear();
}

Chain build_chain(const RollProgram& prog) {
  Chain c;
  c.row_of.assign(prog.num_states(), -1);
  std::vector<double> node_p(prog.nodes.size(), -1.0);
  std::vector<std::uint32_t> dag_nodes;
  std::vector<double> leaf_p(prog.leaves.size(), 0.0);
  std::vector<std::int32_t> touched;
  // Breadth-first over the states reachable from the initial state
  c.states.push_back(prog.initial_state);
  c.row_of[static_cast<std::size_t>(prog.initial_state)] = 0;
  for (std::size_t i = 0; i < c.states.size(); ++i) {
    c.begin.push_back(static_cast<std::uint32_t>(c.steps.size()));
    const auto s = static_cast<std::size_t>(c.states[i]);
    enumerate_state(prog, prog.state_root[s], node_p, dag_nodes, leaf_p, touched, c.steps);
    for (std::size_t k = c.begin[i]; k < c.steps.size(); ++k) {
      const std::int32_t next = prog.leaves[static_cast<std::size_t>(c.steps[k].leaf)].next_state;
      if (next >= 0 && c.row_of[static_cast<std::size_t>(next)] < 0) {
        c.row_of[static_cast<std::size_t>(next)] = static_cast<std::int32_t>(c.states.size());
        c.states.push_back(next);
      }
    }
  }
  c.begin.push_back(static_cast<std::uint32_t>(c.steps.size()));
  return c;
}

/// Throw unless every reachable state can reach the end of the run: then (and only then, for
/// a finite chain) the run ends with probability 1 from every state.
void check_absorbing(const RollProgram& prog, const Chain& c) {
  const std::size_t n = c.states.size();
  // Reverse edges: which rows step to row j
  std::vector<std::vector<std::uint32_t>> preds(n);
  std::vector<char> ends(n, 0);
  std::vector<std::uint32_t> queue;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = c.begin[i]; k < c.begin[i + 1]; ++k) {
      const Leaf& leaf = prog.leaves[static_cast<std::size_t>(c.steps[k].leaf)];
      if (c.steps[k].p <= 0.0) continue;
      if (leaf.next_state < 0) {
        if (!ends[i]) queue.push_back(static_cast<std::uint32_t>(i));
        ends[i] = 1;
      } else {
        preds[static_cast<std::size_t>(c.row_of[static_cast<std::size_t>(leaf.next_state)])].push_back(
            static_cast<std::uint32_t>(i));
      }
    }
  }
  // Backward search from the rows that can end the run
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (std::uint32_t pred : preds[queue[q]])
      if (!ends[pred]) {
        ends[pred] = 1;
        queue.push_back(pred);
      }
  for (std::size_t i = 0; i < n; ++i)
    if (!ends[i])
      throw std::runtime_error("exact: the run can go on for ever from state " +
                               prog.state_labels[static_cast<std::size_t>(c.states[i])]);
}

/// Index conversion for the int32 / Eigen::Index values used as vector indices.
template <class T>
constexpr std::size_t idx(T i) {
  return static_cast<std::size_t>(i);
}

/// Solve one window. `closes(leaf)` says whether a leaf ends the window.
template <class Closes>
WindowStats solve_window(const RollProgram& prog, const Chain& c, Closes closes, bool with_end_reasons) {
  const auto n = static_cast<Eigen::Index>(c.states.size());
  const std::size_t num_flags = prog.flag_names.size();
  const std::size_t num_counters = prog.counter_names.size();
  const std::size_t num_outcomes = prog.outcome_names.size();
  const std::size_t num_reasons = with_end_reasons ? prog.end_reason_names.size() : 0;

  // Right-hand sides: counters, outcomes, end reasons, absorption; and I - Q
  const auto col_outcome = static_cast<Eigen::Index>(num_counters);
  const auto col_reason = col_outcome + static_cast<Eigen::Index>(num_outcomes);
  const auto col_absorb = col_reason + static_cast<Eigen::Index>(num_reasons);
  Eigen::MatrixXd a = Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n, col_absorb + 1);
  FlagMask flags_on_continuing = 0;  // flags set by some leaf that does not end the window
  FlagMask flags_seen = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    for (std::size_t k = c.begin[idx(i)]; k < c.begin[idx(i) + 1]; ++k) {
      const Leaf& leaf = prog.leaves[idx(c.steps[k].leaf)];
      const double p = c.steps[k].p;
      flags_seen |= leaf.flags;
      for (std::size_t ci = 0; ci < num_counters; ++ci)
        rhs(i, static_cast<Eigen::Index>(ci)) += p * leaf.counts[ci];
      if (closes(leaf)) {
        rhs(i, col_outcome + leaf.outcome) += p;
        if (num_reasons > 0) rhs(i, col_reason + leaf.end_reason) += p;
        rhs(i, col_absorb) += p;
      } else {
        flags_on_continuing |= leaf.flags;
        a(i, c.row_of[idx(leaf.next_state)]) -= p;
      }
    }
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
  const Eigen::MatrixXd x = lu.solve(rhs);

  // Check that the window ends with probability 1 from every state
  for (Eigen::Index i = 0; i < n; ++i)
    if (!(std::abs(x(i, col_absorb) - 1.0) < 1e-9))
      throw std::runtime_error("exact: the chain did not solve to an absorbing one from state " +
                               prog.state_labels[idx(c.states[idx(i)])]);

  WindowStats w;
  const auto exact = [](double v) { return Estimate{v, v, v}; };
  // A probability summed from many 1/36 terms can round past 1 (36 x 1/36 = 1 + 2e-16).
  const auto probability = [&](double v) { return exact(std::clamp(v, 0.0, 1.0)); };
  for (std::size_t ci = 0; ci < num_counters; ++ci) w.counters.push_back(exact(x(0, static_cast<Eigen::Index>(ci))));
  for (std::size_t k = 0; k < num_outcomes; ++k)
    w.outcomes.push_back(probability(x(0, col_outcome + static_cast<Eigen::Index>(k))));
  for (std::size_t r = 0; r < num_reasons; ++r)
    w.end_reasons.push_back(probability(x(0, col_reason + static_cast<Eigen::Index>(r))));

  // Flags: h = b_f + Q_f h, where Q_f drops the continuing leaves that set flag f
  for (std::size_t f = 0; f < num_flags; ++f) {
    const FlagMask bit = FlagMask{1} << f;
    if (!(flags_seen & bit)) {
      w.flags.push_back(exact(0.0));
      continue;
    }
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
    Eigen::MatrixXd af = a;
    for (Eigen::Index i = 0; i < n; ++i)
      for (std::size_t k = c.begin[idx(i)]; k < c.begin[idx(i) + 1]; ++k) {
        const Leaf& leaf = prog.leaves[idx(c.steps[k].leaf)];
        if (!(leaf.flags & bit)) continue;
        b(i) += c.steps[k].p;
        if (!closes(leaf)) af(i, c.row_of[idx(leaf.next_state)]) += c.steps[k].p;
      }
    // Reuse the window's factorisation when no continuing leaf sets the flag (Q_f == Q)
    const double h = (flags_on_continuing & bit) ? Eigen::PartialPivLU<Eigen::MatrixXd>(af).solve(b)(0)
                                                 : lu.solve(b)(0);
    w.flags.push_back(exact(std::clamp(h, 0.0, 1.0)));
  }
  return w;
}

}  // namespace

void check_exact_result(const RunResult& r) {
  const auto check = [](const std::vector<Estimate>& v, const char* window, const char* what,
                        bool partition) {
    double sum = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!std::isfinite(v[i].value) || (partition && (v[i].value < -1e-12 || v[i].value > 1.0 + 1e-12)))
        throw std::runtime_error(fmt::format("exact: {}: {} #{} is {} (not a probability)", window, what, i,
                                             v[i].value));
      sum += v[i].value;
    }
    if (partition && !(std::abs(sum - 1.0) <= kPartitionTolerance))
      throw std::runtime_error(fmt::format("exact: {}: {} probabilities sum to {:.17g}, not 1 within 1e-12",
                                           window, what, sum));
  };
  for (const auto& [w, name] : {std::pair{&r.first, "first window"}, std::pair{&r.run, "whole run"}}) {
    check(w->flags, name, "flag", false);
    check(w->counters, name, "counter", false);
    check(w->outcomes, name, "outcome", true);
    if (w == &r.run) check(w->end_reasons, name, "end reason", true);
  }
}

RunResult solve_exact(const RollProgram& program) {
  // Enumerate the reachable states' one-step leaf distributions
  const Chain chain = build_chain(program);
  check_absorbing(program, chain);

  // Solve the first window and the whole run
  RunResult r;
  r.method = Method::kExact;
  r.trials = 0;
  r.first = solve_window(
      program, chain, [](const Leaf& l) { return l.closes_window || l.next_state < 0; }, false);
  r.run = solve_window(program, chain, [](const Leaf& l) { return l.next_state < 0; }, true);
  check_exact_result(r);
  return r;
}

}  // namespace salvo::sim
