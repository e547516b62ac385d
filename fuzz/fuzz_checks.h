#pragma once
// fuzz_checks.h — invariants shared by the fuzz targets (and replayed by tests/load): a broken
// one aborts, which libFuzzer reports as a crash.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/result.h"

namespace salvo::fuzz {

inline constexpr std::uint64_t kTrials = 512;  ///< Monte Carlo trials per compiled situation

[[noreturn]] inline void violated(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz: invariant violated: %s\n  %.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline void check_message(const std::string& message, std::string_view input) {
  constexpr std::string_view kPrefix = "fuzz.toml:";
  if (message.rfind(kPrefix, 0) != 0) violated("message does not start with the file name", message);
  std::size_t i = kPrefix.size();
  std::uint64_t line = 0;
  while (i < message.size() && message[i] >= '0' && message[i] <= '9' && line < 1'000'000'000)
    line = line * 10 + static_cast<std::uint64_t>(message[i++] - '0');
  if (i == kPrefix.size() || i >= message.size() || message[i] != ':' || line == 0)
    violated("message has no line number", message);
  std::uint64_t lines = 1;
  for (const char c : input) lines += c == '\n' ? 1 : 0;
  if (line > lines + 1) violated("line number past the end of the input", message);
  if (message.find_first_of("\n\r") != std::string::npos) violated("message is not one line", message);
}

inline void check_window(const salvo::sim::WindowStats& w, bool with_end_reasons, const char* window) {
  const auto check_probabilities = [&](const std::vector<salvo::sim::Estimate>& v, const char* what, bool partition) {
    double sum = 0.0;
    for (const auto& e : v) {
      if (!std::isfinite(e.value) || e.value < 0.0 || e.value > 1.0) violated(what, window);
      sum += e.value;
    }
    if (partition && !(std::abs(sum - 1.0) <= 1e-12)) violated(what, window);
  };
  check_probabilities(w.flags, "flag probability out of [0, 1]", false);
  check_probabilities(w.outcomes, "outcome probabilities do not partition", true);
  if (with_end_reasons) check_probabilities(w.end_reasons, "end reasons do not partition", true);
  for (const auto& e : w.counters)
    if (!std::isfinite(e.value) || e.value < 0.0) violated("counter mean not finite", window);
}

inline void check_tallies(const salvo::sim::Tallies& t) {
  std::uint64_t outcomes = 0, first = 0, reasons = 0;
  for (auto k : t.run.outcomes) outcomes += k;
  for (auto k : t.first.outcomes) first += k;
  for (auto k : t.run.end_reasons) reasons += k;
  const std::uint64_t finished = t.trials - t.truncated;
  if (t.trials != kTrials || outcomes != finished || first != finished || reasons != finished)
    violated("Monte Carlo tallies do not partition the trials", "");
}

/// A compiled program: structurally valid, its exact solution finite with partitions summing
/// to 1, and a block of Monte Carlo trials over its tables partitioning the trials.
inline void check_program(const RollProgram& program, std::uint64_t key) {
  program.validate();  // throws std::logic_error (uncaught: a crash) if malformed
  const sim::RunResult exact = sim::solve_exact(program);
  check_window(exact.first, false, "exact first window");
  check_window(exact.run, true, "exact run");
  const sim::Tallies tallies = sim::run_blocks(program, 1, key, 0, 1, kTrials);
  check_tallies(tallies);
  const sim::RunResult mc = sim::estimates_from(program, tallies);
  check_window(mc.first, false, "mc first window");
  check_window(mc.run, true, "mc run");
}

}  // namespace salvo::fuzz
