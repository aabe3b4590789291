"""A track error (one blade pitched `blade[1].pitch_offset` above the others) on the rigid Rotor with
the Aero FMU in hover, hub at rest, flap and lag hinges locked: the 1/rev hub moment and in-plane
hub force it makes, against a closed form derived here (none of our code).

Blade-element theory without small angles, as the Aero FMU's model (docs/models.md): at radius r a
section of the blade sees U_T = Omega r and, with a uniform induced inflow lambda, U_P = lambda
Omega R; its lift is 1/2 rho c a (theta - phi) U^2, phi = atan(U_P / U_T), normal to the section
velocity. The inflow is the same for every blade, so blade 1's pitch offset dtheta adds only
1/2 rho c a dtheta U^2 to its lift: along the shaft `U Omega r / U` of it, in the plane against the
rotation `U lambda Omega R / U`. The four blades' equal loads cancel at 1/rev, so the hub sees
blade 1's excess turning with it:

    M_1 = 1/2 rho c a dtheta Omega^2 int_{r_root}^{R} r^2 sqrt(r^2 + lambda^2 R^2) dr   (hub moment)
    F_1 = 1/2 rho c a dtheta Omega^2 lambda R int_{r_root}^{R} sqrt(r^2 + lambda^2 R^2) dr (in-plane force)

With blade 1 at azimuth psi along r (-cos psi, sin psi, 0) in body axes (shaft up, psi = 0 over
the tail) the extra thrust gives hub.M = -M_1 (sin psi, cos psi, 0) and the extra induced drag
hub.F = -F_1 (sin psi, cos psi, 0). Without inflow (`inflow_model` 0) lambda = 0 and
M_1 = 1/2 rho c a dtheta Omega^2 (R^4 - r_root^4) / 4, F_1 = 0. With uniform momentum inflow
(`inflow_model` 1) lambda solves momentum theory T = 2 rho pi R^2 (lambda Omega R)^2 with the blade-element
thrust T of the four blades, integrated here by scipy's adaptive quadrature.
"""

import csv
import json
import subprocess

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq

from conftest import FMU_DIR, ROOT

ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"
# Blades, rotor speed (rad/s), radius, hinge offset and aerodynamic root (m), chord (m), lift
# slope (1/rad), air density (kg/m3), collective and blade 1's pitch offset (rad).
NB, OMEGA, R, E, R_ROOT, CHORD, A, RHO = 4, 29.0, 7.5, 0.3, 0.3, 0.791427, 5.73, 1.225
THETA, D_THETA = 0.1, 0.02


def track_error_system(inflow_model):
    """Rotor (hinges locked, hub at rest) and Aero (no drag, no twist, Gauss-Legendre stations) with
    blade 1 pitched D_THETA above the collective THETA; one revolution recorded after 0.3 s."""
    loads = [f"aero.blade[*].{q}.{c} -> rotor.blade[*].{q}.{c}" for q in "FM" for c in "xyz"]
    kinematics = [f"rotor.blade[*].{q}.{c} -> aero.blade[*].{q}.{c}" for q in ("vel", "omega", "shaft") for c in "xyz"]
    return {
        "fmus": {
            "rotor": {"model": "Rotor", "parameters": {
                "nb": NB, "Omega": OMEGA, "R": R, "e": E, "blade.m": 100.0, "blade.S": 390.0, "blade.I": 1953.0,
                "blade.I_pitch": 0.0, "lock_flap": True, "lock_lag": True, "blade[1].pitch_offset": D_THETA}},
            "aero": {"model": "Aero", "parameters": {
                "nb": NB, "R": R, "e": E, "r_root": R_ROOT, "chord": CHORD, "twist": 0.0, "a": A, "cd0": 0.0,
                "cd2": 0.0, "rho": RHO, "n_sections": 20, "inflow_model": inflow_model, "Omega": OMEGA}},
        },
        "connections": kinematics + ["rotor.blade[*].azimuth -> aero.blade[*].azimuth"] + loads,
        "experiment": {"start": 0.0, "stop": 0.3 + 2 * np.pi / OMEGA, "step": 0.0005},
        "inputs": [{"to": "rotor.blade[*].pitch", "signal": {"step": {"time": 0.0, "before": THETA, "after": THETA}}}],
        "outputs": ["rotor.blade[1].azimuth", "aero.inflow"] + [f"rotor.hub.{q}.{c}" for q in "MF" for c in "xy"],
    }


def blade_element_thrust(lam):
    """Thrust (N) of the four blades at the uniform inflow ratio `lam`, without small angles."""
    u_p = lam * OMEGA * R

    def lift_along_shaft(r, theta):
        phi = np.arctan2(u_p, OMEGA * r)
        return 0.5 * RHO * CHORD * A * (theta - phi) * ((OMEGA * r) ** 2 + u_p**2) * np.cos(phi)

    thetas = [THETA + D_THETA] + [THETA] * (NB - 1)
    return sum(quad(lift_along_shaft, R_ROOT, R, args=(t,), epsabs=0.0, epsrel=1e-13)[0] for t in thetas)


def closed_form(inflow_model):
    """(lambda, M_1 in N m, F_1 in N) of the module's closed form."""
    lam = 0.0
    if inflow_model == 1:
        momentum = lambda l: blade_element_thrust(l) - 2.0 * RHO * np.pi * R**2 * (l * OMEGA * R) ** 2  # noqa: E731
        lam = brentq(momentum, 1e-6, 0.5, xtol=1e-15)
    scale = 0.5 * RHO * CHORD * A * D_THETA * OMEGA**2
    speed = lambda r: np.sqrt(r * r + (lam * R) ** 2)  # noqa: E731
    moment = scale * quad(lambda r: r * r * speed(r), R_ROOT, R, epsabs=0.0, epsrel=1e-13)[0]
    force = scale * lam * R * quad(speed, R_ROOT, R, epsabs=0.0, epsrel=1e-13)[0]
    return lam, moment, force


@pytest.mark.parametrize("inflow_model", [0, 1], ids=["no_inflow", "uniform_momentum_inflow"])
def test_a_track_error_gives_the_closed_form_one_per_rev_hub_loads(tmp_path, inflow_model):
    """Over the last revolution, least-squares fits `c0 + c1 cos psi + c2 sin psi` of hub.M.x,
    hub.M.y, hub.F.x, hub.F.y must be (0, 0, -M_1), (0, -M_1, 0), (0, 0, -F_1), (0, -F_1, 0) within
    1e-6 of M_1 (F_1) and the Aero's inflow lambda within 1e-9 (the Gauss-Legendre quadrature of
    the smooth integrands is far more accurate than that)."""
    path = tmp_path / f"track-{inflow_model}.json"
    path.write_text(json.dumps(track_error_system(inflow_model)))
    out = tmp_path / f"track-{inflow_model}.csv"
    run = subprocess.run(
        [str(ORCHESTRATOR), "run", str(path), "--out", str(out)],
        capture_output=True, text=True, env={"ROTORCRAFT_FMU_DIR": str(FMU_DIR), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    with open(out) as f:
        rows = list(csv.DictReader(f))
    last = [row for row in rows if float(row["time"]) >= 0.3 - 1e-9]
    psi = np.array([float(row["rotor.blade[1].azimuth"]) for row in last])
    basis = np.column_stack([np.ones_like(psi), np.cos(psi), np.sin(psi)])
    lam, moment, force = closed_form(inflow_model)
    expected = {
        "rotor.hub.M.x": (0.0, 0.0, -moment), "rotor.hub.M.y": (0.0, -moment, 0.0),
        "rotor.hub.F.x": (0.0, 0.0, -force), "rotor.hub.F.y": (0.0, -force, 0.0),
    }
    print(f"inflow_model {inflow_model}: lambda closed form {lam:.12f}, Aero {float(last[-1]['aero.inflow']):.12f}")
    assert abs(float(last[-1]["aero.inflow"]) - lam) < 1e-9, (last[-1]["aero.inflow"], lam)
    for name, want in expected.items():
        values = np.array([float(row[name]) for row in last])
        fit = np.linalg.lstsq(basis, values, rcond=None)[0]
        size = moment if name.startswith("rotor.hub.M") else force
        print(f"  {name}: 1/rev fit {fit[0]:+.6f} {fit[1]:+.6f} cos psi {fit[2]:+.6f} sin psi; closed form {want}")
        assert np.max(np.abs(fit - np.array(want))) <= 1e-6 * max(size, moment * 1e-3), (name, fit, want)
