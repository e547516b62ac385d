#include "salvo/sim/montecarlo.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <vector>

#include "fast_kernel.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/rng.h"
#include "salvo/sim/stats.h"
#include "walk_kernel.h"

namespace salvo::sim {
namespace {

/// First round of precision mode; each later round doubles (cumulative 1, 3, 7, ... x 2^20).
constexpr std::uint64_t kFirstRoundTrials = std::uint64_t{1} << 20;
/// Blocks launched per wave and thread; between waves the caller reports progress.
constexpr std::size_t kBlocksPerThreadAndWave = 8;

WindowTallies empty_window(const RollProgram& p, bool with_end_reasons) {
  WindowTallies w;
  w.flags.assign(p.flag_names.size(), 0);
  w.counter_sum.assign(p.counter_names.size(), 0);
  w.counter_sumsq.assign(p.counter_names.size(), 0);
  w.outcomes.assign(p.outcome_names.size(), 0);
  if (with_end_reasons) w.end_reasons.assign(p.end_reason_names.size(), 0);
  return w;
}

void add_vector(std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
}

void add_window(WindowTallies& a, const WindowTallies& b) {
  add_vector(a.flags, b.flags);
  add_vector(a.counter_sum, b.counter_sum);
  add_vector(a.counter_sumsq, b.counter_sumsq);
  add_vector(a.outcomes, b.outcomes);
  add_vector(a.end_reasons, b.end_reasons);
}

/// Fixed-size tallies of one window, kept on the stack in the hot loop.
struct LocalWindow {
  std::array<std::uint64_t, kMaxFlags> flags{};
  std::array<std::uint64_t, kMaxCounters> counter_sum{};
  std::array<std::uint64_t, kMaxCounters> counter_sumsq{};
  std::array<std::uint64_t, 256> outcomes{};

  void add_trial(FlagMask mask, const std::array<std::uint64_t, kMaxCounters>& counters, std::uint8_t outcome) {
    for (; mask != 0; mask &= mask - 1) ++flags[static_cast<std::size_t>(std::countr_zero(mask))];
    for (std::size_t c = 0; c < kMaxCounters; ++c) {
      counter_sum[c] += counters[c];
      counter_sumsq[c] += counters[c] * counters[c];
    }
    ++outcomes[outcome];
  }

  void store(WindowTallies& w) const {
    for (std::size_t i = 0; i < w.flags.size(); ++i) w.flags[i] += flags[i];
    for (std::size_t i = 0; i < w.counter_sum.size(); ++i) {
      w.counter_sum[i] += counter_sum[i];
      w.counter_sumsq[i] += counter_sumsq[i];
    }
    for (std::size_t i = 0; i < w.outcomes.size(); ++i) w.outcomes[i] += outcomes[i];
  }
};

void add_counts(std::array<std::uint64_t, kMaxCounters>& c, const Leaf& leaf) {
  for (std::size_t i = 0; i < kMaxCounters; ++i) c[i] += leaf.counts[i];
}

WindowStats window_estimates(const WindowTallies& w, std::uint64_t n) {
  WindowStats s;
  for (auto k : w.flags) s.flags.push_back(wilson_interval(k, n));
  for (std::size_t c = 0; c < w.counter_sum.size(); ++c)
    s.counters.push_back(mean_interval(w.counter_sum[c], w.counter_sumsq[c], n));
  for (auto k : w.outcomes) s.outcomes.push_back(wilson_interval(k, n));
  for (auto k : w.end_reasons) s.end_reasons.push_back(wilson_interval(k, n));
  return s;
}

bool window_converged(const WindowStats& s, double precision) {
  for (const auto* v : {&s.flags, &s.counters, &s.outcomes, &s.end_reasons})
    for (const Estimate& e : *v)
      if (!(half_width(e) <= precision)) return false;
  return true;
}

}  // namespace

void add_tallies(Tallies& a, const Tallies& b) {
  a.trials += b.trials;
  a.truncated += b.truncated;
  add_window(a.first, b.first);
  add_window(a.run, b.run);
}

Tallies empty_tallies(const RollProgram& p) {
  Tallies t;
  t.first = empty_window(p, false);
  t.run = empty_window(p, true);
  return t;
}

Tallies run_blocks(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                   std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total) {
  Tallies out = empty_tallies(program);
  detail::FastProgram(program).run(seed, situation_key, block_begin, block_end, trials_total, out);
  return out;
}

namespace {

/// Blocks [block_begin, block_end) one lane after another, one trial at a time:
/// `make_dice(stream)` gives a lane's dice, `step_leaf(state, dice)` rolls a step of `state` and
/// returns its leaf. The reference walker's loop (the walk kernel steps two lanes in turn).
template <class MakeDice, class Step>
Tallies walk_blocks(const RollProgram& program, std::uint64_t block_begin, std::uint64_t block_end,
                    std::uint64_t trials_total, MakeDice&& make_dice, Step&& step_leaf) {
  Tallies out = empty_tallies(program);
  LocalWindow first;
  LocalWindow run;
  std::array<std::uint64_t, 256> end_reasons{};

  for (std::uint64_t b = block_begin; b < block_end; ++b) {
    if (b * kBlockTrials >= trials_total) break;
    const std::uint64_t trials = std::min(kBlockTrials, trials_total - b * kBlockTrials);
    out.trials += trials;

    for (std::uint64_t lane = 0; lane < kLanes; ++lane) {
      auto dice = make_dice(lane_stream(b, lane));
      for (std::uint64_t t = 0; t < lane_trials(trials, lane); ++t) {
        std::int32_t state = program.initial_state;
        FlagMask run_mask = 0;
        FlagMask first_mask = 0;
        std::array<std::uint64_t, kMaxCounters> run_counts{};
        std::array<std::uint64_t, kMaxCounters> first_counts{};
        std::uint8_t run_outcome = 0;
        std::uint8_t first_outcome = 0;
        std::uint8_t end_reason = 0;
        bool first_open = true;
        bool finished = false;

        for (std::uint32_t step = 0; step < kMaxStepsPerTrial; ++step) {
          const Leaf& leaf = step_leaf(state, dice);

          // Apply the leaf to the run window, and to the first window while it is open
          run_mask |= leaf.flags;
          add_counts(run_counts, leaf);
          run_outcome = leaf.outcome;
          if (first_open) {
            first_mask |= leaf.flags;
            add_counts(first_counts, leaf);
            first_outcome = leaf.outcome;
            first_open = !(leaf.closes_window || leaf.next_state < 0);
          }
          if (leaf.next_state < 0) {
            end_reason = leaf.end_reason;
            finished = true;
            break;
          }
          state = leaf.next_state;
        }

        // Tally the trial (a truncated trial counts only in trials and truncated)
        if (!finished) {
          ++out.truncated;
          continue;
        }
        run.add_trial(run_mask, run_counts, run_outcome);
        first.add_trial(first_mask, first_counts, first_outcome);
        ++end_reasons[end_reason];
      }
    }
  }

  // Copy the fixed-size tallies into the program-sized vectors
  run.store(out.run);
  first.store(out.first);
  for (std::size_t i = 0; i < out.run.end_reasons.size(); ++i) out.run.end_reasons[i] += end_reasons[i];
  return out;
}

/// Per node of a small program, where its next two dice symbols lead (the walk kernel): entry
/// s0 * 36 + s1 is index << 2 | leaf << 1 | (symbols rolled - 1): a leaf link after one or two
/// rolls, or the node two rolls down.
std::vector<std::uint32_t> two_roll_tables(const RollProgram& p) {
  std::vector<std::uint32_t> t(p.nodes.size() * 36 * 36);
  const auto face = [](const RollNode& n, std::uint32_t s) {
    return static_cast<int>(n.die == DieKind::kPair ? s : s / 6);
  };
  const auto entry = [](Link l, std::uint32_t rolls) {
    return static_cast<std::uint32_t>(l.index()) << 2 | std::uint32_t{l.is_leaf()} << 1 | (rolls - 1);
  };
  for (std::uint32_t n = 0; n < p.nodes.size(); ++n)
    for (std::uint32_t s0 = 0; s0 < 36; ++s0) {
      const Link a = p.link(n, face(p.nodes[n], s0));
      for (std::uint32_t s1 = 0; s1 < 36; ++s1) {
        const auto child = static_cast<std::uint32_t>(a.index());
        t[(n * 36 + s0) * 36 + s1] = a.is_leaf() ? entry(a, 1) : entry(p.link(child, face(p.nodes[child], s1)), 2);
      }
    }
  return t;
}

/// A lane's dice symbols, drawn ahead from its stream in the order DiceStream gives them, read
/// two at a time. The reader keeps the position of its next symbol.
class SymbolBuffer {
 public:
  explicit SymbolBuffer(const Xoshiro256pp::State& s) : gen_(s) {}
  /// Symbols i and i + 1 as s0 * 36 + s1.
  std::uint32_t pair(std::uint32_t i) const { return buf_[i] * 36u + buf_[i + 1]; }
  /// The position of the next symbol, `pos`, if it and the one after it are drawn; else keeps
  /// the unread symbols, draws more after them, and returns their new position (0).
  std::uint32_t ready(std::uint32_t pos) {
    if (len_ - pos >= 2) [[likely]]
      return pos;
    return refill(pos);
  }

 private:
  [[gnu::noinline]] std::uint32_t refill(std::uint32_t pos) {
    std::copy(buf_.begin() + pos, buf_.begin() + len_, buf_.begin());
    len_ -= pos;
    while (len_ + kSymbolsPerWord <= buf_.size())
      if (split_word(gen_.next(), buf_.data() + len_)) len_ += kSymbolsPerWord;
    return 0;
  }

  Xoshiro256pp gen_;
  std::array<std::uint8_t, 256> buf_{};
  std::uint32_t len_ = 0;
};

}  // namespace

Tallies run_blocks_reference(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                             std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total) {
  const RollNode* nodes = program.nodes.data();
  const Link* links = program.links.data();
  const Leaf* leaves = program.leaves.data();
  const std::uint32_t* roots = program.state_root.data();
  return walk_blocks(
      program, block_begin, block_end, trials_total,
      [&](std::uint64_t stream) { return DiceStream(seed, situation_key, stream); },
      [&](std::int32_t state, DiceStream& dice) -> const Leaf& {
        // Walk the state's DAG, rolling each node's die, to a leaf
        std::uint32_t n = roots[state];
        Link l;
        for (;;) {
          const RollNode& node = nodes[n];
          const int face = node.die == DieKind::kPair ? dice.pair() : dice.d6();
          l = links[node.first + static_cast<std::uint32_t>(face)];
          if (l.is_leaf()) break;
          n = static_cast<std::uint32_t>(l.v);
        }
        return leaves[program.leaf_of(static_cast<std::size_t>(state), l)];
      });
}

Tallies run_blocks_walk(const RollProgram& program, std::uint64_t seed, std::uint64_t situation_key,
                        std::uint64_t block_begin, std::uint64_t block_end, std::uint64_t trials_total) {
  if (!detail::WalkProgram::fits(program))
    return run_blocks_reference(program, seed, situation_key, block_begin, block_end, trials_total);
  Tallies out = empty_tallies(program);
  detail::WalkProgram(program).run(seed, situation_key, block_begin, block_end, trials_total, out);
  return out;
}

namespace {

/// What the steps of one trial added up to so far: the leaves' flags and counts, and the last
/// outcome (the reference walker's bookkeeping of one window).
struct TrialSums {
  FlagMask mask = 0;
  std::array<std::uint64_t, kMaxCounters> counts{};
  std::uint8_t outcome = 0;

  void add(const Leaf& leaf) {
    mask |= leaf.flags;
    add_counts(counts, leaf);
    outcome = leaf.outcome;
  }
};

}  // namespace

namespace detail {

bool WalkProgram::fits(const RollProgram& program) {
  return program.nodes.size() <= kWalkMaxNodes &&
         program.leaves.size() + program.state_leaves.size() <= std::numeric_limits<std::uint32_t>::max();
}

WalkProgram::WalkProgram(const RollProgram& program) : program_(&program), tables_(two_roll_tables(program)) {
  const RollProgram& p = program;
  const auto& begin = p.state_leaf_begin;
  const auto has_table = [&](std::size_t s) { return !begin.empty() && begin[s] != begin[s + 1]; };
  bool any_direct = false;
  for (std::size_t s = 0; s < p.num_states() && !any_direct; ++s) any_direct = !has_table(s);
  if (any_direct) {
    own_ids_.resize(p.leaves.size());
    for (std::size_t i = 0; i < p.leaves.size(); ++i) own_ids_[i] = static_cast<std::int32_t>(i);
    own_ids_.insert(own_ids_.end(), p.state_leaves.begin(), p.state_leaves.end());
  }
  ids_ = any_direct ? own_ids_.data() : p.state_leaves.data();
  const auto direct = static_cast<std::uint32_t>(any_direct ? p.leaves.size() : 0);
  const auto start = [&](std::size_t s) { return Start{has_table(s) ? direct + begin[s] : 0u, p.state_root[s]}; };
  next_.resize(p.leaves.size());
  for (std::size_t i = 0; i < p.leaves.size(); ++i)
    if (p.leaves[i].next_state >= 0) next_[i] = start(static_cast<std::size_t>(p.leaves[i].next_state));
  initial_ = start(static_cast<std::size_t>(p.initial_state));
}

namespace {

/// One lane of a block on the walk kernel: its dice, its trials still to run, and the one it is in.
struct WalkLane {
  SymbolBuffer dice;
  std::uint32_t pos = 0;  // of the next symbol
  std::uint64_t trials_left;
  WalkProgram::Start at;  // the next step's
  std::uint32_t step = 0;
  bool first_open = true;
  TrialSums sums;
  TrialSums first_sums;  // the run's sums when the first window closed

  WalkLane(const Xoshiro256pp::State& s, std::uint64_t trials, WalkProgram::Start initial)
      : dice(s), trials_left(trials), at(initial) {}
};

}  // namespace

void WalkProgram::run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin,
                      std::uint64_t block_end, std::uint64_t trials_total, Tallies& out) const {
  const Leaf* leaves = program_->leaves.data();
  const std::uint32_t* tables = tables_.data();
  const Start* next = next_.data();
  const std::int32_t* ids = ids_;
  LocalWindow first;
  LocalWindow run;
  std::array<std::uint64_t, 256> end_reasons{};

  // One step of a lane with a trial to run; at the trial's end, its tally and the next trial.
  const auto step = [&](WalkLane& w) {
    // Walk the state's DAG, two rolls a table entry, to a leaf link, and on to the leaf and
    // where the next step starts (its leaf links read ahead)
    std::uint32_t pos = w.dice.ready(w.pos);
    std::uint32_t e = tables[w.at.root * (36 * 36) + w.dice.pair(pos)];
    pos += (e & 1u) + 1;
    while ((e & 2u) == 0) {
      pos = w.dice.ready(pos);
      e = tables[(e >> 2) * (36 * 36) + w.dice.pair(pos)];
      pos += (e & 1u) + 1;
    }
    w.pos = pos;
    const std::int32_t l = ids[w.at.links + (e >> 2)];
    w.at = next[l];
    __builtin_prefetch(ids + w.at.links);
    const Leaf& leaf = leaves[l];

    // The leaf's accounting, off the chain of reads above
    w.sums.add(leaf);
    if (w.first_open && (leaf.closes_window || leaf.next_state < 0)) {
      w.first_sums = w.sums;
      w.first_open = false;
    }
    const bool ended = leaf.next_state < 0;
    if (ended || ++w.step == kMaxStepsPerTrial) [[unlikely]] {
      // Tally the trial (a truncated trial counts only in trials and truncated)
      if (ended) {
        ++end_reasons[leaf.end_reason];
        run.add_trial(w.sums.mask, w.sums.counts, w.sums.outcome);
        first.add_trial(w.first_sums.mask, w.first_sums.counts, w.first_sums.outcome);
      } else {
        ++out.truncated;
      }
      --w.trials_left;
      w.at = initial_;
      w.step = 0;
      w.first_open = true;
      w.sums = TrialSums{};
    }
  };

  for (std::uint64_t b = block_begin; b < block_end; ++b) {
    if (b * kBlockTrials >= trials_total) break;
    const std::uint64_t trials = std::min(kBlockTrials, trials_total - b * kBlockTrials);
    out.trials += trials;

    // Two lanes at a time, stepped in turn: their chains of reads overlap
    for (std::uint64_t lane = 0; lane < kLanes; lane += 2) {
      WalkLane x(stream_state(seed, situation_key, lane_stream(b, lane)), lane_trials(trials, lane), initial_);
      WalkLane y(stream_state(seed, situation_key, lane_stream(b, lane + 1)), lane_trials(trials, lane + 1), initial_);
      while (x.trials_left != 0 && y.trials_left != 0) {
        step(x);
        step(y);
      }
      while (x.trials_left != 0) step(x);
      while (y.trials_left != 0) step(y);
    }
  }

  // Copy the fixed-size tallies into the program-sized vectors
  run.store(out.run);
  first.store(out.first);
  for (std::size_t i = 0; i < out.run.end_reasons.size(); ++i) out.run.end_reasons[i] += end_reasons[i];
}

}  // namespace detail

PreparedProgram::PreparedProgram(const RollProgram& program, std::uint64_t trials) : program_(program) {
  if (program.num_states() <= kFastKernelMaxStates || !program.state_leaf_begin.empty())
    fast_ = std::make_unique<detail::FastProgram>(program, trials);
  else if (detail::WalkProgram::fits(program))
    walk_ = std::make_unique<detail::WalkProgram>(program);
}

PreparedProgram::~PreparedProgram() = default;

Tallies PreparedProgram::run(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block_begin,
                             std::uint64_t block_end, std::uint64_t trials_total) const {
  if (!fast_ && !walk_)
    return run_blocks_reference(program_, seed, situation_key, block_begin, block_end, trials_total);
  Tallies out = empty_tallies(program_);
  if (fast_)
    fast_->run(seed, situation_key, block_begin, block_end, trials_total, out);
  else
    walk_->run(seed, situation_key, block_begin, block_end, trials_total, out);
  return out;
}

RunResult estimates_from(const RollProgram& program, const Tallies& tallies) {
  (void)program;
  RunResult r;
  r.method = Method::kMonteCarlo;
  r.trials = tallies.trials;
  r.first = window_estimates(tallies.first, tallies.trials);
  r.run = window_estimates(tallies.run, tallies.trials);
  return r;
}

std::uint64_t precision_round_target(std::uint64_t done, std::uint64_t max_trials) {
  // Round k runs 2^(20+k) trials: done + 2^20 more than the rounds before it.
  const std::uint64_t round = done + kFirstRoundTrials;
  return max_trials - done > round ? done + round : max_trials;
}

bool precision_reached(const RunResult& r, double precision) {
  return window_converged(r.first, precision) && window_converged(r.run, precision);
}

RunResult monte_carlo(const RollProgram& program, const McOptions& options, Tallies* tallies_out) {
  Workers workers(options.threads);
  const std::size_t wave_blocks = kBlocksPerThreadAndWave * static_cast<std::size_t>(workers.concurrency());
  Tallies total = empty_tallies(program);
  // Shared by the blocks; prepared for the run's trials (with a precision, its first round's)
  const PreparedProgram prepared(
      program, options.precision <= 0.0 ? options.trials : std::min(options.max_trials, kFirstRoundTrials));
  std::uint64_t done_blocks = 0;  // blocks 0..done_blocks-1 are in total
  bool interrupted = false;
  const auto stopped = [&] { return options.stop != nullptr && options.stop->load(std::memory_order_relaxed); };

  // Run blocks done_blocks.. up to trials_total trials, in waves; false when stopped.
  // Within a wave each block goes to its own slot; slots are summed in block order, and only
  // the completed prefix is kept, so the tallies depend on the seed and the trial count only.
  const auto run_until = [&](std::uint64_t trials_total, std::uint64_t planned) {
    const std::uint64_t num_blocks = (trials_total + kBlockTrials - 1) / kBlockTrials;
    while (done_blocks < num_blocks) {
      if (stopped()) return false;
      // The wave: block begin + i into slot i, at most wave_blocks of them
      const std::uint64_t begin = done_blocks;
      const auto wave = static_cast<std::size_t>(std::min<std::uint64_t>(wave_blocks, num_blocks - begin));
      std::vector<Tallies> slots(wave);
      std::vector<char> completed(wave, 0);
      workers.for_each(std::size_t{0}, wave, [&](std::size_t i) {
        if (stopped()) return;
        const std::uint64_t b = begin + i;
        slots[i] = prepared.run(options.seed, options.situation_key, b, b + 1, trials_total);
        completed[i] = 1;
      });
      for (std::size_t i = 0; i < wave; ++i) {
        if (!completed[i]) return false;
        add_tallies(total, slots[i]);
        ++done_blocks;
      }
      if (options.progress) options.progress(total.trials, planned);
    }
    return true;
  };

  if (options.precision <= 0.0) {
    // Fixed trial count
    interrupted = !run_until(options.trials, options.trials);
  } else {
    // Rounds of 2^20, 2^21, ... trials until every half-width <= precision or max_trials
    std::uint64_t target = 0;
    while (target < options.max_trials) {
      target = precision_round_target(target, options.max_trials);
      if (!run_until(target, target)) {
        interrupted = true;
        break;
      }
      if (precision_reached(estimates_from(program, total), options.precision)) break;
    }
  }

  RunResult result = estimates_from(program, total);
  result.interrupted = interrupted;
  if (tallies_out != nullptr) *tallies_out = std::move(total);
  return result;
}

}  // namespace salvo::sim
