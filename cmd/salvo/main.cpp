// salvo — combat odds for tabletop wargames. Parse the command line, run one command, and
// print any error in one place with an exit code that means something.

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "salvo/app/analysis.h"
#include "salvo/app/commands.h"
#include "salvo/app/shard.h"
#include "salvo/app/units.h"
#include "salvo/load/asl_loader.h"
#ifdef SALVO_WITH_MPI
#include "salvo/mpi/mpi_team.h"
#endif

int main(int argc, char** argv) {
  using namespace salvo::app;

  CLI::App app{"salvo: what are my odds? Combat odds for tabletop wargames (ASL ordnance fire).", "salvo"};
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the version and exit");
  app.require_subcommand(0, 1);

  OddsFlags odds_flags;
  std::string trials, precision;
  CLI::App* odds = app.add_subcommand("odds", "Odds tables for situation files");
  odds->add_option("FILE", odds_flags.files, "Situation files (TOML)")->required();
  odds->add_option("--method", odds_flags.method,
                   "auto, exact, mc or both (default auto: exact up to 2,000,000 states, else mc)")
      ->option_text("METHOD");
  odds->add_option("--trials", trials,
                   "Monte Carlo trials, 1..10^12 (default 1000000; with "
                   "--precision: the cap)")
      ->option_text("N");
  odds->add_option("--precision", precision,
                   "Monte Carlo: run until every 95% half-width is at "
                   "most E, 0 < E < 0.5")
      ->option_text("E");
  odds->add_option("--seed", odds_flags.seed, "Monte Carlo seed, any 64-bit integer (default 1)")->option_text("S");
  odds->add_option("--threads", odds_flags.threads, "Threads, 0..1024; 0 = all cores (default)")->option_text("T");
  odds->add_option("--format", odds_flags.format, "text, csv, json, md or html (default text)")->option_text("FORMAT");
  odds->add_option("-o,--output", odds_flags.output, "Write to PATH (atomically) instead of stdout")
      ->option_text("PATH");
  odds->add_option("--max-situations", odds_flags.max_situations,
                   "Refuse a file whose sweep expands to more, 1..10^9 (default 1000000)")
      ->option_text("N");

  odds->add_option("--max-file-size", odds_flags.max_file_size,
                   "Refuse an input file (situation or chart) larger than SIZE (default 4MiB, at most 1GiB)")
      ->option_text("SIZE");

  odds->add_option("--shard", odds_flags.shard,
                   "Run shard K of N and write its tallies (a shard file) for salvo merge; no MPI needed")
      ->option_text("K/N");

  MergeFlags merge_flags;
  CLI::App* merge = app.add_subcommand("merge", "Add shard files (salvo odds --shard K/N) into one odds table");
  merge->add_option("SHARD", merge_flags.files, "Shard files, every one of 1..N")->required();
  merge->add_option("--format", merge_flags.format, "text, csv, json or md (default text)")->option_text("FORMAT");
  merge->add_option("-o,--output", merge_flags.output, "Write to PATH (atomically) instead of stdout")
      ->option_text("PATH");

  std::vector<std::string> explain_files;
  CLI::App* explain = app.add_subcommand("explain", "Every modifier applied, with its rule");
  explain->add_option("FILE", explain_files, "Situation files (TOML)")->required();
  std::string explain_max_situations = "1000000";
  explain
      ->add_option("--max-situations", explain_max_situations,
                   "Refuse a file whose sweep expands to more, 1..10^9 (default 1000000)")
      ->option_text("N");
  std::string explain_max_file_size = "4MiB";
  explain
      ->add_option("--max-file-size", explain_max_file_size,
                   "Refuse an input file larger than SIZE (default 4MiB, at most 1GiB)")
      ->option_text("SIZE");

  // Analysis: compare options, what each modifier is worth, odds charts
  AnalysisFlags compare_flags;
  CLI::App* compare = app.add_subcommand("compare", "Compare options against the same target on the same dice");
  compare->add_option("FILE", compare_flags.files, "Option A, then B, ... (TOML); each against A")->required();
  ChartFlags chart_flags;
  AnalysisFlags sens_flags;
  std::string sens_quantity;  // empty: the situation's headline probability
  CLI::App* sensitivity = app.add_subcommand("sensitivity", "What each modifier is worth: removed, one worse");
  sensitivity->add_option("FILE", sens_flags.files, "Situation file (TOML)")->required();
  sensitivity
      ->add_option("--quantity", sens_quantity,
                   "Probability to rank by (default: p_kill, or p_broken_or_worse for infantry fire)")
      ->option_text("Q");
  CLI::App* chart = app.add_subcommand("chart", "Odds charts (PNG and SVG) through scripts/chart.py");
  chart
      ->add_option("KIND", chart_flags.kind,
                   "range, heatmap, outcomes, hits or turns (a fight: who wins by each game turn)")
      ->required();
  chart->add_option("FILE", chart_flags.run.files, "Situation files (TOML)")->required();
  chart->add_option("--out", chart_flags.out, "Write PATH.png and PATH.svg")->option_text("PATH")->required();
  chart->add_option("--x", chart_flags.x, "Sweep key on the x axis (range, heatmap)")->option_text("KEY");
  chart->add_option("--y", chart_flags.y, "Sweep key on the y axis (heatmap)")->option_text("KEY");
  chart
      ->add_option("--quantity", chart_flags.quantity,
                   "Quantity, e.g. p_kill, p_mc_or_worse, e_hits (default: the ruleset's headline, p_kill for ASL)")
      ->option_text("Q");
  chart->add_option("--window", chart_flags.window, "phase or first_shot (default phase)")->option_text("W");
  chart->add_option("--title", chart_flags.title, "Chart title")->option_text("TEXT");
  chart->add_option("--data", chart_flags.data, "Also write the chart data (JSON) to PATH")->option_text("PATH");
  for (auto [cmd, f] :
       {std::pair{compare, &compare_flags}, std::pair{sensitivity, &sens_flags}, std::pair{chart, &chart_flags.run}}) {
    cmd->add_option("--method", f->method, "exact, mc or both (default exact)")->option_text("METHOD");
    cmd->add_option("--trials", f->trials, "Monte Carlo trials (default 1000000)")->option_text("N");
    cmd->add_option("--seed", f->seed, "Monte Carlo seed (default 1)")->option_text("S");
    cmd->add_option("--threads", f->threads, "Threads; 0 = all cores (default)")->option_text("T");
    cmd->add_option("--max-file-size", f->max_file_size, "Refuse an input file larger than SIZE (default 4MiB)")
        ->option_text("SIZE");
    if (cmd != chart) {
      cmd->add_option("--format", f->format, "text, json, md or html (default text)")->option_text("FORMAT");
      cmd->add_option("-o,--output", f->output, "Write to PATH instead of stdout")->option_text("PATH");
    }
  }

  // Unit libraries (docs/units.md)
  CLI::App* units = app.add_subcommand("units", "Unit libraries: list, show, import counter listings");
  units->require_subcommand(1);
  std::vector<std::string> unit_libraries;
  std::string unit_name, units_output, units_max_file_size = "4MiB";
  std::vector<std::string> units_csv;
  CLI::App* units_list = units->add_subcommand("list", "Every unit of the libraries");
  CLI::App* units_show = units->add_subcommand("show", "One unit's values, in the counter's notation");
  units_show->add_option("NAME", unit_name, "The unit's name (case, spaces and punctuation do not matter)")->required();
  CLI::App* units_import = units->add_subcommand("import", "A unit library from counter listings (CSV)");
  units_import->add_option("FILE", units_csv, "*_vehicles.csv and *_ordnance.csv files")->required();
  units_import->add_option("-o,--output", units_output, "Write the library to PATH (atomically)")
      ->option_text("PATH")
      ->required();
  for (CLI::App* cmd : {units_list, units_show}) {
    cmd->add_option("--units", unit_libraries, "A unit library (TOML); repeat for several")
        ->option_text("FILE")
        ->required();
  }
  for (CLI::App* cmd : {units_list, units_show, units_import})
    cmd->add_option("--max-file-size", units_max_file_size, "Refuse an input file larger than SIZE (default 4MiB)")
        ->option_text("SIZE");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::fprintf(stderr, "salvo: %s\n", e.what());
    return kExitInput;
  }

  // Every command's result, then stdout flushed and checked: a full disk or a closed stdout is
  // an I/O failure (exit 4), never a silent success.
  const int code = [&]() -> int {
    try {
      if (show_version) {
        std::printf("%s\n", version_line().c_str());
        return kExitOk;
      }
      // Started by mpirun: `odds` is spread over the ranks (docs/scale.md); any other command
      // would only run N times over.
      const int ranks = launched_ranks();
      if (*odds) {
        if (odds->count("--trials")) odds_flags.trials = trials;
        if (odds->count("--precision")) odds_flags.precision = precision;
        std::unique_ptr<Team> team;
#ifdef SALVO_WITH_MPI
        if (ranks > 0) team = salvo::mpi::start(argc, argv);
#else
        if (ranks > 1)
          throw UsageError("started as one of " + std::to_string(ranks) +
                           " MPI ranks, but this salvo was built without MPI (SALVO_WITH_MPI=OFF): each rank would "
                           "run the whole job; build with cmake -DSALVO_WITH_MPI=ON, or run one process");
#endif
        return run_on_team(team.get(), [&] {
          OddsOptions o = odds_options(odds_flags);
          o.team = team.get();
          return o.shards > 0 ? run_odds_shard(o) : run_odds(o);
        });
      }
      if (ranks > 1)
        throw UsageError(
            "started as one of several MPI ranks: only `salvo odds` is spread over them; run "
            "other commands as one process");
      if (*merge) return run_merge(merge_flags);
      if (*compare) return run_compare(compare_flags);
      if (*sensitivity) return run_sensitivity(sens_flags, sens_quantity);
      if (*chart) return run_chart(chart_flags);
      if (*units) {
        const std::size_t max_bytes = max_file_size_flag(units_max_file_size);
        if (*units_list) return run_units_list(unit_libraries, max_bytes);
        if (*units_show) return run_units_show(unit_name, unit_libraries, max_bytes);
        return run_units_import(units_csv, units_output, max_bytes);
      }
      if (*explain)
        return run_explain(explain_files, max_situations_flag(explain_max_situations),
                           max_file_size_flag(explain_max_file_size));
      std::fprintf(stderr,
                   "salvo: a command is required: odds, merge, explain, compare, sensitivity, chart or units (see "
                   "salvo --help)\n");
      return kExitInput;
    } catch (const std::exception& e) {
      const ErrorExit error = error_exit(e);
      std::fprintf(stderr, "%s\n", error.message.c_str());
      return error.code;
    }
  }();
  if (code != kExitIo && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
    std::fprintf(stderr, "salvo: cannot write standard output: %s\n", std::strerror(errno ? errno : EIO));
    return code == kExitOk ? kExitIo : code;
  }
  return code;
}
