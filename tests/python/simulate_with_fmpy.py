"""Simulate an FMU as co-simulation with FMPy and write the result as CSV.

Usage: simulate_with_fmpy.py FMU OUT.csv --stop T --step H [--start NAME=VALUE ...] [--output NAME ...]
(the VALUE of a String variable is passed to FMPy as the text it is)

Used by the Rust interoperability tests to compare FMPy's trajectory with the in-process one.
"""

import argparse

import numpy as np
from fmpy import read_model_description, simulate_fmu


def main():
    p = argparse.ArgumentParser()
    p.add_argument("fmu")
    p.add_argument("out")
    p.add_argument("--stop", type=float, required=True)
    p.add_argument("--step", type=float, required=True)
    p.add_argument("--start", action="append", default=[],
                   help="NAME=VALUE (integers without a dot; the text as it is for a String variable)")
    p.add_argument("--output", action="append", default=None)
    a = p.parse_args()
    types = {v.name: v.type for v in read_model_description(a.fmu).modelVariables}
    start = {}
    for item in a.start:
        name, value = item.split("=", 1)
        if types.get(name) == "String":
            start[name] = value
        else:
            start[name] = int(value) if value.lstrip("-").isdigit() else float(value)
    result = simulate_fmu(a.fmu, fmi_type="CoSimulation", start_values=start, stop_time=a.stop,
                          output_interval=a.step, output=a.output, validate=True)
    names = result.dtype.names
    with open(a.out, "w") as f:
        f.write(",".join(f'"{n}"' for n in names) + "\n")
        for row in result:
            f.write(",".join(repr(float(row[n])) for n in names) + "\n")


if __name__ == "__main__":
    main()
