#!/usr/bin/env bash
# Charts made by `salvo chart` from the shipped examples: PNG and SVG written, PNG of sane
# dimensions and not blank. Skips (77) when /usr/bin/python3 lacks matplotlib.
set -euo pipefail
salvo=$1 src=$2
py=${SALVO_PYTHON:-/usr/bin/python3}
if ! "$py" -c 'import matplotlib' 2>/dev/null; then
  echo "SKIP: $py has no matplotlib (scripts/setup.sh installs python3-matplotlib)"; exit 77
fi
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$salvo" chart range "$src/examples/sweep-range.toml" --x fire.range --out "$out/range"
"$salvo" chart heatmap "$src/examples/sweep-range.toml" --x fire.range --y target.facing \
  --method mc --trials 20000 --out "$out/heatmap.png"
"$salvo" chart outcomes "$src/examples/sweep-range.toml" --out "$out/outcomes"
"$salvo" chart hits "$src/examples/sherman75-vs-panther.toml" --method mc --trials 20000 --out "$out/hits"
# A fight: who wins, as stacked bars; its shots hit several targets, so no hits chart.
"$salvo" chart outcomes "$src/examples/fights/sherman-vs-panther.toml" "$src/examples/fights/panther-first.toml" \
  --out "$out/fight"
grep -q 'A wins' "$out/fight.svg" && grep -q 'Who wins' "$out/fight.svg" ||
  { echo "FAILED: fight.svg has no 'A wins' bars or 'Who wins' title"; exit 1; }
"$py" "$src/tests/analysis/check_png.py" "$out/fight.png"
# Who wins by each game turn: exact, and by Monte Carlo with its bands.
"$salvo" chart turns "$src/examples/fights/sherman-vs-panther.toml" "$src/examples/fights/panther-first.toml" \
  --out "$out/turns"
"$salvo" chart turns "$src/examples/fights/sherman-vs-panther.toml" --method mc --trials 20000 --out "$out/turns-mc"
for f in turns turns-mc; do
  grep -q 'Who wins, turn by turn' "$out/$f.svg" && grep -q 'B wins' "$out/$f.svg" && grep -q 'game turn' "$out/$f.svg" ||
    { echo "FAILED: $f.svg has no 'Who wins, turn by turn' title, 'B wins' line or game turn axis"; exit 1; }
  "$py" "$src/tests/analysis/check_png.py" "$out/$f.png"
done
for c in range heatmap outcomes hits; do
  test -s "$out/$c.svg" && grep -q '<svg' "$out/$c.svg" || { echo "FAILED: $c.svg"; exit 1; }
done
grep -q 'P(kill)' "$out/range.svg" || { echo "FAILED: range.svg has no P(kill) axis"; exit 1; }
"$py" "$src/tests/analysis/check_png.py" "$out"/{range,heatmap,outcomes,hits}.png
# A missing script or interpreter is a clear error and exit 4 (the output cannot be produced),
# not a crash and not "bad input"; a sweep key the data lacks is bad input (exit 2).
set +e
SALVO_CHART_SCRIPT=/nonexistent/chart.py "$salvo" chart range "$src/examples/sweep-range.toml" \
  --x fire.range --out "$out/x" 2>"$out/err"
rc=$?
[[ $rc == 4 ]] || { echo "FAILED: missing script: exit $rc, expected 4"; exit 1; }
grep -qx 'salvo: chart: cannot find /nonexistent/chart.py (SALVO_CHART_SCRIPT)' "$out/err" ||
  { echo "FAILED: message for a missing script"; cat "$out/err"; exit 1; }
SALVO_PYTHON=/nonexistent/python3 "$salvo" chart range "$src/examples/sweep-range.toml" \
  --x fire.range --out "$out/x" 2>"$out/err"
rc=$?
[[ $rc == 4 ]] || { echo "FAILED: missing python: exit $rc, expected 4"; cat "$out/err"; exit 1; }
"$salvo" chart range "$src/examples/sweep-range.toml" --x fire.nosuchkey --out "$out/x" 2>"$out/err"
rc=$?
[[ $rc == 2 ]] || { echo "FAILED: unknown sweep key: exit $rc, expected 2"; cat "$out/err"; exit 1; }
"$salvo" chart hits "$src/examples/fights/sherman-vs-panther.toml" --out "$out/x" 2>"$out/err"
rc=$?
[[ $rc == 2 ]] || { echo "FAILED: hits chart of a fight: exit $rc, expected 2"; cat "$out/err"; exit 1; }
grep -q 'counts no hits on one target (a fight): try chart outcomes' "$out/err" ||
  { echo "FAILED: message for a hits chart of a fight"; cat "$out/err"; exit 1; }
"$salvo" chart turns "$src/examples/sherman75-vs-panther.toml" --out "$out/x" 2>"$out/err"
rc=$?
[[ $rc == 2 ]] || { echo "FAILED: turns chart of a situation: exit $rc, expected 2"; cat "$out/err"; exit 1; }
grep -q 'is not a fight: who wins by each game turn is a fight' "$out/err" ||
  { echo "FAILED: message for a turns chart of a situation"; cat "$out/err"; exit 1; }
set -e
echo "charts ok"
