#!/usr/bin/env bash
# Workload B1 (examples/bench/b1.toml): the salvo Monte Carlo kernel against the numpy
# baseline (scripts/baseline_numpy.py), in one run on this machine. Builds in Release first.
# Usage: scripts/bench_compare.sh [build-dir] [numpy-trials]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-bench}"
trials="${2:-30000000}"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALVO_WERROR=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target salvo_bench >/dev/null

echo "machine:  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "compiler: $(${CXX:-c++} --version | head -1); flags: -O3 -DNDEBUG (CMake Release), no -march"

json="$(mktemp)"
trap 'rm -f "$json"' EXIT
"$build/bench/salvo_bench" --benchmark_filter='BM_B1_(GenericWalker|FastKernel|MonteCarlo)' \
  --benchmark_min_time=1 --benchmark_format=json >"$json" 2>/dev/null
numpy_line="$(/usr/bin/python3 "$root/scripts/baseline_numpy.py" "$trials" 1)"

/usr/bin/python3 - "$json" "$numpy_line" <<'PY'
import json, re, sys
bench = json.load(open(sys.argv[1]))["benchmarks"]
numpy_line = sys.argv[2]
numpy_rate = float(re.search(r"shots/s = ([0-9.e+]+)", numpy_line).group(1))
print(numpy_line)
print(f"{'kernel':34s} {'shots/s':>12s} {'x numpy':>8s}")
for b in bench:
    rate = b["shots/s"]
    print(f"{b['name']:34s} {rate:12.4g} {rate / numpy_rate:8.1f}")
PY
