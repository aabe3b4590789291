#!/usr/bin/env python3
"""Writes uh60a_genhel_fuselage.csv, the Fuselage FMU's table of the UH-60A fuselage loads over
dynamic pressure against angle of attack and sideslip, from GENHEL's one-dimensional tables.

Source: J. J. Howlett, UH-60A Black Hawk Engineering Simulation Program, Volume I: Mathematical
Model, NASA CR-166309, 1981 (GENHEL), section 5.2 (fuselage). The numbers are not read from the
report itself: they are the transcription in github.com/marek-cel/mscsim (MIT licence, Copyright
(C) Marek M. Cel), file data/fdm/uh60/uh60_fdm.xml at commit
615c0146d612fa5cfa7629bafb1c385df4420e0c, read through the file index (tables dqfmp, lqfmp, mqfmp against ALFWF; yqfmp, rqfmp,
nqfmp, ddqfmp, dlqfmp, dmqfmp against PSIWF; angles in deg). That file labels them m^2 and m^3;
they are ft^2 and ft^3 (see the README: the same repository's 2019 coefficient version of the same
data, with reference area 5.5 m^2 and length 15.43 m, equals these values times ft^2 / 5.5).

GENHEL's fuselage model as the transcription's code reads it (src/fdm_uh60/uh60_Fuselage.cpp,
citing CR-166309 p. 5.2-7 and p. 5.2-12):

    D/q = DQFMP(alpha) + DDQFMP(psi)     Y/q = YQFMP(psi)      R/q = RQFMP(psi)
    L/q = LQFMP(alpha) + DLQFMP(psi)     M/q = MQFMP(alpha) + DMQFMP(psi)     N/q = NQFMP(psi)

with psi = -beta, each table interpolated linearly and held at its end values beyond them, and
the six quantities turned from wind to body axes with the standard wind-axis matrix (the one
the Fuselage FMU uses; see fmu-fuselage/src/fuselage_tables.rs). On a grid holding every knot
of every table, the Fuselage's bilinear interpolation of these sums is exactly the sum of the
one-dimensional linear interpolations.

Usage: python3 make_uh60a_genhel_fuselage.py > uh60a_genhel_fuselage.csv
"""

# Against ALFWF (deg), from -180 to 180.
ALPHA = [-180, -90, -80, -70, -60, -50, -40, -30, -25, -20, -15, -10, -5, 0,
         5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 180]
DQFMP = [30.00, 150.00, 145.00, 133.00, 114.00, 88.00, 61.00, 45.00, 37.58, 31.68, 27.48, 25.06,
         23.58, 23.58, 25.08, 27.58, 31.28, 36.58, 43.08, 51.08, 66.00, 84.00, 110.00, 132.00,
         145.00, 150.00, 30.00]
LQFMP = [0.00, -24.00, -54.00, -72.00, -81.00, -85.00, -83.00, -70.00, -52.00, -35.00, -25.00,
         -13.00, -5.00, 1.00, 10.00, 20.00, 25.00, 30.00, 34.00, 37.00, 43.00, 48.00, 50.00, 48.00,
         39.00, 22.00, 0.00]
MQFMP = [0.00, -200.00, -470.00, -645.00, -730.00, -760.00, -760.00, -740.00, -700.00, -630.00,
         -520.00, -380.00, -230.00, -90.00, 10.00, 100.00, 290.00, 450.00, 600.00, 750.00, 810.00,
         825.00, 780.00, 650.00, 470.00, 200.00, 0.00]

# Against PSIWF (deg), from -90 to 90.
PSI = [-90, -80, -70, -60, -50, -40, -30, -25, -20, -15, -10, -5, 0,
       5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90]
YQFMP = [-37.00, -64.00, -84.00, -100.00, -103.00, -92.00, -72.00, -65.00, -50.00, -35.00, -23.00,
         -11.00, 0.00, 11.00, 23.00, 35.00, 50.00, 65.00, 72.00, 92.00, 103.00, 100.00, 84.00,
         64.00, 37.00]
RQFMP = [100.00, 100.00, 100.00, 101.00, 103.00, 106.00, 110.00, 120.00, 75.00, 30.00, 0.00, 0.00,
         0.00, 0.00, 0.00, -30.00, -75.00, -120.00, -110.00, -106.00, -103.00, -101.00, -100.00,
         -100.00, -100.00]
NQFMP = [440.00, 392.00, 332.00, 259.00, 160.00, 40.00, -140.00, -190.00, -240.00, -220.00,
         -180.00, -100.00, 0.00, 100.00, 180.00, 220.00, 240.00, 190.00, 140.00, 59.00, -30.00,
         -125.00, -220.00, -320.00, -420.00]
DDQFMP = [170.50, 169.50, 164.50, 141.50, 113.50, 76.50, 38.50, 28.00, 16.30, 9.00, 4.00, 1.00,
          0.00, 1.00, 4.00, 9.00, 16.30, 28.00, 38.50, 76.50, 113.50, 141.50, 164.50, 169.50,
          170.50]
# Only from -30 to 30 deg in the transcription: held at the end values beyond.
PSI_SHORT = [-30, -25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30]
DLQFMP = [30.00, 20.00, 12.00, 7.00, 3.00, 2.00, 0.00, 2.00, 5.00, 10.00, 15.00, 22.00, 30.00]
DMQFMP = [180.00, 130.00, 90.00, 50.00, 20.00, 10.00, 0.00, 10.00, 20.00, 50.00, 90.00, 130.00, 180.00]


def interp(xs, ys, x):
    """Linear interpolation, held at the end values (mscsim's Table1::getValue)."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    k = max(i for i in range(len(xs) - 1) if xs[i] <= x)
    t = (x - xs[k]) / (xs[k + 1] - xs[k])
    return ys[k] + t * (ys[k + 1] - ys[k])


def loads(alpha, beta):
    """[D/q, Y/q, L/q] (ft^2) and [R/q, M/q, N/q] (ft^3) at alpha, beta (deg)."""
    psi = -beta
    return [
        interp(ALPHA, DQFMP, alpha) + interp(PSI, DDQFMP, psi),
        interp(PSI, YQFMP, psi),
        interp(ALPHA, LQFMP, alpha) + interp(PSI_SHORT, DLQFMP, psi),
        interp(PSI, RQFMP, psi),
        interp(ALPHA, MQFMP, alpha) + interp(PSI_SHORT, DMQFMP, psi),
        interp(PSI, NQFMP, psi),
    ]


def main():
    print("# UH-60A fuselage loads over dynamic pressure, wind axes, about GENHEL's fuselage reference point.")
    print("# Source: Howlett, NASA CR-166309 (1981), GENHEL section 5.2, as transcribed in marek-cel/mscsim")
    print("# data/fdm/uh60/uh60_fdm.xml (commit 615c0146, MIT licence, (C) Marek M. Cel); built by")
    print("# make_uh60a_genhel_fuselage.py: D = DQFMP(a) + DDQFMP(-b), Y = YQFMP(-b), L = LQFMP(a) + DLQFMP(-b),")
    print("# R = RQFMP(-b), M = MQFMP(a) + DMQFMP(-b), N = NQFMP(-b). See README.md.")
    print("alpha [deg], beta [deg], D/q [ft2], Y/q [ft2], L/q [ft2], R/q [ft3], M/q [ft3], N/q [ft3]")
    for alpha in ALPHA:
        for beta in [-p for p in reversed(PSI)]:
            values = ", ".join(f"{v:.4f}" for v in loads(alpha, beta))
            print(f"{alpha}, {beta}, {values}")


if __name__ == "__main__":
    main()
