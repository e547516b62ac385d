#!/usr/bin/env bash
# The command CI runs: build salvo (Release) and the WebAssembly module and page (scripts/web.sh,
# so the browser tests never skip and never see an old module), run the whole test suite, then
# build and run the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (scripts/sanitize.sh address, in build-asan/; without the browser tests).
# SALVO_SKIP_SANITIZE=1 stops after the Release suite: a quicker local run (CI never sets it).
# The Release build has MPI (SALVO_WITH_MPI=ON, Open MPI from scripts/setup.sh), so the suite runs
# salvo odds under mpirun -n 2 and -n 3 (tests/mpi/check_mpi.sh); the sanitizer build has not
# (Open MPI's own allocations are not this project's to check), and skips those tests.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh" -DSALVO_WITH_MPI=ON
"$root/scripts/web.sh"
build=${SALVO_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
if [[ ${SALVO_SKIP_SANITIZE:-} == 1 ]]; then
  echo "test.sh: SALVO_SKIP_SANITIZE=1: the AddressSanitizer + UBSan suite was not run" >&2
  exit 0
fi
"$root/scripts/sanitize.sh" address
