// salvo — combat odds for tabletop wargames. Parse the command line, run one command, and
// print any error in one place with an exit code that means something.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "commands.h"
#include "salvo/load/asl_loader.h"

int main(int argc, char** argv) {
  using namespace salvo::cli;

  CLI::App app{"salvo: what are my odds? Combat odds for tabletop wargames (ASL ordnance fire).",
               "salvo"};
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the version and exit");
  app.require_subcommand(0, 1);

  OddsFlags odds_flags;
  std::string trials, precision;
  CLI::App* odds = app.add_subcommand("odds", "Odds tables for situation files");
  odds->add_option("FILE", odds_flags.files, "Situation files (TOML)")->required();
  odds->add_option("--method", odds_flags.method, "exact, mc or both (default exact)")
      ->option_text("METHOD");
  odds->add_option("--trials", trials,
                   "Monte Carlo trials, 1..10^12 (default 1000000; with "
                   "--precision: the cap)")
      ->option_text("N");
  odds->add_option("--precision", precision,
                   "Monte Carlo: run until every 95% half-width is at "
                   "most E, 0 < E < 0.5")
      ->option_text("E");
  odds->add_option("--seed", odds_flags.seed, "Monte Carlo seed, any 64-bit integer (default 1)")
      ->option_text("S");
  odds->add_option("--threads", odds_flags.threads, "Threads, 0..1024; 0 = all cores (default)")
      ->option_text("T");
  odds->add_option("--format", odds_flags.format, "text, csv, json or md (default text)")
      ->option_text("FORMAT");
  odds->add_option("-o,--output", odds_flags.output, "Write to PATH (atomically) instead of stdout")
      ->option_text("PATH");

  std::vector<std::string> explain_files;
  CLI::App* explain = app.add_subcommand("explain", "Every modifier applied, with its rule");
  explain->add_option("FILE", explain_files, "Situation files (TOML)")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::fprintf(stderr, "salvo: %s\n", e.what());
    return kExitUsage;
  }

  try {
    if (show_version) {
      std::printf("%s\n", version_line().c_str());
      return kExitOk;
    }
    if (*odds) {
      if (odds->count("--trials")) odds_flags.trials = trials;
      if (odds->count("--precision")) odds_flags.precision = precision;
      return run_odds(odds_options(odds_flags));
    }
    if (*explain) return run_explain(explain_files);
    std::fprintf(stderr, "salvo: a command is required: odds or explain (see salvo --help)\n");
    return kExitUsage;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "salvo: %s\n", e.what());
    return kExitUsage;
  } catch (const salvo::load::InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kExitInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "salvo: internal error: %s\n", e.what());
    return kExitInternal;
  }
}
