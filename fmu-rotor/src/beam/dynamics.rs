//! Free motion of the beam in a frame that does not turn, by the implicit midpoint rule.
//!
//! Inertia is lumped at the free nodes: a mass `m_i` (half of each adjacent element's `m L`) and an
//! isotropic rotary inertia `j_i` (half of each adjacent element's mean section inertia per length
//! times `L`), so that the kinetic energy is `sum 1/2 m_i |v_i|^2 + 1/2 j_i |w_i|^2` with the
//! node velocities `v_i` and spatial angular velocities `w_i` (no gyroscopic term for an isotropic
//! inertia). One step of size `h` finds the increments `(dx_i, dpsi_i)` (displacement and spatial
//! rotation vector, `R_i+ = exp(dpsi_i~) R_i`) with
//! `dx = h (v + v+)/2`, `dpsi = h (w + w+)/2` and
//! `m (v+ - v)/h = -f_x(q_mid)`, `j (w+ - w)/h = -f_psi(q_mid)`,
//! the elastic forces `f` (the potential's gradient, as in the static solve) taken at the
//! midpoint configuration `x + dx/2`, `exp(dpsi~/2) R`. The step is symmetric, so the energy error
//! per step is `O(h^3)` and over a fixed time `O(h^2)`, without drift; for a linear system the
//! energy (a quadratic invariant) would be kept exactly. Newton on the increments uses the
//! closed-form tangent: `2 diag(m, j)/h^2 + 1/2 (H - F~/2) J_l(dpsi/2)`, where `H` is the
//! potential's Hessian, `F~/2` turns it into the derivative of the force field (the skew part the
//! chart's second-order term removes from `H`) and `J_l` is the left Jacobian of the rotation
//! vector.

use nalgebra::{Matrix3, Vector3, Vector6};

use super::model::{Beam, BeamState, TipLoad};
use super::statics::StaticError;

/// Below this squared angle (rad^2) the left Jacobian uses its Taylor series.
const SERIES_BELOW: f64 = 1e-6;

/// Masses and rotary inertias lumped at the free nodes (root excluded), in node order.
#[derive(Clone, Debug, PartialEq)]
pub struct LumpedInertia {
    /// Mass of each free node (kg).
    pub node_mass: Vec<f64>,
    /// Rotary inertia of each free node about any axis (kg m^2).
    pub node_rotary_inertia: Vec<f64>,
}

/// A configuration and its rates (frame axes).
#[derive(Clone, Debug, PartialEq)]
pub struct BeamMotion {
    /// Node positions and rotations.
    pub state: BeamState,
    /// Node velocities (m/s); the clamped root's stays zero.
    pub velocities: Vec<[f64; 3]>,
    /// Node spatial angular velocities (rad/s); the clamped root's stays zero.
    pub angular_velocities: Vec<[f64; 3]>,
}

/// Why a midpoint step failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StepError {
    /// The beam's frame turns: the step has no Coriolis or centrifugal forces.
    #[error("the midpoint step needs a frame that does not turn (frame rate {0:?} rad/s)")]
    TurningFrame([f64; 3]),
    /// Newton on the step's increments did not converge.
    #[error("the midpoint step did not converge in {iterations} iterations (last correction {correction:e})")]
    NotConverged {
        /// Iterations made.
        iterations: usize,
        /// The last correction (largest displacement over the beam length, or rotation in rad).
        correction: f64,
    },
    /// The step's Newton matrix is singular.
    #[error("singular Newton matrix at node {node}")]
    SingularMatrix {
        /// The node whose pivot block was singular.
        node: usize,
    },
}

impl BeamMotion {
    /// `state` with all nodes at rest.
    pub fn at_rest(state: BeamState) -> Self {
        let n = state.positions.len();
        Self { state, velocities: vec![[0.0; 3]; n], angular_velocities: vec![[0.0; 3]; n] }
    }
}

impl Beam {
    /// The lumped inertia of the module documentation.
    pub fn lumped_inertia(&self) -> LumpedInertia {
        let n = self.elements.len();
        let mut inertia = LumpedInertia { node_mass: vec![0.0; n], node_rotary_inertia: vec![0.0; n] };
        for (e, element) in self.elements.iter().enumerate() {
            let section = &element.section;
            let half_mass = 0.5 * section.mass_per_length * element.length;
            let mean_inertia = section.inertia_per_length.iter().sum::<f64>() / 3.0;
            let half_rotary = 0.5 * mean_inertia * element.length;
            // Element e joins nodes e and e + 1; free node k is node k + 1.
            for node in [e, e + 1] {
                if let Some(free) = node.checked_sub(1) {
                    inertia.node_mass[free] += half_mass;
                    inertia.node_rotary_inertia[free] += half_rotary;
                }
            }
        }
        inertia
    }

    /// Kinetic energy of the lumped inertia plus the strain energy (J).
    pub fn total_energy(&self, motion: &BeamMotion, inertia: &LumpedInertia) -> f64 {
        let squared = |v: &[f64; 3]| v.iter().map(|c| c * c).sum::<f64>();
        let kinetic: f64 = (1..self.n_nodes())
            .map(|node| {
                0.5 * inertia.node_mass[node - 1] * squared(&motion.velocities[node])
                    + 0.5 * inertia.node_rotary_inertia[node - 1] * squared(&motion.angular_velocities[node])
            })
            .sum();
        kinetic + self.potential_energy(&motion.state)
    }

    /// One implicit-midpoint step of `step` seconds (module documentation); Newton until the
    /// correction (largest displacement over the beam length, or rotation in rad) is below
    /// `tolerance`. Returns the number of Newton iterations.
    pub fn midpoint_step(
        &self,
        motion: &mut BeamMotion,
        inertia: &LumpedInertia,
        step: f64,
        tolerance: f64,
    ) -> Result<usize, StepError> {
        const MAX_ITERATIONS: usize = 30;
        if self.frame_rate != [0.0; 3] {
            return Err(StepError::TurningFrame(self.frame_rate));
        }
        let n = self.elements.len();
        let length: f64 = self.elements.iter().map(|e| e.length).sum();
        let rates: Vec<Vector6<f64>> = (1..=n)
            .map(|node| {
                let (v, w) = (motion.velocities[node], motion.angular_velocities[node]);
                Vector6::new(v[0], v[1], v[2], w[0], w[1], w[2])
            })
            .collect();
        // Start from the increments of constant rates.
        let mut delta: Vec<Vector6<f64>> = rates.iter().map(|r| r * step).collect();
        let mut correction_size = f64::INFINITY;
        for iteration in 1..=MAX_ITERATIONS {
            let correction = self.midpoint_correction(motion, inertia, step, &delta)?;
            correction_size = correction
                .iter()
                .fold(0.0_f64, |m, d| m.max(d.fixed_rows::<3>(0).amax() / length).max(d.fixed_rows::<3>(3).amax()));
            if !correction_size.is_finite() {
                break;
            }
            for (d, c) in delta.iter_mut().zip(&correction) {
                *d += c;
            }
            if correction_size <= tolerance {
                for (i, d) in delta.iter().enumerate() {
                    let new_rate = d * (2.0 / step) - rates[i];
                    motion.velocities[i + 1] = [new_rate[0], new_rate[1], new_rate[2]];
                    motion.angular_velocities[i + 1] = [new_rate[3], new_rate[4], new_rate[5]];
                }
                let flat: Vec<f64> = delta.iter().flat_map(|d| d.iter().copied()).collect();
                self.apply_increment(&mut motion.state, &flat);
                return Ok(iteration);
            }
        }
        Err(StepError::NotConverged { iterations: MAX_ITERATIONS, correction: correction_size })
    }

    /// One Newton correction of the midpoint step's increments `delta`.
    fn midpoint_correction(
        &self,
        motion: &BeamMotion,
        inertia: &LumpedInertia,
        step: f64,
        delta: &[Vector6<f64>],
    ) -> Result<Vec<Vector6<f64>>, StepError> {
        let n = delta.len();
        let mut mid = motion.state.clone();
        let half: Vec<f64> = delta.iter().flat_map(|d| d.iter().map(|c| 0.5 * c)).collect();
        self.apply_increment(&mut mid, &half);
        let (force, mut matrix) = self.residual_and_tangent(&mid, TipLoad::Dead([0.0; 3]));
        let inertia_scale = 2.0 / (step * step);
        let mut residual = Vec::with_capacity(n);
        for i in 0..n {
            let (v, w) = (motion.velocities[i + 1], motion.angular_velocities[i + 1]);
            let (m, j) = (inertia.node_mass[i], inertia.node_rotary_inertia[i]);
            let mut r = force[i];
            for k in 0..3 {
                r[k] += inertia_scale * m * (delta[i][k] - step * v[k]);
                r[3 + k] += inertia_scale * j * (delta[i][3 + k] - step * w[k]);
            }
            residual.push(-r);
        }
        // d(force at the midpoint)/d(delta) = 1/2 (H - F~/2) J_l(dpsi/2) on the rotation columns.
        let left_jacobians: Vec<Matrix3<f64>> =
            delta.iter().map(|d| left_jacobian(&(d.fixed_rows::<3>(3) * 0.5))).collect();
        for (diagonal, node_force) in matrix.diagonal.iter_mut().zip(&force) {
            let moment = node_force.fixed_rows::<3>(3).into_owned();
            let mut block = diagonal.fixed_view_mut::<3, 3>(3, 3);
            block -= skew(&moment) * 0.5;
        }
        let turn_columns = |block: &mut nalgebra::Matrix6<f64>, column_node: usize| {
            *block *= 0.5;
            let rotated = block.fixed_columns::<3>(3) * left_jacobians[column_node];
            block.fixed_columns_mut::<3>(3).copy_from(&rotated);
        };
        for i in 0..n {
            turn_columns(&mut matrix.diagonal[i], i);
            let m = inertia.node_mass[i] * inertia_scale;
            let j = inertia.node_rotary_inertia[i] * inertia_scale;
            for k in 0..3 {
                matrix.diagonal[i][(k, k)] += m;
                matrix.diagonal[i][(3 + k, 3 + k)] += j;
            }
        }
        for i in 0..n.saturating_sub(1) {
            turn_columns(&mut matrix.upper[i], i + 1);
            turn_columns(&mut matrix.lower[i], i);
        }
        matrix.solve(residual).map_err(|error| match error {
            StaticError::SingularTangent { node } => StepError::SingularMatrix { node },
            StaticError::NotConverged { correction, .. } => StepError::NotConverged { iterations: 0, correction },
        })
    }
}

/// `a~`.
fn skew(a: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}

/// The left Jacobian of the rotation vector `a`: `exp((a + d)~) = exp((J_l d)~) exp(a~)` to first
/// order, `J_l = I + (1 - cos t)/t^2 a~ + (t - sin t)/t^3 a~^2`, `t = |a|`.
fn left_jacobian(a: &Vector3<f64>) -> Matrix3<f64> {
    let t2 = a.norm_squared();
    let (c1, c2) = if t2 < SERIES_BELOW {
        (0.5 - t2 / 24.0, 1.0 / 6.0 - t2 / 120.0)
    } else {
        let t = t2.sqrt();
        ((1.0 - t.cos()) / t2, (t - t.sin()) / (t2 * t))
    };
    let a_skew = skew(a);
    Matrix3::identity() + a_skew * c1 + a_skew * a_skew * c2
}
