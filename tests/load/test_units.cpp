// Unit libraries (docs/units.md): the format, a situation's and a fight's values taken from a
// unit under the file's own, Depletion Numbers by year (C8.91), name matching, and one exact
// message per class of bad input.

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <variant>

#include "salvo/load/asl_loader.h"
#include "salvo/load/units.h"
#include "salvo/rules/asl.h"
#include "support/refusals.h"
#include "support/temp_files.h"
#include "support/thrown.h"

namespace {

using namespace salvo;

constexpr std::string_view kLibrary = R"(library = "asl-units"
[[unit]]
name = "Test Tank A"
kind = "vehicle"
class = "MT"
dates = "42-45"
[unit.firer]
nationality = "american"
gun = "75"
rof = 2
breakdown = 11
low_ammo = true
gun_type = "ST"
stabilized = true
[unit.target]
armor = { hull_front = 6, hull_side = 3, turret_front = 8, turret_side = 4 }
size = 1
red_cs = true
[unit.movement]
mp_allotment = 14
red_mp = true

[[unit]]
name = "Test Gun B"
kind = "gun"
[unit.firer]
nationality = "german"
gun = "75L"
rof = 3
gun_type = "NT"
[unit.depletion]
APCR = { 1941 = 4, 1943 = 6 }
HEAT = 7
)";

/// A directory with the library and the files of a test, removed at the end.
struct Dir : test::TempFiles {
  explicit Dir(std::string_view library = kLibrary) : TempFiles("salvo-units-test") { write("lib.toml", library); }
  /// Write the ASL file `name` that names the library (its lines 1 and 2), then `body`; its path.
  std::string write_using_library(const std::string& name, std::string_view body) const {
    return write(name, "ruleset = \"asl\"\nunits = [\"lib.toml\"]\n" + std::string(body));
  }
};

asl::Situation one(const std::string& path) {
  const load::LoadedFile f = load::load_file(path);
  REQUIRE(f.situations.size() == 1);
  return f.situations[0].situation;
}

std::string error_of(const std::string& path) {
  return test::message_of<load::InputError>([&] { (void)load::load_any_string(load::read_text_file(path), path); });
}

}  // namespace

TEST_CASE("units: a situation naming units equals the same situation typed by hand", "[units]") {
  const Dir d;
  const std::string named = d.write("named.toml", R"(ruleset = "asl"
units = "lib.toml"
[firer]
unit = "Test Tank A"
[target]
unit = "test tank a"
facing = "side"
[fire]
range = 5
)");
  // Typed with dotted keys.
  const std::string typed = d.write("typed.toml", R"(ruleset = "asl"
firer.nationality = "american"
firer.gun = "75"
firer.rof = 2
firer.breakdown = 11
firer.low_ammo = true
firer.gun_type = "ST"
firer.stabilized = true
target.armor = { hull_front = 6, hull_side = 3, turret_front = 8, turret_side = 4 }
target.size = 1
target.red_cs = true
target.facing = "side"
fire.range = 5
)");
  const asl::Situation a = one(named), b = one(typed);
  CHECK(a.firer == b.firer);
  CHECK(a.target == b.target);
  CHECK(a.fire.range == 5);
  // The same program, so the same odds.
  CHECK(asl::compile(a).program.num_states() == asl::compile(b).program.num_states());
  const auto notes = asl::compile(a).explain.notes;
  REQUIRE(notes.size() >= 2);
  CHECK(notes[0].find("firer.unit \"Test Tank A\" (") == 0);
  CHECK(notes[0].find("lib.toml:2): kind, nationality, gun, rof, breakdown, low_ammo, gun_type, stabilized from "
                      "the unit") != std::string::npos);
  CHECK(notes[1].find("target.unit \"Test Tank A\"") == 0);
}

TEST_CASE("units: a key written in the file wins over the unit's wherever it is written", "[units]") {
  const Dir d;
  // rof before the unit's name, and an armor aspect swept: both are the file's.
  const std::string path = d.write_using_library("override.toml", R"([firer]
rof = 0
unit = "Test Tank A"
[target]
unit = "Test Tank A"
[sweep]
"target.armor.hull_front" = [11]
)");
  const asl::Situation s = one(path);
  CHECK(s.firer.rof == 0);
  CHECK(s.firer.breakdown == 11);
  CHECK(s.target.armor.hull_front == 11);
  CHECK(s.target.armor.hull_side == 3);
  const auto notes = asl::compile(s).explain.notes;
  CHECK(notes[0].find("; set in this file instead: rof") != std::string::npos);
  CHECK(notes[1].find("target.unit \"Test Tank A\"") == 0);
}

TEST_CASE("units: a sweep over units keeps the file's values on every point", "[units]") {
  const Dir d;
  const std::string path = d.write_using_library("sweep.toml", R"([firer]
gun_type = "T"
[target]
unit = "Test Tank A"
[sweep]
"firer.unit" = ["Test Tank A", "Test Gun B"]
)");
  const load::LoadedFile f = load::load_file(path);
  REQUIRE(f.situations.size() == 2);
  const asl::Situation a = f.situations[0].situation, b = f.situations[1].situation;
  CHECK(a.firer.gun.designation == "75");
  CHECK(a.firer.vehicle);
  CHECK(b.firer.gun.designation == "75L");
  CHECK_FALSE(b.firer.vehicle);
  CHECK(b.firer.rof == 3);
  CHECK(a.firer.gun_type == asl::GunType::kT);  // the file's, over both units'
  CHECK(b.firer.gun_type == asl::GunType::kT);
}

TEST_CASE("units: special ammunition takes the unit's Depletion Number of the year (C8.91)", "[units]") {
  const Dir d;
  // The file `name`: "Test Gun B" fires, with `extra` keys of [firer].
  auto gun_b = [&](const std::string& name, std::string_view extra) {
    return d.write_using_library(name, "[firer]\nunit = \"Test Gun B\"\n" + std::string(extra));
  };
  auto depletion = [&](std::string_view extra) { return one(gun_b("dep.toml", extra)).firer.depletion; };
  // { 1941 = 4, 1943 = 6 }: 4 in 1941 and 1942, 6 from 1943.
  CHECK(depletion("ammo = \"APCR\"\nyear = 1941\n") == 4);
  CHECK(depletion("ammo = \"APCR\"\nyear = 1942\n") == 4);
  CHECK(depletion("ammo = \"APCR\"\nyear = 1943\n") == 6);
  CHECK(depletion("ammo = \"APCR\"\nyear = 1945\n") == 6);
  CHECK(depletion("ammo = \"HEAT\"\nyear = 1944\n") == 7);
  CHECK(depletion("ammo = \"APCR\"\nyear = 1944\ndepletion = 3\n") == 3);  // the file's
  CHECK(depletion("ammo = \"AP\"\n") == std::nullopt);
  const std::string early = gun_b("early.toml", "ammo = \"APCR\"\nyear = 1940\n");
  CHECK(error_of(early) == early +
                               ":4: firer.unit: the unit \"Test Gun B\" has no APCR in 1940: it lists it only "
                               "from 1941 (C8.91)");
  const std::string none = gun_b("none.toml", "ammo = \"APDS\"\n");
  CHECK(error_of(none) == none + ":4: firer.unit: the unit \"Test Gun B\" (" + d.file("lib.toml") +
                              ") lists no APDS Depletion Number: set firer.depletion if the counter has the "
                              "ammunition (C8.1)");
}

TEST_CASE("units: names match without regard to case spaces and punctuation", "[units]") {
  const load::UnitLibraries libs = load::UnitLibraries::parse(kLibrary, "lib.toml");
  for (const char* name : {"Test Tank A", "test tank a", "TEST-TANK-A", "testtanka", " Test  Tank (A) "})
    CHECK(libs.find(name).has_value());
  CHECK_FALSE(libs.find("Test Tank").has_value());
  CHECK(libs.closest("Test Tnak A") == std::vector<std::string>{"Test Tank A"});
  CHECK(libs.closest("Panther").empty());
  CHECK(load::unit_key("PzKpfw IV-H") == "pzkpfwivh");
}

TEST_CASE("units: a fight's unit takes its firer and target values from the library", "[units]") {
  const Dir d;
  const std::string path = d.write_using_library("fight.toml", R"([fight]
turns = 2
[[unit]]
name = "A1"
unit = "Test Tank A"
side = "A"
[unit.firer]
rof = 1
[[unit]]
name = "B1"
unit = "Test Tank A"
side = "B"
)");
  const auto loaded = load::load_any_string(load::read_text_file(path), path);
  const asl::Fight f = std::get<load::LoadedFight>(loaded).fights.at(0).situation;
  const asl::FightUnit& u = f.units[0];
  CHECK(u.firer.gun.designation == "75");
  CHECK(u.firer.rof == 1);  // the file's
  CHECK(u.firer.breakdown == 11);
  CHECK(u.as_target.armor.turret_side == 4);
  CHECK(u.as_target.red_cs);
  REQUIRE(u.unit_notes.size() == 1);
  CHECK(asl::explain(f).find("A1: unit = \"Test Tank A\" (") != std::string::npos);
  CHECK(f.units[1].firer.rof == 2);  // B1 writes no key: the library's, A1's rof = 1 stays A1's
}

TEST_CASE("units: bad input gets one exact message", "[units]") {
  const Dir d;
  const std::string lib = d.file("lib.toml");
  auto situation = [&](std::string_view body) { return d.write("s.toml", body); };

  SECTION("an unknown unit, with the closest names") {
    const std::string p = situation("ruleset = \"asl\"\nunits = \"lib.toml\"\n[firer]\nunit = \"Test Tnak A\"\n");
    CHECK(error_of(p) ==
          p + ":4: firer.unit: no unit named \"Test Tnak A\" in " + lib + " (did you mean \"Test Tank A\"?)");
  }
  SECTION("a unit named with no library") {
    const std::string p = situation("ruleset = \"asl\"\n[target]\nunit = \"Test Tank A\"\n");
    CHECK(error_of(p) == p + ":3: target.unit: no unit library: add units = [\"my-units.toml\"] at the top of the "
                             "file (docs/units.md)");
  }
  SECTION("a library no unit uses") {
    const std::string p = situation("ruleset = \"asl\"\nunits = \"lib.toml\"\n[fire]\nrange = 3\n");
    CHECK(error_of(p) == p + ":2: units: has no effect here: no firer.unit, target.unit or movement.unit names a "
                             "unit: remove it");
  }
  SECTION("a library that cannot be read") {
    const std::string p = situation("ruleset = \"asl\"\nunits = \"missing.toml\"\n[firer]\nunit = \"x\"\n");
    CHECK(error_of(p).rfind(p + ":2: units: in a unit library: " + d.file("missing.toml") + ": cannot read", 0) == 0);
  }
  SECTION("a situation file given as a library") {
    d.write("notlib.toml", "ruleset = \"asl\"\n[fire]\nrange = 3\n");
    const std::string p = situation("ruleset = \"asl\"\nunits = \"notlib.toml\"\n[firer]\nunit = \"x\"\n");
    CHECK(error_of(p) == p + ":2: units: in a unit library: " + d.file("notlib.toml") +
                             ":1: library: this is a situation or fight file, not a unit library (a library "
                             "starts with library = \"asl-units\", docs/units.md)");
  }
  SECTION("a library given as a situation") {
    CHECK(error_of(lib) == lib +
                               ":1: library: this is a unit library, not a situation: name it in a situation "
                               "with units = [\"lib.toml\"] (docs/units.md)");
  }
  SECTION("a rules conflict on a unit's value is blamed on the line that names the unit") {
    const std::string p = situation(
        "ruleset = \"asl\"\nunits = \"lib.toml\"\n[firer]\nunit = \"Test Tank A\"\nammo = \"APCR\"\ndepletion = 5\n");
    CHECK(error_of(p) == p + ":4: firer.gun: no APCR To Kill entry for 75 (C7.3); give override.basic_tk");
  }
  SECTION("a Gun as a target") {
    const std::string p = situation("ruleset = \"asl\"\nunits = \"lib.toml\"\n[target]\nunit = \"Test Gun B\"\n");
    CHECK(error_of(p) == p + ":4: target.unit: \"Test Gun B\" is a Gun: a Gun as a target is not modelled yet");
  }
}

TEST_CASE("units: a library is read strictly with file line and key", "[units]") {
  auto error = [](std::string_view text) {
    return test::message_of<load::InputError>([&] { (void)load::UnitLibraries::parse(text, "u.toml"); });
  };
  const std::string head = "library = \"asl-units\"\n[[unit]]\nname = \"X\"\nkind = \"vehicle\"\n";
  test::check_refusals(
      error,
      {
          {"[[unit]]\nname = \"X\"\n",
           "u.toml:1: library: missing (required): a unit library starts with library = \"asl-units\" (docs/units.md)"},
          {"library = \"units\"\n", "u.toml:1: library: expected \"asl-units\", got \"units\""},
          {"library = \"asl-units\"\n[[unit]]\nkind = \"vehicle\"\n", "u.toml:2: unit[1].name: missing (required)"},
          {head + "[unit.firer]\nyear = 1944\n",
           "u.toml:6: unit[1].firer.year: not a counter value: a unit library holds what the counter prints; set it in "
           "the situation"},
          {head + "[unit.firer]\ngunn = \"75\"\n",
           "u.toml:6: unit[1].firer.gunn: unknown key (did you mean unit[1].firer.gun?)"},
          {head + "[unit.firer]\nrof = 7\n", "u.toml:6: unit[1].firer.rof: expected an integer in 0..3, got 7"},
          {head + "[unit.target]\narmor = { hull_front = 5 }\n",
           "u.toml:6: unit[1].target.armor.hull_front: expected an armor factor (0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26 "
           "or \"unarmored\"), got 5"},
          {head + "[unit.depletion]\nAPCR = { 42 = 5 }\n",
           "u.toml:6: unit[1].depletion.APCR.42: expected a year 1939..1953 as the key (the year the number applies "
           "from)"},
          {head + "[unit.depletion]\nAP = 5\n",
           "u.toml:6: unit[1].depletion.AP: unknown key (did you mean unit[1].depletion.APCR?)"},
          {head + "[[unit]]\nname = \"x\"\nkind = \"gun\"\n",
           "u.toml:6: unit[2].name: \"x\" is the name of the unit at line 2 (names match without regard to case, "
           "spaces and punctuation)"},
          {"library = \"asl-units\"\n[[unit]]\nname = \"X\"\nkind = \"tank\"\n",
           "u.toml:4: unit[1].kind: expected one of vehicle, gun, got \"tank\""},
      });
}

TEST_CASE("units: gun designations are read without regard to case", "[units]") {
  for (const char* g : {"75ll", "75Ll", "75LL"}) {
    const auto gun = asl::parse_gun(g);
    REQUIRE(gun.has_value());
    CHECK(gun->designation == "75LL");
    CHECK(gun->barrel == asl::Gun::Barrel::kVeryLong);
  }
  CHECK(asl::parse_gun("37*")->designation == "37*");
  CHECK_FALSE(asl::parse_gun("75X").has_value());
}
