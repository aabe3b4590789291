#!/usr/bin/env bash
# The portable release build: the orchestrator and our FMU libraries linked against the symbol
# versions of glibc 2.17 (as Python's manylinux2014), so that they load on RHEL/Rocky 8 and 9 and
# any other x86_64 Linux with glibc 2.17 or newer. A plain `cargo build` links against the build
# machine's glibc (2.36 here: the binaries then need 2.34/2.35 and do not load on older systems).
#
# The linker is zig (PyPI `ziglang`, which ships the zig binary and stub libraries of each glibc
# version) driven by cargo-zigbuild (PyPI wheel), both installed into target/venv; no rustup
# target is needed (the host's x86_64-unknown-linux-gnu standard library is used).
#
# Writes target/portable/: `orchestrator`, the FMU libraries `lib<Model>.so` beside it (where the
# orchestrator looks for them) and `fmus/<Model>.fmu`, packaged from those libraries. The folder
# can be copied as a whole to another machine. scripts/test.sh runs this and tests these FMUs.
set -euo pipefail
cd "$(dirname "$0")/.."

# The oldest glibc the output runs on; tests/python/test_glibc.py checks the binaries against it.
glibc=2.17
triple=x86_64-unknown-linux-gnu
out=target/portable

if [ ! -x target/venv/bin/python ]; then
    python3 -m venv target/venv
fi
target/venv/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/portable-requirements.txt

# cargo-zigbuild runs zig as `python3 -m ziglang` from PATH: the venv's python first.
# '*-fmu' selects every FMU library crate (fuselage-fmu, rotor-fmu, ..., system-fmu).
PATH="$PWD/target/venv/bin:$PATH" cargo zigbuild --release --target "$triple.$glibc" -p orchestrator -p '*-fmu'

built=target/$triple/release
rm -rf "$out"
mkdir -p "$out"
cp "$built/orchestrator" "$out/"
cp "$built"/lib*.so "$out/"
"$out/orchestrator" package --out "$out/fmus"
