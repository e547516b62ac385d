// `salvo odds` output end to end (issue 13): expectation intervals within a counter's range and
// "no interval" from one trial, the ! flag on means, names with control characters, and an
// interrupted HTML page.

#include <signal.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_salvo.h"

namespace {

using namespace salvo::test;  // run_salvo, slurp, TempDir, kExample, write_text

// The line of `text` that starts with `key` followed by a space, or "".
std::string line_of(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.rfind(key + " ", 0) == 0) return l;
  return "";
}

// The example with its `name = ...` line replaced by `name_line` (TOML as written) and `extra`
// appended.
std::string example_with(const std::string& name_line, const std::string& extra = "") {
  std::istringstream in(slurp(kExample));
  std::string out;
  for (std::string l; std::getline(in, l);) out += (l.rfind("name = ", 0) == 0 ? name_line : l) + '\n';
  return out + extra;
}

}  // namespace

TEST_CASE("odds --trials 1: means print no interval, in every format", "[cli][issue13]") {
  const auto r = run_salvo({"odds", kExample, "--method", "mc", "--trials", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(line_of(r.out, "e_shots") == "e_shots                    1.000 [?, ?]           2.000 [?, ?]");
  CHECK(line_of(r.out, "e_hits") == "e_hits                     1.000 [?, ?]           2.000 [?, ?]");
  CHECK(r.out.find("\n[?, ?]: no interval: a mean needs 2 or more trials to estimate its variance\n") !=
        std::string::npos);

  const auto md = run_salvo({"odds", kExample, "--method", "mc", "--trials", "1", "--format", "md"});
  INFO(md.out);
  CHECK(md.out.find("| 2.000 ±? | 2.000 ±? |\n") != std::string::npos);

  const auto csv = run_salvo({"odds", kExample, "--method", "mc", "--trials", "1", "--format", "csv"});
  INFO(csv.out);
  CHECK(csv.out.find(",phase_e_shots,phase_e_shots_lo,phase_e_shots_hi,") != std::string::npos);
  CHECK(csv.out.find(",1,,,2,,,1,,,2,,,") != std::string::npos);  // first/phase e_shots, e_hits

  const auto json = run_salvo({"odds", kExample, "--method", "mc", "--trials", "1", "--format", "json"});
  const auto j = nlohmann::json::parse(json.out);
  const auto& mc = j["situations"][0]["results"]["mc"];
  CHECK(mc["phase"]["e_shots"] == nlohmann::json::parse(R"({"mean": 2.0, "no_interval": "fewer than 2 trials"})"));
  CHECK(mc["first_shot"]["e_hits"] == nlohmann::json::parse(R"({"mean": 1.0, "no_interval": "fewer than 2 trials"})"));
}

TEST_CASE("odds --trials 2: a mean's interval stops at 0", "[cli][issue13]") {
  // Seed 4: one trial hits, the other misses: mean 0.5, the normal interval [-0.480, 1.480]
  const auto r = run_salvo({"odds", kExample, "--method", "mc", "--trials", "2", "--seed", "4"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(line_of(r.out, "e_hits") == "e_hits             0.500 [0.000, 1.480]   0.500 [0.000, 1.480]");
  CHECK(line_of(r.out, "e_shots") == "e_shots            1.000 [1.000, 1.000]   1.000 [1.000, 1.000]");
  // The default seed: 1 and 2 shots, 1 and 2 hits
  const auto d = run_salvo({"odds", kExample, "--method", "mc", "--trials", "2"});
  CHECK(line_of(d.out, "e_shots") == "e_shots            1.000 [1.000, 1.000]   1.500 [0.520, 2.480]");
}

TEST_CASE("odds --method both --trials 1: every mean that differs from exact is flagged", "[cli][issue13]") {
  const auto r = run_salvo({"odds", kExample, "--method", "both", "--trials", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  // exact 1.000 = mc 1.000: no flag; 1.168 against 2.000, 0.833 and 0.988 against 1.000 and 2.000: flags
  CHECK(line_of(r.out, "e_shots") ==
        "e_shots                      1.000           1.000 [?, ?]          1.168           2.000 [?, ?] !");
  CHECK(line_of(r.out, "e_hits") ==
        "e_hits                       0.833           1.000 [?, ?] !        0.988           2.000 [?, ?] !");
  CHECK(r.out.find("(a mean of fewer than 2 trials: any difference): 3 flags raised\n") != std::string::npos);
}

TEST_CASE("odds: names and sweep labels with control characters are escaped in text, md and html", "[cli][issue13]") {
  TempDir dir;
  const auto esc = dir / "esc.toml";
  write_text(esc, example_with(R"(name = "a\u001b[31mRED")"));
  const auto nl = dir / "nl.toml";
  write_text(nl, example_with(R"(name = "x\ny|z")"));
  const auto sweep = dir / "sweep.toml";
  write_text(sweep, example_with("", "\n[sweep]\nname = [\"s\\u001b[0m\", \"t\\nu\"]\n"));

  const auto one = run_salvo({"odds", esc.string()});
  INFO(one.out << one.err);
  REQUIRE(one.code == 0);
  CHECK(one.out.rfind("\"a\\u001B[31mRED\"\n  file ", 0) == 0);
  CHECK(one.out.find('\x1b') == std::string::npos);

  const auto text = run_salvo({"odds", esc.string(), nl.string(), sweep.string()});
  INFO(text.out << text.err);
  REQUIRE(text.code == 0);
  CHECK(text.out.find('\x1b') == std::string::npos);
  CHECK(line_of(text.out, "\"a\\u001B[31mRED\"").find("83.3%") != std::string::npos);
  CHECK(line_of(text.out, "\"x\\ny|z\"").find("83.3%") != std::string::npos);
  CHECK(line_of(text.out, "\"s\\u001B[0m\"").find("83.3%") != std::string::npos);
  CHECK(line_of(text.out, "\"t\\nu\"").find("83.3%") != std::string::npos);

  const auto md = run_salvo({"odds", esc.string(), nl.string(), sweep.string(), "--format", "md"});
  INFO(md.out);
  CHECK(md.out.find('\x1b') == std::string::npos);
  CHECK(md.out.find("\n| \"a\\u001B[31mRED\" |  | 0.833 |") != std::string::npos);
  CHECK(md.out.find("\n| \"x\\ny\\|z\" |  | 0.833 |") != std::string::npos);
  CHECK(md.out.find("\n| \"t\\nu\" | \"t\\nu\" | 0.833 |") != std::string::npos);
  // Every line of the table is a whole row
  std::istringstream in(md.out);
  int rows = 0;
  for (std::string l; std::getline(in, l) && !l.empty(); ++rows) CHECK((l.front() == '|' && l.back() == '|'));
  CHECK(rows == 2 + 4);

  const auto html_path = dir / "page.html";
  const auto html = run_salvo({"odds", esc.string(), nl.string(), "--format", "html", "-o", html_path.string()});
  INFO(html.err);
  REQUIRE(html.code == 0);
  const std::string page = slurp(html_path);
  CHECK(page.find('\x1b') == std::string::npos);
  CHECK(page.find("<td class=\"l\">&quot;x\\ny|z&quot;</td>") != std::string::npos);
  CHECK(page.find("<title>salvo odds: &quot;a\\u001B[31mRED&quot; (2 situations)</title>") != std::string::npos);
}

TEST_CASE("odds --format html interrupted: the page says so, with the trials run", "[cli][issue13][robust][e2e]") {
  // A runner that ignores SIGINT (a background job of a non-interactive shell) would pass that
  // on to salvo, which keeps an inherited SIG_IGN: restore the default so the signal arrives.
  struct sigaction old {};
  sigaction(SIGINT, nullptr, &old);
  if (old.sa_handler == SIG_IGN) signal(SIGINT, SIG_DFL);

  TempDir dir;
  const auto path = dir / "odds.html";
  const auto r = run_salvo({"odds", kExample, "--method", "mc", "--trials", "1000000000000", "--threads", "2",
                            "--format", "html", "-o", path.string()},
                           1500);
  INFO(r.err);
  CHECK(r.code == 130);
  REQUIRE(std::filesystem::exists(path));
  const std::string page = slurp(path);
  std::smatch m;
  REQUIRE(std::regex_search(page, m,
                            std::regex("<p class=\"note\"><strong>INTERRUPTED after ([0-9]+) trials</strong>: "
                                       "the run was stopped before it finished")));
  const std::uint64_t trials = std::stoull(m[1].str());
  CHECK(trials > 0);
  CHECK(trials % 65536 == 0);
  // The provenance line states the trials asked for, then the trials run
  CHECK(page.find("| seed 1 | 1000000000000 trials | 2 threads (results do not depend on it) | INTERRUPTED after " +
                  std::to_string(trials) + " trials</p>") != std::string::npos);
}
