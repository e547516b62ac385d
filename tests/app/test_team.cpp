// The runner spread over a team (app/src/spread.cpp), with the ranks as threads of this process
// (ThreadTeam: the collectives through a barrier), so the sharing, the reductions and the
// agreement are checked without MPI, in every suite (the sanitizer builds too). Each rank loads
// its own source, as a process would; rank 0's reports must make the table one process makes.
#include <algorithm>
#include <barrier>
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_salvo.h"
#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/app/team.h"
#include "salvo/core/rules.h"
#include "salvo/report/report.h"
#include "salvo/rulesets/ruleset.h"

namespace {

using namespace salvo;
using app::Team;

/// The collectives of `size` threads: each deposits its values, waits for all, reads them all.
struct Meeting {
  explicit Meeting(int size) : values(static_cast<std::size_t>(size)), bytes(values.size()), sync(size) {}
  std::vector<std::vector<std::uint64_t>> values;
  std::vector<std::string> bytes;
  std::barrier<> sync;
};

class ThreadTeam final : public Team {
 public:
  ThreadTeam(Meeting& m, int rank) : m_(m), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(m_.values.size()); }
  void reduce(std::vector<std::uint64_t>& v, Op op) override {
    m_.values[static_cast<std::size_t>(rank_)] = v;
    m_.sync.arrive_and_wait();
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::uint64_t x = op == Op::kSum ? 0 : m_.values[0].at(i);
      for (const auto& other : m_.values) {
        const std::uint64_t y = other.at(i);
        x = op == Op::kSum ? x + y : op == Op::kMin ? std::min(x, y) : std::max(x, y);
      }
      v[i] = x;
    }
    m_.sync.arrive_and_wait();  // nobody deposits the next values before all have read these
  }
  std::vector<std::string> gather(const std::string& bytes) override {
    m_.bytes[static_cast<std::size_t>(rank_)] = bytes;
    m_.sync.arrive_and_wait();
    std::vector<std::string> all = rank_ == 0 ? m_.bytes : std::vector<std::string>{};
    m_.sync.arrive_and_wait();
    return all;
  }
  [[noreturn]] void abort(int code) override {
    FAIL("a rank aborted with " << code);
    std::abort();
  }

 private:
  Meeting& m_;
  int rank_;
};

struct Run {
  std::vector<report::SituationReport> reports;
  app::RunStatus status;
  std::string error;  ///< rank 0's TeamError (or the one process's error)
  int code = 0;
};

app::RunSettings settings_of(report::MethodChoice method, std::uint64_t trials, std::optional<double> precision) {
  app::RunSettings s;
  s.method = method;
  s.trials = trials;
  s.precision = precision;
  s.seed = 11;
  s.threads = 1;
  return s;
}

/// `files` run by `ranks` threads as a team (ranks == 0: by this thread alone, no team).
Run run(const std::vector<std::string>& files, const app::RunSettings& settings, int ranks) {
  Run out;
  const auto rank_main = [&](Team* team) {
    try {
      const app::SituationSource source(files, app::SourceOptions{});
      app::RunSettings s = settings;
      s.team = team;
      const app::RunStatus status = app::run_situations(
          source, s, [&](app::Job&&, report::SituationReport&& r) { out.reports.push_back(std::move(r)); });
      if (team == nullptr || team->rank() == 0) out.status = status;
    } catch (const app::TeamError& e) {
      if (team->rank() == 0) {
        out.error = e.what();
        out.code = e.code();
      }
    } catch (const std::exception& e) {
      out.error = e.what();
    }
  };
  if (ranks == 0) {
    rank_main(nullptr);
    return out;
  }
  Meeting meeting(ranks);
  std::vector<std::unique_ptr<ThreadTeam>> teams;
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) teams.push_back(std::make_unique<ThreadTeam>(meeting, r));
  for (int r = 0; r < ranks; ++r) threads.emplace_back(rank_main, teams[static_cast<std::size_t>(r)].get());
  for (std::thread& t : threads) t.join();
  return out;
}

std::string table(const Run& r, const app::RunSettings& s) {
  report::Provenance prov;
  prov.method = s.method;
  prov.seed = s.seed;
  prov.trials = s.trials;
  return report::format_odds(r.reports, prov, report::Format::kJson);
}

// A test ruleset whose situations fail to compile where the file says: "size N" situations,
// "fail I J ..." those that throw a RulesError when compiled (not when loaded), so one rank
// alone meets the conflict in its share of an exact run.
class FailFile final : public SituationFile {
 public:
  FailFile(std::size_t size, std::set<std::size_t> fail) : size_(size), fail_(std::move(fail)) {}
  std::size_t size() const override { return size_; }
  std::string name(std::size_t) const override { return "fails where told"; }
  SweepLabel sweep(std::size_t i) const override { return {{"i", std::to_string(i)}}; }
  CompiledSituation compile(std::size_t i, bool) const override {
    if (fail_.count(i)) throw RulesError("fail", "situation " + std::to_string(i) + " cannot be resolved");
    // One d6: 4+ ends the run with a hit
    ProgramBuilder b;
    const std::int32_t state = b.reserve_state("roll");
    Leaf hit;
    hit.flags = 1u;
    hit.closes_window = true;
    Leaf miss = hit;
    miss.flags = 0;
    miss.outcome = 1;
    miss.end_reason = 1;
    std::vector<Link> faces;
    for (int face = 1; face <= 6; ++face) faces.push_back(b.leaf(face >= 4 ? hit : miss));
    b.set_state_root(state, b.node(DieKind::kD6, faces));
    RollProgram p = b.take();
    p.flag_names = {"hit"};
    p.counter_names = {};
    p.outcome_names = {"hit", "miss"};
    p.end_reason_names = {"hit", "miss"};
    return {std::move(p), {}, {}};
  }

 private:
  std::size_t size_;
  std::set<std::size_t> fail_;
};

class FailRuleset final : public Ruleset {
 public:
  std::string_view name() const override { return "team-fail"; }
  std::string_view data_version() const override { return "team-fail-1"; }
  std::uint64_t data_hash() const override { return 1; }
  const DisplayHints& hints() const override { return hints_; }
  std::unique_ptr<SituationFile> load(std::string_view text, const std::string&, const ReadLimits&) const override {
    std::istringstream in{std::string(text)};
    std::string word;
    std::size_t size = 1;
    std::set<std::size_t> fail;
    while (in >> word) {
      if (word == "size") in >> size;
      if (word == "fail")
        for (std::size_t i = 0; in >> i;) fail.insert(i);
    }
    return std::make_unique<FailFile>(size, fail);
  }

 private:
  DisplayHints hints_;
};

const std::string kExample = salvo::test::kExample;
const std::string kSweep = salvo::test::kSweep;

}  // namespace

TEST_CASE("team: ranks give the reports of one process", "[team]") {
  struct Case {
    const char* what;
    std::vector<std::string> files;
    app::RunSettings settings;
  };
  const std::vector<Case> cases{
      // 1,000,000 trials are 16 blocks: 8/8 and 6/5/5
      {"mc", {kExample}, settings_of(report::MethodChoice::kMonteCarlo, 1'000'000, std::nullopt)},
      // precision: rounds of 2^20, 3 x 2^20 ... decided from the summed tallies
      {"precision", {kSweep}, settings_of(report::MethodChoice::kMonteCarlo, 1'000'000'000, 0.0012)},
      {"both, two files", {kExample, kSweep}, settings_of(report::MethodChoice::kBoth, 70'000, std::nullopt)},
      {"exact sweep", {kSweep, kExample}, settings_of(report::MethodChoice::kExact, 0, std::nullopt)},
  };
  for (const Case& c : cases) {
    const Run one = run(c.files, c.settings, 0);
    REQUIRE(one.error.empty());
    for (int ranks : {2, 3}) {
      INFO(c.what << ", " << ranks << " ranks");
      const Run many = run(c.files, c.settings, ranks);
      REQUIRE(many.error.empty());
      CHECK(many.reports.size() == one.reports.size());
      CHECK(table(many, c.settings) == table(one, c.settings));
      CHECK(many.status.complete == one.status.complete);
      CHECK_FALSE(many.status.interrupted);
    }
  }
  // The precision case stopped after one round for some situations and two for others
  const Run p = run({kSweep}, cases[1].settings, 0);
  std::set<std::uint64_t> counts;
  for (const auto& r : p.reports) counts.insert(r.mc->trials);
  CHECK(counts == std::set<std::uint64_t>{1u << 20, 3u << 20});
}

TEST_CASE("team: a rules conflict on any rank is every rank's, the first in order reported", "[team]") {
  static const bool registered = [] {
    Registry::global().add(std::make_unique<FailRuleset>());
    return true;
  }();
  (void)registered;
  salvo::test::TempDir dir;
  // 5 situations; an exact run over 3 ranks shares them 0-1, 2-3, 4: situation 4 is rank 2's
  // alone, 1 rank 0's; with Monte Carlo every rank compiles every situation first.
  const auto file = [&](const std::string& name, const std::string& fail) {
    const auto path = (dir / name).string();
    std::ofstream(path) << "ruleset = \"team-fail\"\n# size 5 fail " << fail << "\n";
    return path;
  };
  for (const std::string& path : {file("first.toml", "1 4"), file("last.toml", "4"), file("middle.toml", "2 3")}) {
    for (auto method : {report::MethodChoice::kExact, report::MethodChoice::kMonteCarlo}) {
      INFO(path << ", " << report::method_choice_name(method));
      const auto s = settings_of(method, 100'000, std::nullopt);
      const Run one = run({path}, s, 0);
      REQUIRE(one.error.find(": situation ") != std::string::npos);
      for (int ranks : {2, 3}) {
        const Run many = run({path}, s, ranks);
        CHECK(many.error == one.error);
        CHECK(many.code == 2);
        CHECK(many.reports.empty());
      }
    }
  }
  // Without a conflict the ruleset runs, so the failures above are the ones asked for
  const Run fine = run({file("none.toml", "")}, settings_of(report::MethodChoice::kExact, 0, std::nullopt), 3);
  CHECK(fine.error.empty());
  CHECK(fine.reports.size() == 5);
}
