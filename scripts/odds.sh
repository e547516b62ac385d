#!/usr/bin/env bash
# Build salvo and print the odds table for a situation file (default: the README example).
# Usage: scripts/odds.sh [FILE.toml] [salvo odds options...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
build=${SALVO_BUILD_DIR:-$root/build}
if (($# == 0)); then set -- "$root/examples/sherman75-vs-panther.toml"; fi
exec "$build/salvo" odds "$@"
