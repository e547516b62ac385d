// fuzz_chart — libFuzzer target for the "1943" chart loader, and for what a loaded chart feeds:
// the 1943 rules compiler, the exact engine and the Monte Carlo kernel.
//
// Invariants (fuzz_checks.h): load_chart_string throws nothing but InputError, whose message is
// one line "fuzz.toml:LINE: ..."; a chart that loads compiles the default small-arms and direct
// artillery situations (or rejects them with a RulesError, never anything else) into valid
// programs whose exact results are finite and partition to 1 within 1e-12.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_checks.h"
#include "salvo/load/w1943_loader.h"
#include "salvo/rules/w1943.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  salvo::w1943::Chart chart;
  try {
    chart = salvo::load::load_chart_string(text, "fuzz.toml");
  } catch (const salvo::load::InputError& e) {
    salvo::fuzz::check_message(e.what(), text);
    return 0;
  }

  std::uint64_t key = 0;
  for (const auto kind : {salvo::w1943::FireKind::kSmallArms, salvo::w1943::FireKind::kArtillery}) {
    salvo::w1943::Situation s;
    s.fire.kind = kind;
    if (salvo::w1943::check(chart, s)) continue;  // a situation this chart cannot resolve
    salvo::w1943::Compiled compiled;
    try {
      compiled = salvo::w1943::compile(chart, s);
    } catch (const salvo::w1943::RulesError& e) {
      salvo::fuzz::violated("check() passed but compile() threw", e.what());
    }
    salvo::fuzz::check_program(compiled.program, key++);
  }
  return 0;
}
