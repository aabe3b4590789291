#!/usr/bin/env python3
"""Checks that the workspace's `rust-version` (its MSRV) is true as far as this machine can tell.

This machine has one Rust toolchain, so the MSRV cannot be built here. What is checked instead:
- every workspace member declares `rust-version` and all declare the same;
- no package in `Cargo.lock`'s dependency graph declares a newer `rust-version` than ours
  (cargo's resolver 3 prefers such versions, but a `cargo update` may bring one in);
- the standard-library APIs our code uses are covered by clippy's `incompatible_msrv` lint,
  which reads the same `rust-version` (CI runs clippy with `-D warnings`).

Usage: python3 scripts/check_msrv.py   (from anywhere in the workspace)
"""

import json
import subprocess
import sys


def version(text):
    """'1.89' or '1.89.0' as a comparable tuple."""
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    members = set(metadata["workspace_members"])
    packages = metadata["packages"]
    ours = {p["name"]: p.get("rust_version") for p in packages if p["id"] in members}
    missing = sorted(name for name, v in ours.items() if not v)
    if missing:
        sys.exit(f"check_msrv: workspace members without rust-version: {', '.join(missing)}")
    declared = set(ours.values())
    if len(declared) != 1:
        sys.exit(f"check_msrv: workspace members declare different rust-versions: {sorted(declared)}")
    msrv = declared.pop()
    newer = sorted(
        f"{p['name']} {p['version']} (rust-version {p['rust_version']})"
        for p in packages
        if p["id"] not in members and p.get("rust_version") and version(p["rust_version"]) > version(msrv)
    )
    if newer:
        sys.exit(f"check_msrv: dependencies need a newer Rust than rust-version {msrv}: {'; '.join(newer)}")
    highest = max(
        (version(p["rust_version"]), p["name"]) for p in packages if p["id"] not in members and p.get("rust_version")
    )
    print(
        f"check_msrv: rust-version {msrv} declared by all {len(ours)} members; "
        f"highest dependency requirement {'.'.join(map(str, highest[0]))} ({highest[1]})"
    )


if __name__ == "__main__":
    main()
