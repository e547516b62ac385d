#pragma once
// app/src/text_options.h — the options object of the browser module's calls (json_api.h,
// stepper.h), read into the command line's own flags. Private to salvo::app.

#include <string>

#include "salvo/app/commands.h"

namespace salvo::app::text {

/// The options object: keys known, values as the command line's flags would give them.
struct TextOptions {
  std::string name = "situation.toml";
  OddsFlags flags;
  bool method_given = false;  ///< "method" was in the object (else each call's own default)
};

/// Read `options_json` (a JSON object, or empty): "name", "method", "trials", "seed". Throws
/// UsageError for anything else.
TextOptions parse_options(const std::string& options_json);

/// `text` under `name`, loaded as `salvo odds` loads a file with these options.
SituationSource odds_source(const std::string& name, const std::string& text, const OddsOptions& o,
                            bool explain = false);

}  // namespace salvo::app::text
