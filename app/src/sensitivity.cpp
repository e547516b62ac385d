// `salvo sensitivity FILE`: what each modifier is worth, removed and one worse.
#include "analysis_kit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "salvo/app/analysis.h"
#include "salvo/app/commands.h"
#include "salvo/app/io.h"
#include "salvo/app/progress.h"
#include "salvo/core/text_table.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/stats.h"

namespace salvo::app {

using namespace kit;

int run_sensitivity(const AnalysisFlags& flags, const std::string& quantity) {
  const Settings settings = settings_of(flags, {"text", "json", "md", "html"});
  const RunSettings& s = settings.run;
  if (flags.files.size() != 1) throw UsageError("sensitivity: expected one situation file");
  if (s.method != report::MethodChoice::kExact) throw UsageError("sensitivity: --method: only exact is supported");
  const std::string& path = flags.files.front();
  const SituationSource source({path}, source_options(flags));  // the file, read once
  const Ruleset& ruleset = source.ruleset(0);
  if (!ruleset.sensitivity(source.file(0), 0) && source.size() > 0)
    throw load::InputError(
        fmt::format("{}: sensitivity: the {} ruleset has no modifiers to vary", path, ruleset.name()));
  check_output_path(flags.output, file_ids(source.input_paths()));

  struct Row {
    std::string modifier, rule, change;
    int value = 0;
    bool worse = false;
    double p = 0.0, p_first = 0.0, effect = 0.0;
  };
  // No --quantity: the file's headline (p_kill for a shot, p_broken_or_worse for infantry fire).
  const DisplayHints* file_hints = source.size() > 0 ? source.file(0).hints() : nullptr;
  const std::string& asked = !quantity.empty() ? quantity : (file_hints ? *file_hints : ruleset.hints()).headline;
  const std::string flag = asked.rfind("p_", 0) == 0 ? asked.substr(2) : asked;
  const auto value_of = [&](const RollProgram& prog, bool phase) {
    const int i = index_of(prog.flag_names, flag);
    if (i < 0) throw UsageError(fmt::format("--quantity: no probability p_{} in this ruleset", flag));
    const sim::RunResult r = sim::solve_exact(prog);
    return (phase ? r.run : r.first).flags[static_cast<std::size_t>(i)].value;
  };

  const report::Provenance provenance = provenance_of(source, s);
  Json all = provenance_json(provenance, "sensitivity");
  all["quantity"] = "p_" + flag;
  all["situations"] = Json::array();
  std::string text;
  std::vector<report::HtmlSection> sections;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const Job base = source.compile(i);
    const double p0 = value_of(base.program, true), p0_first = value_of(base.program, false);
    std::vector<Row> rows;
    std::vector<std::string> skipped;
    const std::vector<Variant> variants = ruleset.sensitivity(source.file(0), i).value_or(std::vector<Variant>{});
    for (const Variant& v : variants) {
      if (!v.program) {
        skipped.push_back(fmt::format("{} ({}): {}", v.modifier, v.change, v.error));
        continue;
      }
      Row r{v.modifier, v.rule, v.change, v.value, v.worse};
      r.p = value_of(*v.program, true);
      r.p_first = value_of(*v.program, false);
      r.effect = r.p - p0;
      rows.push_back(std::move(r));
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return std::abs(a.effect) > std::abs(b.effect); });

    // Text
    const std::string label = quantity_label("p_" + flag);
    std::string t =
        fmt::format("{} ({}){}\n", base.name, path, base.sweep.empty() ? "" : " at " + sweep_text(base.sweep));
    t += fmt::format("phase {} as given: {} (first shot {}), exact\n\n", label, pct(p0), pct(p0_first));
    TextTable table;  // columns as wide as their widest cell
    table.indent = "  ";
    table.align = {Align::kLeft, Align::kLeft, Align::kRight, Align::kLeft, Align::kLeft, Align::kRight, Align::kRight};
    table.rows.push_back({"modifier", "rule", "DRM", "variant", "change", "phase", "effect"});
    for (const Row& r : rows)
      table.rows.push_back({r.modifier, r.rule, fmt::format("{:+d}", r.value), r.worse ? "one worse" : "removed",
                            r.change, pct(r.p), pts(r.effect) + " pts"});
    t += rows.empty() ? table.render() + "  (no modifier that a setting controls applies)\n" : table.render();
    for (const Row& r : rows)
      if (!r.worse) {
        t += fmt::format("\n{} ({:+d}, {}) {} {:.1f} points of phase {} here.\n", r.modifier, r.value, r.rule,
                         r.effect >= 0 ? "costs you" : "gains you", 100.0 * std::abs(r.effect), label);
        break;
      }
    for (const std::string& sk : skipped) t += "  not computed: " + sk + "\n";
    text += t + "\n";
    sections.push_back({base.name, t});

    Json j;
    j["file"] = path;
    j["name"] = base.name;
    Json sw = Json::object();
    for (const auto& [k, v] : base.sweep) sw[k] = v;
    j["sweep"] = sw;
    j["base"] = {{"phase", p0}, {"first_shot", p0_first}};
    j["variants"] = Json::array();
    for (const Row& r : rows)
      j["variants"].push_back({{"modifier", r.modifier},
                               {"rule", r.rule},
                               {"drm", r.value},
                               {"variant", r.worse ? "one_worse" : "removed"},
                               {"change", r.change},
                               {"phase", r.p},
                               {"first_shot", r.p_first},
                               {"effect", r.effect}});
    j["not_computed"] = skipped;
    all["situations"].push_back(j);
  }
  const std::string prov = provenance_text(provenance);
  if (settings.format == "json")
    text = all.dump(2) + "\n";
  else if (settings.format == "md")
    text = "```\n" + text + prov + "\n```\n";
  else if (settings.format == "html")
    text = report::format_html_sections("salvo sensitivity", sections, {}, prov);
  else
    text += prov + "\n";
  write_output(flags.output, text);
  return kExitOk;
}

}  // namespace salvo::app
