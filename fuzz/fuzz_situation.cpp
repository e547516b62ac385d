// fuzz_situation — libFuzzer target for the ASL situation loader, and for everything a loaded
// situation feeds: the rules compiler, the exact engine and the Monte Carlo kernel.
//
// Invariants checked on every input (a violation aborts, which libFuzzer reports as a crash):
//   - load_string throws nothing but InputError;
//   - an InputError message is one line, "fuzz.toml:LINE: ..." with LINE a line of the input
//     (or one past its end);
//   - a file that loads has every situation passing asl::check, compiling without error to a
//     structurally valid program;
//   - the exact solve succeeds, every value is finite, probabilities lie in [0, 1], and the
//     outcomes of both windows and the end reasons each sum to 1 within 1e-12;
//   - a few Monte Carlo blocks run over the compiled tables without error, and their tallies
//     partition the trials.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_checks.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl.h"

namespace {
constexpr std::size_t kMaxSituations = 64;     // bigger sweeps are refused (and that path covered)
constexpr std::size_t kSituationsChecked = 4;  // compiled and solved per input
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using salvo::fuzz::violated;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  salvo::load::LoadOptions options;
  options.max_situations = kMaxSituations;

  salvo::load::LoadedFile file;
  try {
    file = salvo::load::load_string(text, "fuzz.toml", options);
  } catch (const salvo::load::InputError& e) {
    salvo::fuzz::check_message(e.what(), text);
    return 0;
  }
  if (file.situations.empty() || file.situations.size() > kMaxSituations)
    violated("a loaded file has no situations or too many", file.path);

  for (std::size_t i = 0; i < file.situations.size() && i < kSituationsChecked; ++i) {
    const salvo::asl::Situation& s = file.situations[i].situation;
    if (const auto error = salvo::asl::check(s)) violated("loaded situation fails asl::check", error->what());
    salvo::asl::Compiled compiled;
    try {
      compiled = salvo::asl::compile(s);
    } catch (const salvo::asl::RulesError& e) {
      violated("loaded situation does not compile", e.what());
    }
    salvo::fuzz::check_program(compiled.program, i);
  }
  return 0;
}
