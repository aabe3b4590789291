"""Flies a Bo105 system (examples/bo105.json or examples/bo105-elastic.json, or their trimmed
files) through a lateral-cyclic doublet from its hover trim and summarises the roll response.

The system's constant `controls.lat_cyclic` c becomes a table signal (written beside the results):
c until T0, c + D for 0.5 s, c - D for 0.5 s, c again (steps of 1 ms). The run is
`orchestrator run SYSTEM --stop STOP --out DIR/NAME.csv`; the summary (peak roll rate of each half,
roll attitude at the end) is printed and written to DIR/NAME.json.

    python3 examples/bo105/fly_doublet.py SYSTEM --out DIR [--t0 0.5] [--amplitude 0.01] [--stop 2.0]
        [--orchestrator PATH]
"""

import argparse
import csv
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RAMP_S = 1e-3


def doublet_rows(c, t0, amplitude):
    """(time, lat_cyclic) rows of the doublet table."""
    return [(0.0, c), (t0, c), (t0 + RAMP_S, c + amplitude), (t0 + 0.5, c + amplitude),
            (t0 + 0.5 + RAMP_S, c - amplitude), (t0 + 1.0, c - amplitude), (t0 + 1.0 + RAMP_S, c)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("system")
    parser.add_argument("--out", required=True)
    parser.add_argument("--t0", type=float, default=0.5)
    parser.add_argument("--amplitude", type=float, default=0.01, help="lateral cyclic, rad")
    parser.add_argument("--stop", type=float, default=2.0)
    parser.add_argument("--orchestrator", default=os.path.join(ROOT, "target", "release", "orchestrator"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    name = os.path.splitext(os.path.basename(args.system))[0]
    with open(args.system) as f:
        system = json.load(f)
    base = os.path.dirname(os.path.abspath(args.system))
    for entry in system["fmus"].values():  # keep relative FMU paths valid from the new folder
        if "path" in entry and not os.path.isabs(entry["path"]):
            entry["path"] = os.path.join(base, entry["path"])
    table = os.path.abspath(os.path.join(args.out, f"{name}-doublet.csv"))
    lateral = next(i for i in system["inputs"] if i["to"] == "controls.lat_cyclic")
    c = lateral["signal"]["constant"]
    with open(table, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["time", "lat_cyclic"])
        writer.writerows(doublet_rows(c, args.t0, args.amplitude))
    lateral["signal"] = {"table": {"csv": table, "column": "lat_cyclic"}}
    path = os.path.join(args.out, f"{name}-doublet.json")
    with open(path, "w") as f:
        json.dump(system, f, indent=1)
    results = os.path.join(args.out, f"{name}.csv")
    subprocess.run([args.orchestrator, "run", path, "--stop", str(args.stop), "--out", results,
                    "--summary-json", os.path.join(args.out, f"{name}-run.json")], check=True)
    with open(results) as f:
        rows = list(csv.DictReader(f))
    time = [float(r["time"]) for r in rows]
    p = [float(r["fuselage.p"]) for r in rows]
    first = [v for t, v in zip(time, p) if args.t0 <= t < args.t0 + 0.5]
    second = [v for t, v in zip(time, p) if args.t0 + 0.5 <= t < args.t0 + 1.0]
    summary = {
        "system": args.system, "lat_cyclic_trim_rad": c, "amplitude_rad": args.amplitude,
        "p_before_doublet_rad_s": [min(v for t, v in zip(time, p) if t < args.t0),
                                   max(v for t, v in zip(time, p) if t < args.t0)],
        "p_peak_first_half_rad_s": max(first, key=abs) if first else None,
        "p_peak_second_half_rad_s": max(second, key=abs) if second else None,
        "phi_end_rad": float(rows[-1]["fuselage.phi"]),
    }
    with open(os.path.join(args.out, f"{name}.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
