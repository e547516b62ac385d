// IFT situations (Infantry and Area Target Types, MG/IFE fire, the Vehicle line) through both
// engines: exact == enumeration of the reference interpreter (matched by name, since each kind
// of program names only what it can produce); Monte Carlo in standard errors of the exact values.
#include <string>

#include "asl_test_util.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

std::vector<Situation> ift_situations(bool finite) {
  std::vector<Situation> v;
  Situation he_at_infantry = base();
  he_at_infantry.firer.ammo = Ammo::kHE;
  he_at_infantry.target.type = TargetType::kInfantry;
  auto add = [&](const std::string& name, auto&& edit) {
    Situation s = variant(he_at_infantry, name, edit);
    // Sanitizer builds: one shot, but for the two named (see sanitized.h).
    if (finite)
      cap_for_enumeration(s, salvo::testing::cut_when_sanitized(name, {"ITT improbable", "ITT stop on effect"}));
    v.push_back(s);
  };
  auto mg = [](Situation& s, int fp) {
    s.firer.weapon = Weapon::kMg;
    s.firer.fp = fp;
    s.firer.normal_range = 8;  // required for MG fire (A7.22)
    s.firer.ammo = Ammo::kAP;
  };
  auto unarmored = [](Situation& s) {
    s.target.type = TargetType::kVehicle;
    s.target.unarmored = true;
    s.target.armor = Armor{std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  };
  add("ITT 75L in woods", [](Situation& s) {
    s.target.tem = 1;
    s.firer.rof = 1;
  });
  add("ITT C3.7 EX DRM -1", [](Situation& s) {
    s.fire.extra_drm = 1;
    s.fire.acquisition = 2;
    s.firer.rof = 2;
  });
  add("ITT subsequent dr CH", [](Situation& s) {
    s.target.tem = 3;
    s.firer.rof = 1;
  });
  add("ITT improbable", [](Situation& s) {
    s.fire.extra_drm = 7;
    s.firer.rof = 1;
  });
  add("ITT 37L multiple hits", [](Situation& s) {
    s.firer.gun = *parse_gun("37L");
    s.firer.rof = 2;
    s.target.tem = 1;
  });
  add("ITT 120 heavy payload", [](Situation& s) {
    s.firer.gun = *parse_gun("120");
    s.fire.range = 14;
  });
  add("ITT AP equivalency", [](Situation& s) {
    s.firer.ammo = Ammo::kAP;
    s.fire.range = 3;
    s.firer.rof = 1;
  });
  add("ITT FFNAM defensive", [](Situation& s) {
    s.fire.phase = Phase::kDefensive;
    s.target.ffnam = true;
    s.target.tem = 1;
    s.firer.rof = 1;
  });
  add("ITT stop on effect", [](Situation& s) {
    s.fire.stop_on = StopOn::kEffect;
    s.firer.rof = 2;
    s.target.tem = 2;
  });
  add("Area 75 woods", [](Situation& s) {
    s.target.type = TargetType::kArea;
    s.target.tem = 1;
    s.firer.rof = 2;
  });
  add("Area 50 FFNAM CH", [](Situation& s) {
    s.firer.gun = *parse_gun("50");
    s.target.type = TargetType::kArea;
    s.target.tem = 1;
    s.target.ffnam = true;
    s.fire.phase = Phase::kDefensive;
  });
  add("Area 105 building", [](Situation& s) {
    s.firer.gun = *parse_gun("105");
    s.target.type = TargetType::kArea;
    s.target.tem = 3;
    s.fire.range = 20;
  });
  add("Area 20L: only a CH attacks", [](Situation& s) {
    s.firer.gun = *parse_gun("20L");
    s.target.type = TargetType::kArea;
    s.target.tem = 1;
  });
  add("Area, concealed, Intensive Fire (C6.57)", [](Situation& s) {
    s.target.type = TargetType::kArea;
    s.target.concealed = true;
    s.fire.intensive_fire = true;
    s.fire.range = 14;
  });
  add("MG 4 FP woods ROF 2", [&](Situation& s) {
    mg(s, 4);
    s.target.tem = 1;
    s.firer.rof = 2;
    s.fire.range = 5;
  });
  add("MG 2 FP Case A bow", [&](Situation& s) {
    mg(s, 2);
    s.firer.gun_type = GunType::kNT;
    s.fire.ca_change = 1;
    s.firer.rof = 1;
  });
  add("MG 8 FP AFPh", [&](Situation& s) {
    mg(s, 8);
    s.fire.phase = Phase::kAdvancing;
    s.firer.rof = 1;
  });
  add("MG PBF FFMO", [&](Situation& s) {
    mg(s, 6);
    s.fire.range = 1;
    s.fire.phase = Phase::kDefensive;
    s.target.ffmo = true;
    s.firer.rof = 1;
  });
  add("IFE 12 FP long", [&](Situation& s) {
    mg(s, 12);
    s.firer.weapon = Weapon::kIfe;
    s.firer.normal_range.reset();
    s.fire.range = 20;
    s.firer.rof = 2;
  });
  add("IFE circled B# 10", [&](Situation& s) {
    mg(s, 8);
    s.firer.weapon = Weapon::kIfe;
    s.firer.normal_range.reset();
    s.firer.breakdown = 10;
    s.firer.low_ammo = true;
    s.firer.rof = 3;
  });
  add("MG vehicle line 8 FP", [&](Situation& s) {
    mg(s, 8);
    unarmored(s);
    s.firer.rof = 1;
  });
  add("MG vehicle line unlikely kill", [&](Situation& s) {
    mg(s, 1);
    unarmored(s);
    s.target.tem = 2;
    s.firer.rof = 1;
  });
  // C11: a Gun and its crew, the Gun Destruction Table first, then the gunshield.
  add("Gun ITT gunshield ROF 2", [&](Situation& s) {
    s.target.type = TargetType::kInfantry;
    s.target.gun = true;
    s.target.gunshield = true;
    s.target.size = 1;
    s.firer.ammo = Ammo::kHE;
    s.firer.rof = 2;
  });
  add("Gun Area emplaced", [&](Situation& s) {
    s.target.type = TargetType::kArea;
    s.target.gun = true;
    s.target.emplaced = true;
    s.target.gunshield = true;
    s.firer.gun = *parse_gun("105");
    s.firer.ammo = Ammo::kHE;
    s.fire.range = 10;
  });
  add("Gun ITT AP", [&](Situation& s) {
    s.target.type = TargetType::kInfantry;
    s.target.gun = true;
    s.target.gunshield = true;
    s.firer.ammo = Ammo::kAP;
    s.firer.rof = 1;
  });
  // C8.5-.6: SMOKE and WP, the To Hit DR also the depletion check.
  add("SMOKE 75 s# 8", [&](Situation& s) {
    s.target.type = TargetType::kArea;
    s.firer.weapon = Weapon::kSmoke;
    s.firer.ammo = Ammo::kAP;
    s.firer.depletion = 8;
    s.fire.range = 9;
  });
  add("WP mortar ROF 2", [&](Situation& s) {
    s.target.type = TargetType::kArea;
    s.firer.gun = *parse_gun("81");
    s.firer.mortar = true;
    s.firer.min_range = 2;
    s.firer.weapon = Weapon::kWp;
    s.firer.ammo = Ammo::kAP;
    s.firer.depletion = 9;
    s.firer.rof = 2;
    s.fire.range = 14;
  });
  // C8.4: Canister, its IFT DR also the depletion, breakdown and ROF check.
  auto canister = [](Situation& s, const char* gun, int depletion) {
    s.firer.gun = *parse_gun(gun);
    s.firer.weapon = Weapon::kCanister;
    s.firer.ammo = Ammo::kAP;  // the default: Canister is the weapon, not an ammunition key
    s.firer.depletion = depletion;
    s.target.type = TargetType::kInfantry;
    s.fire.range = 2;
  };
  add("Canister 37 ROF 2", [&](Situation& s) {
    canister(s, "37L", 7);
    s.firer.rof = 2;
    s.target.tem = 1;
  });
  add("Canister 75 adjacent intensive", [&](Situation& s) {
    canister(s, "75", 9);
    s.firer.rof = 1;
    s.fire.range = 1;
    s.fire.intensive_fire = true;
    s.firer.breakdown = 11;
  });
  add("Canister 105 vehicle line", [&](Situation& s) {
    canister(s, "105", 6);
    unarmored(s);
    s.firer.rof = 1;
    s.firer.elite = true;
  });
  return v;
}

}  // namespace

TEST_CASE("IFT: exact engine == enumeration of the reference interpreter", "[asl][ift][engines]") {
  // Everything the enumeration saw must be named by the program, and equal; what the program
  // does not name (e.g. follow_up_done, named only when asked for) must have been exactly 0.
  for (const Situation& s : ift_situations(true)) check_exact_equals_enumeration(s, 0.0);
}

TEST_CASE("IFT: Monte Carlo agrees with exact (standard errors of the exact values)", "[asl][ift][engines][mc]") {
  constexpr std::uint64_t kTrials = 100'000;
  test::McAgreement agree;
  std::uint64_t key = 100;
  for (const Situation& s : ift_situations(false))
    agree.both_engines(compile(s).program, test::mc_options(20261122, key++, kTrials), s.name);
  agree.judge();
  CHECK(agree.size() > 500);
}
