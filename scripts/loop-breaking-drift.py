"""Recipes for masters without a Newton solver (docs/tool-users.md): the hover trim of
examples/helicopter.json flown for 3 s with its loops broken by the classic explicit schemes
(Jacobi: every FMU sees the others' outputs of the previous step; Gauss-Seidel: FMUs stepped one
after the other, one direction of each loop sees new values) at the example's step and finer
ones, held inputs, against the orchestrator's Newton run. Prints the state at 3 s minus Newton.
Run: python3 scripts/loop-breaking-drift.py (after `cargo build --release --workspace`)."""

import csv
import json
import math
import pathlib
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"


def run(system, path, out):
    path.write_text(json.dumps(system))
    started = time.perf_counter()
    subprocess.run([ORCHESTRATOR, "run", path, "--out", out], check=True, capture_output=True)
    wall = time.perf_counter() - started
    rows = list(csv.reader(open(out)))
    header = [h.strip('"') for h in rows[0]]
    return {n: float(v) for n, v in zip(header, rows[-1])}, wall


with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    base = json.loads((ROOT / "examples" / "helicopter.json").read_text())
    step = base["experiment"]["step"]
    newton, wall = run(base, tmp / "newton.json", tmp / "newton.csv")
    print(f"Newton (get-after-set, the orchestrator), step {step * 1e3:.4f} ms: {wall:.2f} s wall")
    print("scheme | step | dtheta deg | dphi deg | du m/s | dv m/s | wall s")
    for algorithm in ["newton", "gauss-seidel", "jacobi"]:
        for divisor in [16] if algorithm == "newton" else [1, 4, 16]:
            system = json.loads(json.dumps(base))
            if algorithm != "newton":
                system["master"] = {"algorithm": algorithm}
            system["experiment"]["step"] = step / divisor
            last, wall = run(system, tmp / "x.json", tmp / "x.csv")
            d = {n: last[n] - newton[n] for n in ["fuselage.theta", "fuselage.phi", "fuselage.u", "fuselage.v"]}
            print(f"{algorithm} | h/{divisor} | {math.degrees(d['fuselage.theta']):+.3f} | "
                  f"{math.degrees(d['fuselage.phi']):+.3f} | {d['fuselage.u']:+.3f} | {d['fuselage.v']:+.3f} | {wall:.2f}")
