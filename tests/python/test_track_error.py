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

The same case on RotorElastic (hingeless, elastic blades; docs/validation.md, "Track error on
RotorElastic in the rigid limit"): its departure from the closed form is the static deflection of
the blade (the centrifugal loads of its deflected masses), which falls as 1/stiffness; in the
limit of infinite stiffness it gives the closed form, plus the propeller moment of blade 1's pitched
sections (which the rigid Rotor case, without pitch inertia, does not have).
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


def last_revolution(tmp_path, name, description):
    """The output rows from 0.3 s on of `orchestrator run` of `description`."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(description))
    out = tmp_path / f"{name}.csv"
    run = subprocess.run(
        [str(ORCHESTRATOR), "run", str(path), "--out", str(out)],
        capture_output=True, text=True, env={"ROTORCRAFT_FMU_DIR": str(FMU_DIR), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    with open(out) as f:
        return [row for row in csv.DictReader(f) if float(row["time"]) >= 0.3 - 1e-9]


def one_per_rev_fits(rows):
    """Least-squares `(c0, c1, c2)` of `c0 + c1 cos psi + c2 sin psi` (psi blade 1's azimuth) of
    hub.M.x, hub.M.y, hub.F.x, hub.F.y over `rows`."""
    psi = np.array([float(row["rotor.blade[1].azimuth"]) for row in rows])
    basis = np.column_stack([np.ones_like(psi), np.cos(psi), np.sin(psi)])
    names = [f"rotor.hub.{q}.{c}" for q in "MF" for c in "xy"]
    return {n: np.linalg.lstsq(basis, np.array([float(row[n]) for row in rows]), rcond=None)[0] for n in names}


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
    last = last_revolution(tmp_path, f"track-{inflow_model}", track_error_system(inflow_model))
    fits = one_per_rev_fits(last)
    lam, moment, force = closed_form(inflow_model)
    expected = {
        "rotor.hub.M.x": (0.0, 0.0, -moment), "rotor.hub.M.y": (0.0, -moment, 0.0),
        "rotor.hub.F.x": (0.0, 0.0, -force), "rotor.hub.F.y": (0.0, -force, 0.0),
    }
    print(f"inflow_model {inflow_model}: lambda closed form {lam:.12f}, Aero {float(last[-1]['aero.inflow']):.12f}")
    assert abs(float(last[-1]["aero.inflow"]) - lam) < 1e-9, (last[-1]["aero.inflow"], lam)
    for name, want in expected.items():
        fit = fits[name]
        size = moment if name.startswith("rotor.hub.M") else force
        print(f"  {name}: 1/rev fit {fit[0]:+.6f} {fit[1]:+.6f} cos psi {fit[2]:+.6f} sin psi; closed form {want}")
        assert np.max(np.abs(fit - np.array(want))) <= 1e-6 * max(size, moment * 1e-3), (name, fit, want)


# RotorElastic in the rigid limit (`hub_type` 0: each blade a beam clamped behind its pitch bearing at
# r = E on the pitch axis, out to R): its blade has a mass per length linear in the span with the
# Rotor case's mass 100 kg and static moment 390 kg m about the clamp (so its second moment is
# 1944 kg m^2, not 1953: the closed form has no mass in it), section inertias I_FLAP and I_LAG (kg
# m) and the shipped Bo105-class blade's section stiffness (`bo105_uniform_blade.csv`; EA 5e5 N
# instead of 5e7, see the rigid-limit test) times a factor. BDF2 steps (L-stable: the midpoint rule
# keeps the stiff blade's fast components); the stiffness-proportional damping (1e-3 s) kills the
# start transient.
ELASTIC_ELEMENTS = 8
I_FLAP, I_LAG = 1e-4, 0.027
SECTION_STIFFNESS = {"EA [N]": 5e5, "GA_flap [N]": 5e6, "GA_lag [N]": 5e6, "EI_flap [N m^2]": 6.2e3,
                     "EI_lag [N m^2]": 6.5e4, "GJ [N m^2]": 4.8e3}


def mass_per_length():
    """`(a, b)` of the mass per length `a + b s` (kg/m, s from the clamp) with mass 100 kg and
    static moment 390 kg m about the clamp."""
    length = R - E
    return np.linalg.solve([[length, length**2 / 2], [length**2 / 2, length**3 / 3]], [100.0, 390.0])


def elastic_blade_table(stiffness_factor, isotropic=False):
    """The blade table (CSV, units in the headers): two stations, at the clamp and the tip;
    `isotropic`: EI_lag = EI_flap."""
    length = R - E
    a, b = mass_per_length()
    stiffness = dict(SECTION_STIFFNESS, **({"EI_lag [N m^2]": SECTION_STIFFNESS["EI_flap [N m^2]"]} if isotropic else {}))
    header = ["radius [m]", *stiffness, "mass [kg/m]", "I_flap [kg m]", "I_lag [kg m]"]
    rows = [[radius, *(v * stiffness_factor for v in stiffness.values()), mass, I_FLAP, I_LAG]
            for radius, mass in ((E, a), (R, a + b * length))]
    return "\n".join(", ".join(map(str, row)) for row in [header, *rows]) + "\n"


def lumped_node_masses():
    """Each element's mass (mass per length at its middle times its length) half on each end node."""
    radii = np.linspace(E, R, ELASTIC_ELEMENTS + 1)
    length = radii[1] - radii[0]
    a, b = mass_per_length()
    halves = 0.5 * length * (a + b * (radii[:-1] + 0.5 * length - E))
    return radii, np.append(halves, 0.0) + np.insert(halves, 0, 0.0)


def elastic_track_error_system(table, inflow_model, stations):
    """RotorElastic with the blade `table` and Aero on the rigid-blade interface (`aero_interface`
    0; Aero's moment reference, its `e`, is the clamp) or AeroStations on the station interface
    (1), blade 1 pitched D_THETA above the collective THETA; the node positions of blades 1 and 2
    recorded besides the hub loads."""
    description = track_error_system(inflow_model)
    description["fmus"]["rotor"] = {"model": "RotorElastic", "parameters": {
        "nb": NB, "Omega": OMEGA, "blade_file": str(table), "n_elements": ELASTIC_ELEMENTS, "hub_type": 0,
        "integrator": 2, "tolerance": 1e-11, "structural_damping": 1e-3, "aero_interface": int(stations),
        "blade[1].pitch_offset": D_THETA}}
    if stations:
        aero = description["fmus"]["aero"]["parameters"]
        description["fmus"]["aero"] = {"model": "AeroStations", "parameters": {
            k: aero[k] for k in ("nb", "R", "chord", "twist", "a", "cd0", "cd2", "rho", "inflow_model", "Omega")}}
        description["connections"] = [
            f"rotor.blade[*].{q}.{c} -> aero.blade[*].{q}.{c}" for q in ("pos", "velocity", "ey", "ez") for c in "xyz"
        ] + ["rotor.blade[*].width -> aero.blade[*].width"] + [
            f"aero.blade[*].{q}.{c} -> rotor.blade[*].{q}.{c}" for q in "fm" for c in "xyz"]
    description["outputs"] += [f"rotor.blade[{b}].azimuth" for b in (1, 2)] + [
        f"rotor.blade[{b}].station[{k}].pos.{c}" for b in (1, 2) for k in range(1, ELASTIC_ELEMENTS + 2) for c in "xyz"]
    return description


def propeller_moment(theta):
    """Magnitude (N m) of the moment a blade pitched `theta` puts on the hub about its span: the
    gyroscopic `Omega^2 (I_lag - I_flap) sin theta cos theta` of its sections (rigid body spinning
    about the shaft with its principal axes pitched; the rotary-inertia scaling adds the same to
    both inertias), towards the blade's root (it turns the blade nose down)."""
    return OMEGA**2 * (I_LAG - I_FLAP) * (R - E) * np.sin(theta) * np.cos(theta)


def elastic_closed_form(inflow_model, stations):
    """(M_1, F_1, P_1): the closed form's hub moment and in-plane force, and blade 1's excess
    propeller moment. On the station interface the lift integrals are AeroStations' trapezoidal
    sums over the beam nodes (equal elements; no inflow only: its inflow is Pitt-Peters, whose
    cyclic states a 1/rev moment would drive)."""
    _, moment, force = closed_form(inflow_model)
    if stations:
        radii = np.linspace(E, R, ELASTIC_ELEMENTS + 1)
        widths = np.full_like(radii, radii[1] - radii[0])
        widths[[0, -1]] *= 0.5
        moment = 0.5 * RHO * CHORD * A * D_THETA * OMEGA**2 * np.sum(widths * radii**3)
    return moment, force, propeller_moment(THETA + D_THETA) - propeller_moment(THETA)


@pytest.mark.parametrize(("stations", "inflow_model"), [(False, 0), (False, 1), (True, 0)],
                         ids=["rigid_blade_interface", "rigid_blade_interface_uniform_inflow", "station_interface"])
def test_the_stiff_elastic_rotor_gives_the_closed_form_in_the_rigid_limit(tmp_path, stations, inflow_model):
    """RotorElastic with blades 1e5 and 1e7 times stiffer than the Bo105-class one: its 1/rev hub
    loads depart from the closed form (plus blade 1's excess propeller moment P_1 about its span,
    `hub.M += P_1 (cos psi, -sin psi, 0)`) by the static deflection's first-order share, which falls
    as 1/stiffness: the departure of the softer blade is 100 times the stiffer's (within 2 %), and
    the Richardson extrapolation of the two to infinite stiffness is the closed form within 1e-5 of
    M_1 (of F_1 for the forces; without inflow, where F_1 = 0, of M_1 / R, the order of blade 1's
    excess lift): nothing else (moment reference, kinematics, load spreading, azimuth) is left at
    that level. The stiffer blade alone is within 2e-4 (its chord cones 1e-6 rad more than the
    others' under the excess lift). EA is scaled with the rest, but from 5e5 N, so that the
    stiffest blade's tension (about 3.5e5 N) is not lost to the round-off of EA times its strain."""
    moment, force, propeller = elastic_closed_form(inflow_model, stations)
    expected = {
        "rotor.hub.M.x": (0.0, propeller, -moment), "rotor.hub.M.y": (0.0, -moment, -propeller),
        "rotor.hub.F.x": (0.0, 0.0, -force), "rotor.hub.F.y": (0.0, -force, 0.0),
    }
    departures = {}
    for factor in (1e5, 1e7):
        table = tmp_path / f"blade-{factor:g}.csv"
        table.write_text(elastic_blade_table(factor))
        rows = last_revolution(tmp_path, f"elastic-{factor:g}", elastic_track_error_system(table, inflow_model, stations))
        fits = one_per_rev_fits(rows)
        departures[factor] = {n: fits[n] - np.array(want) for n, want in expected.items()}
    print(f"closed form: M_1 {moment:.6f} N m, F_1 {force:.6f} N, P_1 {propeller:.6f} N m")
    for name in expected:
        soft, stiff = departures[1e5][name], departures[1e7][name]
        limit = (1e7 * stiff - 1e5 * soft) / (1e7 - 1e5)
        size = moment if name.startswith("rotor.hub.M") else force or moment / R
        print(f"  {name}: departure (c0, cos, sin) x1e5 {soft}, x1e7 {stiff}, extrapolated {limit}")
        assert np.max(np.abs(limit)) <= 1e-5 * size, (name, limit)
        assert np.max(np.abs(stiff)) <= 2e-4 * size, (name, stiff)
    for name, k in [("rotor.hub.M.x", 2)] + ([("rotor.hub.F.x", 2)] if force else []):
        ratio = departures[1e5][name][k] / departures[1e7][name][k]
        print(f"  {name} sin psi: departure ratio x1e5 / x1e7 {ratio:.4f} (1/stiffness: 100)")
        assert abs(ratio / 100.0 - 1.0) < 0.02, (name, ratio)


def test_a_softer_elastic_rotors_departure_is_the_centrifugal_load_of_its_deflected_blade(tmp_path):
    """Where the departure comes from, on a blade stiff enough to look rigid but not enough for
    the closed form (1e4 times the Bo105-class stiffness; uniform momentum inflow): 4.4 % less
    1/rev hub moment, 9 % more in-plane force. In steady hover every node moves on its circle, so
    the hub load is the spread aerodynamic load plus the centrifugal loads `m_k Omega^2 (x_k, y_k,
    0)` of the lumped masses at their deflected positions `(x_k, y_k, w_k)` (shaft frame of the
    blade: x radial, y along the rotation, w along the shaft). Blade 1's excess coning `dw_k`
    gives back the moment `Omega^2 sum m_k x_k dw_k` (the centrifugal relief of a hingeless
    blade), its excess lag `dy_k` (mostly the lift bending the section pitched 0.12 rad along its
    weak axis, tilted out of the disk) adds `Omega^2 sum m_k dy_k` against the rotation. Those
    two, from the recorded node positions (blade 1 minus blade 2, averaged over the revolution)
    and the lumped masses, must be the departures of the 1/rev fit from the closed form within 1 %
    of each, leaving the aerodynamic loads of the deflected blade at the closed form's."""
    table = tmp_path / "blade-1e4.csv"
    table.write_text(elastic_blade_table(1e4))
    description = elastic_track_error_system(table, 1, False)
    description["fmus"]["rotor"]["parameters"]["structural_damping"] = 1e-2
    rows = last_revolution(tmp_path, "elastic-1e4", description)
    fits = one_per_rev_fits(rows)
    moment, force, _ = elastic_closed_form(1, False)
    radii, masses = lumped_node_masses()

    def shaft_frame_positions(row, b):
        """(x, y, w) of blade b's nodes: radial `(-cos psi, sin psi, 0)`, along the rotation
        `(sin psi, cos psi, 0)`, up `(0, 0, -1)` in body axes (shaft along -z, psi = 0 over the tail)."""
        psi = float(row[f"rotor.blade[{b}].azimuth"])
        axes = np.array([[-np.cos(psi), np.sin(psi), 0.0], [np.sin(psi), np.cos(psi), 0.0], [0.0, 0.0, -1.0]])
        pos = [[float(row[f"rotor.blade[{b}].station[{k}].pos.{c}"]) for c in "xyz"] for k in range(1, len(radii) + 1)]
        return np.array(pos) @ axes.T

    excess = np.mean([shaft_frame_positions(row, 1) - shaft_frame_positions(row, 2) for row in rows], axis=0)
    relief = OMEGA**2 * np.sum(masses * radii * excess[:, 2])
    pull = OMEGA**2 * np.sum(masses * excess[:, 1])
    departures = {"moment": (-fits["rotor.hub.M.x"][2] - moment, -relief),
                  "in-plane force": (-fits["rotor.hub.F.x"][2] - force, -pull)}
    for name, (measured, predicted) in departures.items():
        size = moment if name == "moment" else force
        print(f"  {name}: departure {measured:+.4f} ({measured / size:+.5f} of the closed form), centrifugal "
              f"load of the deflected blade {predicted:+.4f} ({predicted / size:+.5f})")
        assert abs(measured - predicted) <= 0.01 * abs(measured), (name, measured, predicted)


def test_without_drag_only_the_pitched_anisotropic_section_pulls_the_hub_sideways(tmp_path):
    """Without inflow the section loads have no in-plane component (lift along the shaft, no drag):
    the in-plane 1/rev force of the softer blade (1e4) then comes from the lift bending the section,
    pitched 0.12 rad, along its weak (flap) principal axis, which is tilted out of the disk, so that
    the blade also deflects in the plane. With EI_lag = EI_flap that deflection is along the load
    and the force must vanish (below 1e-3 N); with the table's EI_lag = 10.5 EI_flap it is tens of
    newtons."""
    forces = {}
    for isotropic in (False, True):
        table = tmp_path / f"blade-1e4-{isotropic}.csv"
        table.write_text(elastic_blade_table(1e4, isotropic))
        description = elastic_track_error_system(table, 0, False)
        description["fmus"]["rotor"]["parameters"]["structural_damping"] = 1e-2
        fits = one_per_rev_fits(last_revolution(tmp_path, f"elastic-1e4-{isotropic}", description))
        forces[isotropic] = fits["rotor.hub.F.x"][2]
        print(f"  EI_lag = EI_flap {isotropic}: in-plane force against the rotation {-forces[isotropic]:+.6f} N")
    assert abs(forces[True]) < 1e-3 and -forces[False] > 10.0, forces
