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

/// Normal interval for the mean of a counter from the sum and the sum of squares of its n
/// observations: value = sum / n, half-width = z * sqrt(s^2 / n) with s^2 the sample variance.
///
/// - A counter is never negative, so lo is clamped at 0 (lo = max(0, value - half)); hi is
///   value + half. There is no upper clamp: a RollProgram records no maximum for a counter (a
///   Rate of Fire chain has no fixed length; only fire.max_shots would bound it, and the program
///   does not carry that bound), so the only range known is [0, infinity).
/// - With n < 2 the variance cannot be estimated: the interval is the whole range of a counter,
///   lo = 0 and hi = +infinity (has_interval() is false), as a probability from no trials gets
///   [0, 1]; the value is the mean (n == 0: 0). Tables print it as no interval ("[?, ?]" in
///   text, "±?" in Markdown and HTML, no lo and hi in JSON, empty in CSV), never as zero width
///   and never as an infinity.
/// - With n >= 2 and every observation equal, s^2 = 0 and lo == hi == value: read it as "every
///   trial counted this value", not as a bound. The mean may still differ: a count other than
///   the value has a per-trial chance below about 3/n (95%, the rule of three), and no interval
///   can say by how much without a maximum for the counter.
Estimate mean_interval(std::uint64_t sum, std::uint64_t sumsq, std::uint64_t n, double z = kZ95);

/// False for an estimate without an interval (a mean from fewer than 2 observations: hi is
/// +infinity); true otherwise (both ends finite), exact results included.
bool has_interval(const Estimate& e);

/// Largest distance from the value to either end of its interval; +infinity without one.
/// For mean_interval's estimates this is z times the standard error: the clamp at 0 only ever
/// shortens the lower side.
double half_width(const Estimate& e);

}  // namespace salvo::sim
