#!/usr/bin/env python3
"""Writes padfield_bo105_fuselage.csv, the Fuselage FMU's table of the Bo105 fuselage loads over
dynamic pressure (wind axes) against angle of attack and sideslip, from Padfield's polynomials.

Source: G. D. Padfield, Helicopter Flight Dynamics (1996), appendix 4B, "Fuselage aerodynamic
characteristics": the Bo105 small-angle fits eqs. 4B.6-4B.10 (forces in N and moments in N m at
30.48 m/s = 100 ft/s, angles in rad, valid for -20 < alpha_f, beta_f < 20 deg) and Table 4B.4
(generalised coefficients for large angles). Read as quoted on heli-air.net
(http://heli-air.net/2016/03/30/fuselage-aerodynamic-characteristics: eqs. 4B.6, 4B.7, the start of
4B.8 and Table 4B.4's Cxf, Czf, Cmf, Cnfa rows) and in the HEROES toolbox (Musero45/TFG, commit
10dddfea8777252e00fd551db9567ab7edfe7b5c, heroes/heroesData/fuselage/PadBo105Fus.m: all five
polynomials, the same Table 4B.4 rows, and a large-sideslip side-force row; reference area
Sp = 7.5 m^2, side area Ss = 8.3 m^2 and length lf = 8.56 m from heroes/heroesData/rigidHe/
rigidBo105.m, the values PadBo105Fus.m divides the polynomials by).

Axes (Padfield's and HEROES', as in our Fuselage): body axes x forward, y right, z down; X, Y, Z
the fuselage forces along them, M the pitching moment (nose up +), N the yawing moment (nose
right +), no rolling moment; alpha_f = atan(w/u), beta_f = asin(v/V) of the fuselage's velocity
relative to the air, our alpha = atan2(w, u) and beta = asin(v/|V|). The loads scale with the
dynamic pressure: over q they are F_100 / q_100 with q_100 = 0.5 * 1.225 * 30.48^2 Pa.

Per angle (deg): |angle| <= 20 the polynomial; |angle| >= 30 the large-angle table times the
reference area (X, Z: Sp; M: Sp lf; Y: Ss; N: Ss lf); between, a linear blend in the angle from
the polynomial's value at +-20 deg (held) to the large-angle value (our choice: Padfield says only
that the small-angle fits "should be faired into" the large-angle forms). X, Z, M depend on alpha
only and Y, N on beta only, as in Padfield's model. The body-axis loads (X, Y, Z; 0, M, N) at each
grid point are turned to the table's wind axes (fmu-fuselage/src/fuselage_tables.rs):
D = -F.x_w, Y_w = F.y_w, L = -F.z_w, R = M_b.x_w, M_w = M_b.y_w, N_w = M_b.z_w with
x_w = (cos a cos b, sin b, sin a cos b), y_w = (-cos a sin b, cos b, -sin a sin b),
z_w = (-sin a, 0, cos a). The moments are about the aircraft's centre of mass (Helisim's
reference for the fuselage moments), i.e. fuselage_table.x/y/z = 0 where the body origin is it.

Usage: python3 make_padfield_bo105_fuselage.py > padfield_bo105_fuselage.csv
"""

import math

Q_100 = 0.5 * 1.225 * 30.48**2  # Pa, the polynomials' dynamic pressure
SP, SS, LF = 7.5, 8.3, 8.56  # m^2, m^2, m (rigidBo105.m; the polynomials' normalisation in PadBo105Fus.m)
SMALL, FAIRED = 20.0, 30.0  # deg: polynomial up to SMALL, large-angle table from FAIRED

# Padfield eqs. 4B.6-4B.10: coefficients of 1, a, a^2, a^3 (a in rad), N or N m at 30.48 m/s.
X_ALPHA = (-580.6, -454.0, 6.2, 4648.9)
Z_ALPHA = (-51.1, -1202.0, 1515.7, -604.2)
M_ALPHA = (-1191.8, 12752.0, 8201.3, -5796.7)
Y_BETA = (-6.9, -2399.0, -1.7, 12.7)
N_BETA = (0.0, -10028.0, 0.0, 0.0)

# Padfield Table 4B.4 (angles in deg); Cmf's knots reach -205 and 200 deg (wrapping round).
CX = ([-180, -160, -90, -30, 0, 20, 90, 160, 180], [0.1, 0.08, 0.0, -0.07, -0.08, -0.07, 0.0, 0.08, 0.1])
CZ = ([-180, -160, -120, -60, -20, 0, 20, 60, 120, 160, 180],
      [0.0, 0.15, 1.3, 1.3, 0.15, 0.0, -0.15, -1.3, -1.3, -0.15, 0.0])
CM = ([-205, -160, -130, -60, -25, 25, 60, 130, 155, 200],
      [0.02, -0.03, 0.1, 0.1, -0.04, 0.02, -0.1, -0.1, 0.02, -0.03])
CN = ([-90, -70, -25, 0, 25, 70, 90], [-0.1, -0.1, 0.005, 0.0, -0.005, 0.1, 0.1])  # Cnfa
# Side force against sideslip: HEROES PadBo105Fus.m (coeffY; not in the part of Table 4B.4 read).
CY = ([-180, -150, -20, 0, 20, 150, 180], [0.0, 0.5235, 0.5235, -0.001213, -0.5235, -0.5235, 0.0])


def poly(c, angle_deg):
    a = math.radians(angle_deg)
    return c[0] + c[1] * a + c[2] * a * a + c[3] * a**3


def interp(table, x):
    """Linear interpolation in a table of knots (held at the ends)."""
    xs, ys = table
    if x <= xs[0]:
        return ys[0]
    for k in range(1, len(xs)):
        if x <= xs[k]:
            t = (x - xs[k - 1]) / (xs[k] - xs[k - 1])
            return ys[k - 1] + t * (ys[k] - ys[k - 1])
    return ys[-1]


def faired(coeffs, table, scale, angle):
    """Load over q (m^2 or m^3) at `angle` (deg): polynomial, blend, large-angle table."""
    large = interp(table, angle) * scale
    if abs(angle) <= SMALL:
        return poly(coeffs, angle) / Q_100
    held = poly(coeffs, math.copysign(SMALL, angle)) / Q_100
    if abs(angle) >= FAIRED:
        return large
    w = (abs(angle) - SMALL) / (FAIRED - SMALL)
    return (1.0 - w) * held + w * large


def body_loads(alpha, beta):
    """Body-axis force over q (m^2) and moment over q (m^3) at (alpha, beta) in deg."""
    force = (faired(X_ALPHA, CX, SP, alpha), faired(Y_BETA, CY, SS, beta), faired(Z_ALPHA, CZ, SP, alpha))
    moment = (0.0, faired(M_ALPHA, CM, SP * LF, alpha), faired(N_BETA, CN, SS * LF, beta))
    return force, moment


def wind_axes(alpha, beta):
    a, b = math.radians(alpha), math.radians(beta)
    x_w = (math.cos(a) * math.cos(b), math.sin(b), math.sin(a) * math.cos(b))
    y_w = (-math.cos(a) * math.sin(b), math.cos(b), -math.sin(a) * math.sin(b))
    z_w = (-math.sin(a), 0.0, math.cos(a))
    return x_w, y_w, z_w


def dot(u, v):
    return sum(p * q for p, q in zip(u, v))


def grid(step_fine, limit, knots):
    """Every 10 deg over +-limit, every step_fine deg within +-FAIRED, and the tables' knots."""
    points = set(range(-limit, limit + 1, 10))
    n = int(round(2 * FAIRED / step_fine))
    points |= {round(-FAIRED + k * step_fine, 6) for k in range(n + 1)}
    points |= {k for k in knots if -limit <= k <= limit}
    return sorted(points)


def main():
    alphas = grid(2.0, 180, CX[0] + CZ[0] + CM[0] + [-25, 25])
    betas = grid(2.0, 90, CN[0] + CY[0] + [-25, 25])
    print("# Bo105 fuselage loads over dynamic pressure, wind axes, about the aircraft's centre of mass.")
    print("# Source: Padfield, Helicopter Flight Dynamics (1996), app. 4B, eqs. 4B.6-4B.10 (|angle| <= 20 deg)")
    print("# and Table 4B.4 (|angle| >= 30 deg; linear blend between), as quoted on heli-air.net and in")
    print("# HEROES (Musero45/TFG 10dddfea, PadBo105Fus.m, rigidBo105.m). Built by")
    print("# make_padfield_bo105_fuselage.py; see README.md.")
    print("alpha [deg], beta [deg], D/q [m2], Y/q [m2], L/q [m2], R/q [m3], M/q [m3], N/q [m3]")
    for alpha in alphas:
        for beta in betas:
            # alpha -180 and 180 deg are one direction: the same row (the reader requires it).
            same = 180.0 if alpha == -180 else alpha
            force, moment = body_loads(same, beta)
            x_w, y_w, z_w = wind_axes(same, beta)
            row = (-dot(force, x_w), dot(force, y_w), -dot(force, z_w),
                   dot(moment, x_w), dot(moment, y_w), dot(moment, z_w))
            print(f"{alpha:g}, {beta:g}, " + ", ".join(f"{0.0 if abs(v) < 1e-12 else v:.9g}" for v in row))


if __name__ == "__main__":
    main()
