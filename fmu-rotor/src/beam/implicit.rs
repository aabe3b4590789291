//! Implicit time steps for a first-order system in coordinates and rates, `x = [q, r]` with
//! `q' = G(q) r` (as [`BladeDynamics`](super::blade_dynamics::BladeDynamics)'s state): the
//! implicit midpoint rule and the two-step backward differentiation formula (BDF2), both by a
//! simplified Newton method on a reduced (Schur complement) matrix kept from step to step.
//!
//! Both methods solve one equation `y = b + c f(y)` per step:
//! * **implicit midpoint**: `y = x_m = (x_0 + x_1) / 2`, `b = x_0`, `c = h/2`, then
//!   `x_1 = 2 y - x_0`. Second order, A-stable, no numerical damping (an undamped oscillation
//!   keeps its amplitude at any `h omega`; its phase is wrong where `h omega` is not small): the
//!   stiff axial, shear and torsion modes neither grow nor decay. On the blade the energy error
//!   is of order `h^2` and does not drift.
//! * **BDF2**: `y = x_1`, `b = (4 x_0 - x_-1) / 3`, `c = 2h/3`. Second order, L-stable: modes
//!   with `h omega >> 1` are damped out (amplification `~ 1/(h omega)` per step), those with
//!   `h omega << 1` lose energy at the rate `(h omega)^3 omega / 4`-ish (a relative energy loss of
//!   order `(h omega)^2` per cycle). It needs the previous state of equal step: the first step (and
//!   any step whose start is not the previous step's end, or of another size) is a midpoint step.
//!
//! **Newton.** The residual `R(y) = y - b - c f(y)` has the Jacobian `I - c J(y)`. With
//! `J = [[J_qq, J_qr], [J_rq, J_rr]]` and `J_qq` neglected in the matrix (the rate of the
//! rotation vector depends on it only through the angular velocity: `c |w|` relative), the
//! coordinates' correction is `dq = -R_q + c J_qr dr` and the rates' solves
//! `(I - c J_rr - c^2 J_rq J_qr) dr = -R_r - c J_rq R_q`: a half-size system. `J` comes from
//! forward differences of `f` and is kept (LU-factorised) while Newton contracts by at least
//! a factor 0.3 per iteration; the converged step does not depend on it beyond the Newton
//! tolerance. Newton starts from the quadratic extrapolation of the last three states.

use nalgebra::{DMatrix, DVector, Dyn, LU};

/// Newton stops when the correction, or the error estimated to remain after it, is below this
/// weighted norm (each component against `atol + rtol |y|`).
const CONVERGED: f64 = 1.0;

/// A contraction per iteration slower than this with a kept Jacobian makes it be recomputed
/// (with a fresh one Newton goes on while the correction decreases).
const REFRESH_RATE: f64 = 0.3;

/// Newton iterations with one Jacobian.
const MAX_ITERATIONS: usize = 12;

/// Jacobians made in one step before it fails.
const MAX_REFRESHES: usize = 4;

/// The implicit method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The implicit midpoint rule (energy conserving to `O(h^2)`, no numerical damping).
    Midpoint,
    /// The two-step backward differentiation formula (damps the modes with `h omega >> 1`).
    Bdf2,
}

/// Why a step failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ImplicitError {
    /// Newton did not converge, even with fresh Jacobians (up to 5 in one step).
    #[error("the implicit step's Newton iteration did not converge (last correction {correction:e} of the tolerance)")]
    NoConvergence {
        /// The last correction's weighted norm.
        correction: f64,
    },
    /// The reduced Newton matrix is singular.
    #[error("the implicit step's Newton matrix is singular")]
    Singular,
}

/// The factorised reduced Newton matrix and the blocks the corrections need.
#[derive(Clone, Debug)]
struct NewtonMatrix {
    /// The coefficient `c` it was made for, s.
    coefficient: f64,
    /// LU of `I - c J_rr - c^2 J_rq J_qr`.
    lu: LU<f64, Dyn, Dyn>,
    /// `J_rq`.
    rates_by_coordinates: DMatrix<f64>,
    /// `J_qr`.
    coordinates_by_rates: DMatrix<f64>,
}

/// The previous step: its start, its end and its size.
#[derive(Clone, Debug)]
struct LastStep {
    start: Vec<f64>,
    end: Vec<f64>,
    size: f64,
    /// The start of the step before it, when that ended at `start` with the same size.
    before: Option<Vec<f64>>,
}

/// An implicit integrator of one system of `2 m` states (`m` coordinates, then `m` rates), with
/// its kept Newton matrix, the previous step and buffers.
#[derive(Clone, Debug)]
pub struct ImplicitStepper {
    method: Method,
    n: usize,
    matrix: Option<NewtonMatrix>,
    last: Option<LastStep>,
    y: Vec<f64>,
    b: Vec<f64>,
    f_y: Vec<f64>,
    f_shifted: Vec<f64>,
    residual: Vec<f64>,
    /// Evaluations of `f` made, including the Jacobians' (statistics).
    pub evaluations: usize,
    /// Jacobians made (statistics).
    pub jacobians: usize,
}

impl ImplicitStepper {
    /// An integrator by `method` for `n` states (`n` even).
    pub fn new(method: Method, n: usize) -> Self {
        Self {
            method,
            n,
            matrix: None,
            last: None,
            y: vec![0.0; n],
            b: vec![0.0; n],
            f_y: vec![0.0; n],
            f_shifted: vec![0.0; n],
            residual: vec![0.0; n],
            evaluations: 0,
            jacobians: 0,
        }
    }

    /// One step of size `h` of `x' = f(t, x)`, in place: `f(theta, x, dx)` writes the derivative
    /// at the time `t_0 + theta h` of the step (`theta` is 1/2 for the midpoint rule, 1 for
    /// BDF2). Newton to the tolerances `(rtol, atol)`. On error `x` is unchanged.
    pub fn step(
        &mut self,
        mut f: impl FnMut(f64, &[f64], &mut [f64]),
        x: &mut [f64],
        h: f64,
        tolerances: (f64, f64),
    ) -> Result<(), ImplicitError> {
        let n = self.n;
        // The previous step, when it ends where this one starts with the same size.
        let previous = self.last.as_ref().filter(|last| last.end.as_slice() == &*x && last.size == h);
        let bdf2 = self.method == Method::Bdf2 && previous.is_some();
        let coefficient = if bdf2 { 2.0 * h / 3.0 } else { 0.5 * h };
        for i in 0..n {
            // The end predicted by extrapolating the previous states (quadratic when there are
            // two, linear with one) starts Newton (y = x_1, or y = x_m for the midpoint).
            let predicted = match previous {
                Some(LastStep { start, before: Some(before), .. }) => 3.0 * (x[i] - start[i]) + before[i],
                Some(LastStep { start, .. }) => 2.0 * x[i] - start[i],
                None => x[i],
            };
            (self.b[i], self.y[i]) = if bdf2 {
                ((4.0 * x[i] - previous.map_or(x[i], |last| last.start[i])) / 3.0, predicted)
            } else {
                (x[i], 0.5 * (x[i] + predicted))
            };
        }
        let theta = if bdf2 { 1.0 } else { 0.5 };
        let before = previous.map(|last| last.start.clone());
        self.solve(|y: &[f64], dy: &mut [f64]| f(theta, y, dy), coefficient, tolerances)?;
        let start = x.to_vec();
        for i in 0..n {
            x[i] = if bdf2 { self.y[i] } else { 2.0 * self.y[i] - start[i] };
        }
        self.last = Some(LastStep { start, end: x.to_vec(), size: h, before });
        Ok(())
    }

    /// Solves `y = b + c f(y)` for `y` from its start value, by simplified Newton.
    fn solve(
        &mut self,
        mut f: impl FnMut(&[f64], &mut [f64]),
        coefficient: f64,
        (rtol, atol): (f64, f64),
    ) -> Result<(), ImplicitError> {
        let n = self.n;
        let (mut fresh, mut refreshes) = (false, 0);
        let (mut previous, mut iterations) = (f64::INFINITY, 0);
        loop {
            f(&self.y, &mut self.f_y);
            self.evaluations += 1;
            if self.matrix.as_ref().is_none_or(|m| m.coefficient != coefficient) {
                self.refresh(&mut f, coefficient)?;
                (fresh, refreshes) = (true, refreshes + 1);
            }
            for i in 0..n {
                self.residual[i] = self.y[i] - self.b[i] - coefficient * self.f_y[i];
            }
            let correction = self.correction(coefficient)?;
            let size = (0..n).map(|i| correction[i].abs() / (atol + rtol * self.y[i].abs())).fold(0.0_f64, f64::max);
            iterations += 1;
            if !size.is_finite() || refreshes > MAX_REFRESHES {
                return Err(ImplicitError::NoConvergence { correction: size });
            }
            for (y, dy) in self.y.iter_mut().zip(&correction) {
                *y += dy;
            }
            // The error left after this correction, estimated from the contraction (Hairer and
            // Wanner's stopping rule): `size rate / (1 - rate)`.
            let rate = size / previous;
            if size <= CONVERGED || (iterations > 1 && rate < 1.0 && size * rate / (1.0 - rate) <= CONVERGED) {
                return Ok(());
            }
            let failed = iterations >= MAX_ITERATIONS || size > previous;
            if failed || (!fresh && rate > REFRESH_RATE) {
                // On from here with a Jacobian at the current iterate.
                self.matrix = None;
                (fresh, iterations, previous) = (false, 0, f64::INFINITY);
                continue;
            }
            previous = size;
        }
    }

    /// The Newton correction for the current residual with the kept matrix.
    fn correction(&self, coefficient: f64) -> Result<Vec<f64>, ImplicitError> {
        let m = self.n / 2;
        let matrix = self.matrix.as_ref().ok_or(ImplicitError::Singular)?;
        let r_q = DVector::from_column_slice(&self.residual[..m]);
        let r_r = DVector::from_column_slice(&self.residual[m..]);
        let right = -&r_r - &matrix.rates_by_coordinates * &r_q * coefficient;
        let d_r = matrix.lu.solve(&right).ok_or(ImplicitError::Singular)?;
        let d_q = -r_q + &matrix.coordinates_by_rates * &d_r * coefficient;
        Ok(d_q.iter().chain(d_r.iter()).copied().collect())
    }

    /// Makes and factorises the reduced Newton matrix at the current `y` (with `f_y` its
    /// derivative) by forward differences.
    fn refresh(&mut self, f: &mut impl FnMut(&[f64], &mut [f64]), coefficient: f64) -> Result<(), ImplicitError> {
        let (n, m) = (self.n, self.n / 2);
        let mut jacobian = DMatrix::zeros(n, n);
        let mut shifted = self.y.clone();
        for column in 0..n {
            let delta = 1e-7 * self.y[column].abs().max(1e-2);
            shifted[column] = self.y[column] + delta;
            f(&shifted, &mut self.f_shifted);
            shifted[column] = self.y[column];
            for row in 0..n {
                jacobian[(row, column)] = (self.f_shifted[row] - self.f_y[row]) / delta;
            }
        }
        self.evaluations += n;
        self.jacobians += 1;
        let rates_by_coordinates = jacobian.view((m, 0), (m, m)).into_owned();
        let coordinates_by_rates = jacobian.view((0, m), (m, m)).into_owned();
        let reduced = DMatrix::identity(m, m)
            - jacobian.view((m, m), (m, m)) * coefficient
            - &rates_by_coordinates * &coordinates_by_rates * (coefficient * coefficient);
        let lu = reduced.lu();
        if !lu.is_invertible() {
            return Err(ImplicitError::Singular);
        }
        self.matrix = Some(NewtonMatrix { coefficient, lu, rates_by_coordinates, coordinates_by_rates });
        Ok(())
    }
}
