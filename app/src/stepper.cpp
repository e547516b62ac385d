// Monte Carlo a few blocks at a time, for the browser's worker.
#include "salvo/app/stepper.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>

#include "runner_parts.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "text_options.h"

namespace salvo::app {

OddsStepper::OddsStepper(const std::string& situation_toml, const std::string& options_json) {
  try {
    const text::TextOptions t = text::parse_options(options_json);
    options_ = odds_options(t.flags);
    settings_ = odds_settings(options_);
    source_ = std::make_unique<SituationSource>(text::odds_source(t.name, situation_toml, options_));
    // Every situation compiled once first, as the runner does: a rules conflict costs no trials;
    // and with --method auto, which engine each one takes (detail::runs_exact). The first one's
    // program is kept for its run (a page with one situation compiles it once).
    for (std::size_t i = 0; i < source_->size(); ++i) {
      Job job = source_->compile(i);
      const bool exact = detail::runs_exact(job, settings_);
      mc_.push_back(settings_.mc() && !(exact && settings_.method == report::MethodChoice::kAuto) ? 1 : 0);
      if (i == 0) job_ = std::move(job);
    }
    if (source_->size() > 0) start_situation(true);
  } catch (const std::exception& e) {
    error_ = error_exit(e).message;
  }
}

void OddsStepper::start_situation(bool compiled) {
  if (!compiled) job_ = source_->compile(current_);
  report_ = empty_report(job_);
  if (settings_.exact() && detail::runs_exact(job_, settings_)) report_.exact = sim::solve_exact(job_.program);
  blocks_ = 0;
  tallies_ = sim::empty_tallies(job_.program);
  kernel_.reset();  // prepared at its first block: a situation run exactly needs none
}

OddsStepper::~OddsStepper() = default;

bool OddsStepper::step(std::uint32_t max_blocks) {
  if (!error_.empty() || !source_) return false;
  try {
    std::uint64_t budget = std::max<std::uint32_t>(max_blocks, 1);
    while (current_ < source_->size()) {
      const std::uint64_t trials = mc_[current_] ? settings_.trials : 0;
      const std::uint64_t num_blocks = (trials + sim::kBlockTrials - 1) / sim::kBlockTrials;
      if (blocks_ < num_blocks) {
        if (budget == 0) return true;
        // The engine's blocks, on the kernel sim::monte_carlo picks for this program.
        const std::uint64_t end = std::min(num_blocks, blocks_ + budget);
        if (!kernel_) kernel_ = std::make_unique<sim::PreparedProgram>(job_.program, trials);
        sim::add_tallies(tallies_, kernel_->run(settings_.seed, current_, blocks_, end, trials));
        budget -= end - blocks_;
        blocks_ = end;
        continue;
      }
      if (mc_[current_]) report_.mc = sim::estimates_from(job_.program, tallies_);
      reports_.push_back(std::move(report_));
      if (++current_ < source_->size()) start_situation(false);
    }
  } catch (const std::exception& e) {
    error_ = error_exit(e).message;
  }
  return false;
}

double OddsStepper::trials_done() const {
  const auto mc_done = std::count(mc_.begin(), mc_.begin() + static_cast<std::ptrdiff_t>(reports_.size()), 1);
  return static_cast<double>(mc_done) * static_cast<double>(settings_.trials) +
         static_cast<double>(current_ < (source_ ? source_->size() : 0) ? tallies_.trials : 0);
}

double OddsStepper::trials_planned() const {
  return static_cast<double>(std::count(mc_.begin(), mc_.end(), 1)) * static_cast<double>(settings_.trials);
}

std::string OddsStepper::json() const {
  if (!error_.empty()) return nlohmann::json{{"error", error_}}.dump();
  try {
    std::vector<report::SituationReport> reports = reports_;
    const bool finished = current_ >= source_->size();
    if (!finished && tallies_.trials > 0) {
      // The situation under way, with the intervals of the trials run (the runner keeps it too)
      report::SituationReport r = report_;
      r.mc = sim::estimates_from(job_.program, tallies_);
      r.mc->interrupted = true;
      reports.push_back(std::move(r));
    }
    RunStatus status;
    for (const report::SituationReport& r : reports) {
      status.exact_runs += r.exact ? 1 : 0;
      status.mc_runs += r.mc ? 1 : 0;
    }
    report::Provenance prov = provenance_of(*source_, settings_, status);
    prov.interrupted = !finished;
    return report::format_odds(reports, prov, options_.format);
  } catch (const std::exception& e) {
    return nlohmann::json{{"error", error_exit(e).message}}.dump();
  }
}

}  // namespace salvo::app
