"""Published Bo105 trim data and an independent power estimate for examples/bo105.json.

Flight-test points of Padfield, Helicopter Flight Dynamics (1996): Fig. 4.10(a)-(c) (cyclics and
collective), Fig. 4.6(a) (pitch attitude) and Fig. 4.11 (power), as digitised in the HEROES
toolbox (UPM): Musero45/TFG, heroes/heroesData/validationData/Bo105/*FlightTest.m, commit
10dddfea8777252e00fd551db9567ab7edfe7b5c. Speeds there are in knots (converted here with
0.5144444 m/s per knot, as those files do), angles in degrees, power in kW.

Padfield's blade pitch is theta0 + theta_tw r/R + theta1s sin psi + theta1c cos psi (theta0 at the
rotor centre; the HEROES blade-element expressions integrate theta1 * x from x = 0); our Controls'
collective is the pitch at 0.75 R (fmu-aero `twist`: zero at 3/4 radius), lon_cyclic = -theta1s,
lat_cyclic = -theta1c (docs/models.md, Controls, phase 0).
"""

import math

KNOT = 0.5144444

# (speed kt, value) pairs, as in the HEROES files named in each comment.
THETA0_DEG = [  # theta0Bo105FlightTest.m: Fig. 4.10(c)
    (0.1, 14.2571), (7.78116, 13.8286), (12.6444, 13.4857), (19.9392, 13.0571), (25.7751, 12.6),
    (34.0426, 12.2857), (50.0912, 12.0857), (60.304, 12.1429), (70.5167, 12.5714),
    (80.7295, 13.0571), (100.182, 14.5143)]
THETA1S_DEG = [  # theta1SBo105FlightTest.m: Fig. 4.10(a)
    (1.44441, 2.00007), (8.63416, 1.56759), (14.3662, 1.16447), (16.9059, 0.0201166),
    (24.2143, -0.0695236), (35.8069, -0.504358), (44.993, -0.823603), (55.627, -1.20077),
    (64.8823, -1.32003), (77.4731, -1.69825), (84.6629, -2.13073), (104.854, -3.17024)]
THETA1C_DEG = [  # theta1CBo105FlightTest.m: Fig. 4.10(b)
    (2.65586, 1.09977), (4.14959, 1.31393), (11.4295, 1.54185), (14.0182, 2.34163),
    (20.8418, 2.68388), (25.2175, 2.85492), (31.9388, 2.74003), (40.5269, 2.35355),
    (51.0652, 2.06689), (60.6236, 1.70889), (70.6959, 1.4937), (79.3256, 1.29293),
    (99.5342, 1.14827)]
PITCH_DEG = [  # ThetaBo105FlightTest.m: Fig. 4.6(a)
    (0.1, 2.71375), (4.93535, 2.86011), (7.99823, 2.43131), (15.7215, 2.57816), (17.0566, 3.15231),
    (26.6451, 3.2283), (38.586, -0.207649), (48.112, 0.119242), (59.3925, -0.664335),
    (67.0854, -1.87968), (77.8983, -2.26915), (95.7812, -4.34026)]
POWER_KW = [  # PowerBo105FlightTest.m: Fig. 4.11
    (4.021074, 392.962773), (6.340282, 379.615747), (8.185368, 345.218656),
    (11.677638, 333.268293), (20.415916, 307.953787), (21.690853, 282.682927),
    (26.500183, 270.724861), (33.045701, 246.826701), (45.874481, 217.277706),
    (58.919805, 229.833119), (68.735119, 236.091570), (77.856175, 264.810441),
    (99.220572, 351.703894)]

# Our example's main-rotor twist (rad, linear over the radius), for the collective conversion.
TWIST = -0.1396


def series_m_per_s(points):
    """The (kt, value) pairs as (m/s, value)."""
    return [(kt * KNOT, v) for kt, v in points]


def interpolate(points, speed):
    """Linear interpolation of (m/s, value) points at speed (clamped to the range)."""
    pts = series_m_per_s(points)
    if speed <= pts[0][0]:
        return pts[0][1]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if speed <= x1:
            return y0 + (y1 - y0) * (speed - x0) / (x1 - x0)
    return pts[-1][1]


def collective_at_centre_deg(collective_075_rad):
    """Padfield's theta0 (pitch at the rotor centre) from the pitch at 0.75 R."""
    return math.degrees(collective_075_rad - 0.75 * TWIST)


def profile_factor(mu, n_radial=400, n_azimuth=360):
    """K(mu) in P_profile = rho A (Omega R)^3 sigma cd0 / 8 K(mu): the power dissipated by a
    constant section drag cd0 along the section's whole relative velocity |u| (in-plane, radial
    flow included, inflow and reverse flow neglected), K = (2/pi) int_0^2pi int_0^1 |u|^3 dx dpsi,
    |u|^2 = x^2 + 2 x mu sin psi + mu^2 in tip-speed units, evaluated by the midpoint rule.
    K(0) = 1 (hover); without the radial flow it would be 1 + 3 mu^2."""
    total = 0.0
    for j in range(n_azimuth):
        s = math.sin(2 * math.pi * (j + 0.5) / n_azimuth)
        for i in range(n_radial):
            x = (i + 0.5) / n_radial
            total += (x * x + 2 * x * mu * s + mu * mu) ** 1.5
    return 2 / math.pi * total * (2 * math.pi / n_azimuth) / n_radial


def momentum_power_w(speed, weight=2200 * 9.80665, rho=1.225, radius=4.91, omega=44.4,
                     solidity=4 * 0.27 / (math.pi * 4.91), cd0=0.0074, drag_area=1.0203):
    """Main-rotor power in level flight, independent of the co-simulation: ideal induced power
    T v_i with Glauert's momentum inflow v_i = v_h^2 / sqrt(V^2 + v_i^2) (T = the weight, the
    disc edge-on to V), profile power with profile_factor(mu) and parasite 0.5 rho f V^3. The
    same solidity, cd0 (Padfield's delta0 0.0074, rigidBo105.m) and drag area as bo105.json;
    no tip loss, no non-uniform inflow (ideal induced power: a lower bound)."""
    area = math.pi * radius**2
    tip = omega * radius
    vh2 = weight / (2 * rho * area)
    vi = math.sqrt(vh2)
    for _ in range(200):
        vi = vh2 / math.sqrt(speed**2 + vi**2)
    induced = weight * vi
    profile = rho * area * tip**3 * solidity * cd0 / 8 * profile_factor(speed / tip)
    parasite = 0.5 * rho * drag_area * speed**3
    return induced, profile, parasite
