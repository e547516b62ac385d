#pragma once
// Tiny hand-built roll programs whose answers are known in closed form, shared by the engine
// tests. Each returns the program and the exact values derived in the comments.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/rng.h"

namespace salvo::sim::testing {

/// Exact answers of one window, indexed as the program's names.
struct WindowAnswer {
  std::vector<double> flags;
  std::vector<double> counters;
  std::vector<double> outcomes;
  std::vector<double> end_reasons;  // run window only
};

struct KnownProgram {
  std::string name;
  RollProgram program;
  WindowAnswer first;
  WindowAnswer run;
};

inline Leaf make_leaf(FlagMask flags, std::array<std::uint8_t, kMaxCounters> counts, std::uint8_t outcome,
                      std::int32_t next_state, std::uint8_t end_reason = 0, bool closes_window = false) {
  Leaf l;
  l.flags = flags;
  l.counts = counts;
  l.outcome = outcome;
  l.next_state = next_state;
  l.end_reason = end_reason;
  l.closes_window = closes_window;
  return l;
}

/// The names of a program's flags, counters, outcomes and end reasons.
struct ProgramNames {
  std::vector<std::string> flags, counters, outcomes, end_reasons;
};

/// The program `b` built, with `names`.
inline RollProgram take_named(ProgramBuilder& b, ProgramNames names) {
  RollProgram p = b.take();
  p.flag_names = std::move(names.flags);
  p.counter_names = std::move(names.counters);
  p.outcome_names = std::move(names.outcomes);
  p.end_reason_names = std::move(names.end_reasons);
  return p;
}

/// The first window of a program no leaf of which closes it: the whole run, without end reasons.
inline WindowAnswer whole_run(const WindowAnswer& run) { return {run.flags, run.counters, run.outcomes, {}}; }

/// (a) One state, one d6: 1-2 hit and roll again, 3 hit and kill, 4-6 miss.
/// Each step ends the run with probability 2/3: E[steps] = 3/2; P(killed) = (1/6)/(2/3) = 1/4.
/// A hit is seen iff the first roll is 1-3: P = 1/2. E[hits] = E[rerolls] + P(killed)
/// = 1/2 + 1/4. No leaf closes the first window, so it is the whole run.
inline KnownProgram d6_loop() {
  ProgramBuilder b;
  const std::int32_t s = b.reserve_state("fire");
  const Link again = b.leaf(make_leaf(1u, {1, 1, 0, 0}, 0, s));
  const Link kill = b.leaf(make_leaf(1u, {1, 1, 0, 0}, 1, -1, 0));
  const Link miss = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 2, -1, 1));
  b.set_state_root(s, b.node(DieKind::kD6, {again, again, kill, miss, miss, miss}));
  const WindowAnswer run{{0.5}, {1.5, 0.75}, {0.0, 0.25, 0.75}, {0.25, 0.75}};
  return {"d6 loop", take_named(b, {{"hit"}, {"steps", "hits"}, {"again", "killed", "missed"}, {"killed", "missed"}}),
          whole_run(run), run};
}

/// (b) Two states. A rolls a pair: sum <= 6 (15/36) hits and goes to B, closing the first
/// window; sum 7 (6/36) ends the run; otherwise (15/36) A again. B rolls a d6: 1 kills,
/// 2-6 back to A.
/// Run: P(kill) = a with a = 15/36 (1/6 + 5/6 a) + 15/36 a, so a = 5/17; P(seven) = 12/17.
/// E_A = 1 + 15/36 E_B + 15/36 E_A, E_B = 1 + 5/6 E_A: E_A = 6.
/// P(hit) = 15/(15 + 6) = 5/7 (the first exit from A decides).
/// First window: ends at the first exit from A: E[steps] = 36/21 = 12/7; outcome hit 5/7,
/// seven 2/7.
inline KnownProgram pair_chain() {
  ProgramBuilder b;
  const std::int32_t a = b.reserve_state("A");
  const std::int32_t bs = b.reserve_state("B");
  const Link to_b = b.leaf(make_leaf(1u, {1, 0, 0, 0}, 1, bs, 0, true));
  const Link seven = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 2, -1, 0));
  const Link stay = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, a));
  std::vector<Link> pair_links;
  for (int f = 0; f < 36; ++f) {
    const int sum = pair_colored(f) + pair_white(f);
    pair_links.push_back(sum <= 6 ? to_b : sum == 7 ? seven : stay);
  }
  b.set_state_root(a, b.node(DieKind::kPair, pair_links));
  const Link kill = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 3, -1, 1));
  const Link back = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, a));
  b.set_state_root(bs, b.node(DieKind::kD6, {kill, back, back, back, back, back}));
  const WindowAnswer run{{5.0 / 7.0}, {6.0}, {0.0, 0.0, 12.0 / 17.0, 5.0 / 17.0}, {12.0 / 17.0, 5.0 / 17.0}};
  return {"pair chain", take_named(b, {{"hit"}, {"steps"}, {"none", "hit", "seven", "kill"}, {"seven", "kill"}}),
          WindowAnswer{{5.0 / 7.0}, {12.0 / 7.0}, {0.0, 5.0 / 7.0, 2.0 / 7.0, 0.0}, {}}, run};
}

/// (c) The first window closes after non-closing steps. "aim" rolls a d6: 1-3 aim again,
/// 4-6 fire (a shot, closes the first window) and go to "fired". "fired" rolls a d6: 1 kill,
/// 2 escape, 3-6 back to aim.
/// Run: each visit to "fired" ends the run with probability 1/3: E[shots] = 3, P(kill) = 1/2;
/// E_aim = 2 + E_fired, E_fired = 1 + 2/3 E_aim: E[steps] = 9. Fired is certain.
/// First window: geometric aim with p = 1/2: E[steps] = 2, one shot, outcome fire.
inline KnownProgram aim_and_fire() {
  ProgramBuilder b;
  const std::int32_t aim_s = b.reserve_state("aim");
  const std::int32_t fired_s = b.reserve_state("fired");
  const Link aim = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, aim_s));
  const Link fire = b.leaf(make_leaf(1u, {1, 1, 0, 0}, 1, fired_s, 0, true));
  b.set_state_root(aim_s, b.node(DieKind::kD6, {aim, aim, aim, fire, fire, fire}));
  const Link kill = b.leaf(make_leaf(2u, {1, 0, 0, 0}, 2, -1, 0));
  const Link escape = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 3, -1, 1));
  b.set_state_root(fired_s, b.node(DieKind::kD6, {kill, escape, aim, aim, aim, aim}));
  const WindowAnswer run{{1.0, 0.5}, {9.0, 3.0}, {0.0, 0.0, 0.5, 0.5}, {0.5, 0.5}};
  return {
      "aim and fire",
      take_named(b, {{"fired", "killed"}, {"steps", "shots"}, {"aim", "fire", "kill", "escape"}, {"kill", "escape"}}),
      WindowAnswer{{1.0, 0.0}, {2.0, 1.0}, {0.0, 1.0, 0.0, 0.0}, {}}, run};
}

/// (d) Two dice in one step: a pair; doubles (6/36) roll a d6 (1-2 kill, 3-6 hit and fire
/// again), other pairs miss. Per step: kill 1/18, again 1/9, miss 5/6.
/// P(kill) = (1/18)/(8/9) = 1/16; E[steps] = 9/8; P(hit) = P(first pair is doubles) = 1/6.
inline KnownProgram doubles_then_d6() {
  ProgramBuilder b;
  const std::int32_t s = b.reserve_state("fire");
  const Link kill = b.leaf(make_leaf(1u, {1, 0, 0, 0}, 1, -1, 1));
  const Link again = b.leaf(make_leaf(1u, {1, 0, 0, 0}, 2, s));
  const Link miss = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, -1, 0));
  const Link to_kill = b.node(DieKind::kD6, {kill, kill, again, again, again, again});
  std::vector<Link> pair_links;
  for (int f = 0; f < 36; ++f) pair_links.push_back(pair_colored(f) == pair_white(f) ? to_kill : miss);
  b.set_state_root(s, b.node(DieKind::kPair, pair_links));
  const WindowAnswer run{{1.0 / 6.0}, {9.0 / 8.0}, {15.0 / 16.0, 1.0 / 16.0, 0.0}, {15.0 / 16.0, 1.0 / 16.0}};
  return {"doubles then d6", take_named(b, {{"hit"}, {"steps"}, {"miss", "kill", "again"}, {"miss", "kill"}}),
          whole_run(run), run};
}

/// (e) A diamond DAG in one step: the root d6 goes to X on 1, to Y on 2, misses on 3-6;
/// Y goes to X on 1-3, misses on 4-6; X kills on 1. P(reach X) = 1/6 + 1/12 = 1/4,
/// P(kill) = 1/24. "nearly" is set on reaching X without the kill: 1/4 - 1/24 = 5/24.
inline KnownProgram diamond() {
  ProgramBuilder b;
  const std::int32_t s = b.reserve_state("fire");
  const Link kill = b.leaf(make_leaf(0u, {2, 0, 0, 0}, 1, -1, 1));
  const Link nearly = b.leaf(make_leaf(1u, {1, 0, 0, 0}, 0, -1, 0));
  const Link miss = b.leaf(make_leaf(0u, {0, 0, 0, 0}, 0, -1, 0));
  const Link x = b.node(DieKind::kD6, {kill, nearly, nearly, nearly, nearly, nearly});
  const Link y = b.node(DieKind::kD6, {x, x, x, miss, miss, miss});
  b.set_state_root(s, b.node(DieKind::kD6, {x, y, miss, miss, miss, miss}));
  // points: 2 per kill, 1 per near miss
  const WindowAnswer run{{5.0 / 24.0}, {2.0 / 24.0 + 5.0 / 24.0}, {23.0 / 24.0, 1.0 / 24.0}, {23.0 / 24.0, 1.0 / 24.0}};
  return {"diamond", take_named(b, {{"nearly"}, {"points"}, {"miss", "kill"}, {"miss", "kill"}}), whole_run(run), run};
}

/// (f) Two states sharing one DAG, each with its own leaf table (RollProgram::state_leaves):
/// a d6, slot 0 on 1-2, slot 1 on 3-6. From "aim", slot 0 hits and goes on to "fire" (closing
/// the first window), slot 1 aims again; from "fire", slot 0 kills, slot 1 lets the target
/// escape. Each state is left with 1/3 a step: E[steps] = 3 + 1 = 4; a hit is certain, and a
/// kill 1/3: E[hits] = 1 + 1/3 (the kill counts one). First window: 3 steps, one hit.
inline KnownProgram shared_dag() {
  ProgramBuilder b;
  const std::int32_t aim_s = b.reserve_state("aim");
  const std::int32_t fire_s = b.reserve_state("fire");
  const Link node =
      b.node(DieKind::kD6, {Link::leaf(0), Link::leaf(0), Link::leaf(1), Link::leaf(1), Link::leaf(1), Link::leaf(1)});
  const Link hit = b.leaf(make_leaf(1u, {1, 1, 0, 0}, 1, fire_s, 0, true));
  const Link again = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, aim_s));
  const Link kill = b.leaf(make_leaf(2u, {1, 1, 0, 0}, 2, -1, 0));
  const Link escape = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 3, -1, 1));
  b.set_state_root(aim_s, node);
  b.set_state_root(fire_s, node);
  const std::vector<std::int32_t> aim_leaves{hit.index(), again.index()}, fire_leaves{kill.index(), escape.index()};
  b.set_state_leaves(aim_s, aim_leaves);
  b.set_state_leaves(fire_s, fire_leaves);
  const WindowAnswer run{{1.0, 1.0 / 3.0}, {4.0, 4.0 / 3.0}, {0.0, 0.0, 1.0 / 3.0, 2.0 / 3.0}, {1.0 / 3.0, 2.0 / 3.0}};
  return {"shared DAG with leaf tables",
          take_named(b, {{"hit", "killed"}, {"steps", "hits"}, {"aim", "hit", "kill", "escape"}, {"kill", "escape"}}),
          WindowAnswer{{1.0, 0.0}, {3.0, 1.0}, {0.0, 1.0, 0.0, 0.0}, {}}, run};
}

inline std::vector<KnownProgram> known_programs() {
  return {d6_loop(), pair_chain(), aim_and_fire(), doubles_then_d6(), diamond(), shared_dag()};
}

/// A run that never ends from state "trap" (reached from "start" on 4-6); "island" loops for
/// ever but is unreachable. With `reachable_trap` false, "start" never enters the trap.
inline RollProgram trap_program(bool reachable_trap) {
  ProgramBuilder b;
  const std::int32_t start = b.reserve_state("start");
  const std::int32_t trap = b.reserve_state("trap");
  const std::int32_t island = b.reserve_state("island");
  const Link end = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, -1, 0));
  const Link to_trap = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, trap));
  const Link again = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, start));
  const Link stuck = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, trap));
  const Link lost = b.leaf(make_leaf(0u, {1, 0, 0, 0}, 0, island));
  const Link later = reachable_trap ? to_trap : again;
  b.set_state_root(start, b.node(DieKind::kD6, {end, end, end, later, later, later}));
  b.set_state_root(trap, b.node(DieKind::kD6, {stuck, stuck, stuck, stuck, stuck, stuck}));
  b.set_state_root(island, b.node(DieKind::kPair, std::vector<Link>(36, lost)));
  return take_named(b, {{}, {"steps"}, {"end"}, {"end"}});
}

/// A pseudo-random program (no closed form; for exact vs Monte Carlo cross-checks): `states`
/// states, each a pair or d6 root whose faces lead to leaves or to one of two lower d6 nodes.
/// Leaves set random flags (3), counts (2 counters), outcomes (4), close the first window at
/// random, and continue to a random state with probability 3/4; every state's root can end the
/// run on its first face, so the run ends with probability 1.
inline RollProgram random_program(std::uint64_t seed, int states) {
  SplitMix64 rng(seed);
  const auto below = [&](std::uint64_t n) { return static_cast<int>(rng.next() % n); };
  ProgramBuilder b;
  std::vector<std::int32_t> ids;
  for (int s = 0; s < states; ++s) ids.push_back(b.reserve_state(std::to_string(s)));
  const auto random_leaf = [&](bool force_end) {
    Leaf l;
    l.flags = static_cast<std::uint32_t>(below(8));
    l.counts = {static_cast<std::uint8_t>(below(3)), static_cast<std::uint8_t>(below(2)), 0, 0};
    l.outcome = static_cast<std::uint8_t>(below(4));
    l.closes_window = below(3) == 0;
    l.next_state =
        force_end || below(4) == 0 ? -1 : ids[static_cast<std::size_t>(below(static_cast<std::uint64_t>(states)))];
    l.end_reason = l.next_state < 0 ? static_cast<std::uint8_t>(below(3)) : 0;
    return b.leaf(l);
  };
  for (int s = 0; s < states; ++s) {
    std::vector<Link> inner;
    for (int k = 0; k < 2; ++k) {
      std::vector<Link> faces6;
      for (int f = 0; f < 6; ++f) faces6.push_back(random_leaf(false));
      inner.push_back(b.node(DieKind::kD6, faces6));
    }
    const DieKind die = below(2) == 0 ? DieKind::kPair : DieKind::kD6;
    std::vector<Link> root;
    for (int f = 0; f < faces(die); ++f) {
      const int pick = below(5);
      root.push_back(f == 0     ? random_leaf(true)
                     : pick < 2 ? inner[static_cast<std::size_t>(pick)]
                                : random_leaf(false));
    }
    b.set_state_root(ids[static_cast<std::size_t>(s)], b.node(die, root));
  }
  return take_named(b, {{"f0", "f1", "f2"}, {"c0", "c1"}, {"o0", "o1", "o2", "o3"}, {"r0", "r1", "r2"}});
}

/// Many states sharing few DAGs through leaf tables, as a fight's fire phases do, with some
/// states that reach their own leaves directly: `states` states; DAG 0 is one pair, DAG 1 a pair
/// then a d6 on some faces, DAG 2 three d6 deep on face 0 (a third die, past the fast kernel's
/// cells). A state with a table maps its DAG's leaf links to leaves of its own: random flags
/// (3), counts (2 counters), outcomes (4), a random close of the first window, and a random next
/// state with probability 5/6, else the end. Every 22nd state (from the 11th) has its own pair
/// node instead, whose faces end the run or go on to a random state, and every 22nd (from the
/// first, where trials start) has DAG 0 without a table, reaching the program's leaves 0 to 4
/// directly. Trials visit
/// far more summaries than the fast kernel keeps, so its plain walk takes over.
inline RollProgram shared_dags_program(std::uint64_t seed, int states) {
  SplitMix64 rng(seed);
  const auto below = [&](std::uint64_t n) { return static_cast<int>(rng.next() % n); };
  ProgramBuilder b;
  for (int s = 0; s < states; ++s) b.reserve_state();
  std::vector<Link> links(36);
  for (int f = 0; f < 36; ++f) links[static_cast<std::size_t>(f)] = Link::leaf(f % 5);
  const Link dag0 = b.node(DieKind::kPair, links);  // 5 leaf links
  std::vector<Link> d6(6);
  for (int f = 0; f < 6; ++f) d6[static_cast<std::size_t>(f)] = Link::leaf(3 + f % 2);
  const Link inner = b.node(DieKind::kD6, d6);
  for (int f = 0; f < 36; ++f) links[static_cast<std::size_t>(f)] = f % 4 == 0 ? inner : Link::leaf(f % 3);
  const Link dag1 = b.node(DieKind::kPair, links);  // 5 leaf links
  d6.assign(6, Link::leaf(0));
  const Link third = b.node(DieKind::kD6, d6);
  d6.assign(6, Link::leaf(1));
  d6[0] = third;
  const Link second = b.node(DieKind::kD6, d6);
  for (int f = 0; f < 6; ++f) d6[static_cast<std::size_t>(f)] = f == 0 ? second : Link::leaf(f % 3);
  const Link dag2 = b.node(DieKind::kD6, d6);  // 3 leaf links
  const std::array<std::pair<Link, int>, 3> dags{{{dag0, 5}, {dag1, 5}, {dag2, 3}}};
  const auto random_leaf = [&](bool may_go_on) {
    Leaf l;
    l.flags = static_cast<std::uint32_t>(below(8));
    l.counts = {static_cast<std::uint8_t>(below(3)), static_cast<std::uint8_t>(below(2)), 0, 0};
    l.outcome = static_cast<std::uint8_t>(below(4));
    l.closes_window = below(4) == 0;
    l.next_state = may_go_on && below(6) != 0 ? below(static_cast<std::uint64_t>(states)) : -1;
    l.end_reason = l.next_state < 0 ? static_cast<std::uint8_t>(below(3)) : 0;
    return b.leaf(l);
  };
  for (int s = 0; s < states; ++s) {
    if (s % 22 == 0) {
      b.set_state_root(s, dag0);  // without a table: its leaf links are leaves 0 to 4
      continue;
    }
    if (s % 22 == 10) {
      std::vector<Link> own(36);
      for (int f = 0; f < 36; ++f) own[static_cast<std::size_t>(f)] = random_leaf(f != 0);
      b.set_state_root(s, b.node(DieKind::kPair, own));
      continue;
    }
    const auto& [dag, leaf_links] = dags[static_cast<std::size_t>(below(3))];
    b.set_state_root(s, dag);
    std::vector<std::int32_t> table;
    for (int k = 0; k < leaf_links; ++k) table.push_back(random_leaf(k != 0).index());
    b.set_state_leaves(s, table);
  }
  return take_named(b, {{"f0", "f1", "f2"}, {"c0", "c1"}, {"o0", "o1", "o2", "o3"}, {"r0", "r1", "r2"}});
}

/// Two states share one pair node (leaf links 0 and 1) through leaf tables of different
/// lengths, as RollProgram::validate allows: "long", where trials start, has 40 entries, of which
/// its DAG reaches the first two; "short", the last state, has those two only. "long" goes to
/// "short" on link 0 (2/3) and ends on link 1; "short" ends on link 0 and goes back to "long"
/// on link 1.
inline RollProgram unequal_tables_program() {
  ProgramBuilder b;
  const std::int32_t lg = b.reserve_state("long");
  const std::int32_t sh = b.reserve_state("short");
  std::vector<Link> faces(36);
  for (int f = 0; f < 36; ++f) faces[static_cast<std::size_t>(f)] = Link::leaf(f < 24 ? 0 : 1);
  const Link root = b.node(DieKind::kPair, faces);
  b.set_state_root(lg, root);
  b.set_state_root(sh, root);
  std::vector<std::int32_t> long_table{b.leaf(make_leaf(1u, {1, 0, 0, 0}, 0, sh)).index(),
                                       b.leaf(make_leaf(2u, {1, 0, 0, 0}, 1, -1, 0)).index()};
  for (int k = 2; k < 40; ++k) long_table.push_back(b.leaf(make_leaf(4u, {0, 1, 0, 0}, 2, lg, 0, true)).index());
  b.set_state_leaves(lg, long_table);
  const std::vector<std::int32_t> short_table{b.leaf(make_leaf(2u, {0, 1, 0, 0}, 1, -1, 1)).index(),
                                              b.leaf(make_leaf(1u, {0, 1, 0, 0}, 0, lg, 0, true)).index()};
  b.set_state_leaves(sh, short_table);
  return take_named(b, {{"f0", "f1", "f2"}, {"c0", "c1"}, {"o0", "o1", "o2"}, {"r0", "r1"}});
}

/// A state with more leaves than the fast kernel's rows hold (1296: two ordered pairs, each
/// outcome its own leaf, counting both symbols), beside a narrow one: "wide" ends the run on
/// a first colored die of 1, else goes on to "wide" (white die odd) or "narrow"; "narrow" (a
/// d6) ends on 1-2, else goes back to "wide".
inline RollProgram wide_program() {
  ProgramBuilder b;
  const std::int32_t wide = b.reserve_state("wide");
  const std::int32_t narrow = b.reserve_state("narrow");
  std::vector<Link> first;
  for (int s0 = 0; s0 < 36; ++s0) {
    std::vector<Link> second;
    for (int s1 = 0; s1 < 36; ++s1) {
      const std::int32_t next = s0 / 6 == 0 ? -1 : (s1 % 2 ? wide : narrow);
      second.push_back(b.leaf(
          make_leaf(FlagMask{1} << (s1 % 3), {static_cast<std::uint8_t>(s0), static_cast<std::uint8_t>(s1), 1, 0},
                    static_cast<std::uint8_t>(s1 % 4), next, static_cast<std::uint8_t>(s0 % 2), s1 == 0)));
    }
    first.push_back(b.node(DieKind::kPair, second));
  }
  b.set_state_root(wide, b.node(DieKind::kPair, first));
  const Link end = b.leaf(make_leaf(FlagMask{1} << 2, {0, 0, 1, 0}, 1, -1, 1));
  const Link back = b.leaf(make_leaf(0u, {0, 0, 1, 0}, 0, wide));
  b.set_state_root(narrow, b.node(DieKind::kD6, {end, end, back, back, back, back}));
  return take_named(b, {{"f0", "f1", "f2"}, {"c0", "c1", "steps"}, {"o0", "o1", "o2", "o3"}, {"r0", "r1"}});
}

/// A program of `states` states (more than the fast kernel takes) that share one DAG, a pair
/// of dice, through their leaf tables (as a fight's fire phases do), or with `own_nodes` each
/// its own node (the faces' slots in a pattern read from the state's number in base 3). Slot
/// 0 sets f0, counts one c0 and goes on to the next state (the last: the start); slot 1 jumps
/// to state 7s mod n, closing the first window; slot 2 ends the run, for reason s mod 2.
inline RollProgram long_chain(int states, bool own_nodes) {
  ProgramBuilder b;
  const auto n = static_cast<std::int32_t>(states);
  for (std::int32_t s = 0; s < n; ++s) b.reserve_state();
  std::vector<Link> faces36;
  for (int f = 0; f < 36; ++f) faces36.push_back(Link::leaf(f < 20 ? 0 : f < 30 ? 1 : 2));
  const Link shared = b.node(DieKind::kPair, faces36);
  for (std::int32_t s = 0; s < n; ++s) {
    Link root = shared;
    if (own_nodes) {
      std::vector<Link> mine;
      for (int f = 0, code = s; f < 36; ++f, code /= 3) mine.push_back(Link::leaf(f < 12 ? code % 3 : f % 3));
      root = b.node(DieKind::kPair, mine);
    }
    b.set_state_root(s, root);
    const std::vector<std::int32_t> table{
        b.leaf(make_leaf(1u, {1, 0, 0, 0}, 0, (s + 1) % n)).index(),
        b.leaf(make_leaf(2u, {0, 1, 0, 0}, 1, (7 * s) % n, 0, true)).index(),
        b.leaf(make_leaf(0u, {0, 0, 0, 0}, 2, -1, static_cast<std::uint8_t>(s % 2))).index()};
    b.set_state_leaves(s, table);
  }
  return take_named(b, {{"f0", "f1"}, {"c0", "c1"}, {"o0", "o1", "o2"}, {"r0", "r1"}});
}

/// Long runs of heavy steps, between a state without a leaf table and one with: "a" (a pair)
/// ends the run on symbol 0, else goes to "b" (symbol 35 closing the first window); "b" (a pair,
/// through its table) ends on symbol 0, else goes back to "a". A run takes 36 steps on average,
/// each counting 255 in c0.
inline RollProgram heavy_program() {
  ProgramBuilder b;
  const std::int32_t a = b.reserve_state("a");
  const std::int32_t bb = b.reserve_state("b");
  std::vector<Link> faces_a(36, b.leaf(make_leaf(2u, {255, 255, 0, 0}, 1, bb)));
  faces_a[0] = b.leaf(make_leaf(1u, {255, 1, 0, 0}, 0, -1, 0));
  faces_a[35] = b.leaf(make_leaf(2u, {255, 255, 0, 0}, 1, bb, 0, true));
  b.set_state_root(a, b.node(DieKind::kPair, faces_a));
  std::vector<Link> faces_b(36, Link::leaf(1));
  faces_b[0] = Link::leaf(0);
  b.set_state_root(bb, b.node(DieKind::kPair, faces_b));
  const std::vector<std::int32_t> table{b.leaf(make_leaf(4u, {255, 0, 255, 0}, 2, -1, 1)).index(),
                                        b.leaf(make_leaf(4u, {255, 255, 255, 255}, 0, a)).index()};
  b.set_state_leaves(bb, table);
  return take_named(b, {{"f0", "f1", "f2"}, {"c0", "c1", "c2", "c3"}, {"o0", "o1", "o2"}, {"r0", "r1"}});
}

}  // namespace salvo::sim::testing
