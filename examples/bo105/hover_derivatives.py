"""Quasi-static 6-DOF hover derivatives of a linearised helicopter, against Padfield's Bo105.

Reads the JSON that `orchestrator linearize --trim --multiblade` writes and residualises every
state that is not an airframe velocity or rate (multiblade rotor states, inflow states):

    A_q = A_ff - A_fr A_rr^-1 A_rf

with f the body velocities u, v, w (Fuselage `state.velocity.*`) and rates p, q, r
(`state.rate.*`), r the rotor and inflow states; the airframe's position and attitude states
are left out (they do not enter the force and moment derivatives in hover other than through
gravity). The rotor states are residualised in multiblade coordinates: a steady body rate gives a
steady tip-path-plane tilt there (in the rotating frame it is a 1/rev motion, so x_r' = 0 holds
only in multiblade coordinates).

Reference: Padfield's Helisim Bo105 system matrix A at 0 kt (G. D. Padfield, Helicopter Flight
Dynamics, 2nd ed. 2007, chapter 4 appendix 4B.3, as typed into the HEROES toolbox:
Musero45/TFG heroes/heroesData/validationData/Bo105/HelisimBo105StabilityMatrices.m, commit
10dddfea8777252e00fd551db9567ab7edfe7b5c, `SMBo105(:,:,1)`; state order u w q theta v p phi r).
Helisim's moment rows are Padfield's (inertia-coupled) L, M, N over the moments of inertia, as
ours (rows of p', q', r' of the coupled A).

    python3 examples/bo105/hover_derivatives.py LIN.json [LIN2.json ...] [--labels a,b] [--md FILE]
"""

import argparse
import json

import numpy as np

# Padfield (Helisim) Bo105, hover: (row, column) entries of SMBo105(:,:,1), HEROES file above.
# Rows/columns there: 0 u, 1 w, 2 q, 3 theta, 4 v, 5 p, 6 phi, 7 r.
PADFIELD_HOVER = {
    "X_u": -0.0211, "Z_w": -0.3220, "M_u": 0.1045, "M_w": -0.0151, "M_q": -3.7472,
    "Y_v": -0.0405, "L_v": -0.4114, "L_p": -14.1949, "N_v": -0.0173, "N_p": -2.4296,
    "N_r": -0.3185, "L_q": 0.3688, "M_p": -0.0972,
}

BODY = {"u": "fuselage.state.velocity.x", "v": "fuselage.state.velocity.y", "w": "fuselage.state.velocity.z",
        "p": "fuselage.state.rate.x", "q": "fuselage.state.rate.y", "r": "fuselage.state.rate.z"}
FORCE = {"X": "u", "Y": "v", "Z": "w", "L": "p", "M": "q", "N": "r"}


def is_residualised(name):
    """Rotor (multiblade or elastic) and inflow states: everything that is not the airframe's."""
    return not name.startswith("fuselage.")


def blade_groups(names, instance):
    """{per-blade state name: {blade number: state index}} of `instance.state.blade[b].NAME`."""
    prefix = f"{instance}.state.blade["
    groups = {}
    for i, name in enumerate(names):
        if name.startswith(prefix):
            blade, rest = name[len(prefix):].split("].", 1)
            groups.setdefault(rest, {})[int(blade)] = i
    return groups


def coleman(lin, instance, omega):
    """A in multiblade coordinates for the blade states of `instance` still in the rotating frame.

    Every per-blade state x_b (angles, rates, nodal displacements and velocities alike) becomes
    x_b = x_0 + x_1c cos psi_b + x_1s sin psi_b + x_d (-1)^b (4 blades; Coleman's transform, each
    state on its own, first-order form), psi_b = psi + 2 pi (b - 1)/nb with psi the recorded
    `instance.azimuth`; A_m = S^-1 (A S - S'), S' = omega dS/dpsi. Written independently of
    `orchestrator linearize --multiblade` (which pairs angles with their rates); the quasi-static
    derivatives do not depend on that choice of rotor coordinates (a steady tilt of the disc is
    steady in both), which main() checks when given both.
    """
    names = lin["states"]
    a = np.array(lin["A"], dtype=float)
    psi = lin["y0"][lin["outputs"].index(f"{instance}.azimuth")]
    s = np.eye(len(names))
    s_dot = np.zeros_like(s)
    for blades in blade_groups(names, instance).values():
        nb = len(blades)
        if nb != 4 or sorted(blades) != [1, 2, 3, 4]:
            raise ValueError(f"{instance}: multiblade transform written for 4 blades, got {sorted(blades)}")
        slots = [blades[b] for b in (1, 2, 3, 4)]
        for b in range(4):
            psi_b = psi + 2.0 * np.pi * b / nb
            row = slots[b]
            entries = [(1.0, 0.0), (np.cos(psi_b), -np.sin(psi_b)), (np.sin(psi_b), np.cos(psi_b)),
                       ((-1.0) ** (b + 1), 0.0)]
            for slot, (t, dt_dpsi) in zip(slots, entries):
                s[row, slot] = t
                s_dot[row, slot] = omega * dt_dpsi
    return np.linalg.solve(s, a @ s - s_dot)


def quasi_static(lin, multiblade=None):
    """The quasi-static A over the body velocities and rates, as a dict {(row, col): value}.
    `multiblade`: (instance, omega) whose rotating-frame blade states are transformed first."""
    names = lin["states"]
    a = coleman(lin, *multiblade) if multiblade else np.array(lin["A"], dtype=float)
    f = [names.index(BODY[k]) for k in "uvwpqr"]
    r = [i for i, n in enumerate(names) if is_residualised(n)]
    a_q = a[np.ix_(f, f)] - a[np.ix_(f, r)] @ np.linalg.solve(a[np.ix_(r, r)], a[np.ix_(r, f)])
    return {(row, col): a_q[i, j] for i, row in enumerate("uvwpqr") for j, col in enumerate("uvwpqr")}


def derivative(a_q, name):
    """`X_u`-style name -> the entry of the quasi-static A."""
    force, state = name.split("_")
    return a_q[(FORCE[force], state)]


def table(labels, models):
    """Markdown rows: derivative, Padfield, each model and its ratio to Padfield."""
    head = "| derivative | Padfield (Helisim) | " + " | ".join(f"{lbl} | ratio" for lbl in labels) + " |"
    rows = [head, "|" + "---|" * (2 + 2 * len(labels))]
    for name, ref in PADFIELD_HOVER.items():
        cells = []
        for a_q in models:
            value = derivative(a_q, name)
            cells += [f"{value:.4g}", f"{value / ref:.2f}"]
        rows.append(f"| {name} | {ref:g} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lin", nargs="+")
    parser.add_argument("--labels", default=None)
    parser.add_argument("--md", default=None, help="write the table here too")
    parser.add_argument("--json", default=None, help="write the derivatives as JSON here")
    parser.add_argument("--coleman", default=None, metavar="INSTANCE:OMEGA",
                        help="transform this rotor's rotating-frame blade states to multiblade coordinates first "
                             "(for a linearisation without --multiblade, e.g. RotorElastic's nodal states)")
    args = parser.parse_args()
    labels = args.labels.split(",") if args.labels else args.lin
    multiblade = None
    if args.coleman:
        instance, omega = args.coleman.split(":")
        multiblade = (instance, float(omega))
    models = []
    for path in args.lin:
        with open(path) as f:
            lin = json.load(f)
        rotating = multiblade and blade_groups(lin["states"], multiblade[0])
        models.append(quasi_static(lin, multiblade if rotating else None))
    text = table(labels, models)
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text + "\n")
    if args.json:
        out = {lbl: {n: derivative(m, n) for n in PADFIELD_HOVER} for lbl, m in zip(labels, models)}
        out["padfield"] = PADFIELD_HOVER
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
