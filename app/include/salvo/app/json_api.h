#pragma once
/// app/src/json_api.h — `salvo odds`, `salvo explain` and `salvo compare` as functions of text, JSON in and JSON
/// out: the typed API of the browser module (web/salvo_web.cpp binds them, and the Monte Carlo stepper of stepper.h).
///
/// They run the command line's own code (SituationSource over text, the runner, the report
/// formatter, odds_options' flag checks) and never throw: an error comes back as
/// {"error": MESSAGE}, MESSAGE being the line `salvo` prints for it on stderr.

#include <string>

namespace salvo::app {

/// `salvo odds NAME --format json [options]` for a situation file given as text. `options_json`
/// is a JSON object (or empty) with any of: "name" (the file name shown, default
/// "situation.toml"), "method" ("exact", "mc" or "both"), "trials", "seed" (integers, or their
/// decimal text), "format" ("json" by default; "csv", "md" or "text"). Returns what `salvo odds` prints, or {"error":
/// ...}.
std::string odds_json(const std::string& situation_toml, const std::string& options_json);

/// `salvo explain NAME` for a situation file given as text (options as odds_json: "name").
/// Returns the explain text, or {"error": ...}.
std::string explain_json(const std::string& situation_toml, const std::string& options_json);

/// How the tables of this file are shown (its display hints, as the text tables use them):
/// {"ruleset", "headline", "first_window", "run_window", "better_for", "key": [{"quantity", "run", "title"}],
/// "lower_is_better", "neutral"}, or {"error": ...}.
std::string hints_json(const std::string& situation_toml, const std::string& options_json);

/// `salvo compare A B [...] --format json [options]` for files given as text: `files_json` is
/// [{"name": ..., "text": ...}, ...], at least two, each option against the first (options as
/// odds_json: "method", "trials", "seed"; compare's defaults). Returns what `salvo compare`
/// prints, or {"error": ...}.
std::string compare_json(const std::string& files_json, const std::string& options_json);

}  // namespace salvo::app
