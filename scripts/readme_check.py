#!/usr/bin/env python3
"""Check that the example outputs in the README and docs/ are what salvo prints today.

Usage: scripts/readme_check.py [--salvo PATH] [--root DIR] [FILE.md ...]

With no FILE, the README and every docs/*.md under the repository root. A code block preceded
by a line

    <!-- output: build/salvo odds examples/duel-5-turns.toml -->

is an output of that command, run from the repository root (--root, default: this script's
parent directory) with `build/salvo` (or a leading
`salvo`) replaced by PATH (default: build/salvo). Every line of the block, trailing spaces
removed, must appear in the command's output in the same order (the block may leave lines out,
so an excerpt is fine); a `$ ` line (the command as typed), a `...` line and the `salvo VERSION
(git HASH)` provenance line are skipped, and the thread count on the `method` provenance line
(the machine's cores, 1 without TBB) is not compared. Exit 0 when every block matches, 1
otherwise, naming the file and line of each block and the first line salvo no longer prints.
Standard library only.
"""

import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

MARK = "<!-- output:"


def blocks(lines, name="README"):
    """(line number of the marker, command, [block lines]) for each marked block."""
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith(MARK):
            if not line.endswith("-->"):
                raise SystemExit(f"{name}:{i + 1}: marker must end with -->")
            cmd = line[len(MARK):-3].strip()
            j = i + 1
            if j >= len(lines) or not lines[j].startswith("```"):
                raise SystemExit(f"{name}:{i + 1}: marker not followed by a code block")
            k = j + 1
            body = []
            while k < len(lines) and not lines[k].startswith("```"):
                body.append(lines[k])
                k += 1
            if k == len(lines):
                raise SystemExit(f"{name}:{j + 1}: code block never closed")
            yield i + 1, cmd, body
            i = k
        i += 1


def machine_free(line):
    """`line` with the thread count of a `method` provenance line (the machine's) as N."""
    if line.lstrip().startswith("method "):
        return re.sub(r"\b\d+ threads?\b", "N threads", line)
    return line


def wanted(line):
    s = line.rstrip()
    if s.startswith("$ ") or s.strip() == "..." or "(git " in s:
        return None
    return machine_free(s)


def check(path, salvo, root):
    """(blocks checked, blocks out of date) for one Markdown file."""
    name = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failed = checked = 0
    for at, cmd, body in blocks(lines, name):
        argv = shlex.split(cmd)
        if argv and argv[0] in ("salvo", "build/salvo"):
            argv[0] = salvo
        else:
            print(f"{name}:{at}: the command must start with salvo or build/salvo: {cmd}")
            failed += 1
            continue
        run = subprocess.run(argv, cwd=root, capture_output=True, text=True)
        got = [machine_free(l.rstrip()) for l in (run.stdout + run.stderr).split("\n")]
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
                print(f"{name}:{at + 2 + n}: `{cmd}` no longer prints (in this order):\n  {w}")
                print("  it prints:\n" + "\n".join("    " + g for g in got))
                break
            pos += 1
    return checked, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--salvo", default="build/salvo")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    salvo = os.path.abspath(a.salvo)
    if not os.access(salvo, os.X_OK):
        print(f"readme_check: {a.salvo}: not an executable (build salvo first)", file=sys.stderr)
        return 2
    files = a.files or [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    checked = failed = 0
    for path in files:
        c, f = check(path, salvo, root)
        checked += c
        failed += f
    print(f"readme_check: {checked} example outputs checked in {len(files)} files, {failed} out of date")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
