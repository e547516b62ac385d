#include "salvo/sim/compare.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/rng.h"
#include "salvo/sim/stats.h"
#include "trial.h"

namespace salvo::sim {
namespace {

template <class T>
constexpr std::size_t idx(T i) {
  return static_cast<std::size_t>(i);
}

/// Counter sums at or above this count as equal when deciding which option is higher.
constexpr int kCounterCap = 64;

/// A quantity: a flag or a counter of a window.
struct Quantity {
  Window window;
  bool flag;
  int index;
};

std::vector<Quantity> quantities_of(const RollProgram& p) {
  std::vector<Quantity> q;
  for (Window w : {Window::kFirst, Window::kRun}) {
    for (std::size_t f = 0; f < p.flag_names.size(); ++f) q.push_back({w, true, static_cast<int>(f)});
    for (std::size_t c = 0; c < p.counter_names.size(); ++c) q.push_back({w, false, static_cast<int>(c)});
  }
  return q;
}

std::string name_of(const RollProgram& p, const Quantity& q) {
  return q.flag ? "p_" + p.flag_names[idx(q.index)] : "e_" + p.counter_names[idx(q.index)];
}

void check_same_names(const RollProgram& a, const RollProgram& b) {
  if (a.flag_names != b.flag_names || a.counter_names != b.counter_names)
    throw std::invalid_argument("compare: the options record different quantities (different rulesets?)");
}

/// P(X > Y) and P(Y > X) for independent X ~ pa, Y ~ pb over 0..n-1.
std::pair<double, double> p_higher(const std::vector<double>& pa, const std::vector<double>& pb) {
  double a_hi = 0.0, b_hi = 0.0, cum_a = 0.0, cum_b = 0.0;  // cum_*: P(value < i)
  for (std::size_t i = 0; i < pa.size(); ++i) {
    a_hi += pa[i] * cum_b;
    b_hi += pb[i] * cum_a;
    cum_a += pa[i];
    cum_b += pb[i];
  }
  return {a_hi, b_hi};
}

std::vector<double> values(const Distribution& d) {
  std::vector<double> v;
  for (const Estimate& e : d.p) v.push_back(e.value);
  return v;
}

/// The distribution of one quantity's per-run value (a flag: {1 - p, p}).
std::vector<double> exact_values(const RollProgram& p, const RunResult& r, const Quantity& q) {
  if (q.flag) {
    const WindowStats& w = q.window == Window::kFirst ? r.first : r.run;
    const double v = w.flags[idx(q.index)].value;
    return {1.0 - v, v};
  }
  return values(exact_counter_distribution(p, q.window, q.index, kCounterCap));
}

/// Mean of n signed observations from their sum and sum of squares, normal 95% interval.
Estimate signed_mean(std::int64_t sum, std::uint64_t sumsq, std::uint64_t n) {
  if (n == 0) return {};
  const long double nn = static_cast<long double>(n);
  const long double mean = static_cast<long double>(sum) / nn;
  if (n < 2) return {static_cast<double>(mean), static_cast<double>(mean), static_cast<double>(mean)};
  const long double ss = static_cast<long double>(sumsq) - static_cast<long double>(sum) * mean;
  const long double var = std::max<long double>(0.0L, ss / (nn - 1.0L));
  const long double hw = static_cast<long double>(kZ95) * std::sqrt(var / nn);
  return {static_cast<double>(mean), static_cast<double>(mean - hw), static_cast<double>(mean + hw)};
}

/// Integer tallies of a comparison run: per option and quantity a histogram of the per-trial
/// value; per (option 0, option j) pair and quantity the paired differences.
struct CrnTallies {
  std::uint64_t trials = 0;
  std::vector<std::uint64_t> hist;  // [option][quantity][value 0..kCounterCap]
  std::vector<std::int64_t> d_sum;  // [pair][quantity]
  std::vector<std::uint64_t> d_sumsq, a_higher, b_higher;

  void resize(std::size_t options, std::size_t quantities) {
    hist.assign(options * quantities * (kCounterCap + 1), 0);
    const std::size_t pairs = (options - 1) * quantities;
    d_sum.assign(pairs, 0);
    d_sumsq.assign(pairs, 0);
    a_higher.assign(pairs, 0);
    b_higher.assign(pairs, 0);
  }
  void add(const CrnTallies& o) {
    trials += o.trials;
    for (std::size_t i = 0; i < hist.size(); ++i) hist[i] += o.hist[i];
    for (std::size_t i = 0; i < d_sum.size(); ++i) {
      d_sum[i] += o.d_sum[i];
      d_sumsq[i] += o.d_sumsq[i];
      a_higher[i] += o.a_higher[i];
      b_higher[i] += o.b_higher[i];
    }
  }
};

std::uint32_t value_of(const detail::TrialRecord& r, const Quantity& q) {
  const detail::TrialWindow& w = q.window == Window::kFirst ? r.first : r.run;
  return q.flag ? static_cast<std::uint32_t>((w.mask >> q.index) & 1u) : w.counts[idx(q.index)];
}

}  // namespace

std::uint64_t compare_stream_key(std::uint64_t situation_key) {
  // A domain of its own: comparison streams never coincide with `odds` block streams.
  return mix64(situation_key ^ 0x636f6d7061726521ull);  // "compare!"
}

Comparison compare_exact(const RollProgram& a, const RollProgram& b) {
  check_same_names(a, b);
  const RunResult ra = solve_exact(a);
  const RunResult rb = solve_exact(b);
  Comparison c;
  c.method = Method::kExact;
  for (const Quantity& q : quantities_of(a)) {
    const WindowStats& wa = q.window == Window::kFirst ? ra.first : ra.run;
    const WindowStats& wb = q.window == Window::kFirst ? rb.first : rb.run;
    QuantityDiff d;
    d.name = name_of(a, q);
    d.window = q.window;
    d.a = q.flag ? wa.flags[idx(q.index)] : wa.counters[idx(q.index)];
    d.b = q.flag ? wb.flags[idx(q.index)] : wb.counters[idx(q.index)];
    const double v = d.a.value - d.b.value;
    d.diff = Estimate{v, v, v};
    std::tie(d.p_a_higher, d.p_b_higher) = p_higher(exact_values(a, ra, q), exact_values(b, rb, q));
    c.quantities.push_back(std::move(d));
  }
  return c;
}

std::vector<Comparison> compare_mc(const std::vector<const RollProgram*>& options, const CompareOptions& o) {
  if (options.size() < 2) throw std::invalid_argument("compare: needs at least two options");
  for (const RollProgram* p : options) check_same_names(*options[0], *p);
  const std::vector<Quantity> qs = quantities_of(*options[0]);
  const std::size_t m = options.size(), nq = qs.size(), nv = kCounterCap + 1;
  const std::uint64_t key = compare_stream_key(o.situation_key);
  const std::uint64_t num_blocks = (o.trials + kBlockTrials - 1) / kBlockTrials;

  // One block: every trial rolls each option on the trial's own stream
  const auto run_block = [&](std::uint64_t b, CrnTallies& t) {
    t.resize(m, nq);
    const std::uint64_t trials = std::min(kBlockTrials, o.trials - b * kBlockTrials);
    std::vector<std::uint32_t> v(m * nq);
    for (std::uint64_t i = 0; i < trials; ++i) {
      bool finished = true;
      for (std::size_t k = 0; k < m; ++k) {
        DiceStream dice(o.seed, key, b * kBlockTrials + i);
        const detail::TrialRecord r = detail::run_trial(*options[k], dice);
        finished = finished && r.finished;
        for (std::size_t q = 0; q < nq; ++q) v[k * nq + q] = value_of(r, qs[q]);
      }
      if (!finished) continue;  // never for absorbing programs
      ++t.trials;
      for (std::size_t k = 0; k < m; ++k)
        for (std::size_t q = 0; q < nq; ++q)
          ++t.hist[(k * nq + q) * nv + std::min<std::size_t>(kCounterCap, v[k * nq + q])];
      for (std::size_t k = 1; k < m; ++k)
        for (std::size_t q = 0; q < nq; ++q) {
          const auto d = static_cast<std::int64_t>(v[q]) - static_cast<std::int64_t>(v[k * nq + q]);
          const std::size_t at = (k - 1) * nq + q;
          t.d_sum[at] += d;
          t.d_sumsq[at] += static_cast<std::uint64_t>(d * d);
          t.a_higher[at] += d > 0;
          t.b_higher[at] += d < 0;
        }
    }
  };

  // Waves of blocks over the threads; blocks reduced in order, only a completed prefix kept
  Workers workers(o.threads);
  const std::size_t wave_blocks = 8 * static_cast<std::size_t>(workers.concurrency());
  CrnTallies total;
  total.resize(m, nq);
  bool interrupted = false;
  const auto stopped = [&] { return o.stop != nullptr && o.stop->load(std::memory_order_relaxed); };
  for (std::uint64_t begin = 0; begin < num_blocks && !interrupted;) {
    if (stopped()) {
      interrupted = true;
      break;
    }
    // The wave: block begin + i into slot i, at most wave_blocks of them
    const auto wave = static_cast<std::size_t>(std::min<std::uint64_t>(wave_blocks, num_blocks - begin));
    std::vector<CrnTallies> slots(wave);
    std::vector<char> done(wave, 0);
    workers.for_each(std::size_t{0}, wave, [&](std::size_t i) {
      if (stopped()) return;
      run_block(begin + i, slots[i]);
      done[i] = 1;
    });
    for (std::size_t i = 0; i < wave; ++i) {
      if (!done[i]) {
        interrupted = true;
        break;
      }
      total.add(slots[i]);
    }
    begin += wave;
    if (o.progress) o.progress(total.trials, o.trials);
  }

  // Estimates per pair and quantity
  const std::uint64_t n = total.trials;
  const auto hist_of = [&](std::size_t k, std::size_t q) {
    std::vector<double> h(nv);
    for (std::size_t i = 0; i < nv; ++i)
      h[i] = n ? static_cast<double>(total.hist[(k * nq + q) * nv + i]) / static_cast<double>(n) : 0.0;
    return h;
  };
  const auto value_estimate = [&](std::size_t k, std::size_t q) {
    if (qs[q].flag) return wilson_interval(total.hist[(k * nq + q) * nv + 1], n);
    std::uint64_t sum = 0, sumsq = 0;
    for (std::size_t i = 0; i < nv; ++i) {
      const std::uint64_t c = total.hist[(k * nq + q) * nv + i];
      sum += c * i;
      sumsq += c * i * i;
    }
    return mean_interval(sum, sumsq, n);
  };
  std::vector<Comparison> out;
  for (std::size_t k = 1; k < m; ++k) {
    Comparison c;
    c.method = Method::kMonteCarlo;
    c.trials = n;
    c.interrupted = interrupted;
    for (std::size_t q = 0; q < nq; ++q) {
      const std::size_t at = (k - 1) * nq + q;
      QuantityDiff d;
      d.name = name_of(*options[0], qs[q]);
      d.window = qs[q].window;
      d.a = value_estimate(0, q);
      d.b = value_estimate(k, q);
      d.diff = signed_mean(total.d_sum[at], total.d_sumsq[at], n);
      std::tie(d.p_a_higher, d.p_b_higher) = p_higher(hist_of(0, q), hist_of(k, q));
      d.paired_a_higher = wilson_interval(total.a_higher[at], n);
      d.paired_b_higher = wilson_interval(total.b_higher[at], n);
      c.quantities.push_back(std::move(d));
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace salvo::sim
