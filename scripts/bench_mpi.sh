#!/usr/bin/env bash
# The cost of MPI and the weak scaling of a sweep, on this machine, in one run (docs/scale.md):
#  1. B1 (examples/bench/b1.toml), Monte Carlo of TRIALS trials (default 10^10): one process
#     with 2 threads against mpirun -n 2 with 1 thread a rank;
#  2. weak scaling of a Monte Carlo sweep (examples/sweep-range.toml, 12 situations): 1 rank with
#     T trials a situation against 2 ranks with 2T (the same work per rank);
#  3. weak scaling of an exact sweep: examples/bench/sweep10k.toml (10,000 situations) on 1 rank
#     against the same sweep over 100 ranges (20,000) on 2 ranks;
#  4. the bytes one reduction adds up for B1 (from a shard file's tallies).
# Builds salvo with SALVO_WITH_MPI=ON into build-mpi-bench/ (or the build dir given).
# Usage: scripts/bench_mpi.sh [build-dir] [trials]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-mpi-bench}"
trials="${2:-10000000000}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALVO_WITH_MPI=ON -DSALVO_BUILD_TESTS=OFF \
  -DSALVO_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target salvo >/dev/null
salvo="$build/salvo"
mpi=(mpirun --oversubscribe --bind-to none)
if [[ $(id -u) -eq 0 ]]; then mpi+=(--allow-run-as-root); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"

echo "machine:  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "salvo:    $("$salvo" --version); $(mpirun --version | head -1)"

# wall LABEL COMMAND...: run it, print its wall time and the CPU time (user + system) of it and
# its children, in seconds ($last: the wall time, $cpu: the CPU time)
wall() {
  local label=$1
  shift
  local TIMEFORMAT='%R %U %S' times
  times=$({ time "$@" >"$work/out" 2>"$work/err"; } 2>&1) || { echo "$label: failed: $(cat "$work/err")"; exit 1; }
  read -r last user sys <<<"$times"
  cpu=$(calc "$user + $sys")
  printf '%-58s %8.2f s wall %8.2f s cpu\n' "$label" "$last" "$cpu"
}
calc() { awk "BEGIN { print $1 }"; }
ratio() { printf '%-58s %8.3f\n' "$1" "$(calc "$2 / $3")"; }

echo
echo "1. B1, Monte Carlo, $trials trials (best of 2, alternating)"
b1=examples/bench/b1.toml
best_one=999999 best_two=999999 cpu_one=999999 cpu_two=999999
for rep in 1 2; do
  wall "   one process, 2 threads (run $rep)" "$salvo" odds $b1 --method mc --trials "$trials" --threads 2
  cp "$work/out" "$work/one.txt"
  best_one=$(calc "$last < $best_one ? $last : $best_one")
  cpu_one=$(calc "$cpu < $cpu_one ? $cpu : $cpu_one")
  wall "   mpirun -n 2, 1 thread a rank (run $rep)" "${mpi[@]}" -n 2 "$salvo" odds $b1 --method mc --trials "$trials" --threads 1
  best_two=$(calc "$last < $best_two ? $last : $best_two")
  cpu_two=$(calc "$cpu < $cpu_two ? $cpu : $cpu_two")
done
# The tables, but for the method line's "2 ranks × 1 thread" / "2 threads"
strip() { sed -E 's/([0-9]+ ranks × )?[0-9]+ threads?, 95%/95%/' "$1"; }
cmp -s <(strip "$work/out") <(strip "$work/one.txt") &&
  echo "   tables identical (but for the ranks and threads in the method line)" || echo "   TABLES DIFFER"
wall "   mpirun -n 2 /bin/true (MPI start and end alone)" "${mpi[@]}" -n 2 /bin/true
start=$last
ratio "   2 ranks x 1 thread / 1 process x 2 threads (wall)" "$best_two" "$best_one"
ratio "   2 ranks x 1 thread / 1 process x 2 threads (cpu)" "$cpu_two" "$cpu_one"
printf '%-58s %8.3g\n' "   trials per second, one process x 2 threads" "$(calc "$trials / $best_one")"

echo
echo "2. weak scaling, Monte Carlo sweep (12 situations), 1 thread a rank"
sweep=examples/sweep-range.toml
wall "   mpirun -n 1, 10^8 trials a situation" "${mpi[@]}" -n 1 "$salvo" odds $sweep --method mc --trials 100000000 --threads 1
one=$last
wall "   mpirun -n 2, 2x10^8 trials a situation" "${mpi[@]}" -n 2 "$salvo" odds $sweep --method mc --trials 200000000 --threads 1
ratio "   efficiency (time 1 rank / time 2 ranks)" "$one" "$last"

echo
echo "3. weak scaling, exact sweep, 1 thread a rank"
sed 's/^"fire.range" = \[.*\]$/"fire.range" = [SEQ]/' examples/bench/sweep10k.toml |
  sed "s/\[SEQ\]/[$(seq -s ', ' 1 100)]/" >"$work/sweep20k.toml"
wall "   plain salvo, 10,000 situations" "$salvo" odds examples/bench/sweep10k.toml --format csv --threads 1
wall "   mpirun -n 1, 10,000 situations" "${mpi[@]}" -n 1 "$salvo" odds examples/bench/sweep10k.toml --format csv --threads 1
one=$last
wall "   mpirun -n 2, 20,000 situations" "${mpi[@]}" -n 2 "$salvo" odds "$work/sweep20k.toml" --format csv --threads 1
ratio "   efficiency (time 1 rank / time 2 ranks)" "$one" "$last"
ratio "   efficiency less MPI start (mpirun -n 2 /bin/true)" "$(calc "$one - $start")" "$(calc "$last - $start")"

echo
echo "4. one reduction for B1"
"$salvo" odds $b1 --method mc --trials 65536 --shard 1/1 -o "$work/shard.json"
/usr/bin/python3 - "$work/shard.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["situations"][0]["tallies"]
n = 2 + sum(len(v) for w in (t["first"], t["run"]) for v in w.values())
print(f"   {n} tallies + 1 stop flag = {8 * (n + 1)} bytes a situation and round (MPI_Allreduce, uint64)")
PY
