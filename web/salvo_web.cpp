// The browser module: salvo::app's JSON API (json_api.h) bound with embind. Nothing else.
#include <emscripten/bind.h>

#include "salvo/app/json_api.h"
#include "salvo/app/runner.h"

EMSCRIPTEN_BINDINGS(salvo) {
  emscripten::function("odds", &salvo::app::odds_json);
  emscripten::function("explain", &salvo::app::explain_json);
  emscripten::function("version", &salvo::app::version_line);
}
