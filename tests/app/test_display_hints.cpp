// The rulesets' display hints in the tables and charts: the key columns are the ones that matter
// for the situation (IFT results for Infantry and Area targets, To Kill results for vehicles),
// and a chart of a quantity the situations do not have is refused with what they have.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_salvo.h"

namespace {

using salvo::test::run_salvo;
using salvo::test::TempDir;

std::string header_line(const std::string& text, const std::string& starts) {
  const auto at = text.find("\n" + starts);
  if (at == std::string::npos) return "";
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

const std::string kSquadSweep = std::string(SALVO_SOURCE_DIR) + "/examples/he-at-squad-in-woods.toml";

std::string squad_sweep(const TempDir& dir) {
  // The example with a range sweep: three Infantry Target Type situations.
  std::string text = salvo::test::slurp(kSquadSweep);
  const auto fire = text.find("[fire]");
  text.insert(fire, "[sweep]\n\"fire.range\" = [3, 8, 13]\n\n");
  const auto path = (dir / "squad-sweep.toml").string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("key columns: an Infantry Target Type sweep shows the IFT results, not To Kill ones", "[hints]") {
  TempDir dir;
  const auto r = run_salvo({"odds", squad_sweep(dir)});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const std::string head = header_line(r.out, "fire.range");
  for (const char* col : {"p_ptc+", "p_mc+", "p_cas", "p_kia", "p_malf", "e_shots"})
    CHECK(head.find(col) != std::string::npos);
  CHECK(head.find("p_kill") == std::string::npos);
  CHECK(head.find("p_burn") == std::string::npos);

  const auto md = run_salvo({"odds", squad_sweep(dir), "--format", "md"});
  CHECK(md.out.find("phase_p_mc_or_worse") != std::string::npos);
}

TEST_CASE("key columns: a vehicle sweep shows To Kill results and no IFT column", "[hints]") {
  const auto r = run_salvo({"odds", std::string(SALVO_SOURCE_DIR) + "/examples/sweep-range.toml"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const std::string head = header_line(r.out, "fire.range");
  CHECK(head.find("phase p_kill") != std::string::npos);
  CHECK(head.find("p_mc+") == std::string::npos);
}

TEST_CASE("chart: a quantity the situations do not have is refused, naming what they have", "[hints]") {
  TempDir dir;
  const auto r = run_salvo(
      {"chart", "range", squad_sweep(dir), "--x", "fire.range", "--quantity", "p_kill", "--out", (dir / "c").string()});
  CHECK(r.code == 2);
  CHECK(r.err.find("chart: --quantity: no p_kill in these situations (they have p_hit, ") != std::string::npos);
  CHECK(r.err.find("p_mc_or_worse") != std::string::npos);
  CHECK(r.err.find("Traceback") == std::string::npos);
}

TEST_CASE("compare: two fights show each unit's fate, as odds gives it", "[hints][fight]") {
  const std::string dir = std::string(SALVO_SOURCE_DIR) + "/examples/fights/";
  const std::string a = dir + "ambush-reverse.toml", b = dir + "ambush-fire-now.toml";
  const auto cmp = run_salvo({"compare", a, b});
  INFO(cmp.out << cmp.err);
  REQUIRE(cmp.code == 0);
  // P(UNIT what) in the whole fight, from each file's own exact solve
  const auto fates = [](const std::string& file) {
    const auto r = run_salvo({"odds", "--format", "json", file});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out)["situations"][0]["results"]["exact"]["phase"];
    std::map<std::string, double> p;
    for (const auto& [name, v] : j.items())
      if (name.rfind("p_", 0) == 0 && name.find("wins") == std::string::npos && name != "p_neither")
        p[name] = v["p"].get<double>();
    return p;
  };
  const auto pa = fates(a), pb = fates(b);
  REQUIRE(pa.size() == 6);  // the T-34's and the Gun's destroyed, immobilized, gun out
  for (const auto& [name, va] : pa) {
    std::string label = "P(" + name.substr(2) + ")";
    std::replace(label.begin(), label.end(), '_', ' ');
    INFO(label);
    const auto at = cmp.out.find("fight   " + label);
    REQUIRE(at != std::string::npos);
    const std::string row = cmp.out.substr(at, cmp.out.find('\n', at) - at);
    char want[64];
    std::snprintf(want, sizeof want, "%.1f%% ", 100 * va);
    CHECK(row.find(std::string(" ") + want) != std::string::npos);
    std::snprintf(want, sizeof want, "%.1f%% ", 100 * pb.at(name));
    CHECK(row.find(std::string(" ") + want) != std::string::npos);
  }
  // "Better" is side A's view, and the note says so: side B's win counts against it. A's fight
  // does better when B's ends in side B's win and A's does not, each on its own dice.
  CHECK(cmp.out.find("P(A better): the chance that A's fight (or turn 1) does better for side A than B's") !=
        std::string::npos);
  const auto b_wins = [](const std::string& file) {
    const auto r = run_salvo({"odds", "--format", "json", file});
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out)["situations"][0]["results"]["exact"]["phase"]["p_b_wins"]["p"].get<double>();
  };
  const double wa = b_wins(a), wb = b_wins(b);
  const auto at = cmp.out.find("fight   P(b wins)");
  REQUIRE(at != std::string::npos);
  const std::string row = cmp.out.substr(at, cmp.out.find('\n', at) - at);
  char want[96];
  std::snprintf(want, sizeof want, " %.1f%%  %*.1f%%", 100 * wb * (1 - wa), 10, 100 * wa * (1 - wb));
  INFO(row << " | want ..." << want);
  CHECK(row.size() >= std::string(want).size());
  CHECK(row.substr(row.size() - std::string(want).size()) == want);
}
