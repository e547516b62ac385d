// Situation files into compiled jobs, dispatching on the file's ruleset.
#include "jobs.h"

#include <fmt/format.h>

#include <algorithm>

#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"
#include "salvo/load/w1943_loader.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/w1943.h"
#include "salvo/sim/report.h"

namespace salvo::cli {
namespace {

// ASL: the strict loader, then the compiler (rules conflicts name the situation and key).
void load_asl(const std::string& path, const JobOptions& options, std::vector<Job>& jobs) {
  load::LoadOptions lo;
  lo.max_situations = options.max_situations;
  const load::LoadedFile file = load::load_file(path, lo);
  jobs.reserve(jobs.size() + file.situations.size());
  for (const load::LoadedSituation& s : file.situations) {
    asl::Compiled compiled;
    try {
      compiled = asl::compile(s.situation);
    } catch (const asl::RulesError& e) {
      const std::string key = e.key().empty() ? "" : e.key() + ": ";
      throw load::InputError(fmt::format("{}: {}: {}{}", file.path, s.situation.name, key, e.what()));
    }
    Job job;
    job.file = file.path;
    job.ruleset = "asl";
    job.name = s.situation.name;
    job.sweep = s.sweep_values;
    job.program = std::move(compiled.program);
    if (options.explain)
      job.explain = sim::format_explain({sim::ExplainReport{file.path, s.situation.name, s.sweep_values, compiled.explain}});
    jobs.push_back(std::move(job));
  }
}

// 1943: the situation file and its chart, then the compiler.
void load_1943(const std::string& path, const JobOptions& options, std::vector<Job>& jobs) {
  load::LoadOptions lo;
  lo.max_situations = options.max_situations;
  const load::W1943File file = load::load_w1943_file(path, lo);
  const std::uint64_t data_hash = w1943::rules_data_hash(*file.chart);
  jobs.reserve(jobs.size() + file.situations.size());
  for (const load::W1943Point& s : file.situations) {
    w1943::Compiled compiled;
    try {
      compiled = w1943::compile(*file.chart, s.situation);
    } catch (const w1943::RulesError& e) {
      const std::string key = e.key().empty() ? "" : e.key() + ": ";
      throw load::InputError(fmt::format("{}: {}: {}{}", file.path, s.situation.name, key, e.what()));
    }
    Job job;
    job.file = file.path;
    job.ruleset = "1943";
    job.name = s.situation.name;
    job.sweep = s.sweep_values;
    job.program = std::move(compiled.program);
    job.data_hash = data_hash;
    if (options.explain) {
      compiled.explain.lines.insert(compiled.explain.lines.begin(), "chart file: " + file.chart_path);
      job.explain = w1943::format_explain(file.path, s.situation.name, s.sweep_values, compiled.explain);
    }
    jobs.push_back(std::move(job));
  }
}

}  // namespace

std::vector<Job> load_jobs(const std::vector<std::string>& paths, const JobOptions& options) {
  std::vector<Job> jobs;
  for (const std::string& path : paths) {
    // The ruleset decides the loader. A file without a (valid) ruleset goes to the ASL loader,
    // which reports what is wrong with it.
    const std::string ruleset = load::ruleset_of_file(path);
    if (ruleset == "1943") load_1943(path, options, jobs);
    else load_asl(path, options, jobs);
  }
  return jobs;
}

std::vector<RulesData> rules_data_of(const std::vector<Job>& jobs) {
  std::vector<RulesData> out;
  for (const Job& j : jobs) {
    bool seen = false;
    for (const RulesData& r : out) seen = seen || r.ruleset == j.ruleset;
    if (seen) continue;
    if (j.ruleset == "asl") out.push_back({"asl", asl::kRulesDataVersion, asl::rules_data_hash()});
    if (j.ruleset == "1943") {
      // The built-in values and every distinct chart the jobs used, in first-use order.
      std::vector<std::uint64_t> charts;
      std::uint64_t h = 14695981039346656037ull;
      for (const Job& k : jobs) {
        if (k.ruleset != "1943" || std::find(charts.begin(), charts.end(), k.data_hash) != charts.end()) continue;
        charts.push_back(k.data_hash);
        h = (h ^ k.data_hash) * 1099511628211ull;
      }
      out.push_back({"1943", w1943::kRulesDataVersion, h});
    }
  }
  return out;
}

}  // namespace salvo::cli
