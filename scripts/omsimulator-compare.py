"""OMSimulator against the orchestrator (docs/tool-users.md#omsimulator): the airframe states of
OMSimulator's result file for the exported helicopter SSP against `orchestrator run` of the same
system with held inputs, at the communication points whose times both files hold exactly.
Run: python3 scripts/omsimulator-compare.py OMS.csv ORCHESTRATOR.csv"""

import csv
import sys

STATES = ["x", "y", "z", "u", "v", "w", "p", "q", "r", "phi", "theta", "psi"]


def read(path):
    """A CSV result file: its header (quotes removed) and its rows as numbers."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return [h.strip('"') for h in rows[0]], [[float(v) for v in row] for row in rows[1:]]


def main(oms_path, orchestrator_path):
    oms_header, oms_rows = read(oms_path)
    header, rows = read(orchestrator_path)
    # OMSimulator names a variable model.system.instance.variable (both the SSD's name).
    oms_column = {s: next(k for k, h in enumerate(oms_header) if h.endswith(f".fuselage.{s}")) for s in STATES}
    column = {s: header.index(f"fuselage.{s}") for s in STATES}
    by_time = {row[0]: row for row in oms_rows}  # a time written twice: the last row
    matched = [(by_time[row[0]], row) for row in rows if row[0] in by_time]
    print(f"{len(matched)} of {len(rows)} communication points matched, the last at t = {matched[-1][1][0]} s")
    for s in STATES:
        worst = max(abs(a[oms_column[s]] - b[column[s]]) for a, b in matched)
        last_oms, last = matched[-1][0][oms_column[s]], matched[-1][1][column[s]]
        print(f"{s:6s} largest difference {worst:.1e}; at the end OMSimulator {last_oms:.9f}, orchestrator {last:.9f}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
