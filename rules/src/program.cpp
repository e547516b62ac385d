#include "salvo/rules/program.h"

#include <stdexcept>
#include <string>

namespace salvo {
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

struct Fnv {
  std::uint64_t h = kFnvOffset;
  void bytes(const void* data, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= kFnvPrime;
    }
  }
  template <class T>
  void value(T v) {
    bytes(&v, sizeof v);
  }
  void str(const std::string& s) {
    value(s.size());
    bytes(s.data(), s.size());
  }
};

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
  if (state_labels.size() != state_root.size()) fail("state_labels size differs from state_root");
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
        if (static_cast<std::size_t>(l.index()) >= leaves.size()) fail("leaf index out of range");
      } else {
        // Nodes are only ever linked to nodes created before them: the DAG is acyclic.
        if (static_cast<std::size_t>(l.index()) >= n) fail("node links forward or to itself");
      }
    }
  }
  for (std::uint32_t r : state_root)
    if (r >= nodes.size()) fail("state root out of range");
  const FlagMask flag_mask =
      flag_names.size() >= 64 ? ~FlagMask{0} : ((FlagMask{1} << flag_names.size()) - 1u);
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
  f.value(state_root.size());
  for (auto r : state_root) f.value(r);
  f.value(nodes.size());
  for (const auto& n : nodes) {
    f.value(n.die);
    f.value(n.first);
  }
  f.value(links.size());
  for (const auto& l : links) f.value(l.v);
  f.value(leaves.size());
  for (const auto& l : leaves) f.value(leaf_hash(l));
  for (const auto* names : {&flag_names, &counter_names, &outcome_names, &end_reason_names}) {
    f.value(names->size());
    for (const auto& s : *names) f.str(s);
  }
  return f.h;
}

Link ProgramBuilder::leaf(const Leaf& l) {
  const std::uint64_t h = leaf_hash(l);
  auto [lo, hi] = leaf_index_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (p_.leaves[static_cast<std::size_t>(it->second)] == l) return Link::leaf(it->second);
  const auto i = static_cast<std::int32_t>(p_.leaves.size());
  p_.leaves.push_back(l);
  leaf_index_.emplace(h, i);
  return Link::leaf(i);
}

Link ProgramBuilder::node(DieKind die, const std::vector<Link>& links) {
  if (links.size() != static_cast<std::size_t>(faces(die))) fail("node built with the wrong number of links");
  Fnv f;
  f.value(die);
  for (Link l : links) f.value(l.v);
  auto [lo, hi] = node_index_.equal_range(f.h);
  for (auto it = lo; it != hi; ++it) {
    const RollNode& n = p_.nodes[static_cast<std::size_t>(it->second)];
    if (n.die != die) continue;
    bool same = true;
    for (std::size_t k = 0; k < links.size() && same; ++k) same = p_.links[n.first + k] == links[k];
    if (same) return Link::node(it->second);
  }
  const auto i = static_cast<std::int32_t>(p_.nodes.size());
  p_.nodes.push_back(RollNode{die, static_cast<std::uint32_t>(p_.links.size())});
  p_.links.insert(p_.links.end(), links.begin(), links.end());
  node_index_.emplace(f.h, i);
  return Link::node(i);
}

std::int32_t ProgramBuilder::add_state(Link root, std::string label) {
  const std::int32_t s = reserve_state(std::move(label));
  set_state_root(s, root);
  return s;
}

std::int32_t ProgramBuilder::reserve_state(std::string label) {
  p_.state_root.push_back(0);
  p_.state_labels.push_back(std::move(label));
  return static_cast<std::int32_t>(p_.state_root.size() - 1);
}

void ProgramBuilder::set_state_root(std::int32_t state, Link root) {
  if (root.is_leaf()) fail("a state must be rooted at a node");
  p_.state_root.at(static_cast<std::size_t>(state)) = static_cast<std::uint32_t>(root.index());
}

RollProgram ProgramBuilder::take() {
  leaf_index_.clear();
  node_index_.clear();
  return std::move(p_);
}

}  // namespace salvo
