// `odds`, `explain` and `compare` over text with JSON options: the browser module's API.
#include "salvo/app/json_api.h"

#include <nlohmann/json.hpp>

#include <exception>

#include "salvo/app/analysis.h"
#include "salvo/app/commands.h"
#include "salvo/app/source.h"
#include "text_options.h"

namespace salvo::app {
namespace text {
namespace {

/// A flag's value as the command line would see it: a string as is, an integer in decimal.
std::string flag_text(const nlohmann::json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned() || v.is_number_integer()) return v.dump();
  throw UsageError(key + ": expected a string or an integer, got " + v.dump());
}

}  // namespace

TextOptions parse_options(const std::string& options_json) {
  TextOptions o;
  o.flags.format = "json";
  if (options_json.empty()) return o;
  const nlohmann::json j = nlohmann::json::parse(options_json, nullptr, false);
  if (!j.is_object()) throw UsageError("options: expected a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (key == "name") {
      if (!value.is_string() || value.get<std::string>().empty()) throw UsageError("name: expected a non-empty string");
      o.name = value.get<std::string>();
    } else if (key == "method") {
      o.flags.method = flag_text(value, "--method");
      o.method_given = true;
    } else if (key == "trials") {
      o.flags.trials = flag_text(value, "--trials");
    } else if (key == "seed") {
      o.flags.seed = flag_text(value, "--seed");
    } else if (key == "format") {
      o.flags.format = flag_text(value, "--format");
      if (o.flags.format == "html") throw UsageError("--format: expected text, csv, json or md, got html");
    } else {
      throw UsageError("options: unknown key " + key + " (expected name, method, trials, seed or format)");
    }
  }
  return o;
}

SituationSource odds_source(const std::string& name, const std::string& text, const OddsOptions& o, bool explain) {
  SourceOptions source_options;
  source_options.limits.max_situations = o.max_situations;
  source_options.limits.max_file_bytes = o.max_file_bytes;
  source_options.explain = explain;
  return SituationSource(std::vector<SourceText>{{name, text}}, source_options);
}

}  // namespace text

namespace {

std::string error_json(const std::exception& e) { return nlohmann::json{{"error", error_exit(e).message}}.dump(); }

}  // namespace

std::string odds_json(const std::string& situation_toml, const std::string& options_json) {
  try {
    const text::TextOptions t = text::parse_options(options_json);
    const OddsOptions o = odds_options(t.flags);
    return odds_table(text::odds_source(t.name, situation_toml, o), o);
  } catch (const std::exception& e) {
    return error_json(e);
  }
}

std::string explain_json(const std::string& situation_toml, const std::string& options_json) {
  try {
    const text::TextOptions t = text::parse_options(options_json);
    return explain_text(text::odds_source(t.name, situation_toml, odds_options(t.flags), true));
  } catch (const std::exception& e) {
    return error_json(e);
  }
}

std::string hints_json(const std::string& situation_toml, const std::string& options_json) {
  try {
    const text::TextOptions t = text::parse_options(options_json);
    const SituationSource source = text::odds_source(t.name, situation_toml, odds_options(t.flags));
    const DisplayHints h = source.hints();
    nlohmann::ordered_json j;
    j["ruleset"] = std::string(source.ruleset(0).name());
    j["headline"] = h.headline;
    j["first_window"] = h.first_window;
    j["run_window"] = h.run_window;
    j["better_for"] = h.better_for;
    j["key"] = nlohmann::ordered_json::array();
    for (const DisplayHints::Key& k : h.key)
      j["key"].push_back({{"quantity", k.quantity}, {"run", k.run}, {"title", k.title}});
    j["lower_is_better"] = h.lower_is_better;
    j["neutral"] = h.neutral;
    return j.dump();
  } catch (const std::exception& e) {
    return error_json(e);
  }
}

std::string compare_json(const std::string& files_json, const std::string& options_json) {
  try {
    const text::TextOptions t = text::parse_options(options_json);
    const nlohmann::json files = nlohmann::json::parse(files_json, nullptr, false);
    if (!files.is_array() || files.size() < 2) throw UsageError("compare: needs at least two situation files");
    std::vector<SourceText> texts;
    for (const auto& f : files) {
      if (!f.is_object() || !f.contains("name") || !f.contains("text") || !f["name"].is_string() ||
          !f["text"].is_string() || f["name"].get<std::string>().empty())
        throw UsageError(R"(compare: expected files as [{"name": "...", "text": "..."}, ...])");
      texts.push_back({f["name"].get<std::string>(), f["text"].get<std::string>()});
    }
    AnalysisFlags flags;
    if (t.method_given) flags.method = t.flags.method;  // else compare's own default, as on the command line
    if (t.flags.trials) flags.trials = *t.flags.trials;
    flags.seed = t.flags.seed;
    flags.format = "json";
    return compare_output(texts, flags);
  } catch (const std::exception& e) {
    return error_json(e);
  }
}

}  // namespace salvo::app
