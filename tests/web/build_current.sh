#!/usr/bin/env bash
# The web tests' setup: bring BUILD_WEB (scripts/web.sh's build) up to date with the sources, so
# that no check runs against a module or page built from older sources. An incremental build:
# seconds when nothing changed. Skips (77) when there is no such build (never under CI=true).
set -euo pipefail
build=$1
if [[ ! -f $build/CMakeCache.txt ]]; then
  if [[ ${CI:-} == true ]]; then echo "FAILED: no $build (scripts/test.sh builds it with scripts/web.sh)"; exit 1; fi
  echo "SKIP: no $build (build it with scripts/web.sh)"
  exit 77
fi
# Debian's emscripten runs its optimizer on the Node.js on PATH (scripts/web.sh says why).
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
cmake --build "$build" -j"$(nproc)"
