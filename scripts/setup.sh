#!/usr/bin/env bash
# Install the Debian packages salvo needs, only those missing. Idempotent; run as root
# (or with sudo available). Nothing is downloaded at build time.
#   scripts/setup.sh         the native build, its tests and tools
#   scripts/setup.sh --web   also emscripten, for the WebAssembly module (scripts/web.sh)
set -euo pipefail

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
  chromium  # tests/analysis/check_html.sh: the HTML report rendered headless
  clang libclang-rt-14-dev llvm  # scripts/fuzz.sh: libFuzzer, and llvm-symbolizer for reports
)
if ((web)); then
  packages+=(emscripten)  # scripts/web.sh: em++, emcmake, embind (uses the Node.js on PATH)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
