// The program builder's de-duplication, build after build on one thread: a builder takes its
// indexes' tables from those earlier builders gave back (ProgramBuilder::table_of), and must
// find its own leaves and nodes in them, and only its own.

#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include "salvo/rules/program.h"

using namespace salvo;

namespace {

Leaf numbered(std::int32_t k) {
  Leaf l;
  l.flags = static_cast<FlagMask>(k) & 7u;
  l.next_state = k;
  return l;
}

// A builder that adds leaves first..first + n - 1 twice, and a node over each six of them, and
// checks that it numbers them in order and finds each again.
void build_and_check(std::int32_t first, std::int32_t n) {
  ProgramBuilder b;
  for (std::int32_t k = 0; k < n; ++k) {
    INFO("leaf " << k << " of a build from " << first);
    REQUIRE(b.leaf(numbered(first + k)) == Link::leaf(k));
  }
  for (std::int32_t k = n; k-- > 0;) REQUIRE(b.leaf(numbered(first + k)) == Link::leaf(k));
  std::vector<Link> six(6);
  for (std::int32_t node = 0; 6 * (node + 1) <= n; ++node) {
    for (std::int32_t f = 0; f < 6; ++f) six[static_cast<std::size_t>(f)] = Link::leaf(6 * node + f);
    REQUIRE(b.node(DieKind::kD6, six) == Link::node(node));
    REQUIRE(b.node(DieKind::kD6, six) == Link::node(node));
  }
  b.reserve_state();
  b.set_state_root(0, Link::node(0));
  const RollProgram p = b.take();
  CHECK(p.leaves.size() == static_cast<std::size_t>(n));
  CHECK(p.nodes.size() == static_cast<std::size_t>(n / 6));
}

}  // namespace

TEST_CASE("program builder: each build finds its own leaves and nodes, after earlier builds", "[program]") {
  // The same leaves in a later build (the tables an earlier one filled, given back), others,
  // fewer (a smaller table), more (its tables grow through the given-back ones), and builders
  // alive at once (a fight compiling its phases while it builds).
  build_and_check(0, 3000);
  build_and_check(0, 3000);
  build_and_check(1500, 3000);
  build_and_check(0, 40);
  build_and_check(2999, 20000);
  {
    ProgramBuilder outer;
    REQUIRE(outer.leaf(numbered(7)) == Link::leaf(0));
    build_and_check(5, 5000);
    REQUIRE(outer.leaf(numbered(8)) == Link::leaf(1));
    REQUIRE(outer.leaf(numbered(7)) == Link::leaf(0));
  }
  build_and_check(0, 3000);
}

TEST_CASE("program builder: one large program's index does not keep smaller ones out of the pool", "[program]") {
  // On a thread of its own (a fresh pool): a build of 3,000 leaves gives back its index of 8,192
  // slots; one of 200,000 fills the pool's 8 MiB; the next small build's table is kept all the
  // same (the largest tables go first).
  std::vector<std::size_t> after_small, after_large, after_both;
  std::thread([&] {
    build_and_check(0, 3000);
    after_small = ProgramBuilder::pooled_tables();
    build_and_check(0, 200000);
    after_large = ProgramBuilder::pooled_tables();
    build_and_check(0, 3000);
    after_both = ProgramBuilder::pooled_tables();
  }).join();
  const auto has = [](const std::vector<std::size_t>& tables, std::size_t slots) {
    return std::find(tables.begin(), tables.end(), slots) != tables.end();
  };
  CHECK(has(after_small, 8192));
  std::size_t large = 0;
  for (const std::size_t t : after_large) large += t;
  CHECK(large <= (std::size_t{1} << 19));  // 8 MiB of 16-byte slots
  CHECK(has(after_both, 8192));
}
