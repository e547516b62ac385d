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
for c in range heatmap outcomes hits; do
  test -s "$out/$c.svg" && grep -q '<svg' "$out/$c.svg" || { echo "FAILED: $c.svg"; exit 1; }
done
grep -q 'P(kill)' "$out/range.svg" || { echo "FAILED: range.svg has no P(kill) axis"; exit 1; }
"$py" "$src/tests/analysis/check_png.py" "$out"/{range,heatmap,outcomes,hits}.png
# A missing script is a clear error, not a crash
if SALVO_CHART_SCRIPT=/nonexistent/chart.py "$salvo" chart range "$src/examples/sweep-range.toml" \
     --x fire.range --out "$out/x" 2>"$out/err"; then echo "FAILED: missing script accepted"; exit 1; fi
grep -q 'chart' "$out/err" || { echo "FAILED: no message for a missing script"; cat "$out/err"; exit 1; }
echo "charts ok"
