//! The two-node Simo-Reissner element with the Crisfield-Jelenic interpolation of rotations.
//!
//! Each node carries a position `x_i` and a rotation `R_i`. The element's reference rotation is
//! the mid rotation `R_r = R_1 exp(phi / 2)` with `phi = log(R_1^T R_2)`; the local rotations
//! `log(R_r^T R_i) = -+phi / 2` are interpolated linearly, so at the single (reduced) Gauss point,
//! the element's middle, the section rotation is `R_r` and the material strains are
//! `Gamma = R_r^T (x_2 - x_1) / L - Gamma_0` and `K = phi / L - K_0`. Both depend on the nodal
//! rotations only through `R_1^T R_2` and `R_r^T`: a rigid rotation of the element changes
//! neither (objectivity), and one-point integration of the linear interpolation removes shear
//! locking.
//!
//! The generalised coordinates of an element are increments about the current configuration:
//! `x_i + du_i` and `exp(dpsi_i) R_i` (spatial rotation vector `dpsi_i`), in the order
//! `[du_1, dpsi_1, du_2, dpsi_2]`; their rates are `[du_1', dpsi_1', du_2', dpsi_2']`.

use super::rotation::{
    BeamScalar, Quat, Vec3, add, cross, dot, lift, lift_quat, quat_conj, quat_exp, quat_log, quat_mul, quat_sqrt,
    rotate, rotate_back, scale, sub,
};
use super::section::SectionProperties;

/// Abscissa of the two-point Gauss rule on `[-1, 1]` (used for the kinetic energy).
const GAUSS_2: f64 = 0.577_350_269_189_625_8;

/// One element: its undeformed length, initial strains and section.
#[derive(Clone, Debug)]
pub struct Element {
    /// Undeformed length (m).
    pub length: f64,
    /// Strains of the undeformed element (`Gamma_0`, normally `(1, 0, 0)`).
    pub initial_stretch: [f64; 3],
    /// Curvatures of the undeformed element (`K_0`, rad/m: pretwist rate in `K_0[0]`).
    pub initial_curvature: [f64; 3],
    /// Section properties at the element's middle.
    pub section: SectionProperties,
}

/// The current configuration of an element's two nodes (frame coordinates).
#[derive(Clone, Copy, Debug)]
pub struct ElementNodes {
    /// Node positions (m).
    pub positions: [Vec3<f64>; 2],
    /// Node rotations (material to frame).
    pub rotations: [Quat<f64>; 2],
}

/// The nodes moved by the increments `dq = [du_1, dpsi_1, du_2, dpsi_2]`.
fn moved<S: BeamScalar>(nodes: &ElementNodes, dq: &[S; 12]) -> ([Vec3<S>; 2], [Quat<S>; 2]) {
    let mut x = [lift::<S>(nodes.positions[0]), lift(nodes.positions[1])];
    let mut q = [lift_quat::<S>(nodes.rotations[0]), lift_quat(nodes.rotations[1])];
    for i in 0..2 {
        let du = [dq[6 * i], dq[6 * i + 1], dq[6 * i + 2]];
        let dpsi = [dq[6 * i + 3], dq[6 * i + 4], dq[6 * i + 5]];
        x[i] = add(x[i], du);
        q[i] = quat_mul(quat_exp(dpsi), q[i]);
    }
    (x, q)
}

/// The relative rotation vector `phi` (material axes of node 1 and of the mid section) and the
/// reference (mid) rotation `R_r`.
fn relative_and_mid<S: BeamScalar>(q: &[Quat<S>; 2]) -> (Vec3<S>, Quat<S>) {
    let relative = quat_mul(quat_conj(q[0]), q[1]);
    let phi = quat_log(relative);
    let mid = quat_mul(q[0], quat_sqrt(relative));
    (phi, mid)
}

impl Element {
    /// The material strains `[Gamma, K]` at the element's middle for the increments `dq`.
    pub fn strains<S: BeamScalar>(&self, nodes: &ElementNodes, dq: &[S; 12]) -> [S; 6] {
        let (x, q) = moved(nodes, dq);
        let (phi, mid) = relative_and_mid(&q);
        let inv_length = S::from(1.0 / self.length);
        let gamma = sub(scale(rotate_back(mid, sub(x[1], x[0])), inv_length), lift(self.initial_stretch));
        let kappa = sub(scale(phi, inv_length), lift(self.initial_curvature));
        [gamma[0], gamma[1], gamma[2], kappa[0], kappa[1], kappa[2]]
    }

    /// Strain energy (J) for the increments `dq`: `L/2 e^T C e` at the middle.
    pub fn strain_energy<S: BeamScalar>(&self, nodes: &ElementNodes, dq: &[S; 12]) -> S {
        let e = self.strains(nodes, dq);
        let c = &self.section.stiffness;
        let mut energy = S::from(0.0);
        for i in 0..6 {
            for j in 0..6 {
                if c[i][j] != 0.0 {
                    energy += e[i] * e[j] * c[i][j];
                }
            }
        }
        energy * (0.5 * self.length)
    }

    /// Kinetic energy (J) in the inertial frame of the element moving in a frame that turns at
    /// `frame_rate` (rad/s, frame axes, about the frame origin), for the increments `dq` and
    /// their rates `dq_rate` (relative to the frame). Two-point Gauss rule over the velocities of
    /// [`Element::gauss_point_velocities`]: `L/4 sum (m v.v + omega^T I omega)`.
    pub fn kinetic_energy<S: BeamScalar>(
        &self,
        nodes: &ElementNodes,
        dq: &[S; 12],
        dq_rate: &[S; 12],
        frame_rate: Vec3<f64>,
    ) -> S {
        let section = &self.section;
        let inertia = section.inertia_per_length;
        let mut energy = S::from(0.0);
        for (velocity, omega_abs) in self.gauss_point_velocities(nodes, dq, dq_rate, frame_rate) {
            let rotational = (0..3).map(|k| omega_abs[k] * omega_abs[k] * inertia[k]).fold(S::from(0.0), |a, b| a + b);
            energy += dot(velocity, velocity) * section.mass_per_length + rotational;
        }
        energy * (0.25 * self.length)
    }

    /// At the two Gauss points (abscissae `-+1/sqrt(3)`): the inertial velocity of the section's
    /// centre of mass (m/s, frame axes) and the inertial angular velocity (rad/s, section
    /// material axes), for the increments `dq` and their rates `dq_rate` (relative to the frame
    /// turning at `frame_rate`). Section rotation interpolated as in the strains; spatial
    /// angular velocities `(I + dpsi~ / 2) dpsi'` of the nodes interpolated linearly (exact to
    /// first order in `dpsi`, as the linearisation needs). Affine in `dq_rate`.
    pub fn gauss_point_velocities<S: BeamScalar>(
        &self,
        nodes: &ElementNodes,
        dq: &[S; 12],
        dq_rate: &[S; 12],
        frame_rate: Vec3<f64>,
    ) -> [(Vec3<S>, Vec3<S>); 2] {
        let (x, q) = moved(nodes, dq);
        let (phi, mid) = relative_and_mid(&q);
        let frame_rate = lift::<S>(frame_rate);
        let node_velocity = |i: usize| [dq_rate[6 * i], dq_rate[6 * i + 1], dq_rate[6 * i + 2]];
        let node_omega = |i: usize| {
            let psi = [dq[6 * i + 3], dq[6 * i + 4], dq[6 * i + 5]];
            let rate = [dq_rate[6 * i + 3], dq_rate[6 * i + 4], dq_rate[6 * i + 5]];
            add(rate, scale(cross(psi, rate), S::from(0.5)))
        };
        let section = &self.section;
        [-GAUSS_2, GAUSS_2].map(|xi| {
            let (n1, n2) = (S::from(0.5 * (1.0 - xi)), S::from(0.5 * (1.0 + xi)));
            let rotation = quat_mul(mid, quat_exp(scale(phi, S::from(0.5 * xi))));
            let position = add(scale(x[0], n1), scale(x[1], n2));
            let omega = add(scale(node_omega(0), n1), scale(node_omega(1), n2));
            let cg_arm = rotate(rotation, lift(section.centre_of_mass));
            let velocity = add(
                add(scale(node_velocity(0), n1), scale(node_velocity(1), n2)),
                add(cross(omega, cg_arm), cross(frame_rate, add(position, cg_arm))),
            );
            (velocity, rotate_back(rotation, add(omega, frame_rate)))
        })
    }
}
