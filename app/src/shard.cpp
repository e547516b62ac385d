// Shards of a run (shard.h): one shard's share run and written as strict JSON, and shards
// checked and added up into the table of one process.
#include "salvo/app/shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "runner_parts.h"
#include "salvo/app/io.h"
#include "salvo/app/source.h"
#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"
#include "salvo/sim/exact.h"

namespace salvo::app {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kMaxShards = 1'000'000;

// ---------------------------------------------------------------------------------------------
// Writing

Json estimates_json(const std::vector<sim::Estimate>& v) {
  Json a = Json::array();
  for (const sim::Estimate& e : v) a.push_back(Json::array({e.value, e.lo, e.hi}));
  return a;
}

Json stats_json(const sim::WindowStats& w) {
  return Json{{"flags", estimates_json(w.flags)},
              {"counters", estimates_json(w.counters)},
              {"outcomes", estimates_json(w.outcomes)},
              {"end_reasons", estimates_json(w.end_reasons)}};
}

Json window_tallies_json(const sim::WindowTallies& w, bool run) {
  Json j{
      {"flags", w.flags}, {"counter_sum", w.counter_sum}, {"counter_sumsq", w.counter_sumsq}, {"outcomes", w.outcomes}};
  if (run) j["end_reasons"] = w.end_reasons;
  return j;
}

Json names_json(const report::ResultNames& n) {
  Json series = Json::array();
  for (const RollProgram::TurnSeries& t : n.turn_series)
    series.push_back(Json{{"kind", t.kind == RollProgram::TurnSeries::Kind::kFlag ? "flag" : "end_reason"},
                          {"name", t.name},
                          {"first", t.first},
                          {"turns", t.turns}});
  return Json{{"flags", n.flags},
              {"counters", n.counters},
              {"outcomes", n.outcomes},
              {"end_reasons", n.end_reasons},
              {"turn_series", series}};
}

Json hints_json(const DisplayHints& h) {
  Json key = Json::array();
  for (const DisplayHints::Key& k : h.key)
    key.push_back(Json{{"quantity", k.quantity}, {"run", k.run}, {"title", k.title}});
  return Json{{"key", key},
              {"lower_is_better", h.lower_is_better},
              {"neutral", h.neutral},
              {"first_window", h.first_window},
              {"run_window", h.run_window},
              {"first_window_turns", h.first_window_turns},
              {"run_window_turns", h.run_window_turns},
              {"headline", h.headline},
              {"hits_counter", h.hits_counter},
              {"outcome_apart_flag", h.outcome_apart_flag}};
}

/// Trials in blocks [b0, b1) of a run of `trials_total` trials.
std::uint64_t block_trials(std::uint64_t b0, std::uint64_t b1, std::uint64_t trials_total) {
  const std::uint64_t begin = std::min(trials_total, b0 * sim::kBlockTrials);
  const std::uint64_t end = std::min(trials_total, b1 * sim::kBlockTrials);
  return end - begin;
}

std::uint64_t blocks_of(std::uint64_t trials) { return (trials + sim::kBlockTrials - 1) / sim::kBlockTrials; }

// ---------------------------------------------------------------------------------------------
// Reading, strictly: every key known, every value of its type

class ShardReader {
 public:
  explicit ShardReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw load::InputError(fmt::format("{}: {}: {}", file_, path, what));
  }
  [[noreturn]] void expected(const std::string& path, std::string_view what, const Json& got) const {
    std::string text = got.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    fail(path, fmt::format("expected {}, got {}", what, text));
  }

  /// `j` is an object with exactly `required` keys, and maybe `optional` ones.
  const Json& object(const Json& j, const std::string& path, std::initializer_list<std::string_view> required,
                     std::initializer_list<std::string_view> optional = {}) const {
    if (!j.is_object()) expected(path, "an object", j);
    for (std::string_view k : required)
      if (!j.contains(k)) fail(path, fmt::format("missing key \"{}\"", k));
    for (const auto& item : j.items()) {
      const std::string& k = item.key();
      const auto in = [&k](std::initializer_list<std::string_view> l) {
        return std::find(l.begin(), l.end(), k) != l.end();
      };
      if (!in(required) && !in(optional)) fail(path, fmt::format("unknown key \"{}\"", k));
    }
    return j;
  }
  std::uint64_t u64(const Json& j, const std::string& path) const {
    if (!j.is_number_unsigned()) expected(path, "a non-negative integer", j);
    return j.get<std::uint64_t>();
  }
  int integer(const Json& j, const std::string& path, int lo, int hi) const {
    if (!j.is_number_integer() || j.get<std::int64_t>() < lo || j.get<std::int64_t>() > hi)
      expected(path, fmt::format("an integer in {}..{}", lo, hi), j);
    return static_cast<int>(j.get<std::int64_t>());
  }
  std::string str(const Json& j, const std::string& path) const {
    if (!j.is_string()) expected(path, "a string", j);
    return j.get<std::string>();
  }
  bool boolean(const Json& j, const std::string& path) const {
    if (!j.is_boolean()) expected(path, "true or false", j);
    return j.get<bool>();
  }
  std::uint64_t hex(const Json& j, const std::string& path) const {
    const std::string s = str(j, path);
    std::uint64_t v = 0;
    if (s.size() != 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
      expected(path, "16 lower-case hex digits", j);
    for (char c : s) v = v * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
    return v;
  }
  std::vector<std::string> strings(const Json& j, const std::string& path) const {
    if (!j.is_array()) expected(path, "an array of strings", j);
    std::vector<std::string> v;
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(str(j[i], fmt::format("{}[{}]", path, i)));
    return v;
  }
  std::vector<std::uint64_t> counts(const Json& j, const std::string& path, std::size_t size) const {
    if (!j.is_array() || j.size() != size) expected(path, fmt::format("an array of {} integers", size), j);
    std::vector<std::uint64_t> v;
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(u64(j[i], fmt::format("{}[{}]", path, i)));
    return v;
  }
  std::vector<sim::Estimate> estimates(const Json& j, const std::string& path, std::size_t size) const {
    if (!j.is_array() || j.size() != size) expected(path, fmt::format("an array of {} [p, lo, hi] triples", size), j);
    std::vector<sim::Estimate> v;
    for (std::size_t i = 0; i < j.size(); ++i) {
      const Json& e = j[i];
      if (!e.is_array() || e.size() != 3 || !e[0].is_number() || !e[1].is_number() || !e[2].is_number())
        expected(fmt::format("{}[{}]", path, i), "[p, lo, hi]", e);
      v.push_back(sim::Estimate{e[0].get<double>(), e[1].get<double>(), e[2].get<double>()});
    }
    return v;
  }

  report::ResultNames names(const Json& j, const std::string& path) const {
    object(j, path, {"flags", "counters", "outcomes", "end_reasons", "turn_series"});
    report::ResultNames n;
    n.flags = strings(j["flags"], path + ".flags");
    n.counters = strings(j["counters"], path + ".counters");
    n.outcomes = strings(j["outcomes"], path + ".outcomes");
    n.end_reasons = strings(j["end_reasons"], path + ".end_reasons");
    const Json& series = j["turn_series"];
    if (!series.is_array()) expected(path + ".turn_series", "an array", series);
    for (std::size_t i = 0; i < series.size(); ++i) {
      const std::string p = fmt::format("{}.turn_series[{}]", path, i);
      object(series[i], p, {"kind", "name", "first", "turns"});
      RollProgram::TurnSeries t;
      const std::string kind = str(series[i]["kind"], p + ".kind");
      if (kind != "flag" && kind != "end_reason")
        expected(p + ".kind", "\"flag\" or \"end_reason\"", series[i]["kind"]);
      t.kind = kind == "flag" ? RollProgram::TurnSeries::Kind::kFlag : RollProgram::TurnSeries::Kind::kEndReason;
      t.name = str(series[i]["name"], p + ".name");
      t.first = static_cast<std::uint32_t>(integer(series[i]["first"], p + ".first", 0, 1 << 20));
      t.turns = integer(series[i]["turns"], p + ".turns", 0, 1 << 20);
      n.turn_series.push_back(t);
    }
    return n;
  }

  DisplayHints hints(const Json& j, const std::string& path) const {
    object(j, path,
           {"key", "lower_is_better", "neutral", "first_window", "run_window", "first_window_turns", "run_window_turns",
            "headline", "hits_counter", "outcome_apart_flag"});
    DisplayHints h;
    const Json& key = j["key"];
    if (!key.is_array()) expected(path + ".key", "an array", key);
    for (std::size_t i = 0; i < key.size(); ++i) {
      const std::string p = fmt::format("{}.key[{}]", path, i);
      object(key[i], p, {"quantity", "run", "title"});
      h.key.push_back({str(key[i]["quantity"], p + ".quantity"), boolean(key[i]["run"], p + ".run"),
                       str(key[i]["title"], p + ".title")});
    }
    h.lower_is_better = strings(j["lower_is_better"], path + ".lower_is_better");
    h.neutral = strings(j["neutral"], path + ".neutral");
    h.first_window = str(j["first_window"], path + ".first_window");
    h.run_window = str(j["run_window"], path + ".run_window");
    h.first_window_turns = str(j["first_window_turns"], path + ".first_window_turns");
    h.run_window_turns = str(j["run_window_turns"], path + ".run_window_turns");
    h.headline = str(j["headline"], path + ".headline");
    h.hits_counter = str(j["hits_counter"], path + ".hits_counter");
    h.outcome_apart_flag = str(j["outcome_apart_flag"], path + ".outcome_apart_flag");
    return h;
  }

  sim::WindowTallies window_tallies(const Json& j, const std::string& path, const report::ResultNames& n,
                                    bool run) const {
    if (run)
      object(j, path, {"flags", "counter_sum", "counter_sumsq", "outcomes", "end_reasons"});
    else
      object(j, path, {"flags", "counter_sum", "counter_sumsq", "outcomes"});
    sim::WindowTallies w;
    w.flags = counts(j["flags"], path + ".flags", n.flags.size());
    w.counter_sum = counts(j["counter_sum"], path + ".counter_sum", n.counters.size());
    w.counter_sumsq = counts(j["counter_sumsq"], path + ".counter_sumsq", n.counters.size());
    w.outcomes = counts(j["outcomes"], path + ".outcomes", n.outcomes.size());
    if (run) w.end_reasons = counts(j["end_reasons"], path + ".end_reasons", n.end_reasons.size());
    return w;
  }

  sim::WindowStats stats(const Json& j, const std::string& path, const report::ResultNames& n, bool run) const {
    object(j, path, {"flags", "counters", "outcomes", "end_reasons"});
    sim::WindowStats w;
    w.flags = estimates(j["flags"], path + ".flags", n.flags.size());
    w.counters = estimates(j["counters"], path + ".counters", n.counters.size());
    w.outcomes = estimates(j["outcomes"], path + ".outcomes", n.outcomes.size());
    // Only the whole run has end reasons (sim::WindowStats)
    w.end_reasons = estimates(j["end_reasons"], path + ".end_reasons", run ? n.end_reasons.size() : 0);
    return w;
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

/// One situation of one shard, as read.
struct ShardSituation {
  report::SituationReport report;  ///< file, name, sweep, program hash, names; exact if this shard solved it
  std::uint64_t block_begin = 0, block_end = 0;
  std::optional<sim::Tallies> tallies;
};

/// A shard file, read and checked on its own.
struct Shard {
  std::string file;
  int shard = 0, shards = 0;
  Json settings;  ///< everything that must be the same in every shard of the run
  report::MethodChoice method = report::MethodChoice::kExact;
  std::uint64_t seed = 0, trials = 0;
  int threads = 1;
  std::string rules_version;
  std::uint64_t rules_hash = 0;
  DisplayHints hints;
  std::size_t situations_total = 0;
  std::map<std::size_t, ShardSituation> situations;
};

Shard read_shard(const std::string& path) {
  const std::string text = load::read_text_file(path, load::kMaxFileBytesLimit);
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw load::InputError(fmt::format("{}: not a salvo shard file: {}", path, e.what()));
  }
  ShardReader in(path);
  if (!j.is_object() || !j.contains("salvo_shard"))
    throw load::InputError(
        fmt::format("{}: not a salvo shard file (no \"salvo_shard\" key; write one with salvo odds "
                    "--shard K/N)",
                    path));
  if (j["salvo_shard"] != kShardFormat)
    in.fail("salvo_shard",
            fmt::format("shard format {} is not the one this salvo reads ({})", j["salvo_shard"].dump(), kShardFormat));
  in.object(j, "shard file",
            {"salvo_shard", "salvo", "shard", "shards", "method", "seed", "trials", "threads", "rules_data", "hints",
             "situations_total", "situations"});
  Shard s;
  s.file = path;
  s.shards = in.integer(j["shards"], "shards", 1, kMaxShards);
  s.shard = in.integer(j["shard"], "shard", 1, s.shards);
  in.object(j["salvo"], "salvo", {"version", "git"});
  const std::string built = fmt::format("{} (git {})", in.str(j["salvo"]["version"], "salvo.version"),
                                        in.str(j["salvo"]["git"], "salvo.git"));
  const std::string mine = fmt::format("{} (git {})", report::version(), report::git_revision());
  if (built != mine)
    in.fail("salvo", fmt::format("written by salvo {}, this is salvo {}: merge with the salvo that ran the shards",
                                 built, mine));
  const auto method = report::parse_method_choice(in.str(j["method"], "method"));
  if (!method) in.expected("method", "exact, mc or both", j["method"]);
  s.method = *method;
  s.seed = in.u64(j["seed"], "seed");
  s.trials = in.u64(j["trials"], "trials");
  if (s.trials == 0) in.expected("trials", "at least 1", j["trials"]);
  s.threads = in.integer(j["threads"], "threads", 1, 1 << 20);
  in.object(j["rules_data"], "rules_data", {"version", "hash"});
  s.rules_version = in.str(j["rules_data"]["version"], "rules_data.version");
  s.rules_hash = in.hex(j["rules_data"]["hash"], "rules_data.hash");
  s.hints = in.hints(j["hints"], "hints");
  s.situations_total = static_cast<std::size_t>(in.u64(j["situations_total"], "situations_total"));
  s.settings = Json{{"salvo", j["salvo"]},   {"shards", j["shards"]},
                    {"method", j["method"]}, {"seed", j["seed"]},
                    {"trials", j["trials"]}, {"rules_data", j["rules_data"]},
                    {"hints", j["hints"]},   {"situations_total", j["situations_total"]}};

  const bool mc = s.method != report::MethodChoice::kExact;
  const std::uint64_t blocks = blocks_of(s.trials);
  const auto [blocks_b, blocks_e] = share(blocks, s.shard - 1, s.shards);
  const auto [share_b, share_e] = share(s.situations_total, s.shard - 1, s.shards);
  const auto own_b = static_cast<std::size_t>(share_b), own_e = static_cast<std::size_t>(share_e);
  const Json& list = j["situations"];
  if (!list.is_array()) in.expected("situations", "an array", list);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string p = fmt::format("situations[{}]", i);
    const Json& sj = list[i];
    in.object(sj, p, {"index", "file", "name", "sweep", "program_hash", "names"}, {"exact", "blocks", "tallies"});
    const auto index = static_cast<std::size_t>(in.u64(sj["index"], p + ".index"));
    if (index >= s.situations_total)
      in.fail(p + ".index", fmt::format("{} is not below situations_total ({})", index, s.situations_total));
    if (s.situations.count(index)) in.fail(p + ".index", fmt::format("situation {} listed twice", index));
    ShardSituation& sit = s.situations[index];
    report::SituationReport& r = sit.report;
    r.file = in.str(sj["file"], p + ".file");
    r.name = in.str(sj["name"], p + ".name");
    const Json& sweep = sj["sweep"];
    if (!sweep.is_array()) in.expected(p + ".sweep", "an array of [key, value] pairs", sweep);
    for (std::size_t k = 0; k < sweep.size(); ++k) {
      const std::vector<std::string> kv = in.strings(sweep[k], fmt::format("{}.sweep[{}]", p, k));
      if (kv.size() != 2) in.expected(fmt::format("{}.sweep[{}]", p, k), "a [key, value] pair", sweep[k]);
      r.sweep.emplace_back(kv[0], kv[1]);
    }
    r.program_hash = in.hex(sj["program_hash"], p + ".program_hash");
    r.names = in.names(sj["names"], p + ".names");

    // The exact result: in the shard whose share of the situations holds it, and only there
    const bool owns = index >= own_b && index < own_e && s.method != report::MethodChoice::kMonteCarlo;
    if (owns != sj.contains("exact"))
      in.fail(p, owns ? "missing key \"exact\" (this shard solves the situation)"
                      : fmt::format("key \"exact\": situation {} is not in shard {}'s share", index, s.shard));
    if (owns) {
      const Json& e = sj["exact"];
      in.object(e, p + ".exact", {"first", "run"});
      r.exact.emplace();
      r.exact->method = sim::Method::kExact;
      r.exact->first = in.stats(e["first"], p + ".exact.first", r.names, false);
      r.exact->run = in.stats(e["run"], p + ".exact.run", r.names, true);
    }
    // Monte Carlo: this shard's share of the situation's blocks, and their tallies
    if (mc != sj.contains("blocks") || mc != sj.contains("tallies"))
      in.fail(p, mc ? "missing keys \"blocks\" and \"tallies\" (a Monte Carlo shard)"
                    : "keys \"blocks\" and \"tallies\" in a shard of an exact run");
    if (!mc) {
      if (!owns) in.fail(p, fmt::format("situation {} is not in shard {}'s share", index, s.shard));
      continue;
    }
    const std::vector<std::uint64_t> range = in.counts(sj["blocks"], p + ".blocks", 2);
    if (range[0] != blocks_b || range[1] != blocks_e)
      in.fail(p + ".blocks", fmt::format("[{}, {}], but shard {} of {} runs blocks [{}, {}] of {} trials", range[0],
                                         range[1], s.shard, s.shards, blocks_b, blocks_e, s.trials));
    sit.block_begin = range[0];
    sit.block_end = range[1];
    const Json& t = sj["tallies"];
    const std::string tp = p + ".tallies";
    in.object(t, tp, {"trials", "truncated", "first", "run"});
    sim::Tallies tallies;
    tallies.trials = in.u64(t["trials"], tp + ".trials");
    const std::uint64_t want = block_trials(range[0], range[1], s.trials);
    if (tallies.trials != want)
      in.fail(tp + ".trials", fmt::format("{}, but blocks [{}, {}] of {} trials hold {}", tallies.trials, range[0],
                                          range[1], s.trials, want));
    tallies.truncated = in.u64(t["truncated"], tp + ".truncated");
    tallies.first = in.window_tallies(t["first"], tp + ".first", r.names, false);
    tallies.run = in.window_tallies(t["run"], tp + ".run", r.names, true);
    sit.tallies = std::move(tallies);
  }
  // Every situation a shard must list: all of them with Monte Carlo, its share without
  const std::size_t listed = mc ? s.situations_total : own_e - own_b;
  if (s.situations.size() != listed)
    in.fail("situations",
            fmt::format("{} listed, shard {} of {} holds {}", s.situations.size(), s.shard, s.shards, listed));
  return s;
}

bool same_situation(const report::SituationReport& a, const report::SituationReport& b) {
  return a.file == b.file && a.name == b.name && a.sweep == b.sweep && a.program_hash == b.program_hash &&
         a.names == b.names;
}

}  // namespace

std::pair<int, int> shard_flag(std::string_view text) {
  const std::size_t slash = text.find('/');
  const auto fail = [&]() -> std::pair<int, int> {
    throw UsageError(
        fmt::format("--shard: expected K/N, shard K of N with 1 <= K <= N <= {} (e.g. 2/8), got {}", kMaxShards, text));
  };
  if (slash == std::string_view::npos) return fail();
  const auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 7 && s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const std::string_view k = text.substr(0, slash);
  const std::string_view n = text.substr(slash + 1);
  if (!digits(k) || !digits(n)) return fail();
  const int kv = std::stoi(std::string(k));
  const int nv = std::stoi(std::string(n));
  if (kv < 1 || kv > nv || nv > kMaxShards) return fail();
  return {kv, nv};
}

/// --method auto over shards: one engine for the whole run, so that every shard and `salvo merge`
/// agree on it: exact if every situation is within the exact engine's limit, Monte Carlo if none
/// is. A run that mixes both is refused (a shard file holds one method).
static report::MethodChoice shard_method(const SituationSource& source, const RunSettings& s, sim::Workers& workers) {
  const std::size_t n = source.size();
  std::size_t small = 0;
  std::string large;  // the first situation over the limit
  for (std::size_t begin = 0; begin < n; begin += detail::kBatch)
    for (const Job& j : detail::compile_batch(source, begin, std::min(n, begin + detail::kBatch), workers)) {
      if (detail::runs_exact(j, s))
        ++small;
      else if (large.empty())
        large = j.file + ": " + j.name;
    }
  if (small == n) return report::MethodChoice::kExact;
  if (small == 0) return report::MethodChoice::kMonteCarlo;
  throw UsageError(fmt::format(
      "--shard with --method auto: {} situation{} fit the exact engine and {} do not (the first: {}); a shard "
      "holds one method: give --method mc (or --method exact for the small ones alone)",
      small, small == 1 ? "" : "s", n - small, large));
}

int run_odds_shard(const OddsOptions& o) {
  if (o.precision)
    throw UsageError(
        "--shard: --precision decides when to stop from every shard's tallies; give --trials (or use "
        "mpirun, whose ranks share them)");
  if (o.team != nullptr && o.team->size() > 1)
    throw UsageError("--shard: runs as one process (under mpirun the ranks already share the work)");
  install_stop_signals();
  SourceOptions source_options;
  source_options.limits.max_situations = o.max_situations;
  source_options.limits.max_file_bytes = o.max_file_bytes;
  const SituationSource source(o.files, source_options);
  check_output_path(o.output, file_ids(source.input_paths()));

  RunSettings s = odds_settings(o);
  const std::size_t n = source.size();
  sim::Workers workers(s.threads);
  // (shard_method compiles every situation: with auto, a rules conflict is met there)
  const bool all_compiled = s.method == report::MethodChoice::kAuto;
  if (all_compiled) s.method = shard_method(source, s, workers);
  const int k = o.shard - 1;
  const auto [share_b, share_e] = share(n, k, o.shards);  // situation indexes: std::size_t
  const auto own_b = static_cast<std::size_t>(share_b), own_e = static_cast<std::size_t>(share_e);
  const std::uint64_t blocks = blocks_of(s.trials);
  const auto [blocks_b, blocks_e] = share(blocks, k, o.shards);
  // Monte Carlo: every situation compiled first, as one process does (a rules conflict costs
  // no trials); an exact run compiles its share only.
  if (s.mc() && !all_compiled)
    for (std::size_t begin = 0; begin < n; begin += detail::kBatch)
      detail::compile_batch(source, begin, std::min(n, begin + detail::kBatch), workers);

  std::string situations;
  const std::size_t first = s.mc() ? 0 : own_b;
  const std::size_t last = s.mc() ? n : own_e;
  for (std::size_t begin = first; begin < last; begin += detail::kBatch) {
    const std::size_t end = std::min(last, begin + detail::kBatch);
    std::vector<Job> jobs = detail::compile_batch(source, begin, end, workers);
    std::vector<std::optional<sim::RunResult>> exact(jobs.size());
    if (s.exact())
      workers.for_each(std::max(begin, own_b), std::max(begin, std::min(end, own_e)), [&](std::size_t i) {
        if (!stop_flag().load()) exact[i - begin] = sim::solve_exact(jobs[i - begin].program);
      });
    for (std::size_t i = begin; i < end; ++i) {
      const Job& job = jobs[i - begin];
      const report::SituationReport r = detail::report_of(job);
      Json sj{{"index", i},
              {"file", r.file},
              {"name", r.name},
              {"sweep", r.sweep},
              {"program_hash", report::hex16(r.program_hash)},
              {"names", names_json(r.names)}};
      if (i >= own_b && i < own_e && s.exact()) {
        if (!exact[i - begin]) break;  // stopped
        sj["exact"] = Json{{"first", stats_json(exact[i - begin]->first)}, {"run", stats_json(exact[i - begin]->run)}};
      }
      if (s.mc()) {
        const detail::BlockRun run =
            detail::run_block_range(job.program, s.seed, i, blocks_b, blocks_e, s.trials, workers);
        if (run.interrupted) break;
        sj["blocks"] = Json::array({blocks_b, blocks_e});
        sj["tallies"] = Json{{"trials", run.tallies.trials},
                             {"truncated", run.tallies.truncated},
                             {"first", window_tallies_json(run.tallies.first, false)},
                             {"run", window_tallies_json(run.tallies.run, true)}};
      }
      situations += (situations.empty() ? "\n    " : ",\n    ") + sj.dump();
    }
    if (stop_flag().load()) {
      fmt::print(stderr, "salvo: interrupted: shard {}/{} not written (shards are merged whole)\n", o.shard, o.shards);
      return stop_exit_code();
    }
  }

  report::Provenance prov = provenance_of(source, s);
  Json head{{"salvo_shard", kShardFormat},
            {"salvo", Json{{"version", std::string(report::version())}, {"git", std::string(report::git_revision())}}},
            {"shard", o.shard},
            {"shards", o.shards},
            {"method", std::string(report::method_choice_name(s.method))},
            {"seed", s.seed},
            {"trials", s.trials},
            {"threads", s.threads},
            {"rules_data", Json{{"version", prov.rules_data_version}, {"hash", report::hex16(prov.rules_data_hash)}}},
            {"hints", hints_json(prov.hints)},
            {"situations_total", n}};
  std::string text = head.dump(2);
  text.resize(text.size() - 2);  // "\n}"
  text += ",\n  \"situations\": [" + situations + (situations.empty() ? "]\n}\n" : "\n  ]\n}\n");
  write_output(o.output, text);
  return kExitOk;
}

int run_merge(const MergeFlags& flags) {
  if (flags.format == "html")
    throw UsageError(
        "--format html: the page needs the situation files (its explain trail); merge writes text, csv, "
        "json or md");
  const auto format = report::parse_format(flags.format);
  if (!format) throw UsageError(fmt::format("--format: expected text, csv, json or md, got {}", flags.format));
  check_output_path(flags.output, file_ids(flags.files));

  std::vector<Shard> shards;
  for (const std::string& f : flags.files) shards.push_back(read_shard(f));
  // Shards 1..N of one run, each once
  const Shard& one = shards.front();
  std::vector<Shard*> by_number(static_cast<std::size_t>(one.shards), nullptr);
  for (Shard& s : shards) {
    if (s.settings != one.settings) {
      std::string key;
      for (const auto& [k, v] : s.settings.items())
        if (key.empty() && one.settings[k] != v) key = k;
      throw load::InputError(fmt::format("{}: not a shard of the same run as {}: \"{}\" is {}, there {}", s.file,
                                         one.file, key, s.settings[key].dump(), one.settings[key].dump()));
    }
    Shard*& slot = by_number[static_cast<std::size_t>(s.shard - 1)];
    if (slot != nullptr)
      throw load::InputError(
          fmt::format("{}: shard {} of {} is given twice (also {})", s.file, s.shard, s.shards, slot->file));
    slot = &s;
  }
  std::string missing;
  for (std::size_t i = 0; i < by_number.size(); ++i)
    if (by_number[i] == nullptr) missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1);
  if (!missing.empty())
    throw load::InputError(fmt::format("salvo merge: shard{} {} of {} missing",
                                       missing.find(',') == std::string::npos ? "" : "s", missing, one.shards));

  // Each situation: the same in every shard that lists it; exact from its shard, tallies added
  const bool mc = one.method != report::MethodChoice::kExact;
  std::vector<report::SituationReport> reports(one.situations_total);
  std::vector<std::optional<sim::Tallies>> tallies(one.situations_total);
  std::vector<const Shard*> seen(one.situations_total, nullptr);
  for (Shard* s : by_number) {
    for (auto& [index, sit] : s->situations) {
      report::SituationReport& r = reports[index];
      if (seen[index] == nullptr) {
        r = sit.report;
        seen[index] = s;
      } else if (!same_situation(r, sit.report)) {
        throw load::InputError(fmt::format("{}: situation {} ({}) is not the one in {}: another file or build", s->file,
                                           index, sit.report.name, seen[index]->file));
      } else if (sit.report.exact) {
        r.exact = sit.report.exact;
      }
      if (sit.tallies) {
        if (!tallies[index]) {
          tallies[index] = std::move(sit.tallies);
        } else {
          std::vector<std::uint64_t> sum = detail::flat_tallies(*tallies[index]);
          detail::add_into(sum, detail::flat_tallies(*sit.tallies));
          tallies[index] = detail::tallies_from_flat(*tallies[index], sum);
        }
      }
    }
  }
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (mc) {
      // estimates_from reads the tallies only
      reports[i].mc = sim::estimates_from(RollProgram{}, *tallies[i]);
    }
  }

  report::Provenance prov;
  prov.method = one.method;
  prov.seed = one.seed;
  prov.trials = one.trials;
  prov.threads = 1;
  for (const Shard& s : shards) prov.threads = std::max(prov.threads, s.threads);
  prov.shards = one.shards;
  prov.rules_data_version = one.rules_version;
  prov.rules_data_hash = one.rules_hash;
  prov.situations_total = one.situations_total;
  prov.hints = one.hints;
  write_output(flags.output, report::format_odds(reports, prov, *format));
  return kExitOk;
}

}  // namespace salvo::app
