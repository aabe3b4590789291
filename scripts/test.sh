#!/usr/bin/env bash
# The test command: builds everything, builds the portable (glibc 2.17) orchestrator and FMUs
# that are shipped and packages those FMUs, sets up the Python environment with the third-party
# importers (FMPy from PyPI), builds the example's third-party aerodynamics FMU with PythonFMU,
# then runs the Rust and the Python test suites on the portable FMUs.
# Works on a fresh machine with the Rust toolchain and Python 3 (with venv) only.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --workspace --all-targets
# The host build's FMUs, the default folder of the benches.
./target/release/orchestrator package --out target/fmus

if [ ! -x target/venv/bin/python ]; then
    python3 -m venv target/venv
fi
target/venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
# The shipped build: target/portable/ (orchestrator, FMU libraries, fmus/), linked for glibc 2.17.
bash scripts/build-portable.sh
# The third-party aerodynamics FMU of examples/third-party-aero*.json, from its Python source, beside it.
target/venv/bin/pythonfmu build -f examples/third-party-aero/SimpleAero.py --dest examples/third-party-aero

# The tests load the FMUs as shipped (tests/python/test_glibc.py checks their glibc needs).
export ROTORCRAFT_FMU_DIR="$PWD/target/portable/fmus"
export ROTORCRAFT_PYTHON="$PWD/target/venv/bin/python"
# Commands the tests start extract FMUs into a cache here, not into the user's ~/.cache.
export ROTORCRAFT_FMU_CACHE="$PWD/target/test-fmu-cache"
cargo test --release --workspace
target/venv/bin/python -m pytest -q tests/python
# The sweep as a Slurm job array on a real single-node Slurm (installed when possible; SKIP otherwise).
bash scripts/slurm-test.sh
# The portable build in an older userland (Debian bullseye, glibc 2.31, by debootstrap; SKIP where not possible).
bash scripts/old-glibc-test.sh
