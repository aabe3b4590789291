"""Independent reference for the Peters-He inflow model (fmu-aero/src/peters_he.rs).

Written from the theory, not from the Rust code: the inflow shape functions are
phi_j^m(r) = Pbar_j^m(nu) / nu with nu = sqrt(1 - r^2) and Pbar the associated Legendre
functions (scipy.special.lpmv) normalised so that int_0^1 Pbar_j^m Pbar_n^m dnu = delta_jn.
In axial flow the Peters-He steady state is the Galerkin projection of linearised actuator-disk
(local momentum) theory, w(r) = dP(r) / (2 V), weighted by the pressure functions, so that the
hover L matrix is L_jn^m = int_0^1 Pbar_j^m Pbar_n^m r dr (Peters and He 1995).

Run: /work/main/target/venv/bin/python tests/python/peters_he_reference.py
Prints the numbers the Rust tests `fmu-aero/src/peters_he.rs` compare against.
"""

import numpy as np
from math import factorial, sqrt
from scipy.special import lpmv, roots_legendre

X, W = roots_legendre(200)
R = 0.5 * (X + 1.0)  # r on (0, 1)
WR = 0.5 * W


def pbar(m, j, nu):
    rho2 = factorial(j + m) / factorial(j - m) / (2 * j + 1)
    return (-1) ** m * lpmv(m, j, nu) / sqrt(rho2)


def phi(m, j, r):
    nu = np.sqrt(1.0 - r * r)
    return pbar(m, j, nu) / nu


def hover_l(m, j, n):
    nu = np.sqrt(1.0 - R * R)
    return np.sum(WR * pbar(m, j, nu) * pbar(m, n, nu) * R)


def main():
    print("phi_j^m at r = 0.3, 0.75, 1.0 (r = 1 as the limit 0.999999)")
    for m, j in [(0, 1), (0, 3), (0, 5), (1, 2), (1, 4), (2, 3), (3, 6), (4, 5)]:
        vals = [phi(m, j, r) for r in (0.3, 0.75, 0.999999)]
        print(f"  ({m},{j}) " + " ".join(f"{v:.12f}" for v in vals))
    print("hover L_jn^m = int Pbar_j Pbar_n r dr")
    for m in range(0, 5):
        js = [m + 2 * k + 1 for k in range(4)]
        for j in js:
            print(f"  m={m} j={j}: " + " ".join(f"{hover_l(m, j, n):.12f}" for n in js))
    # Steady axial-flow inflow of a prescribed loading by Peters-He with K radial functions:
    # alpha = L V^-1 tau / 2 (V_T for the state j = 1, the mass-flow V for the others, both from
    # lambda_m = sqrt(3) alpha_1), solved by fixed-point iteration; against linearised
    # local momentum theory w = dP / (2 V_T) at the same lambda_m. Loading: pressure
    # dP(r) = c r (normalised by rho (Omega R)^2, i.e. blade lift per span growing like r^2), in
    # a climb lambda_c = 0.05.
    lam_c, c = 0.05, 0.01
    dp = c * R
    for K in range(1, 5):
        js = [2 * k + 1 for k in range(K)]
        # tau_j = (1/2pi) int int dP phi_j r dr dpsi = int dP phi_j r dr.
        tau = np.array([np.sum(WR * dp * phi(0, j, R) * R) for j in js])
        L = np.array([[hover_l(0, j, n) for n in js] for j in js])
        lam_m = 0.0
        for _ in range(200):
            v_t = lam_c + lam_m
            v = (lam_c + lam_m) * (lam_c + 2 * lam_m) / v_t
            vs = np.array([v_t] + [v] * (K - 1))
            alpha = L @ (tau / (2 * vs))
            lam_m = sqrt(3) * alpha[0]
        w = sum(a * phi(0, j, R) for a, j in zip(alpha, js))
        w_exact = dp / (2 * (lam_c + lam_m))
        err = np.sqrt(np.sum(WR * (w - w_exact) ** 2 * R) / np.sum(WR * w_exact**2 * R))
        at = [float(sum(a * phi(0, j, np.array([x])) for a, j in zip(alpha, js))[0]) for x in (0.3, 0.5, 0.7)]
        power = 2 * np.pi * np.sum(WR * dp * w * R)
        print(f"  K={K}: lambda_m {lam_m:.12f}; induced power {power:.12e}; rms rel error vs dP/(2 V_T) {err:.6f}; w(0.3, 0.5, 0.7) = "
              + ", ".join(f"{x:.12f}" for x in at))

if __name__ == "__main__":
    main()
