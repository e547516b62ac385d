#pragma once
/// app/src/stepper.h — `salvo odds --method mc|both` run a few blocks at a time: the browser
/// module's Monte Carlo, stepped from a Web Worker that reports progress between steps and can
/// stop. Its blocks are the engine's (sim::PreparedProgram, keyed by seed, situation and block), so
/// the finished run's JSON is what `salvo odds --format json` prints for the same seed and
/// trials; stopped early, it is the runner's interrupted output.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "salvo/app/commands.h"
#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/report/report.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/result.h"

namespace salvo::app {

class OddsStepper {
 public:
  /// odds_json's arguments (json_api.h). Never throws: an error is kept and json() returns it.
  OddsStepper(const std::string& situation_toml, const std::string& options_json);
  ~OddsStepper();
  OddsStepper(const OddsStepper&) = delete;  // (its prepared kernel refers to its job_)
  OddsStepper& operator=(const OddsStepper&) = delete;

  /// Run at most `max_blocks` Monte Carlo blocks (sim::kBlockTrials trials each), situation
  /// after situation. Returns true while work remains.
  bool step(std::uint32_t max_blocks);

  /// Trials run and planned over every situation (doubles: JavaScript numbers).
  double trials_done() const;
  double trials_planned() const;

  /// Odds JSON as odds_json returns it: the whole run once step() has returned false; before
  /// that the situations finished and the one under way (if a block of it has run), marked
  /// interrupted, as `salvo odds` writes a run stopped by a signal. Or {"error": ...}.
  std::string json() const;

 private:
  /// The situation current_ on: `compiled`, job_ holds its program already.
  void start_situation(bool compiled);

  std::string error_;
  std::unique_ptr<SituationSource> source_;
  OddsOptions options_;
  RunSettings settings_;
  /// Per situation: Monte Carlo runs it (with --method auto, those over the exact limit only)
  std::vector<char> mc_;
  std::vector<report::SituationReport> reports_;  ///< finished situations
  std::size_t current_ = 0;                       ///< the situation under way
  Job job_;                                       ///< its compiled program
  std::unique_ptr<sim::PreparedProgram> kernel_;  ///< job_'s program, prepared once for its blocks
  report::SituationReport report_;                ///< its report (exact part, if asked)
  std::uint64_t blocks_ = 0;                      ///< its blocks in tallies_
  sim::Tallies tallies_;
};

}  // namespace salvo::app
