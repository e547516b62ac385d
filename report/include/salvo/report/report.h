#pragma once
/// salvo/report/report.h — results as tables: terminal text, CSV, JSON and Markdown. Pure
/// formatting over plain data: no engine runs, no I/O, no ruleset.
///
/// Quantity names come from the compiled program (flag, counter, outcome and end-reason names):
/// p_<flag>, e_<counter>, outcome_<outcome>, end_<reason>; a run over several turns lays out its
/// per-turn quantities from the program's turn series. The compact tables (a sweep in text,
/// Markdown) show the key quantities of the rulesets' display hints (Provenance::hints) that
/// the reports have.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <string_view>
#include <utility>
#include <vector>

#include "salvo/core/display_hints.h"
#include "salvo/core/text.h"
#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::report {

using sim::Estimate;
using sim::Method;
using sim::RunResult;
using sim::WindowStats;

enum class Format : std::uint8_t { kText, kCsv, kJson, kMarkdown };

/// Which engines a run used; the text of each is "exact", "mc", "both", "auto". Asked for,
/// kAuto runs each situation exactly up to kMaxExactStates states and by Monte Carlo above;
/// in a report it means that some situations ran each way.
enum class MethodChoice : std::uint8_t { kExact, kMonteCarlo, kBoth, kAuto };

/// salvo's version ("0.1.0") and git revision (12 hex, or "unknown"), from the build.
std::string_view version();
std::string_view git_revision();

/// "exact" / "mc" / "both" / "auto", "text" / "csv" / "json" / "md"; parse returns nullopt if unknown.
std::string_view method_choice_name(MethodChoice m);
std::optional<MethodChoice> parse_method_choice(std::string_view s);
std::string_view format_name(Format f);
std::optional<Format> parse_format(std::string_view s);

/// 16 lower-case hex digits.
std::string hex16(std::uint64_t v);

/// The names of what a program's leaves record (copied from a RollProgram).
struct ResultNames {
  std::vector<std::string> flags;
  std::vector<std::string> counters;
  std::vector<std::string> outcomes;
  std::vector<std::string> end_reasons;
  std::vector<RollProgram::TurnSeries> turn_series;  ///< a run over several turns, turn by turn
  friend bool operator==(const ResultNames&, const ResultNames&) = default;
};
ResultNames names_of(const RollProgram& program);

/// Everything printed about one situation.
struct SituationReport {
  std::string file;  ///< as given on the command line
  std::string name;
  std::vector<std::pair<std::string, std::string>> sweep;  ///< ("fire.range", "6"), file order
  std::uint64_t program_hash = 0;
  ResultNames names;
  std::optional<RunResult> exact;
  std::optional<RunResult> mc;
};

/// What makes a table reproducible.
struct Provenance {
  MethodChoice method = MethodChoice::kExact;  ///< the engines used (kAuto: some situations each)
  bool auto_method = false;                    ///< --method auto chose them: exact up to max_exact_states
  std::size_t max_exact_states = kMaxExactStates;
  std::uint64_t seed = 1;
  std::uint64_t trials = 0;         ///< requested Monte Carlo trials (the cap with a precision)
  std::optional<double> precision;  ///< requested 95% half-width, if any
  int threads = 1;                  ///< threads actually used (per process: rank 0's, or the most of any shard)
  int ranks = 1;                    ///< MPI ranks the run was spread over; shown only when more than 1
  int shards = 1;                   ///< shards merged into the table (salvo merge); shown only when more than 1
  std::string rules_data_version;   ///< asl::kRulesDataVersion
  std::uint64_t rules_data_hash = 0;
  bool interrupted = false;          ///< the run was stopped (SIGINT) before it finished
  std::size_t situations_total = 0;  ///< situations asked for (reports may hold fewer if interrupted)
  /// Not provenance but how to show the tables: the display hints of the rulesets used.
  DisplayHints hints;
};

/// A probability as the text table prints it: one decimal ("37.5%"), except that a chance that is
/// neither 0 nor 1 never prints as 0.0% or 100.0% ("0.023%", "<0.001%", "99.972%", ">99.999%").
std::string format_percent(double p);

/// Who ran the trials, as the tables say it: "2 threads", or with ranks or shards "3 ranks × 2
/// threads", "4 shards × 1 thread".
std::string workers_text(const Provenance& prov);

/// The `odds` table in the given format. Ends with a newline. Throws std::logic_error
/// ("FILE: NAME: mc phase p_hit is nan [0, 1]; no table written") if any value to be shown is
/// NaN or infinite.
std::string format_odds(const std::vector<SituationReport>& reports, const Provenance& prov, Format format);

/// Situation reports visited in order, one at a time, as often as a formatter needs: a sweep's
/// reports need not all be in memory (`salvo odds` keeps them in a spill file).
class ReportSource {
 public:
  virtual ~ReportSource() = default;
  virtual void for_each(const std::function<void(const SituationReport&)>& visit) const = 0;
};

/// format_odds, handed to `out` piece by piece (the same text): memory does not grow with the
/// number of reports. Every value is checked before the first piece, so a NaN or an infinity
/// throws (as format_odds does) with nothing written.
void write_odds(const ReportSource& reports, const Provenance& prov, Format format,
                const std::function<void(std::string_view)>& out);

/// True if a Monte Carlo probability disagrees with the exact one: |exact - mc| > 4.5 se with
/// se = sqrt(p (1 - p) / n), p = exact; for p = 0 or 1, any difference. n = 0: never.
bool disagrees(double exact, double mc, std::uint64_t trials);

/// True if a Monte Carlo mean (an e_* quantity, from mean_interval) disagrees with the exact
/// expectation: |exact - mc| > 4.5 se with se = the Monte Carlo sample's sd / sqrt(n) (the
/// report has no exact variance), recovered from the 95% interval as half_width / kZ95. With a
/// sample variance of 0 (every trial counted the same), any difference; with n == 1 (no
/// variance, no interval) any difference too: a mean that cannot be shown to agree is flagged.
/// "Any difference" is beyond 1e-9 relative (the exact value's rounding). n = 0: never.
bool mean_disagrees(double exact, const Estimate& mc, std::uint64_t trials);

/// Names, files and sweep labels in text, Markdown and HTML: salvo::printable (core/text.h).
using salvo::printable;

/// "INTERRUPTED after N trials (K of M situations reported)\n" (the part in parentheses only if
/// more than one situation was asked for), as the text table marks an interrupted run: N the
/// Monte Carlo trials run over the reported situations, M = max(prov.situations_total, K).
std::string interrupted_line(std::uint64_t trials, std::size_t reported, const Provenance& prov);

}  // namespace salvo::report
