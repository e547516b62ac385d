#pragma once
/// app/src/shard.h — a run cut into shards for schedulers without MPI (a job array): `salvo odds
/// --shard K/N` runs shard K's share of the work and writes its integer tallies (and its exact
/// results) to a shard file; `salvo merge` adds the shards up into the table one process writes.
///
/// Shard K of N takes, in every Monte Carlo situation, the K-th of N contiguous shares of its
/// blocks (team.h share), and the K-th share of the situations for the exact engine: the
/// shares the ranks of an MPI run take. The shard file (docs/scale.md#shard-files) is strict
/// JSON, versioned ("salvo_shard": 1): the salvo build, the run's settings, the rules data, the
/// display hints, and per situation its program hash, names, block range and tallies. merge
/// refuses a missing, duplicated or foreign shard (another run, another build) with exit 2.

#include <string>
#include <string_view>
#include <vector>

#include "salvo/app/commands.h"

namespace salvo::app {

/// The current shard file format.
inline constexpr int kShardFormat = 1;

/// --shard K/N: 1 <= K <= N <= 10^6. Throws UsageError "--shard: expected K/N ...".
std::pair<int, int> shard_flag(std::string_view text);

/// `salvo odds --shard K/N` (options.shard, options.shards): write shard K's file to
/// options.output (atomically) or stdout. A stop signal writes nothing (a shard is merged
/// whole). --precision is refused: its rounds need every shard's tallies. Returns the exit code.
int run_odds_shard(const OddsOptions& options);

struct MergeFlags {
  std::vector<std::string> files;
  std::string format = "text";
  std::string output;  ///< empty: stdout
};

/// `salvo merge SHARD...`: check that the files are shards 1..N of one run, add their tallies and
/// write the table (text, csv, json or md) as `salvo odds` writes it. Returns the exit code.
int run_merge(const MergeFlags& flags);

}  // namespace salvo::app
