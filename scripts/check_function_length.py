#!/usr/bin/env python3
"""Checks that no Rust function in the workspace is longer than a limit (default 80 lines).

A function is counted from its `fn` line to the brace that closes its body, with string
literals and line comments left out of the brace count. Declarations without a body (trait
methods, extern functions) do not count. Long functions are listed, longest first, as
`lines path:line name`; the exit status is 1 when there is one.

Usage: python3 scripts/check_function_length.py [LIMIT]   (from anywhere in the workspace)
"""

import os
import re
import subprocess
import sys

FN = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"C"\s+)?fn\s+(\w+)')
STRING = re.compile(r'"(\\.|[^"\\])*"')


def braces(line):
    """The line's code without string literals and its line comment."""
    return STRING.sub('""', line).split("//")[0]


def function_length(lines, start):
    """Lines from `start` (an `fn` line) to the end of its body; None for a declaration."""
    depth, opened = 0, False
    for end in range(start, len(lines)):
        code = braces(lines[end])
        if not opened and ";" in code and "{" not in code:
            return None
        depth += code.count("{") - code.count("}")
        opened = opened or "{" in code
        if opened and depth <= 0:
            return end - start + 1
    return None


def long_functions(root, limit):
    files = subprocess.run(
        ["git", "-C", root, "ls-files", "*.rs"], check=True, capture_output=True, text=True
    ).stdout.split()
    found = []
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        for start, line in enumerate(lines):
            match = FN.match(line)
            if match:
                length = function_length(lines, start)
                if length is not None and length > limit:
                    found.append((length, path, start + 1, match.group(7)))
    return sorted(found, reverse=True)


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    root = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], check=True, capture_output=True, text=True
    ).stdout.strip()
    found = long_functions(root, limit)
    for length, path, line, name in found:
        print(f"{length:4d} {path}:{line} {name}")
    if found:
        print(f"{len(found)} function(s) longer than {limit} lines: split them", file=sys.stderr)
        return 1
    print(f"check_function_length: no function longer than {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
