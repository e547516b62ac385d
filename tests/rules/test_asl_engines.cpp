// The compiled program run by both engines, checked against the reference interpreter:
// exact engine == exhaustive enumeration of every dice sequence; Monte Carlo in standard errors
// of the exact values (support/mc_agreement.h); tallies independent of the thread count.
#include <string>

#include "asl_test_util.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

// A varied set of one-phase situations (asl_test_util.h).
std::vector<Situation> salvo::asl::testing::varied_situations() {
  std::vector<Situation> v;
  auto add = [&](const std::string& name, auto&& edit) { v.push_back(variant(base(), name, edit)); };
  add("75L AP front 6", [](Situation&) {});
  add("75L AP ROF 2 BU", [](Situation& s) {
    s.firer.rof = 2;
    s.fire.buttoned_up = true;
  });
  add("75 Sherman vs Panther", [](Situation& s) {
    s.firer.nationality = Nationality::kAmerican;
    s.firer.gun = *parse_gun("75");
    s.firer.rof = 2;
    s.target.armor = Armor{18, 8, 14, 8};
    s.fire.range = 6;
  });
  add("side shot 12 hexes", [](Situation& s) {
    s.firer.gun = *parse_gun("75");
    s.target.facing = Facing::kSide;
    s.target.armor = Armor{18, 8, 14, 8};
    s.fire.range = 12;
  });
  add("rear, superior turret", [](Situation& s) {
    s.target.facing = Facing::kRear;
    s.target.turret_armor = TurretArmor::kSuperior;
    s.target.armor = Armor{11, 6, 11, 6};
  });
  add("37L multiple hits", [](Situation& s) {
    s.firer.gun = *parse_gun("37L");
    s.firer.rof = 3;
    s.target.armor = Armor{2, 1, 2, 1};
  });
  add("20L multiple hits, CH region", [](Situation& s) {
    s.firer.gun = *parse_gun("20L");
    s.firer.rof = 3;
    s.target.armor = Armor{1, 0, 1, 0};
    s.fire.range = 2;
  });
  add("improbable hits", [](Situation& s) {
    s.fire.extra_drm = 9;
    s.firer.rof = 1;
  });
  add("CH only on subsequent dr", [](Situation& s) {
    s.fire.extra_drm = 8;
    s.firer.rof = 1;
  });
  add("hull down", [](Situation& s) {
    s.target.hull_down = true;
    s.firer.rof = 2;
  });
  add("hull down improbable", [](Situation& s) {
    s.target.hull_down = true;
    s.fire.extra_drm = 9;
  });
  add("same hex", [](Situation& s) {
    s.fire.same_hex = true;
    s.fire.range = 0;
    s.target.armor = Armor{26, 2, 26, 4};
    s.firer.rof = 1;
  });
  add("APCR depletion fallback AP", [](Situation& s) {
    s.firer.ammo = Ammo::kAPCR;
    s.firer.depletion = 5;
    s.firer.rof = 2;
    s.target.armor = Armor{14, 8, 11, 8};
    s.fire.range = 14;
  });
  add("APCR depletion no fallback", [](Situation& s) {
    s.firer.ammo = Ammo::kAPCR;
    s.firer.depletion = 4;
    s.firer.fallback_ammo = Ammo::kNone;
    s.firer.rof = 2;
  });
  add("HEAT depletion", [](Situation& s) {
    s.firer.gun = *parse_gun("75*");
    s.firer.ammo = Ammo::kHEAT;
    s.firer.depletion = 6;
    s.firer.fallback_ammo = Ammo::kHE;
    s.firer.rof = 1;
  });
  add("HE vs light armor", [](Situation& s) {
    s.firer.ammo = Ammo::kHE;
    s.target.armor = Armor{1, 1, 1, 0};
    s.firer.rof = 2;
  });
  add("HE vs unarmored", [](Situation& s) {
    s.firer.ammo = Ammo::kHE;
    s.target.unarmored = true;
    s.firer.rof = 1;
  });
  add("AP vs unarmored", [](Situation& s) {
    s.target.unarmored = true;
    s.fire.range = 20;
  });
  add("unarmored rear aspect", [](Situation& s) {
    s.target.armor = Armor{2, std::nullopt, 2, std::nullopt};
    s.target.facing = Facing::kRear;
  });
  add("low ammo circled B10, ROF 2", [](Situation& s) {
    s.firer.breakdown = 10;
    s.firer.low_ammo = true;
    s.firer.rof = 2;
  });
  add("low ammo marked", [](Situation& s) {
    s.firer.breakdown = 10;
    s.firer.low_ammo = true;
    s.firer.low_ammo_marked = true;
    s.firer.rof = 2;
  });
  add("B10 X11", [](Situation& s) {
    s.firer.breakdown = 10;
    s.firer.x_number = 11;
    s.firer.rof = 1;
  });
  add("intensive fire", [](Situation& s) {
    s.firer.rof = 1;
    s.fire.intensive_fire = true;
    s.firer.breakdown = 11;
  });
  add("intensive fire ROF 0", [](Situation& s) { s.fire.intensive_fire = true; });
  add("conditional ROF NT gun", [](Situation& s) {
    s.firer.vehicle = false;
    s.firer.gun_type = GunType::kNT;
    s.firer.gun = *parse_gun("50L");
    s.firer.rof = 3;
    s.fire.ca_change = 1;
  });
  add("CA change from woods", [](Situation& s) {
    s.fire.ca_change = 2;
    s.fire.firer_terrain = Terrain::kWoods;
    s.firer.gun_type = GunType::kST;
    s.firer.rof = 1;
  });
  add("bounding fire C2", [](Situation& s) {
    s.fire.phase = Phase::kBounding;
    s.fire.los_mp = 2.0;
    s.firer.rof = 1;
  });
  add("bounding stabilized", [](Situation& s) {
    s.fire.phase = Phase::kBounding;
    s.firer.stabilized = true;
    s.firer.rof = 2;
  });
  add("bounding, AFPh follow-up (D3.32)", [](Situation& s) {
    s.fire.phase = Phase::kBounding;
    s.fire.los_mp = 2.0;
    s.firer.rof = 2;
    s.fire.max_shots = 1;
    s.fire.follow_up = true;
  });
  add("bounding stabilized, MPh shot and follow-up", [](Situation& s) {
    s.fire.phase = Phase::kBounding;
    s.firer.stabilized = true;
    s.firer.rof = 1;
    s.fire.max_shots = 1;
    s.fire.follow_up = true;
    s.fire.acquisition = 1;
  });
  add("defensive first fire J2", [](Situation& s) {
    s.fire.phase = Phase::kDefensive;
    s.target.moving = true;
    s.target.mp_in_los = 1.0;
    s.firer.rof = 2;
  });
  add("advancing fire", [](Situation& s) {
    s.fire.phase = Phase::kAdvancing;
    s.firer.rof = 2;
  });
  add("point blank acquired", [](Situation& s) {
    s.fire.range = 1;
    s.fire.acquisition = 1;
    s.firer.rof = 1;
  });
  add("concealed target, ROF 3 (C6.57)", [](Situation& s) {
    s.target.concealed = true;
    s.fire.range = 8;
    s.fire.extra_drm = 3;
    s.firer.rof = 3;
    s.target.armor = Armor{14, 8, 14, 8};
  });
  add("hull down, 20L, Original 2 only", [](Situation& s) {
    s.target.hull_down = true;
    s.firer.gun = *parse_gun("20L");
    s.target.armor = Armor{1, 1, 1, 1};
    s.fire.extra_drm = 8;
    s.firer.rof = 3;
  });
  add("captured, Intensive Fire (A.11)", [](Situation& s) {
    s.firer.captured = true;
    s.fire.intensive_fire = true;
    s.firer.rof = 1;
  });
  add("long range LL red", [](Situation& s) {
    s.firer.nationality = Nationality::kRussian;
    s.firer.gun = *parse_gun("76LL");
    s.fire.range = 40;
    s.firer.rof = 1;
  });
  add("NA range", [](Situation& s) {
    s.firer.gun = *parse_gun("37L");
    s.fire.range = 62;
    s.fire.extra_drm = -9;
  });
  add("stop on effect", [](Situation& s) {
    s.fire.stop_on = StopOn::kEffect;
    s.firer.rof = 2;
    s.target.armor = Armor{11, 8, 11, 8};
  });
  add("stop never, capped", [](Situation& s) {
    s.fire.stop_on = StopOn::kNever;
    s.firer.rof = 2;
    s.fire.max_shots = 3;
  });
  add("red CS", [](Situation& s) {
    s.target.red_cs = true;
    s.firer.rof = 1;
  });
  add("captured gun", [](Situation& s) {
    s.firer.captured = true;
    s.firer.rof = 1;
  });
  add("override TH and TK", [](Situation& s) {
    s.override_.modified_th = 7;
    s.override_.basic_tk = 12;
    s.firer.rof = 1;
  });
  return v;
}

namespace {

// The varied situations; `finite`: each capped to few enough dice sequences to enumerate.
std::vector<Situation> situations(bool finite) {
  std::vector<Situation> v = varied_situations();
  if (finite)
    for (Situation& s : v)
      cap_for_enumeration(
          s, salvo::testing::cut_when_sanitized(s.name, {"improbable hits", "CH only on subsequent dr", "same hex",
                                                         "CA change from woods", "B10 X11", "point blank acquired"}));
  return v;
}

}  // namespace

TEST_CASE("exact engine on the compiled program == enumeration of the reference interpreter", "[asl][engines]") {
  // The enumeration counts every flag, counter and outcome of the rules; a program names only
  // those its kind of shot can produce (name_program): matched by name, the rest must be 0.
  for (const Situation& s : situations(true)) check_exact_equals_enumeration(s, 1e-12);
}

TEST_CASE("Monte Carlo agrees with exact on every situation (standard errors of the exact values)",
          "[asl][engines][mc]") {
  constexpr std::uint64_t kTrials = 200'000;
  test::McAgreement agree;
  std::uint64_t key = 0;
  for (const Situation& s : situations(false)) {
    INFO("situation: " << s.name);
    agree.both_engines(compile(s).program, test::mc_options(20261122, key++, kTrials), s.name);
  }
  agree.judge();
  CHECK(situations(false).size() >= 30);
  CHECK(agree.size() > 1000);
}

TEST_CASE("Monte Carlo tallies are identical for 1 and 2 threads on ASL programs", "[asl][engines][mc]") {
  for (const Situation& s : situations(false)) {
    INFO("situation: " << s.name);
    const RollProgram p = compile(s).program;
    const sim::McOptions o = test::mc_options(7, 3, 3 * sim::kBlockTrials + 1234);
    CHECK(test::tallies_on(p, o, 1) == test::tallies_on(p, o, 2));
  }
}

TEST_CASE("rules conflicts are refused with the key and the rule", "[asl][errors]") {
  const std::string los_mp =
      "fire.los_mp: MP in the target's LOS count for Bounding First Fire only: Case C1/C2 do not apply in the AFPh, "
      "and a firer in the opponent's Player Turn spends no MP (C5.31-.32, C5.35)";
  check_refused({
      {with(base(),
            [](Situation& s) {
              s.target.hull_down = true;
              s.target.tem = 2;
            }),
       "target.tem: a hull-down target cannot also claim TEM (D4.2)"},
      {with(base(), [](Situation& s) { s.fire.same_hex = true; }),
       "fire.range: same-hex fire is at range 0 (C5.5), got 6"},
      {with(base(), [](Situation& s) { s.fire.range = 0; }),
       "fire.range: range 0 is same-hex fire: set fire.same_hex = true (C5.5)"},
      {with(base(),
            [](Situation& s) {
              s.fire.phase = Phase::kBounding;
              s.fire.ca_change = 1;
            }),
       "fire.ca_change: Case A never applies to Bounding First Fire: the CA is changed by MP expenditure (C5.13)"},
      {with(base(),
            [](Situation& s) {
              s.fire.intensive_fire = true;
              s.fire.phase = Phase::kAdvancing;
            }),
       "fire.intensive_fire: Intensive Fire is not allowed in the Advancing Fire Phase except by an Opportunity Firer "
       "(C5.6)"},
      {with(base(),
            [](Situation& s) {
              s.firer.ammo = Ammo::kAPCR;
              s.firer.year = 1945;
              s.firer.gun = *parse_gun("50L");
            }),
       "firer.depletion: APCR needs a Depletion # (C8.9) and the C8.12 chart has none for this gun and date; give the "
       "number on the counter"},
      {with(base(), [](Situation& s) { s.fire.follow_up = true; }),
       "fire.follow_up: the AFPh follow-up shot comes after Bounding First Fire (D3.32): set fire.phase = "
       "\"bounding\""},
      {with(base(),
            [](Situation& s) {
              s.fire.follow_up = true;
              s.fire.phase = Phase::kBounding;
            }),
       "fire.follow_up: only a weapon with Multiple ROF keeps it through the MPh for an AFPh shot (D3.32)"},
      {with(base(),
            [](Situation& s) {
              s.fire.follow_up = true;
              s.fire.phase = Phase::kBounding;
              s.firer.rof = 1;
            }),
       "fire.follow_up: give fire.max_shots, the shots fired in the MPh: the AFPh shot follows only if the ROF is "
       "kept after them (D3.32)"},
      {with(base(),
            [](Situation& s) {
              s.fire.phase = Phase::kAdvancing;
              s.fire.opportunity = true;
            }),
       "fire.opportunity: vehicles are not eligible for Opportunity Fire (D3.3, A7.25)"},
      {with(base(),
            [](Situation& s) {
              s.fire.opportunity = true;
              s.firer.vehicle = false;
              s.fire.phase = Phase::kPrep;
            }),
       "fire.opportunity: Opportunity Fire is fire in the Advancing Fire Phase (A7.25): set fire.phase = "
       "\"advancing\""},
      {with(base(),
            [](Situation& s) {
              s.firer.vehicle = false;
              s.firer.armor_leader = -1;
            }),
       "firer.armor_leader: an Armor Leader has no effect on non-vehicular Guns (D3.4)"},
      {with(base(),
            [](Situation& s) {
              s.firer.vehicle = false;
              s.fire.buttoned_up = true;
            }),
       "fire.buttoned_up: Case I is for a buttoned-up closed-top AFV (C5.9), not a non-vehicular Gun"},
      {with(base(),
            [](Situation& s) {
              s.firer.vehicle = false;
              s.firer.low_ammo = true;
              s.firer.breakdown = 11;
            }),
       "firer.low_ammo: a circled B# (Low Ammo) is a vehicle rule: the vehicle gets the Low Ammo counter (D3.71)"},
      {with(base(),
            [](Situation& s) {
              s.firer.ammo = Ammo::kHEAT;
              s.firer.depletion = 6;
              s.firer.year = 1942;
              s.firer.month = 4;
            }),
       "firer.ammo: HEAT is available to the Germans from 5/1942 (C8.3), got 4/1942"},
      {with(base(),
            [](Situation& s) {
              s.firer.ammo = Ammo::kHEAT;
              s.firer.depletion = 6;
              s.firer.nationality = Nationality::kRussian;
              s.firer.year = 1942;
              s.firer.month = 12;
            }),
       "firer.ammo: HEAT is available to the Russians from 1943 (C8.3), got 12/1942"},
      {with(base(), [](Situation& s) { s.fire.motion = true; }),
       "fire.motion: a vehicle that starts its Player Turn in Motion may not Prep Fire (D2.4)"},
      {with(base(), [](Situation& s) { s.fire.los_mp = 2.0; }), los_mp},
      {with(base(),
            [](Situation& s) {
              s.fire.los_mp = 2.0;
              s.fire.phase = Phase::kAdvancing;
              s.fire.motion = true;
            }),
       los_mp},
      {with(base(),
            [](Situation& s) {
              s.fire.same_hex = true;
              s.fire.range = 0;
              s.target.type = TargetType::kInfantry;
              s.firer.ammo = Ammo::kHE;
              s.fire.phase = Phase::kDefensive;
              s.target.ffmo = true;
            }),
       "target.ffmo: Cases J3 and J4 do not apply to a To Hit DR with Case E, same-hex fire (C5.5)"},
      {with(base(),
            [](Situation& s) {
              s.firer.bypass = true;
              s.firer.cafp = 0;
              s.fire.ca_change = 1;
            }),
       "fire.ca_change: a vehicle in Bypass measures Case A in Target Facings, not hexspines (D2.321): "
       "give fire.tca and fire.target_direction instead"},
      {with(base(), [](Situation& s) { s.firer.cafp = 0; }),
       "firer.cafp: a CAFP is for a vehicle in Bypass (D2.32): set firer.bypass = true, or remove it"},
      {with(base(),
            [](Situation& s) {
              s.firer.cafp = 0;
              s.firer.bypass = true;
              s.fire.vca = 1;
            }),
       "fire.vca: a vehicle in Bypass has its VCA pointing at its CAFP (D2.32): give fire.vca = firer.cafp, or leave "
       "it out"},
      {with(base(),
            [](Situation& s) {
              s.firer.cafp = 0;
              s.firer.bypass = true;
              s.fire.vca.reset();
              s.fire.firer_terrain = Terrain::kRubble;
            }),
       "firer.bypass: Bypass is not allowed in a rubble hex (D2.31)"},
      {with(base(),
            [](Situation& s) {
              s.firer.gun_type = GunType::kNT;
              s.fire.vca = 0;
              s.fire.tca = 1;
            }),
       "fire.tca: a non-turreted (NT) vehicle fires in its VCA (D3.12): fire.tca must equal fire.vca, or leave it out"},
      {with(base(),
            [](Situation& s) {
              s.firer.vehicle = false;
              s.fire.maintained_ca = 2;
            }),
       "fire.maintained_ca: maintaining CA is for a vehicle's turret weapons (D3.51); a Gun's CA change is "
       "fire.ca_change or fire.tca"},
      {with(base(),
            [](Situation& s) {
              s.fire.same_hex = true;
              s.fire.range = 0;
              s.fire.tca = 0;
              s.fire.target_direction = 2;
            }),
       "fire.target_direction: same-hex fire does not change the firer's CA outside Defensive First and Final Fire or "
       "Bypass (C5.51): no Case A"},
      {with(base(),
            [](Situation& s) {
              s.firer.gun = *parse_gun("40LL");
              s.firer.nationality = Nationality::kBritish;
            }),
       "firer.gun: no AP To Kill entry for 40LL (C7.3); give override.basic_tk"},
  });
  // and what they accept.
  for (const Situation& s : {
           with(base(),
                [](Situation& s) {
                  s.fire.phase = Phase::kAdvancing;
                  s.fire.opportunity = true;
                  s.firer.vehicle = false;
                }),
           with(base(),
                [](Situation& s) {
                  s.firer.ammo = Ammo::kHEAT;
                  s.firer.depletion = 6;
                  s.firer.year = 1942;
                  s.firer.month = 5;
                }),
           with(base(),
                [](Situation& s) {
                  s.fire.motion = true;
                  s.fire.phase = Phase::kDefensive;
                }),
           with(base(),
                [](Situation& s) {
                  s.fire.same_hex = true;
                  s.fire.range = 0;
                  s.fire.tca = 0;
                  s.fire.target_direction = 2;
                  s.fire.phase = Phase::kDefensive;
                }),
           // C7.31: Basic TK# 5
           with(base(), [](Situation& s) { s.firer.gun = *parse_gun("15"); }),
           with(base(),
                [](Situation& s) {
                  s.firer.gun = *parse_gun("40LL");
                  s.firer.nationality = Nationality::kBritish;
                  s.override_.basic_tk = 11;
                }),
       }) {
    INFO(s.name);
    CHECK_FALSE(check(s).has_value());
  }
}
