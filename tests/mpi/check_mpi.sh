#!/usr/bin/env bash
# salvo odds spread over MPI ranks (mpirun --oversubscribe -n 2 and -n 3) against one process:
# the same table byte for byte once the one field that records the ranks is taken out, for
# Monte Carlo with and without --precision, an exact sweep (rows in order), every format and -o;
# a bad file refused once with exit 2; Ctrl-C (SIGINT to mpirun) and a killed rank leave no
# half-written file. Skipped (77) when salvo was built without MPI or mpirun is missing.
# Usage: check_mpi.sh SALVO SOURCE_DIR WITH_MPI
set -uo pipefail
salvo=$1
src=$2
with_mpi=$3
case ${with_mpi^^} in
  ON | 1 | TRUE | YES) ;;
  *) echo "salvo built without MPI (SALVO_WITH_MPI=$with_mpi): skipped"; exit 77 ;;
esac
command -v mpirun >/dev/null || { echo "no mpirun: skipped"; exit 77; }

mpi=(mpirun --oversubscribe)
# As root (CI), Open MPI needs to be told it may run.
if [[ $(id -u) -eq 0 ]]; then mpi+=(--allow-run-as-root); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The ranks recorded in provenance, taken out: text "2 ranks × 1 thread", JSON "ranks": 2,
# Markdown ", ranks 2", the HTML page "2 ranks × ... (results do not depend on them)".
normalise() {
  sed -E -e 's/[0-9]+ ranks × //' -e '/^  "ranks": [0-9]+,$/d' -e 's/, ranks [0-9]+,/,/' \
    -e 's/do not depend on them/do not depend on it/' "$1"
}

# same NAME RANKS THREADS ARGS...: the table of mpirun -n RANKS with --threads THREADS against
# one process with the same threads
same() {
  local name=$1 ranks=$2 threads=$3
  shift 3
  "$salvo" odds "$@" --threads "$threads" >"$work/one" 2>"$work/one.err" || { fail "$name: one process exited $?"; return; }
  "${mpi[@]}" -n "$ranks" "$salvo" odds "$@" --threads "$threads" >"$work/many" 2>"$work/many.err" ||
    { fail "$name: $ranks ranks exited $?: $(cat "$work/many.err")"; return; }
  if ! cmp -s <(normalise "$work/one") <(normalise "$work/many"); then
    fail "$name: $ranks ranks × $threads threads differ from one process"
    diff <(normalise "$work/one") <(normalise "$work/many") | head -5
    return
  fi
  echo "ok: $name, $ranks ranks × $threads threads"
}

ex=examples/sherman75-vs-panther.toml
sweep=examples/sweep-range.toml
for n in 2 3; do
  # Monte Carlo: 1,000,000 trials are 16 blocks, shared 8/8 and 6/5/5
  same "mc text" $n 1 $ex --method mc --trials 1000000 --seed 7
  same "mc json, 2 threads a rank" $n 2 $ex --method mc --trials 1000000 --seed 7 --format json
  same "mc sweep md" $n 1 $sweep --method mc --trials 200000 --format md
  # --precision: rounds of 2^20, 2^21, ... trials until every half-width <= E; each situation's
  # trial count is in the JSON, so an equal table means an equal count
  same "precision json" $n 1 $sweep --method mc --precision 0.0012 --format json
  # Some situations reach the target after one round (2^20 trials), others after two (3 x 2^20)
  grep -q '"trials": 1048576,' "$work/one" && grep -q '"trials": 3145728,' "$work/one" ||
    fail "precision: expected situations stopping after one and after two rounds"
  same "both csv" $n 1 $sweep --method both --trials 100000 --format csv
  # An exact sweep: 10,000 situations in batches of 256, each batch's solves shared
  same "exact sweep csv" $n 1 examples/bench/sweep10k.toml --format csv
  same "exact sweep json" $n 2 $sweep --format json
done
# --method auto (the default) over ranks: a fight solved exactly beside one over the exact
# engine's limit run by Monte Carlo, in one table
same "auto, exact and Monte Carlo" 2 1 examples/fights/sherman-vs-panther.toml examples/fights/platoon-2v2.toml \
  --trials 100000 --format json
grep -q '"method": "auto"' "$work/one" || fail "auto: expected a run with both engines (\"method\": \"auto\")"
# The ranks are recorded: in the text table's method line and in JSON
"${mpi[@]}" -n 3 "$salvo" odds $ex --method mc --trials 100000 --threads 2 >"$work/many"
grep -q '^  method  Monte Carlo, seed 1, 100,000 trials, 3 ranks × 2 threads, 95% intervals$' "$work/many" ||
  fail "text: the ranks are not recorded: $(sed -n 3p "$work/many")"
"${mpi[@]}" -n 2 "$salvo" odds $sweep --format json >"$work/many"
grep -q '^  "ranks": 2,$' "$work/many" || fail "json: the ranks are not recorded"

# -o: rank 0 writes the file atomically; html too
"$salvo" odds $ex --method both --trials 300000 --threads 1 --format html -o "$work/one.html"
"${mpi[@]}" -n 2 "$salvo" odds $ex --method both --trials 300000 --threads 1 --format html -o "$work/many.html" ||
  fail "html -o: exited $?"
cmp -s <(normalise "$work/one.html") <(normalise "$work/many.html") || fail "html -o: differs from one process"

# A bad file: refused once (rank 0 prints), exit 2
printf 'ruleset = "asl"\n[firer]\nrofx = 1\n' >"$work/bad.toml"
"${mpi[@]}" -q -n 3 "$salvo" odds "$work/bad.toml" --method mc 2>"$work/bad.err" >/dev/null
code=$?
[[ $code -eq 2 ]] || fail "bad file: exit $code, expected 2"
[[ $(grep -c 'rofx: unknown key' "$work/bad.err") -eq 1 ]] || fail "bad file: message not printed once: $(cat "$work/bad.err")"
echo "ok: a bad file refused once, exit 2"

# Another command under mpirun is refused, not run N times
"${mpi[@]}" -q -n 2 "$salvo" explain $ex >"$work/explain" 2>&1
[[ $? -eq 2 ]] && grep -q 'only `salvo odds` is spread' "$work/explain" || fail "explain under mpirun: $(cat "$work/explain")"

# wait_ranks N: until N salvo ranks of this test run have started (and mpirun, whose command
# line holds the same words)
wait_ranks() {
  for _ in $(seq 100); do
    [[ $(pgrep -f -- "odds $ex --method mc --trials 1000000000000 --threads 1 -o $work/out" | wc -l) -gt $1 ]] && return 0
    sleep 0.1
  done
  return 1
}
no_temp() { ! ls -A "$work" | grep -q '\.out\.salvo-'; }

# Ctrl-C: mpirun sends SIGTERM to the ranks (then SIGKILL a second later): the file holds its old
# content or a whole table marked INTERRUPTED, and no temporary file is left
echo old >"$work/out"
"${mpi[@]}" -n 2 "$salvo" odds $ex --method mc --trials 1000000000000 --threads 1 -o "$work/out" 2>/dev/null &
pid=$!
wait_ranks 2 || fail "Ctrl-C: the ranks did not start"
sleep 1
kill -INT $pid
wait $pid
if [[ $(cat "$work/out") != old ]]; then
  grep -q '^INTERRUPTED after [0-9]* trials' "$work/out" && grep -q '^end_out_of_ammo' "$work/out" ||
    fail "Ctrl-C: a partial table: $(head -c 300 "$work/out")"
  echo "ok: Ctrl-C wrote a whole table marked INTERRUPTED"
else
  echo "ok: Ctrl-C left the old file (mpirun's SIGKILL came before the table)"
fi
no_temp || fail "Ctrl-C: a temporary file is left"

# A rank killed: the job fails (non-zero), the file keeps its old content
echo old >"$work/out"
"${mpi[@]}" -q -n 3 "$salvo" odds $ex --method mc --trials 1000000000000 --threads 1 -o "$work/out" 2>/dev/null &
pid=$!
wait_ranks 3 || fail "rank failure: the ranks did not start"
sleep 1
kill -KILL "$(pgrep -f -- "odds $ex --method mc --trials 1000000000000 --threads 1 -o $work/out" | grep -v "^$pid\$" | tail -1)"
wait $pid
code=$?
[[ $code -ne 0 ]] || fail "rank failure: exit 0"
[[ $(cat "$work/out") == old ]] || fail "rank failure: the file was written: $(head -c 300 "$work/out")"
no_temp || fail "rank failure: a temporary file is left"
echo "ok: a killed rank fails the run (exit $code), the old file kept"

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all MPI checks passed"
