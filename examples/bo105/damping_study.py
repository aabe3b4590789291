"""Why the Bo105 hover roll/pitch damping is 1.2-1.7x Padfield's: a study with numbers.

Compares `examples/bo105.json` with Padfield's Bo105 data parameter by parameter, reruns the
quasi-static hover derivatives of `hover_derivatives.py` with one suspect at a time set to
Padfield's value (and all together), splits each derivative into the rotor's own dimensional
moment per rate (N m s/rad) and the inertia it is divided by, and sets both against a closed-form
quasi-steady flap solution (derived here; see `flap_response`).

Sources (Padfield, Helicopter Flight Dynamics, as typed into the HEROES toolbox, Musero45/TFG at
commit 10dddfea8777252e00fd551db9567ab7edfe7b5c; the book itself was not read):
- heroes/heroesData/rigidHe/rigidBo105.m: rotor, tail rotor, fin, geometry, inertia;
- heroes/heroesData/validationData/Bo105/HelisimBo105StabilityMatrices.m: Helisim's A at 0 kt;
- heroes/heroesDataTools/rigidRotor2ndRotor.m: HEROES' Lock number rho c0 a R^4 / I_beta and
  flap frequency lambda_beta^2 = 1 + xGB bm e / I_beta + k_beta / (I_beta Omega^2);
- heroes/trim/rotor/flappingMatricesTaper.m: the hover flap harmonic-balance coefficients the
  closed form below agrees with (gyroscopic forcing 2 (1 + e S / I), aerodynamic damping 1 in
  units of gamma/8, stiffness S_beta).

Each case is linearised twice by `orchestrator linearize --trim --multiblade` (about 1 s each):
as given, and with the airframe's moments of inertia set to 1e7 kg m^2 (products 0), so that the
body's angular acceleration stays ~0 and 1e7 times the moment rows are the rotor's (and tail's)
moment per rate alone. Run time: 43 s wall (21 s CPU) for the 12 cases (10 articulated, 2
elastic) on the shared 2-core machine.

    python3 examples/bo105/damping_study.py [--out out/derivs] [--orchestrator PATH] [--cases IDS]
        [--md FILE] [--json FILE]
"""

import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hover_derivatives import BODY, PADFIELD_HOVER, is_residualised, quasi_static  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM = os.path.join(ROOT, "examples", "bo105.json")
SYSTEM_ELASTIC = os.path.join(ROOT, "examples", "bo105-elastic.json")

RHO = 1.225  # kg/m^3, as bo105.json
GRAVITY = 9.80665

# Padfield's Bo105 as typed into HEROES rigidBo105.m (see the module docstring).
PADFIELD = {
    "R": 4.91, "Omega": 44.4, "nb": 4, "chord": 0.27, "a": 6.113, "e": 0.0,
    "I_beta": 231.7, "k_beta": 113330.0, "blade_mass": 40.2, "x_gb": 2.445,
    "h": 1.48, "mass": 2200.0,
    "tail_R": 0.95, "tail_nb": 2, "tail_chord": 0.18, "tail_Omega": 2220 * 2 * math.pi / 60, "tail_a": 5.7,
    "fin_area": 0.805,
}
# Padfield's whole-aircraft tensor about the CoM (Ixz is the product of inertia: element -660),
# as examples/bo105/mass_split.py.
PADFIELD_TENSOR = np.array([[1433.0, 0.0, -660.0], [0.0, 4973.0, 0.0], [-660.0, 0.0, 4099.0]])

HEAVY = 1.0e7  # kg m^2: airframe moments of inertia of the "rate only" linearisation
HEAVY_SETS = [f"fuselage.I.{ax}={HEAVY:g}" for ax in ("xx", "yy", "zz")] + [
    f"fuselage.I.{ax}=0" for ax in ("xy", "xz", "yz")]

# Padfield's centre-spring rotor in the Rotor FMU: hinge at the shaft, k_beta, I_beta; a uniform
# blade with that inertia about the shaft (m = 3 I / R^2, S = m R / 2; HEROES' bm and xGB are not
# a consistent pair with I_beta: bm xGB^2 = 240.3 > 231.7 kg m^2).
CENTRE_SPRING = ["rotor.e=0", "aero.e=0", "rotor.k_flap=113330", "rotor.blade.I=231.7",
                 f"rotor.blade.m={3 * 231.7 / 4.91**2:.4f}", f"rotor.blade.S={3 * 231.7 / 4.91**2 * 4.91 / 2:.4f}"]

IDEAL = ["aero.airfoil=0", "aero.tip_loss=0", "aero.r_root=0", "rotor.lock_lag=true"]
# (id, label, --set overrides): one suspect at a time, then together.
CASES = [
    ("as-is", "bo105.json as is", []),
    ("i-beta", "I_beta 231.7 (hinge kept)", ["rotor.blade.I=231.7"]),
    ("centre-spring", "centre spring (Padfield's rotor)", CENTRE_SPRING),
    ("lift-slope", "lift slope 6.113 (analytic)", ["aero.airfoil=0"]),
    ("no-tip-loss", "no tip loss", ["aero.tip_loss=0"]),
    ("uniform-inflow", "uniform momentum inflow", ["aero.inflow_model=1"]),
    ("lag-locked", "lag hinge locked", ["rotor.lock_lag=true"]),
    ("hs-off", "horizontal stabiliser removed (yaw)", ["fuselage.hs.area=0"]),
    ("ideal-pitt-peters", "centre spring, analytic, no tip loss or cut-out, lag locked; Pitt-Peters",
     CENTRE_SPRING + IDEAL),
    ("all", "all of the above (uniform inflow too)", CENTRE_SPRING + IDEAL + ["aero.inflow_model=1"]),
    # bo105-elastic.json (RotorElastic, 4 elements) about its start, structural damping off, its
    # nodal blade states in multiblade coordinates by hover_derivatives.py's Coleman transform.
    ("elastic", "elastic Bo105 (bo105-elastic.json)", ["rotor.structural_damping=0"]),
    ("elastic-uniform-inflow", "elastic Bo105, uniform momentum inflow",
     ["rotor.structural_damping=0", "aero.inflow_model=1"]),
]
YAW_OUTPUTS = ["rotor.hub.M.z", "tail_aero.thrust"]
DERIVATIVES = ["Z_w", "L_p", "M_q", "L_q", "M_p", "N_r"]


def linearize(orchestrator, out_dir, name, sets, elastic=False):
    """`orchestrator linearize bo105.json --trim --multiblade --set ...` (the elastic Bo105: about
    its start, as hover_derivatives.py's documented run); the parsed JSON."""
    path = os.path.join(out_dir, f"{name}.json")
    how = [SYSTEM_ELASTIC] if elastic else [SYSTEM, "--trim", "--multiblade"]
    command = [orchestrator, "linearize", *how, "--out", path]
    for s in sets:
        command += ["--set", s]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        return json.load(f)


def rotor_response(lin):
    """Quasi-static multiblade flap (rad) per rate of roll and pitch, each per p/Omega (rad);
    None for a rotor without multiblade flap states (the elastic one)."""
    names = lin["states"]
    if "rotor.flap.1c" not in names:
        return None
    a = np.array(lin["A"], dtype=float)
    f = [names.index(BODY[k]) for k in "pq"]
    r = [i for i, n in enumerate(names) if is_residualised(n)]
    x_r = -np.linalg.solve(a[np.ix_(r, r)], a[np.ix_(r, f)])
    omega = PADFIELD["Omega"]
    rows = {names[i]: x_r[k] * omega for k, i in enumerate(r)}
    return {"b1c_p": rows["rotor.flap.1c"][0], "b1s_p": rows["rotor.flap.1s"][0],
            "b1c_q": rows["rotor.flap.1c"][1], "b1s_q": rows["rotor.flap.1s"][1]}


def outputs_per_rate(lin, outputs, rate):
    """Quasi-static d(output)/d(body rate `rate`) of the recorded `outputs` (C_f - C_r A_rr^-1 A_rf)."""
    names = lin["states"]
    a, c = np.array(lin["A"], dtype=float), np.array(lin["C"], dtype=float)
    f = names.index(BODY[rate])
    r = [i for i, n in enumerate(names) if is_residualised(n)]
    x_r = -np.linalg.solve(a[np.ix_(r, r)], a[r, f])
    rows = [lin["outputs"].index(o) for o in outputs]
    return dict(zip(outputs, c[rows, f] + c[np.ix_(rows, r)] @ x_r))


def tail_rotor_yaw_damping(cfg, lin):
    """Closed-form yaw damping of the tail rotor (own derivation, uniform momentum inflow, hover):
    blade element C_T = (a sigma/2)(theta/3 - lambda/2), lambda = lambda_i + mu_z, momentum
    lambda_i (lambda_i + mu_z) = C_T/2, so dC_T/dmu_z = -2 a sigma lambda_i/(16 lambda_i + a sigma);
    a yaw rate r moves the hub at l_x r along its shaft: dN/dr = -l_x^2 rho A Omega R dC_T/dmu_z.
    Returns (dT/dr in N s/rad, dN/dr in N m s/rad)."""
    tail, aero = cfg["fmus"]["tail_rotor"]["parameters"], cfg["fmus"]["tail_aero"]["parameters"]
    fus = cfg["fmus"]["fuselage"]["parameters"]
    radius, omega = tail["R"], tail["Omega"]
    area = math.pi * radius**2
    a_sigma = aero["a"] * tail["nb"] * aero["chord"] / (math.pi * radius)
    thrust = lin["y0"][lin["outputs"].index("tail_aero.thrust")]
    lambda_i = math.sqrt(thrust / (RHO * area * (omega * radius) ** 2) / 2)
    dct_dmu = 2 * a_sigma * lambda_i / (16 * lambda_i + a_sigma)
    arm = -fus["tail.x"]  # m aft of the aircraft CoM (body axes from the CoM, mass_split.py)
    dt_dr = RHO * area * omega * radius * dct_dmu * arm
    return dt_dr, -dt_dr * arm


def dimensional(a_q_heavy):
    """Moment per rate (N m s/rad) from the heavy-airframe quasi-static A: HEAVY times the rows."""
    return {(m, s): HEAVY * a_q_heavy[(m, s)] for m in "pqr" for s in "pqr"}


def helisim_convention(dim):
    """The dimensional moment derivatives divided by Padfield's whole-aircraft inertia tensor,
    as Helisim's A (rows p', q', r' over columns p, q, r)."""
    d = np.array([[dim[(m, s)] for s in "pqr"] for m in "pqr"])
    a = np.linalg.solve(PADFIELD_TENSOR, d)
    return {(m, s): a[i, j] for i, m in enumerate("pqr") for j, s in enumerate("pqr")}


def flap_response(inertia, centrifugal, spring, damping, rate_forcing, omega):
    """Quasi-steady first-harmonic flap per p/Omega of a hub rolling at p (own derivation).

    Blade flap about its hinge (offset e), rotating at Omega on a hub rolling at p, in hover
    (non-dimensional time psi = Omega t, ' = d/dpsi):
      beta'' + g beta' + nu^2 beta = G p/Omega cos psi + g_p p/Omega sin psi
    nu^2 = 1 + (e S Omega^2 + k)/(I Omega^2); g = D/(I Omega) with D the flap damping moment per
    flap rate (N m s/rad); g_p = D_p/(I Omega) with D_p the flap moment per body rate of the lift
    of the section velocity r p sin psi; G = 2 (I + e S)/I (Coriolis: about the shaft the blade's
    angular momentum is Omega int r (r-e) dm = Omega (I + e S), tilted by the hub's rotation).
    Harmonic balance of beta = b1c cos psi + b1s sin psi, s = nu^2 - 1:
      s b1c + g b1s = G,  -g b1c + s b1s = g_p
    The same coefficients as HEROES' flappingMatricesTaper.m (hover: gyroscopic 2 (1 + e S/I),
    damping 1 in units of gamma/8, stiffness S_beta). A pitch rate q gives the same response
    turned by 90 deg."""
    s = (centrifugal + spring / omega**2) / inertia
    g = damping / (inertia * omega)
    g_p = rate_forcing / (inertia * omega)
    gyro = 2 * (inertia + centrifugal) / inertia
    det = s * s + g * g
    return {"b1s": (s * g_p + g * gyro) / det, "b1c": (s * gyro - g * g_p) / det, "s": s, "g": g, "g_p": g_p}


def aero_moments(e, r_root, a, chord, radius, omega, nb, lambda0):
    """Flap damping D and rate forcing D_p (N m s/rad) of one blade in hover (own derivation).

    Section lift per span -rho a c Omega r (Omega R) u / 2 for a normal velocity u Omega R, with
    u = (r - e)/R beta' + (r/R)(p/Omega + lambda_s) on the sine harmonic (flap rate, body roll
    rate, inflow); D = rho a c Omega/2 int r (r-e)^2 dr, D_p = rho a c Omega/2 int r^2 (r-e) dr.
    With Pitt-Peters inflow (`lambda0` given) the harmonic inflow is quasi-steady: in hover the
    model's L^-1 is diag(V_T, V/2, V/2) with V = 2 lambda_0 (fmu-aero `pitt_peters_rates`; docs/
    models.md), so lambda_s = C_s / lambda_0 with C_s = sum over blades of the lift's moment about
    the shaft over rho pi R^2 (Omega R)^2 R:
      lambda_s (1 + K J2) = -K (J1 beta'_s + J2 p/Omega),  K = nb a c / (4 pi R^4 lambda_0),
      J1 = int r^2 (r - e) dr / R, J2 = int r^3 dr / R,
    so that D becomes D - D_p K J1 / (1 + K J2) and D_p becomes D_p / (1 + K J2)."""
    r = np.linspace(r_root, radius, 4001)
    damping = 0.5 * RHO * a * chord * omega * np.trapezoid(r * (r - e) ** 2, r)
    rate_forcing = 0.5 * RHO * a * chord * omega * np.trapezoid(r * r * (r - e), r)
    if lambda0 is None:
        return damping, rate_forcing
    k = nb * a * chord / (4 * math.pi * radius**4 * lambda0)
    j1 = np.trapezoid(r * r * (r - e), r) / radius
    j2 = np.trapezoid(r**3, r) / radius
    return damping - rate_forcing * k * j1 / (1 + k * j2), rate_forcing / (1 + k * j2)


def closed_form(blade, rotor, thrust, height, lambda0=None):
    """Closed-form roll damping of a rotor (own derivation):
      dL/dp (N m s/rad) = -[(nb/2)(k + e S Omega^2) + h T] d b1s/dp
    (the hub moment of the flap spring and of the hinge's centrifugal force, plus the thrust
    tilted with the disc at the hub height h above the CoM). Left out: the 1/rev shear at an offset
    hinge, tip loss, the lag motion. `blade`: (I, S, e, k) about the hinge; `rotor`: (r_root, a,
    chord, R, Omega, nb). Also returns the flap response, the Lock number 8 D/(I Omega) (with the
    inflow's reduction when `lambda0` is given) and nu_beta."""
    inertia, first_moment, e, spring = blade
    r_root, a, chord, radius, omega, nb = rotor
    damping, rate_forcing = aero_moments(e, r_root, a, chord, radius, omega, nb, lambda0)
    resp = flap_response(inertia, e * first_moment, spring, damping, rate_forcing, omega)
    hub_per_tilt = 0.5 * nb * (spring + e * first_moment * omega**2) + height * thrust
    return {"dL_dp": -hub_per_tilt * resp["b1s"] / omega, "hub_per_tilt": hub_per_tilt,
            "lock": 8 * resp["g"], "nu": math.sqrt(1 + resp["s"]), **resp}


def parameter_table(cfg):
    """Markdown: bo105.json (and the FMU defaults it relies on) against Padfield (HEROES)."""
    rot, aero, fus = (cfg["fmus"][k]["parameters"] for k in ("rotor", "aero", "fuselage"))
    tail, tail_aero = cfg["fmus"]["tail_rotor"]["parameters"], cfg["fmus"]["tail_aero"]["parameters"]
    e, m, s, i = rot["e"], rot["blade.m"], rot["blade.S"], rot["blade.I"]
    about_shaft = i + 2 * e * s + e * e * m
    nu2 = 1 + (e * s + rot["k_flap"] / rot["Omega"] ** 2) / i
    p = PADFIELD
    nu2_p = 1 + p["k_beta"] / (p["I_beta"] * p["Omega"] ** 2)
    ours = closed_form((i, s, e, rot["k_flap"]), (aero["r_root"], aero["a"], aero["chord"], rot["R"],
                                                  rot["Omega"], rot["nb"]), 0.0, 0.0)
    lock_p = RHO * p["a"] * p["chord"] * p["R"] ** 4 / p["I_beta"]
    rows = [
        ("blade mass, kg", m, p["blade_mass"], "HEROES `bm` (unlabelled; bm xGB^2 > I_beta)"),
        ("blade first moment about the shaft, kg m", s + e * m, p["blade_mass"] * p["x_gb"], "`bm` `xGB`"),
        ("blade flap inertia about the hinge, kg m^2", i, p["I_beta"], "`IBeta` (hinge at the shaft)"),
        ("blade inertia about the shaft, kg m^2", about_shaft, p["I_beta"], "`IBeta`"),
        ("hinge offset e, m", e, p["e"], "`e` 0: centre-spring"),
        ("flap spring, N m/rad", rot["k_flap"], p["k_beta"], "`kBeta`"),
        ("hub moment per blade tilt (k + e S Omega^2), N m/rad", rot["k_flap"] + e * s * rot["Omega"] ** 2,
         p["k_beta"], ""),
        ("flap frequency nu_beta, /rev", math.sqrt(nu2), math.sqrt(nu2_p), "from `kBeta`, `IBeta`"),
        ("Lock number (damping form 8 D/(I Omega))", ours["lock"], lock_p, "rho a c R^4/I_beta"),
        ("stiffness number S_beta = 8 (nu^2-1)/gamma", 8 * (nu2 - 1) / ours["lock"], 8 * (nu2_p - 1) / lock_p, ""),
        ("lift slope, 1/rad", f"NACA 0012 table ({aero['a']} unused)", p["a"], "`cldata`"),
        ("tip loss / root cut-out", f"Prandtl / {aero['r_root']} m", "- / -", "not in HEROES' data"),
        ("inflow", "Pitt-Peters", "-", "Helisim's: not read"),
        ("solidity", rot["nb"] * aero["chord"] / (math.pi * rot["R"]), p["nb"] * p["chord"] / (math.pi * p["R"]), ""),
        ("Omega R, m/s", rot["Omega"] * rot["R"], p["Omega"] * p["R"], ""),
        ("hub above CoM, m", -fus["hub.z"], p["h"], "`geometry.h`"),
        ("airframe Ixx / Iyy / Izz / Ixz (blades excluded), kg m^2",
         f"{fus['I.xx']} / {fus['I.yy']} / {fus['I.zz']} / {-fus['I.xz']}", "-", "mass_split.py"),
        ("aircraft Ixx / Iyy / Izz / Ixz, kg m^2", "as Padfield (mass_split.py)",
         " / ".join(f"{abs(PADFIELD_TENSOR[i, j]):g}" for i, j in ((0, 0), (1, 1), (2, 2), (0, 2))),
         "`inertia`"),
        ("tail rotor R, blades, chord, Omega, a", f"{tail['R']}, {tail['nb']}, {tail_aero['chord']}, "
         f"{tail['Omega']}, {tail_aero['a']}", f"{p['tail_R']}, {p['tail_nb']}, {p['tail_chord']}, "
         f"{p['tail_Omega']:.3f}, {p['tail_a']}", "`tailRotor`"),
        ("fin area, m^2 / lift slope", f"{fus['fin.area']} / {fus['fin.a']}", f"{p['fin_area']} / 2.704",
         "`verticalFin`, vfBo105Padf.m"),
    ]
    out = ["| quantity | bo105.json | Padfield (HEROES) | ratio | HEROES name |", "|---|---|---|---|---|"]
    for name, our, ref, where in rows:
        ratio = f"{our / ref:.3f}" if isinstance(our, float) and isinstance(ref, float) and ref else "-"
        fmt = (lambda v: f"{v:.4g}" if isinstance(v, float) else str(v))
        out.append(f"| {name} | {fmt(our)} | {fmt(ref)} | {ratio} | {where} |")
    return "\n".join(out)


def padfield_dimensional():
    """Helisim's L_p, M_q (N m s/rad): Padfield's A rows times his inertia tensor."""
    a = np.array([[PADFIELD_HOVER["L_p"], PADFIELD_HOVER["L_q"], 0.0],
                  [PADFIELD_HOVER["M_p"], PADFIELD_HOVER["M_q"], 0.0],
                  [PADFIELD_HOVER["N_p"], 0.0, PADFIELD_HOVER["N_r"]]])
    # Helisim's N_q (0.0656) and L_r (0.1277) are left out: they do not enter L_p, M_q.
    d = PADFIELD_TENSOR @ a
    return {"L_p": d[0, 0], "M_q": d[1, 1], "L_q": d[0, 1], "M_p": d[1, 0]}


def study(orchestrator, out_dir, ids):
    """Runs the cases `ids`; returns a list of result dicts."""
    results = []
    for case_id, label, sets in CASES:
        if case_id not in ids:
            continue
        elastic = case_id.startswith("elastic")
        lin = linearize(orchestrator, out_dir, case_id, sets, elastic)
        heavy = linearize(orchestrator, out_dir, f"{case_id}-heavy", sets + HEAVY_SETS, elastic)
        coleman = ("rotor", PADFIELD["Omega"]) if elastic else None
        a_q = quasi_static(lin, coleman)
        dim = dimensional(quasi_static(heavy, coleman))
        inflow = "aero.state.inflow.lambda0"
        lambda0 = lin["x0"][lin["states"].index(inflow)] if inflow in lin["states"] else None
        results.append({"id": case_id, "label": label, "sets": sets, "a_q": a_q, "dim": dim,
                        "helisim": helisim_convention(dim), "flap_rate_only": rotor_response(heavy),
                        "flap": rotor_response(lin), "roll_inertia": dim[("p", "p")] / a_q[("p", "p")],
                        "pitch_inertia": dim[("q", "q")] / a_q[("q", "q")], "lambda0": lambda0,
                        "yaw": None if elastic else outputs_per_rate(heavy, YAW_OUTPUTS, "r"),
                        "heavy": heavy})
    return results


def derivative(a_q, name):
    """`L_p`-style name -> the entry of a {(row, column): value} derivative dict."""
    force, state = name.split("_")
    return a_q[({"Z": "w", "L": "p", "M": "q", "N": "r"}[force], state)]


def results_table(results):
    """Markdown: the derivatives as linearised (ratio to Padfield), the rotor's own moment per
    rate, the inertia the linearised L_p, M_q divide it by, and the Helisim-convention ratios."""
    out = ["| case | " + " | ".join(DERIVATIVES) + " | dL/dp, dM/dq, N m s/rad | inertia of L_p, M_q, kg m^2 | "
           "Helisim convention L_p, M_q, L_q, M_p (ratio) |", "|" + "---|" * (len(DERIVATIVES) + 4)]
    for res in results:
        cells = [f"{derivative(res['a_q'], n):.4g} ({derivative(res['a_q'], n) / PADFIELD_HOVER[n]:.2f})"
                 for n in DERIVATIVES]
        helisim = {n: derivative(res["helisim"], n) for n in ("L_p", "M_q", "L_q", "M_p")}
        conv = ", ".join(f"{v:.3g} ({v / PADFIELD_HOVER[n]:.2f})" for n, v in helisim.items())
        out.append(f"| {res['label']} | " + " | ".join(cells) + f" | {res['dim'][('p', 'p')]:.0f}, "
                   f"{res['dim'][('q', 'q')]:.0f} | {res['roll_inertia']:.0f}, {res['pitch_inertia']:.0f} | {conv} |")
    return "\n".join(out)


def closed_forms(cfg, results):
    """{case id: closed form} for the cases the closed form describes (Pitt-Peters with the case's
    trimmed lambda_0, or uniform inflow); the lift slope is Padfield's 6.113 throughout."""
    rot, aero = cfg["fmus"]["rotor"]["parameters"], cfg["fmus"]["aero"]["parameters"]
    p = PADFIELD
    thrust = p["mass"] * GRAVITY
    ours = (rot["blade.I"], rot["blade.S"], rot["e"], rot["k_flap"])
    centre_spring = (p["I_beta"], 3 * p["I_beta"] / p["R"] ** 2 * p["R"] / 2, 0.0, p["k_beta"])
    cut_out = (aero["r_root"], p["a"], aero["chord"], rot["R"], rot["Omega"], rot["nb"])
    no_cut_out = (0.0, p["a"], p["chord"], p["R"], p["Omega"], p["nb"])
    blades = {"as-is": (ours, cut_out), "uniform-inflow": (ours, cut_out), "centre-spring": (centre_spring, cut_out),
              "ideal-pitt-peters": (centre_spring, no_cut_out), "all": (centre_spring, no_cut_out)}
    return {r["id"]: closed_form(*blades[r["id"]], thrust, p["h"], r["lambda0"])
            for r in results if r["id"] in blades}


def closed_form_table(results, forms):
    """Markdown: closed-form flap response and dL/dp against the rate-only linearisation."""
    out = ["| case | Lock (inflow-reduced) | nu_beta | b1s per p/Omega: closed form / linearised | "
           "b1c per p/Omega | dL/dp closed form / linearised, N m s/rad |", "|---|---|---|---|---|---|"]
    for res in results:
        if res["id"] not in forms:
            continue
        cf, fl = forms[res["id"]], res["flap_rate_only"]
        out.append(f"| {res['label']} | {cf['lock']:.3f} | {cf['nu']:.4f} | {cf['b1s']:.3f} / {fl['b1s_p']:.3f} | "
                   f"{cf['b1c']:.3f} / {fl['b1c_p']:.3f} | {cf['dL_dp']:.0f} / {res['dim'][('p', 'p')]:.0f} |")
    pad = padfield_dimensional()
    out.append(f"\nPadfield (Helisim A rows times his inertia tensor): dL/dp {pad['L_p']:.0f}, dM/dq {pad['M_q']:.0f}, "
               f"dL/dq {pad['L_q']:.0f}, dM/dp {pad['M_p']:.0f} N m s/rad; his inertia: roll "
               f"{1 / np.linalg.inv(PADFIELD_TENSOR)[0, 0]:.1f} kg m^2 (Ixx - Ixz^2/Izz), pitch 4973.")
    return "\n".join(out)


def yaw_table(cfg, results):
    """Markdown: the yaw damping dN/dr split into the main rotor's torque reaction, the tail
    rotor's thrust (against the closed form) and the rest (airframe surfaces), against Padfield's."""
    arm = -cfg["fmus"]["fuselage"]["parameters"]["tail.x"]
    out = ["| case | dN/dr, N m s/rad | main rotor hub M_z per r | tail rotor: -arm dT/dr (closed form) | rest | "
           "N_r Helisim convention (ratio) |", "|---|---|---|---|---|---|"]
    for res in results:
        if res["id"] not in ("as-is", "hs-off", "no-tip-loss"):
            continue
        total = res["dim"][("r", "r")]
        main_rotor = res["yaw"]["rotor.hub.M.z"]
        tail = -arm * res["yaw"]["tail_aero.thrust"]
        _, tail_cf = tail_rotor_yaw_damping(cfg, res["heavy"])
        n_r = derivative(res["helisim"], "N_r")
        out.append(f"| {res['label']} | {total:.0f} | {main_rotor:.0f} | {tail:.0f} ({tail_cf:.0f}) | "
                   f"{total - main_rotor - tail:.0f} | {n_r:.3f} ({n_r / PADFIELD_HOVER['N_r']:.2f}) |")
    pad = PADFIELD_TENSOR[2] @ np.array([0.1277, 0.0, PADFIELD_HOVER["N_r"]])
    out.append(f"\nPadfield: dN/dr = Izz N_r - Ixz L_r = {pad:.0f} N m s/rad (Helisim's L_r 0.1277).")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "derivs"))
    parser.add_argument("--orchestrator", default=os.path.join(ROOT, "target", "release", "orchestrator"))
    parser.add_argument("--cases", default=",".join(c[0] for c in CASES),
                        help="comma-separated case ids (default: all): " + ", ".join(c[0] for c in CASES))
    parser.add_argument("--md", default=None, help="write the tables here too")
    parser.add_argument("--json", default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(SYSTEM) as f:
        cfg = json.load(f)
    results = study(args.orchestrator, args.out, args.cases.split(","))
    forms = closed_forms(cfg, results)
    text = "\n\n".join([parameter_table(cfg), results_table(results), closed_form_table(results, forms),
                         yaw_table(cfg, results)])
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text + "\n")
    if args.json:
        out = {r["id"]: {"label": r["label"], "sets": r["sets"],
                         "derivatives": {n: derivative(r["a_q"], n) for n in DERIVATIVES},
                         "helisim_convention": {n: derivative(r["helisim"], n) for n in DERIVATIVES if n != "Z_w"},
                         "dL_dp": r["dim"][("p", "p")], "dM_dq": r["dim"][("q", "q")],
                         "flap_rate_only": r["flap_rate_only"], "lambda0": r["lambda0"],
                         "closed_form": forms.get(r["id"])}
               for r in results}
        out["padfield_dimensional"] = padfield_dimensional()
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
