#!/usr/bin/env bash
# Fuzz salvo's loaders with libFuzzer for a bounded time (not part of CI: run it by hand).
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 600 s, every fuzz/fuzz_*.cpp)
#
# Builds build-fuzz/ with clang (-fsanitize=fuzzer + ASan + UBSan), seeds each target's corpus
# from examples/ and from tests/load/fuzz-regressions/, and runs it. The corpus grows in
# build-fuzz/corpus/TARGET (kept between runs); crashing inputs land in
# build-fuzz/artifacts/TARGET/. Exit status 1 if any target found something: add the input to
# tests/load/fuzz-regressions/ (it then runs in the test suite), fix, and fuzz again.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
seconds=${1:-600}
shift $(($# > 0 ? 1 : 0))
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a positive integer, got $seconds" >&2; exit 1; }
targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in "$root"/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

build=${SALVO_FUZZ_BUILD_DIR:-$root/build-fuzz}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSALVO_FUZZ=ON \
  -DSALVO_BUILD_TESTS=OFF -DSALVO_BUILD_BENCH=OFF -DSALVO_WERROR=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
found=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  artifacts=$build/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  # Seeds: the examples a user starts from, and every input that once crashed a loader.
  case $t in
    fuzz_situation) seeds=("$root"/examples/*.toml) ;;
    fuzz_chart) seeds=("$root"/examples/1943/*chart*.toml "$root"/examples/*chart*.toml) ;;
    *) seeds=() ;;
  esac
  for s in "${seeds[@]}" "$root"/tests/load/fuzz-regressions/"$t"/*; do
    [[ -f $s ]] && cp -f "$s" "$corpus/seed-$(basename "$s")"
  done
  dict=()
  [[ -f $root/fuzz/${t#fuzz_}.dict ]] && dict=(-dict="$root/fuzz/${t#fuzz_}.dict")
  log=$build/$t.log
  echo "fuzz.sh: $t for ${seconds}s (corpus $corpus, log $log)" >&2
  set +e
  "$build/fuzz/$t" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' | tail -1 || true)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 || true)
  n=$(find "$artifacts" -type f | wc -l)
  echo "fuzz.sh: $t: exit $rc, ${runs:-?} runs, $cov, corpus $(find "$corpus" -type f | wc -l) inputs, $n finding(s) in $artifacts" >&2
  if ((rc != 0 || n > 0)); then
    found=1
    grep -E 'ERROR|invariant|SUMMARY' "$log" | head -5 >&2 || true
  fi
done
exit $found
