// Interval arithmetic against hand-computed values.

#include <catch2/catch.hpp>

#include <cmath>

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
  SECTION("constant observations: zero width") {
    const Estimate e = mean_interval(700, 4900, 100);
    CHECK(e.value == 7.0);
    CHECK(e.lo == 7.0);
    CHECK(e.hi == 7.0);
  }
  SECTION("n < 2: collapses, no NaN") {
    const Estimate e0 = mean_interval(0, 0, 0);
    CHECK(e0.value == 0.0);
    CHECK(e0.lo == 0.0);
    CHECK(e0.hi == 0.0);
    const Estimate e1 = mean_interval(3, 9, 1);
    CHECK(e1.value == 3.0);
    CHECK(e1.lo == 3.0);
    CHECK(e1.hi == 3.0);
  }
}
