// Report formatting on hand-made results: no engines, no files.

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "salvo/app/source.h"
#include "salvo/load/toml_util.h"
#include "salvo/report/report.h"
#include "salvo/rules/asl.h"
#include "salvo/rulesets/ruleset.h"
#include "salvo/sim/stats.h"

namespace {

using salvo::report::Format;
using salvo::report::format_odds;
using salvo::report::MethodChoice;
using salvo::report::Provenance;
using salvo::report::SituationReport;
using salvo::sim::Estimate;
using salvo::sim::RunResult;

// Names only: the report must take every name from here.
salvo::report::ResultNames test_names() {
  salvo::report::ResultNames n;
  n.flags = {"hit", "kill", "burn", "malfunction"};
  n.counters = {"shots", "hits"};
  n.outcomes = {"miss", "no_effect", "burn"};
  n.end_reasons = {"rof_exhausted", "target_destroyed"};
  return n;
}

Estimate exact_value(double v) { return {v, v, v}; }

RunResult exact_result() {
  RunResult r;
  r.method = salvo::sim::Method::kExact;
  r.first.flags = {exact_value(0.375), exact_value(0.25), exact_value(0.1), exact_value(0.02)};
  r.first.counters = {exact_value(1.0), exact_value(0.375)};
  r.first.outcomes = {exact_value(0.625), exact_value(0.275), exact_value(0.1)};
  r.run.flags = {exact_value(0.6), exact_value(0.4), exact_value(0.0), exact_value(0.05)};
  r.run.counters = {exact_value(2.25), exact_value(0.8)};
  r.run.outcomes = {exact_value(0.5), exact_value(0.3), exact_value(0.2)};
  r.run.end_reasons = {exact_value(0.7), exact_value(0.3)};
  return r;
}

// An MC result equal to `exact` except for chosen probabilities shifted by k standard errors.
RunResult mc_like(const RunResult& exact, std::uint64_t n) {
  RunResult r = exact;
  r.method = salvo::sim::Method::kMonteCarlo;
  r.trials = n;
  auto widen = [](std::vector<Estimate>& v) {
    for (auto& e : v) {
      e.lo = std::max(0.0, e.value - 0.001);
      e.hi = std::min(1.0, e.value + 0.001);
    }
  };
  for (auto* w : {&r.first, &r.run}) {
    widen(w->flags);
    widen(w->outcomes);
    widen(w->end_reasons);
    for (auto& e : w->counters) {
      e.lo = e.value - 0.01;
      e.hi = e.value + 0.01;
    }
  }
  return r;
}

double se(double p, std::uint64_t n) { return std::sqrt(p * (1 - p) / static_cast<double>(n)); }

SituationReport report(std::string name, std::vector<std::pair<std::string, std::string>> sweep, bool exact, bool mc) {
  SituationReport r;
  r.file = "examples/test.toml";
  r.name = std::move(name);
  r.sweep = std::move(sweep);
  r.program_hash = 0x0123456789abcdefULL;
  r.names = test_names();
  if (exact) r.exact = exact_result();
  if (mc) r.mc = mc_like(exact_result(), 100000);
  return r;
}

Provenance provenance(MethodChoice m) {
  Provenance p;
  p.method = m;
  p.seed = 42;
  p.trials = 100000;
  p.threads = 3;
  p.rules_data_version = "asl-test";
  p.hints = salvo::Registry::global().find("asl")->hints();
  p.rules_data_hash = 0xfeedULL;
  p.situations_total = 1;
  return p;
}

// Split one CSV line, honouring quotes.
std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The line of a text table that starts with `key` (after indentation).
std::string line_starting(const std::string& text, const std::string& key) {
  for (const auto& l : lines_of(text)) {
    const auto b = l.find_first_not_of(' ');
    if (b != std::string::npos && l.compare(b, key.size() + 1, key + " ") == 0) return l;
  }
  return "";
}

}  // namespace

TEST_CASE("disagrees: 4.5 standard errors of the exact value", "[report]") {
  const std::uint64_t n = 10000;
  const double s = se(0.3, n);
  CHECK_FALSE(salvo::report::disagrees(0.3, 0.3 + 4.4 * s, n));
  CHECK(salvo::report::disagrees(0.3, 0.3 + 4.6 * s, n));
  CHECK(salvo::report::disagrees(0.3, 0.3 - 4.6 * s, n));
  CHECK_FALSE(salvo::report::disagrees(0.0, 0.0, n));
  CHECK(salvo::report::disagrees(0.0, 1e-4, n));
  CHECK(salvo::report::disagrees(1.0, 0.9999, n));
  CHECK_FALSE(salvo::report::disagrees(0.3, 0.9, 0));  // no trials: nothing to compare
}

TEST_CASE("json: provenance, names from the program, both methods", "[report]") {
  auto prov = provenance(MethodChoice::kBoth);
  prov.precision = 0.001;
  const auto text =
      format_odds({report("Sherman vs Panther", {{"fire.range", "6"}, {"fire.acquisition", "1"}}, true, true)}, prov,
                  Format::kJson);
  const auto j = nlohmann::json::parse(text);

  CHECK(j["salvo"]["version"] == std::string(salvo::report::version()));
  CHECK(j["salvo"]["git"] == std::string(salvo::report::git_revision()));
  CHECK(j["command"] == "odds");
  CHECK(j["method"] == "both");
  CHECK(j["seed"] == 42);
  CHECK(j["trials"] == 100000);
  CHECK(j["precision"] == 0.001);
  CHECK(j["threads"] == 3);
  CHECK(j["rules_data"]["version"] == "asl-test");
  CHECK(j["rules_data"]["hash"] == "000000000000feed");
  CHECK(j["interrupted"] == false);

  REQUIRE(j["situations"].size() == 1);
  const auto& s = j["situations"][0];
  CHECK(s["file"] == "examples/test.toml");
  CHECK(s["name"] == "Sherman vs Panther");
  CHECK(s["sweep"]["fire.range"] == "6");
  CHECK(s["sweep"]["fire.acquisition"] == "1");
  CHECK(s["program_hash"] == "0123456789abcdef");

  const auto& ex = s["results"]["exact"];
  CHECK(ex["first_shot"]["p_hit"]["p"] == 0.375);
  CHECK(ex["first_shot"]["p_hit"]["lo"] == 0.375);
  CHECK(ex["first_shot"]["e_shots"]["mean"] == 1.0);
  CHECK_FALSE(ex["first_shot"]["e_shots"].contains("p"));
  CHECK(ex["first_shot"]["outcome_miss"]["p"] == 0.625);
  CHECK_FALSE(ex["first_shot"].contains("end_rof_exhausted"));
  CHECK(ex["phase"]["end_target_destroyed"]["p"] == 0.3);
  CHECK(ex["phase"]["p_malfunction"]["p"] == 0.05);
  CHECK_FALSE(ex.contains("trials"));
  // Only the program's names: nothing ASL-specific that the program did not name.
  CHECK(ex["phase"].size() == 4 + 2 + 3 + 2);
  CHECK_FALSE(ex["phase"].contains("p_shock"));

  const auto& mc = s["results"]["mc"];
  CHECK(mc["trials"] == 100000);
  CHECK(mc["interrupted"] == false);
  CHECK(mc["phase"]["p_hit"]["hi"] == Approx(0.601));

  // precision null when not given
  prov.precision.reset();
  const auto j2 = nlohmann::json::parse(format_odds({report("x", {}, true, false)}, prov, Format::kJson));
  CHECK(j2["precision"].is_null());
  CHECK(j2["situations"][0]["sweep"].is_object());
  CHECK(j2["situations"][0]["sweep"].empty());
}

namespace {

// Each (column, value) of `cells` is the value of that column of `row`: one check a cell.
void check_cells(const std::vector<std::string>& row, const std::vector<std::pair<std::size_t, std::string>>& cells) {
  for (const auto& [column, value] : cells) {
    INFO("column " << column);
    CHECK(row.at(column) == value);
  }
}

}  // namespace

TEST_CASE("csv: header and one row per situation and method", "[report]") {
  const std::vector<SituationReport> reps{
      report("a, quoted \"name\"", {{"fire.range", "6"}}, true, true),
      report("b", {{"fire.range", "12"}}, true, true),
  };
  auto prov = provenance(MethodChoice::kBoth);
  prov.situations_total = 2;
  const auto lines = lines_of(format_odds(reps, prov, Format::kCsv));
  REQUIRE(lines.size() == 1 + 4);

  const auto header = csv_split(lines[0]);
  // file,name,sweep,method,trials + first/phase triples of flags, counters, outcomes + phase ends
  const std::size_t expected = 5 + 3 * (2 * (4 + 2 + 3) + 2);
  CHECK(header.size() == expected);
  check_cells(header, {{0, "file"},
                       {1, "name"},
                       {2, "fire.range"},
                       {3, "method"},
                       {4, "trials"},
                       {5, "first_p_hit"},
                       {6, "first_p_hit_lo"},
                       {7, "first_p_hit_hi"},
                       {8, "phase_p_hit"}});
  CHECK(header.back() == "phase_end_target_destroyed_hi");
  CHECK(std::find(header.begin(), header.end(), "first_end_rof_exhausted") == header.end());
  CHECK(std::find(header.begin(), header.end(), "interrupted") == header.end());

  for (std::size_t i = 1; i < lines.size(); ++i) CHECK(csv_split(lines[i]).size() == expected);
  check_cells(csv_split(lines[1]),
              {{1, "a, quoted \"name\""}, {2, "6"}, {3, "exact"}, {4, ""}, {5, "0.375"}, {6, "0.375"}});
  check_cells(csv_split(lines[2]), {{3, "mc"}, {4, "100000"}, {6, "0.374"}});
  CHECK(csv_split(lines[3])[2] == "12");

  // Interrupted: an extra last column
  prov.interrupted = true;
  const auto ilines = lines_of(format_odds(reps, prov, Format::kCsv));
  CHECK(csv_split(ilines[0]).back() == "interrupted");
  CHECK(csv_split(ilines[1]).size() == expected + 1);
}

TEST_CASE("text, both methods: ! exactly where exact and mc disagree", "[report]") {
  auto r = report("Sherman vs Panther", {}, true, true);
  const std::uint64_t n = r.mc->trials;
  r.mc->first.flags[0].value = 0.375 + 5.0 * se(0.375, n);  // first p_hit: flagged
  r.mc->run.flags[1].value = 0.4 - 4.0 * se(0.4, n);        // phase p_kill: within 4.5 se
  r.mc->run.flags[2].value = 1e-5;                          // phase p_burn: exact 0, flagged
  r.mc->run.end_reasons[1].value = 0.3 + 6.0 * se(0.3, n);  // end_target_destroyed: flagged

  const auto text = format_odds({r}, provenance(MethodChoice::kBoth), Format::kText);
  INFO(text);
  CHECK(line_starting(text, "p_hit").find('!') != std::string::npos);
  CHECK(line_starting(text, "p_kill").find('!') == std::string::npos);
  CHECK(line_starting(text, "p_burn").find('!') != std::string::npos);
  CHECK(line_starting(text, "p_malfunction").find('!') == std::string::npos);
  CHECK(line_starting(text, "e_shots").find('!') == std::string::npos);
  CHECK(line_starting(text, "end_target_destroyed").find('!') != std::string::npos);
  CHECK(line_starting(text, "end_rof_exhausted").find('!') == std::string::npos);
  CHECK(text.find("3 flags raised") != std::string::npos);

  // Agreement: no mark at all
  const auto calm = format_odds({report("x", {}, true, true)}, provenance(MethodChoice::kBoth), Format::kText);
  INFO(calm);
  for (const auto& l : lines_of(calm))
    if (l.rfind("! marks", 0) != 0) CHECK(l.find('!') == std::string::npos);
  CHECK(calm.find("0 flags raised") != std::string::npos);
}

TEST_CASE("text, one situation: vertical table with percentages", "[report]") {
  const auto ex = format_odds({report("Sherman vs Panther", {{"fire.range", "6"}}, true, false)},
                              provenance(MethodChoice::kExact), Format::kText);
  INFO(ex);
  CHECK(ex.rfind("Sherman vs Panther\n", 0) == 0);
  CHECK(ex.find("examples/test.toml") != std::string::npos);
  CHECK(ex.find("asl-test (00000000)") != std::string::npos);
  CHECK(ex.find("first shot") != std::string::npos);
  CHECK(ex.find("how the phase ended") != std::string::npos);
  const auto hit = line_starting(ex, "p_hit");
  CHECK(hit.find("37.5%") != std::string::npos);
  CHECK(hit.find("60.0%") != std::string::npos);
  CHECK(line_starting(ex, "e_shots").find("2.250") != std::string::npos);
  CHECK(line_starting(ex, "end_rof_exhausted").find("70.0%") != std::string::npos);
  CHECK(ex.find("INTERRUPTED") == std::string::npos);

  auto mc = report("x", {}, false, true);
  mc.mc->interrupted = true;
  mc.mc->trials = 65536;
  const auto mt = format_odds({mc}, provenance(MethodChoice::kMonteCarlo), Format::kText);
  INFO(mt);
  CHECK(line_starting(mt, "p_hit").find("37.5% [ 37.4,  37.6]") != std::string::npos);
  CHECK(mt.find("INTERRUPTED after 65536 trials") != std::string::npos);
  CHECK(mt.find("seed 42") != std::string::npos);
}

TEST_CASE("text, several situations: one compact row each, sweep values leading", "[report]") {
  std::vector<SituationReport> reps;
  for (const char* range : {"3", "6", "12"}) reps.push_back(report("r", {{"fire.range", range}}, true, false));
  auto prov = provenance(MethodChoice::kExact);
  prov.situations_total = 3;
  const auto text = format_odds(reps, prov, Format::kText);
  INFO(text);
  const auto head = line_starting(text, "fire.range");
  CHECK(head.find("first p_hit") != std::string::npos);
  CHECK(head.find("p_burn") != std::string::npos);
  CHECK(head.find("p_shock") == std::string::npos);  // the program names no shock flag
  CHECK(line_starting(text, "12").find("37.5%") != std::string::npos);
  int rows = 0;
  for (const auto& l : lines_of(text)) rows += l.find("2.250") != std::string::npos ? 1 : 0;
  CHECK(rows == 3);
}

TEST_CASE("compact tables name the first window turn 1 for situations over several turns", "[report]") {
  // A program over several turns records per-turn quantities (its turn series); its first
  // window is the whole of turn 1, not the first shot.
  auto duel = [](std::string name) {
    SituationReport r = report(std::move(name), {}, true, false);
    r.names.end_reasons = {"destroyed_turn_1", "turns_over"};
    r.names.turn_series = {{salvo::RollProgram::TurnSeries::Kind::kEndReason, "destroyed", 0, 1}};
    return r;
  };
  auto prov = provenance(MethodChoice::kExact);
  prov.situations_total = 2;
  const auto both_duels = format_odds({duel("a"), duel("b")}, prov, Format::kText);
  INFO(both_duels);
  const auto head = line_starting(both_duels, "situation");
  CHECK(head.find("turn 1 p_hit") != std::string::npos);
  CHECK(head.find("all turns p_hit") != std::string::npos);
  CHECK(head.find("first p_hit") == std::string::npos);
  CHECK(both_duels.find("first: the first shot") == std::string::npos);
  const auto mixed = format_odds({duel("a"), report("b", {}, true, false)}, prov, Format::kText);
  INFO(mixed);
  CHECK(line_starting(mixed, "situation").find("first p_hit") != std::string::npos);
  CHECK(mixed.find("\nfirst: the first shot, or turn 1 of a situation over several turns; phase: the whole run\n") !=
        std::string::npos);
  const auto md = format_odds({duel("a")}, prov, Format::kMarkdown);
  CHECK(md.find("_first: the first shot, or turn 1 of a situation over several turns; phase: the whole run_") !=
        std::string::npos);
  // Without turns there is no footnote.
  const auto plain = format_odds({report("a", {}, true, false), report("b", {}, true, false)}, prov, Format::kText);
  CHECK(plain.find("first: the first shot") == std::string::npos);
}

TEST_CASE("the first window of a run over several turns (turn 1) leaves out the quantities of later turns",
          "[report]") {
  SituationReport r = report("duel", {}, true, false);
  r.names.flags = {"hit", "destroyed_by_turn_1", "destroyed_by_turn_2", "malfunction"};
  r.names.turn_series = {{salvo::RollProgram::TurnSeries::Kind::kFlag, "destroyed_by", 1, 2}};
  auto prov = provenance(MethodChoice::kExact);
  const auto j = nlohmann::json::parse(format_odds({r}, prov, Format::kJson));
  const auto& exact = j["situations"][0]["results"]["exact"];
  CHECK(exact["first_shot"].contains("p_destroyed_by_turn_1"));
  CHECK_FALSE(exact["first_shot"].contains("p_destroyed_by_turn_2"));
  CHECK(exact["phase"].contains("p_destroyed_by_turn_2"));
  const auto csv = format_odds({r}, prov, Format::kCsv);
  CHECK(csv.find("first_p_destroyed_by_turn_2") == std::string::npos);
  CHECK(csv.find("phase_p_destroyed_by_turn_2") != std::string::npos);
}

TEST_CASE("markdown: key columns, intervals, provenance", "[report]") {
  auto prov = provenance(MethodChoice::kMonteCarlo);
  const auto md = format_odds({report("x | y", {{"fire.range", "6"}}, false, true)}, prov, Format::kMarkdown);
  INFO(md);
  const auto lines = lines_of(md);
  REQUIRE(lines.size() >= 4);
  CHECK(lines[0].find("| name | fire.range | first_p_hit | first_p_kill | phase_p_hit |") == 0);
  CHECK(lines[1].find("---") != std::string::npos);
  CHECK(lines[2].find("x \\| y") != std::string::npos);
  CHECK(lines[2].find("0.375 ±0.001") != std::string::npos);
  CHECK(md.find("seed 42") != std::string::npos);
  CHECK(md.find("asl-test") != std::string::npos);
}

TEST_CASE("explain: modifiers with rules and the Original DR", "[report]") {
  salvo::asl::Explanation explanation;
  explanation.th_color = "red (American)";
  salvo::asl::ShotExplain s;
  s.label = "shot 1 (AP)";
  s.basic_th = 10;
  s.th_mods = {{"L barrel", 1, "C4.12"}};
  s.modified_th = 11;
  s.drm = {{"Case I: buttoned up", 1, "C5.9"}, {"Acquisition", -1, "C6.5"}, {"Case J: moving", 2, "C6.1"}};
  s.total_drm = 2;
  s.rof = 1;
  s.breakdown = 12;
  s.kills = {{"hull front", 13, {{"range", -1, "C7.21"}}, 18, -5, false}};
  explanation.shots = {s};
  explanation.notes = {"Hull Down ignored"};
  const auto text = salvo::asl::format_explanation(explanation);
  INFO(text);
  CHECK(text.find("red (American)") != std::string::npos);
  CHECK(text.find("+1  L barrel (C4.12)") != std::string::npos);
  CHECK(text.find("-1  Acquisition (C6.5)") != std::string::npos);
  CHECK(text.find("Modified TH#   11") != std::string::npos);
  CHECK(text.find("total DRM      +2") != std::string::npos);
  CHECK(text.find("hits on Final DR <= 11, i.e. Original DR <= 9") != std::string::npos);
  CHECK(text.find("-1 range (C7.21)") != std::string::npos);
  CHECK(line_starting(text, "hull front").find("-5") != std::string::npos);
  CHECK(text.find("Hull Down ignored") != std::string::npos);
}

TEST_CASE("text percentages: a chance that is neither 0 nor 1 never prints as 0.0% or 100.0%", "[report]") {
  using salvo::report::format_percent;
  CHECK(format_percent(0.0) == "0.0%");
  CHECK(format_percent(1.0) == "100.0%");
  CHECK(format_percent(0.375) == "37.5%");
  CHECK(format_percent(0.0005) == "0.1%");  // from 0.05% on, one decimal
  CHECK(format_percent(0.000231) == "0.023%");
  CHECK(format_percent(1.0 / 46656.0) == "0.002%");  // one chance in 6^6
  CHECK(format_percent(2e-9) == "<0.001%");
  CHECK(format_percent(0.99972) == "99.972%");
  CHECK(format_percent(1.0 - 1e-12) == ">99.999%");
  CHECK(format_percent(0.9994) == "99.9%");
  CHECK(format_percent(std::nan("")) == "-");
}

// ---------------------------------------------------------------------------------------------
// Expectation intervals (issue 13): within the range of a counter, "no interval" with fewer than
// 2 trials, and the ! flag for means in --method both.

namespace {

// A Monte Carlo result from `n` trials whose means (e_shots, e_hits) come from these tallies
// (sum, sum of squares) per window, through mean_interval as the engine computes them.
RunResult mc_means(std::uint64_t n, std::array<std::uint64_t, 4> first, std::array<std::uint64_t, 4> run) {
  RunResult r = mc_like(exact_result(), n);
  r.first.counters = {salvo::sim::mean_interval(first[0], first[1], n),
                      salvo::sim::mean_interval(first[2], first[3], n)};
  r.run.counters = {salvo::sim::mean_interval(run[0], run[1], n), salvo::sim::mean_interval(run[2], run[3], n)};
  return r;
}

// The cells of `key`'s text line after the key, split on runs of two or more spaces.
std::vector<std::string> text_cells(const std::string& text, const std::string& key) {
  const std::string line = line_starting(text, key);
  std::vector<std::string> cells;
  std::size_t i = line.find(key) + key.size();
  while (i < line.size()) {
    const std::size_t b = line.find_first_not_of(' ', i);
    if (b == std::string::npos) break;
    std::size_t e = line.find("  ", b);
    if (e == std::string::npos) e = line.size();
    cells.push_back(line.substr(b, e - b));
    i = e;
  }
  return cells;
}

// A situation (with its exact result if `exact`) whose Monte Carlo result of `n` trials has the
// means of mc_means, and the provenance of that run.
struct MeansRun {
  SituationReport report;
  Provenance prov;
};
MeansRun means_run(std::string name, bool exact, MethodChoice method, std::uint64_t n,
                   std::array<std::uint64_t, 4> first, std::array<std::uint64_t, 4> run) {
  MeansRun m{report(std::move(name), {}, exact, false), provenance(method)};
  m.report.mc = mc_means(n, first, run);
  m.prov.trials = n;
  return m;
}

// A means run printed in every format, as the tests take each apart.
struct Printed {
  std::string text;
  std::string md;
  std::vector<std::string> csv;  // lines
  nlohmann::json json;
};
Printed printed(const MeansRun& m) {
  const auto format = [&](Format f) { return format_odds({m.report}, m.prov, f); };
  return {format(Format::kText), format(Format::kMarkdown), lines_of(format(Format::kCsv)),
          nlohmann::json::parse(format(Format::kJson))};
}

// The text table's mean cells: e_shots', then e_hits'.
void check_mean_cells(const std::string& text, const std::vector<std::string>& shots,
                      const std::vector<std::string>& hits) {
  CHECK(text_cells(text, "e_shots") == shots);
  CHECK(text_cells(text, "e_hits") == hits);
}

}  // namespace

TEST_CASE("means: one trial prints no interval in every format, never a zero width", "[report][issue13]") {
  // One trial: 1 shot and 1 hit in the first window, 2 and 2 over the phase
  const auto [text, md, csv, j] =
      printed(means_run("one trial", false, MethodChoice::kMonteCarlo, 1, {1, 1, 1, 1}, {2, 4, 2, 4}));

  INFO(text);
  check_mean_cells(text, {"1.000 [?, ?]", "2.000 [?, ?]"}, {"1.000 [?, ?]", "2.000 [?, ?]"});
  CHECK(text.find("\n[?, ?]: no interval: a mean needs 2 or more trials to estimate its variance\n") !=
        std::string::npos);
  for (const char* bad : {"inf", "nan"}) CHECK(text.find(bad) == std::string::npos);

  INFO(md);
  const std::string row2 = lines_of(md)[2];
  const std::string want = "| 2.000 ±? | 2.000 ±? |";  // phase e_shots, e_hits
  CHECK(row2.compare(row2.size() - want.size(), want.size(), want) == 0);
  CHECK(md.find("_±?: no interval: a mean needs 2 or more trials to estimate its variance_") != std::string::npos);

  const auto head = csv_split(csv[0]);
  const auto row = csv_split(csv[1]);
  const auto field = [&](const std::string& name) {
    const auto it = std::find(head.begin(), head.end(), name);
    REQUIRE(it != head.end());
    return row[static_cast<std::size_t>(it - head.begin())];
  };
  CHECK(field("phase_e_shots") == "2");
  CHECK(field("phase_e_shots_lo").empty());
  CHECK(field("phase_e_shots_hi").empty());
  CHECK(field("first_e_hits") == "1");
  CHECK(field("first_e_hits_lo").empty());
  CHECK(field("first_e_hits_hi").empty());
  CHECK(field("phase_p_hit_lo") == "0.599");  // probabilities keep their intervals

  const auto& shots = j["situations"][0]["results"]["mc"]["phase"]["e_shots"];
  CHECK(shots == nlohmann::json::parse(R"({"mean": 2.0, "no_interval": "fewer than 2 trials"})"));
  CHECK(j["situations"][0]["results"]["mc"]["phase"]["p_hit"].contains("lo"));
}

TEST_CASE("means: an interval never goes below 0, in every format", "[report][issue13]") {
  // Two trials: 0 and 1 hits (mean 0.5, the normal interval [-0.480, 1.480]); 1 and 6 shots
  // (mean 3.5, [-1.400, 8.400])
  const auto [text, md, csv, j] =
      printed(means_run("two trials", false, MethodChoice::kMonteCarlo, 2, {7, 37, 1, 1}, {7, 37, 1, 1}));

  INFO(text);
  check_mean_cells(text, {"3.500 [0.000, 8.400]", "3.500 [0.000, 8.400]"},
                   {"0.500 [0.000, 1.480]", "0.500 [0.000, 1.480]"});
  CHECK(text.find("[?, ?]") == std::string::npos);

  INFO(md);
  CHECK(lines_of(md)[2].find("| 3.500 [0.000, 8.400] | 0.500 [0.000, 1.480] |") != std::string::npos);

  const auto& phase = j["situations"][0]["results"]["mc"]["phase"];
  CHECK(phase["e_shots"]["lo"] == 0.0);
  CHECK(phase["e_shots"]["hi"].get<double>() == Approx(8.3999099614));
  CHECK(phase["e_hits"]["lo"] == 0.0);

  CHECK(csv[1].find(",3.5,0,8.39991,") != std::string::npos);
}

TEST_CASE("mean_disagrees: 4.5 standard errors of the Monte Carlo sample, any difference with 1 trial",
          "[report][issue13]") {
  using salvo::report::mean_disagrees;
  using salvo::sim::kZ95;
  const double s = 0.01;  // sd / sqrt(n)
  const auto mc = [&](double v) { return Estimate{v, v - kZ95 * s, v + kZ95 * s}; };
  CHECK_FALSE(mean_disagrees(2.25, mc(2.25 + 4.4 * s), 10000));
  CHECK(mean_disagrees(2.25, mc(2.25 + 4.6 * s), 10000));
  CHECK(mean_disagrees(2.25, mc(2.25 - 4.6 * s), 10000));
  // Clamped at 0: the standard error is the upper side's (0.5 here, from observations 0 and 1)
  const Estimate clamped = salvo::sim::mean_interval(1, 1, 2);
  CHECK_FALSE(mean_disagrees(0.0, clamped, 2));
  CHECK_FALSE(mean_disagrees(0.5 + 4.4 * 0.5, clamped, 2));
  CHECK(mean_disagrees(0.5 + 4.6 * 0.5, clamped, 2));
  // Sample variance 0 (every trial counted 1): any difference beyond the exact value's rounding
  const Estimate constant = salvo::sim::mean_interval(1000, 1000, 1000);
  CHECK_FALSE(mean_disagrees(1.0, constant, 1000));
  CHECK_FALSE(mean_disagrees(1.0 - 1e-15, constant, 1000));
  CHECK(mean_disagrees(1.168, constant, 1000));
  // One trial: no variance, no interval: any difference
  const Estimate one = salvo::sim::mean_interval(2, 4, 1);
  CHECK(mean_disagrees(1.168, one, 1));
  CHECK(mean_disagrees(1.999, one, 1));
  CHECK_FALSE(mean_disagrees(2.0, one, 1));
  CHECK_FALSE(mean_disagrees(1.168, salvo::sim::mean_interval(0, 0, 0), 0));  // no trials: nothing to compare
}

TEST_CASE("text, both methods: ! on means too", "[report][issue13]") {
  SECTION("many trials: beyond 4.5 standard errors") {
    auto r = report("x", {}, true, true);
    const double s = 0.01 / salvo::sim::kZ95;  // mc_like's means: ±0.01
    r.mc->run.counters[0].value += 5.0 * s;    // phase e_shots: flagged
    r.mc->run.counters[0].lo += 5.0 * s;
    r.mc->run.counters[0].hi += 5.0 * s;
    r.mc->run.counters[1].value -= 4.0 * s;  // phase e_hits: within 4.5 se
    r.mc->run.counters[1].lo -= 4.0 * s;
    r.mc->run.counters[1].hi -= 4.0 * s;
    const auto text = format_odds({r}, provenance(MethodChoice::kBoth), Format::kText);
    INFO(text);
    CHECK(text_cells(text, "e_shots") ==
          std::vector<std::string>{"1.000", "1.000 [0.990, 1.010]", "2.250", "2.276 [2.266, 2.286] !"});
    CHECK(line_starting(text, "e_hits").find('!') == std::string::npos);
    CHECK(text.find("! marks a Monte Carlo probability or mean more than 4.5 standard errors from the exact "
                    "value (a mean of fewer than 2 trials: any difference): 1 flag raised\n") != std::string::npos);
  }
  SECTION("one trial: every mean that differs from exact") {
    // exact: e_shots 1.000 and 2.250, e_hits 0.375 and 0.800; the trial: 1 shot and 1 hit in the
    // first window, 2 and 1 over the phase
    const std::string text = printed(means_run("x", true, MethodChoice::kBoth, 1, {1, 1, 1, 1}, {2, 4, 1, 1})).text;
    INFO(text);
    check_mean_cells(text, {"1.000", "1.000 [?, ?]", "2.250", "2.000 [?, ?] !"},
                     {"0.375", "1.000 [?, ?] !", "0.800", "1.000 [?, ?] !"});
    CHECK(text.find("): 3 flags raised\n") != std::string::npos);
  }
  SECTION("several situations: the compact table marks the e_ columns") {
    auto [a, prov] = means_run("a", true, MethodChoice::kBoth, 1, {1, 1, 1, 1}, {2, 4, 1, 1});
    a.sweep = {{"fire.range", "6"}};
    prov.situations_total = 2;
    auto b = a;
    b.sweep = {{"fire.range", "12"}};
    const auto text = format_odds({a, b}, prov, Format::kText);
    INFO(text);
    REQUIRE(lines_of(text).size() > 8);
    std::string mc_row;
    for (const auto& l : lines_of(text))
      if (l.find(" mc ") != std::string::npos && mc_row.empty()) mc_row = l;
    const std::string want = "2.000 !   1.000 !";  // e_shots, e_hits
    CHECK(mc_row.compare(mc_row.size() - want.size(), want.size(), want) == 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Names with control characters (issue 13): escaped in text, Markdown and explain, as the
// loader's messages show them.

TEST_CASE("printable: a name holding a control character as a TOML string", "[report][issue13]") {
  using salvo::report::printable;
  CHECK(printable("Sherman 75 vs Panther") == "Sherman 75 vs Panther");
  CHECK(printable("a \"quoted\" \\ name") == "a \"quoted\" \\ name");  // no control character: as given
  CHECK(printable("x\ny") == "\"x\\ny\"");
  CHECK(printable("a\x1b[31mRED") == "\"a\\u001B[31mRED\"");
  CHECK(printable("t\tq\"\\\x7f\r") == "\"t\\tq\\\"\\\\\\u007F\\r\"");
  CHECK(printable(std::string("n\0ul", 4)) == "\"n\\u0000ul\"");
  CHECK(printable("\b\f") == "\"\\b\\f\"");
}

TEST_CASE("names with control characters: no raw escape or newline in text, Markdown or explain", "[report][issue13]") {
  const std::string esc = "a\x1b[31mRED";
  const std::string nl = "x\ny";
  const std::string pipe = "p|q\r";

  const auto single =
      format_odds({report(esc, {{"target.label", nl}}, true, false)}, provenance(MethodChoice::kExact), Format::kText);
  INFO(single);
  CHECK(single.rfind("\"a\\u001B[31mRED\"\n", 0) == 0);
  CHECK(single.find("  target.label  \"x\\ny\"\n") != std::string::npos);
  CHECK(single.find('\x1b') == std::string::npos);

  std::vector<SituationReport> reps{report(esc, {}, true, false), report(nl, {}, true, false),
                                    report(pipe, {}, true, false)};
  auto prov = provenance(MethodChoice::kExact);
  prov.situations_total = 3;
  const auto compact = format_odds(reps, prov, Format::kText);
  INFO(compact);
  CHECK(compact.find('\x1b') == std::string::npos);
  CHECK(compact.find('\r') == std::string::npos);
  CHECK(line_starting(compact, "\"a\\u001B[31mRED\"").find("37.5%") != std::string::npos);
  CHECK(line_starting(compact, "\"x\\ny\"").find("37.5%") != std::string::npos);
  CHECK(line_starting(compact, "\"p|q\\r\"").find("37.5%") != std::string::npos);

  const auto md = format_odds(reps, prov, Format::kMarkdown);
  INFO(md);
  const auto lines = lines_of(md);
  REQUIRE(lines.size() >= 5);
  CHECK(lines[2].rfind("| \"a\\u001B[31mRED\" | 0.375 |", 0) == 0);
  CHECK(lines[3].rfind("| \"x\\ny\" | 0.375 |", 0) == 0);
  CHECK(lines[4].rfind("| \"p\\|q\\r\" | 0.375 |", 0) == 0);
  CHECK(md.find('\x1b') == std::string::npos);
  // Every table row is whole: it starts and ends with '|'
  for (std::size_t i = 0; i < 5; ++i) CHECK((lines[i].front() == '|' && lines[i].back() == '|'));

  const auto text = salvo::app::explain_heading("t.toml", nl, {{"name", esc}});
  INFO(text);
  CHECK(text.rfind("== \"x\\ny\"  (t.toml)\n   name = \"a\\u001B[31mRED\"\n", 0) == 0);
}
