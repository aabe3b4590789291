"""Hover-trim hold of the helicopter as one FMU, by the master inside it (docs/system-fmu.md).

Exports examples/helicopter.json as a system FMU three times (its Newton master; Gauss-Seidel and
Jacobi with held inputs, as FMU containers step their FMUs), runs each in FMPy for 3 s at the system's step and prints the state at 3 s minus
`orchestrator run examples/helicopter.json`.
Run: target/venv/bin/python scripts/system-fmu-drift.py (after `cargo build --release --workspace`).
"""

import csv
import json
import pathlib
import subprocess
import tempfile

import fmpy
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"
NAMES = ["fuselage.theta", "fuselage.phi", "fuselage.u", "fuselage.v", "fuselage.w"]

with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    system = json.loads((ROOT / "examples" / "helicopter.json").read_text())
    step, stop = system["experiment"]["step"], system["experiment"]["stop"]
    subprocess.run([ORCHESTRATOR, "run", ROOT / "examples" / "helicopter.json", "--out", tmp / "run.csv"],
                   check=True, capture_output=True)
    rows = list(csv.reader(open(tmp / "run.csv")))
    header = [h.strip('"') for h in rows[0]]
    first, last = ({n: float(v) for n, v in zip(header, row)} for row in (rows[1], rows[-1]))
    print(f"orchestrator run at {stop} s: theta - theta0 {last['fuselage.theta'] - first['fuselage.theta']:+.2e} rad, "
          f"u {last['fuselage.u']:+.2e} m/s, v {last['fuselage.v']:+.2e} m/s")
    print("master inside | dtheta deg | dphi deg | du m/s | dv m/s | dw m/s | hub F.z(0) N")
    newton = system["master"]
    for algorithm in ["newton", "gauss-seidel", "jacobi"]:
        # The classic schemes as an FMU container runs them: held inputs, no extrapolation.
        system["master"] = newton if algorithm == "newton" else {"algorithm": algorithm}
        path = tmp / f"{algorithm.replace('-', '_')}.json"
        path.write_text(json.dumps(system))
        fmu = path.with_suffix(".fmu")
        subprocess.run([ORCHESTRATOR, "export", path, "--fmu", fmu], check=True, capture_output=True)
        result = fmpy.simulate_fmu(str(fmu), stop_time=stop, step_size=step, output_interval=step)
        d = {n: float(result[n][-1]) - last[n] for n in NAMES}
        print(f"{algorithm} | {np.degrees(d['fuselage.theta']):+.3f} | {np.degrees(d['fuselage.phi']):+.3f} | "
              f"{d['fuselage.u']:+.3f} | {d['fuselage.v']:+.3f} | {d['fuselage.w']:+.3f} | "
              f"{float(result['rotor.hub.F.z'][0]):.1f} (run: {first['rotor.hub.F.z']:.1f})")
