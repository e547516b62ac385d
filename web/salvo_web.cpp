// The browser module: salvo::app's JSON API (json_api.h) and its Monte Carlo stepper
// (stepper.h) bound with embind. Nothing else.
#include <emscripten/bind.h>

#include "salvo/app/json_api.h"
#include "salvo/app/runner.h"
#include "salvo/app/stepper.h"

EMSCRIPTEN_BINDINGS(salvo) {
  emscripten::function("odds", &salvo::app::odds_json);
  emscripten::function("explain", &salvo::app::explain_json);
  emscripten::function("compare", &salvo::app::compare_json);
  emscripten::function("hints", &salvo::app::hints_json);
  emscripten::function("version", &salvo::app::version_line);
  emscripten::class_<salvo::app::OddsStepper>("OddsStepper")
      .constructor<const std::string&, const std::string&>()
      .function("step", &salvo::app::OddsStepper::step)
      .function("trialsDone", &salvo::app::OddsStepper::trials_done)
      .function("trialsPlanned", &salvo::app::OddsStepper::trials_planned)
      .function("json", &salvo::app::OddsStepper::json);
}
