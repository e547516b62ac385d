// `salvo odds` on sweeps larger than a batch: situations compiled and run a batch at a time,
// finished ones kept in a spill file, the table assembled from it at the end. Every row must be
// the row its situation gives on its own, every format must be the text the in-memory
// formatter gives for the same reports, and memory must not grow with the sweep.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_salvo.h"
#include "salvo/load/asl_loader.h"
#include "salvo/report/report.h"
#include "salvo/rules/asl.h"
#include "salvo/rulesets/ruleset.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"

namespace {

using namespace salvo::test;  // run_salvo, run_program, slurp, TempDir, kExample, kSweep, write_text
namespace fs = std::filesystem;

// salvo odds batches 256 situations: 24 ranges x 25 extra DRMs = 600 makes three batches.
constexpr int kRanges = 24;
constexpr int kDrms = 25;
int range_at(int i) { return 1 + i / kDrms; }  // the first sweep key varies slowest
int drm_at(int i) { return i % kDrms % 13 - 6; }

// The example situation over a [sweep] of the given ranges and extra DRMs.
fs::path sweep_file(const TempDir& dir, const std::string& name, const std::vector<int>& ranges,
                    const std::vector<int>& drms) {
  std::string text = slurp(kExample) + "\n[sweep]\n\"fire.range\" = [";
  for (std::size_t i = 0; i < ranges.size(); ++i) text += (i ? "," : "") + std::to_string(ranges[i]);
  text += "]\n\"fire.extra_drm\" = [";
  for (std::size_t i = 0; i < drms.size(); ++i) text += (i ? "," : "") + std::to_string(drms[i]);
  text += "]\n";
  return write_text(dir / name, text);
}

fs::path big_sweep(const TempDir& dir) {
  std::vector<int> ranges, drms;
  for (int r = 0; r < kRanges; ++r) ranges.push_back(range_at(r * kDrms));
  for (int d = 0; d < kDrms; ++d) drms.push_back(drm_at(d));
  return sweep_file(dir, "big.toml", ranges, drms);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string s; std::getline(in, s, sep);) out.push_back(s);
  return out;
}

// CSV row as column -> value (the example's names hold no comma or quote).
std::map<std::string, std::string> csv_row(const std::string& header, const std::string& row) {
  const auto h = split(header, ','), v = split(row + ",", ',');
  std::map<std::string, std::string> m;
  for (std::size_t i = 0; i < h.size(); ++i) m[h[i]] = i < v.size() ? v[i] : "";
  return m;
}

// The reports salvo odds makes, built here in memory from the same files: loader, compiler,
// engines. Monte Carlo (trials > 0) keys each situation's dice by its index, as salvo does.
std::vector<salvo::report::SituationReport> reports_of(const std::vector<std::string>& files, std::uint64_t trials) {
  std::vector<salvo::report::SituationReport> reports;
  for (const auto& f : files) {
    for (const auto& s : salvo::load::load_file(f).situations) {
      const auto program = salvo::asl::compile(s.situation).program;
      salvo::report::SituationReport r;
      r.file = f;
      r.name = s.situation.name;
      r.sweep = s.sweep_values;
      r.program_hash = program.hash();
      r.names = salvo::report::names_of(program);
      r.exact = salvo::sim::solve_exact(program);
      if (trials > 0) {
        salvo::sim::McOptions o;
        o.seed = 1;
        o.situation_key = reports.size();
        o.trials = trials;
        o.threads = 1;
        r.mc = salvo::sim::monte_carlo(program, o);
      }
      reports.push_back(std::move(r));
    }
  }
  return reports;
}

salvo::report::Provenance provenance(salvo::report::MethodChoice method, std::uint64_t trials, std::size_t total) {
  salvo::report::Provenance p;
  p.method = method;
  p.hints = salvo::Registry::global().find("asl")->hints();
  p.seed = 1;
  p.trials = trials;
  p.threads = 1;
  p.rules_data_version = salvo::asl::kRulesDataVersion;
  p.rules_data_hash = salvo::asl::rules_data_hash();
  p.situations_total = total;
  return p;
}

}  // namespace

TEST_CASE("a sweep of three batches: each row is the row its situation gives on its own", "[cli][stream]") {
  TempDir dir;
  const auto big = big_sweep(dir).string();
  const auto csv_path = dir / "big.csv";
  const auto r = run_salvo({"odds", big, "--format", "csv", "-o", csv_path.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto lines = split(slurp(csv_path), '\n');
  REQUIRE(lines.size() == 1 + kRanges * kDrms);
  const auto json = run_salvo({"odds", big, "--format", "json"});
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j["situations"].size() == kRanges * kDrms);
  CHECK(j["situations_total"] == kRanges * kDrms);
  CHECK(j["interrupted"] == false);

  // Both ends of every batch boundary, and the last row.
  for (int i : {0, 255, 256, 257, 511, 512, kRanges * kDrms - 1}) {
    INFO("situation " << i << ": range " << range_at(i) << ", extra DRM " << drm_at(i));
    const auto one = sweep_file(dir, "one.toml", {range_at(i)}, {drm_at(i)}).string();
    const auto one_csv = run_salvo({"odds", one, "--format", "csv"});
    REQUIRE(one_csv.code == 0);
    const auto one_lines = split(one_csv.out, '\n');
    REQUIRE(one_lines.size() == 2);
    auto want = csv_row(one_lines[0], one_lines[1]);
    auto got = csv_row(lines[0], lines[static_cast<std::size_t>(i) + 1]);
    CHECK(got["fire.range"] == std::to_string(range_at(i)));
    CHECK(got["fire.extra_drm"] == std::to_string(drm_at(i)));
    want.erase("file");
    for (const auto& [column, value] : want) {
      INFO(column);
      CHECK(got[column] == value);
    }
    // JSON carries every number to the last digit: the whole result must be equal.
    const auto one_json = nlohmann::json::parse(run_salvo({"odds", one, "--format", "json"}).out);
    const auto& mine = j["situations"][static_cast<std::size_t>(i)];
    CHECK(mine["program_hash"] == one_json["situations"][0]["program_hash"]);
    CHECK(mine["results"] == one_json["situations"][0]["results"]);
  }
}

TEST_CASE("a streamed table is the in-memory formatter's text, in every format", "[cli][stream]") {
  TempDir dir;
  using salvo::report::Format;
  using salvo::report::MethodChoice;
  struct Case {
    const char* what;
    std::vector<std::string> files;
    MethodChoice method;
    std::uint64_t trials;  // 0: exact only
  };
  const auto big = big_sweep(dir).string();
  const std::vector<Case> cases{
      {"600 situations, exact", {big}, MethodChoice::kExact, 0},
      {"two files, both methods", {kSweep, kExample}, MethodChoice::kBoth, 4096},
  };
  for (const auto& c : cases) {
    const auto reports = reports_of(c.files, c.trials);
    const auto prov = provenance(c.method, c.trials ? c.trials : 1'000'000, reports.size());
    for (const auto& [format, name] : {std::pair{Format::kText, "text"}, std::pair{Format::kCsv, "csv"},
                                       std::pair{Format::kJson, "json"}, std::pair{Format::kMarkdown, "md"}}) {
      INFO(c.what << ", " << name);
      std::vector<std::string> args{"odds"};
      args.insert(args.end(), c.files.begin(), c.files.end());
      for (const char* a : {"--threads", "1", "--format"}) args.emplace_back(a);
      args.emplace_back(name);
      if (c.trials) {
        args.insert(args.end(), {"--method", "both", "--trials", std::to_string(c.trials)});
      }
      const auto r = run_salvo(args);
      INFO(r.err);
      REQUIRE(r.code == 0);
      CHECK(r.out == salvo::report::format_odds(reports, prov, format));
    }
  }
}

TEST_CASE("SIGINT in a sweep: the situations finished, marked, and how many of how many", "[cli][stream][e2e]") {
  const auto r = run_salvo({"odds", kSweep, "--method", "mc", "--trials", "1000000000000", "--threads", "2"}, 1500);
  INFO(r.err);
  CHECK(r.code == 130);
  CHECK(r.out.rfind("1 situations from " + kSweep + "\n", 0) == 0);
  CHECK(r.out.find(" trials (1 of 12 situations reported)\n") != std::string::npos);
}

TEST_CASE("an HTML page holds at most 10000 situations: more are refused before any work", "[cli][stream]") {
  TempDir dir;
  std::vector<int> ranges(101, 6), drms(100, 0);
  const auto path = sweep_file(dir, "wide.toml", ranges, drms).string();
  const auto r = run_salvo({"odds", path, "--format", "html"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "salvo: --format html: 10100 situations, more than a page holds (10000); use csv, json, md or text\n");
}

#ifndef SALVO_SANITIZED  // the sanitizers' own bookkeeping would dwarf what is measured
TEST_CASE("memory does not grow with the sweep", "[cli][stream]") {
  // Peak resident memory of a salvo run, in KB, measured by a python3 parent: a child forked
  // from this test process would count this process's pages as its own.
  const std::string kPeak =
      "import resource, subprocess, sys\n"
      "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
      "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -1)\n";
  TempDir dir;
  std::vector<int> ranges;
  for (int r = 1; r <= 20; ++r) ranges.push_back(r);
  auto peak_kb = [&](int drms) {  // 20 x drms situations, exact, to a file
    const auto path = sweep_file(dir, "sweep.toml", ranges, std::vector<int>(static_cast<std::size_t>(drms), 1));
    const auto r = run_program("/usr/bin/python3", {"-c", kPeak, SALVO_BINARY, "odds", path.string(), "--format", "csv",
                                                    "-o", (dir / "out.csv").string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    return std::stol(r.out);
  };
  const long small = peak_kb(50), large = peak_kb(1000);
  INFO("peak RSS: " << small << " KB for 1000 situations, " << large << " KB for 20000");
  REQUIRE(small > 0);
  // Nothing is held per situation: sweep points are made on demand from their index, and
  // results go to the spill. What grows is the parsed file (950 more values on one axis, about
  // 0.2 KB each with their labels). Before lazy sweep points each loaded point stayed (about
  // 0.6 KB: 11 MB here); before streaming, every compiled situation and its results (9 KB each).
  CHECK(large - small < 4'000);
}
#endif
