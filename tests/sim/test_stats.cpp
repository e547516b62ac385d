// Interval arithmetic against hand-computed values.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "salvo/sim/stats.h"

using namespace salvo::sim;

namespace {
bool near(double a, double b, double tol = 1e-12) { return std::abs(a - b) <= tol; }
}  // namespace

TEST_CASE("stats: Wilson score interval, hand-computed values", "[stats]") {
  const double z2 = kZ95 * kZ95;  // 3.841458820694124
  SECTION("0 of 10: [0, z^2 / (n + z^2)]") {
    const Estimate e = wilson_interval(0, 10);
    CHECK(e.value == 0.0);
    CHECK(e.lo == 0.0);
    CHECK(near(e.hi, z2 / (10.0 + z2)));
    CHECK(near(e.hi, 0.277532799862889));
  }
  SECTION("10 of 10: [n / (n + z^2), 1]") {
    const Estimate e = wilson_interval(10, 10);
    CHECK(e.value == 1.0);
    CHECK(e.hi == 1.0);
    CHECK(near(e.lo, 10.0 / (10.0 + z2)));
    CHECK(near(e.lo, 0.722467200137111));
  }
  SECTION("5 of 10: symmetric about 1/2") {
    const Estimate e = wilson_interval(5, 10);
    // half-width = z / (1 + z^2/n) * sqrt(1/40 + z^2/400)
    const double half = kZ95 / (1.0 + z2 / 10.0) * std::sqrt(0.025 + z2 / 400.0);
    CHECK(e.value == 0.5);
    CHECK(near(e.lo, 0.5 - half));
    CHECK(near(e.hi, 0.5 + half));
    CHECK(near(e.lo, 0.236593090512564));
    CHECK(near(e.hi, 0.763406909487436));
  }
  SECTION("1 of 4") {
    // centre (0.25 + z^2/8) / (1 + z^2/4); half z/(1+z^2/4) sqrt(3/64 + z^2/64)
    const double d = 1.0 + z2 / 4.0;
    const double c = (0.25 + z2 / 8.0) / d;
    const double h = kZ95 / d * std::sqrt(3.0 / 64.0 + z2 / 64.0);
    const Estimate e = wilson_interval(1, 4);
    CHECK(near(e.lo, c - h));
    CHECK(near(e.hi, c + h));
  }
  SECTION("no trials: uninformative, no NaN") {
    const Estimate e = wilson_interval(0, 0);
    CHECK(e.value == 0.0);
    CHECK(e.lo == 0.0);
    CHECK(e.hi == 1.0);
  }
  SECTION("large n: ends stay ordered and in [0, 1]") {
    for (std::uint64_t k : {0ull, 1ull, 500000ull, 999999ull, 1000000ull}) {
      const Estimate e = wilson_interval(k, 1000000);
      CHECK(0.0 <= e.lo);
      CHECK(e.lo <= e.value);
      CHECK(e.value <= e.hi);
      CHECK(e.hi <= 1.0);
    }
  }
}

TEST_CASE("stats: normal interval for a mean", "[stats]") {
  SECTION("observations 1, 2, 3, 4: mean 2.5, s^2 = 5/3") {
    const Estimate e = mean_interval(10, 30, 4);
    const double half = kZ95 * std::sqrt(5.0 / 3.0 / 4.0);
    CHECK(e.value == 2.5);
    CHECK(near(e.lo, 2.5 - half));
    CHECK(near(e.hi, 2.5 + half));
    CHECK(near(half_width(e), half));
  }
  SECTION("constant observations: zero width (every trial counted 7; not a bound)") {
    const Estimate e = mean_interval(700, 4900, 100);
    CHECK(e.value == 7.0);
    CHECK(e.lo == 7.0);
    CHECK(e.hi == 7.0);
    CHECK(has_interval(e));
  }
  SECTION("n < 2: no interval, the whole range [0, infinity) of a counter, never NaN") {
    const double inf = std::numeric_limits<double>::infinity();
    const Estimate e0 = mean_interval(0, 0, 0);
    CHECK(e0.value == 0.0);
    CHECK(e0.lo == 0.0);
    CHECK(e0.hi == inf);
    CHECK_FALSE(has_interval(e0));
    const Estimate e1 = mean_interval(3, 9, 1);
    CHECK(e1.value == 3.0);
    CHECK(e1.lo == 0.0);
    CHECK(e1.hi == inf);
    CHECK_FALSE(has_interval(e1));
    CHECK(half_width(e1) == inf);
  }
}

TEST_CASE("stats: a mean's interval never goes below 0 (a counter is never negative)", "[stats]") {
  SECTION("observations 1 and 6: mean 3.5, s^2 = 12.5; the normal interval [-1.4, 8.4] is clamped") {
    const Estimate e = mean_interval(7, 37, 2);
    const double half = kZ95 * 2.5;  // z * sqrt(12.5 / 2)
    CHECK(e.value == 3.5);
    CHECK(e.lo == 0.0);
    CHECK(near(e.hi, 3.5 + half));
    CHECK(near(e.hi, 8.399909961350135));
    // The upper side is unclamped: half_width is still z times the standard error
    CHECK(near(half_width(e), half));
    CHECK(has_interval(e));
  }
  SECTION("observations 0 and 1: mean 0.5, lo 0 instead of -0.48") {
    const Estimate e = mean_interval(1, 1, 2);
    CHECK(e.value == 0.5);
    CHECK(e.lo == 0.0);
    CHECK(near(e.hi, 0.5 + kZ95 * 0.5));
  }
  SECTION("every small sample of counts 0..6: 0 <= lo <= value <= hi, finite") {
    // n observations with counts c_i: all multisets up to n = 4
    for (std::uint64_t n = 2; n <= 4; ++n) {
      std::uint64_t total = 1;
      for (std::uint64_t i = 0; i < n; ++i) total *= 7;
      for (std::uint64_t code = 0; code < total; ++code) {
        std::uint64_t sum = 0, sumsq = 0;
        for (std::uint64_t c = code, i = 0; i < n; ++i, c /= 7) {
          sum += c % 7;
          sumsq += (c % 7) * (c % 7);
        }
        const Estimate e = mean_interval(sum, sumsq, n);
        INFO("n " << n << " sum " << sum << " sumsq " << sumsq);
        CHECK(0.0 <= e.lo);
        CHECK(e.lo <= e.value);
        CHECK(e.value <= e.hi);
        CHECK(std::isfinite(e.hi));
      }
    }
  }
}
