// Formatting of odds tables (text, CSV, JSON, Markdown) and of `explain` listings.

#include "salvo/report/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "salvo/core/names.h"
#include "salvo/core/text_table.h"
#include "salvo/sim/stats.h"

#ifndef SALVO_VERSION
#define SALVO_VERSION "unknown"
#endif
#include "salvo_git_rev.h"  // SALVO_GIT_REV, written at build time (cmake/GitRevision.cmake)

namespace salvo::report {

using sim::half_width;
using sim::has_interval;
using sim::kZ95;
using sim::WindowTallies;

std::string_view version() { return SALVO_VERSION; }
std::string_view git_revision() { return SALVO_GIT_REV; }

// The words --method and --format take (docs/cli.md).
constexpr std::array<Named<MethodChoice>, 4> kMethodNames = {{{"exact", MethodChoice::kExact},
                                                              {"mc", MethodChoice::kMonteCarlo},
                                                              {"both", MethodChoice::kBoth},
                                                              {"auto", MethodChoice::kAuto}}};
constexpr std::array<Named<Format>, 4> kFormatNames = {
    {{"text", Format::kText}, {"csv", Format::kCsv}, {"json", Format::kJson}, {"md", Format::kMarkdown}}};

std::string_view method_choice_name(MethodChoice m) { return name_in(kMethodNames, m); }
std::optional<MethodChoice> parse_method_choice(std::string_view s) { return value_in(kMethodNames, s); }
std::string_view format_name(Format f) { return name_in(kFormatNames, f); }
std::optional<Format> parse_format(std::string_view s) { return value_in(kFormatNames, s); }

std::string hex16(std::uint64_t v) { return fmt::format("{:016x}", v); }

ResultNames names_of(const RollProgram& program) {
  return ResultNames{program.flag_names, program.counter_names, program.outcome_names, program.end_reason_names,
                     program.turn_series};
}

bool disagrees(double exact, double mc, std::uint64_t trials) {
  if (trials == 0 || !std::isfinite(exact) || !std::isfinite(mc)) return false;
  if (exact <= 0.0 || exact >= 1.0) return mc != exact;
  const double se = std::sqrt(exact * (1.0 - exact) / static_cast<double>(trials));
  return std::fabs(exact - mc) > 4.5 * se;
}

bool mean_disagrees(double exact, const Estimate& mc, std::uint64_t trials) {
  if (trials == 0 || !std::isfinite(exact) || !std::isfinite(mc.value)) return false;
  const double diff = std::fabs(exact - mc.value);
  // The exact value is a solved Markov chain: equal means may differ in their last bits
  const double rounding = 1e-9 * std::max(1.0, std::fabs(exact));
  // One trial: no variance, so no agreement can be shown; any difference is flagged
  if (trials < 2 || !has_interval(mc)) return diff > rounding;
  // The standard error sd / sqrt(n), from the 95% interval (its wider side: the clamp at 0 only
  // shortens the lower one). A sample variance of 0 (every trial gave the same count): any
  // difference, as for a probability of 0 or 1.
  const double se = half_width(mc) / kZ95;
  return diff > std::max(4.5 * se, rounding);
}

std::string interrupted_line(std::uint64_t trials, std::size_t reported, const Provenance& prov) {
  std::string s = fmt::format("INTERRUPTED after {} trials", trials);
  const std::size_t total = std::max(prov.situations_total, reported);
  if (total > 1) s += fmt::format(" ({} of {} situations reported)", reported, total);
  return s + "\n";
}

std::string format_percent(double p) {
  if (!std::isfinite(p)) return "-";
  const double v = 100.0 * p;
  // A chance that is not zero never prints as 0.0%, one short of certain never as 100.0%: a player
  // asking "can it ever kill?" must see the difference. Below 0.05% three decimals, then a bound.
  if (p > 0.0 && v < 0.05) return v >= 0.0005 ? fmt::format("{:.3f}%", v) : "<0.001%";
  if (p < 1.0 && v >= 99.95) return v < 99.9995 ? fmt::format("{:.3f}%", v) : ">99.999%";
  return fmt::format("{:.1f}%", v);
}

namespace {

// ---------------------------------------------------------------------------------------------
// Quantities: what a window reports, by name.

enum class Src : std::uint8_t { kFlag, kCounter, kOutcome, kEnd };

struct Quantity {
  Src src;
  std::string name;  // without prefix: "hit"
  std::string key() const {
    switch (src) {
      case Src::kFlag:
        return "p_" + name;
      case Src::kCounter:
        return "e_" + name;
      case Src::kOutcome:
        return "outcome_" + name;
      case Src::kEnd:
        return "end_" + name;
    }
    return name;
  }
  bool is_probability() const { return src != Src::kCounter; }
  friend bool operator==(const Quantity&, const Quantity&) = default;
};

// The list a Src picks: names (ResultNames) and estimates (WindowStats) are kept alike.
template <class T>
const auto& pick(const T& t, Src src) {
  switch (src) {
    case Src::kFlag:
      return t.flags;
    case Src::kCounter:
      return t.counters;
    case Src::kOutcome:
      return t.outcomes;
    case Src::kEnd:
      return t.end_reasons;
  }
  return t.flags;
}
const std::vector<std::string>& names_for(const ResultNames& n, Src src) { return pick(n, src); }
const std::vector<Estimate>& values_for(const WindowStats& w, Src src) { return pick(w, src); }

// The turn of a quantity a run over several turns records once per turn (the program's turn
// series): ("destroyed_by", 3) for p_destroyed_by_turn_3; nothing for any other quantity.
std::optional<std::pair<std::string, int>> turn_of(const ResultNames& n, const Quantity& q) {
  if (q.src != Src::kFlag && q.src != Src::kEnd) return std::nullopt;
  const auto& names = names_for(n, q.src);
  const auto it = std::find(names.begin(), names.end(), q.name);
  if (it == names.end()) return std::nullopt;
  const auto i = static_cast<std::uint32_t>(it - names.begin());
  const auto kind =
      q.src == Src::kFlag ? RollProgram::TurnSeries::Kind::kFlag : RollProgram::TurnSeries::Kind::kEndReason;
  for (const auto& series : n.turn_series)
    if (series.kind == kind && i >= series.first && i < series.first + static_cast<std::uint32_t>(series.turns))
      return std::make_pair(series.name, static_cast<int>(i - series.first) + 1);
  return std::nullopt;
}

// The quantities of one report's window, in program order (end reasons: phase only). The first
// window of a run over several turns is turn 1: its quantities of later turns mean nothing.
std::vector<Quantity> quantities_of(const ResultNames& n, bool phase) {
  std::vector<Quantity> q;
  for (Src src : {Src::kFlag, Src::kCounter, Src::kOutcome, Src::kEnd}) {
    if (src == Src::kEnd && !phase) continue;
    for (const auto& name : names_for(n, src)) {
      const Quantity quantity{src, name};
      if (const auto t = turn_of(n, quantity); !phase && t && t->second >= 2) continue;
      q.push_back(quantity);
    }
  }
  return q;
}

std::string sweep_value(const SituationReport& r, const std::string& key) {
  for (const auto& [k, v] : r.sweep)
    if (k == key) return v;
  return "";
}

// The estimate of quantity q in window w of a report; nullopt if the report lacks it.
std::optional<Estimate> lookup(const ResultNames& n, const WindowStats& w, const Quantity& q) {
  const auto& names = names_for(n, q.src);
  const auto it = std::find(names.begin(), names.end(), q.name);
  if (it == names.end()) return std::nullopt;
  const auto i = static_cast<std::size_t>(it - names.begin());
  const auto& values = values_for(w, q.src);
  if (i >= values.size()) return std::nullopt;
  return values[i];
}

// One engine's result of one situation, as a row source.
struct MethodRow {
  const SituationReport* report;
  const RunResult* result;
  std::string_view method;  // "exact" / "mc"
};

std::vector<MethodRow> method_rows(const SituationReport& r) {
  std::vector<MethodRow> rows;
  if (r.exact) rows.push_back({&r, &*r.exact, "exact"});
  if (r.mc) rows.push_back({&r, &*r.mc, "mc"});
  return rows;
}

// Every number a table could show, checked before any formatting: a NaN or an infinity is a
// bug upstream, never something to print (text would show "-", JSON null).
void check_finite(const SituationReport& r) {
  for (const auto& [result, method] : {std::pair{&r.exact, "exact"}, std::pair{&r.mc, "mc"}}) {
    if (!*result) continue;
    for (bool phase : {false, true}) {
      const WindowStats& w = phase ? (*result)->run : (*result)->first;
      for (const auto& q : quantities_of(r.names, phase)) {
        const auto e = lookup(r.names, w, q);
        if (!e || (std::isfinite(e->value) && std::isfinite(e->lo) && std::isfinite(e->hi))) continue;
        // A Monte Carlo mean of fewer than 2 trials has no interval: [0, infinity) (mean_interval),
        // shown as "no interval", never as an infinity
        const bool no_interval = q.src == Src::kCounter && (*result)->method == Method::kMonteCarlo &&
                                 (*result)->trials < 2 && std::isfinite(e->value) && e->lo == 0.0 &&
                                 e->hi == std::numeric_limits<double>::infinity();
        if (no_interval) continue;
        throw std::logic_error(fmt::format("{}: {}: {} {} {} is {} [{}, {}]; no table written", printable(r.file),
                                           printable(r.name), method, phase ? "phase" : "first_shot", q.key(), e->value,
                                           e->lo, e->hi));
      }
    }
  }
}

template <class T>
void add_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

bool has_turns(const ResultNames& n) { return !n.turn_series.empty(); }

// What a table needs to know about all its reports before the first row, gathered in one pass
// (which also checks every value).
struct Summary {
  std::size_t count = 0;
  std::vector<std::string> files;          // distinct, in order
  std::vector<std::string> keys;           // sweep keys, in order of first appearance
  std::vector<Quantity> first_q, phase_q;  // quantities, in order of first appearance
  std::uint64_t trials_run = 0;            // Monte Carlo trials over all reports
  bool mc_interrupted = false;             // a Monte Carlo result stopped early
  std::optional<SituationReport> first;    // a one-situation table shows it alone
  std::size_t with_turns = 0;              // reports over several turns: their first window is turn 1

  bool interrupted(const Provenance& prov) const { return prov.interrupted || mc_interrupted; }
  // Some report names q (phase_q holds every name: flags, counters, outcomes, end reasons).
  bool has(const Quantity& q) const { return std::find(phase_q.begin(), phase_q.end(), q) != phase_q.end(); }
};

Summary summarize(const ReportSource& reports) {
  Summary s;
  std::optional<ResultNames> last;  // the reports of a sweep mostly share their names
  reports.for_each([&](const SituationReport& r) {
    check_finite(r);
    if (++s.count == 1) s.first = r;
    if (has_turns(r.names)) ++s.with_turns;
    add_unique(s.files, r.file);
    for (const auto& kv : r.sweep) add_unique(s.keys, kv.first);
    if (!last || !(*last == r.names)) {
      for (const auto& q : quantities_of(r.names, false)) add_unique(s.first_q, q);
      for (const auto& q : quantities_of(r.names, true)) add_unique(s.phase_q, q);
      last = r.names;
    }
    if (r.mc) {
      s.trials_run += r.mc->trials;
      s.mc_interrupted = s.mc_interrupted || r.mc->interrupted;
    }
  });
  return s;
}

using Out = std::function<void(std::string_view)>;

std::string provenance_line(const Provenance& prov) {
  std::string s =
      fmt::format("salvo {} (git {}), method {}", version(), git_revision(), method_choice_name(prov.method));
  if (prov.method != MethodChoice::kExact) {
    s += fmt::format(", seed {}, trials {}", prov.seed, prov.trials);
    if (prov.precision) s += fmt::format(", precision {}", *prov.precision);
  }
  s += fmt::format(", threads {}", prov.threads);
  if (prov.ranks > 1) s += fmt::format(", ranks {}", prov.ranks);
  if (prov.shards > 1) s += fmt::format(", shards {}", prov.shards);
  s += fmt::format(", rules data {} ({})", prov.rules_data_version, hex16(prov.rules_data_hash));
  return s;
}

// ---------------------------------------------------------------------------------------------
// JSON

using Json = nlohmann::ordered_json;

Json window_json(const SituationReport& r, const WindowStats& w, bool phase) {
  Json j = Json::object();
  for (const auto& q : quantities_of(r.names, phase)) {
    const auto e = lookup(r.names, w, q);
    if (!e) continue;
    Json v = Json::object();
    v[q.is_probability() ? "p" : "mean"] = e->value;
    if (has_interval(*e)) {
      v["lo"] = e->lo;
      v["hi"] = e->hi;
    } else {
      v["no_interval"] = "fewer than 2 trials";  // no lo and hi (null would read as a NaN)
    }
    j[q.key()] = std::move(v);
  }
  return j;
}

Json result_json(const SituationReport& r, const RunResult& res, bool mc) {
  Json j = Json::object();
  j["first_shot"] = window_json(r, res.first, false);
  j["phase"] = window_json(r, res.run, true);
  if (mc) {
    j["trials"] = res.trials;
    j["interrupted"] = res.interrupted;
  }
  return j;
}

Json situation_json(const SituationReport& r) {
  Json s = Json::object();
  s["file"] = r.file;
  s["name"] = r.name;
  s["sweep"] = Json::object();
  for (const auto& [k, v] : r.sweep) s["sweep"][k] = v;
  s["program_hash"] = hex16(r.program_hash);
  s["results"] = Json::object();
  if (r.exact) s["results"]["exact"] = result_json(r, *r.exact, false);
  if (r.mc) s["results"]["mc"] = result_json(r, *r.mc, true);
  return s;
}

void write_json(const ReportSource& reports, const Summary& sum, const Provenance& prov, const Out& out) {
  Json j = Json::object();
  j["salvo"]["version"] = std::string(version());
  j["salvo"]["git"] = std::string(git_revision());
  j["command"] = "odds";
  j["method"] = std::string(method_choice_name(prov.method));
  j["seed"] = prov.seed;
  j["trials"] = prov.trials;
  j["precision"] = prov.precision ? Json(*prov.precision) : Json(nullptr);
  j["threads"] = prov.threads;
  if (prov.ranks > 1) j["ranks"] = prov.ranks;
  if (prov.shards > 1) j["shards"] = prov.shards;
  j["rules_data"]["version"] = prov.rules_data_version;
  j["rules_data"]["hash"] = hex16(prov.rules_data_hash);
  j["interrupted"] = sum.interrupted(prov);
  j["situations_total"] = std::max(prov.situations_total, sum.count);
  // The document as j.dump(2) would print it with a last key "situations", one situation at a
  // time: each element dumped on its own and indented as dump(2) indents an array element
  // (JSON strings hold no raw newline, so every line break is structural).
  std::string head = j.dump(2);
  head.resize(head.size() - 2);  // "\n}"
  out(head + ",\n  \"situations\": [");
  bool first = true;
  reports.for_each([&](const SituationReport& r) {
    std::string text = first ? "\n    " : ",\n    ";
    first = false;
    for (char c : situation_json(r).dump(2)) {
      text += c;
      if (c == '\n') text += "    ";
    }
    out(text);
  });
  out(first ? "]\n}\n" : "\n  ]\n}\n");
}

// ---------------------------------------------------------------------------------------------
// CSV

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Up to 6 decimals, trailing zeros dropped; empty for a missing or non-finite value.
std::string plain_number(double v) {
  if (!std::isfinite(v)) return "";
  std::string s = fmt::format("{:.6f}", v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

void write_csv(const ReportSource& reports, const Summary& sum, const Provenance& prov, const Out& out) {
  const auto& keys = sum.keys;
  const auto& first_q = sum.first_q;
  const auto& phase_q = sum.phase_q;
  const bool interrupted = sum.interrupted(prov);

  // Columns: for each quantity the first-shot triple then the phase triple; end reasons
  // exist for the phase only.
  struct Col {
    bool phase;
    Quantity q;
  };
  std::vector<Col> cols;
  for (const auto& q : phase_q) {
    if (std::find(first_q.begin(), first_q.end(), q) != first_q.end()) cols.push_back({false, q});
    cols.push_back({true, q});
  }

  std::vector<std::string> header{"file", "name"};
  for (const auto& k : keys) header.push_back(k);
  header.push_back("method");
  header.push_back("trials");
  for (const auto& c : cols) {
    const std::string base = (c.phase ? "phase_" : "first_") + c.q.key();
    header.push_back(base);
    header.push_back(base + "_lo");
    header.push_back(base + "_hi");
  }
  if (interrupted) header.push_back("interrupted");

  std::string text;
  auto emit = [&text](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) text += ',';
      text += csv_field(fields[i]);
    }
    text += '\n';
  };
  emit(header);
  out(text);
  reports.for_each([&](const SituationReport& r) {
    text.clear();
    for (const auto& row : method_rows(r)) {
      std::vector<std::string> f{r.file, r.name};
      for (const auto& k : keys) f.push_back(sweep_value(r, k));
      f.emplace_back(row.method);
      f.push_back(row.method == "mc" ? std::to_string(row.result->trials) : "");
      for (const auto& c : cols) {
        const auto e = lookup(r.names, c.phase ? row.result->run : row.result->first, c.q);
        f.push_back(e ? plain_number(e->value) : "");
        const bool interval = e && has_interval(*e);  // empty without one (fewer than 2 trials)
        f.push_back(interval ? plain_number(e->lo) : "");
        f.push_back(interval ? plain_number(e->hi) : "");
      }
      if (interrupted) f.push_back(row.result->interrupted ? "true" : "false");
      emit(f);
    }
    out(text);
  });
}

std::string pct(double v) { return format_percent(v); }

std::string text_cell(const Quantity& q, const std::optional<Estimate>& e, bool mc) {
  if (!e) return "-";
  if (q.is_probability()) {
    if (!mc) return pct(e->value);
    return fmt::format("{:>6} [{:>5.1f}, {:>5.1f}]", pct(e->value), 100.0 * e->lo, 100.0 * e->hi);
  }
  if (!mc) return fmt::format("{:.3f}", e->value);
  if (!has_interval(*e)) return fmt::format("{:.3f} [?, ?]", e->value);
  return fmt::format("{:.3f} [{:.3f}, {:.3f}]", e->value, e->lo, e->hi);
}

constexpr const char* kNoIntervalNote = "[?, ?]: no interval: a mean needs 2 or more trials to estimate its variance\n";

// A both-method comparison cell: the mc cell with "!" if it disagrees with exact.
std::string marked(std::string cell, bool flag) { return cell + (flag ? " !" : "  "); }

bool disagree_at(const Quantity& q, const std::optional<Estimate>& ex, const std::optional<Estimate>& mc,
                 std::uint64_t trials) {
  if (!ex || !mc) return false;
  return q.is_probability() ? disagrees(ex->value, mc->value, trials) : mean_disagrees(ex->value, *mc, trials);
}

// Flags raised over every probability and expectation of both windows of a report.
int count_disagreements(const SituationReport& r) {
  if (!r.exact || !r.mc) return 0;
  int n = 0;
  for (bool phase : {false, true}) {
    for (const auto& q : quantities_of(r.names, phase)) {
      const auto& ew = phase ? r.exact->run : r.exact->first;
      const auto& mw = phase ? r.mc->run : r.mc->first;
      if (disagree_at(q, lookup(r.names, ew, q), lookup(r.names, mw, q), r.mc->trials)) ++n;
    }
  }
  return n;
}

std::string method_line(const SituationReport* single, const Provenance& prov) {
  const std::string limit = with_commas(prov.max_exact_states);
  std::string mc;
  if (prov.method != MethodChoice::kExact) {
    const std::uint64_t n = single && single->mc ? single->mc->trials : prov.trials;
    // --method auto ran Monte Carlo for every situation: say why
    const std::string why = prov.auto_method && prov.method == MethodChoice::kMonteCarlo
                                ? fmt::format(" (auto: more states than the {} the exact engine solves)", limit)
                                : "";
    mc = fmt::format("Monte Carlo{}, seed {}, {} trial{}{}, {}, 95% intervals", why, prov.seed, with_commas(n),
                     n == 1 ? "" : "s", prov.precision ? fmt::format(" (to ±{})", *prov.precision) : "",
                     workers_text(prov));
  }
  switch (prov.method) {
    case MethodChoice::kExact:
      return "exact";
    case MethodChoice::kMonteCarlo:
      return mc;
    case MethodChoice::kBoth:
      return "exact and " + mc;
    case MethodChoice::kAuto:
      return fmt::format("auto: exact up to {} states, else {}", limit, mc);
  }
  return "";
}

}  // namespace

std::string workers_text(const Provenance& prov) {
  std::string s = fmt::format("{} thread{}", prov.threads, prov.threads == 1 ? "" : "s");
  if (prov.shards > 1) s = fmt::format("{} shards × {}", prov.shards, s);
  if (prov.ranks > 1) s = fmt::format("{} ranks × {}", prov.ranks, s);
  return s;
}

namespace {

std::string rules_line(const Provenance& prov) {
  return fmt::format("{} ({})", prov.rules_data_version, hex16(prov.rules_data_hash).substr(0, 8));
}

std::string footnote_disagreements(int raised) {
  return fmt::format(
      "! marks a Monte Carlo probability or mean more than 4.5 standard errors from the exact value "
      "(a mean of fewer than 2 trials: any difference): {} flag{} raised\n",
      raised, raised == 1 ? "" : "s");
}

// One situation: a vertical table, quantities down, windows (and methods) across. A program
// over several turns (names ending "_turn_<t>") also gets a table with a row per turn.
std::string text_single(const SituationReport& r, const Provenance& prov) {
  std::string out = printable(r.name) + "\n";
  TextTable head;
  head.indent = "  ";
  head.align = {Align::kLeft, Align::kLeft};
  head.rows.push_back({"file", printable(r.file)});
  for (const auto& [k, v] : r.sweep) head.rows.push_back({printable(k), printable(v)});
  head.rows.push_back({"method", method_line(&r, prov)});
  head.rows.push_back({"rules", rules_line(prov)});
  head.rows.push_back({"salvo", fmt::format("{} (git {})", version(), git_revision())});
  out += head.render();
  if (prov.interrupted || (r.mc && r.mc->interrupted)) out += interrupted_line(r.mc ? r.mc->trials : 0, 1, prov);
  out += '\n';

  const bool both = r.exact && r.mc;
  struct Column {
    std::string title;
    bool phase;
    const RunResult* result;
    bool mc;
  };
  std::vector<Column> columns;
  const bool turns = has_turns(r.names);
  for (bool phase : {false, true}) {
    const DisplayHints& h = prov.hints;
    const std::string window =
        phase ? (turns ? h.run_window_turns : h.run_window) : (turns ? h.first_window_turns : h.first_window);
    if (r.exact) columns.push_back({both ? window + " exact" : window, phase, &*r.exact, false});
    if (r.mc) columns.push_back({both ? window + " mc" : window, phase, &*r.mc, true});
  }

  int raised = 0;
  bool no_interval = false;  // a "[?, ?]" shown
  auto cells = [&](const Quantity& q, const std::vector<const Column*>& cols) {
    std::vector<std::string> row{q.key()};
    for (const Column* c : cols) {
      const auto e = lookup(r.names, c->phase ? c->result->run : c->result->first, q);
      std::string cell = text_cell(q, e, c->mc);
      no_interval = no_interval || (c->mc && e && !has_interval(*e));
      if (both && c->mc) {
        const auto ex = lookup(r.names, c->phase ? r.exact->run : r.exact->first, q);
        const bool flag = disagree_at(q, ex, e, c->result->trials);
        raised += flag ? 1 : 0;
        cell = marked(std::move(cell), flag);
      }
      row.push_back(std::move(cell));
    }
    return row;
  };

  // A table headed by `corner` and the titles of the columns it shows (with `phase_only`, the
  // phase columns), which are appended to `cols`.
  const auto headed = [&](std::string corner, bool phase_only, std::vector<const Column*>& cols) {
    TextTable t;
    t.align = {Align::kLeft};
    t.rows.push_back({std::move(corner)});
    for (const auto& c : columns) {
      if (phase_only && !c.phase) continue;
      cols.push_back(&c);
      t.align.push_back(Align::kRight);
      t.rows[0].push_back(c.title + (both && c.mc ? "  " : ""));
    }
    return t;
  };

  // Flags and counters, both windows.
  std::vector<const Column*> all_cols;
  TextTable main = headed("", false, all_cols);
  for (const auto& q : quantities_of(r.names, false))
    if ((q.src == Src::kFlag || q.src == Src::kCounter) && !turn_of(r.names, q))
      main.rows.push_back(cells(q, all_cols));
  out += main.render();

  // How the phase ended: outcome of the last step, and why the phase stopped.
  std::vector<const Column*> phase_cols;
  TextTable ended =
      headed("how the " + (turns ? std::string("run") : prov.hints.run_window) + " ended", true, phase_cols);
  for (const auto& q : quantities_of(r.names, true))
    if ((q.src == Src::kOutcome || q.src == Src::kEnd) && !turn_of(r.names, q))
      ended.rows.push_back(cells(q, phase_cols));
  out += '\n' + ended.render();

  if (turns) {
    // Turn by turn: each series of the program as a column (flags, then end reasons), over the
    // whole run.
    std::vector<const RollProgram::TurnSeries*> series;
    int last = 0;
    for (const auto kind : {RollProgram::TurnSeries::Kind::kFlag, RollProgram::TurnSeries::Kind::kEndReason})
      for (const auto& ts : r.names.turn_series)
        if (ts.kind == kind) {
          series.push_back(&ts);
          last = std::max(last, ts.turns);
        }
    const auto src_of = [](const RollProgram::TurnSeries& ts) {
      return ts.kind == RollProgram::TurnSeries::Kind::kFlag ? Src::kFlag : Src::kEnd;
    };
    TextTable by_turn;
    by_turn.align = {Align::kRight};
    by_turn.rows.push_back({"turn"});
    for (const auto* ts : series)
      for (const Column* c : phase_cols) {
        by_turn.align.push_back(Align::kRight);
        by_turn.rows[0].push_back(Quantity{src_of(*ts), ts->name}.key() + (both ? (c->mc ? " mc  " : " exact") : ""));
      }
    for (int t = 1; t <= last; ++t) {
      std::vector<std::string> row{std::to_string(t)};
      for (const auto* ts : series) {
        if (t > ts->turns) {
          row.insert(row.end(), phase_cols.size(), "-");
          continue;
        }
        const Quantity q{src_of(*ts),
                         names_for(r.names, src_of(*ts)).at(ts->first + static_cast<std::uint32_t>(t) - 1)};
        for (const Column* c : phase_cols) {
          const auto e = lookup(r.names, c->result->run, q);
          std::string cell = text_cell(q, e, c->mc);
          if (both && c->mc) {
            const bool flag = disagree_at(q, lookup(r.names, r.exact->run, q), e, c->result->trials);
            raised += flag ? 1 : 0;
            cell = marked(std::move(cell), flag);
          }
          row.push_back(std::move(cell));
        }
      }
      by_turn.rows.push_back(std::move(row));
    }
    out += '\n' + by_turn.render();
  }

  if (no_interval || both) out += '\n';
  if (no_interval) out += kNoIntervalNote;
  if (both) out += footnote_disagreements(raised);
  return out;
}

// "first: the first shot, or turn 1 of a situation over several turns; phase: the whole run"
std::string windows_note(const DisplayHints& h) {
  return fmt::format("first: the {}, or {} of a situation over several turns; phase: the whole run", h.first_window,
                     h.first_window_turns);
}

// Several situations: one compact row per situation (and method), with the key quantities
// of the display hints that the reports have (the text and Markdown tables).
struct KeyColumn {
  std::string title;
  bool phase;
  Quantity q;
};

std::vector<KeyColumn> key_columns(const Summary& sum, const DisplayHints& hints) {
  std::vector<KeyColumn> present;
  for (const auto& k : hints.key) {
    const bool p = k.quantity.rfind("p_", 0) == 0;
    if (!p && k.quantity.rfind("e_", 0) != 0) continue;
    const KeyColumn c{k.title, k.run, {p ? Src::kFlag : Src::kCounter, k.quantity.substr(2)}};
    if (sum.has(c.q)) present.push_back(c);
  }
  return present;
}

void write_text_compact(const ReportSource& reports, const Summary& sum, const Provenance& prov, const Out& out) {
  const auto& files = sum.files;
  const auto& keys = sum.keys;
  const bool show_name = files.size() > 1 || keys.empty();
  const bool both = prov.method == MethodChoice::kBoth;
  const bool per_row = both || prov.method == MethodChoice::kAuto;  // a method column
  const auto cols = key_columns(sum, prov.hints);

  std::string head = fmt::format("{} situations", sum.count);
  if (files.size() == 1)
    head += " from " + printable(files.front());
  else
    head += fmt::format(" from {} files", files.size());
  head += '\n';
  TextTable meta;
  meta.indent = "  ";
  meta.align = {Align::kLeft, Align::kLeft};
  meta.rows.push_back({"method", method_line(nullptr, prov)});
  meta.rows.push_back({"rules", rules_line(prov)});
  meta.rows.push_back({"salvo", fmt::format("{} (git {})", version(), git_revision())});
  head += meta.render();
  if (sum.interrupted(prov)) head += interrupted_line(sum.trials_run, sum.count, prov);
  head += '\n';
  out(head);

  TextTable t;  // its rows are never all held: widths from a first pass, lines from a second
  std::vector<std::string> title;
  if (show_name) {
    t.align.push_back(Align::kLeft);
    title.push_back("situation");
  }
  for (const auto& k : keys) {
    t.align.push_back(Align::kRight);
    title.push_back(printable(k));
  }
  if (per_row) {
    t.align.push_back(Align::kLeft);
    title.push_back("method");
  }
  // The first window is the first shot, or turn 1 of a situation over several turns (a duel):
  // named so when every situation has turns, footnoted when only some do.
  const bool all_turns = sum.with_turns == sum.count;
  for (const auto& c : cols) {
    t.align.push_back(Align::kRight);
    std::string name = c.title;
    for (const char* window : {"first ", "phase "})
      if (all_turns && name.rfind(window, 0) == 0)
        name = (c.phase ? prov.hints.run_window_turns : prov.hints.first_window_turns) + " " + name.substr(6);
    title.push_back(both ? name + "  " : name);
  }

  double max_half = 0.0;
  int raised = 0;      // marks shown
  int raised_all = 0;  // over every probability of every situation
  // The lines of one report; with `tally`, what the footnotes count.
  auto lines_of = [&](const SituationReport& r, bool tally) {
    std::vector<std::vector<std::string>> lines;
    if (tally) raised_all += count_disagreements(r);
    for (const auto& row : method_rows(r)) {
      const RunResult* res = row.result;
      const bool mc = row.method == "mc";
      std::vector<std::string> line;
      if (show_name) line.push_back(printable(r.name));
      for (const auto& k : keys) line.push_back(printable(sweep_value(r, k)));
      if (per_row) line.emplace_back(row.method);
      for (const auto& c : cols) {
        const auto e = lookup(r.names, c.phase ? res->run : res->first, c.q);
        std::string cell = !e ? "-" : c.q.is_probability() ? pct(e->value) : fmt::format("{:.3f}", e->value);
        if (tally && e && mc && c.q.is_probability()) max_half = std::max(max_half, (e->hi - e->lo) / 2.0);
        if (both) {
          bool flag = false;
          if (mc && r.exact) {
            const auto ex = lookup(r.names, c.phase ? r.exact->run : r.exact->first, c.q);
            flag = disagree_at(c.q, ex, e, res->trials);
          }
          if (tally) raised += flag ? 1 : 0;
          cell = marked(std::move(cell), flag);
        }
        line.push_back(std::move(cell));
      }
      lines.push_back(std::move(line));
    }
    return lines;
  };
  std::vector<std::size_t> width;
  t.widen(width, title);
  reports.for_each([&](const SituationReport& r) {
    for (const auto& line : lines_of(r, false)) t.widen(width, line);
  });
  out(t.line(title, width));
  reports.for_each([&](const SituationReport& r) {
    std::string text;
    for (const auto& line : lines_of(r, true)) text += t.line(line, width);
    out(text);
  });

  std::string foot;
  if (sum.with_turns > 0 && !all_turns) foot += "\n" + windows_note(prov.hints) + "\n";
  if (prov.method != MethodChoice::kExact)
    foot += fmt::format("\nMonte Carlo 95% intervals: at most ±{:.2f} percentage points\n", 100.0 * max_half);
  if (both) {
    foot += footnote_disagreements(raised);
    if (raised_all != raised)
      foot += fmt::format("  ({} over all probabilities and means, including those not shown)\n", raised_all);
  }
  out(foot);
}

void write_text(const ReportSource& reports, const Summary& sum, const Provenance& prov, const Out& out) {
  if (sum.count == 1 && prov.situations_total <= 1) return out(text_single(*sum.first, prov));
  if (sum.count == 0) {
    std::string text = "no situations\n";
    if (sum.interrupted(prov)) text += interrupted_line(0, 0, prov);
    return out(text);
  }
  write_text_compact(reports, sum, prov, out);
}

// ---------------------------------------------------------------------------------------------
// Markdown

// A name or label in a Markdown cell: control characters escaped as in text (a newline would
// end the row), '|' escaped (it would end the cell).
std::string md_escape(const std::string& name) {
  std::string out;
  for (char c : printable(name)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// A value, and with Monte Carlo its 95% interval as ± its half-width; a mean's interval clamped
// at 0 (lo = 0 nearer the value than hi) as [lo, hi], a mean without an interval as "±?".
std::string md_cell(const std::optional<Estimate>& e, bool mc, bool probability) {
  if (!e || !std::isfinite(e->value)) return "";
  if (!mc) return fmt::format("{:.3f}", e->value);
  if (!has_interval(*e)) return fmt::format("{:.3f} ±?", e->value);
  const double half = (e->hi - e->lo) / 2.0;
  int decimals = 3;
  while (decimals < 6 && half > 0.0 && half < 0.5 * std::pow(10.0, -decimals)) ++decimals;
  if (!probability && e->value - e->lo < e->hi - e->value)
    return fmt::format("{:.{}f} [{:.{}f}, {:.{}f}]", e->value, decimals, e->lo, decimals, e->hi, decimals);
  return fmt::format("{:.{}f} ±{:.{}f}", e->value, decimals, half, decimals);
}

void write_md(const ReportSource& reports, const Summary& sum, const Provenance& prov, const Out& out) {
  const auto& keys = sum.keys;
  const bool both = prov.method == MethodChoice::kBoth;
  const bool per_row = both || prov.method == MethodChoice::kAuto;  // a method column
  const bool interrupted = sum.interrupted(prov);
  const auto cols = key_columns(sum, prov.hints);

  std::vector<std::string> header{"name"};
  std::vector<bool> numeric{false};
  for (const auto& k : keys) {
    header.push_back(md_escape(k));
    numeric.push_back(true);
  }
  if (per_row) {
    header.push_back("method");
    numeric.push_back(false);
  }
  for (const auto& c : cols) {
    header.push_back((c.phase ? "phase_" : "first_") + c.q.key());
    numeric.push_back(true);
  }
  if (interrupted) {
    header.push_back("interrupted");
    numeric.push_back(false);
  }

  std::string text;
  bool no_interval = false;  // a "±?" shown
  auto emit = [&text](const std::vector<std::string>& cells) {
    text += '|';
    for (const auto& c : cells) text += ' ' + c + " |";
    text += '\n';
  };
  emit(header);
  std::vector<std::string> rule;
  for (bool n : numeric) rule.push_back(n ? "---:" : "---");
  emit(rule);
  out(text);
  reports.for_each([&](const SituationReport& r) {
    text.clear();
    for (const auto& row : method_rows(r)) {
      const bool mc = row.method == "mc";
      std::vector<std::string> cells{md_escape(r.name)};
      for (const auto& k : keys) cells.push_back(md_escape(sweep_value(r, k)));
      if (per_row) cells.emplace_back(row.method);
      for (const auto& c : cols) {
        const auto e = lookup(r.names, c.phase ? row.result->run : row.result->first, c.q);
        no_interval = no_interval || (mc && e && !has_interval(*e));
        cells.push_back(md_cell(e, mc, c.q.is_probability()));
      }
      if (interrupted) cells.emplace_back(row.result->interrupted ? "yes" : "no");
      emit(cells);
    }
    out(text);
  });
  std::string foot = "\n";
  if (sum.with_turns > 0) foot += "_" + windows_note(prov.hints) + "_\n\n";
  if (no_interval) foot += "_±?: no interval: a mean needs 2 or more trials to estimate its variance_\n\n";
  out(foot + "_" + md_escape(provenance_line(prov)) + "_\n");
}

}  // namespace

namespace {

class VectorSource final : public ReportSource {
 public:
  explicit VectorSource(const std::vector<SituationReport>& reports) : reports_(reports) {}
  void for_each(const std::function<void(const SituationReport&)>& visit) const override {
    for (const auto& r : reports_) visit(r);
  }

 private:
  const std::vector<SituationReport>& reports_;
};

}  // namespace

void write_odds(const ReportSource& reports, const Provenance& prov, Format format,
                const std::function<void(std::string_view)>& out) {
  const Summary sum = summarize(reports);  // checks every value before anything is written
  switch (format) {
    case Format::kText:
      return write_text(reports, sum, prov, out);
    case Format::kCsv:
      return write_csv(reports, sum, prov, out);
    case Format::kJson:
      return write_json(reports, sum, prov, out);
    case Format::kMarkdown:
      return write_md(reports, sum, prov, out);
  }
}

std::string format_odds(const std::vector<SituationReport>& reports, const Provenance& prov, Format format) {
  std::string text;
  write_odds(VectorSource(reports), prov, format, [&text](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace salvo::report
