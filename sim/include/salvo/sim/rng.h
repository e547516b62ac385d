#pragma once
/// salvo/sim/rng.h — the generator and the dice of the Monte Carlo engine.
///
/// Randomness is addressed, not carried: each lane of a block of trials draws from a stream
/// whose state is derived from (seed, situation key, stream number) only (see stream_state).
/// The dice are ours: ten exactly unbiased base-36 symbols per 64-bit output, pinned by
/// known-answer tests.

#include <array>
#include <cstdint>

namespace salvo::sim {

/// SplitMix64 output function (Steele, Lea, Flood 2014; Vigna's splitmix64.c): a bijective
/// 64-bit mixer of x + golden gamma. mix64(x) is the SplitMix64 output for state x before its step.
constexpr std::uint64_t mix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// SplitMix64 generator: 64-bit state, used to expand a key into a xoshiro state.
class SplitMix64 {
 public:
  constexpr explicit SplitMix64(std::uint64_t state) : state_(state) {}
  /// Next 64-bit output (identical to the reference splitmix64.c next()).
  constexpr std::uint64_t next() {
    const std::uint64_t out = mix64(state_);
    state_ += 0x9e3779b97f4a7c15ull;
    return out;
  }

 private:
  std::uint64_t state_;
};

/// xoshiro256++ 1.0 (Blackman, Vigna 2019): 256-bit state, 64-bit outputs, period 2^256 - 1.
class Xoshiro256pp {
 public:
  using State = std::array<std::uint64_t, 4>;
  /// The state must not be all zero (stream_state never returns it).
  constexpr explicit Xoshiro256pp(const State& s) : s_(s) {}

  /// Next 64-bit output (identical to the reference xoshiro256plusplus.c next()).
  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  constexpr const State& state() const { return s_; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  State s_;
};

/// The xoshiro256++ state of one dice stream:
///   key = mix64(seed ^ mix64(situation_key ^ mix64(stream)))
///   state = the first four outputs of SplitMix64(key).
/// Changing any one of the three keys while holding the others gives a different key (each
/// step is a bijection); the four SplitMix64 outputs are distinct, so the state is never zero.
/// The Monte Carlo engine numbers the streams of a block's lanes block * kLanes + lane.
std::array<std::uint64_t, 4> stream_state(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t stream);

/// Dice symbols: one 64-bit generator output gives kSymbolsPerWord base-36 digits by
/// repeated multiply-shift (r * 36 = digit * 2^64 + r'), most significant digit first. The
/// word is accepted when the final remainder r' >= 2^64 mod 36^10, which makes the ten digits
/// exactly uniform and independent (Lemire's nearly divisionless method, batched; rejection
/// probability 7.7e-5). A rejected word's digits are all discarded.
inline constexpr int kSymbolsPerWord = 10;
inline constexpr std::uint64_t kSymbolSpan = 3656158440062976ull;               ///< 36^10
inline constexpr std::uint64_t kRejectBelow = (0 - kSymbolSpan) % kSymbolSpan;  ///< 2^64 mod 36^10

/// r * 36 = (returned high word) * 2^64 + (new r): one 64 x 64 -> 128-bit multiplication.
constexpr std::uint32_t mul36_high(std::uint64_t& r) {
  __extension__ using U128 = unsigned __int128;
  const U128 p = static_cast<U128>(r) * 36u;
  r = static_cast<std::uint64_t>(p);
  return static_cast<std::uint32_t>(p >> 64);
}

/// Split one generator output into kSymbolsPerWord symbols 0..35; false if it is rejected.
template <class Out>
constexpr bool split_word(std::uint64_t r, Out* out) {
  for (int i = 0; i < kSymbolsPerWord; ++i) out[i] = static_cast<Out>(mul36_high(r));
  return r >= kRejectBelow;
}

/// Dice drawn exactly unbiased from a xoshiro256++ stream, as a sequence of symbols 0..35.
///
/// Every roll takes the next symbol: an ordered pair is the symbol itself (colored = s / 6 + 1,
/// white = s % 6 + 1); a single d6 is s / 6 (the white die of that symbol is not used). So the
/// stream is the same whatever mix of pairs and d6 the rules ask for.
class DiceStream {
 public:
  /// Stream number `stream` of situation `situation_key` under `seed`.
  DiceStream(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t stream)
      : gen_(stream_state(seed, situation_key, stream)) {}
  /// A stream from an explicit generator state (tests, benchmarks).
  explicit DiceStream(const Xoshiro256pp::State& state) : gen_(state) {}

  /// The next symbol 0..35.
  int symbol() {
    if (next_ == kSymbolsPerWord) refill();
    return buf_[static_cast<std::size_t>(next_++)];
  }
  /// An ordered 2d6: face index 0..35; colored = face / 6 + 1, white = face % 6 + 1.
  int pair() { return symbol(); }
  /// One d6: face index 0..5 (the dr is face + 1).
  int d6() { return symbol() / 6; }
  /// 64-bit generator outputs consumed so far.
  std::uint64_t words_used() const { return words_; }

 private:
  void refill() {
    do ++words_;
    while (!split_word(gen_.next(), buf_.data()));
    next_ = 0;
  }

  Xoshiro256pp gen_;
  std::array<std::uint8_t, kSymbolsPerWord> buf_{};
  std::uint64_t words_ = 0;
  int next_ = kSymbolsPerWord;
};

}  // namespace salvo::sim
