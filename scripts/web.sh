#!/usr/bin/env bash
# Build the WebAssembly module into build-web/ (SALVO_WEB; emscripten installed by
# scripts/setup.sh --web if missing): build-web/salvo_web.js, the .wasm inlined. Extra arguments
# go to cmake configure. Then, with tests/web/check_web.mjs, compare it with build/salvo.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" --web
build=${SALVO_WEB_BUILD_DIR:-$root/build-web}
# Debian's emscripten runs its optimizer on the Node.js on PATH; a Node.js other than Debian's
# (20 here) finds Debian's acorn only through NODE_PATH.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALVO_WEB=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
