#!/usr/bin/env bash
# `salvo odds --format html` renders in headless Chromium: the screenshot has the window's
# dimensions and is not blank; the page is self-contained (no external URL) and carries the
# charts inline, the explain trail with rule numbers and the provenance. Skips (77) without
# chromium or matplotlib.
set -euo pipefail
salvo=$1 src=$2
chromium=${SALVO_CHROMIUM:-/usr/bin/chromium}
py=${SALVO_PYTHON:-/usr/bin/python3}
[[ -x $chromium ]] || { echo "SKIP: no $chromium (scripts/setup.sh installs chromium)"; exit 77; }
"$py" -c 'import matplotlib' 2>/dev/null || { echo "SKIP: $py has no matplotlib"; exit 77; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$salvo" odds "$src/examples/sweep-range.toml" --format html -o "$out/page.html"
page="$out/page.html"
for want in '<svg' 'C5.9' 'Provenance' 'rules data' 'P(kill)' '</html>'; do
  grep -qF "$want" "$page" || { echo "FAILED: page lacks $want"; exit 1; }
done
if grep -qE '(src|href)="(https?:)?//' "$page"; then echo "FAILED: page is not self-contained"; exit 1; fi
if grep -q 'Charts unavailable' "$page"; then echo "FAILED: charts missing"; exit 1; fi
# A fight's page: who wins by each game turn, as a chart.
"$salvo" odds "$src/examples/fights/sherman-vs-panther.toml" --format html -o "$out/fight.html"
grep -qF 'Who wins, turn by turn' "$out/fight.html" || { echo "FAILED: fight page lacks its turns chart"; exit 1; }
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$out/profile" --screenshot="$out/page.png" --window-size=1200,1600 \
  "file://$page" >/dev/null 2>&1
"$py" "$src/tests/analysis/check_png.py" "$out/page.png" --width 1200 --height 1600
echo "html ok"
