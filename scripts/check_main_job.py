"""Checks what the README's run command wrote into OUT (default `out`): the results CSV with
the FMPy-style header and finite rows over the 4 s flight, a units row for every column, an SVG
plot, a converged trim and a run summary. Standard library only (CI runs it before any venv)."""
import csv
import json
import math
import sys
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else "out")
errors = []

with open(out / "results.csv", newline="") as f:
    rows = list(csv.reader(f))
header, data = rows[0], [[float(v) for v in r] for r in rows[1:]]
if header[0] != "time" or "fuselage.phi" not in header or "controls.lat_cyclic" not in header:
    errors.append(f"results.csv header: {header}")
if len(data) < 100 or abs(data[-1][0] - 4.0) > 1e-9 or not all(math.isfinite(v) for r in data for v in r):
    errors.append(f"results.csv: {len(data)} rows ending at {data[-1][0] if data else None}")

with open(out / "results.units.csv", newline="") as f:
    units = {r[0]: r[1] for r in list(csv.reader(f))[1:]}
if set(units) != set(header) or units.get("fuselage.phi") != "rad":
    errors.append(f"results.units.csv does not match the results: {units}")

svg = (out / "plot.svg").read_text()
if "<svg" not in svg or "fuselage.phi" not in svg:
    errors.append("plot.svg is not a plot of the results")

trim = json.loads((out / "trim.json").read_text())
if trim.get("converged") is not True or trim["residual_max"] >= trim["tolerance"]:
    errors.append(f"trim.json: not converged: {trim.get('residual_max')}")

summary = json.loads((out / "summary.json").read_text())
if summary.get("simulated_seconds") != 4.0 or summary.get("real_time_factor", 0) <= 0 or "inputs" not in summary:
    errors.append(f"summary.json: {summary}")

if errors:
    print("the main job's output is wrong:\n  " + "\n  ".join(errors), file=sys.stderr)
    sys.exit(1)
print(f"main job output checked: {len(data)} rows x {len(header)} columns, trim residual {trim['residual_max']:.2e}, "
      f"real-time factor {summary['real_time_factor']:.1f}")
