#!/usr/bin/env bash
# Install the Debian packages salvo needs, only those missing. Idempotent; run as root
# (or with sudo available). Nothing is downloaded at build time.
#   scripts/setup.sh         the native build, its tests and tools
#   scripts/setup.sh --web   also emscripten, for the WebAssembly module and the page
#                            (scripts/web.sh), and the browser tests' npm packages, pinned by
#                            tests/web/package-lock.json (puppeteer-core: it downloads no browser)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

web=0
for arg in "$@"; do
  case $arg in
    --web) web=1 ;;
    *) echo "setup: unknown argument $arg (expected --web)" >&2; exit 1 ;;
  esac
done

packages=(
  build-essential cmake git pkg-config
  libeigen3-dev libboost-dev libtbb-dev libbenchmark-dev catch2
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev librandom123-dev
  libcsv-dev  # salvo::import: the counter listings (CSV)
  libopenmpi-dev openmpi-bin  # salvo odds over MPI ranks (SALVO_WITH_MPI; scripts/test.sh builds it)
  python3-numpy python3-matplotlib
  chromium  # tests/analysis/check_html.sh and tests/web/page_test.mjs: pages rendered headless
  clang-format  # scripts/format_check.sh: one style for every C++ file
  clang libclang-rt-14-dev llvm  # scripts/fuzz.sh: libFuzzer, and llvm-symbolizer for reports
)
if ((web)); then
  packages+=(emscripten)  # scripts/web.sh: em++, emcmake, embind (uses the Node.js on PATH)
  command -v npm >/dev/null || packages+=(npm)  # the browser tests' packages (Node.js comes with it)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The browser tests' npm packages, exactly as locked (npm ci), once per change of the lock file;
# no install scripts run.
if ((web)); then
  tests_web=$root/tests/web
  stamp=$tests_web/node_modules/.salvo-npm-ci
  if [[ ! -f $stamp || $tests_web/package-lock.json -nt $stamp ]]; then
    echo "setup: npm ci in tests/web (puppeteer-core)" >&2
    (cd "$tests_web" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    touch "$stamp"
  fi
fi
