//! Implicit time steps for a blade's first-order system in coordinates and rates, `x = [q, r]`
//! with `q' = G(q) r` (as [`BladeDynamics`](super::blade_dynamics::BladeDynamics)'s state, 6
//! coordinates and 6 rates per free node): the implicit midpoint rule and the two-step backward
//! differentiation formula (BDF2), both by a simplified Newton method on a reduced (Schur
//! complement) matrix kept from step to step.
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
//! `(I - c J_rr - c^2 J_rq J_qr) dr = -R_r - c J_rq R_q`: a half-size system. `J` is kept
//! (factorised) while Newton contracts by at least a factor 0.3 per iteration and the step size
//! stays the same (to the rounding of a master's communication steps); the converged
//! step does not depend on it beyond the Newton tolerance. Newton starts from the quadratic
//! extrapolation of the last three states.
//!
//! **Structure.** A node's derivative depends on its own and its neighbours' states (the
//! elements' internal and damping loads) and on the tip node's coordinates (the external loads
//! spread along the root-to-tip chord), so `J_qr` is block diagonal (6x6 node blocks), `J_rq`
//! and `J_rr` block tridiagonal plus the last block column, and so is the reduced matrix. `J`
//! comes from forward differences with the columns grouped: nodes three apart (whose rows do not
//! overlap) are perturbed together, the tip node alone, so a Jacobian takes at most 48
//! evaluations of `f` (4 groups of 12 columns) instead of `12 N`; the reduced matrix is factorised
//! by block elimination, which fills in nothing outside that pattern.

use nalgebra::{Matrix6, Vector6};

use super::blade_dynamics::PER_NODE;

/// Newton stops when the correction, or the error estimated to remain after it, is below this
/// weighted norm (each component against `atol + rtol |y|`): a small fraction of the tolerance,
/// as Hairer and Wanner recommend for simplified Newton in implicit Runge-Kutta methods
/// (Solving ODEs II, sec. IV.8: `kappa` between 0.01 and 0.1, their codes 0.03), so that the
/// Newton error left in each step stays below the tolerance over many steps. With 1 (the full
/// tolerance) and a Newton matrix kept over many steps, the elastic Bo105's hub moment drifted
/// by 3e-3 of its largest value from the converged solution in 4 s.
const CONVERGED: f64 = 0.03;

/// Newton also stops when its corrections stop decreasing while below this weighted norm (the
/// full tolerance): with a tight tolerance on a stiff blade round-off in the derivative can lie
/// above [`CONVERGED`].
const ROUND_OFF_FLOOR: f64 = 1.0;

/// A contraction per iteration slower than this with a kept Jacobian makes it be recomputed
/// (with a fresh one Newton goes on while the correction decreases).
const REFRESH_RATE: f64 = 0.3;

/// Newton iterations with one Jacobian.
const MAX_ITERATIONS: usize = 12;

/// Jacobians made in one step before it fails.
const MAX_REFRESHES: usize = 4;

/// Step coefficients (and step sizes) closer than this relative difference count as equal: a
/// master's communication steps `t_(k+1) - t_k` of one nominal size differ in their last bits,
/// and a kept Newton matrix and the previous steps' extrapolation stay valid across them.
const SAME_SIZE: f64 = 1e-9;

/// Column groups of the finite-difference Jacobian: nodes `j % 3` (all but the tip), the tip.
const GROUPS: usize = 4;

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

/// A matrix of 6x6 node blocks over `N` nodes that is block tridiagonal plus the last block
/// column (the pattern of the blade's Jacobian blocks and of the reduced Newton matrix).
#[derive(Clone, Debug)]
struct BorderedBlocks {
    /// Blocks `(i, i)`.
    diagonal: Vec<Matrix6<f64>>,
    /// Blocks `(i, i - 1)` at `i` (index 0 unused).
    lower: Vec<Matrix6<f64>>,
    /// Blocks `(i, i + 1)` at `i` (index `N - 1` unused).
    upper: Vec<Matrix6<f64>>,
    /// Blocks `(i, N - 1)` at `i` for `i + 2 < N` (the others are in `diagonal` or `upper`).
    border: Vec<Matrix6<f64>>,
}

impl BorderedBlocks {
    /// All blocks zero, over `nodes` nodes.
    fn zeros(nodes: usize) -> Self {
        let blocks = vec![Matrix6::zeros(); nodes];
        Self { diagonal: blocks.clone(), lower: blocks.clone(), upper: blocks.clone(), border: blocks }
    }

    /// Number of nodes.
    fn nodes(&self) -> usize {
        self.diagonal.len()
    }

    /// Block `(i, j)`, if it is in the pattern.
    fn block_mut(&mut self, i: usize, j: usize) -> Option<&mut Matrix6<f64>> {
        let n = self.nodes();
        match () {
            _ if i == j => Some(&mut self.diagonal[i]),
            _ if i == j + 1 => Some(&mut self.lower[i]),
            _ if i + 1 == j => Some(&mut self.upper[i]),
            _ if j + 1 == n => Some(&mut self.border[i]),
            _ => None,
        }
    }

    /// Node `i`'s block of the product with `x` (one 6-vector per node).
    fn row_times(&self, i: usize, x: &[Vector6<f64>]) -> Vector6<f64> {
        let n = self.nodes();
        let mut sum = self.diagonal[i] * x[i];
        if i > 0 {
            sum += self.lower[i] * x[i - 1];
        }
        if i + 1 < n {
            sum += self.upper[i] * x[i + 1];
        }
        if i + 2 < n {
            sum += self.border[i] * x[n - 1];
        }
        sum
    }

    /// Factorises in place by block elimination (no fill-in outside the pattern): afterwards
    /// `diagonal` holds the inverted pivot blocks and `lower` the multipliers. `false` if a
    /// pivot block is singular.
    fn factorise(&mut self) -> bool {
        let n = self.nodes();
        for i in 0..n {
            if i > 0 {
                let multiplier = self.lower[i] * self.diagonal[i - 1];
                self.diagonal[i] -= multiplier * self.upper[i - 1];
                if i + 1 < n {
                    // Row i - 1's border entry lands in row i's last column.
                    let fill = multiplier * self.border[i - 1];
                    if i + 2 < n {
                        self.border[i] -= fill;
                    } else {
                        self.upper[i] -= fill;
                    }
                }
                self.lower[i] = multiplier;
            }
            match self.diagonal[i].try_inverse() {
                Some(inverse) if inverse.iter().all(|v| v.is_finite()) => self.diagonal[i] = inverse,
                _ => return false,
            }
        }
        true
    }

    /// Solves in place with the factors of [`BorderedBlocks::factorise`].
    fn solve(&self, rhs: &mut [Vector6<f64>]) {
        let n = self.nodes();
        for i in 1..n {
            let carried = self.lower[i] * rhs[i - 1];
            rhs[i] -= carried;
        }
        rhs[n - 1] = self.diagonal[n - 1] * rhs[n - 1];
        for i in (0..n - 1).rev() {
            let mut reduced = rhs[i] - self.upper[i] * rhs[i + 1];
            if i + 2 < n {
                reduced -= self.border[i] * rhs[n - 1];
            }
            rhs[i] = self.diagonal[i] * reduced;
        }
    }
}

/// The Jacobian blocks the corrections need and the factorised reduced Newton matrix.
#[derive(Clone, Debug)]
struct NewtonMatrix {
    /// The coefficient `c` it was made for, s (`NaN`: none made yet, or discarded).
    coefficient: f64,
    /// `J_qr`'s diagonal blocks.
    coordinates_by_rates: Vec<Matrix6<f64>>,
    /// `J_rq`.
    rates_by_coordinates: BorderedBlocks,
    /// `J_rr` (only while the reduced matrix is made).
    rates_by_rates: BorderedBlocks,
    /// `I - c J_rr - c^2 J_rq J_qr`, factorised.
    reduced: BorderedBlocks,
}

/// The previous steps (for the predictor and BDF2), in buffers kept between steps.
#[derive(Clone, Debug)]
struct History {
    /// How many of `start` and `before` are valid (0, 1 or 2).
    steps: usize,
    /// The last step's size, s.
    size: f64,
    /// The last step's start and end.
    start: Vec<f64>,
    end: Vec<f64>,
    /// The start of the step before it (when that ended at `start` with the same size).
    before: Vec<f64>,
}

/// An implicit integrator of one blade of `N` free nodes (`12 N` states: `6 N` coordinates,
/// then `6 N` rates), with its kept Newton matrix, the previous steps and buffers (a step
/// allocates nothing).
#[derive(Clone, Debug)]
pub struct ImplicitStepper {
    method: Method,
    n: usize,
    matrix: NewtonMatrix,
    history: History,
    y: Vec<f64>,
    b: Vec<f64>,
    f_y: Vec<f64>,
    f_shifted: Vec<f64>,
    shifted: Vec<f64>,
    residual: Vec<f64>,
    correction: Vec<f64>,
    /// The rates' right-hand side and solution, per node.
    node_rates: Vec<Vector6<f64>>,
    /// The coordinates' residual, per node.
    node_coordinates: Vec<Vector6<f64>>,
    /// Evaluations of `f` made, including the Jacobians' (statistics).
    pub evaluations: usize,
    /// Jacobians made (statistics).
    pub jacobians: usize,
}

impl ImplicitStepper {
    /// An integrator by `method` for `n` states (`n` a positive multiple of 12: a blade's
    /// [`BladeDynamics::n_states`](super::blade_dynamics::BladeDynamics::n_states)).
    pub fn new(method: Method, n: usize) -> Self {
        assert!(n > 0 && n.is_multiple_of(2 * PER_NODE), "{n} states: not 12 per node");
        let nodes = n / (2 * PER_NODE);
        let blocks = BorderedBlocks::zeros(nodes);
        Self {
            method,
            n,
            matrix: NewtonMatrix {
                coefficient: f64::NAN,
                coordinates_by_rates: vec![Matrix6::zeros(); nodes],
                rates_by_coordinates: blocks.clone(),
                rates_by_rates: blocks.clone(),
                reduced: blocks,
            },
            history: History { steps: 0, size: 0.0, start: vec![0.0; n], end: vec![0.0; n], before: vec![0.0; n] },
            y: vec![0.0; n],
            b: vec![0.0; n],
            f_y: vec![0.0; n],
            f_shifted: vec![0.0; n],
            shifted: vec![0.0; n],
            residual: vec![0.0; n],
            correction: vec![0.0; n],
            node_rates: vec![Vector6::zeros(); nodes],
            node_coordinates: vec![Vector6::zeros(); nodes],
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
        let history = &self.history;
        // The previous step, when it ends where this one starts with the same size (to rounding).
        let continued =
            history.steps > 0 && (history.size / h - 1.0).abs() < SAME_SIZE && history.end.as_slice() == &*x;
        let bdf2 = self.method == Method::Bdf2 && continued;
        let coefficient = if bdf2 { 2.0 * h / 3.0 } else { 0.5 * h };
        for (i, &x_i) in x.iter().enumerate() {
            // The end predicted by extrapolating the previous states (quadratic when there are
            // two, linear with one) starts Newton (y = x_1, or y = x_m for the midpoint).
            let predicted = match (continued, history.steps) {
                (true, 2) => 3.0 * (x_i - history.start[i]) + history.before[i],
                (true, _) => 2.0 * x_i - history.start[i],
                _ => x_i,
            };
            (self.b[i], self.y[i]) =
                if bdf2 { ((4.0 * x_i - history.start[i]) / 3.0, predicted) } else { (x_i, 0.5 * (x_i + predicted)) };
        }
        let theta = if bdf2 { 1.0 } else { 0.5 };
        self.solve(|y: &[f64], dy: &mut [f64]| f(theta, y, dy), coefficient, tolerances)?;
        let history = &mut self.history;
        if continued {
            std::mem::swap(&mut history.before, &mut history.start);
        }
        history.steps = if continued { 2 } else { 1 };
        history.size = h;
        history.start.copy_from_slice(x);
        for (x_i, &y_i) in x.iter_mut().zip(&self.y) {
            *x_i = if bdf2 { y_i } else { 2.0 * y_i - *x_i };
        }
        history.end.copy_from_slice(x);
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
            let kept = (self.matrix.coefficient / coefficient - 1.0).abs() < SAME_SIZE; // false for NaN
            if !kept {
                self.refresh(&mut f, coefficient)?;
                (fresh, refreshes) = (true, refreshes + 1);
            }
            for i in 0..n {
                self.residual[i] = self.y[i] - self.b[i] - coefficient * self.f_y[i];
            }
            self.correct(coefficient);
            let size =
                (0..n).map(|i| self.correction[i].abs() / (atol + rtol * self.y[i].abs())).fold(0.0_f64, f64::max);
            iterations += 1;
            if !size.is_finite() || refreshes > MAX_REFRESHES {
                return Err(ImplicitError::NoConvergence { correction: size });
            }
            for (y, dy) in self.y.iter_mut().zip(&self.correction) {
                *y += dy;
            }
            // The error left after this correction, estimated from the contraction (Hairer and
            // Wanner's stopping rule): `size rate / (1 - rate)`.
            let rate = size / previous;
            if size <= CONVERGED || (iterations > 1 && rate < 1.0 && size * rate / (1.0 - rate) <= CONVERGED) {
                return Ok(());
            }
            if rate >= 1.0 && size <= ROUND_OFF_FLOOR {
                // Corrections within the tolerance that no longer decrease: round-off in `f` (a
                // stiff blade's large internal forces) bounds what Newton can reach.
                return Ok(());
            }
            let failed = iterations >= MAX_ITERATIONS || size > previous;
            if failed || (!fresh && rate > REFRESH_RATE) {
                // On from here with a Jacobian at the current iterate.
                self.matrix.coefficient = f64::NAN;
                (fresh, iterations, previous) = (false, 0, f64::INFINITY);
                continue;
            }
            previous = size;
        }
    }

    /// The Newton correction for the current residual with the kept matrix, into `correction`.
    fn correct(&mut self, coefficient: f64) {
        let m = self.n / 2;
        let matrix = &self.matrix;
        let node = |values: &[f64], i: usize| Vector6::from_column_slice(&values[PER_NODE * i..PER_NODE * (i + 1)]);
        let (residual_q, residual_r) = self.residual.split_at(m);
        for (i, r_q) in self.node_coordinates.iter_mut().enumerate() {
            *r_q = node(residual_q, i);
        }
        for (i, right) in self.node_rates.iter_mut().enumerate() {
            let coupling = matrix.rates_by_coordinates.row_times(i, &self.node_coordinates);
            *right = -node(residual_r, i) - coupling * coefficient;
        }
        matrix.reduced.solve(&mut self.node_rates);
        let (correction_q, correction_r) = self.correction.split_at_mut(m);
        for (i, (d_r, r_q)) in self.node_rates.iter().zip(&self.node_coordinates).enumerate() {
            let d_q = -r_q + matrix.coordinates_by_rates[i] * d_r * coefficient;
            correction_q[PER_NODE * i..PER_NODE * (i + 1)].copy_from_slice(d_q.as_slice());
            correction_r[PER_NODE * i..PER_NODE * (i + 1)].copy_from_slice(d_r.as_slice());
        }
    }

    /// Makes and factorises the reduced Newton matrix at the current `y` (with `f_y` its
    /// derivative) by grouped forward differences (see the module documentation).
    fn refresh(&mut self, f: &mut impl FnMut(&[f64], &mut [f64]), coefficient: f64) -> Result<(), ImplicitError> {
        let nodes = self.n / (2 * PER_NODE);
        let group_of = |j: usize| if j + 1 == nodes { GROUPS - 1 } else { j % (GROUPS - 1) };
        self.shifted.copy_from_slice(&self.y);
        for half in 0..2 {
            for group in 0..GROUPS {
                if !(0..nodes).any(|j| group_of(j) == group) {
                    continue;
                }
                for k in 0..PER_NODE {
                    let column = |j: usize| half * PER_NODE * nodes + PER_NODE * j + k;
                    let delta = |y: &[f64], j: usize| 1e-7 * y[column(j)].abs().max(1e-2);
                    for j in (0..nodes).filter(|&j| group_of(j) == group) {
                        self.shifted[column(j)] = self.y[column(j)] + delta(&self.y, j);
                    }
                    f(&self.shifted, &mut self.f_shifted);
                    self.evaluations += 1;
                    for j in (0..nodes).filter(|&j| group_of(j) == group) {
                        self.shifted[column(j)] = self.y[column(j)];
                        self.store_column(half, j, k, delta(&self.y, j));
                    }
                }
            }
        }
        self.jacobians += 1;
        self.reduce(coefficient)
    }

    /// Stores the difference quotients of node `j`'s coordinate (`half` 0) or rate (`half` 1)
    /// `k`, perturbed by `delta`, into the Jacobian blocks of the rows it reaches.
    fn store_column(&mut self, half: usize, j: usize, k: usize, delta: f64) {
        let nodes = self.n / (2 * PER_NODE);
        let m = PER_NODE * nodes;
        let quotient = |f_shifted: &[f64], f_y: &[f64], row: usize| (f_shifted[row] - f_y[row]) / delta;
        let rows = if j + 1 == nodes { 0..nodes } else { j.saturating_sub(1)..(j + 2).min(nodes) };
        let matrix = &mut self.matrix;
        for i in rows {
            let target = if half == 0 { &mut matrix.rates_by_coordinates } else { &mut matrix.rates_by_rates };
            let block = target.block_mut(i, j).expect("the rows of node j are in the pattern");
            for row in 0..PER_NODE {
                block[(row, k)] = quotient(&self.f_shifted, &self.f_y, m + PER_NODE * i + row);
            }
        }
        if half == 1 {
            let block = &mut matrix.coordinates_by_rates[j];
            for row in 0..PER_NODE {
                block[(row, k)] = quotient(&self.f_shifted, &self.f_y, PER_NODE * j + row);
            }
        }
    }

    /// Forms and factorises `I - c J_rr - c^2 J_rq J_qr` from the Jacobian blocks.
    fn reduce(&mut self, coefficient: f64) -> Result<(), ImplicitError> {
        let matrix = &mut self.matrix;
        let nodes = matrix.coordinates_by_rates.len();
        let c2 = coefficient * coefficient;
        for i in 0..nodes {
            for j in 0..nodes {
                let (Some(reduced), Some(rr), Some(rq)) = (
                    matrix.reduced.block_mut(i, j),
                    matrix.rates_by_rates.block_mut(i, j),
                    matrix.rates_by_coordinates.block_mut(i, j),
                ) else {
                    continue;
                };
                *reduced = -(*rr * coefficient) - *rq * matrix.coordinates_by_rates[j] * c2;
                if i == j {
                    *reduced += Matrix6::identity();
                }
            }
        }
        if !matrix.reduced.factorise() {
            matrix.coefficient = f64::NAN;
            return Err(ImplicitError::Singular);
        }
        matrix.coefficient = coefficient;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{DMatrix, DVector, Matrix6, Vector6};

    use super::BorderedBlocks;

    /// Deterministic numbers in [-1, 1) (a 64-bit linear congruential generator).
    fn random(seed: &mut u64) -> f64 {
        *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (*seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    /// The block elimination of the bordered block-tridiagonal pattern solves as nalgebra's dense
    /// LU with partial pivoting (an independent solver) does on random diagonally heavy matrices
    /// of 1 to 7 nodes (relative difference below 1e-12).
    #[test]
    fn bordered_block_elimination_matches_the_dense_lu() {
        let mut seed = 5;
        for nodes in 1..=7 {
            let mut blocks = BorderedBlocks::zeros(nodes);
            let mut dense = DMatrix::zeros(6 * nodes, 6 * nodes);
            for i in 0..nodes {
                for j in 0..nodes {
                    let Some(block) = blocks.block_mut(i, j) else { continue };
                    *block = Matrix6::from_fn(|_, _| random(&mut seed));
                    if i == j {
                        *block += Matrix6::identity() * 8.0;
                    }
                    dense.view_mut((6 * i, 6 * j), (6, 6)).copy_from(block);
                }
            }
            let rhs: Vec<Vector6<f64>> = (0..nodes).map(|_| Vector6::from_fn(|_, _| random(&mut seed))).collect();
            let dense_rhs = DVector::from_iterator(6 * nodes, rhs.iter().flat_map(|v| v.iter().copied()));
            let expected = dense.lu().solve(&dense_rhs).unwrap();
            let mut solution = rhs.clone();
            assert!(blocks.factorise());
            blocks.solve(&mut solution);
            let difference = (0..6 * nodes).map(|k| (solution[k / 6][k % 6] - expected[k]).abs()).fold(0.0, f64::max);
            assert!(difference < 1e-12 * expected.amax(), "{nodes} nodes: difference {difference:e}");
        }
    }
}
