#include "salvo/sim/exact.h"

#include "chain.h"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace salvo::sim {
namespace {

/// Index conversion for the int32 / Eigen::Index values used as vector indices.
template <class T>
constexpr std::size_t idx(T i) {
  return static_cast<std::size_t>(i);
}

/// A leaf reached from a state in one step, with its total probability, and what the solver
/// needs of the leaf.
struct Move {
  double p = 0.0;
  FlagMask flag_cols = 0;      // the leaf's flags as flag columns (bit c: flag flag_of[c])
  std::int32_t next_row = -1;  // row of the next state; -1: the run is over
  std::array<std::uint8_t, kMaxCounters> counts{};
  std::uint8_t outcome = 0;
  std::uint8_t end_reason = 0;
  bool closes_window = false;
};

/// Scratch reused by every solve on a thread: a solve allocates nothing once it has met a
/// program as large.
struct Workspace {
  // Enumeration of one state's DAG
  std::vector<double> node_p;               // probability of reaching each node; -1 unvisited
  std::vector<std::uint32_t> heap;          // nodes reached, highest index first
  std::vector<double> leaf_p;               // probability of reaching each leaf; 0 untouched
  std::vector<std::int32_t> touched;        // leaves reached
  std::vector<std::int32_t> root_slots;     // a shared DAG's root node -> its entry in slot_p, -1 none yet
  std::vector<std::vector<double>> slot_p;  // per shared DAG walked: P(each slot)
  // The chain: the one-step distribution over leaves of every reachable state
  std::vector<std::int32_t> states;  // reachable states; row i is states[i]
  std::vector<std::int32_t> row_of;  // state -> row, -1 if unreachable
  std::vector<std::uint32_t> begin;  // moves of row i: moves[begin[i] .. begin[i+1])
  std::vector<Move> moves;
  std::vector<std::int32_t> move_leaf;  // leaf of each move
  // The flag columns (solve_exact): the flags some leaf of the program sets, in order
  std::array<std::uint8_t, kMaxFlags> col_of{};  // flag column of each such flag
  bool cols_are_flags = true;                    // flag i is column i (the flags set are 0..k-1)
  std::size_t num_counters = 0;                  // of row_b's rows, then the flag columns
  std::size_t row_b_width = 0;                   // 0: no row_b wanted (reachable_chain)
  // Strongly connected components, each after every component it can step to
  std::vector<std::uint32_t> order;       // rows, component by component
  std::vector<std::uint32_t> comp_begin;  // component k: order[comp_begin[k] .. comp_begin[k+1])
  std::vector<std::int32_t> index, low, comp_of;
  std::vector<char> on_stack, can_end;
  std::vector<char> needed;  // rows the window being solved needs
  std::vector<std::uint32_t> stack;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> calls;  // (row, next move to follow)
  // Solve
  std::vector<double> x;       // unknowns, row-major: rows x columns (solve_window: or only those solved backward)
  std::vector<double> answer;  // the initial state's columns, where the visits are pushed forward
  std::vector<double> visits;  // expected visits to each row (solve_window's forward pass)
  std::vector<double> stay;    // per row: P(a move to itself), of the backward pass
  std::vector<double> row_b;   // rows x (counters, flag columns): b of both windows (build_chain)
  std::vector<double> rhs;     // the row being solved
  std::vector<std::int32_t> slot_of;   // row -> slot of the row being solved, -1 none
  std::vector<std::uint32_t> targets;  // slot -> row
  std::vector<double> q;               // slot -> probability of stepping there (shared columns)
  std::vector<double> qf;              // slot x flag column -> the same without the flag's leaves
};

Workspace& workspace() {
  thread_local Workspace w;
  return w;
}

/// The thread's workspace for one solve of `program`: given back when the solve ends (however
/// it ends) if the program is larger than kKeptSolveStates.
class WorkspaceUse {
 public:
  explicit WorkspaceUse(const RollProgram& program) : large_(program.num_states() > kKeptSolveStates) {}
  WorkspaceUse(const WorkspaceUse&) = delete;
  WorkspaceUse& operator=(const WorkspaceUse&) = delete;
  ~WorkspaceUse() {
    if (large_) workspace() = Workspace{};
  }
  Workspace& ws() const { return workspace(); }

 private:
  bool large_;
};

/// Probability of reaching each leaf link of the DAG under `root`: push node probabilities from
/// the root down in decreasing node index (a node links only to nodes of lower index, so a node
/// is popped only after every parent). `add(id, w)` for each face that reaches a leaf link, id
/// its leaf (`leaf_id`); faces in a row that reach the same link call it in a row.
template <class LeafId, class Add>
void walk_dag(const RollProgram& prog, std::uint32_t root, Workspace& ws, LeafId&& leaf_id, Add&& add) {
  auto& node_p = ws.node_p;
  auto& heap = ws.heap;
  heap.assign(1, root);
  node_p[root] = 1.0;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    const std::uint32_t n = heap.back();
    heap.pop_back();
    const RollNode& node = prog.nodes[n];
    const int nf = faces(node.die);
    const double w = node_p[n] / nf;
    const Link* links = prog.links.data() + node.first;
    for (int f = 0; f < nf; ++f) {
      const Link l = links[f];
      if (l.is_leaf()) {
        const auto id = leaf_id(l);
        add(id, w);
        while (f + 1 < nf && links[f + 1] == l) {
          add(id, w);
          ++f;
        }
      } else {
        const auto child = idx(l.index());
        if (node_p[child] < 0.0) {  // unvisited (marked -1)
          node_p[child] = 0.0;
          heap.push_back(static_cast<std::uint32_t>(child));
          std::push_heap(heap.begin(), heap.end());
        }
        node_p[child] += w;
      }
    }
    node_p[n] = -1.0;  // reset for the next state
  }
}

/// Probability of reaching each leaf of a state's DAG. Appends the leaves reached, in index
/// order. States that share a DAG (leaf tables) share its walk: the chance of each table slot
/// is worked out once per DAG, and each state adds its slots up by the leaves they stand for.
void enumerate_state(const RollProgram& prog, std::size_t state, Workspace& ws) {
  const std::uint32_t root = prog.state_root[state];
  const auto add_leaf = [&ws](std::size_t leaf, double w) {
    if (ws.leaf_p[leaf] == 0.0) ws.touched.push_back(static_cast<std::int32_t>(leaf));
    ws.leaf_p[leaf] += w;
  };
  const bool table = !prog.state_leaf_begin.empty() && prog.state_leaf_begin[state] != prog.state_leaf_begin[state + 1];
  if (!table) {
    walk_dag(
        prog, root, ws, [](Link l) { return idx(l.index()); }, add_leaf);
  } else {
    std::int32_t& walked = ws.root_slots[root];
    if (walked < 0) {
      std::vector<double> p;
      walk_dag(
          prog, root, ws, [](Link l) { return idx(l.index()); },
          [&p](std::size_t slot, double w) {
            if (slot >= p.size()) p.resize(slot + 1, 0.0);
            p[slot] += w;
          });
      walked = static_cast<std::int32_t>(ws.slot_p.size());
      ws.slot_p.push_back(std::move(p));
    }
    const std::vector<double>& slot_p = ws.slot_p[idx(walked)];
    const std::int32_t* leaves = prog.state_leaves.data() + prog.state_leaf_begin[state];
    for (std::size_t slot = 0; slot < slot_p.size(); ++slot)
      if (slot_p[slot] > 0.0) add_leaf(idx(leaves[slot]), slot_p[slot]);
  }
  // Emit the leaves in index order (deterministic summation order downstream)
  std::sort(ws.touched.begin(), ws.touched.end());
  const std::size_t first = ws.moves.size();
  ws.moves.resize(first + ws.touched.size());
  Move* out = ws.moves.data() + first;
  for (std::int32_t leaf : ws.touched) {
    const Leaf& l = prog.leaves[idx(leaf)];
    out->p = ws.leaf_p[idx(leaf)];
    if (ws.cols_are_flags) {
      out->flag_cols = l.flags;
    } else {
      out->flag_cols = 0;
      for (FlagMask f = l.flags; f; f &= f - 1) out->flag_cols |= FlagMask{1} << ws.col_of[idx(std::countr_zero(f))];
    }
    out->counts = l.counts;
    out->outcome = l.outcome;
    out->end_reason = l.end_reason;
    out->closes_window = l.closes_window;
    out->next_row = l.next_state;  // the state, for now
    ++out;
    ws.move_leaf.push_back(leaf);
    ws.leaf_p[idx(leaf)] = 0.0;
  }
  ws.touched.clear();
}

/// The reachable states, breadth-first from the initial state, and their moves.
void build_chain(const RollProgram& prog, Workspace& ws) {
  ws.slot_p.clear();
  ws.root_slots.assign(prog.nodes.size(), -1);
  ws.node_p.assign(prog.nodes.size(), -1.0);
  ws.leaf_p.assign(prog.leaves.size(), 0.0);
  ws.touched.clear();
  ws.states.clear();
  ws.row_of.assign(prog.num_states(), -1);
  ws.begin.clear();
  ws.moves.clear();
  ws.move_leaf.clear();
  ws.states.push_back(prog.initial_state);
  ws.row_of[idx(prog.initial_state)] = 0;
  ws.row_b.clear();
  for (std::size_t i = 0; i < ws.states.size(); ++i) {
    ws.begin.push_back(static_cast<std::uint32_t>(ws.moves.size()));
    enumerate_state(prog, idx(ws.states[i]), ws);
    // What the row's moves add to the counter and flag columns: the same in both windows
    double* b = nullptr;
    if (ws.row_b_width > 0) {
      ws.row_b.resize(ws.row_b.size() + ws.row_b_width, 0.0);
      b = ws.row_b.data() + i * ws.row_b_width;
    }
    for (std::size_t k = ws.begin[i]; k < ws.moves.size(); ++k) {
      Move& m = ws.moves[k];
      if (b != nullptr) {
        for (std::size_t ci = 0; ci < ws.num_counters; ++ci)
          if (m.counts[ci] != 0) b[ci] += m.p * m.counts[ci];  // (adding p * 0 changes nothing)
        for (FlagMask f = m.flag_cols; f; f &= f - 1) b[ws.num_counters + idx(std::countr_zero(f))] += m.p;
      }
      const std::int32_t next = m.next_row;
      if (next < 0) continue;
      std::int32_t& row = ws.row_of[idx(next)];
      if (row < 0) {
        row = static_cast<std::int32_t>(ws.states.size());
        ws.states.push_back(next);
      }
      m.next_row = row;
    }
  }
  ws.begin.push_back(static_cast<std::uint32_t>(ws.moves.size()));
}

/// The strongly connected components of the rows (Tarjan), each listed after every component
/// it can step to: solving them in this order, a row's successors outside its own component
/// are solved before it. Most programs loop only on single states (the shots that saturate),
/// so almost every component is one row.
///
/// Then throw unless every row can reach the end of the run: then (and only then, for a finite
/// chain) the run ends with probability 1 from every state.
void components(const RollProgram& prog, Workspace& ws) {
  const std::size_t n = ws.states.size();
  ws.order.clear();
  ws.comp_begin.assign(1, 0);
  ws.index.assign(n, -1);
  ws.low.assign(n, 0);
  ws.comp_of.assign(n, -1);
  ws.on_stack.assign(n, 0);
  ws.stack.clear();
  ws.calls.clear();
  std::int32_t counter = 0;
  const auto visit = [&](std::uint32_t v) {
    ws.index[v] = ws.low[v] = counter++;
    ws.stack.push_back(v);
    ws.on_stack[v] = 1;
    ws.calls.emplace_back(v, ws.begin[v]);
  };
  visit(0);  // every row is reachable from row 0, the initial state
  while (!ws.calls.empty()) {
    auto& [v, k] = ws.calls.back();
    if (k < ws.begin[v + 1]) {
      const std::int32_t next = ws.moves[k++].next_row;
      if (next < 0) continue;
      const auto w = static_cast<std::uint32_t>(next);
      if (ws.index[w] < 0)
        visit(w);
      else if (ws.on_stack[w])
        ws.low[v] = std::min(ws.low[v], ws.index[w]);
      continue;
    }
    const std::uint32_t done = v;
    ws.calls.pop_back();
    if (!ws.calls.empty()) {
      const std::uint32_t parent = ws.calls.back().first;
      ws.low[parent] = std::min(ws.low[parent], ws.low[done]);
    }
    if (ws.low[done] != ws.index[done]) continue;
    const auto comp = static_cast<std::int32_t>(ws.comp_begin.size() - 1);
    std::uint32_t w = 0;
    do {
      w = ws.stack.back();
      ws.stack.pop_back();
      ws.on_stack[w] = 0;
      ws.comp_of[w] = comp;
      ws.order.push_back(w);
    } while (w != done);
    ws.comp_begin.push_back(static_cast<std::uint32_t>(ws.order.size()));
  }

  // A component can end the run if one of its moves ends it or leads to an earlier component
  // that can (its own rows reach each other).
  const std::size_t num_comps = ws.comp_begin.size() - 1;
  ws.can_end.assign(num_comps, 0);
  for (std::size_t comp = 0; comp < num_comps; ++comp)
    for (std::size_t r = ws.comp_begin[comp]; r < ws.comp_begin[comp + 1] && !ws.can_end[comp]; ++r) {
      const std::uint32_t i = ws.order[r];
      for (std::size_t k = ws.begin[i]; k < ws.begin[i + 1]; ++k) {
        const Move& m = ws.moves[k];
        if (m.p <= 0.0) continue;
        if (m.next_row < 0 || (ws.comp_of[idx(m.next_row)] != static_cast<std::int32_t>(comp) &&
                               ws.can_end[idx(ws.comp_of[idx(m.next_row)])])) {
          ws.can_end[comp] = 1;
          break;
        }
      }
    }
  for (std::size_t i = 0; i < n; ++i)
    if (!ws.can_end[idx(ws.comp_of[i])])
      throw std::runtime_error("exact: the run can go on for ever from state " + prog.state_label(idx(ws.states[i])));
}

/// Solve one window. `closes(move)` says whether a move ends the window; `all_rows`: only the
/// run's end does (the whole run), so the window needs every row.
///
/// Unknowns, per row and column: E[counter], P(outcome of the window's last step), P(end
/// reason) and P(the window ends) — x = b + Q x, Q the moves that go on in the window — and
/// P(flag seen) for each flag some move sets — h = b_f + Q_f h, where Q_f drops the moves that
/// set the flag. Component by component, successors first: a single row is one division per
/// column, x_i = (b_i + sum_j Q_ij x_j) / (1 - Q_ii); a larger component a small dense solve.
template <class Closes>
WindowStats solve_window(const RollProgram& prog, Workspace& ws, const std::array<std::uint8_t, kMaxFlags>& flag_of,
                         std::size_t num_flag_cols, Closes closes, bool with_end_reasons, bool all_rows) {
  const std::size_t n = ws.states.size();
  const std::size_t num_flags = prog.flag_names.size();
  const std::size_t num_counters = prog.counter_names.size();
  const std::size_t num_outcomes = prog.outcome_names.size();
  const std::size_t num_reasons = with_end_reasons ? prog.end_reason_names.size() : 0;
  // Columns: counters, outcomes, end reasons, absorption (all with Q), then the flag columns
  const std::size_t col_outcome = num_counters;
  const std::size_t col_reason = col_outcome + num_outcomes;
  const std::size_t col_absorb = col_reason + num_reasons;
  const std::size_t col_flag = col_absorb + 1;
  const std::size_t cols = col_flag + num_flag_cols;
  const FlagMask all_cols = num_flag_cols >= 64 ? ~FlagMask{0} : (FlagMask{1} << num_flag_cols) - 1u;

  ws.rhs.resize(cols);
  ws.slot_of.assign(n, -1);
  ws.targets.clear();
  // The rows the initial state's answer depends on: those it reaches by moves that go on in the
  // window, with the whole component of each (a window that closes early, the first game turn of
  // a fight, needs only a few). The other rows' unknowns are never read: they are not written.
  ws.stack.clear();
  // A window that only the run's end closes needs every row: each is reachable from row 0
  // (build_chain) by moves that go on.
  ws.needed.assign(n, all_rows ? 1 : 0);
  const auto need = [&](std::uint32_t i) {
    if (ws.needed[i]) return;
    const auto comp = idx(ws.comp_of[i]);
    for (std::size_t r = ws.comp_begin[comp]; r < ws.comp_begin[comp + 1]; ++r) {
      ws.needed[ws.order[r]] = 1;
      ws.stack.push_back(ws.order[r]);
    }
  };
  if (!all_rows) need(0);
  while (!ws.stack.empty()) {
    const std::uint32_t i = ws.stack.back();
    ws.stack.pop_back();
    for (std::size_t k = ws.begin[i]; k < ws.begin[i + 1]; ++k)
      if (!closes(ws.moves[k])) need(static_cast<std::uint32_t>(ws.moves[k].next_row));
  }
  // Row i: b into rhs; the moves that go on, summed by the row they go to, into the slots.
  const auto gather = [&](std::uint32_t i) {
    std::fill(ws.rhs.begin(), ws.rhs.end(), 0.0);
    const double* row_b = ws.row_b.data() + i * (num_counters + num_flag_cols);
    std::copy_n(row_b, num_counters, ws.rhs.begin());
    std::copy_n(row_b + num_counters, num_flag_cols, ws.rhs.begin() + static_cast<std::ptrdiff_t>(col_flag));
    for (std::uint32_t t : ws.targets) ws.slot_of[t] = -1;
    ws.targets.clear();
    for (std::size_t k = ws.begin[i]; k < ws.begin[i + 1]; ++k) {
      const Move& m = ws.moves[k];
      const double p = m.p;
      if (closes(m)) {
        ws.rhs[col_outcome + m.outcome] += p;
        if (num_reasons > 0) ws.rhs[col_reason + m.end_reason] += p;
        ws.rhs[col_absorb] += p;
        continue;
      }
      std::int32_t& slot = ws.slot_of[idx(m.next_row)];
      if (slot < 0) {
        slot = static_cast<std::int32_t>(ws.targets.size());
        ws.targets.push_back(static_cast<std::uint32_t>(m.next_row));
        if (ws.q.size() < ws.targets.size()) {
          ws.q.resize(ws.targets.size());
          ws.qf.resize(ws.targets.size() * kMaxFlags);
        }
        ws.q[idx(slot)] = 0.0;
        std::fill_n(ws.qf.begin() + slot * kMaxFlags, num_flag_cols, 0.0);
      }
      ws.q[idx(slot)] += p;
      double* qf = ws.qf.data() + slot * kMaxFlags;
      for (FlagMask f = ~m.flag_cols & all_cols; f; f &= f - 1) qf[std::countr_zero(f)] += p;
    }
  };
  // rhs += Q_ij x_j over the slots not in the row's own component
  const auto add_solved = [&](auto&& in_component) {
    for (std::size_t s = 0; s < ws.targets.size(); ++s) {
      const std::uint32_t j = ws.targets[s];
      if (in_component(j)) continue;
      const double* xj = ws.x.data() + j * cols;
      const double qj = ws.q[s];
      for (std::size_t col = 0; col < col_flag; ++col) ws.rhs[col] += qj * xj[col];
      const double* qf = ws.qf.data() + s * kMaxFlags;
      for (std::size_t f = 0; f < num_flag_cols; ++f) ws.rhs[col_flag + f] += qf[f] * xj[col_flag + f];
    }
  };

  // Where every component needed is a single row (no cycle but a row's own loop), the columns
  // that no flag changes (counters, outcomes, end reasons, absorption) are the sums, over the
  // rows, of the expected visits to the row times what its moves add: the visits are pushed
  // forward from the initial state, one number a row (`forward` below), and only the flag
  // columns are solved backward.
  const std::size_t num_comps = ws.comp_begin.size() - 1;
  bool forward = true;
  for (std::size_t comp = 0; comp < num_comps && forward; ++comp)
    forward = ws.comp_begin[comp + 1] - ws.comp_begin[comp] == 1 || !ws.needed[ws.order[ws.comp_begin[comp]]];
  // With the visits pushed forward, a flag that only moves closing the window set is seen at most
  // once: P(seen) is a sum over the rows, as a counter's is. The other flag columns (`back`) are
  // solved backward.
  FlagMask summed = 0;
  if (forward) {
    FlagMask open = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (ws.needed[i])
        for (std::size_t k = ws.begin[i]; k < ws.begin[i + 1]; ++k)
          if (!closes(ws.moves[k])) open |= ws.moves[k].flag_cols;
    summed = all_cols & ~open;
  }
  std::array<std::uint8_t, kMaxFlags> back{};
  std::size_t num_back = 0;
  for (std::size_t f = 0; f < num_flag_cols; ++f)
    if ((summed >> f & 1u) == 0) back[num_back++] = static_cast<std::uint8_t>(f);
  ws.stay.resize(n);
  // x: a row's columns, or with the visits pushed forward only those solved backward (`back`),
  // the answer's in ws.answer. Every row read is written first (the rows needed, successors
  // first), so x only grows: a resize to more after a resize to less (the first window, then the
  // run) would clear it.
  const std::size_t stride = forward ? num_back : cols;
  if (ws.x.size() < n * stride) ws.x.resize(n * stride);
  std::array<std::size_t, kMaxFlags> back_at{};  // where back flag b is in a row of x
  for (std::size_t b = 0; b < num_back; ++b) back_at[b] = forward ? b : col_flag + back[b];

  for (std::size_t comp = 0; comp < num_comps; ++comp) {
    const std::uint32_t* rows = ws.order.data() + ws.comp_begin[comp];
    const std::size_t m = ws.comp_begin[comp + 1] - ws.comp_begin[comp];
    if (!ws.needed[rows[0]]) continue;
    if (m == 1) {
      // One row: its moves to solved rows straight into rhs, its moves to itself into the
      // chance of staying (per flag column: without the moves that set the flag).
      // Only the columns solved backward: with the visits pushed forward (`forward`), the flag
      // columns in `back` alone.
      const std::uint32_t i = rows[0];
      double* rhs = ws.rhs.data();
      const double* row_b = ws.row_b.data() + i * (num_counters + num_flag_cols);
      if (!forward) {
        std::fill(rhs, rhs + col_flag, 0.0);
        std::copy_n(row_b, num_counters, rhs);
      }
      std::array<double, kMaxFlags> rhs_f, stay_f;  // per back flag (b: flag column back[b])
      for (std::size_t b = 0; b < num_back; ++b) {
        rhs_f[b] = row_b[num_counters + back[b]];
        stay_f[b] = 0.0;
      }
      double stay = 0.0;
      for (std::size_t k = ws.begin[i]; k < ws.begin[i + 1]; ++k) {
        const Move& mv = ws.moves[k];
        const double p = mv.p;
        if (closes(mv)) {
          if (!forward) {
            rhs[col_outcome + mv.outcome] += p;
            if (num_reasons > 0) rhs[col_reason + mv.end_reason] += p;
            rhs[col_absorb] += p;
          }
          continue;
        }
        const FlagMask set = mv.flag_cols;
        if (idx(mv.next_row) == i) {
          stay += p;
          for (std::size_t b = 0; b < num_back; ++b) stay_f[b] += (set >> back[b] & 1u) != 0 ? 0.0 : p;
          continue;
        }
        const double* xj = ws.x.data() + idx(mv.next_row) * stride;
        if (!forward)
          for (std::size_t col = 0; col < col_flag; ++col) rhs[col] += p * xj[col];
        for (std::size_t b = 0; b < num_back; ++b) rhs_f[b] += (set >> back[b] & 1u) != 0 ? 0.0 : p * xj[back_at[b]];
      }
      ws.stay[i] = stay;
      double* xi = ws.x.data() + i * stride;
      if (!forward)
        for (std::size_t col = 0; col < col_flag; ++col) xi[col] = rhs[col] / (1.0 - stay);
      for (std::size_t b = 0; b < num_back; ++b) xi[back_at[b]] = rhs_f[b] / (1.0 - stay_f[b]);
      continue;
    }
    // A cycle through several rows: (I - Q_cc) x_c = b + Q_co x_o, with its own Q_cc per flag
    const auto em = static_cast<Eigen::Index>(m);
    std::vector<std::int32_t> pos(n, -1);
    for (std::size_t r = 0; r < m; ++r) pos[rows[r]] = static_cast<std::int32_t>(r);
    Eigen::MatrixXd b(em, static_cast<Eigen::Index>(cols));
    std::vector<Eigen::MatrixXd> a(1 + num_flag_cols, Eigen::MatrixXd::Identity(em, em));
    for (std::size_t r = 0; r < m; ++r) {
      gather(rows[r]);
      add_solved([&pos](std::uint32_t j) { return pos[j] >= 0; });
      const auto er = static_cast<Eigen::Index>(r);
      for (std::size_t s = 0; s < ws.targets.size(); ++s) {
        const std::int32_t c = pos[ws.targets[s]];
        if (c < 0) continue;
        a[0](er, c) -= ws.q[s];
        for (std::size_t f = 0; f < num_flag_cols; ++f) a[1 + f](er, c) -= ws.qf[s * kMaxFlags + f];
      }
      for (std::size_t col = 0; col < cols; ++col) b(er, static_cast<Eigen::Index>(col)) = ws.rhs[col];
    }
    const Eigen::MatrixXd shared =
        Eigen::PartialPivLU<Eigen::MatrixXd>(a[0]).solve(b.leftCols(static_cast<Eigen::Index>(col_flag)));
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t col = 0; col < col_flag; ++col)
        ws.x[rows[r] * cols + col] = shared(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col));
    for (std::size_t f = 0; f < num_flag_cols; ++f) {
      const Eigen::VectorXd h =
          Eigen::PartialPivLU<Eigen::MatrixXd>(a[1 + f]).solve(b.col(static_cast<Eigen::Index>(col_flag + f)));
      for (std::size_t r = 0; r < m; ++r) ws.x[rows[r] * cols + col_flag + f] = h(static_cast<Eigen::Index>(r));
    }
  }

  if (forward) {
    // Expected visits, each row's final once every row that steps to it has pushed its own:
    // components in reverse order (each before the components it steps to).
    ws.visits.assign(n, 0.0);
    ws.visits[0] = 1.0;
    ws.answer.assign(cols, 0.0);
    double* x0 = ws.answer.data();
    for (std::size_t b = 0; b < num_back; ++b) x0[col_flag + back[b]] = ws.x[b];  // (row 0's)
    for (std::size_t comp = num_comps; comp-- > 0;) {
      const std::uint32_t i = ws.order[ws.comp_begin[comp]];
      if (!ws.needed[i]) continue;
      const double v = ws.visits[i] / (1.0 - ws.stay[i]);  // (its moves to itself, summed backward)
      const double* row_b = ws.row_b.data() + i * (num_counters + num_flag_cols);
      for (std::size_t ci = 0; ci < num_counters; ++ci) x0[ci] += v * row_b[ci];
      for (FlagMask f = summed; f; f &= f - 1) {
        const auto fc = idx(std::countr_zero(f));
        x0[col_flag + fc] += v * row_b[num_counters + fc];
      }
      for (std::size_t k = ws.begin[i]; k < ws.begin[i + 1]; ++k) {
        const Move& mv = ws.moves[k];
        const double p = v * mv.p;
        if (closes(mv)) {
          x0[col_outcome + mv.outcome] += p;
          if (num_reasons > 0) x0[col_reason + mv.end_reason] += p;
          x0[col_absorb] += p;
        } else if (idx(mv.next_row) != i) {
          ws.visits[idx(mv.next_row)] += p;
        }
      }
    }
    if (!(std::abs(x0[col_absorb] - 1.0) < 1e-9))
      throw std::runtime_error("exact: the chain did not solve to an absorbing one from state " +
                               prog.state_label(idx(ws.states[0])));
  } else {
    // Check that the window ends with probability 1 from every state solved
    for (std::size_t i = 0; i < n; ++i)
      if (ws.needed[i] && !(std::abs(ws.x[i * cols + col_absorb] - 1.0) < 1e-9))
        throw std::runtime_error("exact: the chain did not solve to an absorbing one from state " +
                                 prog.state_label(idx(ws.states[i])));
  }

  WindowStats w;
  const auto exact = [](double v) { return Estimate{v, v, v}; };
  // A probability summed from many 1/36 terms can round past 1 (36 x 1/36 = 1 + 2e-16).
  const auto probability = [&](double v) { return exact(std::clamp(v, 0.0, 1.0)); };
  const double* x0 = forward ? ws.answer.data() : ws.x.data();  // row 0: the initial state
  w.counters.reserve(num_counters);
  w.outcomes.reserve(num_outcomes);
  w.end_reasons.reserve(num_reasons);
  w.flags.reserve(num_flags);
  for (std::size_t ci = 0; ci < num_counters; ++ci) w.counters.push_back(exact(x0[ci]));
  for (std::size_t k = 0; k < num_outcomes; ++k) w.outcomes.push_back(probability(x0[col_outcome + k]));
  for (std::size_t r = 0; r < num_reasons; ++r) w.end_reasons.push_back(probability(x0[col_reason + r]));
  for (std::size_t f = 0, fc = 0; f < num_flags; ++f) {
    if (fc < num_flag_cols && flag_of[fc] == f)
      w.flags.push_back(probability(x0[col_flag + fc++]));
    else
      w.flags.push_back(exact(0.0));
  }
  return w;
}

}  // namespace

namespace detail {

Chain reachable_chain(const RollProgram& program) {
  const WorkspaceUse use(program);
  Workspace& ws = use.ws();
  ws.row_b_width = 0;
  ws.cols_are_flags = true;
  build_chain(program, ws);
  Chain c;
  c.states = ws.states;
  c.row_of = ws.row_of;
  c.begin = ws.begin;
  c.leaf = ws.move_leaf;
  c.p.reserve(ws.moves.size());
  for (const Move& m : ws.moves) c.p.push_back(m.p);
  return c;
}

std::size_t solve_scratch_bytes() {
  const Workspace& w = workspace();
  std::size_t bytes = 0;
  const auto add = [&bytes](const auto&... v) { ((bytes += v.capacity() * sizeof(v[0])), ...); };
  add(w.node_p, w.heap, w.leaf_p, w.touched, w.root_slots, w.slot_p, w.states, w.row_of, w.begin, w.moves, w.move_leaf,
      w.order, w.comp_begin, w.index, w.low, w.comp_of, w.on_stack, w.can_end, w.needed, w.stack, w.calls, w.x,
      w.answer, w.visits, w.stay, w.row_b, w.rhs, w.slot_of, w.targets, w.q, w.qf);
  for (const auto& s : w.slot_p) add(s);
  return bytes;
}

}  // namespace detail

void check_exact_result(const RunResult& r) {
  const auto check = [](const std::vector<Estimate>& v, const char* window, const char* what, bool partition) {
    double sum = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!std::isfinite(v[i].value) || (partition && (v[i].value < -1e-12 || v[i].value > 1.0 + 1e-12)))
        throw std::runtime_error(
            fmt::format("exact: {}: {} #{} is {} (not a probability)", window, what, i, v[i].value));
      sum += v[i].value;
    }
    if (partition && !(std::abs(sum - 1.0) <= kPartitionTolerance))
      throw std::runtime_error(
          fmt::format("exact: {}: {} probabilities sum to {:.17g}, not 1 within 1e-12", window, what, sum));
  };
  for (const auto& [w, name] : {std::pair{&r.first, "first window"}, std::pair{&r.run, "whole run"}}) {
    check(w->flags, name, "flag", false);
    check(w->counters, name, "counter", false);
    check(w->outcomes, name, "outcome", true);
    if (w == &r.run) check(w->end_reasons, name, "end reason", true);
  }
}

RunResult solve_exact(const RollProgram& program) {
  const WorkspaceUse use(program);
  Workspace& ws = use.ws();
  // Flag columns: the flags some leaf of the program sets (one never reached solves to 0)
  FlagMask flags_set = 0;
  for (const Leaf& l : program.leaves) flags_set |= l.flags;
  std::array<std::uint8_t, kMaxFlags> flag_of{};  // flag of each flag column
  std::size_t num_flag_cols = 0;
  for (std::size_t f = 0; f < program.flag_names.size(); ++f)
    if (flags_set >> f & 1u) {
      ws.col_of[f] = static_cast<std::uint8_t>(num_flag_cols);
      flag_of[num_flag_cols++] = static_cast<std::uint8_t>(f);
    }
  ws.cols_are_flags = (flags_set & (flags_set + 1)) == 0;  // flags 0..k-1 (or none)
  ws.num_counters = program.counter_names.size();
  ws.row_b_width = ws.num_counters + num_flag_cols;
  // Enumerate the reachable states' one-step leaf distributions; order the states for solving
  build_chain(program, ws);
  components(program, ws);

  // Solve the first window and the whole run
  RunResult r;
  r.method = Method::kExact;
  r.trials = 0;
  r.first = solve_window(
      program, ws, flag_of, num_flag_cols, [](const Move& m) { return m.closes_window || m.next_row < 0; }, false,
      false);
  r.run = solve_window(
      program, ws, flag_of, num_flag_cols, [](const Move& m) { return m.next_row < 0; }, true, true);
  check_exact_result(r);
  return r;
}

}  // namespace salvo::sim
