#!/usr/bin/env python3
"""Check that the README's example outputs are what salvo prints today.

Usage: scripts/readme_check.py [--salvo PATH] [README]

A README code block preceded by a line

    <!-- output: build/salvo odds examples/duel-5-turns.toml -->

is an output of that command, run from the repository root with `build/salvo` (or a leading
`salvo`) replaced by PATH (default: build/salvo). Every line of the block, trailing spaces
removed, must appear in the command's output in the same order (the block may leave lines out,
so an excerpt is fine); a `$ ` line (the command as typed), a `...` line and the `salvo VERSION
(git HASH)` provenance line are skipped. Exit 0 when every block matches, 1 otherwise, naming
the README line of each block and the first line salvo no longer prints. Standard library only.
"""

import argparse
import os
import shlex
import subprocess
import sys

MARK = "<!-- output:"


def blocks(lines):
    """(line number of the marker, command, [block lines]) for each marked block."""
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith(MARK):
            if not line.endswith("-->"):
                raise SystemExit(f"README:{i + 1}: marker must end with -->")
            cmd = line[len(MARK):-3].strip()
            j = i + 1
            if j >= len(lines) or not lines[j].startswith("```"):
                raise SystemExit(f"README:{i + 1}: marker not followed by a code block")
            k = j + 1
            body = []
            while k < len(lines) and not lines[k].startswith("```"):
                body.append(lines[k])
                k += 1
            if k == len(lines):
                raise SystemExit(f"README:{j + 1}: code block never closed")
            yield i + 1, cmd, body
            i = k
        i += 1


def wanted(line):
    s = line.rstrip()
    if s.startswith("$ ") or s.strip() == "..." or "(git " in s:
        return None
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--salvo", default="build/salvo")
    ap.add_argument("readme", nargs="?", default="README.md")
    a = ap.parse_args()
    root = os.path.dirname(os.path.abspath(a.readme))
    salvo = os.path.abspath(a.salvo)
    if not os.access(salvo, os.X_OK):
        print(f"readme_check: {a.salvo}: not an executable (build salvo first)", file=sys.stderr)
        return 2
    with open(a.readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failed = checked = 0
    for at, cmd, body in blocks(lines):
        argv = shlex.split(cmd)
        if argv and argv[0] in ("salvo", "build/salvo"):
            argv[0] = salvo
        else:
            print(f"README:{at}: the command must start with salvo or build/salvo: {cmd}")
            failed += 1
            continue
        run = subprocess.run(argv, cwd=root, capture_output=True, text=True)
        got = [l.rstrip() for l in (run.stdout + run.stderr).split("\n")]
        checked += 1
        pos = 0
        for n, line in enumerate(body):
            w = wanted(line)
            if w is None:
                continue
            while pos < len(got) and got[pos] != w:
                pos += 1
            if pos == len(got):
                failed += 1
                print(f"README:{at + 2 + n}: `{cmd}` no longer prints (in this order):\n  {w}")
                print("  it prints:\n" + "\n".join("    " + g for g in got))
                break
            pos += 1
    print(f"readme_check: {checked} example outputs checked, {failed} out of date")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
