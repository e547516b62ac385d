#!/usr/bin/env python3
"""Check that every Catch2 test name under tests/ is one CTest can run: no ';' (CTest splits a
name on it into two tests that match nothing) and no leading '-' (Catch reads it as an option).

Usage: scripts/test_names_check.py [TESTS_DIR]   (default: tests/ beside this script's folder)
Exit 0 when every name is fine, 1 naming each file:line that is not. Standard library only.
"""
import os
import re
import sys

NAME = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests")
    bad = checked = 0
    for folder, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith((".cpp", ".h")):
                continue
            path = os.path.join(folder, f)
            with open(path, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    for m in NAME.finditer(line):
                        checked += 1
                        name = m.group(1)
                        if ";" in name or name.startswith("-"):
                            bad += 1
                            print(f"{os.path.relpath(path)}:{n}: test name CTest cannot run as one test: {name}")
    print(f"test_names_check: {checked} test names, {bad} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
