//! Induced inflow: the distribution over the disk, and the Pitt-Peters state equations.
//!
//! The induced velocity is normal to the rotor plane, along `-shaft` (down through the disk for
//! positive values), with magnitude `v_i(r, psi) = Omega R (lambda_0 + (r/R) (lambda_c cos psi +
//! lambda_s sin psi))`. The uniform momentum model uses `lambda_0` only; it is solved in
//! [`crate::aero`] because it needs the thrust.
//!
//! **Pitt-Peters** (Pitt and Peters 1981; Peters and HaQuang 1988), in the time `tau = Omega t`:
//!
//! ```text
//! M d(lambda)/d(tau) + L^-1 lambda = C,      lambda = (lambda_0, lambda_s, lambda_c)
//! M = diag(128 / (75 pi), 16 / (45 pi), 16 / (45 pi))
//! C = (CT, C_s, C_c),   C_s = sum(dT r sin psi) / (rho pi R^2 (Omega R)^2 R),  C_c likewise with cos
//! ```
//!
//! `dT` is a section's force along the shaft axis and `r` its radius. In wind axes (azimuth
//! measured from the downstream direction `psi_w` of the wake, so that `psi' = psi - psi_w`)
//! `L = Lt diag(1/V_T, 1/V, 1/V)` with
//!
//! ```text
//!      [ 1/2     0             -k        ]
//! Lt = [ 0       4/(1+cos X)    0        ]      k = (15 pi / 64) tan(X/2)
//!      [ k       0     4 cos X/(1+cos X) ]
//! V_T = sqrt(mu^2 + lambda^2),  V = (mu^2 + lambda (lambda + lambda_0)) / V_T,  lambda = lambda_climb + lambda_0
//! cos X = lambda / V_T  (wake skew angle X from the shaft axis)
//! ```
//!
//! Our moment coefficients are the first harmonics of the thrust (`C_s > 0`: more lift at
//! `psi = 90 deg`, `C_c > 0`: more lift at `psi = 0`), so the diagonal of `Lt` is positive and the
//! skew coupling is antisymmetric; this is the Pitt-Peters matrix with its roll and pitch moment
//! signs (roll right-side-down, pitch nose-up, azimuth 0 aft) absorbed. Steady forward flight gives
//! `lambda_c' = (15 pi / 32) tan(X/2) lambda_0` (more inflow downstream, Coleman's result) and
//! hover gives momentum theory, `lambda_0 = CT / (2 lambda)`. The wake skew is limited to
//! 90 degrees (`cos X >= 0`): the model is not meant for the windmill or vortex-ring states.

/// Apparent-mass coefficient of `lambda_0`, `128 / (75 pi)` (Pitt-Peters).
pub const M0: f64 = 128.0 / (75.0 * std::f64::consts::PI);
/// Apparent-mass coefficient of `lambda_s` and `lambda_c`, `16 / (45 pi)`.
pub const M1: f64 = 16.0 / (45.0 * std::f64::consts::PI);

/// The inflow ratios that define the induced velocity over the disk.
#[derive(Debug, Clone, Copy)]
pub struct Inflow<D> {
    /// `lambda_0`: uniform part.
    pub l0: D,
    /// `lambda_s`: coefficient of `(r/R) sin psi`.
    pub ls: D,
    /// `lambda_c`: coefficient of `(r/R) cos psi`.
    pub lc: D,
}

impl<D: fmu_core::Scalar> Inflow<D> {
    /// No induced velocity.
    pub fn zero() -> Self {
        Inflow { l0: D::from(0.0), ls: D::from(0.0), lc: D::from(0.0) }
    }

    /// Uniform inflow `lambda`.
    pub fn uniform(lambda: D) -> Self {
        Inflow { l0: lambda, ls: D::from(0.0), lc: D::from(0.0) }
    }
}

/// What the Pitt-Peters equations need to know about the flight condition, all dimensionless.
#[derive(Debug, Clone, Copy)]
pub struct FlightCondition<D> {
    /// Advance ratio `mu` (in-plane hub speed / (Omega R)), >= 0.
    pub mu: D,
    /// Climb inflow ratio `lambda_climb` (hub velocity along the shaft axis / (Omega R)).
    pub lambda_climb: D,
    /// `(cos psi_w, sin psi_w)`: azimuth of the downstream direction of the wake.
    pub wake: (D, D),
}

/// The mass-flow parameters and the wake skew of a flight condition and a mean induced inflow.
#[derive(Debug, Clone, Copy)]
pub struct Skew<D> {
    /// `V_T = sqrt(mu^2 + lambda^2)`, `lambda = lambda_climb + lambda_0`.
    pub v_t: D,
    /// `V = (mu^2 + lambda (lambda + lambda_0)) / V_T` (0 at `V_T = 0`).
    pub v: D,
    /// `cos X = lambda / V_T`, limited to `>= 0` (1 at `V_T = 0`).
    pub cos_x: D,
    /// `tan(X/2) = mu / (V_T + lambda)`, limited to `<= 1` (0 at `V_T = 0`).
    pub tan_half_x: D,
}

/// [`Skew`] of the flight condition with the mean induced inflow ratio `l0`.
pub fn skew<D: Scalar>(flight: &FlightCondition<D>, l0: D) -> Skew<D> {
    let zero = D::from(0.0);
    let mu = flight.mu;
    let total = flight.lambda_climb + l0;
    let v_t = (mu * mu + total * total).sqrt();
    // Mass-flow parameter of the moment equations; -> 2 |lambda_0| in hover, 0 at V_T = 0.
    let v = if v_t.re() > 0.0 { (mu * mu + total * (total + l0)) / v_t } else { zero };
    // cos X = lambda / V_T and tan(X/2) = mu / (V_T + lambda) for a wake below the disk; the
    // skew is limited to 90 degrees (cos X = 0, tan(X/2) = 1) otherwise.
    let (cos_x, tan_half_x) = if v_t.re() == 0.0 {
        (D::from(1.0), zero)
    } else if total.re() > 0.0 {
        (total / v_t, mu / (v_t + total))
    } else {
        (zero, D::from(1.0))
    };
    Skew { v_t, v, cos_x, tan_half_x }
}

/// Rates `d(lambda_0, lambda_s, lambda_c)/dt` (1/s) of the Pitt-Peters model for the state
/// `lambda`, the forcing `c = (CT, C_s, C_c)` and the flight condition, at rotor speed `omega`.
///
/// Generic for exact Jacobians. The skew parameter uses `tan(X/2) = mu / (V_T + lambda)`, smooth
/// in `mu`; `mu = |v_in| / (Omega R)` itself is not differentiable at `mu = 0` (hover), where its
/// derivative is taken as zero (see [`crate::aero::flight_condition`]).
pub fn pitt_peters_rates<D: Scalar>(lambda: [D; 3], c: [D; 3], flight: &FlightCondition<D>, omega: f64) -> [D; 3] {
    let [l0, ls, lc] = lambda;
    let (cw, sw) = flight.wake;
    // Into wind axes (the first-harmonic pairs rotate by the wake azimuth).
    let lc_w = lc * cw + ls * sw;
    let ls_w = -lc * sw + ls * cw;
    let cc_w = c[2] * cw + c[1] * sw;
    let cs_w = -c[2] * sw + c[1] * cw;

    let Skew { v_t, v, cos_x, tan_half_x } = skew(flight, l0);
    let k = tan_half_x * (15.0 * std::f64::consts::PI / 64.0);
    let b = cos_x * 4.0 / (cos_x + 1.0);
    let det = b * 0.5 + k * k;
    // L^-1 lambda = diag(V_T, V, V) Lt^-1 lambda, wind axes.
    let r0 = v_t * (b * l0 + k * lc_w) / det;
    let rs = v * (cos_x + 1.0) * 0.25 * ls_w;
    let rc = v * (-k * l0 + lc_w * 0.5) / det;

    let d0 = (c[0] - r0) * (omega / M0);
    let ds_w = (cs_w - rs) * (omega / M1);
    let dc_w = (cc_w - rc) * (omega / M1);
    // Back to the hub azimuth frame.
    [d0, dc_w * sw + ds_w * cw, dc_w * cw - ds_w * sw]
}

use fmu_core::Scalar;

#[cfg(test)]
mod tests {
    use super::*;

    /// The steady state of the rates is momentum theory in hover and Coleman's skewed-wake
    /// gradient in forward flight, for any wake azimuth.
    #[test]
    fn steady_states_are_momentum_theory_and_coleman() {
        // Hover: lambda_0 = sqrt(CT / 2) is steady, and the harmonics decay.
        let ct: f64 = 0.006;
        let l0 = (ct / 2.0).sqrt();
        let hover = FlightCondition { mu: 0.0, lambda_climb: 0.0, wake: (1.0, 0.0) };
        let d = pitt_peters_rates([l0, 0.0, 0.0], [ct, 0.0, 0.0], &hover, 30.0);
        assert!(d.iter().all(|v| v.abs() < 1e-12), "{d:?}");
        let d = pitt_peters_rates([l0, 0.01, -0.01], [ct, 0.0, 0.0], &hover, 30.0);
        assert!(d[1] < 0.0 && d[2] > 0.0);

        // Forward flight with the wake going towards psi_w: solve the steady state by iteration
        // and compare the gradient along the wake with (15 pi / 32) tan(X / 2) lambda_0.
        for psi_w in [0.0_f64, 0.7, 2.5] {
            let flight = FlightCondition { mu: 0.25, lambda_climb: 0.02, wake: (psi_w.cos(), psi_w.sin()) };
            let mut lam = [0.02, 0.0, 0.0];
            for _ in 0..200_000 {
                let d = pitt_peters_rates(lam, [ct, 0.0, 0.0], &flight, 1.0);
                for k in 0..3 {
                    lam[k] += 1e-3 * d[k];
                }
            }
            let total = flight.lambda_climb + lam[0];
            let chi = flight.mu.atan2(total);
            let coleman = 15.0 * std::f64::consts::PI / 32.0 * (chi / 2.0).tan() * lam[0];
            let along = lam[2] * psi_w.cos() + lam[1] * psi_w.sin();
            let across = -lam[2] * psi_w.sin() + lam[1] * psi_w.cos();
            assert!((along - coleman).abs() < 1e-9, "psi_w {psi_w}: {along} vs {coleman}");
            assert!(across.abs() < 1e-12);
            // The uniform part satisfies Glauert's momentum balance exactly: 2 V_T lambda_0 = CT.
            let v_t = (flight.mu.powi(2) + total * total).sqrt();
            assert!((2.0 * v_t * lam[0] - ct).abs() < 1e-12);
        }
    }
}
