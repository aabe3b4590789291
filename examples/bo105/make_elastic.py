"""Writes examples/bo105-elastic.json from examples/bo105.json: the same Bo105 with the main rotor
as RotorElastic (hingeless hub, elastic blades of the shipped `bo105_uniform_blade.csv`).

What changes (docs/bo105.md, "The elastic Bo105"):
- `rotor`: RotorElastic, `n_elements` elements per blade (default 4: see docs/bo105.md on speed), the blade table shipped in
  the FMU's resources (clamp at 0.5 m, 27 kg uniform blade to 4.91 m), Rayleigh structural damping
  `structural_damping` (assumed: no published Bo105 blade damping was found), the same shaft,
  speed and azimuth as the articulated rotor, the implicit-midpoint blade integrator (`integrator = 1`);
- `aero`: `e` is the clamp radius (the elastic rotor's blade loads refer to the clamp); the lifting
  span starts at the articulated example's `r_root` (0.6874 m), so both rotors carry the same
  aerodynamic blade;
- `orchestrator run` on it flies 0.05 s (the elastic rotor is slow; `--stop` for more);
- the master extrapolates inputs linearly (order 1, not 2: see elastic_system);
- the rigid Rotor's blade initial states and hinge outputs go; the rest (airframe, tail rotor,
  controls, connections, trim section) is bo105.json's.

    python3 examples/bo105/make_elastic.py [--elements N] [--damping S] [--tolerance T] [--out FILE]
"""

import argparse
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTICULATED = os.path.join(ROOT, "examples", "bo105.json")
ELASTIC = os.path.join(ROOT, "examples", "bo105-elastic.json")
CLAMP_RADIUS_M = 0.5  # first station of bo105_uniform_blade.csv


def elastic_system(articulated, elements, damping_s, tolerance):
    """The elastic Bo105 system description built from the articulated one."""
    system = json.loads(json.dumps(articulated))
    rigid = articulated["fmus"]["rotor"]["parameters"]
    keep = ["nb", "Omega", "shaft.nx", "shaft.ny", "shaft.nz", "shaft.ax", "shaft.ay", "shaft.az", "psi0"]
    parameters = {name: rigid[name] for name in keep}
    parameters.update({
        "blade_file": "bo105_uniform_blade.csv",
        "n_elements": elements,
        "structural_damping": damping_s,
        "tolerance": tolerance,
        # The implicit midpoint (1 ms steps): the explicit default takes about 15 steps per
        # millisecond for the blades' stiff modes (docs/performance.md, "The elastic Bo105, coupled").
        "integrator": 1,
    })
    system["fmus"]["rotor"] = {"model": "RotorElastic", "parameters": parameters}
    system["fmus"]["aero"]["parameters"]["e"] = CLAMP_RADIUS_M
    # Quadratic input extrapolation (bo105.json's) lets the free airframe's roll rate and the
    # stiff hub moment of the clamped blades oscillate and grow from step to step (1.2 rad/s
    # after 0.08 s); linear extrapolation is stable at the same step.
    system["master"]["extrapolation_order"] = 1
    # A short plain run (under one revolution): the blades start unloaded, off the airframe's
    # trim; `orchestrator run --stop` and fly_doublet.py fly longer.
    system["experiment"]["stop"] = 0.05
    return system


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=4)
    parser.add_argument("--damping", type=float, default=5e-3, help="structural_damping, s")
    parser.add_argument("--tolerance", type=float, default=1e-4, help="the rotor's integrator tolerance")
    parser.add_argument("--from", dest="source", default=ARTICULATED)
    parser.add_argument("--out", default=ELASTIC)
    args = parser.parse_args()
    with open(args.source) as f:
        articulated = json.load(f)
    with open(args.out, "w") as f:
        json.dump(elastic_system(articulated, args.elements, args.damping, args.tolerance), f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
