#!/usr/bin/env bash
# Build the test suite with sanitizers and run it.
# Usage: scripts/sanitize.sh address|thread [ctest options...]
#   address: AddressSanitizer + UndefinedBehaviorSanitizer, no recovery (build-asan/; CI runs it)
#   thread:  ThreadSanitizer (build-tsan/; TBB's own internals are suppressed, see tsan.supp)
# toml++ is compiled from its headers in these builds, so its parser is instrumented too.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kind=${1:-}
shift || true
case $kind in
  address) build=${SALVO_ASAN_BUILD_DIR:-$root/build-asan} ;;
  thread) build=${SALVO_TSAN_BUILD_DIR:-$root/build-tsan} ;;
  *) echo "usage: scripts/sanitize.sh address|thread [ctest options...]" >&2; exit 1 ;;
esac
"$root/scripts/setup.sh"
# Only what the tests need (no benchmarks, no fuzz targets), at -O1 with line tables (-g1):
# every report still names file:line, and each file compiles in about half the time of -O2 -g.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DSALVO_SANITIZE="$kind" \
  -DSALVO_TOML_HEADER_ONLY=ON -DSALVO_BUILD_BENCH=OFF -DSALVO_FUZZ=OFF -DSALVO_WITH_MPI=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"

# Any report fails the test that triggered it (the tests run the instrumented salvo binary too).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan.supp}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
