// `odds` and `explain` over text with JSON options: the browser module's API.
#include "salvo/app/json_api.h"

#include <nlohmann/json.hpp>

#include <exception>

#include "salvo/app/commands.h"
#include "salvo/app/source.h"

namespace salvo::app {
namespace {

/// The options object: keys known, values as the command line's flags would give them.
struct TextOptions {
  std::string name = "situation.toml";
  OddsFlags flags;
};

/// A flag's value as the command line would see it: a string as is, an integer in decimal.
std::string flag_text(const nlohmann::json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned() || v.is_number_integer()) return v.dump();
  throw UsageError(key + ": expected a string or an integer, got " + v.dump());
}

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
    } else if (key == "trials") {
      o.flags.trials = flag_text(value, "--trials");
    } else if (key == "seed") {
      o.flags.seed = flag_text(value, "--seed");
    } else {
      throw UsageError("options: unknown key " + key + " (expected name, method, trials or seed)");
    }
  }
  return o;
}

std::string error_json(const std::exception& e) { return nlohmann::json{{"error", error_exit(e).message}}.dump(); }

}  // namespace

std::string odds_json(const std::string& situation_toml, const std::string& options_json) {
  try {
    const TextOptions t = parse_options(options_json);
    OddsOptions o = odds_options(t.flags);
    SourceOptions source_options;
    source_options.limits.max_situations = o.max_situations;
    source_options.limits.max_file_bytes = o.max_file_bytes;
    return odds_table(SituationSource(std::vector<SourceText>{{t.name, situation_toml}}, source_options), o);
  } catch (const std::exception& e) {
    return error_json(e);
  }
}

std::string explain_json(const std::string& situation_toml, const std::string& options_json) {
  try {
    const TextOptions t = parse_options(options_json);
    SourceOptions options;
    options.explain = true;
    return explain_text(SituationSource(std::vector<SourceText>{{t.name, situation_toml}}, options));
  } catch (const std::exception& e) {
    return error_json(e);
  }
}

}  // namespace salvo::app
