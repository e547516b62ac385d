#pragma once
// Sanitizer builds (tests/CMakeLists.txt defines SALVO_SANITIZED when SALVO_SANITIZE is set) run
// about ten times slower, so the exhaustive checks there take a reduced, representative case
// list: every situation still compiles and solves, the costliest enumerations are cut. The
// Release suite always runs the full lists.

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace salvo::testing {

#ifdef SALVO_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

/// In a sanitizer build, whether `name` is not among `kept`: the case is cut there (how, each
/// test says). Always false in Release.
inline bool cut_when_sanitized(std::string_view name, std::initializer_list<std::string_view> kept) {
  return kSanitized && std::find(kept.begin(), kept.end(), name) == kept.end();
}

/// In a sanitizer build, whether `name` is among `costly`: the case is left to the Release
/// suite. Always false in Release.
inline bool release_only(std::string_view name, std::initializer_list<std::string_view> costly) {
  return kSanitized && std::find(costly.begin(), costly.end(), name) != costly.end();
}

}  // namespace salvo::testing
