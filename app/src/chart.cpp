// `salvo chart KIND FILE...`: compute, then draw with scripts/chart.py.
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
#include "salvo/load/asl_loader.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/stats.h"

namespace salvo::app {

using namespace kit;

namespace {

/// Whether some report has quantity q ("p_kill", "e_hits").
bool has_quantity(const std::vector<report::SituationReport>& reports, const std::string& q) {
  const bool p = q.rfind("p_", 0) == 0;
  if (!p && q.rfind("e_", 0) != 0) return false;
  return std::any_of(reports.begin(), reports.end(), [&](const report::SituationReport& r) {
    const auto& names = p ? r.names.flags : r.names.counters;
    return std::find(names.begin(), names.end(), q.substr(2)) != names.end();
  });
}

/// The quantity a range or heatmap chart shows: the one asked for, else the rulesets' headline,
/// else their first key quantity the situations have. Throws InputError naming what there is
/// when the situations do not have the one asked for.
std::string chart_quantity(const std::string& asked, const std::vector<report::SituationReport>& reports,
                           const DisplayHints& hints, const std::string& files) {
  if (!asked.empty()) {
    if (has_quantity(reports, asked)) return asked;
    std::string there;
    if (!reports.empty()) {
      for (const auto& f : reports.front().names.flags) there += (there.empty() ? "" : ", ") + ("p_" + f);
      for (const auto& c : reports.front().names.counters) there += ", e_" + c;
    }
    throw load::InputError(
        fmt::format("{}: chart: --quantity: no {} in these situations (they have {})", files, asked, there));
  }
  if (!hints.headline.empty() && has_quantity(reports, hints.headline)) return hints.headline;
  for (const auto& k : hints.key)
    if (k.run && has_quantity(reports, k.quantity)) return k.quantity;
  throw load::InputError(files + ": chart: --quantity: these situations have no key quantity to draw; name one");
}

}  // namespace

int run_chart(const ChartFlags& f) {
  const Settings settings = settings_of(f.run, {"text"});
  const RunSettings& s = settings.run;
  static const std::vector<std::string> kinds = {"range", "heatmap", "outcomes", "hits", "turns"};
  if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end())
    throw UsageError(fmt::format("chart: KIND: expected range, heatmap, outcomes, hits or turns, got {}", f.kind));
  if (f.out.empty()) throw UsageError("chart: --out PATH is required (PATH.png and PATH.svg are written)");
  if (f.window != "phase" && f.window != "first_shot")
    throw UsageError(fmt::format("--window: expected phase or first_shot, got {}", f.window));
  if (f.kind == "range" && f.x.empty()) throw UsageError("chart range: --x KEY is required (e.g. fire.range)");
  if (f.kind == "heatmap" && (f.x.empty() || f.y.empty()))
    throw UsageError("chart heatmap: --x KEY and --y KEY are required");
  if (s.method == report::MethodChoice::kBoth) throw UsageError("chart: --method: expected exact or mc");
  install_stop_signals();
  const SituationSource source(f.run.files, source_options(f.run));
  if (!f.data.empty()) check_output_path(f.data, file_ids(source.input_paths()));
  const Computed c = compute(source, s);
  // A chart of part of a sweep would look like the whole one: a stopped run draws nothing.
  if (c.status.interrupted) {
    fmt::print(stderr, "salvo: chart: interrupted after {} of {} situations; nothing written\n", c.status.complete,
               source.size());
    return stop_exit_code() ? stop_exit_code() : kExitInterrupted;
  }
  const report::Provenance prov = provenance_of(source, s);
  const bool dists = f.kind == "outcomes" || f.kind == "hits";
  const Json d =
      dists ? distributions(c.jobs, s, f.window == "phase" ? sim::Window::kRun : sim::Window::kFirst) : Json();
  if (f.kind == "hits")
    for (std::size_t i = 0; i < c.jobs.size(); ++i)
      if (!d[i].contains("hits"))
        throw load::InputError(
            fmt::format("{}: chart hits: {} counts no hits on one target (a fight): try chart outcomes", c.jobs[i].file,
                        c.jobs[i].name));
  if (f.kind == "turns")
    for (const report::SituationReport& r : c.reports)
      if (!is_fight(r))
        throw load::InputError(
            fmt::format("{}: chart turns: {} is not a fight: who wins by each game turn is a fight's", r.file, r.name));
  const Json data = chart_data(c.reports, prov, dists ? &d : nullptr);
  if (!f.data.empty()) write_output(f.data, data.dump(2) + "\n");
  std::string quantity = f.quantity;
  if (f.kind == "range" || f.kind == "heatmap")
    quantity = chart_quantity(f.quantity, c.reports, prov.hints, f.run.files.front());
  std::vector<std::string> args{"--kind", f.kind, "--window", f.window};
  if (!quantity.empty()) args.insert(args.end(), {"--quantity", quantity});
  if (!f.x.empty()) args.insert(args.end(), {"--x", f.x});
  if (!f.y.empty()) args.insert(args.end(), {"--y", f.y});
  if (!f.title.empty()) args.insert(args.end(), {"--title", f.title});
  fs::path stem = f.out;
  if (stem.extension() == ".png" || stem.extension() == ".svg") stem.replace_extension();
  draw_chart(data, args, stem);
  fmt::print("{}.png\n{}.svg\n", stem.string(), stem.string());
  return kExitOk;
}

}  // namespace salvo::app
