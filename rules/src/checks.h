#pragma once
// rules/src/checks.h — what the rulesets' situation checks share: a refusal of one key, and the
// first key set of those a situation must leave out. Private to salvo::rules.

#include <optional>
#include <span>
#include <string>
#include <utility>

#include "salvo/core/rules.h"

namespace salvo {

/// The situation key `key` refused with `message`, as the checks return it.
inline std::optional<RulesError> refusal(const char* key, std::string message) {
  return RulesError(key, std::move(message));
}

/// Whether a situation sets a key, and the key.
using KeyUse = std::pair<bool, const char*>;

/// The first key of `keys` that is set, refused with `message`; nothing if none is.
inline std::optional<RulesError> refuse_first_set(std::span<const KeyUse> keys, const std::string& message) {
  for (const auto& [set, key] : keys)
    if (set) return RulesError(key, message);
  return std::nullopt;
}

}  // namespace salvo
