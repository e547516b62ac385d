// Round trip: a unit imported from a counter listing (synthetic rows, made-up values) and then
// named in a situation gives the same situation, and so the same exact odds, as the same values
// typed by hand.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <stdexcept>
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

/// The situation file tests/import/round_trip/NAME, loaded from the test's directory (where
/// lib.toml is).
asl::Situation fixture(const test::TempFiles& d, const std::string& name) {
  const std::string path = std::string(SALVO_SOURCE_DIR) + "/tests/import/round_trip/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return one(d.write(name, text.str()));
}

/// STEM.named.toml names the imported units, STEM.typed.toml types their values by hand: the
/// same firer, the same target and the same odds.
void check_round_trip(const test::TempFiles& d, const std::string& stem) {
  const asl::Situation named = fixture(d, stem + ".named.toml");
  const asl::Situation typed = fixture(d, stem + ".typed.toml");
  CHECK(named.firer == typed.firer);
  CHECK(named.target == typed.target);
  check_same_odds(named, typed);
}

}  // namespace

TEST_CASE("round trip: imported units give the odds of the same units typed by hand", "[import][units]") {
  const test::TempFiles d("salvo-round-trip");
  const import::ImportResult r =
      import::import_vasl_csv({{"german_vehicles.csv", kVehicles}, {"german_ordnance.csv", kOrdnance}});
  REQUIRE(r.units == 3);
  CHECK(r.not_read.empty());
  d.write("lib.toml", r.toml);

  SECTION("a vehicle firing APCR at a vehicle's side") { check_round_trip(d, "apcr-at-side"); }
  SECTION("a Gun firing at a vehicle with superior side turret armor and a red CS#") {
    check_round_trip(d, "gun-at-red-cs");
  }
}
