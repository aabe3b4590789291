#!/usr/bin/env python3
"""Independent reference values for the geometrically exact beam (fmu-rotor/src/beam).

Written apart from the Rust code, from the textbook equations only:

* the elastica of a cantilever under a tip force perpendicular to the undeformed axis, dead
  (fixed direction) and follower (always normal to the tip tangent): tip position and rotation
  from closed forms in incomplete elliptic integrals (SciPy), each cross-checked against a
  shooting solution of the elastica ODE (relative agreement asserted below 1e-9);
* the Euler-Bernoulli cantilever eigenvalues beta_n L (roots of cos x cosh x + 1 = 0) and the
  torsion eigenvalues (2n - 1) pi / 2;
* the rotating uniform Euler-Bernoulli cantilever (root on the axis, no hub offset):
  (EI w'')'' - (T w')' = m omega^2 w with T = m Omega^2 (L^2 - x^2) / 2, by shooting (DOP853,
  rtol 1e-12) and bisection on the tip boundary determinant; in-plane (lag) frequencies follow
  exactly as omega_lag^2 = omega_flap^2 - Omega^2 (same equation with the -m Omega^2 w term).

* the rotating beam of `examples/rotating-beam.json` (the RotorElastic FMU's shipped
  `uniform_beam.csv`: L = 1 m from the shaft axis, m = 1 kg/m, EI_flap = 1 N m^2, EI_lag = 4 N m^2):
  flap frequencies in rad/s equal the nondimensional ones at the nondimensional speed Omega;
  lag from the same equation with EI_lag, omega_lag^2 = 4 lambda(Omega / 2)^2 - Omega^2, written
  to examples/rotating-beam-reference.csv.

Run from the repository root:

    /work/main/target/venv/bin/python tests/python/beam_reference.py --write

to (re)write fmu-rotor/tests/rotor/beam/data/*.csv; without --write it prints them.
"""

import argparse
import os
import sys

import numpy as np
from scipy.integrate import quad, solve_ivp
from scipy.optimize import brentq
from scipy.special import ellipeinc, ellipkinc, ellipk, ellipe

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "fmu-rotor", "tests", "rotor", "beam", "data")
ODE = dict(method="DOP853", rtol=1e-12, atol=1e-14)


def dead_closed_form(alpha):
    """Tip (x/L, z/L, theta) for a dead tip force P, alpha = P L^2 / EI.

    EI theta'' = -P cos(theta), theta(0) = 0, theta'(L) = 0; with 1 + sin(theta) =
    2 k^2 sin^2(phi), k^2 = (1 + sin(theta0)) / 2: sqrt(alpha) = K(k) - F(phi1, k),
    sin(phi1) = 1 / (k sqrt 2); x/L = 2 k cos(phi1) / sqrt(alpha);
    z/L = 1 - 2 (E(k) - E(phi1, k)) / sqrt(alpha)."""

    def parts(theta0):
        m = (1 + np.sin(theta0)) / 2
        k = np.sqrt(m)
        phi1 = np.arcsin(1 / (k * np.sqrt(2)))
        return m, k, phi1

    def residual(theta0):
        m, _, phi1 = parts(theta0)
        return ellipk(m) - ellipkinc(phi1, m) - np.sqrt(alpha)

    theta0 = brentq(residual, 1e-9, np.pi / 2 - 1e-12, xtol=1e-15, rtol=1e-15)
    m, k, phi1 = parts(theta0)
    x = 2 * k * np.cos(phi1) / np.sqrt(alpha)
    z = 1 - 2 * (ellipe(m) - ellipeinc(phi1, m)) / np.sqrt(alpha)
    return x, z, theta0


def follower_closed_form(alpha):
    """Tip (x/L, z/L, theta) for a follower tip force P normal to the tip tangent.

    EI theta'' = -P cos(theta0 - theta); with gamma = theta0 - theta: sqrt(2 alpha) = I0,
    x/L = (cos(theta0) I1 + sin(theta0) I2) / sqrt(2 alpha), z/L = (sin(theta0) I1 -
    cos(theta0) I2) / sqrt(2 alpha), I0 = int_0^theta0 dg / sqrt(sin g), I1 = 2 sqrt(sin theta0),
    I2 = int_0^theta0 sqrt(sin g) dg. With sin g = cos 2u and the reciprocal-modulus
    transformation (sin b = sqrt 2 sin u): int_0^u du / sqrt(1 - 2 sin^2 u) = F(b|1/2) / sqrt 2,
    int_0^u sqrt(1 - 2 sin^2 u) du = sqrt 2 E(b|1/2) - F(b|1/2) / sqrt 2."""

    def g_and_h(u):
        b = np.arcsin(np.clip(np.sqrt(2) * np.sin(u), -1, 1))
        f, e = ellipkinc(b, 0.5), ellipeinc(b, 0.5)
        return f / np.sqrt(2), np.sqrt(2) * e - f / np.sqrt(2)

    def integrals(theta0):
        u0 = (np.pi / 2 - theta0) / 2
        g_top, h_top = g_and_h(np.pi / 4)
        g0, h0 = g_and_h(u0)
        return 2 * (g_top - g0), 2 * (h_top - h0)

    theta0 = brentq(lambda t: integrals(t)[0] - np.sqrt(2 * alpha), 1e-9, np.pi - 1e-9,
                    xtol=1e-15, rtol=1e-15)
    i0, i2 = integrals(theta0)
    i1 = 2 * np.sqrt(np.sin(theta0))
    s = np.sqrt(2 * alpha)
    # Cross-check the elliptic forms of I0, I2 by quadrature.
    q0 = quad(lambda g: 1 / np.sqrt(np.sin(g)), 0, theta0, epsabs=1e-14, epsrel=1e-13, limit=200)[0]
    q2 = quad(lambda g: np.sqrt(np.sin(g)), 0, theta0, epsabs=1e-14, epsrel=1e-13, limit=200)[0]
    assert abs(q0 - i0) < 1e-9 * i0 and abs(q2 - i2) < 1e-9 * i2, (q0, i0, q2, i2)
    x = (np.cos(theta0) * i1 + np.sin(theta0) * i2) / s
    z = (np.sin(theta0) * i1 - np.cos(theta0) * i2) / s
    return x, z, theta0


def elastica_shooting(alpha, follower):
    """The same tip values by shooting on theta'(0) (unit length, EI = 1, P = alpha)."""

    if not follower:
        # EI theta'' = -P cos(theta); shoot on theta'(0) for theta'(1) = 0.
        def tip(c0):
            def rhs(_, y):
                theta, kappa, x, z = y
                return [kappa, -alpha * np.cos(theta), np.cos(theta), np.sin(theta)]

            return solve_ivp(rhs, (0, 1), [0, c0, 0, 0], **ODE).y[:, -1]

        c0 = brentq(lambda c: tip(c)[1], 0, alpha * 1.0000001, xtol=1e-15, rtol=1e-15)
        theta, _, x, z = tip(c0)
        return x, z, theta

    # Follower: unknowns theta'(0) and theta0; the force direction n = (-sin t0, cos t0), so
    # EI theta'' = -P (cos(theta) cos(t0) + sin(theta) sin(t0)); require theta'(1) = 0 and
    # theta(1) = t0 (Newton on the two conditions via fsolve).
    from scipy.optimize import fsolve

    def shoot(p):
        c0, t0 = p

        def rhs(_, y):
            theta, kappa, x, z = y
            return [kappa, -alpha * np.cos(theta - t0), np.cos(theta), np.sin(theta)]

        return solve_ivp(rhs, (0, 1), [0, c0, 0, 0], **ODE).y[:, -1]

    guess = follower_closed_form(alpha)[2]
    c0, t0 = fsolve(lambda p: [shoot(p)[1], shoot(p)[0] - p[1]], [alpha, guess], xtol=1e-13)
    theta, _, x, z = shoot([c0, t0])
    return x, z, theta


def elastica_table():
    rows = []
    for kind, alphas in (("dead", (1.0, 2.0, 5.0, 10.0)), ("follower", (1.0, 2.0, 5.0))):
        for alpha in alphas:
            closed = (dead_closed_form if kind == "dead" else follower_closed_form)(alpha)
            shot = elastica_shooting(alpha, kind == "follower")
            for c, s in zip(closed, shot):
                assert abs(c - s) < 1e-9 * max(abs(c), 1e-3), (kind, alpha, closed, shot)
            rows.append((kind, alpha) + tuple(closed))
    return rows


def cantilever_roots(count=4):
    f = lambda x: np.cos(x) * np.cosh(x) + 1
    roots = []
    for n in range(1, count + 1):
        guess = (2 * n - 1) * np.pi / 2
        roots.append(brentq(f, guess - 1.2, guess + 1.2, xtol=1e-15, rtol=1e-15) if n > 1
                     else brentq(f, 1.0, 2.5, xtol=1e-15, rtol=1e-15))
    return roots


def rotating_frequencies(speed, count=3):
    """Nondimensional flap frequencies omega sqrt(m L^4 / EI) at the nondimensional rotor
    speed Omega sqrt(m L^4 / EI) for a uniform cantilever on the rotation axis."""

    def tip_determinant(lam):
        def rhs(x, y):
            w, w1, w2, w3 = y
            tension = 0.5 * speed**2 * (1 - x * x)
            return [w1, w2, w3, tension * w2 - speed**2 * x * w1 + lam**2 * w]

        tips = [solve_ivp(rhs, (0, 1), y0, **ODE).y[:, -1] for y0 in ([0, 0, 1, 0], [0, 0, 0, 1])]
        # Tip: w'' = 0 and w''' - T(1) w' = w''' = 0 (T(1) = 0).
        return tips[0][2] * tips[1][3] - tips[0][3] * tips[1][2]

    grid = np.linspace(0.5, 80.0, 1600)
    values = [tip_determinant(lam) for lam in grid]
    roots = []
    for a, b, fa, fb in zip(grid[:-1], grid[1:], values[:-1], values[1:]):
        if fa * fb < 0:
            roots.append(brentq(tip_determinant, a, b, xtol=1e-14, rtol=1e-14))
            if len(roots) == count:
                break
    return roots


EXAMPLE = os.path.join("..", "..", "..", "..", "..", "examples", "rotating-beam-reference.csv")
EXAMPLE_EI_LAG_OVER_EI_FLAP = 4.0


def rotating_beam_example(flap_by_speed):
    """Reference frequencies (rad/s) of examples/rotating-beam.json's unit beam (L = 1 m,
    m = 1 kg/m, EI_flap = 1 N m^2, EI_lag = 4 N m^2, root on the axis) at the rotor speeds
    Omega (rad/s) of `flap_by_speed` (its flap values, nondimensional = rad/s here).

    Lag: the in-plane Euler-Bernoulli equation is the flap one with EI_lag and the extra term
    -m Omega^2 v, so omega_lag^2 = omega(EI_lag)^2 - Omega^2 with omega(EI_lag) = r lambda(Omega / r),
    r = sqrt(EI_lag / EI_flap) (the nondimensional speed scales with 1 / r)."""
    r = np.sqrt(EXAMPLE_EI_LAG_OVER_EI_FLAP)
    text = ("# /work/main/target/venv/bin/python tests/python/beam_reference.py --write\n"
            "# rotating uniform Euler-Bernoulli cantilever of examples/rotating-beam.json (no Coriolis-\n"
            "# extension coupling, no rotary inertia), shooting solution; frequencies in rad/s\n"
            "Omega_rad_s,flap1,flap2,flap3,lag1,lag2\n")
    for speed, flap in sorted(flap_by_speed.items()):
        lag_speed = speed / r
        stiff = flap_by_speed[lag_speed] if lag_speed in flap_by_speed else rotating_frequencies(lag_speed)
        lag = [np.sqrt((r * lam) ** 2 - speed**2) for lam in stiff[:2]]
        text += f"{speed}," + ",".join(f"{v:.15e}" for v in list(flap) + lag) + "\n"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the CSV files")
    args = parser.parse_args()
    command = "# /work/main/target/venv/bin/python tests/python/beam_reference.py --write\n"

    elastica = command + "load,alpha,x_tip_over_L,z_tip_over_L,theta_tip_rad\n" + "".join(
        f"{k},{a},{x:.15e},{z:.15e},{t:.15e}\n" for k, a, x, z, t in elastica_table())
    roots = cantilever_roots()
    assert abs(roots[0] - 1.8751) < 1e-4 and abs(roots[1] - 4.6941) < 1e-4
    cantilever = command + "mode,beta_L\n" + "".join(f"{n + 1},{r:.15e}\n" for n, r in enumerate(roots))
    rotating = command + "speed,flap1,flap2,flap3\n"
    flap_by_speed = {}
    for speed in (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0):
        lams = rotating_frequencies(speed)
        flap_by_speed[speed] = lams
        if speed == 0.0:
            for lam, r in zip(lams, roots):
                assert abs(lam - r * r) < 1e-8 * lam, (lam, r * r)
        rotating += f"{speed}," + ",".join(f"{lam:.15e}" for lam in lams) + "\n"

    files = {"elastica.csv": elastica, "cantilever_roots.csv": cantilever, "rotating_flap.csv": rotating,
             EXAMPLE: rotating_beam_example(flap_by_speed)}
    for name, text in files.items():
        if args.write:
            with open(os.path.join(DATA, name), "w") as f:
                f.write(text)
        else:
            sys.stdout.write(f"== {name}\n{text}")


if __name__ == "__main__":
    main()
