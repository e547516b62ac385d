// The compiled 1943 program run by both engines, checked against the reference interpreter:
// exact engine == enumeration of every dice sequence; Monte Carlo in standard errors of the
// exact values on every situation.
#include <functional>
#include <string>

#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/mc_agreement.h"
#include "w1943_test_util.h"

using namespace salvo;
using namespace salvo::w1943;
using namespace salvo::w1943::testing;

namespace {

struct Case {
  std::string name;
  Situation s;
  bool enumerable;  // few enough dice sequences to enumerate (Rapid Fire chains cut deep)
};

std::vector<Case> cases() {
  std::vector<Case> v;
  auto add = [&](std::string name, Situation s, bool enumerable, const std::function<void(Situation&)>& edit) {
    edit(s);
    s.name = name;
    v.push_back({std::move(name), s, enumerable});
  };
  add("rifles full strength", small_arms(), true, [](Situation&) {});
  add("rifles weak, packed, rushing", small_arms(), true, [](Situation& s) {
    s.firer.bases_firing = 4;
    s.target.packed = true;
    s.target.rushing = true;
  });
  add("remnant in hard and solid cover", small_arms(), true, [](Situation& s) {
    s.firer.bases_firing = 2;
    s.target.solid_cover = true;
    s.target.hard_cover = true;
  });
  add("lmg at prone, 600 yards", mg_small_arms(MachineGun::kLight), true, [](Situation& s) {
    s.target.prone = true;
    s.fire.range = 600;
  });
  add("hmg 2 turns vs 3 bases", mg_small_arms(MachineGun::kHeavy, 3), true, [](Situation& s) {
    s.fire.turns = 2;
    s.target.packed = true;
  });
  add("hmg jammed, 3 turns", mg_small_arms(MachineGun::kHeavy, 2), true, [](Situation& s) {
    s.firer.jammed = true;
    s.fire.turns = 3;
  });
  add("infantry assault on armor", small_arms(1), true, [](Situation& s) {
    s.target.type = TargetType::kVehicle;
    s.firer.weapon_value = 3;
    s.target.defense = 4;
    s.fire.range = 50;
  });
  add("small arms vs MG section, 2 turns", small_arms(2), true, [](Situation& s) {
    s.target.type = TargetType::kMachineGun;
    s.fire.turns = 2;
  });
  add("flamethrower 4 turns", small_arms(3), true, [](Situation& s) {
    s.fire.kind = FireKind::kFlamethrower;
    s.fire.turns = 4;
    s.fire.range = 30;
  });
  add("smoke 3 turns", small_arms(), true, [](Situation& s) {
    s.fire.kind = FireKind::kSmoke;
    s.firer.mortar = true;
    s.fire.turns = 3;
  });
  add("AT gun AP vs tank", artillery_vs_tank(), true, [](Situation&) {});
  add("AT gun APCP close, flank", artillery_vs_tank(), true, [](Situation& s) {
    s.firer.ammo = Ammo::kAPCP;
    s.fire.range = 350;
    s.fire.flank_rear = true;
    s.target.stationary_in_open = true;
  });
  add("APCP with AP fallback", artillery_vs_tank(), true, [](Situation& s) {
    s.firer.ammo = Ammo::kAPCP;
    s.firer.fallback_ammo = Ammo::kAP;
    s.target.defense = 7;
  });
  add("HE vs large tank, long range", artillery_vs_tank(), true, [](Situation& s) {
    s.firer.ammo = Ammo::kHE;
    s.target.size = TargetSize::kLarge;
    s.fire.range = 1500;
    s.firer.training = Training::kAbysmal;
  });
  add("heavy MG anti-tank", mg_vs_tank(MachineGun::kHeavy), true, [](Situation& s) {
    s.firer.weapon_value = 3;
    s.target.defense = 1;
    s.fire.range = 150;
  });
  add("medium MG anti-tank", mg_vs_tank(MachineGun::kMedium), true, [](Situation& s) {
    s.firer.weapon_value = 3;
    s.target.defense = 0;
  });
  add("HE vs infantry with a damaged base", artillery_vs_infantry(), true, [](Situation& s) {
    s.target.damaged = true;
    s.target.packed = true;
    s.firer.training = Training::kOutstanding;
  });
  add("mortar vs mortar section", artillery_vs_infantry(1), true, [](Situation& s) {
    s.firer.mortar = true;
    s.firer.shell_size = 3;
    s.target.type = TargetType::kMortar;
  });
  add("field gun vs towed gun", artillery_vs_infantry(1), true, [](Situation& s) {
    s.target.type = TargetType::kTowedGun;
    s.firer.shell_size = 7;
    s.fire.range = 150;
  });
  add("HE vs infantry, 3 turns", artillery_vs_infantry(3), false, [](Situation& s) { s.fire.turns = 3; });
  add("secondary HE, 4 turns, AP fallback vs tank", artillery_vs_tank(), false, [](Situation& s) {
    s.firer.ammo = Ammo::kHE;
    s.firer.secondary = true;
    s.firer.fallback_ammo = Ammo::kAP;
    s.fire.turns = 4;
    s.target.defense = 8;
  });
  add("heavy MG anti-tank 5 turns", mg_vs_tank(MachineGun::kHeavy), false, [](Situation& s) {
    s.firer.weapon_value = 2;
    s.target.defense = 3;
    s.fire.turns = 5;
  });
  return v;
}

}  // namespace

TEST_CASE("1943: exact engine == enumeration of the reference interpreter", "[w1943][engines]") {
  const Chart chart = illustrative_chart();
  int n = 0;
  for (const Case& c : cases()) {
    if (!c.enumerable) continue;
    // The three costliest enumerations (long Rapid Fire chains) are left to the Release suite.
    if (salvo::testing::release_only(c.name,
                                     {"APCP with AP fallback", "HE vs large tank, long range", "medium MG anti-tank"}))
      continue;
    INFO("situation: " << c.name);
    const Compiled compiled = compile(chart, c.s);
    compiled.program.validate();
    // Artillery: Rapid Fire chains are cut after about 5 shots (the cut mass is the margin).
    const std::size_t draws =
        c.s.fire.kind == FireKind::kArtillery ? (mg_of(c.s.firer) != MachineGun::kNone ? 10 : 8) : 64;
    const test::PathTally e = enumerate(chart, c.s, compiled.program, draws);
    const double margin = e.truncated + 1e-12;
    CHECK(e.truncated < 1e-6);
    test::check_exact_against_paths(compiled.program, sim::solve_exact(compiled.program), e,
                                    test::program_names(compiled.program),
                                    {.margin = margin, .counter_margin = 10 * margin, .unnamed = 0.0});
    ++n;
  }
  CHECK(n >= 15);
}

TEST_CASE("1943: Monte Carlo agrees with exact on every situation (standard errors of the exact values)",
          "[w1943][engines][mc]") {
  const Chart chart = illustrative_chart();
  constexpr std::uint64_t kTrials = 100'000;
  test::McAgreement agree;
  int situations = 0;
  std::uint64_t key = 0;
  for (const Case& c : cases()) {
    agree.both_engines(compile(chart, c.s).program, test::mc_options(1943, key++, kTrials), c.name);
    ++situations;
  }
  agree.judge();
  CHECK(situations >= 15);
  CHECK(agree.size() > 500);
}
