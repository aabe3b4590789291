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


def quasi_static(lin):
    """The quasi-static A over the body velocities and rates, as a dict {(row, col): value}."""
    names = lin["states"]
    a = np.array(lin["A"], dtype=float)
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
    args = parser.parse_args()
    labels = args.labels.split(",") if args.labels else args.lin
    models = []
    for path in args.lin:
        with open(path) as f:
            models.append(quasi_static(json.load(f)))
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
