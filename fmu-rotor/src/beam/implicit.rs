//! The implicit midpoint rule for a first-order system in coordinates and rates,
//! `x = [q, r]` with `q' = G(q) r` (as [`BladeDynamics`](super::blade_dynamics::BladeDynamics)'s
//! state), by a simplified Newton method on a reduced (Schur complement) matrix that is kept
//! from step to step.
//!
//! One step of size `h` solves `x_1 = x_0 + h f(x_m)`, `x_m = (x_0 + x_1) / 2`: second order,
//! A-stable and without numerical damping (the stability region is the left half plane, the
//! amplification of an undamped oscillation has modulus 1), so the step is not limited by the
//! stiff axial, shear and torsion modes; their phase is wrong where `h omega` is large, but they
//! neither grow nor decay. On a linear system it conserves quadratic invariants exactly; on the
//! blade the energy error is of order `h^2` and does not drift.
//!
//! **Newton.** The residual `R(x_1) = x_1 - x_0 - h f(x_m)` has the Jacobian
//! `I - h/2 J(x_m)`. With `J = [[J_qq, J_qr], [J_rq, J_rr]]` and `J_qq` neglected in the matrix
//! (the rate of the rotation vector depends on it only through the angular velocity: `h |w| / 2`
//! relative), the coordinates' correction is `dq = -R_q + h/2 J_qr dr` and the rates' solves
//! `(I - h/2 J_rr - h^2/4 J_rq J_qr) dr = -R_r - h/2 J_rq R_q`: a half-size system. `J` comes
//! from forward differences of `f` and is kept (LU-factorised) while Newton contracts by at
//! least [`REFRESH_RATE`] per iteration; the converged step does not depend on it beyond the
//! Newton tolerance.

use nalgebra::{DMatrix, DVector, Dyn, LU};

/// Newton stops when the correction is below this weighted norm (each component against
/// `atol + rtol |x|`).
const CONVERGED: f64 = 1.0;

/// A contraction per iteration slower than this with a kept Jacobian makes it be recomputed
/// (with a fresh one Newton goes on while the correction decreases).
const REFRESH_RATE: f64 = 0.3;

/// Newton iterations with one Jacobian.
const MAX_ITERATIONS: usize = 12;

/// Jacobians made in one step before it fails.
const MAX_REFRESHES: usize = 4;

/// Why a step failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ImplicitError {
    /// Newton did not converge with [`MAX_REFRESHES`] Jacobians.
    #[error(
        "the implicit midpoint's Newton iteration did not converge (last correction {correction:e} of the tolerance)"
    )]
    NoConvergence {
        /// The last correction's weighted norm.
        correction: f64,
    },
    /// The reduced Newton matrix is singular.
    #[error("the implicit midpoint's Newton matrix is singular")]
    Singular,
}

/// The factorised reduced Newton matrix and the blocks the corrections need.
#[derive(Clone, Debug)]
struct NewtonMatrix {
    /// The step size it was made for, s.
    step: f64,
    /// LU of `I - h/2 J_rr - h^2/4 J_rq J_qr`.
    lu: LU<f64, Dyn, Dyn>,
    /// `J_rq`.
    rates_by_coordinates: DMatrix<f64>,
    /// `J_qr`.
    coordinates_by_rates: DMatrix<f64>,
}

/// The implicit midpoint integrator of one system of `2 m` states (`m` coordinates, then `m`
/// rates), with its kept Newton matrix and buffers.
#[derive(Clone, Debug)]
pub struct ImplicitMidpoint {
    n: usize,
    matrix: Option<NewtonMatrix>,
    /// The last step's end state and its increment, for the predictor.
    last: Option<(Vec<f64>, Vec<f64>)>,
    x_mid: Vec<f64>,
    f_mid: Vec<f64>,
    f_shifted: Vec<f64>,
    x_new: Vec<f64>,
    /// Evaluations of `f` made (for the step statistics), including the Jacobians'.
    pub evaluations: usize,
    /// Jacobians made.
    pub jacobians: usize,
}

impl ImplicitMidpoint {
    /// An integrator for `n` states (`n` even).
    pub fn new(n: usize) -> Self {
        Self {
            n,
            matrix: None,
            last: None,
            x_mid: vec![0.0; n],
            f_mid: vec![0.0; n],
            f_shifted: vec![0.0; n],
            x_new: vec![0.0; n],
            evaluations: 0,
            jacobians: 0,
        }
    }

    /// One step of size `h` of `x' = f(x)` (`f(x, dx)` writes the derivative), in place; Newton
    /// to the tolerances `(rtol, atol)`. Starts from the previous step's increment when `x` is
    /// that step's end (a linear predictor), else from `x`. On error `x` is unchanged.
    pub fn step(
        &mut self,
        mut f: impl FnMut(&[f64], &mut [f64]),
        x: &mut [f64],
        h: f64,
        (rtol, atol): (f64, f64),
    ) -> Result<(), ImplicitError> {
        let n = self.n;
        match &self.last {
            Some((end, increment)) if end.as_slice() == &*x => {
                for i in 0..n {
                    self.x_new[i] = x[i] + increment[i];
                }
            }
            _ => self.x_new.copy_from_slice(x),
        }
        let (mut fresh, mut refreshes) = (false, 0);
        let mut previous = f64::INFINITY;
        let mut iterations = 0;
        loop {
            for i in 0..n {
                self.x_mid[i] = 0.5 * (x[i] + self.x_new[i]);
            }
            f(&self.x_mid, &mut self.f_mid);
            self.evaluations += 1;
            if self.matrix.as_ref().is_none_or(|m| m.step != h) {
                self.refresh(&mut f, h)?;
                (fresh, refreshes) = (true, refreshes + 1);
            }
            let residual: Vec<f64> = (0..n).map(|i| self.x_new[i] - x[i] - h * self.f_mid[i]).collect();
            let correction = self.correction(&residual, h)?;
            let size =
                (0..n).map(|i| correction[i].abs() / (atol + rtol * self.x_new[i].abs())).fold(0.0_f64, f64::max);
            iterations += 1;
            if !size.is_finite() || refreshes > MAX_REFRESHES {
                return Err(ImplicitError::NoConvergence { correction: size });
            }
            for i in 0..n {
                self.x_new[i] += correction[i];
            }
            if size <= CONVERGED {
                break;
            }
            let failed = iterations >= MAX_ITERATIONS || size > previous;
            if failed || (!fresh && size > REFRESH_RATE * previous) {
                // On from here with a Jacobian at the current midpoint.
                self.matrix = None;
                (fresh, iterations, previous) = (false, 0, f64::INFINITY);
                continue;
            }
            previous = size;
        }
        let increment: Vec<f64> = (0..n).map(|i| self.x_new[i] - x[i]).collect();
        x.copy_from_slice(&self.x_new);
        self.last = Some((x.to_vec(), increment));
        Ok(())
    }

    /// The Newton correction for `residual` with the kept matrix.
    fn correction(&self, residual: &[f64], h: f64) -> Result<Vec<f64>, ImplicitError> {
        let m = self.n / 2;
        let matrix = self.matrix.as_ref().ok_or(ImplicitError::Singular)?;
        let (r_q, r_r) = (DVector::from_column_slice(&residual[..m]), DVector::from_column_slice(&residual[m..]));
        let right = -&r_r - &matrix.rates_by_coordinates * &r_q * (0.5 * h);
        let d_r = matrix.lu.solve(&right).ok_or(ImplicitError::Singular)?;
        let d_q = -r_q + &matrix.coordinates_by_rates * &d_r * (0.5 * h);
        Ok(d_q.iter().chain(d_r.iter()).copied().collect())
    }

    /// Makes and factorises the reduced Newton matrix at the current midpoint (`x_mid`, with
    /// `f_mid` its derivative) by forward differences.
    fn refresh(&mut self, f: &mut impl FnMut(&[f64], &mut [f64]), h: f64) -> Result<(), ImplicitError> {
        let (n, m) = (self.n, self.n / 2);
        let mut jacobian = DMatrix::zeros(n, n);
        let mut shifted = self.x_mid.clone();
        for column in 0..n {
            let delta = 1e-7 * self.x_mid[column].abs().max(1e-2);
            shifted[column] = self.x_mid[column] + delta;
            f(&shifted, &mut self.f_shifted);
            shifted[column] = self.x_mid[column];
            for row in 0..n {
                jacobian[(row, column)] = (self.f_shifted[row] - self.f_mid[row]) / delta;
            }
        }
        self.evaluations += n;
        self.jacobians += 1;
        let rates_by_coordinates = jacobian.view((m, 0), (m, m)).into_owned();
        let coordinates_by_rates = jacobian.view((0, m), (m, m)).into_owned();
        let reduced = DMatrix::identity(m, m)
            - jacobian.view((m, m), (m, m)) * (0.5 * h)
            - &rates_by_coordinates * &coordinates_by_rates * (0.25 * h * h);
        let lu = reduced.lu();
        if !lu.is_invertible() {
            return Err(ImplicitError::Singular);
        }
        self.matrix = Some(NewtonMatrix { step: h, lu, rates_by_coordinates, coordinates_by_rates });
        Ok(())
    }
}
