#pragma once
/// salvo/sim/rng.h — the generator and the dice of the Monte Carlo engine.
///
/// Randomness is addressed, not carried: a block of trials draws from a stream whose state is
/// derived from (seed, situation key, block index) only (see stream_state). The dice are ours:
/// exactly unbiased extraction from 16-bit chunks, pinned by known-answer tests.

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

/// The xoshiro256++ state of the stream for one block of trials:
///   key = mix64(seed ^ mix64(situation_key ^ mix64(block)))
///   state = the first four outputs of SplitMix64(key).
/// Changing any one of the three keys while holding the others gives a different key (each
/// step is a bijection); the four SplitMix64 outputs are distinct, so the state is never zero.
std::array<std::uint64_t, 4> stream_state(std::uint64_t seed, std::uint64_t situation_key,
                                          std::uint64_t block);

/// Dice drawn exactly unbiased from a xoshiro256++ stream.
///
/// Each 64-bit output is split into four 16-bit chunks, low chunk first. A die with n faces
/// takes the next chunk c: m = c * n; the face is m >> 16 unless (m & 0xffff) < 65536 % n, in
/// which case the chunk is rejected and the next one is taken (Lemire 2019, with 16-bit words).
/// Chunks are never shared between draws, so a die uses one chunk except on rejection
/// (probability 16/65536 for a pair, 4/65536 for a d6).
class DiceStream {
 public:
  /// The stream of block `block` of situation `situation_key` under `seed`.
  DiceStream(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t block)
      : gen_(stream_state(seed, situation_key, block)) {}
  /// A stream from an explicit generator state (tests, benchmarks).
  explicit DiceStream(const Xoshiro256pp::State& state) : gen_(state) {}

  /// An ordered 2d6: face index 0..35; colored = face / 6 + 1, white = face % 6 + 1.
  int pair() { return draw(36u, 65536u % 36u); }
  /// One d6: face index 0..5 (the dr is face + 1).
  int d6() { return draw(6u, 65536u % 6u); }
  /// 64-bit generator outputs consumed so far.
  std::uint64_t words_used() const { return words_; }

 private:
  int draw(std::uint32_t n, std::uint32_t threshold) {
    for (;;) {
      // Refill the chunk buffer from the generator
      if (chunks_left_ == 0) {
        buffer_ = gen_.next();
        chunks_left_ = 4;
        ++words_;
      }
      // Multiply-shift the next 16-bit chunk; reject the low biased slice
      const auto chunk = static_cast<std::uint32_t>(buffer_ & 0xffffu);
      buffer_ >>= 16;
      --chunks_left_;
      const std::uint32_t m = chunk * n;
      if ((m & 0xffffu) >= threshold) return static_cast<int>(m >> 16);
    }
  }

  Xoshiro256pp gen_;
  std::uint64_t buffer_ = 0;
  std::uint64_t words_ = 0;
  int chunks_left_ = 0;
};

}  // namespace salvo::sim
