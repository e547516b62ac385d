// compile() without the explanation (CompileOptions::explain = false, for `salvo odds`) builds
// the same program as with it, and no explanation.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "asl_test_util.h"
#include "salvo/load/asl_loader.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

void check_same_program(const RollProgram& a, const RollProgram& b) {
  CHECK(a.initial_state == b.initial_state);
  CHECK(a.state_root == b.state_root);
  CHECK(a.state_labels == b.state_labels);
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (std::size_t n = 0; n < a.nodes.size(); ++n) {
    CHECK(a.nodes[n].die == b.nodes[n].die);
    CHECK(a.nodes[n].first == b.nodes[n].first);
  }
  CHECK(a.links == b.links);
  CHECK(a.leaves == b.leaves);
  CHECK(a.flag_names == b.flag_names);
  CHECK(a.counter_names == b.counter_names);
  CHECK(a.outcome_names == b.outcome_names);
  CHECK(a.end_reason_names == b.end_reason_names);
  CHECK(a.hash() == b.hash());
}

// Eight of varied_situations() (one at a shorter range), a duel's Gun over three turns, and four
// more.
std::vector<Situation> situations() {
  const std::vector<Situation> varied = varied_situations();
  std::vector<Situation> v;
  auto take = [&](std::string_view name) { v.push_back(named_in(varied, name)); };
  auto add = [&](auto&& edit) {
    Situation s = base();
    edit(s);
    v.push_back(s);
  };
  take("75L AP front 6");
  take("75L AP ROF 2 BU");
  take("37L multiple hits");
  add([](Situation& s) {
    s.fire.same_hex = true;
    s.fire.range = 0;
    s.firer.rof = 1;
  });
  take("bounding fire C2");
  add([](Situation& s) {
    s.fire.motion = true;
    s.fire.phase = Phase::kDefensive;
    s.firer.rof = 1;
  });
  v.push_back(changed(varied, "APCR depletion fallback AP", "6 hexes", [](Situation& s) { s.fire.range = 6; }));
  take("intensive fire");
  take("low ammo circled B10, ROF 2");
  take("HE vs unarmored");
  add([](Situation& s) {
    s.target.type = TargetType::kInfantry;
    s.firer.ammo = Ammo::kHE;
    s.target.tem = 1;
  });
  add([](Situation& s) {
    s.fire.turns = 4;
    s.firer.rof = 2;
    s.firer.breakdown = 10;
  });
  v.push_back(
      changed(duels(), "NT Gun R3, CA change, 2 Rally Phases", "3 turns", [](Situation& s) { s.fire.turns = 3; }));
  // Every ASL example file
  for (const auto& e : std::filesystem::directory_iterator(std::string(SALVO_SOURCE_DIR) + "/examples")) {
    if (e.path().extension() != ".toml") continue;
    for (const auto& ls : load::load_file(e.path().string()).situations) v.push_back(ls.situation);
  }
  return v;
}

}  // namespace

TEST_CASE("compile without the explanation: the same program, no explanation", "[asl][compile]") {
  for (const Situation& s : situations()) {
    INFO("situation: " << s.name << " (range " << s.fire.range << ", " << s.fire.turns << " turns)");
    const Compiled with = compile(s);
    const Compiled without = compile(s, {.explain = false});
    check_same_program(with.program, without.program);
    CHECK((s.movement || !with.explain.shots.empty()));
    CHECK(without.explain.shots.empty());
    CHECK(without.explain.notes.empty());
    CHECK(without.explain.th_color.empty());
  }
}
