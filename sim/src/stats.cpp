#include "salvo/sim/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace salvo::sim {

Estimate wilson_interval(std::uint64_t k, std::uint64_t n, double z) {
  if (n == 0) return Estimate{0.0, 0.0, 1.0};
  const double nd = static_cast<double>(n);
  const double p = static_cast<double>(k) / nd;
  // Centre and half-width of the score interval
  const double z2n = z * z / nd;
  const double denom = 1.0 + z2n;
  const double centre = (p + 0.5 * z2n) / denom;
  const double half = z / denom * std::sqrt(p * (1.0 - p) / nd + 0.25 * z2n / nd);
  // The ends are exact at the boundaries; elsewhere clamp rounding into [0, 1] around p
  Estimate e{p, std::clamp(centre - half, 0.0, p), std::clamp(centre + half, p, 1.0)};
  if (k == 0) e.lo = 0.0;
  if (k >= n) e.hi = 1.0;
  return e;
}

Estimate mean_interval(std::uint64_t sum, std::uint64_t sumsq, std::uint64_t n, double z) {
  // No variance to estimate: the interval is the whole range of a counter, [0, infinity)
  const double unbounded = std::numeric_limits<double>::infinity();
  if (n == 0) return Estimate{0.0, 0.0, unbounded};
  const long double nl = static_cast<long double>(n);
  const long double mean = static_cast<long double>(sum) / nl;
  const auto value = static_cast<double>(mean);
  if (n < 2) return Estimate{value, 0.0, unbounded};
  // Sample variance from the raw moments; rounding can make it slightly negative
  const long double var =
      std::max((static_cast<long double>(sumsq) - static_cast<long double>(sum) * mean) / (nl - 1.0L), 0.0L);
  const double half = z * static_cast<double>(std::sqrt(var / nl));
  // A counter is never negative: the normal interval's lower end is clamped at 0
  return Estimate{value, std::max(value - half, 0.0), value + half};
}

bool has_interval(const Estimate& e) { return std::isfinite(e.lo) && std::isfinite(e.hi); }

double half_width(const Estimate& e) { return std::max(e.hi - e.value, e.value - e.lo); }

}  // namespace salvo::sim
