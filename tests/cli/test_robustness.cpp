// Bad input and faults, end to end: one exact message per class of bad input, limits checked
// before any work, NaN-free tables, and interrupted runs that leave a parseable file or none.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_salvo.h"

namespace {

using namespace salvo::test;  // run_salvo, slurp, TempDir, kExample, kSweep, write_text ...
namespace fs = std::filesystem;

int line_of(const std::string& path, const std::string& needle) {
  std::ifstream in(path);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    if (l.rfind(needle, 0) == 0) return n;
  }
  return 0;
}

void check_json_finite(const nlohmann::json& j) {
  if (j.is_structured()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (j.is_object() && it.key() == "precision") continue;
      check_json_finite(*it);
    }
  } else {
    CHECK_FALSE(j.is_null());
    if (j.is_number_float()) CHECK(std::isfinite(j.get<double>()));
  }
}

}  // namespace

TEST_CASE("bad situation files: exit 2, one line FILE:LINE: key: expected ..., got ...", "[cli][robust]") {
  TempDir dir;
  struct Case {
    const char* what;
    std::string text;
    std::string err;  // after "PATH:"
  };
  const std::vector<Case> cases{
      {"syntax", "ruleset = \"asl\"\n[fire\nrange = 6\n", "2:6: TOML syntax error: "},
      {"unknown key", "ruleset = \"asl\"\n[firer]\nrofx = 1\n",
       "3: firer.rofx: unknown key (did you mean firer.rof?)\n"},
      {"wrong type", "ruleset = \"asl\"\n[fire]\nrange = \"six\"\n",
       "3: fire.range: expected an integer in 0..200, got \"six\"\n"},
      {"out of range", "ruleset = \"asl\"\n[firer]\nrof = 9\n", "3: firer.rof: expected an integer in 0..3, got 9\n"},
      {"no ruleset", "[fire]\nrange = 6\n", "1: ruleset: required (ruleset = \"asl\")\n"},
      {"empty sweep axis", "ruleset = \"asl\"\n[sweep]\n\"fire.range\" = []\n",
       "3: sweep.\"fire.range\": empty array (give at least one value)\n"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto path = write_text(dir / "bad.toml", c.text).string();
    for (const char* command : {"odds", "explain"}) {
      const auto r = run_salvo({command, path});
      CHECK(r.code == 2);
      CHECK(r.out.empty());
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      if (c.err.back() == '\n')
        CHECK(r.err == path + ":" + c.err);
      else
        CHECK(r.err.rfind(path + ":" + c.err, 0) == 0);
    }
  }
}

TEST_CASE("a sweep over --max-situations is refused with its count, before any work", "[cli][robust]") {
  const int sweep_line = line_of(kSweep, "[sweep]");
  REQUIRE(sweep_line > 0);
  const std::string want =
      kSweep + ":" + std::to_string(sweep_line) + ": sweep: expands to 12 situations, more than the limit of 11\n";
  for (const char* command : {"odds", "explain"}) {
    const auto r = run_salvo({command, kSweep, "--max-situations", "11"});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == want);
    CHECK(run_salvo({command, kSweep, "--max-situations", "12"}).code == 0);
  }

  // The default limit, 10^6: 1001 x 1000 values, refused from the count alone (no situation is
  // built; speed is not asserted here, the suite has no timed tests).
  TempDir dir;
  std::string text = "ruleset = \"asl\"\n[sweep]\n\"fire.extra_drm\" = [";
  for (int i = 0; i < 1001; ++i) text += (i ? "," : "") + std::to_string(i % 21 - 10);
  text += "]\n\"target.tem\" = [";
  for (int i = 0; i < 1000; ++i) text += (i ? "," : "") + std::to_string(i % 10 - 3);
  text += "]\n";
  const auto path = write_text(dir / "huge.toml", text).string();
  const auto r = run_salvo({"odds", path});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == path + ":2: sweep: expands to 1001000 situations, more than the limit of 1000000\n");
}

TEST_CASE("bad flags: exit 2, the flag, what was expected and what was found", "[cli][robust]") {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases{
      {{"odds", "x.toml", "--trials", "0"}, "salvo: --trials: expected an integer in 1..1000000000000, got 0\n"},
      {{"odds", "x.toml", "--trials", "-5"}, "salvo: --trials: expected an integer in 1..1000000000000, got -5\n"},
      {{"odds", "x.toml", "--method", "mc", "--precision", "0.7"},
       "salvo: --precision: expected a number in (0, 0.5), got 0.7\n"},
      {{"odds", "x.toml", "--method", "mc", "--precision", "0"},
       "salvo: --precision: expected a number in (0, 0.5), got 0\n"},
      {{"odds", "x.toml", "--method", "mc", "--precision", "nan"},
       "salvo: --precision: expected a number in (0, 0.5), got nan\n"},
      {{"odds", "x.toml", "--threads", "-1"}, "salvo: --threads: expected an integer in 0..1024, got -1\n"},
      {{"odds", "x.toml", "--max-situations", "0"},
       "salvo: --max-situations: expected an integer in 1..1000000000, got 0\n"},
      {{"odds", "x.toml", "--max-situations", "1e6"},
       "salvo: --max-situations: expected an integer in 1..1000000000, got 1e6\n"},
      {{"odds", "x.toml", "--max-situations", "1000000001"},
       "salvo: --max-situations: expected an integer in 1..1000000000, got 1000000001\n"},
      {{"explain", "x.toml", "--max-situations", "0"},
       "salvo: --max-situations: expected an integer in 1..1000000000, got 0\n"},
  };
  for (const auto& c : cases) check_refused(c.args, c.err);
}

TEST_CASE("no NaN or infinity in any format, even from a single trial", "[cli][robust]") {
  // One trial: every probability is 0 or 1 and every mean has no variance estimate.
  for (const char* trials : {"1", "2"}) {
    for (const char* format : {"text", "csv", "md", "json"}) {
      INFO(format << " with " << trials << " trials");
      const auto r = run_salvo({"odds", kExample, kSweep, "--method", "both", "--trials", trials, "--format", format});
      INFO(r.err);
      REQUIRE(r.code == 0);
      if (std::string(format) == "json")
        check_json_finite(nlohmann::json::parse(r.out));  // no null (NaN) and finite numbers
      else
        for (const char* bad : {"nan", "NaN", "inf"}) CHECK(r.out.find(bad) == std::string::npos);
    }
  }
  // compare's JSON too (its means of one trial have no interval: no lo and hi, never null).
  const std::string dir = std::string(SALVO_SOURCE_DIR) + "/examples/compare/";
  const auto r = run_salvo({"compare", dir + "ammo-ap.toml", dir + "ammo-apcr.toml", "--method", "both", "--trials",
                            "1", "--format", "json"});
  REQUIRE(r.code == 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  // p_a_better is null by design where a quantity has no better direction: drop those.
  std::function<void(nlohmann::json&)> drop = [&](nlohmann::json& v) {
    if (v.is_object()) {
      for (const char* k : {"p_a_better", "p_b_better"})
        if (v.contains(k) && v[k].is_null()) v.erase(k);
    }
    if (v.is_structured())
      for (auto& x : v) drop(x);
  };
  drop(j);
  check_json_finite(j);
}

TEST_CASE("SIGINT with -o: the file parses, is marked interrupted and states its trials", "[cli][robust][e2e]") {
  TempDir dir;
  for (const char* format : {"json", "csv"}) {
    INFO(format);
    const auto path = dir / (std::string("odds.") + format);
    const auto r = run_salvo({"odds", kExample, "--method", "mc", "--trials", "1000000000000", "--threads", "2",
                              "--format", format, "-o", path.string()},
                             1500);
    INFO(r.err);
    CHECK(r.code == 130);
    CHECK(r.out.empty());
    REQUIRE(fs::exists(path));
    CHECK_FALSE(has_tmp_leftover(dir.path()));
    const std::string text = slurp(path);
    if (std::string(format) == "json") {
      const auto j = nlohmann::json::parse(text);
      CHECK(j["interrupted"] == true);
      REQUIRE(j["situations"].size() == 1);
      const auto& mc = j["situations"][0]["results"]["mc"];
      CHECK(mc["interrupted"] == true);
      const auto trials = mc["trials"].get<std::uint64_t>();
      CHECK(trials > 0);
      CHECK(trials % 65536 == 0);
      // The intervals are those of the trials run: p within [lo, hi], all finite.
      for (const auto& [key, v] : mc["phase"].items()) {
        INFO(key);
        if (!v.contains("p")) continue;
        CHECK(v["lo"].get<double>() <= v["p"].get<double>());
        CHECK(v["p"].get<double>() <= v["hi"].get<double>());
      }
      check_json_finite(j);
    } else {
      std::istringstream in(text);
      std::string header, row;
      std::getline(in, header);
      std::getline(in, row);
      CHECK(header.find(",trials,") != std::string::npos);
      CHECK(header.substr(header.size() - 12) == ",interrupted");
      CHECK(row.substr(row.size() - 5) == ",true");
    }
  }
}

TEST_CASE("SIGINT before a --precision is reached: nothing written, and why", "[cli][robust][e2e]") {
  TempDir dir;
  const auto path = dir / "odds.json";
  const auto r = run_salvo({"odds", kExample, "--method", "mc", "--precision", "0.000001", "--trials", "1000000000000",
                            "--threads", "2", "--format", "json", "-o", path.string()},
                           1500);
  CHECK(r.code == 130);
  CHECK(r.out.empty());
  CHECK_FALSE(fs::exists(path));
  CHECK_FALSE(has_tmp_leftover(dir.path()));
  INFO(r.err);
  CHECK(r.err.rfind(
            "salvo: interrupted: --precision 1e-06 not reached for Sherman 75 vs Panther (" + kExample + ") after ",
            0) == 0);
  CHECK(r.err.find(" trials (widest 95% half-width ") != std::string::npos);
  CHECK(r.err.size() > 18);
  CHECK(r.err.substr(r.err.size() - 18) == "; nothing written\n");
}

TEST_CASE("a --precision not reached within the --trials cap: table written, warning", "[cli][robust][e2e]") {
  const auto r =
      run_salvo({"odds", kExample, "--method", "mc", "--precision", "0.0001", "--trials", "65536", "--format", "json"});
  CHECK(r.code == 0);
  INFO(r.err);
  CHECK(r.err.rfind("salvo: warning: --precision 0.0001 not reached within 65536 trials for 1 situation(s), "
                    "e.g. Sherman 75 vs Panther (" +
                        kExample + "): widest 95% half-width 0.00",
                    0) == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["situations"][0]["results"]["mc"]["trials"] == 65536);
}

TEST_CASE("a sweep is counted from its arrays' lengths before any value is read", "[cli][robust]") {
  // The first value is bad, and there are more values than the limit: the count is what is
  // refused, so no value was validated (validation of 10^6 values took minutes before).
  TempDir dir;
  std::string text = "ruleset = \"asl\"\n[firer]\ngun = \"75\"\n[sweep]\n\"fire.range\" = [\"six\"";
  for (int i = 1; i < 12; ++i) text += ", " + std::to_string(i);
  text += "]\n";
  const std::string path = write_text(dir / "bad-and-big.toml", text).string();
  auto r = run_salvo({"odds", path, "--max-situations", "11"});
  CHECK(r.code == 2);
  CHECK(r.err == path + ":4: sweep: expands to 12 situations, more than the limit of 11\n");
  r = run_salvo({"odds", path, "--max-situations", "12"});
  CHECK(r.code == 2);
  CHECK(r.err == path + ":5: fire.range: expected an integer in 0..200, got \"six\"\n");

  // The same for a 1943 file.
  const std::string w = std::string(SALVO_SOURCE_DIR) + "/examples/1943/rifles-vs-infantry.toml";
  fs::copy_file(std::string(SALVO_SOURCE_DIR) + "/examples/1943/illustrative-chart.toml",
                dir / "illustrative-chart.toml");
  std::string w_text = slurp(w);
  w_text = w_text.substr(0, w_text.find("[sweep]")) + "\n[sweep]\n\"fire.range\" = [\"far\"";
  for (int i = 1; i < 12; ++i) w_text += ", " + std::to_string(100 * i);
  w_text += "]\n";
  const std::string w_path = write_text(dir / "w.toml", w_text).string();
  r = run_salvo({"odds", w_path, "--max-situations", "11"});
  CHECK(r.code == 2);
  CHECK(r.err.find(w_path + ":") == 0);
  CHECK(r.err.find(": sweep: expands to 12 situations, more than the limit of 11\n") != std::string::npos);
}

TEST_CASE("input size: at most --max-file-size bytes are read, larger input is refused with its size",
          "[cli][robust]") {
  TempDir dir;
  const std::string big = write_text(dir / "big.toml", std::string(5'000'000, '\n')).string();
  auto r = run_salvo({"odds", big});
  CHECK(r.code == 2);
  CHECK(r.err == big + ": 5000000 bytes, more than the input limit of 4 MiB (raise it with --max-file-size)\n");
  r = run_salvo({"odds", big, "--max-file-size", "8MiB"});
  CHECK(r.err == big + ":1: ruleset: required (ruleset = \"asl\")\n");  // read, then checked
  // A device that never ends: refused after the limit plus one byte.
  r = run_salvo({"odds", "/dev/zero", "--max-file-size", "64K"});
  CHECK(r.code == 2);
  CHECK(r.err == "/dev/zero: larger than the input limit of 64 KiB (raise it with --max-file-size)\n");
  // A 1943 chart file too.
  write_text(dir / "w.toml", "ruleset = \"1943\"\nchart = \"/dev/zero\"\n[fire]\nkind = \"small_arms\"\nrange = 100\n");
  r = run_salvo({"odds", (dir / "w.toml").string()});
  CHECK(r.code == 2);
  CHECK(r.err == "/dev/zero: larger than the input limit of 4 MiB (raise it with --max-file-size)\n");
  r = run_salvo({"odds", kExample, "--max-file-size", "0"});
  CHECK(r.code == 2);
  CHECK(r.err == "salvo: --max-file-size: expected a size from 1 byte to 1GiB (e.g. 4MiB, 512KiB, 100000), got 0\n");
  CHECK(run_salvo({"odds", kExample, "--max-file-size", "2GiB"}).code == 2);
  CHECK(run_salvo({"odds", kExample, "--max-file-size", "1000"}).code == 2);  // the example is larger
  CHECK(run_salvo({"odds", kExample, "--max-file-size", "4k"}).code == 0);
}

TEST_CASE("nesting deeper than 64 levels is refused before toml++ sees it, with file:line:column", "[cli][robust]") {
  TempDir dir;
  const auto deep = [](int n, const std::string& seg) {
    std::string s = seg;
    for (int i = 1; i < n; ++i) s += "." + seg;
    return s;
  };
  const std::string want =
      ": TOML nesting deeper than 64 levels (dotted keys, [table] headers, arrays and inline "
      "tables count one level each)\n";
  struct Case {
    std::string name, text, where;
  };
  const std::vector<Case> cases{
      {"header.toml", "ruleset = \"asl\"\n[" + deep(40000, "a") + "]\n", ":2:129"},
      {"key.toml", "ruleset = \"asl\"\n" + deep(40000, "a") + " = 1\n", ":2:128"},
      {"quoted.toml", "ruleset = \"asl\"\n" + deep(100, "\"a\"") + " = 1\n", ":2:256"},
      {"arrays.toml", "ruleset = \"asl\"\nx = " + std::string(300, '[') + "1" + std::string(300, ']') + "\n", ":2:69"},
      {"header-and-key.toml", "ruleset = \"asl\"\n[" + deep(40, "a") + "]\n" + deep(30, "b") + " = 1\n", ":3:48"},
  };
  for (const Case& c : cases) {
    const std::string path = write_text(dir / c.name, c.text).string();
    const auto r = run_salvo({"odds", path});
    INFO(c.name);
    CHECK(r.code == 2);
    CHECK(r.err == path + c.where + want);
  }
  // 64 levels are read (and then refused for what they are, an unknown table).
  const std::string ok =
      write_text(dir / "ok.toml", "ruleset = \"asl\"\n[" + deep(32, "a") + "]\n" + deep(32, "b") + " = 1\n").string();
  CHECK(run_salvo({"odds", ok}).err == ok + ":2: a: unknown table\n");
}

TEST_CASE("each input is read once: a situation from a pipe", "[cli][robust]") {
  const auto r =
      run_program("/bin/sh", {"-c", "cat " + kExample + " | exec " + SALVO_BINARY + " odds /dev/stdin --format csv"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  const auto direct = run_salvo({"odds", kExample, "--format", "csv"});
  // The same table, but for the file name.
  std::string expected = direct.out;
  for (std::size_t at; (at = expected.find(kExample)) != std::string::npos;)
    expected.replace(at, kExample.size(), "/dev/stdin");
  CHECK(r.out == expected);
}
