// Tier 1 (exact) and tier 3 (statistical) tests of the generator and the dice.
//
// The reference below is a deliberately plain re-implementation written from the published
// formulas (splitmix64.c, xoshiro256plusplus.c, Lemire's multiply-shift with rejection) and the
// documented key derivation; it shares no code with salvo/sim/rng.h.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "salvo/sim/rng.h"

using namespace salvo::sim;

namespace {

// --- Reference implementation -----------------------------------------------------------------

std::uint64_t ref_splitmix_next(std::uint64_t& x) {
  x += 0x9e3779b97f4a7c15ull;
  std::uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t ref_mix(std::uint64_t x) { return ref_splitmix_next(x); }

std::uint64_t ref_rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/// xoshiro256++ written as a map from one state to the next: each new word in terms of the
/// old ones, worked out by hand from the in-place steps of xoshiro256plusplus.c (t = s1 << 17;
/// s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)). The output comes from
/// the old state.
std::uint64_t ref_xoshiro_next(std::uint64_t* s) {
  const std::uint64_t a = s[0], b = s[1], c = s[2], d = s[3];
  s[0] = a ^ b ^ d;
  s[1] = a ^ b ^ c;
  s[2] = a ^ c ^ (b << 17);
  s[3] = ref_rotl(b ^ d, 45);
  return ref_rotl(a + d, 23) + a;
}

/// The symbols of a stream: the base-36 digits of floor(w * 36^10 / 2^64), most significant
/// first, for each generator output w with (w * 36^10) mod 2^64 >= 2^64 mod 36^10 (128-bit
/// arithmetic, no shifts); d6 = symbol / 6.
__extension__ typedef unsigned __int128 U128;

struct RefDice {
  std::uint64_t s[4];
  std::vector<int> symbols;
  std::size_t used = 0;
  int rejections = 0;
  std::uint64_t words_drawn = 0;

  RefDice(std::uint64_t seed, std::uint64_t situation, std::uint64_t stream) {
    std::uint64_t key = ref_mix(seed ^ ref_mix(situation ^ ref_mix(stream)));
    for (auto& w : s) w = ref_splitmix_next(key);
  }
  int symbol() {
    while (used == symbols.size()) {
      const U128 span = U128{3656158440062976ull};  // 36^10
      const U128 two64 = U128{1} << 64;
      const std::uint64_t w = ref_xoshiro_next(s);
      ++words_drawn;
      const U128 prod = U128{w} * span;
      if (prod % two64 < two64 % span) {
        ++rejections;
        continue;
      }
      auto q = static_cast<std::uint64_t>(prod / two64);
      int digits[10];
      for (int k = 9; k >= 0; --k) {
        digits[k] = static_cast<int>(q % 36);
        q /= 36;
      }
      symbols.insert(symbols.end(), digits, digits + 10);
    }
    return symbols[used++];
  }
  int roll(int n) { return n == 36 ? symbol() : symbol() / 6; }
  std::uint64_t words() const { return words_drawn; }
};

}  // namespace

TEST_CASE("rng: SplitMix64 matches the published reference outputs", "[rng]") {
  // rand_xoshiro's test vector, produced with Vigna's splitmix64.c
  SplitMix64 g(1477776061723855037ull);
  const std::uint64_t expected[] = {1985237415132408290ull, 2979275885539914483ull, 13511426838097143398ull,
                                    8488337342461049707ull, 15141737807933549159ull};
  for (std::uint64_t e : expected) CHECK(g.next() == e);
}

TEST_CASE("rng: xoshiro256++ matches the reference algorithm", "[rng]") {
  SECTION("published vector for the state {1, 2, 3, 4}") {
    // rand_xoshiro's test vector, produced with xoshiro256plusplus.c
    Xoshiro256pp g({1, 2, 3, 4});
    const std::uint64_t expected[] = {41943041ull,
                                      58720359ull,
                                      3588806011781223ull,
                                      3591011842654386ull,
                                      9228616714210784205ull,
                                      9973669472204895162ull,
                                      14011001112246962877ull,
                                      12406186145184390807ull,
                                      15849039046786891736ull,
                                      10450023813501588000ull};
    for (std::uint64_t e : expected) CHECK(g.next() == e);
  }
  SECTION("first output by hand: rotl(s0 + s3, 23) + s0") {
    Xoshiro256pp g({1, 2, 3, 4});
    CHECK(g.next() == (5ull << 23) + 1ull);
  }
  SECTION("agrees with the plain formula for 10^4 outputs from an arbitrary state") {
    std::uint64_t s[4] = {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x0f1e2d3c4b5a6978ull, 42ull};
    Xoshiro256pp g({s[0], s[1], s[2], s[3]});
    for (int i = 0; i < 10000; ++i) REQUIRE(g.next() == ref_xoshiro_next(s));
  }
}

TEST_CASE("rng: the stream state is derived from (seed, situation, block) as documented", "[rng]") {
  using Key = std::array<std::uint64_t, 3>;
  for (auto [seed, sit, block] : {Key{1, 0, 0}, Key{0, 0, 0}, Key{7, 3, 99}, Key{~0ull, 12345, 1ull << 40}}) {
    std::uint64_t key = ref_mix(seed ^ ref_mix(sit ^ ref_mix(block)));
    std::array<std::uint64_t, 4> want{};
    for (auto& w : want) w = ref_splitmix_next(key);
    CHECK(stream_state(seed, sit, block) == want);
  }
  // Neighbouring keys give unrelated streams
  CHECK(stream_state(1, 0, 0) != stream_state(1, 0, 1));
  CHECK(stream_state(1, 0, 0) != stream_state(1, 1, 0));
  CHECK(stream_state(1, 0, 0) != stream_state(2, 0, 0));
  CHECK(stream_state(1, 0, 1) != stream_state(1, 1, 0));
}

TEST_CASE("rng: known answers for seed 1, situation 0, block 0", "[rng]") {
  // Pinned values, computed by the reference above and by a third implementation in Python
  // (integer arithmetic on w * 36^10); a change here changes every Monte Carlo result.
  const std::vector<int> pairs20 = {1, 3, 14, 9, 6, 10, 7, 35, 17, 15, 30, 24, 9, 7, 17, 22, 30, 17, 9, 13};
  const std::vector<int> d6s20 = {0, 0, 2, 1, 1, 1, 1, 5, 2, 2, 5, 4, 1, 1, 2, 3, 5, 2, 1, 2};
  // The first 20 faces of one kind of die (36: ordered pairs, 6: d6), against the reference and
  // the pinned values; 20 symbols take two words.
  const auto first_20 = [](int faces, const std::vector<int>& pinned) {
    RefDice ref(1, 0, 0);
    DiceStream dice(1, 0, 0);
    std::vector<int> got, want;
    for (int i = 0; i < 20; ++i) {
      got.push_back(faces == 36 ? dice.pair() : dice.d6());
      want.push_back(ref.roll(faces));
    }
    CHECK(got == want);
    CHECK(got == pinned);
    CHECK(dice.words_used() == ref.words());
    CHECK(dice.words_used() == 2);
  };
  SECTION("20 pair faces") { first_20(36, pairs20); }
  SECTION("20 d6 faces") { first_20(6, d6s20); }
  SECTION("pairs and d6 interleaved share the symbol sequence") {
    RefDice ref(1, 0, 0);
    DiceStream dice(1, 0, 0);
    for (int i = 0; i < 40; ++i) {
      if (i % 3 == 0) {
        REQUIRE(dice.d6() == ref.roll(6));
      } else {
        REQUIRE(dice.pair() == ref.roll(36));
      }
    }
    CHECK(dice.words_used() == ref.words());
  }
}

TEST_CASE("rng: a rejected word is skipped whole", "[rng]") {
  // 10^6 dice take 10^5 words and see about 8 rejected ones; the stream must match throughout
  RefDice ref(3, 5, 7);
  DiceStream dice(3, 5, 7);
  for (int i = 0; i < 500000; ++i) {
    REQUIRE(dice.pair() == ref.roll(36));
    REQUIRE(dice.d6() == ref.roll(6));
  }
  INFO("rejections " << ref.rejections);
  CHECK(ref.rejections > 0);
  CHECK(dice.words_used() == ref.words());
}

TEST_CASE("rng: symbols from the split of one word", "[rng]") {
  // 0 is rejected (remainder 0); the largest word gives 35s until the remainder runs out
  std::uint8_t out[kSymbolsPerWord];
  CHECK_FALSE(split_word(std::uint64_t{0}, out));
  CHECK(split_word(~std::uint64_t{0}, out));
  CHECK(out[0] == 35);
  // w = 2^63: the first digit is 18 (36 / 2), then 0s with remainder 0: rejected
  CHECK_FALSE(split_word(std::uint64_t{1} << 63, out));
  CHECK(out[0] == 18);
  CHECK(out[1] == 0);
  CHECK(kRejectBelow == 1424743591837696ull);
}

/// Chi-square statistic of counts against equal expectations.
template <std::size_t N>
double chi_square(const std::array<std::uint64_t, N>& count, std::uint64_t draws) {
  const double expected = static_cast<double>(draws) / N;
  double chi2 = 0.0;
  for (auto c : count) chi2 += (static_cast<double>(c) - expected) * (static_cast<double>(c) - expected) / expected;
  return chi2;
}

TEST_CASE("rng: 10^8 dice pass chi-square and serial checks at p = 1e-6", "[rng][statistical]") {
  // Four checks, each at p = 2.5e-7 (Bonferroni for p = 1e-6 overall). Critical values:
  // chi-square 5 dof 38.89, 35 dof 94.20; |z| 5.158 (scipy.stats chi2.isf, norm.isf).
  constexpr std::uint64_t kDraws = 100'000'000;
  SECTION("d6: 6 cells; consecutive d6: 36 cells; lag-1 correlation") {
    DiceStream dice(2, 0, 0);
    std::array<std::uint64_t, 6> single{};
    std::array<std::uint64_t, 36> consecutive{};
    double sum_xy = 0.0;
    std::uint64_t sum_x = 0;
    int prev = dice.d6();
    ++single[static_cast<std::size_t>(prev)];
    for (std::uint64_t i = 1; i < kDraws; ++i) {
      const int d = dice.d6();
      ++single[static_cast<std::size_t>(d)];
      if (i % 2 == 1) ++consecutive[static_cast<std::size_t>(prev * 6 + d)];  // disjoint pairs
      sum_xy += static_cast<double>((prev - 2.5) * (d - 2.5) * 4);            // exact in doubles (odd*odd)
      sum_x += static_cast<std::uint64_t>(d);
      prev = d;
    }
    const double chi_single = chi_square(single, kDraws);
    const double chi_consecutive = chi_square(consecutive, kDraws / 2);
    // Lag-1 serial correlation of centred dice: r = sum (x_i - 2.5)(x_{i+1} - 2.5) / (n var),
    // var = 35/12; under independence r * sqrt(n) is standard normal.
    const double n = static_cast<double>(kDraws - 1);
    const double r = sum_xy / 4.0 / (n * 35.0 / 12.0);
    INFO("chi2 d6 = " << chi_single << ", chi2 consecutive = " << chi_consecutive << ", z serial = " << r * std::sqrt(n)
                      << ", mean = " << static_cast<double>(sum_x) / n);
    CHECK(chi_single < 38.89);
    CHECK(chi_consecutive < 94.20);
    CHECK(std::abs(r * std::sqrt(n)) < 5.158);
  }
  SECTION("ordered pairs: 36 cells") {
    DiceStream dice(1, 0, 0);
    std::array<std::uint64_t, 36> count{};
    for (std::uint64_t i = 0; i < kDraws; ++i) ++count[static_cast<std::size_t>(dice.pair())];
    const double chi2 = chi_square(count, kDraws);
    INFO("chi2 = " << chi2);
    CHECK(chi2 < 94.20);
  }
}
