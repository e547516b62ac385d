#pragma once
// The message an input is refused with, for the tests that pin exact messages.

#include <string>

namespace salvo::test {

/// What a test gets when nothing was thrown.
inline const std::string kNoError = "(loaded without error)";

/// The what() of the `Error` that `f()` throws; kNoError if it throws none (any other exception
/// escapes, and fails the test).
template <class Error, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return kNoError;
}

}  // namespace salvo::test
