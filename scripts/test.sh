#!/usr/bin/env bash
# Build salvo and run the whole test suite (the command CI runs): first the Release build
# (build/), then the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/, scripts/sanitize.sh address).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
build=${SALVO_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
"$root/scripts/sanitize.sh" address
