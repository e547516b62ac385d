#!/usr/bin/env bash
# Build salvo (Release) and run the whole test suite: the command CI runs.
# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer: scripts/sanitize.sh address.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
build=${SALVO_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
