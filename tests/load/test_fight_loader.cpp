// Fight files ([fight], [[unit]]): what loads into asl::Fight, and one exact message per class
// of bad input, each naming file, line and key.

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl_fight.h"
#include "support/fixture_cases.h"
#include "support/refusals.h"
#include "support/thrown.h"

namespace {

using namespace salvo;

constexpr std::string_view kTwoUnits = R"(ruleset = "asl"
name = "duel"
[fight]
turns = 2
sequence = ["A", "B"]
[[unit]]
name = "Sherman"
side = "A"
target = "Panther"
[unit.firer]
nationality = "american"
gun = "75"
rof = 1
[unit.fire]
range = 8
[unit.as_target]
armor = { hull_front = 6, hull_side = 3, turret_front = 8, turret_side = 6 }
[[unit]]
name = "Panther"
side = "B"
[unit.firer]
gun = "75LL"
[unit.fire]
range = 8
[unit.as_target]
armor = { hull_front = 18, hull_side = 8, turret_front = 14, turret_side = 8 }
hull_down = true
)";

asl::Fight load_fight(std::string_view text) {
  auto loaded = load::load_any_string(text, "f.toml");
  REQUIRE(std::holds_alternative<load::LoadedFight>(loaded));
  return std::get<load::LoadedFight>(loaded).fights.at(0).situation;
}

/// The message of the InputError that loading `text` as "f.toml" throws.
std::string error_of(std::string_view text) {
  return test::message_of<load::InputError>([&] { (void)load::load_any_string(text, "f.toml"); });
}

/// Each case's file, loaded as "f.toml", is refused with exactly its message.
void check_refused(const std::vector<test::Refusal>& cases) { test::check_refusals(error_of, cases); }

// `text` with its first `from` replaced by `to`.
std::string edited(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

// `text` with `lines` added after its first `after` (the end of a line).
std::string inserted(std::string text, std::string_view after, std::string_view lines) {
  return edited(std::move(text), after, std::string(after) + "\n" + std::string(lines));
}

// kTwoUnits with `from` replaced by `to` (once).
std::string edited(std::string_view from, std::string_view to) { return edited(std::string(kTwoUnits), from, to); }

// kTwoUnits with `lines` added after `after` (the end of a line, found once).
std::string inserted(std::string_view after, std::string_view lines) {
  return inserted(std::string(kTwoUnits), after, lines);
}

/// The cases of tests/load/cases/`file`: kTwoUnits with each case's `insert = [after, lines]`, then
/// its `edit = [from, to]`, then its `append` applied, and the message it is refused with.
std::vector<test::Refusal> fixture_refusals(const std::string& file) {
  const auto two = [](const test::FixtureCase& c, const std::string& key) {
    const std::vector<std::string> v = c.strings(key);
    if (v.size() != 2) FAIL(key << ": expected two strings");
    return v;
  };
  std::vector<test::Refusal> out;
  for (const test::FixtureCase& c :
       test::fixture_cases("load/cases/" + file, {"insert", "edit", "append", "message"})) {
    std::string text(kTwoUnits);
    if (c.has("insert")) text = inserted(text, two(c, "insert")[0], two(c, "insert")[1]);
    if (c.has("edit")) text = edited(text, two(c, "edit")[0], two(c, "edit")[1]);
    if (c.has("append")) text += c.string("append");
    out.push_back({text, c.string("message")});
  }
  return out;
}

}  // namespace

TEST_CASE("a fight file loads its units and fight settings", "[load][fight]") {
  const asl::Fight f = load_fight(kTwoUnits);
  CHECK(f.name == "duel");
  CHECK(f.turns == 2);
  REQUIRE(f.sequence.size() == 2);
  CHECK(f.sequence[0] == asl::FightStep::kFireA);
  REQUIRE(f.units.size() == 2);
  const asl::FightUnit& s = f.units[0];
  CHECK(s.name == "Sherman");
  CHECK(s.side == 0);
  CHECK(s.target == std::optional<std::string>("Panther"));
  CHECK(s.firer.nationality == asl::Nationality::kAmerican);
  CHECK(s.firer.rof == 1);
  CHECK(s.fire.range == 8);
  CHECK(s.as_target.armor.hull_side == 3);
  const asl::FightUnit& p = f.units[1];
  CHECK(p.side == 1);
  CHECK_FALSE(p.target.has_value());  // auto
  CHECK(p.firer.gun.designation == "75LL");
  CHECK(p.as_target.hull_down);
  CHECK(p.fire.range == 8);
  CHECK(p.as_target.armor.hull_front == 18);
  CHECK(p.fire.phase == asl::Phase::kPrep);  // the situation file's default
}

TEST_CASE("a Gun as a fight's unit: fired on as a Gun and its crew, no armor needed", "[load][fight]") {
  // The Panther replaced by an AT Gun: its firer no vehicle (with its R#), its as_target a Gun on
  // the Infantry Target Type behind its gunshield, concealed and emplaced.
  std::string text(kTwoUnits);
  const auto at = text.find("[unit.firer]\ngun = \"75LL\"");
  text.replace(at, text.size() - at,
               "[unit.firer]\ngun = \"75L\"\nvehicle = false\nrepair = 3\n[unit.fire]\nrange = 8\n[unit.as_target]\n"
               "type = \"infantry\"\ngun = true\ngunshield = true\nconcealed = true\nemplaced = true\nsize = 1\n");
  const asl::Fight f = load_fight(text);
  const asl::FightUnit& g = f.units.at(1);
  CHECK_FALSE(g.firer.vehicle);
  CHECK(g.firer.repair == std::optional<int>(3));
  CHECK(g.as_target.type == asl::TargetType::kInfantry);
  CHECK(g.as_target.gun);
  CHECK(g.as_target.gunshield);
  CHECK(g.as_target.emplaced);
  CHECK(g.as_target.concealed);
}

TEST_CASE("a file without [fight] or [[unit]] is a situation file", "[load][fight]") {
  auto loaded = load::load_any_string("ruleset = \"asl\"\n", "s.toml");
  CHECK(std::holds_alternative<load::LoadedFile>(loaded));
}

TEST_CASE("bad fight files are refused naming file line and key", "[load][fight][input]") {
  // tests/load/cases/fight-refused.toml: 25 cases.
  const std::vector<test::Refusal> cases = fixture_refusals("fight-refused.toml");
  CHECK(cases.size() == 25);
  check_refused(cases);
  // Settings of movement hold in every phase of the unit, as in a duel (the D3.32 ambush, examples/fights).
  const asl::Fight moving = load_fight(
      inserted("hull_down = true", "moving = true\nmp_in_los = 2")
          .replace(std::string(kTwoUnits).find("range = 8"), 9, "range = 8\nphase = \"defensive\"\nmotion = true"));
  CHECK(moving.units[0].fire.motion);
  CHECK(moving.units[1].as_target.mp_in_los == std::optional<double>(2.0));
  CHECK(error_of(edited("name = \"Panther\"", "name = \"auto\"")).find("\"auto\" is target = \"auto\"") !=
        std::string::npos);
}

namespace {

std::vector<load::FightPoint> fights_of(std::string_view text) {
  auto loaded = load::load_any_string(text, "f.toml");
  REQUIRE(std::holds_alternative<load::LoadedFight>(loaded));
  std::vector<load::FightPoint> out;
  for (const load::FightPoint& p : std::get<load::LoadedFight>(loaded).fights) out.push_back(p);
  return out;
}

}  // namespace

TEST_CASE("a unit's range to an enemy, the same both ways", "[load][fight]") {
  // The Panther at 12 hexes, its own fire.range 8 unused: the pair's range is the one listed.
  const asl::Fight f = load_fight(inserted("target = \"Panther\"", "range = { Panther = 12 }"));
  REQUIRE(f.units[0].ranges.size() == 1);
  CHECK(asl::pair_range(f, 0, 1) == 12);
  CHECK(asl::pair_range(f, 1, 0) == 12);
  CHECK(asl::fight_situation(f, 1, 0).fire.range == 12);
  // Each unit lists a range to the other, and they differ.
  std::string both = inserted("target = \"Panther\"", "range = { Panther = 12 }");
  both.replace(both.find("side = \"B\""), 10, "side = \"B\"\nrange = { Sherman = 10 }");
  check_refused({
      {inserted("target = \"Panther\"", "range = { Tiger = 12 }"),
       "f.toml:10: unit.Sherman.range.Tiger: no unit is named \"Tiger\""},
      {inserted("hull_down = true",
                "[[unit]]\nname = \"Jumbo\"\nside = \"A\"\n"
                "range = { Sherman = 3 }\n[unit.fire]\nrange = 8\n[unit.as_target]\n"
                "armor = \"unarmored\""),
       "f.toml:31: unit.Jumbo.range.Sherman: \"Sherman\" is on Jumbo's own side: a range is to an enemy"},
      {both,
       "f.toml:10: unit.Sherman.range.Panther: Sherman lists 12 hexes to Panther and Panther 10 to Sherman: a range "
       "is the same both ways"},
  });
}

TEST_CASE("a fight's [sweep]: one fight per point, each checked", "[load][fight][sweep]") {
  // Dotted keys, quoted or as sub-tables, over [fight] turns, a unit's settings and a range.
  const std::string sweep =
      "[sweep]\n\"unit.Sherman.range.Panther\" = [6, 10]\n\"fight.turns\" = [1, 3]\n"
      "[sweep.unit.Panther.as_target.armor]\nhull_front = [18, 11]\n";
  const auto points = fights_of(std::string(kTwoUnits) + sweep);
  REQUIRE(points.size() == 8);
  // First axis slowest: (range, turns, hull_front) = (6, 1, 18), (6, 1, 11), (6, 3, 18), ...
  const asl::Fight& last = points[7].situation;
  CHECK(asl::pair_range(last, 0, 1) == 10);
  CHECK(last.turns == 3);
  CHECK(last.units[1].as_target.armor.hull_front == std::optional<int>(11));
  CHECK(asl::pair_range(points[0].situation, 0, 1) == 6);
  CHECK(points[1].situation.units[1].as_target.armor.hull_front == std::optional<int>(11));
  CHECK(points[1].sweep_values ==
        std::vector<std::pair<std::string, std::string>>{{"unit.Sherman.range.Panther", "6"},
                                                         {"fight.turns", "1"},
                                                         {"unit.Panther.as_target.armor.hull_front", "11"}});
  // Errors: an unknown key with what it may have meant, a value out of range, a rules conflict
  // at one point (the sweep point named, the line of the axis).
  check_refused({
      {std::string(kTwoUnits) + "[sweep]\n\"unit.Sherman.fire.rnage\" = [6]\n",
       "f.toml:29: unit.Sherman.fire.rnage: unknown key (did you mean unit.Sherman.fire.range?)"},
      {std::string(kTwoUnits) + "[sweep]\n\"unit.Sherman.firer.rof\" = [1, 9]\n",
       "f.toml:29: unit.Sherman.firer.rof: expected an integer in 0..3, got 9"},
      {std::string(kTwoUnits) + "[sweep]\n\"unit.Sherman.fire.range\" = [8, 6]\n",
       "f.toml:24: unit.Panther.fire.range: Panther fires at 8 hexes and Sherman at 6: units fire at each other at one "
       "range (fire.range of both, or range.Sherman of one) (sweep point: unit.Sherman.fire.range=6)"},
  });
  // The file's own values may hold only once swept: its points are checked, not the base.
  CHECK(fights_of(edited("range = 8\n[unit.as_target]\narmor = { hull_front = 18",
                         "range = 6\n[unit.as_target]\narmor = { hull_front = 18") +
                  "[sweep]\n\"unit.Panther.fire.range\" = [8]\n")
            .size() == 1);
}

TEST_CASE("a fight's infantry units: their infantry keys and rally_drm", "[load][fight]") {
  const asl::Fight f = load_fight(R"(ruleset = "asl"
[[unit]]
name = "a"
side = "A"
rally_drm = -1
[unit.firer]
weapon = "infantry"
fp = 4
normal_range = 6
mg = { fp = 2, normal_range = 8, rof = 1 }
[unit.fire]
range = 3
[unit.as_target]
type = "infantry"
morale = 7
broken_morale = 8
[[unit]]
name = "b"
side = "B"
[unit.firer]
weapon = "infantry"
fp = 6
normal_range = 3
[unit.fire]
range = 3
[unit.as_target]
type = "infantry"
morale = 8
tem = 2
)");
  REQUIRE(f.units.size() == 2);
  CHECK(f.units[0].rally_drm == std::optional<int>(-1));
  CHECK_FALSE(f.units[1].rally_drm);
  CHECK(asl::is_infantry(f.units[0]));
  CHECK(f.units[0].firer.mg == asl::SwMg{2, 8, 1, 12});
  CHECK(f.units[0].as_target.broken_morale == std::optional<int>(8));
  CHECK(f.units[1].as_target.tem == 2);
  CHECK(f.units[1].firer.fp == 6);
}
