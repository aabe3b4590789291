"""Ground resonance against an independent analysis (Coleman and Feingold's model): a hub mass on
isotropic or orthotropic springs carrying four rigid blades with lag hinges, no aerodynamics. Here the model is
derived from its Lagrangian with sympy, linearised, and its Floquet exponents are integrated
numerically over one revolution with scipy: none of our code. `orchestrator modes --multiblade`
builds the same system from our Fuselage (on landing-gear springs through its centre of mass,
rotations blocked by large inertia) and Rotor (flap locked, shaft driven) FMUs and linearises it.
The growth rates must agree across the rotor-speed sweep: inside the instability band (regressive
lag meeting the hub mode) and outside it, without and with lag dampers.
"""

import csv
import json
import subprocess

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from conftest import FMU_DIR, ROOT

ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"
# Hub (airframe) mass, total horizontal stiffness, blade count, blade mass, static moment and
# inertia about the lag hinge, hinge offset.
M, K, N, m, S, I, e = 1000.0, 4 * 47500.0, 4, 50.0, 100.0, 250.0, 0.3
SPEEDS = [10.0, 13.0, 14.0, 17.0, 20.0, 23.0, 26.0, 27.0, 30.0]


def coleman_equations(k_ratio=1.0, blade1_factor=1.0, blade1_mass=1.0, blade=(m, S, I)):
    """Mass, damping and stiffness matrices M(t) q'' + C(t) q' + K(t) q = 0 of q = (x, y, lag_1..N),
    as functions of (t, Omega, c_lag, c_hub), from the Lagrangian (c_hub: the hub's damper; the
    lateral stiffness is k_ratio K; blade 1's lag damper is blade1_factor c_lag, its mass, static
    moment and inertia blade1_mass times the others'; `blade`: mass, static moment and lag inertia
    about the hinge of one blade)."""
    m, S, I = blade
    t, omega, c, c_hub = sp.symbols("t Omega c c_hub")
    x, y = sp.Function("x")(t), sp.Function("y")(t)
    lag = [sp.Function(f"z{b}")(t) for b in range(N)]
    r = S / m
    kinetic = sp.Rational(1, 2) * M * (x.diff(t) ** 2 + y.diff(t) ** 2)
    potential = sp.Rational(1, 2) * K * (x**2 + k_ratio * y**2)
    for b in range(N):
        psi = omega * t + 2 * sp.pi * b / N
        theta = psi - lag[b]  # lag positive behind the rotation
        px = x + e * sp.cos(psi) + r * sp.cos(theta)
        py = y + e * sp.sin(psi) + r * sp.sin(theta)
        scale = blade1_mass if b == 0 else 1.0
        kinetic += sp.Rational(1, 2) * scale * m * (px.diff(t) ** 2 + py.diff(t) ** 2)
        kinetic += sp.Rational(1, 2) * scale * (I - m * r**2) * theta.diff(t) ** 2
    factors = [blade1_factor] + [1.0] * (N - 1)
    dissipation = sp.Rational(1, 2) * c * sum(f * z.diff(t) ** 2 for f, z in zip(factors, lag))
    dissipation += sp.Rational(1, 2) * c_hub * (x.diff(t) ** 2 + y.diff(t) ** 2)
    q = [x, y] + lag
    lagrangian = kinetic - potential
    equations = [
        sp.diff(lagrangian.diff(qi.diff(t)), t) - lagrangian.diff(qi) + dissipation.diff(qi.diff(t)) for qi in q
    ]
    eps = sp.symbols("eps")
    n = len(q)
    Q, Qd, Qdd = sp.symbols(f"Q0:{n}"), sp.symbols(f"Qd0:{n}"), sp.symbols(f"Qdd0:{n}")
    small = {}
    for i, qi in enumerate(q):
        small[qi.diff(t, 2)], small[qi.diff(t)], small[qi] = eps * Qdd[i], eps * Qd[i], eps * Q[i]
    linear = [sp.diff(eq.subs(small), eps).subs(eps, 0) for eq in equations]
    matrices = [sp.Matrix(n, n, lambda i, j, v=v: sp.diff(linear[i], v[j])) for v in (Qdd, Qd, Q)]
    return n, sp.lambdify((t, omega, c, c_hub), matrices, "numpy")


def floquet_growth(n, matrices, omega, c_lag, c_hub):
    """Largest real part of the Floquet exponents over one revolution."""

    def rhs(t, v):
        Mm, Cm, Km = (np.array(a, dtype=float) for a in matrices(t, omega, c_lag, c_hub))
        a = np.block([[np.zeros((n, n)), np.eye(n)], [-np.linalg.solve(Mm, Km), -np.linalg.solve(Mm, Cm)]])
        return (a @ v.reshape(2 * n, 2 * n)).ravel()

    period = 2 * np.pi / omega
    end = solve_ivp(rhs, (0, period), np.eye(2 * n).ravel(), rtol=1e-11, atol=1e-12).y[:, -1]
    mu = np.linalg.eigvals(end.reshape(2 * n, 2 * n)).astype(complex)
    return max(np.log(mu).real) / period


def system(c_lag, c_hub, k_ratio, blade1_factor=1.0, blade1_mass=1.0, blade=(m, S, I)):
    m, S, I = blade
    legs = {f"gear[{i}].{a}": 0.0 for i in range(1, 5) for a in "xyz"}
    return {
        "fmus": {
            "hub": {"model": "Fuselage", "parameters": {
                "mass": M, "cg.x": 0.0, "cg.y": 0.0, "cg.z": 0.0,
                "I.xx": 1e9, "I.yy": 1e9, "I.zz": 1e9, "I.xy": 0.0, "I.xz": 0.0, "I.yz": 0.0,
                "g": 0.0, "hub.x": 0.0, "hub.y": 0.0, "hub.z": 0.0, "z0": 0.001, "drag_area": 0.0,
                **legs, "gear.k": 1.0, "gear.c": 100.0, "gear.k_h": K / 4, "gear.c_h": c_hub / 4, "gear.k_h_ratio": k_ratio, "ground_z": 0.0}},
            "rotor": {"model": "Rotor", "parameters": {
                "nb": N, "Omega": 20.0, "R": 5.0, "e": e, "blade.m": m, "blade.S": S, "blade.I": I,
                "blade.I_pitch": 0.0, "k_lag": 0.0, "c_lag": c_lag,
                "blade[1].c_lag_factor": blade1_factor, "blade[1].mass_factor": blade1_mass, "k_flap": 0.0, "lock_flap": True, "hub.m": 0.0,
                "shaft.nx": 0.0, "shaft.ny": 0.0, "shaft.nz": -1.0, "shaft.ax": -1.0, "shaft.ay": 0.0, "shaft.az": 0.0}},
        },
        "connections": [
            "rotor.hub.F.* -> hub.hub.F.*", "rotor.hub.M.* -> hub.hub.M.*",
            "hub.hub.vel.* -> rotor.hub.vel.*", "hub.hub.omega.* -> rotor.hub.omega.*",
            "hub.hub.acc.* -> rotor.hub.acc.*", "hub.hub.alpha.* -> rotor.hub.alpha.*",
        ],
        "experiment": {"start": 0.0, "stop": 1.0, "step": 0.001},
        "outputs": ["hub.x", "hub.y"],
    }


def our_growth(tmp_path, c_lag, c_hub, k_ratio, blade1_factor=1.0, blade1_mass=1.0):
    """Largest real part of the eigenvalues per rotor speed, from `orchestrator modes
    --multiblade` (identical blades: a time-invariant system) or, with dissimilar blades, of the
    Floquet exponents from `orchestrator modes --floquet 72`."""
    identical = blade1_factor == 1.0 and blade1_mass == 1.0
    analysis = ["--multiblade"] if identical else ["--floquet", "72"]
    description = system(c_lag, c_hub, k_ratio, blade1_factor, blade1_mass)
    label = f"{c_lag}-{c_hub}-{k_ratio}-{blade1_factor}-{blade1_mass}"
    return modes_growth(tmp_path, label, description, SPEEDS, analysis)


def modes_growth(tmp_path, label, description, speeds, analysis):
    """Largest real part of the rotor and hub in-plane modes per rotor speed of `description` (a
    system dict), from `orchestrator modes` with the options `analysis`, swept over `speeds`."""
    path = tmp_path / f"coleman-{label}.json"
    path.write_text(json.dumps(description))
    out = tmp_path / f"modes-{label}"
    sweep = "rotor.Omega=" + ",".join(str(w) for w in speeds)
    run = subprocess.run(
        [str(ORCHESTRATOR), "modes", str(path), "--out", str(out), *analysis, "--sweep", sweep],
        capture_output=True, text=True, env={"ROTORCRAFT_FMU_DIR": str(FMU_DIR), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    growth = {}
    with open(out / "modes.csv") as f:
        for row in csv.DictReader(f):
            omega, re = float(row["rotor.Omega"]), float(row["re [1/s]"])
            # The modes of the Coleman-Feingold model: rotor lag and hub in-plane translation. The
            # airframe's other motions are not in it: attitude (neutral) and a slow bounce on the
            # soft vertical gear spring.
            hub_in_plane = ("hub.position.x", "hub.position.y", "hub.velocity.x", "hub.velocity.y")
            if row["mode"].startswith("rotor.") or row["mode"] in hub_in_plane:
                growth[omega] = max(growth.get(omega, -np.inf), re)
    return [growth[w] for w in speeds]


@pytest.mark.parametrize(
    "blade1",
    [{"blade1_factor": 0.0}, {"blade1_mass": 1.1}],
    ids=["one_lag_damper_inoperative", "imbalanced_blade"],
)
def test_dissimilar_blades_on_an_orthotropic_hub_need_floquet(tmp_path, blade1):
    """Lag dampers 3000 N m s/rad, lateral stiffness half the longitudinal, no hub damper, and
    blade 1 dissimilar: its lag damper inoperative (`blade[1].c_lag_factor` 0), or its mass,
    static moment and inertia 10 % above the others' (`blade[1].mass_factor` 1.1). The
    multiblade system keeps periodic coefficients, so `modes --floquet 72` must give the
    independent Floquet growth rate (72 midpoint samples: second order). 0.5 % is asserted. For
    the imbalanced blade our Floquet exponents are taken along the co-simulated trajectory, which
    the imbalance's 1/rev force moves off the zero state the reference linearises about (hub
    in-plane motion enters linearly; the lag angles it excites, about 1e-2 rad, enter the
    coefficients); the imbalance itself moves the growth rate by about 3 %."""
    n, matrices = coleman_equations(0.5, **blade1)
    reference = [floquet_growth(n, matrices, w, 3000.0, 0.0) for w in SPEEDS]
    ours = our_growth(tmp_path, 3000.0, 0.0, 0.5, **blade1)
    for omega, r, o in zip(SPEEDS, reference, ours):
        print(f"{blade1}: Omega {omega}: growth rate Coleman-Feingold {r:+.6f} 1/s, ours (Floquet) {o:+.6f} 1/s")
        assert abs(o - r) < 1e-4 + 5e-3 * abs(r), (omega, o, r)


@pytest.mark.parametrize(
    "c_lag, c_hub, k_ratio", [(0.0, 0.0, 1.0), (300.0, 0.0, 1.0), (3000.0, 40000.0, 1.0), (0.0, 0.0, 0.5)]
)
def test_ground_resonance_band_matches_the_coleman_feingold_model(tmp_path, c_lag, c_hub, k_ratio):
    n, matrices = coleman_equations(k_ratio)
    reference = [floquet_growth(n, matrices, w, c_lag, c_hub) for w in SPEEDS]
    ours = our_growth(tmp_path, c_lag, c_hub, k_ratio)
    for omega, r, o in zip(SPEEDS, reference, ours):
        print(
            f"c_lag {c_lag}, c_hub {c_hub}, k_y/k_x {k_ratio}: Omega {omega}: growth rate Coleman-Feingold {r:+.6f} 1/s, "
            f"ours {o:+.6f} 1/s"
        )
        assert abs(o - r) < 1e-6 + 1e-6 * abs(r), (omega, o, r)
    unstable = [w for w, r in zip(SPEEDS, reference) if r > 1e-6]
    if (c_lag, c_hub, k_ratio) == (0.0, 0.0, 1.0):
        # Undamped: stable below and above the band, unstable inside it.
        assert unstable[0] > 13.0 and unstable[-1] < 27.0 and 20.0 in unstable, unstable
    if c_hub > 0.0:
        # Lag and hub dampers together remove the instability (lag damping alone does not).
        assert unstable == [], unstable


# The elastic hinged rotor in the rigid limit: a uniform blade clamped at `ELASTIC_ROOT` m from the
# hinge (at `e`) out to `ELASTIC_TIP` m from it, 50 kg, so that as a continuous rigid rod it has the
# Coleman blade's S = 100 kg m and I = 250 kg m2 about the hinge; section stiffnesses 1000 times
# the shipped Bo105-class blade's (the rigid limit), section inertias per length (kg m).
ELASTIC_ROOT, ELASTIC_TIP = 2.0 - 3.0**0.5, 2.0 + 3.0**0.5
ELASTIC_MASS_PER_LENGTH = m / (ELASTIC_TIP - ELASTIC_ROOT)
ELASTIC_STIFFNESS = {"EA": 5e10, "EI_flap": 6.2e6, "EI_lag": 6.5e7, "GJ": 4.8e6}
ELASTIC_SECTION_INERTIA = {"I_flap": 1e-4, "I_lag": 0.027}
ELASTIC_ELEMENTS = 2
ELASTIC_SPEEDS = [14.0, 20.0, 23.0]


def elastic_blade_table():
    """The blade table (CSV with units) of the stiff uniform blade, radii from the shaft."""
    columns = {"radius [m]": None, "EA [N]": ELASTIC_STIFFNESS["EA"], "EI_flap [N m^2]": ELASTIC_STIFFNESS["EI_flap"],
               "EI_lag [N m^2]": ELASTIC_STIFFNESS["EI_lag"], "GJ [N m^2]": ELASTIC_STIFFNESS["GJ"],
               "mass [kg/m]": ELASTIC_MASS_PER_LENGTH, "I_flap [kg m]": ELASTIC_SECTION_INERTIA["I_flap"],
               "I_lag [kg m]": ELASTIC_SECTION_INERTIA["I_lag"]}
    rows = [", ".join(str(e + r if v is None else v) for v in columns.values()) for r in (ELASTIC_ROOT, ELASTIC_TIP)]
    return ", ".join(columns) + "\n" + "\n".join(rows) + "\n"


def lumped_rigid_blade(elements):
    """Mass, static moment and lag inertia about the hinge of the stiff blade as RotorElastic lumps
    it (docs/models.md, Beam): each of the equal elements puts half its mass and half its section
    lag inertia on each end node, plus (rotary_inertia_scaling, the default) half its mass times
    its length^2 / 12 as lag inertia on each end node. These are the rigid rod's properties whose
    limit the stiff elastic blade reaches; written here from those definitions, not read from our
    code."""
    length = (ELASTIC_TIP - ELASTIC_ROOT) / elements
    half_mass = 0.5 * ELASTIC_MASS_PER_LENGTH * length
    mass = static = inertia = 0.0
    for k in range(elements):
        for arm in (ELASTIC_ROOT + k * length, ELASTIC_ROOT + (k + 1) * length):
            mass += half_mass
            static += half_mass * arm
            inertia += half_mass * arm**2 + ELASTIC_SECTION_INERTIA["I_lag"] * 0.5 * length + half_mass * length**2 / 12
    return mass, static, inertia


def elastic_system(tmp_path, c_lag, k_ratio, blade1_factor):
    """The Coleman-Feingold hub of `system` carrying RotorElastic on the articulated hub
    (`hub_type` 1, lag and flap hinges at `e`, no springs) with the stiff blade."""
    table = tmp_path / "stiff_blade.csv"
    table.write_text(elastic_blade_table())
    description = system(c_lag, 0.0, k_ratio, blade1_factor)
    description["fmus"]["rotor"] = {"model": "RotorElastic", "parameters": {
        "nb": N, "Omega": 20.0, "hub_type": 1, "e": e, "k_lag": 0.0, "k_flap": 0.0, "c_lag": c_lag,
        "blade[1].c_lag_factor": blade1_factor, "n_elements": ELASTIC_ELEMENTS, "structural_damping": 0.0,
        "blade_file": str(table)}}
    return description


def test_one_lag_damper_inoperative_on_the_stiff_elastic_hinged_rotor(tmp_path):
    """Ground resonance of the elastic hinged rotor with one lag damper inoperative: RotorElastic
    (`hub_type` 1, 2 elements, blades 1000 times stiffer than the shipped one) on the orthotropic
    Coleman-Feingold hub, lag dampers 3000 N m s/rad, `blade[1].c_lag_factor` 0, at 14, 20 and 23
    rad/s. `modes --floquet 72` must give the growth rate of the rigid Rotor on the same hub with
    the same (lumped) blade and the same inoperative damper, and of the independent sympy/scipy
    Floquet analysis with blade 1's damper removed: within 0.5 %. With every damper working the
    system is time-invariant in multiblade coordinates: `modes --multiblade` of the elastic rotor
    against the same analysis with every damper; at these speeds the inoperative damper raises
    the growth rate (1.2 to 2.2 times)."""
    blade = lumped_rigid_blade(ELASTIC_ELEMENTS)
    n, matrices = coleman_equations(0.5, blade1_factor=0.0, blade=blade)
    reference = [floquet_growth(n, matrices, w, 3000.0, 0.0) for w in ELASTIC_SPEEDS]
    n_on, matrices_on = coleman_equations(0.5, blade=blade)
    reference_on = [floquet_growth(n_on, matrices_on, w, 3000.0, 0.0) for w in ELASTIC_SPEEDS]
    floquet = ["--floquet", "72"]
    rigid = modes_growth(tmp_path, "rigid-lumped", system(3000.0, 0.0, 0.5, 0.0, blade=blade), ELASTIC_SPEEDS, floquet)
    elastic = modes_growth(tmp_path, "elastic", elastic_system(tmp_path, 3000.0, 0.5, 0.0), ELASTIC_SPEEDS, floquet)
    elastic_on = modes_growth(
        tmp_path, "elastic-on", elastic_system(tmp_path, 3000.0, 0.5, 1.0), ELASTIC_SPEEDS, ["--multiblade"]
    )
    for omega, r, o_rigid, o_elastic, r_on, o_on in zip(
        ELASTIC_SPEEDS, reference, rigid, elastic, reference_on, elastic_on
    ):
        print(
            f"Omega {omega}: growth rate, blade 1 damper off: Coleman-Feingold {r:+.6f}, Rotor {o_rigid:+.6f}, "
            f"RotorElastic {o_elastic:+.6f} 1/s; every damper on: Coleman-Feingold {r_on:+.6f}, "
            f"RotorElastic {o_on:+.6f} 1/s"
        )
        assert abs(o_rigid - r) < 1e-4 + 5e-3 * abs(r), (omega, o_rigid, r)
        assert abs(o_elastic - r) < 1e-4 + 5e-3 * abs(r), (omega, o_elastic, r)
        assert abs(o_elastic - o_rigid) < 1e-4 + 5e-3 * abs(o_rigid), (omega, o_elastic, o_rigid)
        assert abs(o_on - r_on) < 1e-4 + 5e-3 * abs(r_on), (omega, o_on, r_on)
        assert o_elastic > 1.2 * o_on, (omega, o_elastic, o_on)
