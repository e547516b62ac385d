// 1943 chart files and situation files: the shipped examples load, and every chart defect is
// refused with file:line and a clear message.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "salvo/load/toml_util.h"
#include "salvo/load/w1943_loader.h"
#include "salvo/sim/exact.h"
#include "support/fixture_cases.h"
#include "support/refusals.h"
#include "support/thrown.h"

using namespace salvo;

namespace {

const std::string kDir = std::string(SALVO_SOURCE_DIR) + "/examples/1943";
const std::string kChart = kDir + "/illustrative-chart.toml";

/// The illustrative chart's text with `from` replaced by `to` (which must be present).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = load::read_text_file(kChart);
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

std::string chart_error(const std::string& text) {
  return test::message_of<load::InputError>([&] { load::load_chart_string(text, "chart.toml"); });
}

/// Line of the first line that starts with `what` (the header comments mention names too).
int line_of(const std::string& text, const std::string& what) {
  const auto at = text.find("\n" + what);
  REQUIRE(at != std::string::npos);
  return 2 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::string situation_error(const std::string& text) {
  return test::message_of<load::InputError>([&] { load::load_w1943_string(text, "s.toml", kDir); });
}

/// The illustrative chart with `from` replaced by `to`, refused with `message` at the line that
/// starts with `at` (or `offset` lines from it).
test::Refusal chart_refusal(const std::string& from, const std::string& to, const std::string& at,
                            const std::string& message, int offset = 0) {
  const std::string text = edited(from, to);
  return {text, "chart.toml:" + std::to_string(line_of(text, at) + offset) + ": " + message};
}

}  // namespace

TEST_CASE("the illustrative chart file holds the values of illustrative_chart()", "[w1943][load]") {
  const w1943::Chart file = load::load_chart_file(kChart);
  const w1943::Chart code = w1943::illustrative_chart();
  CHECK(file.name == code.name);
  CHECK(file.hash() == code.hash());
  CHECK(load::read_text_file(kChart).rfind("# ILLUSTRATIVE VALUES", 0) == 0);
}

TEST_CASE("the 1943 example situations load and compile", "[w1943][load]") {
  for (const char* name :
       {"rifles-vs-infantry.toml", "at-gun-vs-tank.toml", "hmg-three-turns.toml", "mortar-multi-turn.toml"}) {
    INFO(name);
    const load::W1943File f = load::load_w1943_file(kDir + "/" + name);
    REQUIRE(!f.situations.empty());
    for (const auto& p : f.situations) {
      const w1943::Compiled c = w1943::compile(*f.chart, p.situation);
      c.program.validate();
      CHECK(sim::solve_exact(c.program).run.end_reasons.size() == c.program.end_reason_names.size());
    }
  }
  const load::W1943File f = load::load_w1943_file(kDir + "/rifles-vs-infantry.toml");
  CHECK(f.sweep_keys == std::vector<std::string>{"firer.bases_firing"});
  CHECK(f.situations.size() == 3);
  CHECK(f.situations[1].situation.firer.bases_firing == 4);
}

TEST_CASE("a chart with a missing result box is refused", "[w1943][load][errors]") {
  test::check_refusals(
      chart_error,
      {
          chart_refusal("[artillery.kill.anti_tank]\n1 = \"none\"\n2 = \"none\"\n3 = \"I\"\n4 = \"D\"\n",
                        "[artillery.kill.anti_tank]\n1 = \"none\"\n2 = \"none\"\n3 = \"I\"\n",
                        "[artillery.kill.anti_tank]", "artillery.kill.anti_tank: missing result for die face 4"),
          chart_refusal("7 = \"D\"\n", "", "[small_arms.results]", "small_arms.results: missing result for total 7"),
          chart_refusal("12 = \"K\"\n", "", "[small_arms.results]", "small_arms.results: missing result for total 12"),
          chart_refusal("3 = \"I\"", "3 = \"X\"", "3 = \"X\"",
                        "artillery.kill.anti_tank.3: expected one of none, I, D, K, got \"X\""),
      });
}

TEST_CASE("a chart with overlapping or gapped range bands is refused", "[w1943][load][errors]") {
  // Blamed on the band's header, the line before its `from`.
  test::check_refusals(
      chart_error,
      {
          chart_refusal("from = 400\nto = 1000\nmodifier = -2", "from = 300\nto = 1000\nmodifier = -2", "from = 300",
                        "small_arms.range_bands[1]: overlaps band 0 (300..1000 yards vs 0..399)", -1),
          chart_refusal("from = 1000\nto = 2000", "from = 1100\nto = 2000", "from = 1100",
                        "artillery.range_bands[1]: gap after band 0 (yards 1000..1099 are in no band)", -1),
          chart_refusal("from = 0\nto = 399", "from = 50\nto = 399", "from = 50",
                        "small_arms.range_bands[0]: the first band must start at 0 yards, got 50", -1),
      });
}

TEST_CASE("a chart with a missing or unknown modifier or key is refused", "[w1943][load][errors]") {
  test::check_refusals(
      chart_error,
      {
          chart_refusal("at_rushing = 1\n", "", "[small_arms.modifiers]",
                        "small_arms.modifiers: missing modifier at_rushing"),
          chart_refusal("moving_target = -1\nmoved = -2\ndamaged = -1\n\n[artillery.anti_tank.to_kill]",
                        "moved = -2\ndamaged = -1\n\n[artillery.anti_tank.to_kill]", "[artillery.anti_tank.to_hit]",
                        "artillery.anti_tank: missing modifier moving_target (give it in to_hit or to_kill)"),
          chart_refusal("at_prone = -2", "at_prne = -2", "at_prne",
                        "small_arms.modifiers.at_prne: unknown key (did you mean small_arms.modifiers.at_prone?)"),
          chart_refusal("dice = \"2d6\"", "dice = \"3d6\"",
                        "dice =", "small_arms.dice: expected one of 1d6, 2d6, got \"3d6\""),
          {"name = \"x\"\n", "chart.toml:1: small_arms: missing (required)"},
      });
}

TEST_CASE("1943 situation files: chart path, unknown keys, rules conflicts", "[w1943][load][errors]") {
  const std::string head = "ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n";
  CHECK(situation_error(head + "[fire]\nrange = 300\n") == test::kNoError);
  test::check_refusals(
      situation_error,
      {
          {"ruleset = \"1943\"\n", "s.toml:1: chart: required: the chart file (chart = \"path/to/chart.toml\")"},
          {"ruleset = \"1943\"\nchart = \"nope.toml\"\n", "s.toml:2: chart: cannot read " + kDir + "/nope.toml"},
          {head + "[fire]\nrnage = 3\n", "s.toml:4: fire.rnage: unknown key (did you mean fire.range?)"},
          {head + "[firer]\nmg = \"light\"\n[target]\ntype = \"vehicle\"\n[fire]\nkind = "
                  "\"direct_artillery\"\nrange = 300\n",
           "s.toml:4: firer.mg: light machine guns may not fire in any anti-tank capacity (3.7)"},
          {head + "[firer]\nweapon = \"rifle\"\n[sweep]\n\"fire.range\" = [300, 900]\n",
           "s.toml:6: fire.range: 900 yards is beyond the 800-yard range of rifle (Base and Range chart) (sweep point: "
           "fire.range=900)"},
      });
  CHECK(situation_error(head + "[firer]\nshell_size = \"88mm\"\n")
            .rfind("s.toml:4: firer.shell_size: expected a category 0..11 or one of", 0) == 0);
}

TEST_CASE("1943 situation files: a machine gun takes no ammunition type (3.6, 3.7)", "[w1943][load][errors]") {
  // A heavy MG against a half-track at 300 yards. With no "Firing
  // H.E." the first shot kills with 21/36 * 1/2 = 7/24 (derived in test_w1943_rules.cpp).
  const std::string mg =
      "ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n[firer]\nmg = \"heavy\"\n"
      "weapon = \"hmg\"\nweapon_value = 2\n[target]\ntype = \"vehicle\"\ndefense = 1\n[fire]\n"
      "kind = \"direct_artillery\"\nrange = 300\n";
  const load::W1943File f = load::load_w1943_string(mg, "s.toml", kDir);
  REQUIRE(f.situations.size() == 1);
  const sim::RunResult r = sim::solve_exact(w1943::compile(*f.chart, f.situations[0].situation).program);
  CHECK(r.first.flags[w1943::kFlagResultK].value == Approx(7.0 / 24.0).margin(1e-12));
  const std::string he = mg + "[sweep]\n\"firer.ammo\" = [\"HE\"]\n";
  CHECK(
      situation_error(mg.substr(0, mg.find("weapon_value")) + "ammo = \"HE\"\n" + mg.substr(mg.find("weapon_value"))) ==
      "s.toml:6: firer.ammo: expected no ammunition type for a machine gun (it fires no H.E. or APCP shells, 3.6, "
      "3.7), got \"HE\"");
  CHECK(situation_error(he) ==
        "s.toml:14: firer.ammo: expected no ammunition type for a machine gun (it fires no H.E. or APCP shells, 3.6, "
        "3.7), got \"HE\" (sweep point: firer.ammo=HE)");
}

TEST_CASE("1943 situation files: fire.range is required", "[w1943][load][errors]") {
  const std::string head = "ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n";
  const std::string missing =
      "s.toml:{}: fire.range: missing (required): the range in yards, closest point of the "
      "firer to closest point of the target (3.5, 3.6)";
  auto at = [&](int line) { return fmt::format(fmt::runtime(missing), line); };
  CHECK(situation_error(head + "[firer]\nweapon = \"rifle\"\nbases = 6\n[target]\nbases = 4\n[fire]\n"
                               "kind = \"small_arms\"\n") == at(8));
  CHECK(situation_error(head) == at(1));
  CHECK(situation_error(head + "[sweep]\n\"fire.range\" = [100, 300]\n") == test::kNoError);
}

namespace {

/// A situation file with the given lines in each table (each line ends in \n).
std::string sit(const std::string& firer, const std::string& target, const std::string& fire) {
  return "ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n[firer]\n" + firer + "[target]\n" + target +
         "[fire]\n" + fire;
}

/// `text`, refused at the line that starts with `at`: "s.toml:<line>: <message>".
test::Refusal refused_at(const std::string& text, const std::string& at, const std::string& message) {
  return {text, "s.toml:" + std::to_string(line_of(text, at)) + ": " + message};
}

/// The cases of tests/w1943/cases/`file`: each the situation file of its `firer`, `target` and
/// `fire` lines, refused at the line that starts with its `at` with its `message`.
std::vector<test::Refusal> fixture_refusals(const std::string& file) {
  std::vector<test::Refusal> out;
  for (const test::FixtureCase& c :
       test::fixture_cases("w1943/cases/" + file, {"firer", "target", "fire", "at", "message"}))
    out.push_back(
        refused_at(sit(c.lines("firer"), c.lines("target"), c.lines("fire")), c.string("at"), c.string("message")));
  return out;
}

/// Each case of tests/w1943/cases/`file` is refused with exactly its message; `count` cases (so
/// that none goes missing unseen).
void check_fixture(const std::string& file, std::size_t count) {
  const std::vector<test::Refusal> cases = fixture_refusals(file);
  CHECK(cases.size() == count);
  test::check_refusals(situation_error, cases);
}

}  // namespace

TEST_CASE("1943 situation files: a *_mortar weapon is a mortar (3.7)", "[w1943][load][errors]") {
  const std::string inf = "type = \"infantry\"\n";
  const std::string art = "kind = \"direct_artillery\"\nrange = 500\n";
  check_fixture("mortar-refused.toml", 4);
  // 3.7 names only medium and light mortars: a heavy mortar fires after moving, with the Moved
  // modifier (3.6).
  CHECK(situation_error(sit("weapon = \"heavy_mortar\"\nshell_size = \"heavy_mortar\"\nmoved = true\n", inf, art)) ==
        test::kNoError);
  // The shell size of a mortar comes from the Weapon Size Index (medium mortar: 3).
  CHECK(situation_error(sit("weapon = \"medium_mortar\"\n", inf, art)) == test::kNoError);
}

TEST_CASE("1943 situation files: weapons fire only what they can (3.1, 3.2, 3.7)", "[w1943][load][errors]") {
  const std::string tank = "type = \"vehicle\"\n";
  const std::string sa = "kind = \"small_arms\"\nrange = 300\n";
  check_fixture("weapon-refused.toml", 8);
  // Infantry assaulting armor use the Small Arms chart (3.5).
  CHECK(situation_error(sit("weapon = \"atr\"\nweapon_value = 3\n", tank + "defense = 4\n", sa)) == test::kNoError);
}

TEST_CASE("1943 situation files: the MG type follows the weapon, contradictions are refused", "[w1943][load][errors]") {
  const std::string inf = "type = \"infantry\"\nbases = 4\n";
  const std::string sa = "kind = \"small_arms\"\nrange = 300\n";
  check_fixture("mg-refused.toml", 5);
  // weapon = "hmg" alone is a heavy MG: the Hmg modifier and the jam check apply.
  const load::W1943File f = load::load_w1943_string(sit("weapon = \"hmg\"\n", inf, sa), "s.toml", kDir);
  CHECK(w1943::mg_of(f.situations.at(0).situation.firer) == w1943::MachineGun::kHeavy);
}

TEST_CASE("1943 situation files: contradictory settings and settings no rule uses are refused",
          "[w1943][load][errors]") {
  check_fixture("settings-refused.toml", 14);
}

TEST_CASE("1943 messages: a chart directory, a missing shell size, a short array", "[w1943][load][errors]") {
  // Direct artillery at personnel without a shell size: the line of fire.kind, which needs it,
  // whether or not there is a [firer] table.
  const std::string needs =
      "firer.shell_size: missing (required for direct artillery fire at personnel): a category 0..11 or a name of the "
      "3.6 Weapon Size Index";
  test::check_refusals(
      situation_error,
      {
          // The chart key names a directory: the situation file's line and key.
          {"ruleset = \"1943\"\n\nchart = \".\"\n",
           "s.toml:3: chart: expected a chart file, got a directory (" + kDir + "/)"},
          {"ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n[target]\ntype = \"infantry\"\n[fire]\nkind = "
           "\"direct_artillery\"\nrange = 300\n",
           "s.toml:6: " + needs},
          refused_at(
              sit("weapon = \"field_gun\"\n", "type = \"infantry\"\n", "range = 300\nkind = \"direct_artillery\"\n"),
              "kind =", needs),
      });
  // A shell_size_kill array of the wrong length says how long it was.
  const std::string shell = "shell_size_kill = [-2, -1, -1, 0, 0, 1, 1, 1, 2, 2, 2, 3]";
  const std::string expected =
      "artillery.shell_size_kill: expected an array of 12 integers (shell size categories 0..11), got ";
  test::check_refusals(
      chart_error,
      {
          chart_refusal(shell, "shell_size_kill = [1, 2]", "shell_size_kill", expected + "an array of 2 values"),
          chart_refusal(shell, "shell_size_kill = [1]", "shell_size_kill", expected + "an array of 1 value"),
          chart_refusal(shell, "shell_size_kill = 3", "shell_size_kill", expected + "3"),
      });
}

TEST_CASE("1943 situation files: packed needs two bases (3.5, 3.6)", "[w1943][load][errors]") {
  const std::string two_or_more =
      ": target.packed: expected a target unit of 2 or more bases (3.5, 3.6: bases within 10 yards of each other), got "
      "true with target.bases = 1";
  test::check_refusals(situation_error,
                       {
                           {"ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n[firer]\nweapon = \"rifle\"\n"
                            "bases = 3\n[target]\ntype = \"infantry\"\nbases = 1\npacked = true\n[fire]\n"
                            "kind = \"small_arms\"\nrange = 600\n",
                            "s.toml:9" + two_or_more},
                           {"ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n[target]\ntype = \"vehicle\"\n"
                            "packed = true\n[fire]\nkind = \"direct_artillery\"\nrange = 600\n",
                            "s.toml:5" + two_or_more},
                       });
}

TEST_CASE("1943: a sweep larger than the limit is refused with its count", "[w1943][load][errors][sweep]") {
  const std::string text =
      "ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n[sweep]\n"
      "\"fire.range\" = [100, 200, 300]\n\"fire.turns\" = [1, 2]\n";
  load::LoadOptions small;
  small.max_situations = 5;
  try {
    load::load_w1943_string(text, "s.toml", kDir, small);
    FAIL("loaded");
  } catch (const load::InputError& e) {
    CHECK(std::string(e.what()) == "s.toml:3: sweep: expands to 6 situations, more than the limit of 5");
  }
  small.max_situations = 6;
  CHECK(load::load_w1943_string(text, "s.toml", kDir, small).situations.size() == 6);
}

TEST_CASE("1943 messages quote a key holding a control character, as ASL messages do", "[w1943][load][errors]") {
  // A key may hold any character when quoted ("a\u001b[31mRED", "a\nb"): a message shows it as
  // a TOML string (salvo::printable), so it sends no terminal escape and stays on one line.
  const std::string head = "ruleset = \"1943\"\nchart = \"illustrative-chart.toml\"\n";
  const std::string esc = "\"a\\u001b[31mRED\" = 1\n";
  const std::string newline = "\"a\\nb\" = 1\n";
  CHECK(situation_error(head + esc) == "s.toml:3: \"a\\u001B[31mRED\": unknown key");
  CHECK(situation_error(head + "[fire]\n" + newline) == "s.toml:4: \"fire.a\\nb\": unknown key");
  CHECK(situation_error(head + "[fire]\nrange = 300\n[sweep]\n" + newline) == "s.toml:6: \"a\\nb\": unknown key");
  const std::string typo = edited("at_prone = -2", "\"at\\nprone\" = -2");
  CHECK(chart_error(typo) == "chart.toml:" + std::to_string(line_of(typo, "\"at\\nprone\"")) +
                                 ": \"small_arms.modifiers.at\\nprone\": unknown key (did you mean "
                                 "small_arms.modifiers.at_prone?)");
  // The ASL loader shows the same keys the same way.
  const auto asl_error = [](const std::string& text) {
    return test::message_of<load::InputError>([&] { load::load_string(text, "s.toml"); });
  };
  CHECK(asl_error("ruleset = \"asl\"\n\n" + esc) == "s.toml:3: \"a\\u001B[31mRED\": unknown key");
  CHECK(asl_error("ruleset = \"asl\"\n[fire]\n" + newline) == "s.toml:3: \"fire.a\\nb\": unknown key");
}
