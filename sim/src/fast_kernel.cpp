#include "fast_kernel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "salvo/core/hash.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/rng.h"

namespace salvo::sim::detail {
namespace {

constexpr std::uint32_t kPairs = 36 * 36;
// Cell tables: table t's entry for the next two symbols (s0, s1) is
//   cells_[(t / kStatesPerTable) * kTableEntries + (t % kStatesPerTable) * 36 + s0 + 256 * s1],
// read with the two symbol bytes as one little-endian 16-bit index w = s0 + 256 s1. A table
// uses 36 entries in each stride of 256, so seven of them are packed together. An entry is
// (symbols rolled, 1 or 2) << kCountShift | the byte offset of its column in the row.
constexpr std::uint32_t kStatesPerTable = 7;
constexpr std::uint32_t kTableEntries = 36 * kStatesPerTable + 256 * 35;  // 9212
constexpr std::uint32_t kCountShift = 14;
constexpr std::uint32_t kColumnMask = (1u << kCountShift) - 1;
// Summaries kept (then the plain walk): for a program whose states share DAGs through leaf
// tables (a fight's), where a summary costs only its row, more. More summaries leave fewer
// trials to the plain walk, but take longer to find (about 1 us each) and crowd the cache:
// docs/performance.md has the measurements that chose 4096.
constexpr std::size_t kMaxSummaries = 512;
constexpr std::size_t kMaxSharedSummaries = 4096;
constexpr std::size_t kMaxRowBytes = std::size_t{8} << 20;  // about: fewer summaries if rows are wide
constexpr std::uint32_t kPrefetchLeaves = 32;           // the plain walk fetches the leaves of a smaller table ahead
constexpr std::uint32_t kMaxColumns = 1000;             // a state with more leaves is left to the plain walk
constexpr std::uint32_t kRoundSteps = 32;               // steps of every lane between refills
constexpr std::uint32_t kGroupLanes = 4;                // lanes stepped together, in registers
constexpr std::uint32_t kRefill = 2 * kRoundSteps + 8;  // symbols a lane holds before a round
constexpr std::uint32_t kBufferSize = 512;              // symbols per lane buffer (+ slack below)
// A lane ends at most 4096 trials per block: the 32-bit visit counts are added into the
// 64-bit tallies at least every kFlushBlocks blocks.
constexpr std::uint64_t kFlushBlocks = 1u << 16;
static_assert(kLanes % kGroupLanes == 0);
static_assert(kBlockTrials / kLanes * kFlushBlocks <= std::uint64_t{1} << 32);

using Slot = FastProgram::Slot;
using Entry = FastProgram::Entry;
static_assert(sizeof(Slot) == 16);

struct SummaryHash {
  std::size_t operator()(const Summary& s) const {
    std::uint64_t h = kFnvOffset;
    auto mix = [&h](std::uint64_t v) { h = fnv_word(h, v); };
    mix(static_cast<std::uint32_t>(s.state) | std::uint64_t{s.steps} << 32);
    mix(s.run_mask);
    mix(s.first_mask);
    for (int c = 0; c < kMaxCounters; ++c) mix(std::uint64_t{s.run_cnt[c]} << 32 | s.first_cnt[c]);
    mix(std::uint64_t{s.run_outcome} | std::uint64_t{s.first_outcome} << 8 | std::uint64_t{s.end_reason} << 16 |
        std::uint64_t{s.first_open} << 24 | std::uint64_t{s.ended} << 25);
    return static_cast<std::size_t>(h);
  }
};

/// Summary r after one more step ending at `leaf` (the reference walker's bookkeeping).
void apply_in_place(Summary& r, const Leaf& leaf) {
  ++r.steps;
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
}

/// The summary after one more step ending at `leaf`.
Summary apply(Summary r, const Leaf& leaf) {
  apply_in_place(r, leaf);
  return r;
}

void add_window(WindowTallies& w, FlagMask mask, const std::uint32_t* cnt, std::uint8_t outcome, std::uint64_t n) {
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

/// r * 1296 = (returned value) * 2^64 + (new r): two mul36_high steps in one.
inline std::uint32_t mul1296_high(std::uint64_t& r) {
  __extension__ using U128 = unsigned __int128;
  const U128 p = static_cast<U128>(r) * 1296u;
  r = static_cast<std::uint64_t>(p);
  return static_cast<std::uint32_t>(p >> 64);
}

/// v = 36 d0 + d1 (0..1295) -> the two symbol bytes d0, d1 in memory order.
constexpr std::array<std::uint16_t, 1296> kDigitPairs = [] {
  std::array<std::uint16_t, 1296> t{};
  for (std::uint32_t v = 0; v < 1296; ++v) t[v] = static_cast<std::uint16_t>(v / 36 | (v % 36) << 8);
  return t;
}();

/// Face of a node for symbol s: the pair is the symbol, a d6 is s / 6.
inline std::uint32_t face_of(const RollNode& n, std::uint32_t s) { return n.die == DieKind::kPair ? s : s / 6; }

}  // namespace

FastProgram::FastProgram(const RollProgram& p, std::uint64_t trials) : program_(&p) {
  // Cell tables, made for the states that the kept summaries reach, as the search below finds
  // them. A state with a leaf table (program.h: states that share a DAG, as a fight's) numbers
  // its columns by leaf link, so all states of one DAG share one cell table, whatever their
  // leaves; a state that reaches its leaves directly numbers its DAG's distinct leaves in order
  // (states with the same DAG reach the same leaves, and share a cell table too). reach[t]: what the first two symbols
  // reach (a column after one or two symbols, or a node at depth 3); leaf_p[t]: each column's probability (deeper steps
  // count 0: a priority only).
  constexpr std::uint32_t kSecond = 1u << 31, kDeeper = 1u << 30;
  const auto& begin = p.state_leaf_begin;
  const auto has_table = [&](std::size_t st) { return !begin.empty() && begin[st] != begin[st + 1]; };
  std::unordered_map<std::uint64_t, std::uint32_t> table_of_key;  // root node, + nodes if direct
  std::unordered_map<std::size_t, std::uint32_t> table_of_state;
  // Per cell table: the leaf of each column, for a table of a state that reaches its leaves
  // directly (its distinct leaves, sorted); empty for a table shared by the states of one DAG,
  // whose column k is leaf link k (RollProgram::leaf_of)
  std::vector<std::vector<std::int32_t>> column_leaves;
  std::vector<std::vector<std::uint32_t>> reach;
  std::vector<std::vector<double>> leaf_p;
  std::vector<std::uint32_t> ncolumns;
  std::vector<std::size_t> seen(p.nodes.size(), 0);  // table + 1: node seen in that table's DAG
  std::uint32_t widest = 0;                          // columns of the widest table made (not plain only)
  const auto table = [&](std::size_t st) -> std::uint32_t {
    if (const auto known = table_of_state.find(st); known != table_of_state.end()) return known->second;
    const std::uint32_t root = p.state_root[st];
    const bool shared = has_table(st);
    const auto [it, fresh] =
        table_of_key.emplace(shared ? root : p.nodes.size() + root, static_cast<std::uint32_t>(reach.size()));
    table_of_state[st] = it->second;
    if (!fresh) return it->second;
    const std::uint32_t t = it->second;
    column_leaves.emplace_back();
    auto& locals = column_leaves.back();
    // The DAG's leaf links: for a shared table, up to the largest (every state of the DAG has a
    // leaf table at least that long, RollProgram::validate; some may have longer ones); else the
    // distinct leaves
    std::int32_t last_link = -1;
    std::vector<std::uint32_t> stack{root};
    while (!stack.empty()) {
      const std::uint32_t n = stack.back();
      stack.pop_back();
      if (seen[n] == t + 1) continue;
      seen[n] = t + 1;
      for (int f = 0; f < faces(p.nodes[n].die); ++f) {
        const Link l = p.link(n, f);
        if (!l.is_leaf())
          stack.push_back(static_cast<std::uint32_t>(l.index()));
        else if (shared)
          last_link = std::max(last_link, l.index());
        else
          locals.push_back(l.index());
      }
    }
    std::sort(locals.begin(), locals.end());
    locals.erase(std::unique(locals.begin(), locals.end()), locals.end());
    ncolumns.push_back(shared ? static_cast<std::uint32_t>(last_link + 1) : static_cast<std::uint32_t>(locals.size()));
    if (ncolumns.back() <= kMaxColumns) widest = std::max(widest, ncolumns.back());
    const auto column = [&](Link l) {
      return shared ? static_cast<std::uint32_t>(l.index())
                    : static_cast<std::uint32_t>(std::lower_bound(locals.begin(), locals.end(), l.index()) -
                                                 locals.begin());
    };
    auto& r = reach.emplace_back(kPairs);
    const RollNode& top = p.nodes[root];
    for (std::uint32_t s0 = 0; s0 < 36; ++s0) {
      const Link a = p.link(root, static_cast<int>(face_of(top, s0)));
      for (std::uint32_t s1 = 0; s1 < 36; ++s1) {
        std::uint32_t e;
        if (a.is_leaf()) {
          e = column(a);
        } else {
          const auto n1 = static_cast<std::uint32_t>(a.index());
          const Link b = p.link(n1, static_cast<int>(face_of(p.nodes[n1], s1)));
          e = kSecond | (b.is_leaf() ? column(b) : kDeeper);
        }
        r[s0 * 36 + s1] = e;
      }
    }
    auto& prob = leaf_p.emplace_back(ncolumns.back(), 0.0);
    for (const std::uint32_t e : r)
      if (!(e & kDeeper)) prob[e & 0xffffu] += 1.0 / kPairs;
    return t;
  };
  const auto plain_only = [&](std::uint32_t t) { return ncolumns[t] > kMaxColumns; };
  const auto leaf_at = [&](std::size_t st, std::uint32_t t, std::uint32_t k) {
    return column_leaves[t].empty() ? p.leaf_of(st, Link::leaf(static_cast<std::int32_t>(k))) : column_leaves[t][k];
  };

  // The max_summaries likeliest summaries of a trial, likeliest first (a trial's probability of
  // reaching them, as first found), and where each column of each leads (-1: past the table)
  // A summary kept for every 256 trials of the run, at least kMaxSummaries
  const std::size_t max_summaries =
      begin.empty() ? kMaxSummaries
      : trials == 0
          ? kMaxSharedSummaries
          : static_cast<std::size_t>(std::clamp<std::uint64_t>(trials / 256, kMaxSummaries, kMaxSharedSummaries));
  // The summaries found, by an open-addressing index (hash, id + 1) of twice their limit
  std::vector<std::pair<std::uint64_t, std::uint32_t>> index(std::bit_ceil(2 * max_summaries));
  const std::size_t index_mask = index.size() - 1;
  const auto find_or_add = [&](const Summary& s) -> std::int64_t {
    const std::uint64_t h = SummaryHash{}(s);
    for (std::size_t at = h & index_mask;; at = (at + 1) & index_mask) {
      auto& [hash, id] = index[at];
      if (id == 0) {
        // Full: the summaries kept, or their rows' bytes at the widest table so far
        if (summaries_.size() >= max_summaries || (summaries_.size() + 1) * (widest + 2) * sizeof(Slot) > kMaxRowBytes)
          return -1;
        hash = h;
        id = static_cast<std::uint32_t>(summaries_.size()) + 1;
        summaries_.push_back(s);
        return -static_cast<std::int64_t>(id) - 1;  // new: -(id + 2)
      }
      if (hash == h && summaries_[id - 1] == s) return id - 1;
    }
  };
  Summary start;
  start.state = p.initial_state;
  find_or_add(start);
  std::vector<std::size_t> next_at(max_summaries, 0);  // per summary: its columns in next
  std::vector<std::int32_t> next;                      // -1: past the table
  // Expanded likeliest first: a summary's probability is the sum over the steps found to it so
  // far (a stale queue entry, of a smaller sum, is passed over)
  std::priority_queue<std::pair<double, std::int64_t>> queue;  // (probability, -id): ties by id
  std::vector<double> mass(max_summaries, 0.0);
  std::vector<char> expanded(max_summaries, 0);
  mass[0] = 1.0;
  queue.emplace(1.0, 0);
  while (!queue.empty()) {
    const auto [prob, neg_id] = queue.top();
    queue.pop();
    const auto i = static_cast<std::size_t>(-neg_id);
    if (expanded[i] || prob < mass[i]) continue;
    expanded[i] = 1;
    const auto st = static_cast<std::size_t>(summaries_[i].state);
    const std::uint32_t t = table(st);
    if (plain_only(t)) continue;
    next_at[i] = next.size();
    for (std::uint32_t k = 0; k < ncolumns[t]; ++k) {
      const Summary s = apply(summaries_[i], p.leaves[static_cast<std::size_t>(leaf_at(st, t, k))]);
      std::int64_t id = find_or_add(s);
      if (id < -1) id = -id - 2;  // new
      if (id >= 0 && !s.ended && !expanded[static_cast<std::size_t>(id)]) {
        mass[static_cast<std::size_t>(id)] += prob * leaf_p[t][k];
        queue.emplace(mass[static_cast<std::size_t>(id)], -id);
      }
      next.push_back(static_cast<std::int32_t>(id));  // stays -1: the plain walk takes over
    }
  }

  // The cell tables. A step that goes deeper, and every step of a state with more than
  // kMaxColumns columns, reaches the last column, whose entries are all "plain walk".
  static_assert((kMaxColumns + 1) * sizeof(Slot) <= kColumnMask);
  for (std::size_t t = 0; t < reach.size(); ++t)
    if (!plain_only(static_cast<std::uint32_t>(t))) width_ = std::max(width_, ncolumns[t] + 1);
  cells_.assign((reach.size() + kStatesPerTable - 1) / kStatesPerTable * kTableEntries, 0);
  for (std::size_t t = 0; t < reach.size(); ++t) {
    std::uint16_t* cells = cells_.data() + t / kStatesPerTable * kTableEntries + t % kStatesPerTable * 36;
    for (std::uint32_t s0 = 0; s0 < 36; ++s0)
      for (std::uint32_t s1 = 0; s1 < 36; ++s1) {
        const std::uint32_t e = reach[t][s0 * 36 + s1];
        const std::uint32_t column =
            (e & kDeeper) || plain_only(static_cast<std::uint32_t>(t)) ? width_ - 1 : (e & 0xffffu);
        cells[s0 + 256 * s1] =
            static_cast<std::uint16_t>(((e & kSecond) ? 2u : 1u) << kCountShift | column * sizeof(Slot));
      }
  }

  // The rows; a trial that ended is followed by a fresh one: the row of summary 0
  rows_.resize(summaries_.size() * (width_ + 1));
  for (std::size_t i = 0; i < summaries_.size(); ++i) {
    const std::size_t from = summaries_[i].ended ? 0 : i;
    const auto st = static_cast<std::size_t>(summaries_[from].state);
    const std::uint32_t t = table_of_state.at(st);
    Slot* r = rows_.data() + i * (width_ + 1);
    r[0].header = RowHeader{cells_.data() + t / kStatesPerTable * kTableEntries + t % kStatesPerTable * 36,
                            static_cast<std::uint32_t>(st)};
    const std::uint32_t columns = plain_only(t) ? 0 : ncolumns[t];
    for (std::uint32_t k = 0; k < columns; ++k) {
      // Past the table: the plain walk's first leaf
      Entry e{nullptr, static_cast<std::size_t>(leaf_at(st, t, k))};
      if (const std::int32_t n = next[next_at[from] + k]; n >= 0) {
        const auto id = static_cast<std::size_t>(n);
        e.next = row(id);
        e.slot = (summaries_[id].ended ? id : 0) * std::size_t{kLanes} * sizeof(std::uint32_t);
      }
      r[1 + k].entry = e;
    }
  }
}

/// The lanes of one call: dice buffers, symbol positions, rows, visit counts.
class LaneRunner {
 public:
  LaneRunner(const FastProgram& fp, Tallies& out)
      : fp_(fp), p_(*fp.program_), out_(out), visits_(fp.summaries_.size() * kLanes, 0) {}

  void block(std::uint64_t seed, std::uint64_t key, std::uint64_t b, std::uint64_t trials) {
    for (std::uint32_t l = 0; l < kLanes; ++l) {
      Lane& lane = lanes_[l];
      lane.gen = Xoshiro256pp(stream_state(seed, key, lane_stream(b, l)));
      lane.pos = lane.len = 0;
      lane.row = fp_.row(0);
      lane.remaining = lane_trials(trials, l);
    }
    // Rounds: every lane takes kRoundSteps steps, each ending at most one trial, so no lane can
    // run past its trials. The trials a lane ended: its steps less its slot-0 visits.
    for (;;) {
      bool room = true;
      for (const Lane& lane : lanes_) room = room && lane.remaining >= kRoundSteps;
      if (!room) break;
      std::array<std::uint32_t, kLanes> not_ended;
      for (std::uint32_t l = 0; l < kLanes; ++l) {
        refill(lanes_[l]);
        not_ended[l] = visits_[l];
      }
      for (std::uint32_t g = 0; g < kLanes; g += kGroupLanes) round(g);
      for (std::uint32_t l = 0; l < kLanes; ++l) {
        lanes_[l].remaining -= kRoundSteps - (visits_[l] - not_ended[l]);
        check(l, trials);
      }
    }
    // The last trials of each lane, one step at a time
    for (std::uint32_t l = 0; l < kLanes; ++l)
      while (lanes_[l].remaining > 0) {
        refill(lanes_[l]);
        const std::uint32_t before = visits_[l];
        single(l);
        lanes_[l].remaining -= 1 - (visits_[l] - before);
        check(l, trials);
      }
    if (++blocks_ % kFlushBlocks == 0) flush();
  }

  /// Add the trials counted by visits to their final summaries.
  void flush() {
    for (std::size_t id = 1; id < fp_.summaries_.size(); ++id) {
      if (!fp_.summaries_[id].ended) continue;
      std::uint64_t n = 0;
      for (std::uint32_t l = 0; l < kLanes; ++l) n += std::exchange(visits_[id * kLanes + l], 0);
      if (n > 0) tally(out_, fp_.summaries_[id], n);
    }
  }

 private:
  struct Lane {
    Xoshiro256pp gen{Xoshiro256pp::State{1, 0, 0, 0}};
    std::uint32_t pos = 0, len = 0;  // next symbol, symbols in the buffer
    const Slot* row = nullptr;       // the current summary's row
    std::uint64_t remaining = 0;     // trials still to run
    // A step reads two symbols, whatever it rolls: the slack keeps that read in bounds.
    std::array<std::uint8_t, kBufferSize + 16> buf{};
  };

  /// Where lane `lane` of a group stopped before a step that needs the plain walk.
  struct Stop {
    std::uint32_t step = kRoundSteps;  // kRoundSteps: the round finished
    std::uint32_t lane = 0;
    const Slot* row = nullptr;
    std::uint32_t cell = 0;
  };

  /// A lane's count of trials to run only goes down: a broken count fails here, never loops on.
  void check(std::uint32_t l, std::uint64_t block_trials) const {
    if (lanes_[l].remaining > lane_trials(block_trials, l))
      throw std::logic_error("fast kernel: lane " + std::to_string(l) + " ran more trials than it was given");
  }

  /// At least kRefill symbols in the lane's buffer, keeping their order; filled to about twice
  /// that, so most rounds do not refill.
  void refill(Lane& lane) {
    const std::uint32_t avail = lane.len - lane.pos;
    if (avail >= kRefill) return;
    if (lane.len + 2 * kRefill + kSymbolsPerWord > kBufferSize) {
      std::memmove(lane.buf.data(), lane.buf.data() + lane.pos, avail);
      lane.pos = 0;
      lane.len = avail;
    }
    const std::uint32_t words = (2 * kRefill - avail) / kSymbolsPerWord + 1;
    std::uint8_t* out = lane.buf.data() + lane.len;
    Xoshiro256pp gen = lane.gen;  // a local: the symbol stores cannot alias it
    for (std::uint32_t w = 0; w < words; ++w) {
      // split_word (rng.h), with the acceptance test first: the final remainder r * 36^10
      std::uint64_t r = gen.next();
      while (r * kSymbolSpan < kRejectBelow) r = gen.next();
      // Two digits per multiplication: r * 36^2 = (36 d0 + d1) 2^64 + r'' exactly
      std::uint64_t packed = 0;
      for (int i = 0; i < 4; ++i) packed |= std::uint64_t{kDigitPairs[mul1296_high(r)]} << (16 * i);
      std::memcpy(out, &packed, 8);
      const std::uint16_t last = kDigitPairs[mul1296_high(r)];
      std::memcpy(out + 8, &last, 2);
      out += kSymbolsPerWord;
    }
    lane.gen = gen;
    lane.len += words * kSymbolsPerWord;
  }

  /// The cell of the lane's next step.
  static std::uint32_t cell_of(const Slot* row, const std::uint8_t* sym) {
    std::uint16_t w;
    std::memcpy(&w, sym, 2);
    return row[-1].header.cells[w];
  }
  static const Entry& entry_of(const Slot* row, std::uint32_t cell) {
    return reinterpret_cast<const Slot*>(reinterpret_cast<const char*>(row) + (cell & kColumnMask))->entry;
  }

  /// The kGroupLanes lanes from g take steps [first, kRoundSteps), in registers and without
  /// calls; they stop before a step that needs the plain walk (lanes before that one have
  /// taken step `step`). Each lane's state is stored back.
  Stop steps(std::uint32_t g, std::uint32_t first) {
    auto* const visits = reinterpret_cast<char*>(visits_.data() + g);
    const std::uint8_t* sym[kGroupLanes];
    const Slot* row[kGroupLanes];
    for (std::uint32_t k = 0; k < kGroupLanes; ++k) {
      sym[k] = lanes_[g + k].buf.data() + lanes_[g + k].pos;
      row[k] = lanes_[g + k].row;
    }
    Stop stop;
    for (std::uint32_t s = first; s < kRoundSteps; ++s) {
#pragma GCC unroll 4
      for (std::uint32_t k = 0; k < kGroupLanes; ++k) {
        const std::uint32_t cell = cell_of(row[k], sym[k]);
        const Entry& t = entry_of(row[k], cell);
        if (t.next == nullptr) [[unlikely]] {
          stop = Stop{s, k, row[k], cell};
          goto stopped;
        }
        sym[k] += cell >> kCountShift;
        row[k] = t.next;
        std::uint32_t v;
        std::memcpy(&v, visits + t.slot + 4 * k, 4);
        ++v;
        std::memcpy(visits + t.slot + 4 * k, &v, 4);
      }
    }
  stopped:
    for (std::uint32_t k = 0; k < kGroupLanes; ++k) {
      lanes_[g + k].pos = static_cast<std::uint32_t>(sym[k] - lanes_[g + k].buf.data());
      lanes_[g + k].row = row[k];
    }
    return stop;
  }

  /// One round of the group of lanes from g.
  void round(std::uint32_t g) {
    for (std::uint32_t first = 0;;) {
      const Stop st = steps(g, first);
      if (st.step == kRoundSteps) return;
      plain(g + st.lane, st.cell);
      for (std::uint32_t k = st.lane + 1; k < kGroupLanes; ++k) single(g + k);
      first = st.step + 1;
    }
  }

  /// One step of lane l outside a round.
  void single(std::uint32_t l) {
    Lane& lane = lanes_[l];
    const std::uint32_t cell = cell_of(lane.row, lane.buf.data() + lane.pos);
    const Entry& t = entry_of(lane.row, cell);
    if (t.next == nullptr) {
      plain(l, cell);
      return;
    }
    lane.pos += cell >> kCountShift;
    lane.row = t.next;
    ++visits_[t.slot / sizeof(std::uint32_t) + l];
  }

  std::uint32_t next_symbol(Lane& lane) {
    refill(lane);
    return lane.buf[lane.pos++];
  }

  /// Walk state st's DAG to a leaf, one symbol per node; returns the leaf index.
  std::int32_t walk(Lane& lane, std::size_t st) {
    // In a large program (a fight's) the state's leaves are likely cache misses: fetch them all
    // while the walk picks one (docs/performance.md)
    if (const auto& begin = p_.state_leaf_begin; !begin.empty() && begin[st + 1] - begin[st] <= kPrefetchLeaves)
      for (std::uint32_t k = begin[st]; k < begin[st + 1]; ++k)
        __builtin_prefetch(&p_.leaves[static_cast<std::size_t>(p_.state_leaves[k])]);
    for (std::uint32_t n = p_.state_root[st];;) {
      const RollNode& node = p_.nodes[n];
      const Link link = p_.links[node.first + face_of(node, next_symbol(lane))];
      if (link.is_leaf()) return p_.leaf_of(st, link);
      n = static_cast<std::uint32_t>(link.v);
    }
  }

  /// Lane l's step from its row with `cell`, then the rest of its trial, by the plain walk.
  /// Counts as one slot-0 visit (so the round's count of trials ended holds) and ends one
  /// trial directly.
  void plain(std::uint32_t l, std::uint32_t cell) {
    Lane& lane = lanes_[l];
    const FastProgram::RowHeader& h = lane.row[-1].header;
    const std::size_t st = h.state;
    Summary r = fp_.summaries_[fp_.id_of(lane.row)];
    if (r.ended) r = fp_.summaries_[0];
    // The leaf of this step: its column, or (the last column) a walk from the state's root
    std::int32_t leaf;
    const auto column = static_cast<std::uint32_t>((cell & kColumnMask) / sizeof(Slot));
    if (column == fp_.width_ - 1) {
      leaf = walk(lane, st);
    } else {
      lane.pos += cell >> kCountShift;
      leaf = static_cast<std::int32_t>(entry_of(lane.row, cell).slot);
    }
    apply_in_place(r, p_.leaves[static_cast<std::size_t>(leaf)]);
    while (!r.ended && r.steps < kMaxStepsPerTrial)
      apply_in_place(r, p_.leaves[static_cast<std::size_t>(walk(lane, static_cast<std::size_t>(r.state)))]);
    if (r.ended)
      tally(out_, r, 1);
    else
      ++out_.truncated;
    ++visits_[l];
    --lane.remaining;
    lane.row = fp_.row(0);
    refill(lane);
  }

  const FastProgram& fp_;
  const RollProgram& p_;
  Tallies& out_;
  std::vector<std::uint32_t> visits_;  // summary id * kLanes + lane; id 0: steps that ended no trial
  std::array<Lane, kLanes> lanes_{};
  std::uint64_t blocks_ = 0;
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
  lanes.flush();
}

}  // namespace salvo::sim::detail
