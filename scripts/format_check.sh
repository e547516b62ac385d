#!/usr/bin/env bash
# Every C++ file git tracks is as clang-format writes it (.clang-format at the root; Debian's
# clang-format 14). Fix: clang-format -i $(git ls-files '*.cpp' '*.h')
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
command -v clang-format >/dev/null || { echo "format_check: clang-format not found (scripts/setup.sh installs it)" >&2; exit 1; }
git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format --dry-run -Werror
echo "format_check: $(git ls-files '*.cpp' '*.h' | wc -l) files as clang-format writes them"
