#include "salvo/rules/program.h"

#include "salvo/core/hash.h"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

namespace salvo {
namespace {

using Fnv = Fnv1a;

std::uint64_t leaf_hash(const Leaf& l) {
  Fnv f;
  f.value(l.flags);
  f.bytes(l.counts.data(), l.counts.size());
  f.value(l.outcome);
  f.value(l.end_reason);
  f.value(l.closes_window);
  f.value(l.next_state);
  return f.h;
}

[[noreturn]] void fail(const std::string& what) { throw std::logic_error("roll program: " + what); }

}  // namespace

void RollProgram::validate() const {
  if (state_root.empty()) fail("no states");
  if (!state_labels.empty() && state_labels.size() != state_root.size())
    fail("state_labels size differs from state_root");
  if (!state_leaf_begin.empty()) {
    if (state_leaf_begin.size() != state_root.size() + 1) fail("state_leaf_begin size differs from state_root + 1");
    if (state_leaf_begin.front() != 0 || state_leaf_begin.back() != state_leaves.size())
      fail("state_leaf_begin does not span state_leaves");
    for (std::size_t s = 0; s + 1 < state_leaf_begin.size(); ++s)
      if (state_leaf_begin[s] > state_leaf_begin[s + 1]) fail("state_leaf_begin decreases");
    for (std::int32_t l : state_leaves)
      if (l < 0 || static_cast<std::size_t>(l) >= leaves.size()) fail("leaf table entry out of range");
  }
  if (initial_state < 0 || static_cast<std::size_t>(initial_state) >= num_states()) fail("initial_state out of range");
  if (flag_names.size() > static_cast<std::size_t>(kMaxFlags)) fail("too many flags");
  if (counter_names.size() > static_cast<std::size_t>(kMaxCounters)) fail("too many counters");
  if (outcome_names.empty() || end_reason_names.empty()) fail("outcome and end reason names are required");
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const RollNode& node = nodes[n];
    if (node.first + static_cast<std::uint32_t>(faces(node.die)) > links.size()) fail("node links out of range");
    for (int f = 0; f < faces(node.die); ++f) {
      Link l = link(static_cast<std::uint32_t>(n), f);
      if (l.is_leaf()) {
        // A node under a state with a leaf table indexes that table (checked below).
        if (state_leaf_begin.empty() && static_cast<std::size_t>(l.index()) >= leaves.size())
          fail("leaf index out of range");
      } else {
        // Nodes are only ever linked to nodes created before them: the DAG is acyclic.
        if (static_cast<std::size_t>(l.index()) >= n) fail("node links forward or to itself");
      }
    }
  }
  for (std::uint32_t r : state_root)
    if (r >= nodes.size()) fail("state root out of range");
  // Every leaf link a state reaches stands for a leaf: within its table, or among the leaves.
  if (!state_leaf_begin.empty()) {
    std::vector<std::size_t> seen(nodes.size(), 0);  // s + 1: node seen from state s
    std::vector<std::uint32_t> stack;
    for (std::size_t s = 0; s < num_states(); ++s) {
      const std::size_t table = state_leaf_begin[s + 1] - state_leaf_begin[s];
      stack.assign(1, state_root[s]);
      while (!stack.empty()) {
        const std::uint32_t n = stack.back();
        stack.pop_back();
        if (seen[n] == s + 1) continue;
        seen[n] = s + 1;
        for (int f = 0; f < faces(nodes[n].die); ++f) {
          const Link l = link(n, f);
          if (!l.is_leaf())
            stack.push_back(static_cast<std::uint32_t>(l.index()));
          else if (static_cast<std::size_t>(l.index()) >= (table > 0 ? table : leaves.size()))
            fail("leaf index out of range");
        }
      }
    }
  }
  const FlagMask flag_mask = flag_names.size() >= 64 ? ~FlagMask{0} : ((FlagMask{1} << flag_names.size()) - 1u);
  for (const Leaf& l : leaves) {
    if (l.flags & ~flag_mask) fail("leaf sets an unnamed flag");
    for (std::size_t c = counter_names.size(); c < static_cast<std::size_t>(kMaxCounters); ++c)
      if (l.counts[c] != 0) fail("leaf counts an unnamed counter");
    if (l.outcome >= outcome_names.size()) fail("leaf outcome out of range");
    if (l.next_state < 0 && l.end_reason >= end_reason_names.size()) fail("leaf end reason out of range");
    if (l.next_state >= static_cast<std::int32_t>(num_states())) fail("leaf next_state out of range");
  }
}

std::uint64_t RollProgram::hash() const {
  Fnv f;
  f.value(initial_state);
  f.size(state_root.size());
  for (auto r : state_root) f.value(r);
  f.size(nodes.size());
  for (const auto& n : nodes) {
    f.value(n.die);
    f.value(n.first);
  }
  f.size(links.size());
  for (const auto& l : links) f.value(l.v);
  f.size(leaves.size());
  for (const auto& l : leaves) f.value(leaf_hash(l));
  if (!state_leaf_begin.empty()) {  // a program without leaf tables hashes as it always has
    for (auto b : state_leaf_begin) f.value(b);
    for (auto l : state_leaves) f.value(l);
  }
  for (const auto* names : {&flag_names, &counter_names, &outcome_names, &end_reason_names}) {
    f.size(names->size());
    for (const auto& s : *names) f.str(s);
  }
  return f.h;
}

namespace {

// The builder's index: any good mix of the contents will do (it is not part of the program).
constexpr std::uint64_t kMix = 0x9E3779B97F4A7C15ull;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h = (h ^ v) * kMix;
  return h ^ (h >> 29);
}

std::uint64_t builder_hash(const Leaf& l) {
  std::uint64_t counts = 0;
  for (std::size_t c = 0; c < l.counts.size(); ++c) counts |= std::uint64_t{l.counts[c]} << (8 * c);
  std::uint64_t h = mix(kFnvOffset, l.flags);
  h = mix(h, counts | std::uint64_t{l.outcome} << 32 | std::uint64_t{l.end_reason} << 40 |
                 std::uint64_t{l.closes_window} << 48);
  return mix(h, static_cast<std::uint32_t>(l.next_state));
}

std::uint64_t builder_hash(DieKind die, std::span<const Link> links) {
  std::uint64_t h = mix(kFnvOffset, static_cast<std::uint64_t>(die));
  std::size_t k = 0;
  for (; k + 1 < links.size(); k += 2)
    h = mix(h,
            static_cast<std::uint32_t>(links[k].v) | std::uint64_t{static_cast<std::uint32_t>(links[k + 1].v)} << 32);
  if (k < links.size()) h = mix(h, static_cast<std::uint32_t>(links[k].v));
  return h;
}

}  // namespace

namespace {
// The tables a thread's builders gave back, at most kPooledTables of them (the smallest go
// first: malloc keeps small blocks) and kMaxPooledSlots slots in all (8 MiB a thread; the largest
// go first, so that one large program's index does not keep the pool from smaller ones), none
// smaller than kMinPooledSlots (16 KiB). A table is taken for at most 4 times fewer slots, or the
// small indexes of a fight's phases would take the fight's.
constexpr std::size_t kPooledTables = 8;
constexpr std::size_t kMinPooledSlots = 1024;
constexpr std::size_t kMaxPooledSlots = std::size_t{1} << 19;
template <class T>
std::vector<std::vector<T>>& pool_tables() {
  thread_local std::vector<std::vector<T>> tables;
  return tables;
}
}  // namespace

std::vector<ProgramBuilder::Slot> ProgramBuilder::table_of(std::size_t size) {
  std::vector<Slot> t;
  auto& tables = pool_tables<Slot>();
  // the smallest table large enough, not too large
  auto best = tables.end();
  for (auto it = tables.begin(); it != tables.end(); ++it)
    if (it->capacity() >= size && it->capacity() <= 4 * size &&
        (best == tables.end() || it->capacity() < best->capacity()))
      best = it;
  if (best != tables.end()) {
    t.swap(*best);
    tables.erase(best);
  }
  t.assign(size, Slot{});
  return t;
}

void ProgramBuilder::give_back(std::vector<Slot>& table) noexcept {
  std::vector<Slot> t = std::move(table);
  table = {};  // (the builder's index is empty afterwards, whether t is kept or freed)
  if (t.capacity() < kMinPooledSlots || t.capacity() > kMaxPooledSlots) return;
  auto& tables = pool_tables<Slot>();
  try {
    tables.push_back(std::move(t));
  } catch (const std::bad_alloc&) {
    return;  // not kept (a destructor calls this: it must not throw)
  }
  const auto by_size = [](const auto& a, const auto& b) { return a.capacity() < b.capacity(); };
  if (tables.size() > kPooledTables) tables.erase(std::min_element(tables.begin(), tables.end(), by_size));
  std::size_t slots = 0;
  for (const auto& k : tables) slots += k.capacity();
  while (slots > kMaxPooledSlots) {
    const auto largest = std::max_element(tables.begin(), tables.end(), by_size);
    slots -= largest->capacity();
    tables.erase(largest);
  }
}

std::vector<std::size_t> ProgramBuilder::pooled_tables() {
  std::vector<std::size_t> out;
  for (const auto& t : pool_tables<Slot>()) out.push_back(t.capacity());
  return out;
}

ProgramBuilder::~ProgramBuilder() {
  give_back(leaf_index_);
  give_back(node_index_);
}

// Keeps the table at most half full.
template <class Same>
std::int32_t ProgramBuilder::find_or_insert(std::vector<Slot>& table, std::size_t count, std::uint64_t h,
                                            std::int32_t fresh, Same same) {
  if (2 * (count + 1) > table.size()) {
    std::vector<Slot> bigger = table_of(std::max<std::size_t>(64, 2 * table.size()));
    for (const auto& e : table) {
      if (e.index < 0) continue;
      std::size_t at = e.hash & (bigger.size() - 1);
      while (bigger[at].index >= 0) at = (at + 1) & (bigger.size() - 1);
      bigger[at] = e;
    }
    table.swap(bigger);
    give_back(bigger);
  }
  std::size_t at = h & (table.size() - 1);
  for (; table[at].index >= 0; at = (at + 1) & (table.size() - 1))
    if (table[at].hash == h && same(table[at].index)) return table[at].index;
  table[at] = Slot{h, fresh};
  return fresh;
}

Link ProgramBuilder::leaf(const Leaf& l) {
  const auto fresh = static_cast<std::int32_t>(p_.leaves.size());
  const std::int32_t i = find_or_insert(leaf_index_, p_.leaves.size(), builder_hash(l), fresh,
                                        [&](std::int32_t k) { return p_.leaves[static_cast<std::size_t>(k)] == l; });
  if (i == fresh) p_.leaves.push_back(l);
  return Link::leaf(i);
}

Link ProgramBuilder::unindexed_leaf(const Leaf& l) {
  p_.leaves.push_back(l);
  return Link::leaf(static_cast<std::int32_t>(p_.leaves.size() - 1));
}

Link ProgramBuilder::node(DieKind die, std::span<const Link> links) {
  if (links.size() != static_cast<std::size_t>(faces(die))) fail("node built with the wrong number of links");
  const auto fresh = static_cast<std::int32_t>(p_.nodes.size());
  const std::int32_t i =
      find_or_insert(node_index_, p_.nodes.size(), builder_hash(die, links), fresh, [&](std::int32_t k) {
        const RollNode& n = p_.nodes[static_cast<std::size_t>(k)];
        return n.die == die && std::equal(links.begin(), links.end(), p_.links.begin() + n.first);
      });
  if (i == fresh) {
    p_.nodes.push_back(RollNode{die, static_cast<std::uint32_t>(p_.links.size())});
    p_.links.insert(p_.links.end(), links.begin(), links.end());
  }
  return Link::node(i);
}

std::int32_t ProgramBuilder::add_state(Link root, std::string label) {
  const std::int32_t s = reserve_state(std::move(label));
  set_state_root(s, root);
  return s;
}

std::int32_t ProgramBuilder::reserve_state(std::string label) {
  p_.state_labels.push_back(std::move(label));
  return reserve_state();
}

std::int32_t ProgramBuilder::reserve_state() {
  p_.state_root.push_back(0);
  return static_cast<std::int32_t>(p_.state_root.size() - 1);
}

void ProgramBuilder::set_state_leaves(std::int32_t state, std::span<const std::int32_t> leaves) {
  auto& begin = p_.state_leaf_begin;
  const auto s = static_cast<std::size_t>(state);
  if (leaves.empty()) fail("a leaf table needs a leaf");
  if (begin.empty()) begin.push_back(0);
  if (s + 1 < begin.size()) fail("leaf tables set out of state order");
  begin.resize(s + 1, static_cast<std::uint32_t>(p_.state_leaves.size()));  // states skipped: none
  p_.state_leaves.insert(p_.state_leaves.end(), leaves.begin(), leaves.end());
  begin.push_back(static_cast<std::uint32_t>(p_.state_leaves.size()));
}

void ProgramBuilder::set_state_root(std::int32_t state, Link root) {
  if (root.is_leaf()) fail("a state must be rooted at a node");
  p_.state_root.at(static_cast<std::size_t>(state)) = static_cast<std::uint32_t>(root.index());
}

RollProgram ProgramBuilder::take() {
  give_back(leaf_index_);
  give_back(node_index_);
  auto& begin = p_.state_leaf_begin;
  if (!begin.empty()) begin.resize(p_.num_states() + 1, static_cast<std::uint32_t>(p_.state_leaves.size()));
  return std::move(p_);
}

std::string RollProgram::state_label(std::size_t state) const {
  return state < state_labels.size() ? state_labels[state] : "state " + std::to_string(state);
}

void RollProgram::add_turn_series(TurnSeries::Kind kind, const std::string& name, int turns) {
  auto& names = kind == TurnSeries::Kind::kFlag ? flag_names : end_reason_names;
  turn_series.push_back({kind, name, static_cast<std::uint32_t>(names.size()), turns});
  for (int t = 1; t <= turns; ++t) names.push_back(name + "_turn_" + std::to_string(t));
}

}  // namespace salvo
