#pragma once
/// salvo/sim/stats.h — 95% intervals from integer tallies (small pure functions).

#include <cstdint>

#include "salvo/sim/result.h"

namespace salvo::sim {

/// Two-sided 95% standard normal quantile.
inline constexpr double kZ95 = 1.959963984540054;

/// Wilson score interval for k successes in n trials; value = k / n, 0 <= lo <= value <= hi <= 1.
/// k == 0 gives lo = 0, k == n gives hi = 1; n == 0 gives {0, 0, 1}. Requires k <= n.
Estimate wilson_interval(std::uint64_t k, std::uint64_t n, double z = kZ95);

/// Normal interval for a mean from the sum and the sum of squares of n observations:
/// value = sum / n, half-width = z * sqrt(s^2 / n) with s^2 the sample variance.
/// With n < 2 the variance is unknown and the interval collapses to the value (n == 0: 0).
Estimate mean_interval(std::uint64_t sum, std::uint64_t sumsq, std::uint64_t n, double z = kZ95);

/// Largest distance from the value to either end of its interval.
double half_width(const Estimate& e);

}  // namespace salvo::sim
