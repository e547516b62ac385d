#pragma once
/// salvo/core/hash.h — the one hash salvo uses for provenance and de-duplication: 64-bit FNV-1a.
///
/// Every hash printed in an output (rules data, compiled programs, 1943 charts) goes through
/// Fnv1a, so a value means the same thing wherever it appears.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace salvo {

inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
inline constexpr std::uint64_t kFnvPrime = 1099511628211ull;

/// 64-bit FNV-1a over bytes, fed piece by piece.
struct Fnv1a {
  std::uint64_t h = kFnvOffset;

  /// Mix `n` raw bytes.
  void bytes(const void* data, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= kFnvPrime;
    }
  }
  /// Mix a trivially copyable value's object representation (a fixed-width type: a size goes
  /// through size(), so that the hash is the same where size_t has 4 bytes).
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    static_assert(!std::is_same_v<T, std::size_t> || sizeof(std::size_t) == 8, "hash a size with size()");
    bytes(&v, sizeof v);
  }
  /// Mix an integer as 8 bytes, least significant first (the same on every platform).
  void i64(std::int64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<std::uint64_t>(v >> (8 * i)) & 0xff;
      h *= kFnvPrime;
    }
  }
  /// Mix a size or count as 8 bytes (as a 64-bit size_t's value() always did).
  void size(std::size_t n) { i64(static_cast<std::int64_t>(n)); }
  /// Mix a string: its length (size()), then its bytes.
  void str(std::string_view s) {
    size(s.size());
    bytes(s.data(), s.size());
  }
};

/// One FNV-1a step over a whole 64-bit word: combines hashes (h ^ word) * prime. Cheaper than
/// byte-wise mixing where the words are themselves hashes or packed keys.
constexpr std::uint64_t fnv_word(std::uint64_t h, std::uint64_t word) { return (h ^ word) * kFnvPrime; }

}  // namespace salvo
