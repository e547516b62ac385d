#include "fast_kernel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <queue>
#include <unordered_map>

#include "salvo/sim/montecarlo.h"
#include "salvo/sim/rng.h"

namespace salvo::sim::detail {
namespace {

constexpr std::uint32_t kPairs = 36 * 36;                // entries of a state's two-symbol table
constexpr std::uint32_t kSecondUsed = 1u << 31;          // s2 entry: the second symbol was rolled
constexpr std::uint32_t kDeeper = 1u << 30;              // s2 entry: a node at depth 3 follows
constexpr std::uint32_t kIndexMask = kDeeper - 1;        // s2 entry: local leaf or node index
constexpr std::uint64_t kSlow = ~std::uint64_t{0};       // trans entry: summary not in the table
constexpr std::uint64_t kEnded = std::uint64_t{1} << 63;  // trans entry: the trial ended
constexpr std::size_t kMaxSummaries = 512;               // table size limit (then scalar walk)
constexpr std::uint32_t kStepsPerRound = 32;             // lane steps between refills
constexpr std::uint32_t kBufferSize = 2 * kStepsPerRound + 16;  // symbols per lane buffer

struct SummaryHash {
  std::size_t operator()(const Summary& s) const {
    std::uint64_t h = 14695981039346656037ull;
    auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(static_cast<std::uint32_t>(s.state));
    mix(s.run_mask);
    mix(s.first_mask);
    for (int c = 0; c < kMaxCounters; ++c) mix(std::uint64_t{s.run_cnt[c]} << 32 | s.first_cnt[c]);
    mix(std::uint64_t{s.run_outcome} | std::uint64_t{s.first_outcome} << 8 | std::uint64_t{s.end_reason} << 16 |
        std::uint64_t{s.first_open} << 24 | std::uint64_t{s.ended} << 25);
    return static_cast<std::size_t>(h);
  }
};

/// The summary after one more step ending at `leaf` (the reference walker's bookkeeping).
Summary apply(Summary r, const Leaf& leaf) {
  r.run_mask |= leaf.flags;
  for (int c = 0; c < kMaxCounters; ++c) r.run_cnt[c] += leaf.counts[static_cast<std::size_t>(c)];
  r.run_outcome = leaf.outcome;
  if (r.first_open) {
    r.first_mask |= leaf.flags;
    for (int c = 0; c < kMaxCounters; ++c) r.first_cnt[c] += leaf.counts[static_cast<std::size_t>(c)];
    r.first_outcome = leaf.outcome;
    r.first_open = !(leaf.closes_window || leaf.next_state < 0);
  }
  if (leaf.next_state < 0) {
    r.ended = true;
    r.end_reason = leaf.end_reason;
    r.state = -1;
  } else {
    r.state = leaf.next_state;
  }
  return r;
}

void add_window(WindowTallies& w, FlagMask mask, const std::uint32_t* cnt, std::uint8_t outcome,
                std::uint64_t n) {
  for (; mask != 0; mask &= mask - 1) w.flags[static_cast<std::size_t>(std::countr_zero(mask))] += n;
  for (std::size_t c = 0; c < w.counter_sum.size(); ++c) {
    w.counter_sum[c] += n * cnt[c];
    w.counter_sumsq[c] += n * (std::uint64_t{cnt[c]} * cnt[c]);
  }
  w.outcomes[outcome] += n;
}

/// Add n trials that ended with summary s.
void tally(Tallies& out, const Summary& s, std::uint64_t n) {
  add_window(out.run, s.run_mask, s.run_cnt, s.run_outcome, n);
  add_window(out.first, s.first_mask, s.first_cnt, s.first_outcome, n);
  out.run.end_reasons[s.end_reason] += n;
}

/// Face of a node for symbol s: the pair is the symbol, a d6 is s / 6.
inline std::uint32_t face_of(const RollNode& n, std::uint32_t s) { return n.die == DieKind::kPair ? s : s / 6; }

}  // namespace

FastProgram::FastProgram(const RollProgram& p) : program_(&p), initial_(p.initial_state) {
  const std::size_t ns = p.num_states();
  s2_.assign(ns * kPairs, 0);
  local_leaves_.resize(ns);

  // Per state: the two-symbol table and the list of its leaves
  for (std::size_t st = 0; st < ns; ++st) {
    auto& locals = local_leaves_[st];
    // Collect the leaves of the DAG (depth-first over nodes)
    std::vector<std::uint32_t> stack{p.state_root[st]};
    std::vector<char> seen(p.nodes.size(), 0);
    while (!stack.empty()) {
      const std::uint32_t n = stack.back();
      stack.pop_back();
      if (seen[n]) continue;
      seen[n] = 1;
      for (int f = 0; f < faces(p.nodes[n].die); ++f) {
        const Link l = p.link(n, f);
        if (l.is_leaf()) locals.push_back(l.index());
        else stack.push_back(static_cast<std::uint32_t>(l.index()));
      }
    }
    std::sort(locals.begin(), locals.end());
    locals.erase(std::unique(locals.begin(), locals.end()), locals.end());
    width_ = std::max(width_, static_cast<std::uint32_t>(locals.size()));
    const auto local_of = [&locals](std::int32_t leaf) {
      return static_cast<std::uint32_t>(std::lower_bound(locals.begin(), locals.end(), leaf) - locals.begin());
    };
    // Two symbols: a leaf after one, a leaf after two, or a node at depth 3
    const RollNode& root = p.nodes[p.state_root[st]];
    for (std::uint32_t s0 = 0; s0 < 36; ++s0) {
      const Link a = p.link(p.state_root[st], static_cast<int>(face_of(root, s0)));
      for (std::uint32_t s1 = 0; s1 < 36; ++s1) {
        std::uint32_t e;
        if (a.is_leaf()) {
          e = local_of(a.index());
        } else {
          const auto n1 = static_cast<std::uint32_t>(a.index());
          const Link b = p.link(n1, static_cast<int>(face_of(p.nodes[n1], s1)));
          e = kSecondUsed | (b.is_leaf() ? local_of(b.index()) : (kDeeper | static_cast<std::uint32_t>(b.index())));
        }
        s2_[st * kPairs + s0 * 36 + s1] = e;
      }
    }
  }

  // Probability of each leaf of each state (deeper DAGs: their leaves count 0; a priority only)
  std::vector<std::vector<double>> leaf_p(ns);
  for (std::size_t st = 0; st < ns; ++st) {
    leaf_p[st].assign(local_leaves_[st].size(), 0.0);
    for (std::uint32_t k = 0; k < kPairs; ++k) {
      const std::uint32_t e = s2_[st * kPairs + k];
      if (!(e & kDeeper)) leaf_p[st][e & kIndexMask] += 1.0 / kPairs;
    }
  }

  // The kMaxSummaries likeliest summaries of a trial, likeliest first (a trial's probability of
  // reaching them, as first found); each gets its row of transitions
  std::unordered_map<Summary, std::uint32_t, SummaryHash> ids;
  Summary start;
  start.state = initial_;
  summaries_.push_back(start);
  ids.emplace(start, 0);
  const auto pack = [&](std::uint32_t id, const Summary& s) {
    const auto state = static_cast<std::uint64_t>(s.ended ? initial_ : s.state);
    return std::uint64_t{id} | (state * kPairs) << 32 | (s.ended ? kEnded : 0);
  };
  std::priority_queue<std::pair<double, std::int64_t>> queue;  // (probability, -id): ties by id
  queue.emplace(1.0, 0);
  trans_.assign(width_, kSlow);
  while (!queue.empty()) {
    const auto [prob, neg_id] = queue.top();
    queue.pop();
    const auto i = static_cast<std::size_t>(-neg_id);
    const auto st = static_cast<std::size_t>(summaries_[i].state);
    for (std::size_t k = 0; k < local_leaves_[st].size(); ++k) {
      const Summary next = apply(summaries_[i], p.leaves[static_cast<std::size_t>(local_leaves_[st][k])]);
      auto it = ids.find(next);
      if (it == ids.end()) {
        if (summaries_.size() >= kMaxSummaries) continue;  // stays kSlow: the plain walk takes over
        it = ids.emplace(next, static_cast<std::uint32_t>(summaries_.size())).first;
        summaries_.push_back(next);
        trans_.resize(summaries_.size() * width_, kSlow);
        if (!next.ended) queue.emplace(prob * leaf_p[st][k], -static_cast<std::int64_t>(it->second));
      }
      trans_[i * width_ + k] = pack(it->second, next);
    }
  }
  // A trial that ended is followed by a fresh one: the row of summary 0
  for (std::size_t i = 0; i < summaries_.size(); ++i)
    if (summaries_[i].ended)
      std::copy_n(trans_.begin(), width_, trans_.begin() + static_cast<std::ptrdiff_t>(i * width_));
}

/// The lanes of one call: dice buffers, positions, summaries, visit counts.
class LaneRunner {
 public:
  LaneRunner(const FastProgram& fp, Tallies& out)
      : fp_(fp), p_(*fp.program_), out_(out), visits_(fp.summaries_.size() * kLanes, 0) {
    gen_.reserve(kLanes);
    for (std::uint64_t l = 0; l < kLanes; ++l) gen_.emplace_back(Xoshiro256pp::State{1, 0, 0, 0});
  }

  void block(std::uint64_t seed, std::uint64_t key, std::uint64_t b, std::uint64_t trials) {
    const std::uint32_t initial_base = static_cast<std::uint32_t>(fp_.initial_) * kPairs;
    for (std::uint32_t l = 0; l < kLanes; ++l) {
      gen_[l] = Xoshiro256pp(stream_state(seed, key, lane_stream(b, l)));
      pos_[l] = len_[l] = 0;
      id_[l] = 0;
      base_[l] = initial_base;
      steps_[l] = 0;
      remaining_[l] = lane_trials(trials, l);
    }
    // Rounds: every lane takes kStepsPerRound steps; no lane can run past its trials
    for (;;) {
      std::uint64_t least = ~std::uint64_t{0};
      for (std::uint32_t l = 0; l < kLanes; ++l) {
        if (remaining_[l] > 0 && steps_[l] + kStepsPerRound > kMaxStepsPerTrial) scalar_trial(l, nullptr);
        least = std::min(least, remaining_[l]);
      }
      if (least < kStepsPerRound) break;
      for (std::uint32_t l = 0; l < kLanes; ++l) ensure(l, 2 * kStepsPerRound);
      for (std::uint32_t s = 0; s < kStepsPerRound; ++s)
        for (std::uint32_t l = 0; l < kLanes; ++l) step(l);
    }
    // The last trials of each lane, one step at a time
    for (std::uint32_t l = 0; l < kLanes; ++l)
      while (remaining_[l] > 0) {
        if (steps_[l] >= kMaxStepsPerTrial) {
          scalar_trial(l, nullptr);
          continue;
        }
        ensure(l, 2 * kStepsPerRound);
        step(l);
      }
  }

  /// Add the trials counted by visits to their final summaries.
  void finish() {
    for (std::size_t id = 0; id < fp_.summaries_.size(); ++id) {
      if (!fp_.summaries_[id].ended) continue;
      std::uint64_t n = 0;
      for (std::uint32_t l = 0; l < kLanes; ++l) n += visits_[id * kLanes + l];
      if (n > 0) tally(out_, fp_.summaries_[id], n);
    }
  }

 private:
  /// At least n symbols in lane l's buffer (keeping their order).
  void ensure(std::uint32_t l, std::uint32_t n) {
    const std::uint32_t avail = len_[l] - pos_[l];
    if (avail >= n) return;
    std::uint8_t* b = buf_[l].data();
    std::memmove(b, b + pos_[l], avail);
    pos_[l] = 0;
    len_[l] = avail;
    while (len_[l] < n) {
      while (!split_word(gen_[l].next(), b + len_[l])) {
      }
      len_[l] += kSymbolsPerWord;
    }
  }

  std::uint32_t next_symbol(std::uint32_t l) {
    ensure(l, 2 * kStepsPerRound + 1);
    return buf_[l][pos_[l]++];
  }

  /// Walk from node n to a leaf, one symbol per node; returns the leaf index.
  std::int32_t walk(std::uint32_t l, std::uint32_t n) {
    for (;;) {
      const RollNode& node = p_.nodes[n];
      const Link link = p_.links[node.first + face_of(node, next_symbol(l))];
      if (link.is_leaf()) return link.index();
      n = static_cast<std::uint32_t>(link.v);
    }
  }

  /// One step of lane l: two-symbol lookup, then the summary transition.
  inline void step(std::uint32_t l) {
    const std::uint32_t p = pos_[l];
    const std::uint8_t* b = buf_[l].data();
    const std::uint32_t e = fp_.s2_[base_[l] + b[p] * 36u + b[p + 1]];
    std::uint32_t local;
    if (e & kDeeper) [[unlikely]] {
      pos_[l] = p + 2;
      const std::int32_t leaf = walk(l, e & kIndexMask);
      const auto& locals = fp_.local_leaves_[base_[l] / kPairs];
      local = static_cast<std::uint32_t>(std::lower_bound(locals.begin(), locals.end(), leaf) - locals.begin());
    } else {
      pos_[l] = p + 1 + (e >> 31);
      local = e & kIndexMask;
    }
    const std::uint64_t t = fp_.trans_[std::size_t{id_[l]} * fp_.width_ + local];
    if (t == kSlow) [[unlikely]] {
      const std::int32_t leaf = fp_.local_leaves_[base_[l] / kPairs][local];
      scalar_trial(l, &p_.leaves[static_cast<std::size_t>(leaf)]);
      return;
    }
    const auto next = static_cast<std::uint32_t>(t);
    const std::uint64_t ended = t >> 63;
    id_[l] = next;
    base_[l] = static_cast<std::uint32_t>(t >> 32) & 0x7fffffffu;
    ++visits_[std::size_t{next} * kLanes + l];
    remaining_[l] -= ended;
    steps_[l] = (steps_[l] + 1) & static_cast<std::uint32_t>(ended - 1);
  }

  /// Finish lane l's current trial by the plain walk (summaries beyond the table, or the step
  /// limit near); `leaf` is a step already rolled, if any.
  void scalar_trial(std::uint32_t l, const Leaf* leaf) {
    Summary r = fp_.summaries_[id_[l]];
    if (r.ended) r = fp_.summaries_[0];
    std::uint32_t steps = steps_[l];
    if (leaf != nullptr) {
      r = apply(r, *leaf);
      ++steps;
    }
    while (!r.ended && steps < kMaxStepsPerTrial) {
      const std::int32_t lf = walk(l, p_.state_root[static_cast<std::size_t>(r.state)]);
      r = apply(r, p_.leaves[static_cast<std::size_t>(lf)]);
      ++steps;
    }
    if (r.ended) tally(out_, r, 1);
    else ++out_.truncated;
    --remaining_[l];
    id_[l] = 0;
    base_[l] = static_cast<std::uint32_t>(fp_.initial_) * kPairs;
    steps_[l] = 0;
  }

  const FastProgram& fp_;
  const RollProgram& p_;
  Tallies& out_;
  std::vector<std::uint64_t> visits_;  // summary id * kLanes + lane
  std::vector<Xoshiro256pp> gen_;
  std::array<std::array<std::uint8_t, kBufferSize>, kLanes> buf_{};
  std::array<std::uint32_t, kLanes> pos_{}, len_{}, id_{}, base_{}, steps_{};
  std::array<std::uint64_t, kLanes> remaining_{};
};

void FastProgram::run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin,
                      std::uint64_t block_end, std::uint64_t trials_total, Tallies& out) const {
  LaneRunner lanes(*this, out);
  for (std::uint64_t b = block_begin; b < block_end; ++b) {
    if (b * kBlockTrials >= trials_total) break;
    const std::uint64_t trials = std::min(kBlockTrials, trials_total - b * kBlockTrials);
    out.trials += trials;
    lanes.block(seed, situation_key, b, trials);
  }
  lanes.finish();
}

}  // namespace salvo::sim::detail
