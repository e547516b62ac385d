// Situation files into compiled jobs, dispatching on the file's ruleset.
#include "jobs.h"

#include <fmt/format.h>

#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"
#include "salvo/rules/asl.h"
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

}  // namespace

std::vector<Job> load_jobs(const std::vector<std::string>& paths, const JobOptions& options) {
  std::vector<Job> jobs;
  for (const std::string& path : paths) {
    // The ruleset decides the loader. A file without a (valid) ruleset goes to the ASL loader,
    // which reports what is wrong with it.
    const std::string ruleset = load::ruleset_of_file(path);
    load_asl(path, options, jobs);
    (void)ruleset;
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
  }
  return out;
}

}  // namespace salvo::cli
