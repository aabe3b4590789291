//! Static equilibrium by Newton's method with the exact tangent.
//!
//! The unknowns are increments of the free nodes (chart at the current configuration:
//! displacement and spatial rotation vector per node). The residual is the gradient of the
//! potential minus the tip load; the tangent is the potential's Hessian (strain part in closed
//! form, [`super::tangent`]; centrifugal part by AD) plus, for a
//! follower force `F = R_tip F_material`, the load stiffness `d(-F)/d psi_tip = F~`.

use nalgebra::{Matrix6, Vector6};

use super::model::{Beam, BeamState, TipLoad};

/// Newton settings for [`Beam::solve_static`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonSettings {
    /// Number of equal load steps from zero to the full load (each cut back when needed).
    pub load_steps: usize,
    /// Iterations per load step before cutting the step back.
    pub max_iterations: usize,
    /// Convergence when the increment's largest displacement (m) divided by the beam length
    /// and largest rotation (rad) are both below this.
    pub tolerance: f64,
}

impl Default for NewtonSettings {
    fn default() -> Self {
        Self { load_steps: 10, max_iterations: 30, tolerance: 1e-12 }
    }
}

/// Why a static solve failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StaticError {
    /// Newton did not converge, even with the load step cut back.
    #[error("Newton did not converge at {load_fraction} of the load (last correction {correction:e})")]
    NotConverged {
        /// The fraction of the load it was trying to reach.
        load_fraction: f64,
        /// The last correction's size (relative displacement or rotation; NaN or infinite when
        /// the iteration diverged).
        correction: f64,
    },
    /// The tangent is singular (buckled or unconstrained beam).
    #[error("singular tangent stiffness at node {node}")]
    SingularTangent {
        /// The node whose pivot block was singular.
        node: usize,
    },
}

/// A block-tridiagonal matrix with 6x6 blocks over the free nodes.
pub(super) struct BlockTridiagonal {
    /// Diagonal blocks `(i, i)`.
    pub diagonal: Vec<Matrix6<f64>>,
    /// Blocks `(i, i + 1)`.
    pub upper: Vec<Matrix6<f64>>,
    /// Blocks `(i + 1, i)`.
    pub lower: Vec<Matrix6<f64>>,
}

impl BlockTridiagonal {
    pub(super) fn zeros(n: usize) -> Self {
        Self {
            diagonal: vec![Matrix6::zeros(); n],
            upper: vec![Matrix6::zeros(); n.saturating_sub(1)],
            lower: vec![Matrix6::zeros(); n.saturating_sub(1)],
        }
    }

    /// Solves `A x = b` by block elimination (LU with partial pivoting inside each block).
    pub(super) fn solve(mut self, mut rhs: Vec<Vector6<f64>>) -> Result<Vec<Vector6<f64>>, StaticError> {
        let n = self.diagonal.len();
        for i in 1..n {
            let lu = self.diagonal[i - 1].lu();
            let upper = lu.solve(&self.upper[i - 1]).ok_or(StaticError::SingularTangent { node: i })?;
            let forward = lu.solve(&rhs[i - 1]).ok_or(StaticError::SingularTangent { node: i })?;
            self.diagonal[i] -= self.lower[i - 1] * upper;
            rhs[i] -= self.lower[i - 1] * forward;
            self.upper[i - 1] = upper;
            rhs[i - 1] = forward;
        }
        let last = self.diagonal[n - 1].lu().solve(&rhs[n - 1]).ok_or(StaticError::SingularTangent { node: n })?;
        rhs[n - 1] = last;
        for i in (0..n - 1).rev() {
            rhs[i] = rhs[i] - self.upper[i] * rhs[i + 1];
        }
        Ok(rhs)
    }
}

impl Beam {
    /// Residual (per free node) and tangent of the equilibrium equations in `state` under
    /// `load` (the potential's gradient minus the tip force).
    pub(super) fn residual_and_tangent(
        &self,
        state: &BeamState,
        load: TipLoad,
    ) -> (Vec<Vector6<f64>>, BlockTridiagonal) {
        let n = self.elements.len();
        let mut residual = vec![Vector6::zeros(); n];
        let mut tangent = BlockTridiagonal::zeros(n);
        for e in 0..n {
            let (_, gradient, hessian) = self.element_potential(state, e);
            // Element e joins node e (free index e - 1, absent for the root) and node e + 1.
            let free = [e.checked_sub(1), Some(e)];
            for (a, row) in free.iter().enumerate() {
                let Some(i) = row else { continue };
                residual[*i] += gradient.fixed_rows::<6>(6 * a);
                for (b, col) in free.iter().enumerate() {
                    let Some(j) = col else { continue };
                    let block = hessian.fixed_view::<6, 6>(6 * a, 6 * b);
                    match j.cmp(i) {
                        std::cmp::Ordering::Equal => tangent.diagonal[*i] += block,
                        std::cmp::Ordering::Greater => tangent.upper[*i] += block,
                        std::cmp::Ordering::Less => tangent.lower[*j] += block,
                    }
                }
            }
        }
        let force = self.tip_force(state, load);
        let tip = n - 1;
        for k in 0..3 {
            residual[tip][k] -= force[k];
        }
        if let TipLoad::Follower(_) = load {
            // d(-F)/d(psi) = F~ for F = exp(psi~) F_0.
            let skew = [[0.0, -force[2], force[1]], [force[2], 0.0, -force[0]], [-force[1], force[0], 0.0]];
            for (r, row) in skew.iter().enumerate() {
                for (c, value) in row.iter().enumerate() {
                    tangent.diagonal[tip][(r, 3 + c)] += value;
                }
            }
        }
        (residual, tangent)
    }

    /// Static equilibrium under `load` (and the centrifugal load of [`Beam::frame_rate`]),
    /// starting from the undeformed beam and stepping the tip load and the centrifugal load (the
    /// frame rate squared) up together in [`NewtonSettings::load_steps`] equal steps; a step
    /// whose Newton iteration fails is restarted at half its size, down to 1/64 of the initial
    /// step.
    pub fn solve_static(&self, load: TipLoad, settings: &NewtonSettings) -> Result<BeamState, StaticError> {
        const MAX_CUTBACKS: u32 = 6;
        let mut state = self.undeformed.clone();
        let initial_step = 1.0 / settings.load_steps.max(1) as f64;
        let (mut done, mut step) = (0.0_f64, initial_step);
        while done < 1.0 {
            let target = (done + step).min(1.0);
            let scaled = match load {
                TipLoad::Dead(f) => TipLoad::Dead(f.map(|c| c * target)),
                TipLoad::Follower(f) => TipLoad::Follower(f.map(|c| c * target)),
            };
            // The centrifugal load (proportional to the frame rate squared) ramps with the tip load.
            let ramped;
            let beam = if self.frame_rate == [0.0; 3] {
                self
            } else {
                ramped = Beam { frame_rate: self.frame_rate.map(|w| w * target.sqrt()), ..self.clone() };
                &ramped
            };
            let mut trial = state.clone();
            match beam.newton(&mut trial, scaled, settings) {
                Ok(()) => {
                    state = trial;
                    done = target;
                    step = (2.0 * step).min(initial_step);
                }
                Err(error) if step <= initial_step / f64::from(1 << MAX_CUTBACKS) => {
                    return Err(match error {
                        StaticError::NotConverged { correction, .. } => {
                            StaticError::NotConverged { load_fraction: target, correction }
                        }
                        singular => singular,
                    });
                }
                Err(_) => step *= 0.5,
            }
        }
        Ok(state)
    }

    /// Newton iterations on `state` under `load` until the correction is below the tolerance.
    fn newton(&self, state: &mut BeamState, load: TipLoad, settings: &NewtonSettings) -> Result<(), StaticError> {
        let mut correction = f64::INFINITY;
        for _ in 0..settings.max_iterations {
            correction = self.newton_step(state, load)?;
            if !correction.is_finite() {
                break;
            }
            if correction <= settings.tolerance {
                return Ok(());
            }
        }
        Err(StaticError::NotConverged { load_fraction: 1.0, correction })
    }

    /// One Newton iteration on `state` under `load` (tangent assembly, solve, update); returns
    /// the correction's size (largest displacement over the beam length, or rotation in rad).
    pub fn newton_step(&self, state: &mut BeamState, load: TipLoad) -> Result<f64, StaticError> {
        let length: f64 = self.elements.iter().map(|e| e.length).sum();
        let (residual, tangent) = self.residual_and_tangent(state, load);
        let delta = tangent.solve(residual.iter().map(|r| -r).collect())?;
        let correction = delta.iter().fold(0.0_f64, |m, d| {
            let displacement = d.fixed_rows::<3>(0).amax() / length;
            m.max(displacement).max(d.fixed_rows::<3>(3).amax())
        });
        if correction.is_finite() {
            let flat: Vec<f64> = delta.iter().flat_map(|d| d.iter().copied()).collect();
            self.apply_increment(state, &flat);
        }
        Ok(correction)
    }
}
