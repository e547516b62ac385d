#!/usr/bin/env bash
# Build the WebAssembly module and the page into build-web/ (SALVO_WEB; emscripten installed by
# scripts/setup.sh --web if missing): build-web/salvo_web.js (the .wasm inlined) and
# build-web/site/, a folder to serve or to open from disk. Extra arguments go to cmake configure.
#   scripts/web.sh           build
#   scripts/web.sh serve     build, then serve build-web/site on http://127.0.0.1:8000/
#                            (SALVO_WEB_PORT to change the port) with Python's http.server
# The browser tests (CTest "web page: ...") check it against build/salvo.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
serve=0
if [[ ${1:-} == serve ]]; then
  serve=1
  shift
fi
"$root/scripts/setup.sh" --web
build=${SALVO_WEB_BUILD_DIR:-$root/build-web}
# Checked with Debian's emscripten 3.1.6 and Node.js 20: emscripten runs its optimizer on the
# Node.js on PATH, which finds Debian's acorn only through NODE_PATH. A module that loads its
# .wasm by path fails under Node 20 (its fetch has no file: URLs), hence -sSINGLE_FILE
# (web/CMakeLists.txt): one .js file for Node, the page and its worker.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSALVO_WEB=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
if ((serve)); then
  port=${SALVO_WEB_PORT:-8000}
  echo "salvo: serving $build/site on http://127.0.0.1:$port/ (Ctrl-C to stop)"
  exec /usr/bin/python3 -m http.server "$port" --bind 127.0.0.1 --directory "$build/site"
fi
