// The salvo executable, run as a user would: exit codes, messages, outputs.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/run_salvo.h"

using namespace salvo::test;  // run_salvo, TempDir, kExample, kSweep, check_refused ...
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Command line

TEST_CASE("salvo --version", "[cli]") {
  const auto r = run_salvo({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out.rfind("salvo ", 0) == 0);
  CHECK(r.out.find("(git ") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("salvo --help exits 0", "[cli]") {
  const auto r = run_salvo({"odds", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--precision") != std::string::npos);
}

TEST_CASE("a missing file is bad input: exit 2, the loader's message, nothing on stdout", "[cli]") {
  const auto r = run_salvo({"odds", "/nonexistent/salvo-test.toml"});
  CHECK(r.code == 2);
  CHECK(r.err == "/nonexistent/salvo-test.toml: cannot read: No such file or directory\n");
  CHECK(r.out.empty());

  const auto e = run_salvo({"explain", "/nonexistent/salvo-test.toml"});
  CHECK(e.code == 2);
  CHECK(e.err == "/nonexistent/salvo-test.toml: cannot read: No such file or directory\n");
}

TEST_CASE("usage errors are bad input: exit 2 with one line on stderr", "[cli]") {
  struct Case {
    std::vector<std::string> args;
    std::string err;  // exact message, or empty: starts with "salvo: "
  };
  const std::vector<Case> cases{
      {{"odds", "x.toml", "--bogus"}, ""},
      {{"odds"}, ""},
      {{"frobnicate"}, ""},
      {{}, ""},
      {{"odds", "x.toml", "--trials", "0"}, "salvo: --trials: expected an integer in 1..1000000000000, got 0\n"},
      {{"odds", "x.toml", "--trials", "1000000000001"},
       "salvo: --trials: expected an integer in 1..1000000000000, got 1000000000001\n"},
      {{"odds", "x.toml", "--trials", "1e6"}, "salvo: --trials: expected an integer in 1..1000000000000, got 1e6\n"},
      {{"odds", "x.toml", "--threads", "1025"}, "salvo: --threads: expected an integer in 0..1024, got 1025\n"},
      {{"odds", "x.toml", "--seed", "-1"}, "salvo: --seed: expected an integer in 0..18446744073709551615, got -1\n"},
      {{"odds", "x.toml", "--method", "mc", "--precision", "0.5"},
       "salvo: --precision: expected a number in (0, 0.5), got 0.5\n"},
      {{"odds", "x.toml", "--method", "magic"}, "salvo: --method: expected auto, exact, mc or both, got magic\n"},
      {{"odds", "x.toml", "--format", "xml"}, "salvo: --format: expected text, csv, json, md or html, got xml\n"},
      {{"odds", "x.toml", "--precision", "0.01"}, ""},  // exact has no precision
  };
  for (const auto& c : cases) check_refused(c.args, c.err);
  const auto p = run_salvo({"odds", "x.toml", "--precision", "0.01"});
  CHECK(p.err.find("--precision") != std::string::npos);
  // The largest seed is fine as a value: the run then fails on the missing file.
  const auto big = run_salvo({"odds", "x.toml", "--seed", "18446744073709551615"});
  CHECK(big.code == 2);
  CHECK(big.err == "x.toml: cannot read: No such file or directory\n");
}

// ---------------------------------------------------------------------------------------------
// End to end on the example situation (needs the compiler, the loader and the engines)

TEST_CASE("odds, exact, text: the odds table", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  const auto r = run_salvo({"odds", kExample});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  for (const char* part : {"p_hit", "first shot", "how the phase ended", "%"}) {
    INFO(part);
    CHECK(r.out.find(part) != std::string::npos);
  }
}

TEST_CASE("odds --method both --format json: both results and the program hash", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  const auto r = run_salvo({"odds", kExample, "--method", "both", "--trials", "100000", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["method"] == "both");
  CHECK(j["trials"] == 100000);
  CHECK(j["rules_data"]["hash"].get<std::string>().size() == 16);
  REQUIRE(j["situations"].size() >= 1);
  const auto& s = j["situations"][0];
  CHECK(s["program_hash"].get<std::string>().size() == 16);
  CHECK(s["program_hash"] != "0000000000000000");
  REQUIRE(s["results"].contains("exact"));
  REQUIRE(s["results"].contains("mc"));
  CHECK(s["results"]["mc"]["trials"] == 100000);
  CHECK(s["results"]["mc"]["interrupted"] == false);
  const auto& ex = s["results"]["exact"]["first_shot"]["p_hit"];
  const auto& mc = s["results"]["mc"]["first_shot"]["p_hit"];
  CHECK(ex["p"] == ex["lo"]);
  CHECK(mc["lo"].get<double>() <= mc["p"].get<double>());
  CHECK(mc["p"].get<double>() <= mc["hi"].get<double>());
  CHECK(s["results"]["exact"]["phase"].contains("end_rof_exhausted"));
  CHECK(s["results"]["exact"]["first_shot"]["e_shots"].contains("mean"));
}

TEST_CASE("Monte Carlo results do not depend on the thread count", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  REQUIRE(fs::exists(kSweep));
  auto run = [](const char* threads, const char* seed) {
    const auto r = run_salvo({"odds", kExample, kSweep, "--method", "mc", "--trials", "200000", "--seed", seed,
                              "--threads", threads, "--format", "json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out);
  };
  const auto one = run("1", "7");
  const auto two = run("2", "7");
  CHECK(one["threads"] == 1);
  CHECK(two["threads"] == 2);
  CHECK(one["situations"] == two["situations"]);
  // ... and the comparison can fail: another seed gives other tallies.
  const auto other = run("2", "8");
  CHECK(one["situations"] != other["situations"]);
}

TEST_CASE("odds -o PATH writes the file atomically", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  TempDir dir;
  const auto path = dir / "odds.csv";
  const auto r = run_salvo({"odds", kExample, "--format", "csv", "-o", path.string()});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  REQUIRE(fs::exists(path));
  const auto text = slurp(path);
  CHECK(text.rfind("file,name,", 0) == 0);
  CHECK_FALSE(has_tmp_leftover(dir.path()));

  const auto bad = run_salvo({"odds", kExample, "-o", "/nonexistent-dir/odds.txt"});
  CHECK(bad.code == 2);
  CHECK(bad.err == "salvo: cannot write /nonexistent-dir/odds.txt: No such file or directory\n");
}

TEST_CASE("nothing is printed if any file fails", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  const auto r = run_salvo({"odds", kExample, "/nonexistent/salvo-test.toml"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
}

TEST_CASE("a rules conflict is bad input: exit 2, file:line: key: message", "[cli][e2e]") {
  TempDir dir;
  const auto path = dir / "conflict.toml";
  {
    std::ofstream f(path);
    f << "ruleset = \"asl\"\nname = \"conflict\"\n[firer]\nno_intensive_fire = true\n"
         "[fire]\nintensive_fire = true\n";
  }
  for (const char* command : {"odds", "explain"}) {
    const auto r = run_salvo({command, path.string()});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind(path.string() + ":", 0) == 0);
    CHECK(r.err.find("fire.intensive_fire: ") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("a sweep: one row per situation in every format", "[cli][e2e]") {
  REQUIRE(fs::exists(kSweep));
  const auto csv = run_salvo({"odds", kSweep, "--format", "csv"});
  INFO(csv.err);
  REQUIRE(csv.code == 0);
  std::vector<std::string> lines;
  {
    std::istringstream in(csv.out);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  REQUIRE(lines.size() == 1 + 12);
  CHECK(lines[0].rfind("file,name,fire.range,target.facing,method,trials,first_p_hit,", 0) == 0);
  const auto columns = std::count(lines[0].begin(), lines[0].end(), ',');
  for (const auto& l : lines) CHECK(std::count(l.begin(), l.end(), ',') == columns);

  const auto json = run_salvo({"odds", kSweep, kExample, "--format", "json"});
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j["situations"].size() == 13);
  CHECK(j["situations"][0]["sweep"]["fire.range"] == "1");
  CHECK(j["situations"][1]["sweep"]["target.facing"] == "side");
  CHECK(j["situations"][12]["sweep"].empty());

  // Text: a compact table, a leading column per sweep key and one row per situation.
  const auto text = run_salvo({"odds", kSweep});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("fire.range") != std::string::npos);
  CHECK(text.out.find("first p_hit") != std::string::npos);
  CHECK(std::count(text.out.begin(), text.out.end(), '%') == 12 * 8);

  const auto md = run_salvo({"odds", kSweep, "--format", "md"});
  REQUIRE(md.code == 0);
  CHECK(std::count(md.out.begin(), md.out.end(), '\n') == 2 + 12 + 2);
}

TEST_CASE("explain lists the modifiers with their rules", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  const auto r = run_salvo({"explain", kExample});
  INFO(r.err);
  CHECK(r.code == 0);
  for (const char* part : {"Basic TH#", "Modified TH#", "Original DR <=", "Final TK#"}) {
    INFO(part);
    CHECK(r.out.find(part) != std::string::npos);
  }
}

TEST_CASE("SIGINT: output still written, marked interrupted, exit 130", "[cli][e2e]") {
  REQUIRE(fs::exists(kExample));
  // Far more trials than can run in the time allowed.
  const auto r = run_salvo(
      {"odds", kExample, "--method", "mc", "--trials", "1000000000000", "--threads", "2", "--format", "json"}, 1500);
  INFO(r.err);
  CHECK(r.code == 130);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["interrupted"] == true);
  REQUIRE(j["situations"].size() >= 1);
  const auto& mc = j["situations"][0]["results"]["mc"];
  CHECK(mc["interrupted"] == true);
  CHECK(mc["trials"].get<std::uint64_t>() > 0);
  CHECK(mc["trials"].get<std::uint64_t>() < 1000000000000ULL);
  CHECK(mc["trials"].get<std::uint64_t>() % 65536 == 0);  // stopped at a block boundary
}

// ---------------------------------------------------------------------------------------------
// Unit libraries (docs/units.md)

TEST_CASE("salvo units list and show read a library and refuse what they cannot find", "[cli][units]") {
  const std::string lib = std::string(SALVO_SOURCE_DIR) + "/examples/units/example-units.toml";
  const auto list = run_salvo({"units", "list", "--units", lib});
  CHECK(list.code == 0);
  CHECK(list.out.find("\nPzKpfw VG     vehicle  MT      75LL   hull 18/8, turret 14/8    43-45\n") !=
        std::string::npos);
  CHECK(list.out.find("3 units in ") != std::string::npos);
  const auto show = run_salvo({"units", "show", "pzkpfw-vg", "--units", lib});
  CHECK(show.code == 0);
  CHECK(show.out.rfind("PzKpfw VG  (MT)  vehicle, 43-45\n", 0) == 0);
  check_refused({"units", "show", "PzKpfw VH", "--units", lib},
                "salvo: units show: no unit named \"PzKpfw VH\" in " + lib + " (did you mean PzKpfw VG?)\n");
  check_refused({"units", "list", "--units", kExample},
                kExample +
                    ":1: library: this is a situation or fight file, not a unit library (a library starts "
                    "with library = \"asl-units\", docs/units.md)\n");
  check_refused({"units", "list"}, "");  // --units is required
}
