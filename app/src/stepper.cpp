// Monte Carlo a few blocks at a time, for the browser's worker.
#include "salvo/app/stepper.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>

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
    // Every situation compiled once first, as the runner does: a rules conflict costs no trials.
    for (std::size_t i = 0; i < source_->size(); ++i) source_->compile(i);
    if (source_->size() > 0) start_situation();
  } catch (const std::exception& e) {
    error_ = error_exit(e).message;
  }
}

void OddsStepper::start_situation() {
  job_ = source_->compile(current_);
  report_ = empty_report(job_);
  if (settings_.exact()) report_.exact = sim::solve_exact(job_.program);
  blocks_ = 0;
  tallies_ = sim::empty_tallies(job_.program);
}

bool OddsStepper::step(std::uint32_t max_blocks) {
  if (!error_.empty() || !source_) return false;
  try {
    const std::uint64_t trials = settings_.mc() ? settings_.trials : 0;
    const std::uint64_t num_blocks = (trials + sim::kBlockTrials - 1) / sim::kBlockTrials;
    std::uint64_t budget = std::max<std::uint32_t>(max_blocks, 1);
    while (current_ < source_->size()) {
      if (blocks_ < num_blocks) {
        if (budget == 0) return true;
        // The engine's blocks, on the kernel sim::monte_carlo picks for this program size.
        const std::uint64_t end = std::min(num_blocks, blocks_ + budget);
        const auto run =
            job_.program.num_states() <= sim::kFastKernelMaxStates ? &sim::run_blocks : &sim::run_blocks_reference;
        sim::add_tallies(tallies_, run(job_.program, settings_.seed, current_, blocks_, end, trials));
        budget -= end - blocks_;
        blocks_ = end;
        continue;
      }
      if (settings_.mc()) report_.mc = sim::estimates_from(job_.program, tallies_);
      reports_.push_back(std::move(report_));
      if (++current_ < source_->size()) start_situation();
    }
  } catch (const std::exception& e) {
    error_ = error_exit(e).message;
  }
  return false;
}

double OddsStepper::trials_done() const {
  return static_cast<double>(reports_.size()) * static_cast<double>(settings_.mc() ? settings_.trials : 0) +
         static_cast<double>(current_ < (source_ ? source_->size() : 0) ? tallies_.trials : 0);
}

double OddsStepper::trials_planned() const {
  return static_cast<double>(source_ ? source_->size() : 0) *
         static_cast<double>(settings_.mc() ? settings_.trials : 0);
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
    report::Provenance prov = provenance_of(*source_, settings_);
    prov.interrupted = !finished;
    return report::format_odds(reports, prov, options_.format);
  } catch (const std::exception& e) {
    return nlohmann::json{{"error", error_exit(e).message}}.dump();
  }
}

}  // namespace salvo::app
