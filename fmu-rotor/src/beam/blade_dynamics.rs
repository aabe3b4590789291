//! Time integration form of the beam: an elastic blade clamped in a moving frame as a
//! first-order ODE, generic over the scalar so that Model Exchange gets exact Jacobians.
//!
//! **Coordinates.** Each free node `i` (1..=N; node 0 is clamped) carries its displacement `u_i`
//! from the undeformed position `X_i` and its total rotation vector `psi_i` (spatial:
//! `R_i = exp(psi_i) R0_i`, `R0_i` the undeformed section rotation with pretwist), both in the
//! axes of the frame `F` the blade is clamped in; the rates are the velocity `v_i = u_i'` and
//! the spatial angular velocity `w_i` relative to `F` (`R_i' = w_i~ R_i`), so
//! `psi_i' = T(psi_i)^-1 w_i` with `T` the tangent operator of the exponential map. The state
//! of a blade is `[u_1, psi_1, ..., u_N, psi_N, v_1, w_1, ..., v_N, w_N]` (12 N values).
//!
//! **Mass.** Lumped (row-sum) mass: each element's mass `m L` and its section inertias
//! `(polar, flap, lag) L` go half to each of its nodes, at the reference line (the centre of
//! mass must lie on it; [`BladeDynamics::new`] refuses an offset). The lumped mass converges at
//! the same second order in the element length as the one-point stiffness.
//!
//! **Internal forces.** The gradient of the elements' strain energy
//! ([`Element::strain_energy`](super::element::Element::strain_energy), Simo-Reissner with the
//! Crisfield-Jelenic interpolation). For plain numbers (`f64`) in closed form
//! ([`Element::strain_energy_gradient`](super::element::Element::strain_energy_gradient), with
//! respect to spatial rotation increments: the moment directly); for dual numbers (Model
//! Exchange's directional derivatives, Jacobians) by forward AD with respect to the total
//! coordinates over the caller's scalar (nested dual numbers), so derivatives stay exact: the
//! force on node `i` is `-dU/du_i`, its spatial moment `-T(psi_i)^-T dU/dpsi_i` (virtual work
//! `m . delta theta = m . T delta psi`). Both give the same loads to round-off.
//!
//! **Frame.** `F` moves with its origin's specific force `a0` (inertial acceleration minus
//! gravity, so gravity enters only here), angular velocity `W` and angular acceleration `A`
//! (all in `F` axes). Per node, Newton and Euler in `F`:
//!
//! ```text
//! m v' = f_int + f_ext - m (a0 + A x r + W x (W x r) + 2 W x v)
//! J (w' + A + W x w) + (W + w) x J (W + w) = m_int + m_ext,   J = R diag(J_mat) R^T
//! ```
//!
//! with `r = X + u` the node position from the origin of `F`.

use nalgebra::{Const, SVector};
use num_dual::{Dual, DualVec, gradient};

use super::element::ElementNodes;
use super::model::Beam;
use super::rotation::{
    BeamScalar, Quat, Vec3, add, cross, dot, lift, lift_quat, quat_exp, quat_mul, rotation_columns, scale, sub,
};

/// Values per free node in each half of the state (`u`, `psi` or `v`, `w`).
pub const PER_NODE: usize = 6;

/// Below this squared angle (rad^2) the tangent operator uses its series.
const TANGENT_SERIES_BELOW: f64 = 1e-2;

/// Motion of the frame the blade is clamped in, in that frame's axes.
#[derive(Clone, Copy, Debug)]
pub struct FrameMotion<S> {
    /// Specific force of the origin (inertial acceleration minus gravity), m/s^2.
    pub specific_force: Vec3<S>,
    /// Angular velocity relative to inertial space, rad/s.
    pub omega: Vec3<S>,
    /// Angular acceleration (inertial), rad/s^2.
    pub alpha: Vec3<S>,
}

/// The load the blade puts on the frame at the clamp (frame axes): force (N) and moment about
/// the frame's origin (N m).
#[derive(Clone, Copy, Debug)]
pub struct ClampLoad<S> {
    /// Force on the frame, N.
    pub force: Vec3<S>,
    /// Moment on the frame about its origin, N m.
    pub moment: Vec3<S>,
}

/// Why a beam cannot be integrated in time.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DynamicsError {
    /// The lumped mass needs the centre of mass on the reference line.
    #[error("element {element}: centre of mass offset {offset:?} m from the reference line (the lumped mass needs 0)")]
    CentreOfMassOffset {
        /// 0-based element index.
        element: usize,
        /// The offset `(e2, e3)` in section axes, m.
        offset: [f64; 2],
    },
    /// A node without mass or rotary inertia cannot be integrated.
    #[error("node {node}: lumped mass {mass} kg and inertias {inertia:?} kg m^2 must all be positive")]
    MasslessNode {
        /// 0-based node index.
        node: usize,
        /// Its lumped mass, kg.
        mass: f64,
        /// Its lumped principal inertias `(polar, flap, lag)`, kg m^2.
        inertia: [f64; 3],
    },
}

/// A beam clamped at its node 0 in a moving frame, with lumped masses.
#[derive(Clone, Debug)]
pub struct BladeDynamics {
    /// The beam (elements and undeformed configuration in the frame's axes).
    pub beam: Beam,
    /// Lumped mass per node (kg), root node included.
    pub node_mass: Vec<f64>,
    /// Lumped principal inertias per node about the node, in material axes `(polar, flap,
    /// lag)` (kg m^2).
    pub node_inertia: Vec<[f64; 3]>,
    /// Stiffness-proportional (Rayleigh) structural damping coefficient `beta` (s): the
    /// damping loads are `beta` times the rate of change of the elastic loads along the motion,
    /// `-beta K q'` (modal damping ratio `beta omega / 2` for the elastic modes); 0 for none.
    pub damping: f64,
}

impl BladeDynamics {
    /// Lumps `beam`'s mass onto its nodes.
    pub fn new(beam: Beam) -> Result<Self, DynamicsError> {
        let n = beam.n_nodes();
        let mut node_mass = vec![0.0; n];
        let mut node_inertia = vec![[0.0; 3]; n];
        for (e, element) in beam.elements.iter().enumerate() {
            let section = &element.section;
            let offset = [section.centre_of_mass[1], section.centre_of_mass[2]];
            if offset != [0.0, 0.0] {
                return Err(DynamicsError::CentreOfMassOffset { element: e, offset });
            }
            let half = 0.5 * element.length;
            for node in [e, e + 1] {
                node_mass[node] += section.mass_per_length * half;
                for (inertia, per_length) in node_inertia[node].iter_mut().zip(section.inertia_per_length) {
                    *inertia += per_length * half;
                }
            }
        }
        for node in 1..n {
            if node_mass[node] <= 0.0 || node_inertia[node].iter().any(|&j| j <= 0.0) {
                return Err(DynamicsError::MasslessNode { node, mass: node_mass[node], inertia: node_inertia[node] });
            }
        }
        Ok(Self { beam, node_mass, node_inertia, damping: 0.0 })
    }

    /// Adds to each node's flap and lag inertia the rotary inertia of its share of the element
    /// mass about the element's middle, `(m L / 2) L^2 / 12` per element side: a mass scaling of
    /// the rotations (as explicit finite-element codes do) that lowers the highest natural
    /// frequency (the rotations' shear mode, `sqrt(GA / rho I)`) by about the ratio of the
    /// section's radius of gyration to the element length, at the price of a bending-frequency
    /// change of order `(beta h)^2 / 24`, which vanishes at the method's second order.
    pub fn scale_rotary_inertia(&mut self) {
        for (e, element) in self.beam.elements.iter().enumerate() {
            let half_mass = 0.5 * element.section.mass_per_length * element.length;
            let added = half_mass * element.length * element.length / 12.0;
            for node in [e, e + 1] {
                self.node_inertia[node][1] += added;
                self.node_inertia[node][2] += added;
            }
        }
    }

    /// Number of free nodes (the elements).
    pub fn n_free(&self) -> usize {
        self.beam.elements.len()
    }

    /// Number of states: 12 per free node.
    pub fn n_states(&self) -> usize {
        2 * PER_NODE * self.n_free()
    }

    /// Node `i`'s coordinates `(u, psi)` in `state` (zero for the clamped root).
    fn coordinates<S: BeamScalar>(&self, state: &[S], node: usize) -> (Vec3<S>, Vec3<S>) {
        if node == 0 {
            return ([S::from(0.0); 3], [S::from(0.0); 3]);
        }
        let c = &state[PER_NODE * (node - 1)..PER_NODE * node];
        ([c[0], c[1], c[2]], [c[3], c[4], c[5]])
    }

    /// Node `i`'s rates `(v, w)` in `state` (zero for the clamped root).
    fn rates<S: BeamScalar>(&self, state: &[S], node: usize) -> (Vec3<S>, Vec3<S>) {
        if node == 0 {
            return ([S::from(0.0); 3], [S::from(0.0); 3]);
        }
        let at = PER_NODE * (self.n_free() + node - 1);
        let r = &state[at..at + PER_NODE];
        ([r[0], r[1], r[2]], [r[3], r[4], r[5]])
    }

    /// Position (m, from the frame's origin) and rotation of node `i` in `state`.
    pub fn node_pose<S: BeamScalar>(&self, state: &[S], node: usize) -> (Vec3<S>, Quat<S>) {
        let (u, psi) = self.coordinates(state, node);
        let position = add(lift(self.beam.undeformed.positions[node]), u);
        let rotation = quat_mul(quat_exp(psi), lift_quat(self.beam.undeformed.rotations[node]));
        (position, rotation)
    }

    /// [`BladeDynamics::node_pose`] as plain numbers (the closed forms' input), also handed to
    /// `keep` (with the node's index).
    fn node_pose_values<S: BeamScalar>(
        &self,
        state: &[S],
        node: usize,
        keep: &mut impl FnMut(usize, Vec3<f64>, Quat<f64>),
    ) -> (Vec3<f64>, Quat<f64>) {
        let (p, q) = self.node_pose(state, node);
        let (position, rotation) = ([p[0].re(), p[1].re(), p[2].re()], [q[0].re(), q[1].re(), q[2].re(), q[3].re()]);
        keep(node, position, rotation);
        (position, rotation)
    }

    /// Node `i`'s rates `(v, w)` as plain numbers (the closed forms' input).
    fn node_rate_values<S: BeamScalar>(&self, state: &[S], node: usize) -> (Vec3<f64>, Vec3<f64>) {
        let (v, w) = self.rates(state, node);
        ([v[0].re(), v[1].re(), v[2].re()], [w[0].re(), w[1].re(), w[2].re()])
    }

    /// Node `i`'s velocity (m/s) and angular velocity (rad/s) relative to the frame.
    pub fn node_rates<S: BeamScalar>(&self, state: &[S], node: usize) -> (Vec3<S>, Vec3<S>) {
        self.rates(state, node)
    }

    /// Element `e`'s strain energy (J) and its gradient with respect to the total coordinates
    /// `[u_e, psi_e, u_(e+1), psi_(e+1)]`.
    fn element_gradient<S: BeamScalar>(&self, state: &[S], e: usize) -> (S, SVector<S, 12>) {
        let nodes = ElementNodes {
            positions: [self.beam.undeformed.positions[e], self.beam.undeformed.positions[e + 1]],
            rotations: [self.beam.undeformed.rotations[e], self.beam.undeformed.rotations[e + 1]],
        };
        let (u1, p1) = self.coordinates(state, e);
        let (u2, p2) = self.coordinates(state, e + 1);
        let q = SVector::<S, 12>::from([
            u1[0], u1[1], u1[2], p1[0], p1[1], p1[2], u2[0], u2[1], u2[2], p2[0], p2[1], p2[2],
        ]);
        let element = &self.beam.elements[e];
        gradient(
            |z: SVector<DualVec<S, Const<12>>, 12>| {
                let dq: [DualVec<S, Const<12>>; 12] = z.into();
                element.strain_energy(&nodes, &dq)
            },
            &q,
        )
    }

    /// Internal (elastic) forces and spatial moments on every node (frame axes), and the strain
    /// energy (J): in closed form for plain numbers, by AD of the strain energy for dual numbers
    /// (so derivatives through the state stay exact).
    fn internal_loads<S: BeamScalar>(&self, state: &[S], forces: &mut [Vec3<S>], moments: &mut [Vec3<S>]) -> S {
        if S::NDERIV == 0 {
            S::from(self.internal_loads_closed_form(state, forces, moments, &mut |_, _, _| {}))
        } else {
            self.internal_loads_ad(state, forces, moments)
        }
    }

    /// [`BladeDynamics::internal_loads`] for a scalar without derivative parts (`f64`): the
    /// elements' closed-form gradients ([`Element::strain_energy_gradient`](super::element::Element)),
    /// taken with respect to spatial increments, so the moments need no tangent operator.
    fn internal_loads_closed_form<S: BeamScalar>(
        &self,
        state: &[S],
        forces: &mut [Vec3<S>],
        moments: &mut [Vec3<S>],
        keep_pose: &mut impl FnMut(usize, Vec3<f64>, Quat<f64>),
    ) -> f64 {
        let mut pose = |node: usize| self.node_pose_values(state, node, keep_pose);
        let zero = [S::from(0.0); 3];
        forces.fill(zero);
        moments.fill(zero);
        let mut energy = 0.0;
        let mut left = pose(0);
        for (e, element) in self.beam.elements.iter().enumerate() {
            let right = pose(e + 1);
            let nodes = ElementNodes { positions: [left.0, right.0], rotations: [left.1, right.1] };
            let (u, g) = element.strain_energy_gradient(&nodes);
            energy += u;
            for (a, node) in [e, e + 1].into_iter().enumerate() {
                for k in 0..3 {
                    forces[node][k] -= S::from(g[6 * a + k]);
                    moments[node][k] -= S::from(g[6 * a + 3 + k]);
                }
            }
            left = right;
        }
        energy
    }

    /// [`BladeDynamics::internal_loads`] by forward AD of the strain energy over the caller's
    /// scalar: the force on node `i` is `-dU/du_i`, its spatial moment `-T(psi_i)^-T dU/dpsi_i`.
    fn internal_loads_ad<S: BeamScalar>(&self, state: &[S], forces: &mut [Vec3<S>], moments: &mut [Vec3<S>]) -> S {
        let zero = [S::from(0.0); 3];
        forces.fill(zero);
        moments.fill(zero);
        let mut energy = S::from(0.0);
        for e in 0..self.n_free() {
            let (u, g) = self.element_gradient(state, e);
            energy += u;
            for (a, node) in [e, e + 1].into_iter().enumerate() {
                forces[node] = sub(forces[node], [g[6 * a], g[6 * a + 1], g[6 * a + 2]]);
                let generalised = [g[6 * a + 3], g[6 * a + 4], g[6 * a + 5]];
                let (_, psi) = self.coordinates(state, node);
                moments[node] = sub(moments[node], tangent_inverse_transpose(psi, generalised));
            }
        }
        energy
    }

    /// The state derivative `dx` for `state` in the frame moving with `frame`, under the
    /// external loads per node (frame axes: `forces` N, `moments` N m, index 0 the root), and
    /// the load the blade puts on the frame at the clamp. `work` holds `2 (N + 1)` load vectors
    /// and each node's pose ([`POSE_VECTORS`] vectors per node), kept between calls.
    pub fn derivatives<S: BeamScalar>(
        &self,
        frame: &FrameMotion<S>,
        state: &[S],
        external: (&[Vec3<S>], &[Vec3<S>]),
        work: &mut Vec<Vec3<S>>,
        dx: &mut [S],
    ) -> ClampLoad<S> {
        let nodes = self.beam.n_nodes();
        work.resize((2 + POSE_VECTORS) * nodes, [S::from(0.0); 3]);
        let (loads, poses) = work.split_at_mut(2 * nodes);
        let (forces, moments) = loads.split_at_mut(nodes);
        self.elastic_loads(state, forces, moments, poses);
        let half = PER_NODE * self.n_free();
        let (w_frame, alpha) = (frame.omega, frame.alpha);
        let mut clamp = ClampLoad { force: [S::from(0.0); 3], moment: [S::from(0.0); 3] };
        for (node, pose) in poses.chunks_exact(POSE_VECTORS).enumerate() {
            let (r, axes) = (pose[0], [pose[1], pose[2], pose[3]]);
            let (v, w) = self.rates(state, node);
            let mass = S::from(self.node_mass[node]);
            let transport = add(add(frame.specific_force, cross(alpha, r)), cross(w_frame, cross(w_frame, r)));
            let acceleration = add(transport, scale(cross(w_frame, v), S::from(2.0)));
            let force = add(forces[node], external.0[node]);
            let w_abs = add(w_frame, w);
            let inertia = |vector: Vec3<S>| self.spatial_inertia(&axes, node, vector);
            let gyroscopic = cross(w_abs, inertia(w_abs));
            let moment = sub(add(moments[node], external.1[node]), gyroscopic);
            if node == 0 {
                // The root moves with the frame: the clamp carries its inertia and the element.
                clamp.force = sub(force, scale(acceleration, mass));
                clamp.moment = add(cross(r, clamp.force), sub(moment, inertia(alpha)));
                continue;
            }
            let (_, psi) = self.coordinates(state, node);
            let at = PER_NODE * (node - 1);
            let psi_rate = tangent_inverse(psi, w);
            let v_rate = sub(scale(force, mass.recip()), acceleration);
            let omega_rate = sub(self.spatial_inertia_solve(&axes, node, moment), add(alpha, cross(w_frame, w)));
            for k in 0..3 {
                dx[at + k] = v[k];
                dx[at + 3 + k] = psi_rate[k];
                dx[half + at + k] = v_rate[k];
                dx[half + at + 3 + k] = omega_rate[k];
            }
        }
        clamp
    }

    /// The elastic plus structural damping loads on every node (frame axes), and each node's
    /// pose into `poses` ([`store_pose`]): for plain numbers in closed form, with damping from
    /// one closed-form gradient and its rate per element
    /// ([`BladeDynamics::damped_loads_closed_form`]), the poses those computed; otherwise the
    /// internal loads by AD plus, with damping, [`BladeDynamics::add_damping_loads`], and the
    /// poses from [`BladeDynamics::node_pose`].
    fn elastic_loads<S: BeamScalar>(
        &self,
        state: &[S],
        forces: &mut [Vec3<S>],
        moments: &mut [Vec3<S>],
        poses: &mut [Vec3<S>],
    ) {
        let mut keep = |node: usize, position: Vec3<f64>, rotation: Quat<f64>| {
            store_pose(poses, node, lift(position), lift_quat(rotation));
        };
        if S::NDERIV == 0 && self.damping != 0.0 {
            self.damped_loads_closed_form(state, forces, moments, &mut keep);
        } else if S::NDERIV == 0 {
            self.internal_loads_closed_form(state, forces, moments, &mut keep);
        } else {
            self.internal_loads_ad(state, forces, moments);
            for node in 0..self.beam.n_nodes() {
                let (position, rotation) = self.node_pose(state, node);
                store_pose(poses, node, position, rotation);
            }
            if self.damping != 0.0 {
                self.add_damping_loads(state, forces, moments);
            }
        }
    }

    /// The internal loads plus the structural damping loads for a scalar without derivative
    /// parts (`f64`), from each element's closed-form gradient `g` with respect to spatial
    /// increments and its rate along the motion
    /// ([`Element::strain_energy_gradient_rate`](super::element::Element::strain_energy_gradient_rate),
    /// no Hessian formed): the internal loads are `-g`. Along the motion the nodes move by the
    /// spatial increments `z' = (v_1, w_1, v_2, w_2)` (`exp(psi + e T^-1 w) = exp(e w) exp(psi)`
    /// to first order); the gradient at the moved configuration, taken with respect to increments
    /// about it, changes at the rate `K z'` (`K` the unsymmetrised tangent), equal to
    /// `H z' + (0, w_1 x g_psi1 / 2, 0, w_2 x g_psi2 / 2)` with the Hessian `H` (BCH), and the
    /// damping loads are minus `beta` times it: the same loads as
    /// [`BladeDynamics::add_damping_loads`] (its test oracle) to round-off.
    fn damped_loads_closed_form<S: BeamScalar>(
        &self,
        state: &[S],
        forces: &mut [Vec3<S>],
        moments: &mut [Vec3<S>],
        keep_pose: &mut impl FnMut(usize, Vec3<f64>, Quat<f64>),
    ) {
        let mut pose = |node: usize| self.node_pose_values(state, node, keep_pose);
        let node_rates = |node: usize| self.node_rate_values(state, node);
        let zero = [S::from(0.0); 3];
        forces.fill(zero);
        moments.fill(zero);
        // Each node's pose and rates once: an element takes its left node's from the one before.
        let (mut left, mut left_rates) = (pose(0), node_rates(0));
        for e in 0..self.beam.elements.len() {
            let (right, right_rates) = (pose(e + 1), node_rates(e + 1));
            let nodes = ElementNodes { positions: [left.0, right.0], rotations: [left.1, right.1] };
            let damped = self.damped_element_gradient(e, &nodes, [left_rates, right_rates]);
            for (a, node) in [e, e + 1].into_iter().enumerate() {
                for k in 0..6 {
                    let load = S::from(damped[6 * a + k]);
                    if k < 3 {
                        forces[node][k] -= load;
                    } else {
                        moments[node][k - 3] -= load;
                    }
                }
            }
            (left, left_rates) = (right, right_rates);
        }
    }

    /// Element `e`'s closed-form gradient (frame axes, on `nodes`) plus `beta` times its rate
    /// along its two nodes' rates `(v, w)` (m/s, rad/s, frame axes): minus its damped loads.
    fn damped_element_gradient(
        &self,
        e: usize,
        nodes: &ElementNodes,
        rates: [(Vec3<f64>, Vec3<f64>); 2],
    ) -> SVector<f64, 12> {
        let mut increment_rates = SVector::<f64, 12>::zeros();
        for (a, (v, w)) in rates.into_iter().enumerate() {
            increment_rates.fixed_rows_mut::<3>(6 * a).copy_from_slice(&v);
            increment_rates.fixed_rows_mut::<3>(6 * a + 3).copy_from_slice(&w);
        }
        let (gradient, gradient_rate) = self.beam.elements[e].strain_energy_gradient_rate(nodes, &increment_rates);
        gradient + gradient_rate * self.damping
    }

    /// Adds the structural damping loads `beta d/de [f_int, m_int](q + e q')` (the coordinates'
    /// rates `q' = (v, T(psi)^-1 w)`), by one more level of forward AD over the caller's scalar
    /// (dual numbers keep their derivatives exact; for `f64` the test oracle of
    /// [`BladeDynamics::damped_loads_closed_form`]).
    fn add_damping_loads<S: BeamScalar>(&self, state: &[S], forces: &mut [Vec3<S>], moments: &mut [Vec3<S>]) {
        let half = PER_NODE * self.n_free();
        let mut moving: Vec<Dual<S>> = state.iter().map(|&v| Dual::from_re(v)).collect();
        for node in 1..self.beam.n_nodes() {
            let (_, psi) = self.coordinates(state, node);
            let (v, w) = self.rates(state, node);
            let psi_rate = tangent_inverse(psi, w);
            let at = PER_NODE * (node - 1);
            for k in 0..3 {
                moving[at + k].eps = v[k];
                moving[at + 3 + k].eps = psi_rate[k];
            }
        }
        let nodes = self.beam.n_nodes();
        let zero = [Dual::from_re(S::from(0.0)); 3];
        let (mut rate_forces, mut rate_moments) = (vec![zero; nodes], vec![zero; nodes]);
        self.internal_loads(&moving[..2 * half], &mut rate_forces, &mut rate_moments);
        for node in 0..nodes {
            for k in 0..3 {
                forces[node][k] += rate_forces[node][k].eps * self.damping;
                moments[node][k] += rate_moments[node][k].eps * self.damping;
            }
        }
    }

    /// `J v` with the node's spatial inertia `J = R diag(J_mat) R^T`, `axes` the columns of `R`.
    fn spatial_inertia<S: BeamScalar>(&self, axes: &[Vec3<S>; 3], node: usize, vector: Vec3<S>) -> Vec3<S> {
        let j = self.node_inertia[node];
        let material = [dot(axes[0], vector) * j[0], dot(axes[1], vector) * j[1], dot(axes[2], vector) * j[2]];
        rotate_columns(axes, material)
    }

    /// `J^-1 v`.
    fn spatial_inertia_solve<S: BeamScalar>(&self, axes: &[Vec3<S>; 3], node: usize, vector: Vec3<S>) -> Vec3<S> {
        let j = self.node_inertia[node];
        let material = [dot(axes[0], vector) / j[0], dot(axes[1], vector) / j[1], dot(axes[2], vector) / j[2]];
        rotate_columns(axes, material)
    }

    /// Mechanical energy in a frame turning at the constant rate `omega` about its fixed origin
    /// (the Jacobi integral, conserved without external loads and damping): kinetic energy
    /// relative to the frame plus strain energy minus the centrifugal part
    /// `1/2 m |W x r|^2 + 1/2 W . J W` (J).
    pub fn jacobi_integral(&self, state: &[f64], omega: Vec3<f64>) -> f64 {
        let nodes = self.beam.n_nodes();
        let mut forces = vec![[0.0; 3]; nodes];
        let mut moments = vec![[0.0; 3]; nodes];
        let mut energy = self.internal_loads(state, &mut forces, &mut moments);
        for node in 0..nodes {
            let (r, rotation) = self.node_pose(state, node);
            let axes = rotation_columns(rotation);
            let (v, w) = self.rates(state, node);
            let m = self.node_mass[node];
            let carried = cross(omega, r);
            energy += 0.5 * m * (dot(v, v) - dot(carried, carried));
            energy += 0.5 * dot(w, self.spatial_inertia(&axes, node, w));
            energy -= 0.5 * dot(omega, self.spatial_inertia(&axes, node, omega));
        }
        energy
    }

    /// The load the blade puts on the frame at the clamp, as [`BladeDynamics::derivatives`]
    /// returns it (the same operations, so equal to round-off), without a blade pass: element
    /// 0's internal load (plus its damping load) at the clamped node 0, that node's own inertia
    /// (it moves with the frame) and its external load `external_root` (force N, moment N m,
    /// frame axes). For plain numbers by element 0's closed-form gradient (and its rate), for
    /// dual numbers by AD of its strain energy, as `derivatives` does.
    pub fn clamp_load<S: BeamScalar>(
        &self,
        frame: &FrameMotion<S>,
        state: &[S],
        external_root: (Vec3<S>, Vec3<S>),
    ) -> ClampLoad<S> {
        let (elastic_force, elastic_moment) = self.root_elastic_load(state);
        let (r, rotation) = self.node_pose(state, 0);
        let (v, w) = self.rates(state, 0);
        let mass = S::from(self.node_mass[0]);
        let (w_frame, alpha) = (frame.omega, frame.alpha);
        let transport = add(add(frame.specific_force, cross(alpha, r)), cross(w_frame, cross(w_frame, r)));
        let acceleration = add(transport, scale(cross(w_frame, v), S::from(2.0)));
        let force = add(elastic_force, external_root.0);
        let w_abs = add(w_frame, w);
        let axes = rotation_columns(rotation);
        let inertia = |vector: Vec3<S>| self.spatial_inertia(&axes, 0, vector);
        let moment = sub(add(elastic_moment, external_root.1), cross(w_abs, inertia(w_abs)));
        let force = sub(force, scale(acceleration, mass));
        ClampLoad { force, moment: add(cross(r, force), sub(moment, inertia(alpha))) }
    }

    /// Element 0's internal plus structural damping load on the clamped node 0 (frame axes), as
    /// [`BladeDynamics::elastic_loads`] gives node 0's.
    fn root_elastic_load<S: BeamScalar>(&self, state: &[S]) -> (Vec3<S>, Vec3<S>) {
        let zero = [S::from(0.0); 3];
        if S::NDERIV == 0 {
            let nodes = [0, 1].map(|node| self.node_pose_values(state, node, &mut |_, _, _| {}));
            let nodes = ElementNodes { positions: [nodes[0].0, nodes[1].0], rotations: [nodes[0].1, nodes[1].1] };
            let load = if self.damping != 0.0 {
                self.damped_element_gradient(0, &nodes, [0, 1].map(|node| self.node_rate_values(state, node)))
            } else {
                self.beam.elements[0].strain_energy_gradient(&nodes).1
            };
            let minus = |at: usize| std::array::from_fn(|k| zero[k] - S::from(load[at + k]));
            return (minus(0), minus(3));
        }
        let (_, psi) = self.coordinates(state, 0);
        let (_, g) = self.element_gradient(state, 0);
        let mut force = sub(zero, [g[0], g[1], g[2]]);
        let mut moment = sub(zero, tangent_inverse_transpose(psi, [g[3], g[4], g[5]]));
        if self.damping != 0.0 {
            // Node 1's coordinates moving along their rates, as `add_damping_loads` does.
            let (_, psi_1) = self.coordinates(state, 1);
            let (v, w) = self.rates(state, 1);
            let psi_rate = tangent_inverse(psi_1, w);
            let moving: Vec<Dual<S>> =
                (0..PER_NODE).map(|k| Dual::new(state[k], if k < 3 { v[k] } else { psi_rate[k - 3] })).collect();
            let (_, g) = self.element_gradient(&moving, 0);
            let zero = [Dual::from_re(S::from(0.0)); 3];
            let rate_force = sub(zero, [g[0], g[1], g[2]]);
            let (_, psi_moving) = self.coordinates(&moving, 0);
            let rate_moment = sub(zero, tangent_inverse_transpose(psi_moving, [g[3], g[4], g[5]]));
            for k in 0..3 {
                force[k] += rate_force[k].eps * self.damping;
                moment[k] += rate_moment[k].eps * self.damping;
            }
        }
        (force, moment)
    }
}

/// `c(a) = (1 - (a / 2) cot(a / 2)) / a^2` for `a^2 = angle_sq` (series below
/// [`TANGENT_SERIES_BELOW`]).
fn tangent_coefficient<S: BeamScalar>(angle_sq: S) -> S {
    if angle_sq.re() < TANGENT_SERIES_BELOW {
        S::from(1.0 / 12.0) + angle_sq / 720.0 + angle_sq * angle_sq / 30240.0
    } else {
        let half = angle_sq.sqrt() * 0.5;
        (S::from(1.0) - half / half.tan()) / angle_sq
    }
}

/// `T(psi)^-1 w = w - 1/2 psi x w + c psi x (psi x w)`: the rate of the rotation vector for the
/// spatial angular velocity `w`.
pub fn tangent_inverse<S: BeamScalar>(psi: Vec3<S>, w: Vec3<S>) -> Vec3<S> {
    let c = tangent_coefficient(dot(psi, psi));
    let first = cross(psi, w);
    add(sub(w, scale(first, S::from(0.5))), scale(cross(psi, first), c))
}

/// `T(psi)^-T g = g + 1/2 psi x g + c psi x (psi x g)`: the spatial moment of the generalised
/// force `g` conjugate to the rotation vector.
pub fn tangent_inverse_transpose<S: BeamScalar>(psi: Vec3<S>, g: Vec3<S>) -> Vec3<S> {
    let c = tangent_coefficient(dot(psi, psi));
    let first = cross(psi, g);
    add(add(g, scale(first, S::from(0.5))), scale(cross(psi, first), c))
}

/// Vectors per node of a pose in [`BladeDynamics::derivatives`]' work memory: the position (m,
/// frame axes), then the columns of the rotation matrix (material to frame).
pub const POSE_VECTORS: usize = 4;

/// Writes node `node`'s pose into `poses` ([`POSE_VECTORS`] vectors per node).
fn store_pose<S: BeamScalar>(poses: &mut [Vec3<S>], node: usize, position: Vec3<S>, rotation: Quat<S>) {
    let [x, y, z] = rotation_columns(rotation);
    poses[POSE_VECTORS * node..POSE_VECTORS * (node + 1)].copy_from_slice(&[position, x, y, z]);
}

/// `R v` for the columns `axes` of `R`.
fn rotate_columns<S: BeamScalar>(axes: &[Vec3<S>; 3], v: Vec3<S>) -> Vec3<S> {
    let component = |i: usize| axes[0][i] * v[0] + axes[1][i] * v[1] + axes[2][i] * v[2];
    [component(0), component(1), component(2)]
}

/// Why [`BladeDynamics::equilibrium`] failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "no equilibrium of the blade in the turning frame: Newton's correction {correction:e} after {iterations} iterations"
)]
pub struct EquilibriumError {
    /// Iterations made.
    pub iterations: usize,
    /// The last correction's largest entry (m or rad).
    pub correction: f64,
}

impl BladeDynamics {
    /// The exact Jacobian `d dx / d state` (dense, by forward AD) at `state` in `frame` without
    /// external loads.
    pub fn jacobian(&self, frame: &FrameMotion<f64>, state: &[f64]) -> nalgebra::DMatrix<f64> {
        self.jacobian_columns(frame, state, 0..self.n_states())
    }

    /// The columns `columns` of [`BladeDynamics::jacobian`], one forward-AD pass each.
    fn jacobian_columns(
        &self,
        frame: &FrameMotion<f64>,
        state: &[f64],
        columns: std::ops::Range<usize>,
    ) -> nalgebra::DMatrix<f64> {
        use num_dual::Dual64;
        let n = self.n_states();
        let lifted = FrameMotion {
            specific_force: lift::<Dual64>(frame.specific_force),
            omega: lift(frame.omega),
            alpha: lift(frame.alpha),
        };
        let none = vec![[Dual64::from(0.0); 3]; self.beam.n_nodes()];
        let mut work = Vec::new();
        let mut dx = vec![Dual64::from(0.0); n];
        let mut jacobian = nalgebra::DMatrix::zeros(n, columns.len());
        for (at, column) in columns.enumerate() {
            let x: Vec<Dual64> =
                state.iter().enumerate().map(|(i, &v)| Dual64::new(v, if i == column { 1.0 } else { 0.0 })).collect();
            self.derivatives(&lifted, &x, (&none, &none), &mut work, &mut dx);
            for (row, d) in dx.iter().enumerate() {
                jacobian[(row, at)] = d.eps;
            }
        }
        jacobian
    }

    /// At a state at rest (zero rates): the accelerations against the coordinates, the
    /// lower-left block of [`BladeDynamics::jacobian`], from its coordinate columns only and
    /// without the damping loads, which are linear in the rates and so contribute nothing there.
    fn rest_stiffness_block(&self, frame: &FrameMotion<f64>, state: &[f64]) -> nalgebra::DMatrix<f64> {
        let half = self.n_states() / 2;
        let undamped = Self { damping: 0.0, ..self.clone() };
        undamped.jacobian_columns(frame, state, 0..half).rows(half, half).into_owned()
    }

    /// The state at rest relative to `frame` (zero rates) where the elastic forces balance the
    /// frame's inertial loads (centrifugal stretch and bending), by Newton's method on the
    /// accelerations with the exact Jacobian, from the undeformed blade.
    pub fn equilibrium(&self, frame: &FrameMotion<f64>) -> Result<Vec<f64>, EquilibriumError> {
        const MAX_ITERATIONS: usize = 50;
        let n = self.n_states();
        let half = n / 2;
        let mut state = vec![0.0; n];
        let none = vec![[0.0; 3]; self.beam.n_nodes()];
        let (mut work, mut dx) = (Vec::new(), vec![0.0; n]);
        let mut correction = f64::INFINITY;
        for iteration in 0..MAX_ITERATIONS {
            self.derivatives(frame, &state, (&none, &none), &mut work, &mut dx);
            let block = self.rest_stiffness_block(frame, &state);
            let residual = nalgebra::DVector::from_column_slice(&dx[half..]);
            let Some(step) = block.lu().solve(&residual) else {
                return Err(EquilibriumError { iterations: iteration, correction });
            };
            correction = step.amax();
            for (value, delta) in state[..half].iter_mut().zip(step.iter()) {
                *value -= delta;
            }
            if !correction.is_finite() {
                break;
            }
            if correction < 1e-13 {
                return Ok(state);
            }
        }
        Err(EquilibriumError { iterations: MAX_ITERATIONS, correction })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beam::section::SectionProperties;

    /// A small deterministic generator (64-bit LCG, top 53 bits) of uniform numbers in `[-1, 1)`.
    struct Uniform(u64);

    impl Uniform {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// A 6-element pretwisted blade (0.5 rad/m over 1.2 m) with a random, fully coupled section
    /// stiffness (every entry non-zero: extension, shear, torsion and bending coupled, as
    /// offset tension and shear centres give and beyond), `C = D (I + A^T A / 20) D` with `D` the
    /// square roots of (EA, GA2, GA3, GJ, EI2, EI3) = (5e3 N, 2e3 N, 3e3 N, 1.5, 2, 5 N m^2) and
    /// `A` uniform in `[-1, 1)`; damping `beta` = 0.7 s.
    fn coupled_blade(random: &mut Uniform) -> BladeDynamics {
        let diagonal = [5e3_f64, 2e3, 3e3, 1.5, 2.0, 5.0].map(f64::sqrt);
        let a: [[f64; 6]; 6] = std::array::from_fn(|_| std::array::from_fn(|_| random.next()));
        let stiffness = std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let ata: f64 = (0..6).map(|k| a[k][i] * a[k][j]).sum();
                diagonal[i] * diagonal[j] * (f64::from(u8::from(i == j)) + ata / 20.0)
            })
        });
        let section = SectionProperties {
            stiffness,
            mass_per_length: 1.0,
            centre_of_mass: [0.0; 3],
            inertia_per_length: [3e-3, 1e-3, 2e-3],
        };
        let beam = Beam::straight([0.2, 0.0, 0.0], 1.2, 6, |_| section.clone(), |s| 0.5 * s);
        let mut blade = BladeDynamics::new(beam).unwrap();
        blade.damping = 0.7;
        blade
    }

    /// The equilibrium's Newton matrix (coordinate columns only, damping left out) is the
    /// lower-left block of the full AD Jacobian of the damped blade, bit for bit, at its
    /// centrifugal equilibrium and at a bent and twisted state at rest.
    #[test]
    fn rest_stiffness_block_is_the_full_jacobians_block() {
        let mut random = Uniform(77);
        let blade = coupled_blade(&mut random);
        let frame = FrameMotion { specific_force: [0.03, -0.02, -0.5], omega: [0.0, 0.0, 5.0], alpha: [0.0; 3] };
        let half = blade.n_states() / 2;
        let mut bent = vec![0.0; 2 * half];
        bent[..half].iter_mut().for_each(|v| *v = 0.3 * random.next());
        let equilibrium = blade.equilibrium(&frame).unwrap();
        for state in [equilibrium, bent] {
            let full = blade.jacobian(&frame, &state);
            let block = blade.rest_stiffness_block(&frame, &state);
            assert!(block.iter().any(|v| *v != 0.0));
            assert_eq!(block, full.view((half, 0), (half, half)).into_owned());
        }
    }

    /// Largest entry of `ours - oracle` relative to the largest entry of `oracle`.
    fn relative_difference(ours: &[Vec3<f64>], oracle: &[Vec3<f64>]) -> f64 {
        let scale = oracle.iter().flatten().fold(0.0_f64, |m, v| m.max(v.abs()));
        let difference =
            ours.iter().flatten().zip(oracle.iter().flatten()).fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
        difference / scale
    }

    /// The closed-form elastic plus damping loads (`damped_loads_closed_form`, what `f64`
    /// evaluations use) against the AD ones (the oracle: the internal loads by AD of the strain
    /// energy, the damping loads by forward AD of them along the coordinates' rates) on random
    /// bent and twisted states (node displacements up to 0.2 m, rotation vectors up to 0.7 rad
    /// per component) of random coupled blades with random rates: the total loads and the
    /// damping part alone (the closed form with `beta` minus without) within 1e-10 relative
    /// (largest entry).
    #[test]
    fn closed_form_damping_loads_match_the_ad_ones() {
        let mut random = Uniform(2929);
        let mut worst = (0.0_f64, 0.0_f64);
        for case in 0..50 {
            let mut blade = coupled_blade(&mut random);
            let half = blade.n_states() / 2;
            let state: Vec<f64> = (0..2 * half)
                .map(|i| match (i < half, i % 6 < 3) {
                    (true, true) => 0.2 * random.next(),
                    (true, false) => 0.7 * random.next(),
                    (false, _) => 3.0 * random.next(),
                })
                .collect();
            let nodes = blade.beam.n_nodes();
            let loads = |blade: &BladeDynamics| {
                let (mut forces, mut moments) = (vec![[0.0; 3]; nodes], vec![[0.0; 3]; nodes]);
                blade.damped_loads_closed_form(&state, &mut forces, &mut moments, &mut |_, _, _| {});
                [forces, moments].concat()
            };
            let total = loads(&blade);
            let (mut forces, mut moments) = (vec![[0.0; 3]; nodes], vec![[0.0; 3]; nodes]);
            blade.internal_loads_ad(&state, &mut forces, &mut moments);
            blade.add_damping_loads(&state, &mut forces, &mut moments);
            let total_ad = [forces, moments].concat();
            let (mut forces, mut moments) = (vec![[0.0; 3]; nodes], vec![[0.0; 3]; nodes]);
            blade.add_damping_loads(&state, &mut forces, &mut moments);
            let damping_ad = [forces, moments].concat();
            let beta = blade.damping;
            blade.damping = 0.0;
            let damping: Vec<Vec3<f64>> = total.iter().zip(loads(&blade)).map(|(a, b)| sub(*a, b)).collect();
            blade.damping = beta;
            let (of_total, of_damping) =
                (relative_difference(&total, &total_ad), relative_difference(&damping, &damping_ad));
            assert!(of_total <= 1e-10, "case {case}: total loads, relative difference {of_total:e}");
            assert!(of_damping <= 1e-10, "case {case}: damping loads, relative difference {of_damping:e}");
            worst = (worst.0.max(of_total), worst.1.max(of_damping));
        }
        println!(
            "closed form vs AD over 50 states, worst relative difference: total loads {:.1e}, damping loads {:.1e}",
            worst.0, worst.1
        );
    }
}
