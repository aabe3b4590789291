#!/usr/bin/env python3
"""Hover blade-element momentum theory with Prandtl's tip and root loss, written independently of
the Aero FMU's code (NumPy/SciPy): the reference of `fmu-aero/tests/aero/tip_loss_bem.rs`.

Reads a JSON list of rotor-parameter objects on stdin and prints a JSON list with, for each, an
object with the results of two models on stdout:

- "uniform": the model the FMU implements with inflow_model = 1 and tip_loss = 1 or 2: one
  induced inflow ratio lambda for the disk from momentum theory, lambda = sqrt(CT / 2), and
  blade elements at exact angles whose lift is multiplied by Prandtl's factor
  F = Ftip Fhub, Ftip = 2/pi acos(exp(-Nb/2 (R - r) / (r |sin phi|))),
  Fhub = 2/pi acos(exp(-Nb/2 (r - r_root) / (r_root |sin phi|))) (the form of CCBlade,
  github.com/WISDEM/CCBlade src/bem.f90), phi = atan(lambda Omega R / (Omega r)).
- "annular": classical annular blade-element momentum theory with the loss factor on the
  momentum side (each annulus: dT = 4 pi rho F v^2 r dr = the blade-element thrust of the
  annulus), for comparison only.

Thrust and torque are integrated with scipy.integrate.quad (adaptive Gauss-Kronrod), lambda
by scipy.optimize.brentq. CT = T / (rho pi R^2 (Omega R)^2), CP = Q Omega / (rho pi R^2 (Omega R)^3).
"""

import json
import math
import sys

from scipy.integrate import quad
from scipy.optimize import brentq


def loss(p, r, sin_phi):
    """Prandtl's factor on the lift at radius r (1 without loss or without flow through the disk)."""
    if p["tip_loss"] == 0 or abs(sin_phi) < 1e-14:
        return 1.0
    nb, big_r, r_root = p["nb"], p["R"], p["r_root"]
    f = 2.0 / math.pi * math.acos(math.exp(-nb / 2.0 * (big_r - r) / (r * abs(sin_phi))))
    if p["tip_loss"] == 2 and r_root > 0.0:
        f *= 2.0 / math.pi * math.acos(math.exp(-nb / 2.0 * (r - r_root) / (r_root * abs(sin_phi))))
    return f


def element(p, r, v_induced, lift_loss):
    """Thrust and torque per unit span of all blades at radius r for the induced velocity v (m/s)."""
    ut, up = p["Omega"] * r, v_induced
    u2 = ut * ut + up * up
    phi = math.atan2(up, ut)
    alpha = p["theta75"] + p["twist"] * (r / p["R"] - 0.75) - phi
    f = loss(p, r, math.sin(phi)) if lift_loss else 1.0
    cl = p["a"] * alpha * f
    cd = p["cd0"] + p["cd2"] * alpha * alpha
    q = 0.5 * p["rho"] * p["chord"] * u2 * p["nb"]
    dt = q * (cl * math.cos(phi) - cd * math.sin(phi))
    dq = q * (cl * math.sin(phi) + cd * math.cos(phi)) * r
    return dt, dq


def coefficients(p, thrust, torque):
    tip_speed = p["Omega"] * p["R"]
    area = math.pi * p["R"] ** 2
    return thrust / (p["rho"] * area * tip_speed**2), torque * p["Omega"] / (p["rho"] * area * tip_speed**3)


def integrate(p, v_of_r, lift_loss):
    """Rotor thrust and torque for the induced velocity distribution v_of_r."""
    opts = dict(limit=400, epsabs=0.0, epsrel=1e-10)
    thrust = quad(lambda r: element(p, r, v_of_r(r), lift_loss)[0], p["r_root"], p["R"], **opts)[0]
    torque = quad(lambda r: element(p, r, v_of_r(r), lift_loss)[1], p["r_root"], p["R"], **opts)[0]
    return thrust, torque


def uniform(p):
    tip_speed = p["Omega"] * p["R"]

    def residual(lam):
        ct, _ = coefficients(p, *integrate(p, lambda r: lam * tip_speed, True))
        return 2.0 * lam * lam - ct

    lam = brentq(residual, 1e-6, 0.5, xtol=1e-15, rtol=1e-14)
    ct, cp = coefficients(p, *integrate(p, lambda r: lam * tip_speed, True))
    return {"ct": ct, "cp": cp, "lambda": lam}


def annular(p):
    rho = p["rho"]

    def v_at(r):
        # 4 pi rho F v^2 r = blade-element thrust per unit span (hover).
        def g(v):
            f = loss(p, r, math.sin(math.atan2(v, p["Omega"] * r)))
            return 4.0 * math.pi * rho * f * v * v * r - element(p, r, v, False)[0]

        return brentq(g, 1e-9, p["Omega"] * p["R"], xtol=1e-14)

    ct, cp = coefficients(p, *integrate(p, v_at, False))
    return {"ct": ct, "cp": cp}


def main():
    cases = json.load(sys.stdin)
    json.dump([{"uniform": uniform(p), "annular": annular(p)} for p in cases], sys.stdout)


if __name__ == "__main__":
    main()
