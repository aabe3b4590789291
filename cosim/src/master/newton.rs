//! The one Newton solver of an algebraic loop `z = g(z)`, used by the master at communication
//! points and by the monolithic reference at every right-hand-side evaluation: chord or full
//! Newton on `r(z) = z - g(z)` with the matrix `I - dg/dz` from the problem, a convergence test on
//! the true residual, and a typed failure.

use super::linalg::{self, Singular};

/// Smallest residual reduction per Newton iteration accepted from a reused Newton matrix (chord
/// Newton, `master.jacobian = "reuse"`).
pub const CONTRACTION: f64 = 0.1;

/// Residual growths in a row after which the iteration counts as diverged.
const GROWTHS_TO_DIVERGE: usize = 3;

/// One algebraic loop as the solver sees it.
pub trait LoopProblem {
    /// An error of the evaluation itself (an FMI call that failed), passed through unchanged.
    type Error;
    /// Sets the loop's inputs from `z` and writes the outputs `g(z)` into `g`.
    fn evaluate(&mut self, z: &[f64], g: &mut [f64]) -> Result<(), Self::Error>;
    /// Writes `a = I - dg/dz` (row-major, `m x m`) at the last evaluated `z`.
    fn newton_matrix(&mut self, a: &mut [f64]) -> Result<(), Self::Error>;
}

/// When the solver recomputes the Newton matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatrixUpdate {
    /// At every iteration (full Newton).
    EveryIteration,
    /// Kept, factorised, across iterations and solves while the residual contracts by at least
    /// [`CONTRACTION`] per iteration (chord Newton).
    #[default]
    WhenSlow,
}

/// Tolerance and limits of one solve.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Converged when `|r_i| <= tolerance (1 + |z_i|)` for every `i`.
    pub tolerance: f64,
    /// Iterations allowed before [`Failure::IterationLimit`].
    pub max_iterations: usize,
    /// Newton matrix policy.
    pub matrix: MatrixUpdate,
}

/// The buffers of one loop, kept between solves: `z` is the start and, after a solve, the
/// solution; a factorised matrix is reused by chord Newton.
#[derive(Debug, Clone)]
pub struct LoopBuffers {
    /// The loop's outputs (unknowns).
    pub z: Vec<f64>,
    g: Vec<f64>,
    r: Vec<f64>,
    /// The Newton matrix's LU factors (the master's saved state holds them).
    pub(crate) a: Vec<f64>,
    pub(crate) pivots: Vec<usize>,
    /// `a` holds the LU factors of a Newton matrix (from this or an earlier solve).
    pub(crate) factored: bool,
}

impl LoopBuffers {
    /// Buffers of a loop of `m` unknowns.
    pub fn new(m: usize) -> LoopBuffers {
        LoopBuffers {
            z: vec![0.0; m],
            g: vec![0.0; m],
            r: vec![0.0; m],
            a: vec![0.0; m * m],
            pivots: vec![0; m],
            factored: false,
        }
    }

    /// Number of unknowns.
    pub fn len(&self) -> usize {
        self.z.len()
    }

    /// True for a loop without unknowns.
    pub fn is_empty(&self) -> bool {
        self.z.is_empty()
    }

    /// Forgets the factorised matrix, so the next solve computes a new one.
    pub fn forget_matrix(&mut self) {
        self.factored = false;
    }
}

/// A converged solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Convergence {
    /// Newton iterations made (0: the start was converged).
    pub iterations: usize,
    /// Residual max-norm at the solution.
    pub residual: f64,
    /// Newton matrices computed and factorised.
    pub matrix_updates: usize,
}

/// Why a solve failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Failure {
    /// The residual is NaN or infinite.
    #[error("non-finite residual")]
    NonFinite,
    /// [`Settings::max_iterations`] reached.
    #[error("iteration limit reached")]
    IterationLimit,
    /// The residual grew three times in a row.
    #[error("diverged (residual grew three times in a row)")]
    Diverged,
    /// The Newton matrix could not be factorised.
    #[error(transparent)]
    Singular(#[from] Singular),
}

/// A failed solve: why, and where it stood.
#[derive(Debug, Clone, PartialEq)]
pub struct Unsolved {
    /// Why.
    pub failure: Failure,
    /// Residual max-norm at the end.
    pub residual: f64,
    /// Iterations made.
    pub iterations: usize,
    /// Newton matrices computed and factorised.
    pub matrix_updates: usize,
}

/// The end of a solve that did not converge.
#[derive(Debug)]
pub enum SolveError<E> {
    /// The iteration failed; the buffers' matrix is forgotten.
    Unsolved(Unsolved),
    /// The problem's evaluation failed.
    Problem(E),
}

/// Solves `z = g(z)` by Newton from `buffers.z`; on success `buffers.z` is the solution.
pub fn solve<P: LoopProblem>(
    problem: &mut P,
    buffers: &mut LoopBuffers,
    settings: &Settings,
) -> Result<Convergence, SolveError<P::Error>> {
    let m = buffers.len();
    let mut previous = f64::INFINITY;
    let mut growths = 0;
    let mut iterations = 0;
    let mut matrix_updates = 0;
    loop {
        let b = &mut *buffers;
        problem.evaluate(&b.z, &mut b.g).map_err(SolveError::Problem)?;
        let mut norm = 0.0_f64;
        let mut finite = true;
        let mut converged = true;
        for i in 0..m {
            b.r[i] = b.z[i] - b.g[i];
            // `f64::max` drops a NaN operand: check finiteness on its own.
            finite &= b.r[i].is_finite();
            norm = norm.max(b.r[i].abs());
            converged &= b.r[i].abs() <= settings.tolerance * (1.0 + b.z[i].abs());
        }
        if !finite && norm.is_finite() {
            norm = f64::NAN;
        }
        let unsolved = |failure: Failure, b: &mut LoopBuffers, matrix_updates: usize| {
            b.factored = false;
            SolveError::Unsolved(Unsolved { failure, residual: norm, iterations, matrix_updates })
        };
        if !finite {
            return Err(unsolved(Failure::NonFinite, b, matrix_updates));
        }
        if converged {
            return Ok(Convergence { iterations, residual: norm, matrix_updates });
        }
        if iterations >= settings.max_iterations {
            return Err(unsolved(Failure::IterationLimit, b, matrix_updates));
        }
        growths = if norm > previous { growths + 1 } else { 0 };
        if growths >= GROWTHS_TO_DIVERGE {
            return Err(unsolved(Failure::Diverged, b, matrix_updates));
        }
        let refresh = settings.matrix == MatrixUpdate::EveryIteration || !b.factored || norm > CONTRACTION * previous;
        previous = norm;
        if refresh {
            b.factored = false;
            problem.newton_matrix(&mut b.a).map_err(SolveError::Problem)?;
            matrix_updates += 1;
            if let Err(e) = linalg::factor(m, &mut b.a, &mut b.pivots) {
                return Err(unsolved(e.into(), b, matrix_updates));
            }
            b.factored = true;
        }
        // Newton step: (I - dg/dz) dz = r, solved in the g buffer.
        b.g.copy_from_slice(&b.r);
        linalg::solve_factored(m, &b.a, &b.pivots, &mut b.g);
        for i in 0..m {
            b.z[i] -= b.g[i];
        }
        iterations += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `z = A z + c` with the exact Newton matrix `I - A`.
    struct Affine {
        a: Vec<f64>,
        c: Vec<f64>,
        evaluations: usize,
    }

    impl LoopProblem for Affine {
        type Error = ();
        fn evaluate(&mut self, z: &[f64], g: &mut [f64]) -> Result<(), ()> {
            self.evaluations += 1;
            let m = z.len();
            for (i, g) in g.iter_mut().enumerate() {
                *g = self.c[i] + (0..m).map(|j| self.a[i * m + j] * z[j]).sum::<f64>();
            }
            Ok(())
        }
        fn newton_matrix(&mut self, a: &mut [f64]) -> Result<(), ()> {
            let m = self.c.len();
            for i in 0..m {
                for j in 0..m {
                    a[i * m + j] = f64::from(i == j) - self.a[i * m + j];
                }
            }
            Ok(())
        }
    }

    const SETTINGS: Settings = Settings { tolerance: 1e-12, max_iterations: 20, matrix: MatrixUpdate::WhenSlow };

    #[test]
    fn an_affine_loop_is_solved_in_one_newton_step() {
        // z = (I - A)^-1 c = [1, 2] for A = [[0.5, 1], [-2, 3]], c = [-1.5, -2].
        let mut p = Affine { a: vec![0.5, 1.0, -2.0, 3.0], c: vec![-1.5, -2.0], evaluations: 0 };
        let mut b = LoopBuffers::new(2);
        let c = solve(&mut p, &mut b, &SETTINGS).unwrap();
        assert_eq!((c.iterations, c.matrix_updates), (1, 1));
        assert!((b.z[0] - 1.0).abs() < 1e-14 && (b.z[1] - 2.0).abs() < 1e-14, "{:?}", b.z);
        // The factorised matrix is kept: from a new start, no new matrix.
        b.z.copy_from_slice(&[10.0, -10.0]);
        let c = solve(&mut p, &mut b, &SETTINGS).unwrap();
        assert_eq!((c.iterations, c.matrix_updates), (1, 0));
    }

    #[test]
    fn a_singular_newton_matrix_is_a_typed_failure() {
        // A = I: I - A = 0.
        let mut p = Affine { a: vec![1.0, 0.0, 0.0, 1.0], c: vec![1.0, 1.0], evaluations: 0 };
        let mut b = LoopBuffers::new(2);
        match solve(&mut p, &mut b, &SETTINGS) {
            Err(SolveError::Unsolved(Unsolved { failure: Failure::Singular(_), iterations: 0, .. })) => {}
            other => panic!("{other:?}"),
        }
        assert!(!b.factored);
    }

    #[test]
    fn a_non_finite_residual_and_the_iteration_limit_are_typed_failures() {
        let mut p = Affine { a: vec![0.5], c: vec![f64::NAN], evaluations: 0 };
        let mut b = LoopBuffers::new(1);
        assert!(matches!(
            solve(&mut p, &mut b, &SETTINGS),
            Err(SolveError::Unsolved(Unsolved { failure: Failure::NonFinite, .. }))
        ));
        let mut p = Affine { a: vec![0.5], c: vec![1.0], evaluations: 0 };
        let limited = Settings { max_iterations: 0, ..SETTINGS };
        match solve(&mut p, &mut LoopBuffers::new(1), &limited) {
            Err(SolveError::Unsolved(u)) => {
                assert_eq!((u.failure, u.iterations, p.evaluations), (Failure::IterationLimit, 0, 1))
            }
            other => panic!("{other:?}"),
        }
    }

    /// `g(z) = 2 z + 1` with the Newton matrix of `g(z) = -z` (wrong sign): every step overshoots
    /// further, and the residual grows.
    struct WrongSlope;

    impl LoopProblem for WrongSlope {
        type Error = ();
        fn evaluate(&mut self, z: &[f64], g: &mut [f64]) -> Result<(), ()> {
            g[0] = 2.0 * z[0] + 1.0;
            Ok(())
        }
        fn newton_matrix(&mut self, a: &mut [f64]) -> Result<(), ()> {
            a[0] = 2.0;
            Ok(())
        }
    }

    #[test]
    fn a_growing_residual_is_divergence() {
        let full = Settings { matrix: MatrixUpdate::EveryIteration, ..SETTINGS };
        match solve(&mut WrongSlope, &mut LoopBuffers::new(1), &full) {
            Err(SolveError::Unsolved(u)) => assert_eq!((u.failure, u.iterations), (Failure::Diverged, 3)),
            other => panic!("{other:?}"),
        }
    }
}
