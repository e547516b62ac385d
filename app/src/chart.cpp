// `salvo chart KIND FILE...`: compute, then draw with scripts/chart.py.
#include "analysis_kit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <charconv>

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

int run_chart(const ChartFlags& f) {
  const Settings settings = settings_of(f.run, {"text"});
  const RunSettings& s = settings.run;
  static const std::vector<std::string> kinds = {"range", "heatmap", "outcomes", "hits"};
  if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end())
    throw UsageError(fmt::format("chart: KIND: expected range, heatmap, outcomes or hits, got {}", f.kind));
  if (f.out.empty()) throw UsageError("chart: --out PATH is required (PATH.png and PATH.svg are written)");
  if (f.window != "phase" && f.window != "first_shot")
    throw UsageError(fmt::format("--window: expected phase or first_shot, got {}", f.window));
  if (f.kind == "range" && f.x.empty()) throw UsageError("chart range: --x KEY is required (e.g. fire.range)");
  if (f.kind == "heatmap" && (f.x.empty() || f.y.empty())) throw UsageError("chart heatmap: --x KEY and --y KEY are required");
  if (s.method == report::MethodChoice::kBoth) throw UsageError("chart: --method: expected exact or mc");
  install_stop_signals();
  const SituationSource source(f.run.files, source_options(f.run));
  if (!f.data.empty()) check_output_path(f.data, file_ids(source.input_paths()));
  const Computed c = compute(source, s);
  // A chart of part of a sweep would look like the whole one: a stopped run draws nothing.
  if (c.status.interrupted) {
    fmt::print(stderr, "salvo: chart: interrupted after {} of {} situations; nothing written\n", c.status.complete, source.size());
    return stop_exit_code() ? stop_exit_code() : kExitInterrupted;
  }
  const report::Provenance prov = provenance_of(source, s);
  const bool dists = f.kind == "outcomes" || f.kind == "hits";
  const Json d = dists ? distributions(c.jobs, s, f.window == "phase" ? sim::Window::kRun : sim::Window::kFirst) : Json();
  const Json data = chart_data(c.reports, prov, dists ? &d : nullptr);
  if (!f.data.empty()) write_output(f.data, data.dump(2) + "\n");
  std::vector<std::string> args{"--kind", f.kind, "--quantity", f.quantity, "--window", f.window};
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
