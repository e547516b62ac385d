// Round trip: a unit imported from a counter listing (synthetic rows, made-up values) and then
// named in a situation gives the same situation, and so the same exact odds, as the same values
// typed by hand.

#include <catch2/catch.hpp>
#include <string>

#include "salvo/import/vasl_csv.h"
#include "salvo/load/asl_loader.h"
#include "salvo/load/units.h"
#include "salvo/rules/asl.h"
#include "salvo/sim/exact.h"
#include "support/temp_files.h"

namespace {

using namespace salvo;

// Two made-up vehicles and a made-up Gun in the listings' notation: superior side turret armor,
// a red CS#, a circled B#, APCR by year; a bow-mounted gun; a Gun with depletion by year.
constexpr const char* kVehicles =
    "count,name,dates,size,af,ta,cs,mp,gt,ma,rof_ife,breakdown,ammunition\n"
    "<b>#</b>,<b>Name & <i>Type</i></b>,<b>Dates</b>,<b>Size</b>,<b>AF</b>,<b>TA</b>,<b>CS</b>,<b>MP</b>,"
    "<b>GT</b>,<b>MA</b>,<b>ROF</b>,<b>B#</b>,<b>Am</b>\n"
    "1,Probewagen <i>MT</i>,42-45,0,8/3,+SR,<b>5</b>,13,ST,T75L,1,<i>11</i>,A5<sup>2</sup>/4<sup>3</sup>\n"
    "1,Probejaeger <i>TD</i>,43-45,+1,11/3,,6,12,NT,B75L,2,,\n";
constexpr const char* kOrdnance =
    "count,name,gun_type,caliber,rof_ife,breakdown,range,dates,special\n"
    "1,Probekanone,AT,50L,3,,,41-45,\"NT, A6<sup>1</sup>/5<sup>3</sup>\"\n";

asl::Situation one(const std::string& path) {
  const load::LoadedFile f = load::load_file(path);
  REQUIRE(f.situations.size() == 1);
  return f.situations[0].situation;
}

/// Every probability and mean of the exact solution.
void check_same_odds(const asl::Situation& a, const asl::Situation& b) {
  const auto pa = asl::compile(a).program, pb = asl::compile(b).program;
  const auto ra = sim::solve_exact(pa), rb = sim::solve_exact(pb);
  for (sim::WindowStats sim::RunResult::*w : {&sim::RunResult::first, &sim::RunResult::run}) {
    const sim::WindowStats &wa = ra.*w, &wb = rb.*w;
    REQUIRE(wa.flags.size() == wb.flags.size());
    for (std::size_t i = 0; i < wa.flags.size(); ++i) CHECK(wa.flags[i].value == wb.flags[i].value);
    REQUIRE(wa.outcomes.size() == wb.outcomes.size());
    for (std::size_t i = 0; i < wa.outcomes.size(); ++i) CHECK(wa.outcomes[i].value == wb.outcomes[i].value);
  }
}

}  // namespace

TEST_CASE("round trip: imported units give the odds of the same units typed by hand", "[import][units]") {
  const test::TempFiles d("salvo-round-trip");
  const import::ImportResult r =
      import::import_vasl_csv({{"german_vehicles.csv", kVehicles}, {"german_ordnance.csv", kOrdnance}});
  REQUIRE(r.units == 3);
  CHECK(r.not_read.empty());
  d.write("lib.toml", r.toml);

  SECTION("a vehicle firing APCR at a vehicle's side") {
    const asl::Situation named = one(d.write("named.toml", R"(ruleset = "asl"
units = "lib.toml"
[firer]
unit = "Probewagen"
ammo = "APCR"
year = 1943
[target]
unit = "Probejaeger"
facing = "side"
[fire]
range = 7
)"));
    // By hand, from the rows: 75L turret ST, ROF 1, circled B11, APCR 4 in 1943; the target
    // 11/3 with no turret difference, size +1.
    const asl::Situation typed = one(d.write("typed.toml", R"(ruleset = "asl"
[firer]
nationality = "german"
gun = "75L"
rof = 1
breakdown = 11
low_ammo = true
gun_type = "ST"
ammo = "APCR"
depletion = 4
year = 1943
[target]
armor = { hull_front = 11, hull_side = 3, turret_front = 11, turret_side = 3 }
size = 1
facing = "side"
[fire]
range = 7
)"));
    CHECK(named.firer == typed.firer);
    CHECK(named.target == typed.target);
    check_same_odds(named, typed);
  }
  SECTION("a Gun firing at a vehicle with superior side turret armor and a red CS#") {
    const asl::Situation named = one(d.write("named.toml", R"(ruleset = "asl"
units = "lib.toml"
[firer]
unit = "Probekanone"
ammo = "APCR"
year = 1942
[target]
unit = "Probewagen"
facing = "side"
)"));
    const asl::Situation typed = one(d.write("typed.toml", R"(ruleset = "asl"
[firer]
nationality = "german"
gun = "50L"
rof = 3
gun_type = "NT"
vehicle = false
ammo = "APCR"
depletion = 6
year = 1942
[target]
armor = { hull_front = 8, hull_side = 3, turret_front = 8, turret_side = 4 }
red_cs = true
facing = "side"
)"));
    CHECK(named.firer == typed.firer);
    CHECK(named.target == typed.target);
    check_same_odds(named, typed);
  }
}
