#!/usr/bin/env bash
# The portable build (target/portable/, from scripts/build-portable.sh) run in an older Linux
# userland: a minimal Debian 11 "bullseye" (glibc 2.31, older than the 2.34/2.35 a plain
# `cargo build` here needs) made with debootstrap from Debian's mirror into
# target/old-glibc/bullseye (kept for the next run). The portable orchestrator flies the built-in
# scenario there, loading the portable FMU libraries; its results must equal the same binaries'
# run on this machine to 1e-6 relative (the two glibc's libm differ in the last bits).
# Debian 10 "buster" (glibc 2.28, as RHEL 8) is no longer on Debian's mirror, so 2.31 is the
# oldest userland reachable here; tests/python/test_glibc.py checks the 2.17 bound itself.
# Needs root (debootstrap, chroot, mounting /proc); prints SKIP with the reason and exits 0 where
# that or the mirror is not available. Called by scripts/test.sh after the test suites.
set -euo pipefail
cd "$(dirname "$0")/.."
portable=$PWD/target/portable
root=$PWD/target/old-glibc/bullseye

if [ ! -x "$portable/orchestrator" ]; then
    echo "FAIL: $portable/orchestrator is missing: run bash scripts/build-portable.sh" >&2
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: the old-glibc userland needs root (debootstrap, chroot)"
    exit 0
fi
if ! command -v debootstrap >/dev/null; then
    if ! { apt-get update -qq && apt-get install -y -qq debootstrap; } >/dev/null 2>&1; then
        echo "SKIP: debootstrap could not be installed with apt-get"
        exit 0
    fi
fi
if [ ! -x "$root/usr/bin/ldd" ]; then
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    if ! debootstrap --variant=minbase bullseye "$root" >"$root.log" 2>&1; then
        echo "SKIP: debootstrap of Debian bullseye failed (see $root.log)"
        rm -rf "$root"
        exit 0
    fi
fi

work=$(mktemp -d)
cleanup() {
    umount "$root/proc" 2>/dev/null || true
    rm -rf "$root/opt/rotorcraft" "$root/tmp/rotorcraft-out" "$work"
}
trap cleanup EXIT
# The orchestrator finds its FMU libraries through /proc/self/exe.
if ! mount -t proc proc "$root/proc"; then
    echo "SKIP: cannot mount /proc in the chroot"
    exit 0
fi

glibc=$(chroot "$root" ldd --version | awk 'NR == 1 {print $NF}')
python3 -c "import sys; v = tuple(map(int, sys.argv[1].split('.'))); assert v < (2, 34), v" "$glibc"
rm -rf "$root/opt/rotorcraft"
cp -r "$portable" "$root/opt/rotorcraft"
chroot "$root" /opt/rotorcraft/orchestrator run --out-dir /tmp/rotorcraft-out >"$work/chroot.log" 2>&1 || {
    echo "FAIL: the portable orchestrator did not run on glibc $glibc:" >&2
    tail -20 "$work/chroot.log" >&2
    exit 1
}
"$portable/orchestrator" run --out-dir "$work/host" >"$work/host.log" 2>&1

python3 - "$root/tmp/rotorcraft-out/results.csv" "$work/host/results.csv" <<'PY'
import csv, sys
old, host = ([row for row in csv.reader(open(path))] for path in sys.argv[1:])
assert old[0] == host[0] and len(old) == len(host) > 1000, (old[0], len(old), len(host))
worst = max(abs(float(a) - float(b)) / max(abs(float(b)), 1e-12)
            for ra, rb in zip(old[1:], host[1:]) for a, b in zip(ra, rb))
assert worst < 1e-6, f"largest relative difference {worst:.3g}"
print(f"{len(old) - 1} rows, largest relative difference {worst:.1e}")
PY
echo "PASS: the portable orchestrator and FMUs ran the built-in scenario on Debian bullseye (glibc $glibc)"
