//! Equations of motion of the tree in joint coordinates, `M(q) q'' = Q(q, q', t)`, from one
//! recursive kinematics pass over the links and the joints' screw axes.
//!
//! Notation (all vectors in the airframe body axes at the attachment point P; the airframe axes
//! rotate with the hub inputs `w` (angular velocity) and `alpha` (angular acceleration); P has the
//! specific force `acc = a_P - g`):
//!
//! * `theta` are all joint angles: free coordinates `q` and prescribed ones (driven, locked).
//! * **Kinematics pass** (links in topological order, relative to the airframe axes): link `j`
//!   with parent `p`, joint axis `a_j` (unit, airframe axes) and `r_j = p_j - p_p` has
//!   `w_j = w_p + a_j theta'_j`, `p'_j = p'_p + w_p x r_j`,
//!   `w'_j = w'_p + w_p x a_j theta'_j + a_j theta''_j` and
//!   `p''_j = p''_p + w'_p x r_j + w_p x (w_p x r_j)`, with `theta''` the prescribed
//!   accelerations and zero for `q` (the *bias*: everything except the `q''` terms). A body at
//!   `d = c_b - p_j` has `c'_b = p'_j + w_j x d` and `c''_b = p''_j + w'_j x d + w_j x (w_j x d)`.
//! * **Jacobian columns** (the screw axis of the joint of coordinate `k` at link `j`, for the
//!   bodies of its subtree): `J_v[k] = a_j x (c_b - p_j)`, `J_w[k] = a_j`.
//! * Inertial accelerations: `a_b - g = acc + alpha x c + w x (w x c) + 2 w x c' + c''_bias + J_v q''`,
//!   angular velocity `w_b = w + w_rel`, angular acceleration `alpha_b = alpha + w x w_rel +
//!   w_rel'_bias + J_w q''`.
//! * Kane / virtual work: `sum_b J_v^T (F_b - m (a_b - g)) + J_w^T (M_b - I_b alpha_b - w_b x I_b w_b)
//!   + Q_joint = 0`, i.e. `M q'' = Q` with `M = sum_b J_v^T m J_v + J_w^T I_b J_w` and
//!   `Q = Q_joint + sum_b J_v^T f_b + J_w^T m_b`, where `f_b`, `m_b` are the applied minus the
//!   bias inertial loads (everything except the `q''` terms). `I_b = R_b I R_b^T`.
//!
//! Centrifugal stiffening, Coriolis coupling and gyroscopic moments are all in `c''_bias`,
//! `w_rel'_bias`, the hub-motion terms and `w_b x I_b w_b`; nothing is linearised. Everything is
//! generic over the scalar type, so a `Dual64` evaluation differentiates the whole evaluation
//! (kinematics, `M q'' = Q` solve, loads) exactly for the directional derivatives; `f64`
//! evaluations pay for no derivative parts.
//!
//! All working data lives in a [`Work`] of fixed-size arrays (no allocation per evaluation).

use fmu_core::model::Scalar;

use crate::la::{
    M3, Singular, V3, add, congruence_f, cross, dot, lu_factor_block, lu_solve_factored_block, mat_vec, mat_vec_f,
    scale, scale_f, sub, zero, zero3, zero33,
};
use crate::tree::{Drive, Frame, Joint, MAX_BODIES, MAX_COLUMNS, MAX_DOF, MAX_LINKS, Tree};

/// Motion of the attachment point P (inputs), airframe body axes.
#[derive(Debug, Clone, Copy)]
pub struct HubMotion<D> {
    /// Inertial velocity of P, m/s.
    pub vel: V3<D>,
    /// Angular velocity of the airframe, rad/s.
    pub omega: V3<D>,
    /// Specific force at P, `a_P - g`, m/s^2.
    pub acc: V3<D>,
    /// Angular acceleration of the airframe, rad/s^2.
    pub alpha: V3<D>,
}

/// Working buffers of one evaluation (Pinocchio's `Data`): fixed-size, reused, never allocated
/// during an evaluation. Link and body kinematics are relative to the airframe axes.
#[derive(Debug, Clone)]
pub struct Work<D: Scalar> {
    /// Joint angle of each link, rad.
    pub angle: [D; MAX_LINKS],
    /// Joint rate of each link, rad/s.
    pub rate: [D; MAX_LINKS],
    /// Prescribed joint acceleration of each link (zero for free joints), rad/s^2.
    accel: [D; MAX_LINKS],
    /// Orientation of each link (link axes to airframe axes).
    pub rot: [M3<D>; MAX_LINKS],
    /// Origin of each link relative to P, airframe axes, m.
    pub pos: [V3<D>; MAX_LINKS],
    /// Rate of the airframe-axis components of [`Work::pos`], m/s.
    pub vel: [V3<D>; MAX_LINKS],
    /// Second rate of [`Work::pos`] without the `q''` part, m/s^2.
    acc_bias: [V3<D>; MAX_LINKS],
    /// Unit joint axis of each link (positive angle right-handed about it), airframe axes.
    axis: [V3<D>; MAX_LINKS],
    /// Angular velocity of each link relative to the airframe, airframe axes, rad/s.
    omega: [V3<D>; MAX_LINKS],
    /// Its rate without the `q''` part, rad/s^2.
    omega_rate_bias: [V3<D>; MAX_LINKS],
    /// CoM of each body relative to P, airframe axes, m.
    pub c: [V3<D>; MAX_BODIES],
    /// Rate of the airframe-axis components of the CoM position, m/s.
    pub cd: [V3<D>; MAX_BODIES],
    /// Second rate of the CoM position without the `J_v q''` part, m/s^2.
    cdd_bias: [V3<D>; MAX_BODIES],
    /// Angular velocity of each body relative to the airframe, airframe axes, rad/s.
    pub w_rel: [V3<D>; MAX_BODIES],
    /// Relative angular acceleration without the `J_w q''` part, rad/s^2.
    wd_rel_bias: [V3<D>; MAX_BODIES],
    /// Inertia tensor of each body about its CoM, airframe axes, kg m^2.
    pub inertia: [M3<D>; MAX_BODIES],
    /// Applied force minus `m (a_b - g)` (without the `q''` terms until the loads are
    /// completed in [`Mode::Loads`], then full), N.
    pub f: [V3<D>; MAX_BODIES],
    /// Applied couple about the CoM minus `I alpha_b + w_b x I w_b` (as `f`), N m.
    pub m: [V3<D>; MAX_BODIES],
    /// `J_v` by column and body.
    jv: [[V3<D>; MAX_BODIES]; MAX_COLUMNS],
    /// `J_w` by column and body.
    jw: [[V3<D>; MAX_BODIES]; MAX_COLUMNS],
    /// Mass matrix (overwritten by its LU factors, with `pivots`).
    mass: [[D; MAX_DOF]; MAX_DOF],
    pivots: [usize; MAX_DOF],
    /// Kinematics cache (values only): the joint angles, rates and prescribed accelerations of
    /// the evaluation whose kinematics, first `kin_columns` Jacobian columns and mass-matrix
    /// factors are in the buffers (`kin_columns == 0`: none). An evaluation at the same joint
    /// values (only the hub accelerations or the applied loads changed, as in the iterations of
    /// an algebraic loop) reuses them and gives the same result bit for bit.
    kin_angle: [D; MAX_LINKS],
    kin_rate: [D; MAX_LINKS],
    kin_accel: [D; MAX_LINKS],
    kin_columns: usize,
    /// Generalized accelerations `q''` (the right-hand side before the solve).
    pub qdd: [D; MAX_DOF],
}

impl<D: Scalar> Default for Work<D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: Scalar> Work<D> {
    /// Zeroed buffers.
    pub fn new() -> Self {
        let z = zero::<D>();
        Work {
            angle: [z; MAX_LINKS],
            rate: [z; MAX_LINKS],
            accel: [z; MAX_LINKS],
            rot: [zero33(); MAX_LINKS],
            pos: [zero3(); MAX_LINKS],
            vel: [zero3(); MAX_LINKS],
            acc_bias: [zero3(); MAX_LINKS],
            axis: [zero3(); MAX_LINKS],
            omega: [zero3(); MAX_LINKS],
            omega_rate_bias: [zero3(); MAX_LINKS],
            c: [zero3(); MAX_BODIES],
            cd: [zero3(); MAX_BODIES],
            cdd_bias: [zero3(); MAX_BODIES],
            w_rel: [zero3(); MAX_BODIES],
            wd_rel_bias: [zero3(); MAX_BODIES],
            inertia: [zero33(); MAX_BODIES],
            f: [zero3(); MAX_BODIES],
            m: [zero3(); MAX_BODIES],
            jv: [[zero3(); MAX_BODIES]; MAX_COLUMNS],
            jw: [[zero3(); MAX_BODIES]; MAX_COLUMNS],
            mass: [[z; MAX_DOF]; MAX_DOF],
            pivots: [0; MAX_DOF],
            kin_angle: [z; MAX_LINKS],
            kin_rate: [z; MAX_LINKS],
            kin_accel: [z; MAX_LINKS],
            kin_columns: 0,
            qdd: [z; MAX_DOF],
        }
    }
}

#[inline]
fn v3<D: Scalar>(u: &[D], i: usize) -> V3<D> {
    [u[i], u[i + 1], u[i + 2]]
}

/// What an evaluation should compute beyond `q''`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Only `q''` (the state derivative).
    Accelerations,
    /// Also the full body loads ([`Work::f`], [`Work::m`]) and the reported driven-joint
    /// Jacobian columns, for the hub loads and joint torques.
    Loads,
}

impl Tree {
    /// Evaluates the equations of motion at time `t`, state `x = [q, q']`, inputs `u` and hub
    /// motion `hub`: leaves `q''` in [`Work::qdd`] (and, with [`Mode::Loads`], the full body
    /// loads in [`Work::f`] and [`Work::m`]).
    pub fn evaluate<D: Scalar>(
        &self,
        w: &mut Work<D>,
        t: D,
        x: &[D],
        u: &[D],
        hub: &HubMotion<D>,
        mode: Mode,
    ) -> Result<(), Singular> {
        self.joint_values(w, t, x, u);
        let n_columns = if mode == Mode::Loads { self.columns.len() } else { self.n_dof() };
        let cached = self.kinematics_cached(w, n_columns);
        if !cached {
            w.kin_columns = 0;
            self.kinematics(w);
            self.jacobian_columns(w, n_columns);
        }
        self.body_loads(w, u, hub);
        self.joint_forces(w, u);
        self.solve(w, cached)?;
        if !cached && D::NDERIV == 0 {
            let n = self.links.len();
            w.kin_angle[..n].copy_from_slice(&w.angle[..n]);
            w.kin_rate[..n].copy_from_slice(&w.rate[..n]);
            w.kin_accel[..n].copy_from_slice(&w.accel[..n]);
            w.kin_columns = n_columns.max(1);
        }
        if mode == Mode::Loads {
            self.complete(w);
        }
        Ok(())
    }

    /// Whether the buffers hold the kinematics (at least `n_columns` Jacobian columns) and
    /// mass-matrix factors of the joint values now in `w`, bit for bit (values only: derivative
    /// evaluations always recompute).
    fn kinematics_cached<D: Scalar>(&self, w: &Work<D>, n_columns: usize) -> bool {
        let n = self.links.len();
        let same = |a: &[D], b: &[D]| a[..n].iter().zip(&b[..n]).all(|(a, b)| a.re().to_bits() == b.re().to_bits());
        D::NDERIV == 0
            && w.kin_columns >= n_columns.max(1)
            && same(&w.angle, &w.kin_angle)
            && same(&w.rate, &w.kin_rate)
            && same(&w.accel, &w.kin_accel)
    }

    /// Joint angles, rates and prescribed accelerations of all links.
    fn joint_values<D: Scalar>(&self, w: &mut Work<D>, t: D, x: &[D], u: &[D]) {
        for j in 0..self.links.len() {
            let (a, r, acc) = self.joint_value(j, t, x, Some(u)).expect("inputs given");
            w.angle[j] = a;
            w.rate[j] = r;
            w.accel[j] = acc;
        }
    }

    /// Angle, rate and prescribed acceleration of link `j`'s joint at time `t`, state
    /// `x = [q, q']` and inputs `u`; `None` for a joint driven by the inputs when `u` is `None`.
    /// Every evaluation takes its joint values from here, so those that do not depend on the
    /// inputs come out bit for bit the same with and without them.
    pub fn joint_value<D: Scalar>(&self, j: usize, t: D, x: &[D], u: Option<&[D]>) -> Option<(D, D, D)> {
        Some(match self.links[j].joint {
            Joint::Free { .. } => {
                let k = self.dof_of_link[j].expect("free links have a coordinate");
                (x[k], x[self.n_dof() + k], zero())
            }
            Joint::Driven(Drive::Clock { angle0, rate }) => (t * rate + angle0, D::from(rate), zero()),
            Joint::Driven(Drive::Inputs { angle, rate, acc }) => {
                let u = u?;
                (u[angle], u[rate], u[acc])
            }
            Joint::Locked(a) => (D::from(a), zero(), zero()),
        })
    }

    /// Forward kinematics with first and second rates (without `q''`), one recursive pass over
    /// the links, then the bodies' CoM kinematics and inertia tensors (see the module notes).
    fn kinematics<D: Scalar>(&self, w: &mut Work<D>) {
        for (j, link) in self.links.iter().enumerate() {
            let (parent, omega_p, vel_p, omega_rate_p, acc_p) = match link.parent {
                Some(p) => {
                    (Frame { rot: w.rot[p], pos: w.pos[p] }, w.omega[p], w.vel[p], w.omega_rate_bias[p], w.acc_bias[p])
                }
                None => (Frame::root(), zero3(), zero3(), zero3(), zero3()),
            };
            let sign = link.axis.sign;
            let (s, c) = (w.angle[j] * sign).sin_cos();
            let frame = link.frame(&parent, s, c);
            let i = link.axis.index;
            let axis = scale_f([frame.rot[0][i], frame.rot[1][i], frame.rot[2][i]], sign);
            let axis_rate = scale(axis, w.rate[j]);
            w.omega[j] = add(omega_p, axis_rate);
            w.omega_rate_bias[j] = add(add(omega_rate_p, cross(omega_p, axis_rate)), scale(axis, w.accel[j]));
            if link.offset == [0.0; 3] {
                w.vel[j] = vel_p;
                w.acc_bias[j] = acc_p;
            } else {
                let r = sub(frame.pos, parent.pos);
                w.vel[j] = add(vel_p, cross(omega_p, r));
                w.acc_bias[j] = add(add(acc_p, cross(omega_rate_p, r)), cross(omega_p, cross(omega_p, r)));
            }
            w.axis[j] = axis;
            w.rot[j] = frame.rot;
            w.pos[j] = frame.pos;
        }
        for (b, &j) in self.body_link.iter().enumerate() {
            let body = self.body(b);
            let (omega, omega_rate) = (w.omega[j], w.omega_rate_bias[j]);
            let d = mat_vec_f(&w.rot[j], body.com);
            let omega_d = cross(omega, d);
            w.c[b] = add(w.pos[j], d);
            w.cd[b] = add(w.vel[j], omega_d);
            w.cdd_bias[b] = add(add(w.acc_bias[j], cross(omega_rate, d)), cross(omega, omega_d));
            w.w_rel[b] = omega;
            w.wd_rel_bias[b] = omega_rate;
            w.inertia[b] = congruence_f(&w.rot[j], &body.inertia);
        }
    }

    /// The first `n_columns` Jacobian columns from the joints' screw axes, for the bodies of
    /// each joint's subtree: `J_v = a x (c_b - p_j)`, `J_w = a`.
    fn jacobian_columns<D: Scalar>(&self, w: &mut Work<D>, n_columns: usize) {
        for (k, col) in self.columns[..n_columns].iter().enumerate() {
            let (axis, origin) = (w.axis[col.link], w.pos[col.link]);
            for b in col.bodies.0..col.bodies.1 {
                w.jv[k][b] = cross(axis, sub(w.c[b], origin));
                w.jw[k][b] = axis;
            }
        }
    }

    /// The applied-minus-bias-inertial loads of each body, from its kinematics, the hub motion
    /// and the applied loads in `u`.
    fn body_loads<D: Scalar>(&self, w: &mut Work<D>, u: &[D], hub: &HubMotion<D>) {
        let HubMotion { omega, acc, alpha, .. } = *hub;
        for (b, &j) in self.body_link.iter().enumerate() {
            let body = self.body(b);
            let (c, cd, cdd, w_rel, wd_rel) = (w.c[b], w.cd[b], w.cdd_bias[b], w.w_rel[b], w.wd_rel_bias[b]);
            let inertia = &w.inertia[b];
            // Applied loads at the link origin, link axes -> airframe axes, about the CoM.
            let (mut force, mut couple) = (zero3::<D>(), zero3::<D>());
            if let Some(li) = body.load_input {
                let r = &w.rot[j];
                force = mat_vec(r, v3(u, li));
                couple = add(mat_vec(r, v3(u, li + 3)), cross(sub(w.pos[j], c), force));
            }
            // Specific-force acceleration of the CoM without the q'' part.
            let a = add(
                add(add(acc, cross(alpha, c)), cross(omega, cross(omega, c))),
                add(scale_f(cross(omega, cd), 2.0), cdd),
            );
            let w_b = add(omega, w_rel);
            let wd = add(add(alpha, cross(omega, w_rel)), wd_rel);
            w.f[b] = sub(force, scale_f(a, body.mass));
            w.m[b] = sub(sub(couple, mat_vec(inertia, wd)), cross(w_b, mat_vec(inertia, w_b)));
        }
    }

    /// Generalized force of the joint elements of link `j` about its axis: spring and damper,
    /// plus the applied joint torque when the inputs `u` are given.
    fn joint_force<D: Scalar>(&self, w: &Work<D>, j: usize, u: Option<&[D]>) -> D {
        let link = &self.links[j];
        let mut q = -(w.angle[j] * link.stiffness + w.rate[j] * link.damping);
        if let (Some(i), Some(u)) = (link.torque_input, u) {
            q += u[i];
        }
        q
    }

    /// Completes `Q` (joint part already in `qdd`, see [`Tree::joint_forces`]) with the body
    /// loads, assembles `M` block by block and solves `M q'' = Q` in place; with `factored`, `M`
    /// is already factorised (same kinematics as the last evaluation).
    fn solve<D: Scalar>(&self, w: &mut Work<D>, factored: bool) -> Result<(), Singular> {
        let n = self.n_dof();
        for k in 0..n {
            let col = self.columns[k];
            let mut q = w.qdd[k];
            for b in col.bodies.0..col.bodies.1 {
                q += dot(w.jv[k][b], w.f[b]) + dot(w.jw[k][b], w.m[b]);
            }
            w.qdd[k] = q;
        }
        let full = [(0, n)];
        let blocks: &[(usize, usize)] = if self.dense_solve { &full } else { &self.blocks };
        for &(o, len) in blocks {
            if factored {
                lu_solve_factored_block(&w.mass, &w.pivots, &mut w.qdd, o, len);
                continue;
            }
            for k in o..o + len {
                let ck = self.columns[k].bodies;
                for l in k..o + len {
                    let cl = self.columns[l].bodies;
                    let mut mkl = zero::<D>();
                    for b in ck.0.max(cl.0)..ck.1.min(cl.1) {
                        let mass = self.body(b).mass;
                        mkl += dot(w.jv[k][b], w.jv[l][b]) * mass + dot(w.jw[k][b], mat_vec(&w.inertia[b], w.jw[l][b]));
                    }
                    w.mass[k][l] = mkl;
                    w.mass[l][k] = mkl;
                }
            }
            lu_factor_block(&mut w.mass, &mut w.pivots, o, len)?;
            lu_solve_factored_block(&w.mass, &w.pivots, &mut w.qdd, o, len);
        }
        Ok(())
    }

    /// Adds the `q''` terms to the body loads: `f -= m J_v q''`, `m -= I J_w q''`.
    fn complete<D: Scalar>(&self, w: &mut Work<D>) {
        for b in 0..self.n_bodies() {
            let (mut a, mut alpha) = (zero3::<D>(), zero3::<D>());
            for k in 0..self.n_dof() {
                let col = self.columns[k].bodies;
                if (col.0..col.1).contains(&b) {
                    a = add(a, scale(w.jv[k][b], w.qdd[k]));
                    alpha = add(alpha, scale(w.jw[k][b], w.qdd[k]));
                }
            }
            w.f[b] = sub(w.f[b], scale_f(a, self.body(b).mass));
            w.m[b] = sub(w.m[b], mat_vec(&w.inertia[b], alpha));
        }
    }

    /// Hub loads on the airframe at P after [`Mode::Loads`]: force and moment about P, airframe
    /// axes. The momentum balance of all bodies: `F = sum (F_b - m (a_b - g))`,
    /// `M = sum (c_b x (F_b - m (a_b - g)) + M_b - I alpha_b - w_b x I w_b)`.
    pub fn hub_loads<D: Scalar>(&self, w: &Work<D>) -> (V3<D>, V3<D>) {
        let (mut f, mut m) = (zero3::<D>(), zero3::<D>());
        for b in 0..self.n_bodies() {
            f = add(f, w.f[b]);
            m = add(m, add(cross(w.c[b], w.f[b]), w.m[b]));
        }
        (f, m)
    }

    /// Torque the drive of a driven joint (Jacobian column `k`, see [`crate::tree::Column`])
    /// must apply about its axis, after [`Mode::Loads`]: `-sum J^T (load) - Q_passive`.
    pub fn driven_torque<D: Scalar>(&self, w: &Work<D>, k: usize) -> D {
        let col = self.columns[k];
        let mut tau = -self.joint_force(w, col.link, None);
        for b in col.bodies.0..col.bodies.1 {
            tau -= dot(w.jv[k][b], w.f[b]) + dot(w.jw[k][b], w.m[b]);
        }
        tau
    }

    /// Kinetic energy of all bodies relative to the inertial frame, J.
    pub fn kinetic_energy<D: Scalar>(&self, w: &Work<D>, hub: &HubMotion<D>) -> D {
        let mut e = zero::<D>();
        for b in 0..self.n_bodies() {
            let v = add(add(hub.vel, cross(hub.omega, w.c[b])), w.cd[b]);
            let wb = add(hub.omega, w.w_rel[b]);
            e += dot(v, v) * (0.5 * self.body(b).mass) + dot(wb, mat_vec(&w.inertia[b], wb)) * 0.5;
        }
        e
    }

    /// Potential energy: joint springs plus gravity in the hub frame, `sum m acc . c_b`, J.
    pub fn potential_energy<D: Scalar>(&self, w: &Work<D>, hub: &HubMotion<D>) -> D {
        let mut e = zero::<D>();
        for b in 0..self.n_bodies() {
            e += dot(hub.acc, w.c[b]) * self.body(b).mass;
        }
        for (j, link) in self.links.iter().enumerate() {
            if link.stiffness != 0.0 {
                e += w.angle[j] * w.angle[j] * (0.5 * link.stiffness);
            }
        }
        e
    }

    /// Writes the right-hand side's joint part (springs, dampers, applied joint torques) into
    /// `qdd`, before [`Tree::solve`] adds the body loads.
    fn joint_forces<D: Scalar>(&self, w: &mut Work<D>, u: &[D]) {
        for k in 0..self.n_dof() {
            w.qdd[k] = self.joint_force(w, self.dof_link[k], Some(u));
        }
    }

    /// The mass matrix `M(q) = sum_b J_v^T m J_v + J_w^T I_b J_w` (row-major, `n_dof x n_dof`,
    /// all entries, ignoring the block structure) at time `t`, state `x` and inputs `u`. For
    /// tests and diagnostics; allocates.
    pub fn mass_matrix(&self, t: f64, x: &[f64], u: &[f64]) -> Vec<Vec<f64>> {
        let mut w = Box::new(Work::<f64>::new());
        self.joint_values(&mut w, t, x, u);
        self.kinematics(&mut w);
        let n = self.n_dof();
        self.jacobian_columns(&mut w, n);
        let mut m = vec![vec![0.0; n]; n];
        for (k, row) in m.iter_mut().enumerate() {
            let ck = self.columns[k].bodies;
            for (l, e) in row.iter_mut().enumerate() {
                let cl = self.columns[l].bodies;
                for b in ck.0.max(cl.0)..ck.1.min(cl.1) {
                    *e += dot(w.jv[k][b], w.jv[l][b]) * self.body(b).mass
                        + dot(w.jw[k][b], mat_vec(&w.inertia[b], w.jw[l][b]));
                }
            }
        }
        m
    }
}

#[cfg(test)]
mod tests;
