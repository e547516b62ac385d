// `salvo odds --shard K/N` and `salvo merge`: the shards of a run, merged, give the table one
// process writes, byte for byte once the one field that records the shards ("3 shards × ...")
// is taken out; shards of different runs, missing, duplicated or edited shards are refused.

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli/run_salvo.h"

namespace {

using namespace salvo::test;  // run_salvo, slurp, TempDir, kExample, kSweep

/// The shards' record taken out: text "3 shards × 1 thread", JSON "shards": 3, Markdown ", shards 3".
std::string without_shards(const std::string& table) {
  std::string t = std::regex_replace(table, std::regex("[0-9]+ shards × "), "");
  t = std::regex_replace(t, std::regex("\n  \"shards\": [0-9]+,"), "");
  return std::regex_replace(t, std::regex(", shards [0-9]+,"), ",");
}

/// Run shards 1..n of `args` (threads differ from shard to shard) into dir; their paths.
std::vector<std::string> write_shards(const TempDir& dir, std::vector<std::string> args, int n) {
  std::vector<std::string> paths;
  for (int k = 1; k <= n; ++k) {
    std::vector<std::string> a = args;
    const std::string path = (dir / ("shard" + std::to_string(k) + ".json")).string();
    for (const std::string& x : {std::string("--shard"), std::to_string(k) + "/" + std::to_string(n),
                                 std::string("--threads"), std::to_string(1 + k % 2), std::string("-o"), path})
      a.push_back(x);
    const RunOutput r = run_salvo(a);
    INFO(r.err);
    REQUIRE(r.code == 0);
    REQUIRE(r.out.empty());
    paths.push_back(path);
  }
  return paths;
}

RunOutput merge(const std::vector<std::string>& shards, const std::string& format) {
  std::vector<std::string> a{"merge"};
  a.insert(a.end(), shards.begin(), shards.end());
  a.insert(a.end(), {"--format", format});
  return run_salvo(a);
}

/// The merged table in `format` equals one process's with --threads 2 (the most any shard used).
void check_merged(const std::vector<std::string>& odds, const std::vector<std::string>& shards,
                  const std::string& format, int n) {
  std::vector<std::string> one = odds;
  one.insert(one.end(), {"--threads", "2", "--format", format});
  const RunOutput single = run_salvo(one);
  REQUIRE(single.code == 0);
  const RunOutput merged = merge(shards, format);
  INFO(merged.err);
  REQUIRE(merged.code == 0);
  CHECK(without_shards(merged.out) == single.out);
  // The shards are recorded (when more than one): in JSON, and in the text table's Monte Carlo line
  if (format == "json") CHECK(nlohmann::json::parse(merged.out).value("shards", 1) == n);
  const bool mc = std::find(odds.begin(), odds.end(), "--method") != odds.end();
  if (format == "text" && mc)
    CHECK(merged.out.find(std::to_string(n) + " shards × 2 threads, 95% intervals") != std::string::npos);
}

}  // namespace

TEST_CASE("merge: Monte Carlo shards give the table of one process", "[shards]") {
  TempDir dir;
  // 1,000,000 trials are 16 blocks: shares of 6, 5 and 5
  const std::vector<std::string> odds{"odds", kExample, "--method", "mc", "--trials", "1000000", "--seed", "7"};
  const auto shards = write_shards(dir, odds, 3);
  for (const char* format : {"text", "json", "csv", "md"}) {
    INFO(format);
    check_merged(odds, shards, format, 3);
  }
  // The order the shards are given in does not matter
  CHECK(merge({shards[2], shards[0], shards[1]}, "json").out == merge(shards, "json").out);
}

TEST_CASE("merge: a sweep with both engines, and more shards than blocks", "[shards]") {
  TempDir dir;
  // 100,000 trials are 2 blocks: shard 3 of 3 runs none of them, but solves its share exactly
  const std::vector<std::string> odds{"odds", kSweep, "--method", "both", "--trials", "100000"};
  const auto shards = write_shards(dir, odds, 3);
  const auto third = nlohmann::json::parse(slurp(shards[2]));
  CHECK(third["situations"][0]["blocks"] == nlohmann::json::array({2, 2}));
  CHECK(third["situations"][0]["tallies"]["trials"] == 0);
  for (const char* format : {"text", "csv", "md"}) {
    INFO(format);
    check_merged(odds, shards, format, 3);
  }
}

TEST_CASE("merge: an exact sweep's situations shared among shards, rows in order", "[shards]") {
  TempDir dir;
  const std::vector<std::string> odds{"odds", kSweep};
  const auto shards = write_shards(dir, odds, 5);  // 12 situations: 3, 3, 2, 2, 2
  CHECK(nlohmann::json::parse(slurp(shards[0]))["situations"].size() == 3);
  CHECK(nlohmann::json::parse(slurp(shards[4]))["situations"].size() == 2);
  for (const char* format : {"text", "json", "csv", "md"}) {
    INFO(format);
    check_merged(odds, shards, format, 5);
  }
  // One shard of one: the whole run
  TempDir one;
  check_merged(odds, write_shards(one, odds, 1), "json", 1);
}

TEST_CASE("merge: missing, duplicated, foreign and edited shards are refused", "[shards]") {
  TempDir dir;
  const std::vector<std::string> odds{"odds", kSweep, "--method", "mc", "--trials", "300000"};
  const auto s = write_shards(dir, odds, 3);
  const auto refused = [](const RunOutput& r, const std::string& message) {
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message + "\n");
  };
  refused(merge({s[0], s[2]}, "text"), "salvo merge: shard 2 of 3 missing");
  refused(merge({s[1]}, "text"), "salvo merge: shards 1, 3 of 3 missing");
  refused(merge({s[0], s[1], s[1], s[2]}, "text"), s[1] + ": shard 2 of 3 is given twice (also " + s[1] + ")");

  // Another seed, another trial count, another number of shards: another run
  const auto other = [&](std::vector<std::string> extra, const std::string& shard, const std::string& name) {
    std::vector<std::string> a{"odds", kSweep, "--method", "mc", "--shard", shard, "-o", (dir / name).string()};
    a.insert(a.end(), extra.begin(), extra.end());
    REQUIRE(run_salvo(a).code == 0);
    return (dir / name).string();
  };
  const std::string seed2 = other({"--trials", "300000", "--seed", "2"}, "2/3", "seed2.json");
  refused(merge({s[0], seed2, s[2]}, "text"),
          seed2 + ": not a shard of the same run as " + s[0] + ": \"seed\" is 2, there 1");
  const std::string trials = other({"--trials", "400000"}, "2/3", "trials.json");
  refused(merge({s[0], trials, s[2]}, "text"),
          trials + ": not a shard of the same run as " + s[0] + ": \"trials\" is 400000, there 300000");
  const std::string halves = other({"--trials", "300000"}, "2/2", "halves.json");
  refused(merge({s[0], halves}, "text"),
          halves + ": not a shard of the same run as " + s[0] + ": \"shards\" is 2, there 3");

  // Edited: a tally count that its blocks cannot hold, a block range not the shard's, an unknown
  // key, a newer format, not JSON
  const auto edited = [&](const std::string& from, const std::string& to, const std::string& name) {
    std::string text = slurp(s[1]);
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    write_text(dir / name, text);
    return (dir / name).string();
  };
  // 300,000 trials are 5 blocks: shard 2 of 3 runs blocks [2, 4), 131,072 trials
  const std::string t = edited("\"tallies\":{\"trials\":131072", "\"tallies\":{\"trials\":131073", "t.json");
  refused(merge({s[0], t, s[2]}, "text"),
          t + ": situations[0].tallies.trials: 131073, but blocks [2, 4] of 300000 trials hold 131072");
  const std::string b = edited("\"blocks\":[2,4]", "\"blocks\":[1,4]", "b.json");
  refused(merge({s[0], b, s[2]}, "text"),
          b + ": situations[0].blocks: [1, 4], but shard 2 of 3 runs blocks [2, 4] of 300000 trials");
  const std::string k = edited("\"seed\": 1,", "\"seed\": 1, \"colour\": 1,", "k.json");
  refused(merge({s[0], k, s[2]}, "text"), k + ": shard file: unknown key \"colour\"");
  const std::string v = edited("\"salvo_shard\": 1,", "\"salvo_shard\": 2,", "v.json");
  refused(merge({s[0], v, s[2]}, "text"), v + ": salvo_shard: shard format 2 is not the one this salvo reads (1)");
  write_text(dir / "table.json", run_salvo({"odds", kSweep, "--format", "json"}).out);
  refused(merge({(dir / "table.json").string()}, "text"),
          (dir / "table.json").string() +
              ": not a salvo shard file (no \"salvo_shard\" key; write one with salvo odds --shard K/N)");
  refused(merge({s[0], s[1], s[2]}, "html"),
          "salvo: --format html: the page needs the situation files (its explain trail); merge writes text, csv, json "
          "or md");
}

TEST_CASE("odds --shard: its flag and what it cannot do", "[shards]") {
  const auto refused = [](std::vector<std::string> args, const std::string& message) {
    const RunOutput r = run_salvo(args);
    CHECK(r.code == 2);
    CHECK(r.err == message + "\n");
  };
  for (const char* bad : {"0/3", "4/3", "3", "1/0", "a/b", "1/2000000", "-1/2"})
    refused(
        {"odds", kExample, "--shard", bad},
        std::string("salvo: --shard: expected K/N, shard K of N with 1 <= K <= N <= 1000000 (e.g. 2/8), got ") + bad);
  refused({"odds", kExample, "--method", "mc", "--precision", "0.01", "--shard", "1/2"},
          "salvo: --shard: --precision decides when to stop from every shard's tallies; give --trials (or use mpirun, "
          "whose ranks share them)");
  refused({"odds", kExample, "--format", "csv", "--shard", "1/2"},
          "salvo: --shard: a shard is written as a shard file (JSON); give --format to salvo merge");
}
