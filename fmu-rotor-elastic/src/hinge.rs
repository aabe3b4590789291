//! The articulated hub of RotorElastic (`hub_type = 1`): per blade a lag hinge and a flap hinge
//! at the offset `e` on the shaft (coincident, lag inboard of flap as in the Rotor FMU), the
//! pitch bearing outboard of them, and the beam clamped in the pitch frame at the blade table's
//! first radius (which must be `>= e`; a massless rigid arm joins the hinge and the clamp).
//!
//! **Kinematics** (body axes; `S = A Rz(psi_k)` the shaft frame of blade `k`, turning at
//! `W_S = w_b + Omega z_H`, `A_S = a_b + w_b x Omega z_H`): lag `zeta` about `n_lag = -z_S`,
//! `R_L = S Rz(-zeta)`; flap `beta` about `n_flap = -y_L`, `R_B = R_L Ry(-beta)`; pitch `theta`
//! about `x_B`, `R_P = R_B Rx(theta)`. Each joint adds its axis times its rate to the angular
//! velocity and `axis q'' + W_parent x axis q'` to the angular acceleration, so the pitch
//! frame's angular acceleration is `A_P = A_0 + n_lag zeta'' + n_flap beta''` with `A_0` known
//! from the state. The frame's origin is the hinge point `H = P + e x_S` with specific force
//! `a_P + A_S x (e x_S) + W_S x (W_S x e x_S)`.
//!
//! **Hinge equations.** The beam's lumped mass makes the load its clamp puts on the frame
//! ([`ClampLoad`], about `H`) affine in `A_P`: only the root node (lumped mass `m_0` at `r_0`,
//! spatial inertia `J_0`) rides on the hinge body, the free nodes act through the elastic
//! element forces, which depend on the state alone. The hinge body is therefore the beam's root
//! node (no separate cuff mass or inertia parameter: the table's first element already puts half
//! its mass there, and the rigid limit then sums exactly the lumped blade the beam integrates).
//! With the hinge bodies otherwise massless, the moments about the hinge axes balance:
//! `n_i . M_clamp(A_P) + Q_i = 0`, `Q_lag = -k_lag zeta - c_lag f_k zeta'`,
//! `Q_flap = -k_flap beta`, and `M_clamp(A_P) = M_0 - H_0 (n_lag zeta'' + n_flap beta'')` with
//! `H_0 v = m_0 r_0 x (v x r_0) + J_0 v` (the root node's inertia about `H`), so
//!
//! ```text
//! [n_i . H_0 n_j] [zeta'', beta'']^T = [n_i . M_0 + Q_i]
//! ```
//!
//! a 2 x 2 solve per blade. The beam's own accelerations, computed with `A_0`, are then
//! corrected by the extra angular acceleration `dA = n_lag zeta'' + n_flap beta''`:
//! `v_k' -= dA x r_k`, `w_k' -= dA`, and the clamp load by `-m_0 dA x r_0` and `-H_0 dA`.
//! The hub receives the corrected clamp load (the hinge bodies are massless) about `H`.

use fmu_core::Scalar;
use fmu_core::vec3::{M3, M3f, V3, add, const_mat_vec, cross, dot, lift3, mat_t_vec, mat_vec, scale, scale_f, sub};
use fmu_rotor::beam::blade_dynamics::{BladeDynamics, ClampLoad, PER_NODE};
use fmu_rotor::beam::rotation::{rotate, rotate_back};

use fmu_core::params::{ParameterError, Reader};

use crate::kinematics::{HubInputs, PitchFrame, column, mat_mul};
use crate::layout::{MAX_BLADES, vr};

/// States per blade of the articulated hub: lag, flap (rad), lag rate, flap rate (rad/s).
pub const PER_BLADE: usize = 4;

/// The hinges of the articulated hub (the same for every blade but the lag damper factor).
#[derive(Clone, Debug)]
pub struct Hinges {
    /// Hinge offset from the shaft axis, m.
    pub offset: f64,
    /// Lag spring, N m/rad.
    pub k_lag: f64,
    /// Lag damper of each blade (`c_lag` times the blade's factor), N m s/rad.
    pub c_lag: [f64; MAX_BLADES],
    /// Flap spring, N m/rad.
    pub k_flap: f64,
    /// Per blade: its root node, which rides on the hinge body.
    roots: Vec<RootNode>,
}

/// A beam's root node (clamped in the pitch frame).
#[derive(Clone, Debug)]
struct RootNode {
    /// Lumped mass, kg.
    mass: f64,
    /// Position from the hinge point, pitch-frame axes, m.
    position: [f64; 3],
    /// Spatial inertia about itself, pitch-frame axes, kg m^2.
    inertia: M3f,
}

impl RootNode {
    /// The root node of `blade`.
    fn of(blade: &BladeDynamics) -> Self {
        let rotation0 = blade.beam.undeformed.rotations[0];
        let j = blade.node_inertia[0];
        let column_of = |k: usize| {
            let unit: [f64; 3] = std::array::from_fn(|i| if i == k { 1.0 } else { 0.0 });
            let material = rotate_back(rotation0, unit);
            rotate(rotation0, [material[0] * j[0], material[1] * j[1], material[2] * j[2]])
        };
        let columns = [column_of(0), column_of(1), column_of(2)];
        Self {
            mass: blade.node_mass[0],
            position: blade.beam.undeformed.positions[0],
            inertia: std::array::from_fn(|r| std::array::from_fn(|c| columns[c][r])),
        }
    }

    /// `H_0 v`: the node's inertia about the hinge point applied to `v` (pitch-frame axes).
    fn inertia_about_hinge<D: Scalar>(&self, v: V3<D>) -> V3<D> {
        let r: V3<D> = lift3(self.position);
        add(scale_f(cross(r, cross(v, r)), self.mass), const_mat_vec(&self.inertia, v))
    }
}

/// What the hinge equations of one blade need beyond its pitch frame.
pub struct HingedFrame<D> {
    /// The hinge point from P, body axes, m.
    pub origin: V3<D>,
    /// Specific force of the hinge point, body axes, m/s^2.
    pub specific_force: V3<D>,
    /// The lag and flap axes (unit, body axes).
    axes: [V3<D>; 2],
}

/// Rotation by `a` about x, y or z (`axis` 0, 1, 2).
fn rotation<D: Scalar>(axis: usize, a: D) -> M3<D> {
    let (s, c) = a.sin_cos();
    let (o, l) = (D::from(0.0), D::from(1.0));
    match axis {
        0 => [[l, o, o], [o, c, -s], [o, s, c]],
        1 => [[c, o, s], [o, l, o], [-s, o, c]],
        _ => [[c, -s, o], [s, c, o], [o, o, l]],
    }
}

impl Hinges {
    /// Hinges of `parameters` for the blades `blades` (their undeformed positions already
    /// measured from the hinge point: [`HingeParameters::shift`]).
    pub fn new(blades: &[&BladeDynamics], parameters: &HingeParameters) -> Self {
        let [k_lag, k_flap] = parameters.springs;
        let roots = blades.iter().map(|blade| RootNode::of(blade)).collect();
        Self { offset: parameters.offset, k_lag, c_lag: parameters.c_lag, k_flap, roots }
    }

    /// The pitch frame of a blade at azimuth `psi` with pitch `(theta, theta', theta'')` and the
    /// hinge state `q = [zeta, beta, zeta', beta']`, for the hub axes, rotor speed `omega`, hub
    /// motion `hub` and the hub's specific force `hub_acc` (body axes); the frame's `alpha`
    /// excludes the hinge accelerations (`A_0`).
    #[allow(clippy::too_many_arguments)]
    pub fn frame<D: Scalar>(
        &self,
        hub_axes: &M3f,
        omega: f64,
        psi: D,
        pitch: [D; 3],
        hub: &HubInputs<D>,
        hub_acc: V3<D>,
        q: [D; 4],
    ) -> (PitchFrame<D>, HingedFrame<D>) {
        let [lag, flap, lag_rate, flap_rate] = q;
        let axes: M3<D> = hub_axes.map(|row| row.map(D::from));
        let shaft_rotation = mat_mul(&axes, &rotation(2, psi));
        let spin = scale_f(lift3(column(hub_axes, 2)), omega);
        let shaft_omega = add(hub.omega, spin);
        let shaft_alpha = add(hub.alpha, cross(hub.omega, spin));
        // Each joint: axis (body), its rate, the parent's angular velocity.
        let lag_axis = scale_f(column(&shaft_rotation, 2), -1.0);
        let lagged = mat_mul(&shaft_rotation, &rotation(2, -lag));
        let lag_omega = add(shaft_omega, scale(lag_axis, lag_rate));
        let lag_alpha = add(shaft_alpha, cross(shaft_omega, scale(lag_axis, lag_rate)));
        let flap_axis = scale_f(column(&lagged, 1), -1.0);
        let flapped = mat_mul(&lagged, &rotation(1, -flap));
        let flap_omega = add(lag_omega, scale(flap_axis, flap_rate));
        let flap_alpha = add(lag_alpha, cross(lag_omega, scale(flap_axis, flap_rate)));
        let pitch_spin = scale(column(&flapped, 0), pitch[1]);
        let alpha = add(add(flap_alpha, scale(column(&flapped, 0), pitch[2])), cross(flap_omega, pitch_spin));
        let origin = scale_f(column(&shaft_rotation, 0), self.offset);
        let transport = add(cross(shaft_alpha, origin), cross(shaft_omega, cross(shaft_omega, origin)));
        let frame = PitchFrame {
            rotation: mat_mul(&flapped, &rotation(0, pitch[0])),
            shaft_rotation,
            omega: add(flap_omega, pitch_spin),
            alpha,
            shaft_omega,
        };
        (frame, HingedFrame { origin, specific_force: add(hub_acc, transport), axes: [lag_axis, flap_axis] })
    }

    /// Solves blade `b`'s hinge equations for `[zeta'', beta'']` from its hinge state `q`, the
    /// clamp load `clamp` the beam gave with the frame's `A_0`, and corrects that load and the
    /// beam's derivative `dx` (state `x`) for the hinge accelerations.
    #[allow(clippy::too_many_arguments)]
    pub fn close<D: Scalar>(
        &self,
        blade: &BladeDynamics,
        frame: (&PitchFrame<D>, &HingedFrame<D>),
        b: usize,
        q: [D; 4],
        x: &[D],
        clamp: &mut ClampLoad<D>,
        dx: &mut [D],
    ) -> [D; 2] {
        let [lag, flap, lag_rate, _] = q;
        let n = frame.1.axes.map(|a| mat_t_vec(&frame.0.rotation, a));
        let root = &self.roots[b];
        let h = n.map(|v| root.inertia_about_hinge(v));
        let mass = |i: usize, j: usize| dot(n[i], h[j]);
        let spring = [-(lag * self.k_lag) - lag_rate * self.c_lag[b], -(flap * self.k_flap)];
        let rhs = [dot(n[0], clamp.moment) + spring[0], dot(n[1], clamp.moment) + spring[1]];
        let det = mass(0, 0) * mass(1, 1) - mass(0, 1) * mass(1, 0);
        let lag_acc = (rhs[0] * mass(1, 1) - rhs[1] * mass(0, 1)) / det;
        let flap_acc = (rhs[1] * mass(0, 0) - rhs[0] * mass(1, 0)) / det;
        let extra = add(scale(n[0], lag_acc), scale(n[1], flap_acc));
        let r0: V3<D> = lift3(root.position);
        clamp.force = sub(clamp.force, scale_f(cross(extra, r0), root.mass));
        clamp.moment = sub(clamp.moment, add(scale(h[0], lag_acc), scale(h[1], flap_acc)));
        let half = PER_NODE * blade.n_free();
        for node in 1..blade.beam.n_nodes() {
            let (r, _) = blade.node_pose(x, node);
            let linear = cross(extra, r);
            let at = half + PER_NODE * (node - 1);
            for k in 0..3 {
                dx[at + k] -= linear[k];
                dx[at + 3 + k] -= extra[k];
            }
        }
        [lag_acc, flap_acc]
    }

    /// The chord `e` and its rate `e'` (pitch-frame axes, relative to it) in the shaft frame
    /// of `frame` and relative to it: what [`crate::kinematics::flap_lag`] turns into the
    /// equivalent flap and lag angles (called there with zero pitch).
    pub fn chord_in_shaft<D: Scalar>(f: &PitchFrame<D>, e: V3<D>, e_rate: V3<D>) -> (V3<D>, V3<D>) {
        let chord_body = mat_vec(&f.rotation, e);
        let relative = sub(f.omega, f.shaft_omega);
        let rate_body = add(mat_vec(&f.rotation, e_rate), cross(relative, chord_body));
        (mat_t_vec(&f.shaft_rotation, chord_body), mat_t_vec(&f.shaft_rotation, rate_body))
    }

    /// Inertial velocity (body axes) of the clamp of blade `b` on `frame`, for the hub velocity
    /// `hub_vel`.
    pub fn clamp_velocity<D: Scalar>(
        &self,
        b: usize,
        f: &PitchFrame<D>,
        hinged: &HingedFrame<D>,
        hub_vel: V3<D>,
    ) -> V3<D> {
        let arm = mat_vec(&f.rotation, lift3(self.roots[b].position));
        add(add(hub_vel, cross(f.shaft_omega, hinged.origin)), cross(f.omega, arm))
    }
}

/// The hinge parameters of the articulated hub.
#[derive(Clone, Copy, Debug)]
pub struct HingeParameters {
    /// Hinge offset, m.
    offset: f64,
    /// Lag and flap springs, N m/rad.
    springs: [f64; 2],
    /// Per-blade lag dampers, N m s/rad.
    c_lag: [f64; MAX_BLADES],
}

impl HingeParameters {
    /// The hinges' parameters (`None` with `hub_type = 0`), checked against the clamp radius
    /// `clamp` (m).
    pub fn read(p: &Reader, clamp: f64) -> Result<Option<Self>, ParameterError> {
        if p.integer(vr::HUB_TYPE)? == 0 {
            return Ok(None);
        }
        let offset = p.real(vr::E)?;
        if offset > clamp {
            return Err(format!(
                "parameter 'e' ({offset} m) must not exceed the blade table's first radius ({clamp} m), where the \
                 beam is clamped outboard of the hinges"
            )
            .into());
        }
        let mut c_lag = [p.real(vr::C_LAG)?; MAX_BLADES];
        for (i, c) in c_lag.iter_mut().enumerate() {
            *c *= p.real(vr::BLADE_OVERRIDES + vr::PER_BLADE_OVERRIDES * i as u32 + vr::C_LAG_FACTOR)?;
        }
        Ok(Some(Self { offset, springs: [p.real(vr::K_LAG)?, p.real(vr::K_FLAP)?], c_lag }))
    }

    /// Hinge offset, m.
    pub fn offset(&self) -> f64 {
        self.offset
    }

    /// Moves `blade`'s undeformed positions to be measured from the hinge point.
    pub fn shift(&self, blade: &mut BladeDynamics) {
        for position in &mut blade.beam.undeformed.positions {
            position[0] -= self.offset;
        }
    }
}
