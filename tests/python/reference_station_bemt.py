"""Independent reference for the station-level aero interface (AeroStations on RotorElastic):
hover thrust, torque and inflow of a rigid rotor by blade-element momentum theory, evaluated
with SciPy's adaptive quadrature over the continuous span (no stations) and a root finder on
the momentum balance. Written from the textbook equations (Leishman, Principles of Helicopter
Aerodynamics, 2nd ed., ch. 3: blade element theory; the hover momentum balance CT = 2 lambda^2),
not from the Rust code.

Section model (the one docs/models.md states for Aero and AeroStations): exact inflow angle
phi = atan2(U_P, U_T), U^2 = U_T^2 + U_P^2, alpha = theta + twist (r/R - 0.75) - phi,
cl = a alpha, cd = cd0 + cd2 alpha^2; thrust per span L cos phi - D sin phi, torque per span
r (L sin phi + D cos phi). Uniform inflow lambda (Pitt-Peters' hover steady state).

Also prints the small-angle closed form (no drag in the thrust, U = U_T, phi = lambda/x):
CT = (sigma a / 2) [theta_75 (x^3/3) + twist (x^4/4 - 0.75 x^3/3) - lambda x^2/2] from x0 to 1,
with 2 lambda^2 = CT solved as a quadratic, to show what the exact angles change.

Run: python3 tests/python/reference_station_bemt.py
"""

import math

from scipy.integrate import quad
from scipy.optimize import brentq

# The case of fmu-aero-stations/tests/stations.rs (hover_matches_blade_element_momentum).
NB, R, R0, CHORD = 4, 4.91, 0.5, 0.27
THETA, TWIST = 0.15, -0.1396
A, CD0, CD2, RHO, OMEGA = 5.73, 0.011, 0.4, 1.225, 44.401


def section(r, lam):
    """Thrust and torque per unit span (N/m, N m/m) of one blade at radius r."""
    ut, up = OMEGA * r, lam * OMEGA * R
    phi = math.atan2(up, ut)
    alpha = THETA + TWIST * (r / R - 0.75) - phi
    q = 0.5 * RHO * CHORD * (ut * ut + up * up)
    lift, drag = q * A * alpha, q * (CD0 + CD2 * alpha * alpha)
    return lift * math.cos(phi) - drag * math.sin(phi), r * (lift * math.sin(phi) + drag * math.cos(phi))


def rotor(lam):
    thrust = NB * quad(lambda r: section(r, lam)[0], R0, R, epsabs=0, epsrel=1e-13)[0]
    torque = NB * quad(lambda r: section(r, lam)[1], R0, R, epsabs=0, epsrel=1e-13)[0]
    return thrust, torque


SCALE = RHO * math.pi * R * R * (OMEGA * R) ** 2
lam = brentq(lambda l: 2 * l * l - rotor(l)[0] / SCALE, 1e-4, 0.3, xtol=1e-15, rtol=1e-15)
thrust, torque = rotor(lam)
print(f"BEMT (exact angles): lambda {lam:.10f}  CT {thrust / SCALE:.10e}  thrust {thrust:.6f} N  torque {torque:.6f} N m")

sigma, x0 = NB * CHORD / (math.pi * R), R0 / R
ka = sigma * A / 2
pitch = THETA * (1 - x0**3) / 3 + TWIST * ((1 - x0**4) / 4 - 0.75 * (1 - x0**3) / 3)
inflow = (1 - x0**2) / 2
# 2 l^2 + ka inflow l - ka pitch = 0
small = (-ka * inflow + math.sqrt((ka * inflow) ** 2 + 8 * ka * pitch)) / 4
print(f"small-angle closed form: lambda {small:.10f}  CT {2 * small * small:.10e}")
