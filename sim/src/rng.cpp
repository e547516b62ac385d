#include "salvo/sim/rng.h"

namespace salvo::sim {

std::array<std::uint64_t, 4> stream_state(std::uint64_t seed, std::uint64_t situation_key, std::uint64_t stream) {
  // Hash the three keys into one 64-bit key
  const std::uint64_t key = mix64(seed ^ mix64(situation_key ^ mix64(stream)));
  // Expand the key into a xoshiro256++ state with SplitMix64 (as the xoshiro authors advise)
  SplitMix64 sm(key);
  std::array<std::uint64_t, 4> s{};
  for (auto& w : s) w = sm.next();
  return s;
}

}  // namespace salvo::sim
