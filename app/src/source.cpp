// Situation files into compiled jobs, through the ruleset each file names.
#include "salvo/app/source.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "salvo/core/hash.h"
#include "salvo/core/text.h"
#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"

namespace salvo::app {

SituationSource::SituationSource(const std::vector<std::string>& paths, const SourceOptions& options,
                                 const Registry& registry)
    : options_(options) {
  // Each file is read once (so a pipe such as /dev/stdin works)
  for (const std::string& path : paths) add(path, load::read_text_file(path, options.limits.max_file_bytes), registry);
}

SituationSource::SituationSource(const std::vector<SourceText>& texts, const SourceOptions& options,
                                 const Registry& registry)
    : options_(options) {
  for (const SourceText& t : texts)
    add(t.name, load::checked_text(t.text, t.name, options.limits.max_file_bytes), registry);
}

void SituationSource::add(const std::string& path, const std::string& text, const Registry& registry) {
  // The file's ruleset key picks the ruleset. A file without a known ruleset goes to the default
  // one, which says what is wrong.
  File f;
  f.begin = size_;
  f.path = path;
  f.ruleset = &registry.for_file(load::ruleset_of_text(text, path));
  f.file = f.ruleset->load(text, path, options_.limits);
  size_ += f.file->size();
  files_.push_back(std::move(f));
}

Job SituationSource::compile(std::size_t i) const {
  // The last file starting at or before i.
  const auto it =
      std::upper_bound(files_.begin(), files_.end(), i, [](std::size_t k, const File& f) { return k < f.begin; });
  const File& f = *std::prev(it);
  const std::size_t k = i - f.begin;
  Job job;
  job.file = f.path;
  job.ruleset = f.ruleset;
  job.hints = f.file->hints() != nullptr ? f.file->hints() : &f.ruleset->hints();
  job.name = f.file->name(k);
  job.sweep = f.file->sweep(k);
  try {
    CompiledSituation c = f.file->compile(k, options_.explain);
    job.program = std::move(c.program);
    job.states_key = std::move(c.states_key);
    if (options_.explain) job.explain = explain_heading(f.path, job.name, job.sweep) + c.explain;
  } catch (const RulesError& e) {
    // A rules conflict is bad input naming file, situation and key.
    const std::string key = e.key().empty() ? "" : e.key() + ": ";
    throw load::InputError(fmt::format("{}: {}: {}{}", f.path, job.name, key, e.what()));
  }
  return job;
}

std::vector<RulesData> SituationSource::rules_data() const {
  std::vector<RulesData> out;
  for (const File& f : files_) {
    const Ruleset& r = *f.ruleset;
    if (std::any_of(out.begin(), out.end(), [&r](const RulesData& d) { return d.ruleset == r.name(); })) continue;
    // The ruleset's tables, then every distinct data file its situations came with (a 1943
    // chart), in first-use order.
    std::uint64_t h = r.data_hash() != 0 ? r.data_hash() : kFnvOffset;
    std::vector<std::uint64_t> seen;
    for (const File& g : files_) {
      const std::uint64_t d = g.file->data_hash();
      if (g.ruleset != &r || d == 0 || std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
      seen.push_back(d);
      h = fnv_word(h, d);
    }
    out.push_back({std::string(r.name()), std::string(r.data_version()), h});
  }
  return out;
}

DisplayHints SituationSource::hints() const {
  DisplayHints h;
  for (std::size_t k = 0; k < files_.size(); ++k) {
    const DisplayHints& own =
        files_[k].file->hints() != nullptr ? *files_[k].file->hints() : files_[k].ruleset->hints();
    if (k == 0)
      h = own;
    else
      h.merge(own);
  }
  return h;
}

std::vector<std::string> SituationSource::input_paths() const {
  std::vector<std::string> paths;
  for (const File& f : files_) {
    paths.push_back(f.path);
    for (std::string& p : f.file->other_inputs()) paths.push_back(std::move(p));
  }
  return paths;
}

std::string explain_heading(const std::string& file, const std::string& name, const SweepLabel& sweep) {
  std::string out = fmt::format("== {}  ({})\n", printable(name), printable(file));
  for (const auto& [k, v] : sweep) out += fmt::format("   {} = {}\n", printable(k), printable(v));
  return out;
}

}  // namespace salvo::app
