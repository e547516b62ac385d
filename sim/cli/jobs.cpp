// Situation files into compiled jobs, dispatching on the file's ruleset.
#include "jobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "salvo/core/hash.h"
#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"
#include "salvo/load/w1943_loader.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/w1943.h"
#include "salvo/sim/report.h"

namespace salvo::cli {
namespace {

// The compiler's result; a rules conflict (Error) becomes bad input naming file, situation
// and key.
template <class Error, class Compile>
auto compile_or_throw(const std::string& path, const std::string& name, Compile&& compile) {
  try {
    return compile();
  } catch (const Error& e) {
    const std::string key = e.key().empty() ? "" : e.key() + ": ";
    throw load::InputError(fmt::format("{}: {}: {}{}", path, name, key, e.what()));
  }
}

Job job_of(const std::string& path, const char* ruleset, const std::string& name,
           const std::vector<std::pair<std::string, std::string>>& sweep, RollProgram&& program) {
  Job job;
  job.file = path;
  job.ruleset = ruleset;
  job.name = name;
  job.sweep = sweep;
  job.program = std::move(program);
  return job;
}

Job asl_job(const load::LoadedFile& file, const load::LoadedSituation& s, const JobOptions& options) {
  asl::Compiled compiled = compile_or_throw<asl::RulesError>(file.path, s.situation.name,
                                                             [&] { return asl::compile(s.situation); });
  Job job = job_of(file.path, "asl", s.situation.name, s.sweep_values, std::move(compiled.program));
  if (options.explain)
    job.explain = sim::format_explain({sim::ExplainReport{file.path, s.situation.name, s.sweep_values, compiled.explain}});
  return job;
}

// 1943: the compiler, with the file's chart.
Job w1943_job(const load::W1943File& file, const load::W1943Point& s, std::uint64_t data_hash,
              const JobOptions& options) {
  w1943::Compiled compiled = compile_or_throw<w1943::RulesError>(
      file.path, s.situation.name, [&] { return w1943::compile(*file.chart, s.situation); });
  Job job = job_of(file.path, "1943", s.situation.name, s.sweep_values, std::move(compiled.program));
  job.data_hash = data_hash;
  if (options.explain) {
    compiled.explain.lines.insert(compiled.explain.lines.begin(), "chart file: " + file.chart_path);
    job.explain = w1943::format_explain(file.path, s.situation.name, s.sweep_values, compiled.explain);
  }
  return job;
}

// The rules data behind (ruleset, data hash) pairs, in first-use order.
std::vector<RulesData> rules_data_for(const std::vector<std::pair<std::string, std::uint64_t>>& used) {
  std::vector<RulesData> out;
  for (const auto& [ruleset, data_hash] : used) {
    bool seen = false;
    for (const RulesData& r : out) seen = seen || r.ruleset == ruleset;
    if (seen) continue;
    if (ruleset == "asl") out.push_back({"asl", asl::kRulesDataVersion, asl::rules_data_hash()});
    if (ruleset == "1943") {
      // The built-in values and every distinct chart used, in first-use order.
      std::vector<std::uint64_t> charts;
      std::uint64_t h = kFnvOffset;
      for (const auto& [other, hash] : used) {
        if (other != "1943" || std::find(charts.begin(), charts.end(), hash) != charts.end()) continue;
        charts.push_back(hash);
        h = fnv_word(h, hash);
      }
      out.push_back({"1943", w1943::kRulesDataVersion, h});
    }
  }
  return out;
}

}  // namespace

JobSource::JobSource(const std::vector<std::string>& paths, const JobOptions& options) : options_(options) {
  load::LoadOptions lo;
  lo.max_situations = options.max_situations;
  lo.max_file_bytes = options.max_file_bytes;
  for (const std::string& path : paths) {
    // Each file is read once (so a pipe such as /dev/stdin works); its ruleset decides the
    // loader. A file without a (valid) ruleset goes to the ASL loader, which says what is wrong.
    const std::string text = load::read_text_file(path, lo.max_file_bytes);
    File f;
    f.begin = size_;
    if (load::ruleset_of_text(text, path) == "1943") {
      f.w1943 = load::load_w1943_string(text, path, std::filesystem::path(path).parent_path().string(), lo);
      f.data_hash = w1943::rules_data_hash(*f.w1943->chart);
      size_ += f.w1943->situations.size();
    } else {
      f.asl = load::load_string(text, path, lo);
      size_ += f.asl->situations.size();
    }
    files_.push_back(std::move(f));
  }
}

Job JobSource::compile(std::size_t i) const {
  // The last file starting at or before i.
  const auto it = std::upper_bound(files_.begin(), files_.end(), i,
                                   [](std::size_t k, const File& f) { return k < f.begin; });
  const File& f = *std::prev(it);
  const std::size_t k = i - f.begin;
  if (f.w1943) return w1943_job(*f.w1943, f.w1943->situations.at(k), f.data_hash, options_);
  return asl_job(*f.asl, f.asl->situations.at(k), options_);
}

std::vector<RulesData> JobSource::rules_data() const {
  std::vector<std::pair<std::string, std::uint64_t>> used;
  for (const File& f : files_) used.emplace_back(f.w1943 ? "1943" : "asl", f.data_hash);
  return rules_data_for(used);
}

const load::LoadedFile* JobSource::asl_file(std::size_t k) const {
  return k < files_.size() && files_[k].asl ? &*files_[k].asl : nullptr;
}

std::vector<std::string> JobSource::input_paths() const {
  std::vector<std::string> paths;
  for (const File& f : files_) {
    paths.push_back(f.w1943 ? f.w1943->path : f.asl->path);
    if (f.w1943) paths.push_back(f.w1943->chart_path);
  }
  return paths;
}

std::vector<Job> load_jobs(const std::vector<std::string>& paths, const JobOptions& options) {
  std::vector<Job> jobs;
  for (const std::string& path : paths) {  // each file compiled before the next is loaded
    const JobSource source({path}, options);
    jobs.reserve(jobs.size() + source.size());
    for (std::size_t i = 0; i < source.size(); ++i) jobs.push_back(source.compile(i));
  }
  return jobs;
}

std::vector<RulesData> rules_data_of(const std::vector<Job>& jobs) {
  std::vector<std::pair<std::string, std::uint64_t>> used;
  for (const Job& j : jobs) used.emplace_back(j.ruleset, j.data_hash);
  return rules_data_for(used);
}

}  // namespace salvo::cli
