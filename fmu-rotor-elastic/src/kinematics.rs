//! Per blade: the pitch frame's motion from the hub inputs, the equivalent rigid blade (the
//! frame through the clamp and the tip, for a rigid-blade aerodynamics FMU) and the spreading of
//! its root loads along the beam.
//!
//! **Pitch frame `P` of blade `k`** (the frame the beam is clamped in): origin at the hub point P
//! on the shaft axis, `R_P = A Rz(psi_k) Rx(theta_k)` (airframe body axes from `P` axes; `A` the
//! hub axes, `psi_k = psi0 + Omega t + 2 pi (k - 1) / nb`, `theta_k` the pitch input). Its
//! angular velocity and acceleration (body axes) are
//! `W = w_b + Omega z_H + theta' x_S` and
//! `A_P = a_b + w_b x Omega z_H + theta'' x_S + (w_b + Omega z_H) x theta' x_S`, its origin's
//! specific force the hub's (`hub.acc`).
//!
//! **Equivalent rigid blade `E`**: `x_E = e`, the unit chord from the clamp node to the tip
//! node, `R_E = R_P R_min(e)` with `R_min` the smallest rotation taking `x_P` to `e` (no elastic
//! twist); its angular velocity relative to `P` is `e x e'`, exact for the chord's direction
//! (its spin about `e` is left out: the aerodynamics uses only the components normal to the
//! span).

use fmu_core::Scalar;
use fmu_core::vec3::{M3, M3f, V3, add, cross, dot, lift3, scale, scale_f, sub, zero};

/// `a b` for 3x3 matrices.
pub fn mat_mul<D: Scalar>(a: &M3<D>, b: &M3<D>) -> M3<D> {
    std::array::from_fn(|i| std::array::from_fn(|j| a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j]))
}

/// Column `j` of `m`.
pub fn column<D: Scalar>(m: &M3<D>, j: usize) -> V3<D> {
    [m[0][j], m[1][j], m[2][j]]
}

/// The pitch frame of one blade at one instant (body axes).
pub struct PitchFrame<D> {
    /// `R_P` (body from pitch-frame axes).
    pub rotation: M3<D>,
    /// Rotation of the shaft frame `S` (body from `S`): `A Rz(psi_k)`.
    pub shaft_rotation: M3<D>,
    /// Angular velocity of `P` (inertial), body axes.
    pub omega: V3<D>,
    /// Angular acceleration of `P` (inertial), body axes.
    pub alpha: V3<D>,
    /// Angular velocity of the shaft frame (hub rate plus `Omega z_H`), body axes.
    pub shaft_omega: V3<D>,
}

/// Hub motion inputs (body axes).
pub struct HubInputs<D> {
    /// Angular velocity (rad/s).
    pub omega: V3<D>,
    /// Angular acceleration (rad/s^2).
    pub alpha: V3<D>,
}

/// The pitch frame for azimuth `psi`, pitch `(theta, theta', theta'')`, the hub axes and rotor
/// speed `omega`.
pub fn pitch_frame<D: Scalar>(hub_axes: &M3f, omega: f64, psi: D, pitch: [D; 3], hub: &HubInputs<D>) -> PitchFrame<D> {
    let (s, c) = psi.sin_cos();
    let rz = [[c, -s, zero()], [s, c, zero()], [zero(), zero(), D::from(1.0)]];
    let (st, ct) = pitch[0].sin_cos();
    let rx = [[D::from(1.0), zero(), zero()], [zero(), ct, -st], [zero(), st, ct]];
    let axes: M3<D> = hub_axes.map(|row| row.map(D::from));
    let shaft_rotation = mat_mul(&axes, &rz);
    let rotation = mat_mul(&shaft_rotation, &rx);
    let z_h: V3<D> = lift3(column(hub_axes, 2));
    let spin = scale_f(z_h, omega);
    let x_s = column(&shaft_rotation, 0);
    let shaft_omega = add(hub.omega, spin);
    let pitch_spin = scale(x_s, pitch[1]);
    let alpha = add(add(hub.alpha, cross(hub.omega, spin)), add(scale(x_s, pitch[2]), cross(shaft_omega, pitch_spin)));
    PitchFrame { rotation, shaft_rotation, omega: add(shaft_omega, pitch_spin), alpha, shaft_omega }
}

/// The smallest rotation taking `x` = (1, 0, 0) to the unit vector `e`: `I + K + K^2 / (1 + e_x)`
/// with `K` the cross-product matrix of `x X e = (0, -e_z, e_y)` (columns: the equivalent blade's
/// axes in the pitch frame).
pub fn min_rotation<D: Scalar>(e: V3<D>) -> M3<D> {
    let k = [[zero(), -e[1], -e[2]], [e[1], zero(), zero()], [e[2], zero(), zero()]];
    let k2 = mat_mul(&k, &k);
    let f = (e[0] + 1.0).recip();
    std::array::from_fn(|i| {
        std::array::from_fn(|j| if i == j { D::from(1.0) } else { zero() } + k[i][j] + k2[i][j] * f)
    })
}

/// The equivalent rigid blade from the clamp and tip positions and the tip velocity (pitch
/// frame): `(R_min, e, e')`.
pub fn chord<D: Scalar>(root: V3<D>, tip: V3<D>, tip_velocity: V3<D>) -> (M3<D>, V3<D>, V3<D>) {
    let d = sub(tip, root);
    let length = dot(d, d).sqrt();
    let e = scale(d, length.recip());
    let e_rate = scale(sub(tip_velocity, scale(e, dot(e, tip_velocity))), length.recip());
    (min_rotation(e), e, e_rate)
}

/// Flap and lag angles and rates of the chord `e` (pitch frame) with rate `e'` for the pitch
/// `(theta, theta')`: the chord in the shaft frame `e_S = Rx(theta) e`, flap `asin(e_S.z)`, lag
/// `atan2(-e_S.y, e_S.x)`.
pub fn flap_lag<D: Scalar>(e: V3<D>, e_rate: V3<D>, pitch: [D; 2]) -> [D; 4] {
    let (st, ct) = pitch[0].sin_cos();
    let turn = |v: V3<D>| [v[0], ct * v[1] - st * v[2], st * v[1] + ct * v[2]];
    let e_s = turn(e);
    let rate = add(turn(e_rate), cross([pitch[1], zero(), zero()], e_s));
    let flap = e_s[2].asin();
    let flap_rate = rate[2] / (D::from(1.0) - e_s[2] * e_s[2]).sqrt();
    let planar = e_s[0] * e_s[0] + e_s[1] * e_s[1];
    let lag = (-e_s[1]).atan2(e_s[0]);
    let lag_rate = (e_s[1] * rate[0] - e_s[0] * rate[1]) / planar;
    [flap, lag, flap_rate, lag_rate]
}

/// How a root force and moment (equivalent-blade axes) become nodal loads: a line load linear in
/// the span for the normal components, uniform for the axial force and the torque, lumped onto
/// the nodes with their tributary lengths so that the nodal loads have exactly the given
/// resultant and moment about the clamp.
#[derive(Clone, Debug)]
pub struct LoadSpreading {
    /// Tributary length of each node (m).
    weights: Vec<f64>,
    /// Distance of each node from the clamp along the undeformed span (m).
    arms: Vec<f64>,
    /// Inverse of `[[sum w, sum w s], [sum w s, sum w s^2]]`.
    inverse: [[f64; 2]; 2],
    /// Span (m).
    span: f64,
}

impl LoadSpreading {
    /// For nodes at `arms` (m from the clamp, increasing, the first 0).
    pub fn new(arms: &[f64]) -> Self {
        let n = arms.len();
        let weights: Vec<f64> = (0..n)
            .map(|k| {
                let left = if k > 0 { arms[k] - arms[k - 1] } else { 0.0 };
                let right = if k + 1 < n { arms[k + 1] - arms[k] } else { 0.0 };
                0.5 * (left + right)
            })
            .collect();
        let s0: f64 = weights.iter().sum();
        let s1: f64 = weights.iter().zip(arms).map(|(w, s)| w * s).sum();
        let s2: f64 = weights.iter().zip(arms).map(|(w, s)| w * s * s).sum();
        let det = s0 * s2 - s1 * s1;
        let inverse = [[s2 / det, -s1 / det], [-s1 / det, s0 / det]];
        Self { weights, arms: arms.to_vec(), inverse, span: arms[n - 1] }
    }

    /// Nodal forces and moments (equivalent-blade axes) for the root force `f` and moment `m`.
    pub fn spread<D: Scalar>(&self, f: V3<D>, m: V3<D>, forces: &mut [V3<D>], moments: &mut [V3<D>]) {
        // Normal components: first moments sum s n_z = -M_y, sum s n_y = M_z.
        let coefficients = |total: D, first: D| {
            let i = &self.inverse;
            (total * i[0][0] + first * i[0][1], total * i[1][0] + first * i[1][1])
        };
        let (ay, by) = coefficients(f[1], m[2]);
        let (az, bz) = coefficients(f[2], -m[1]);
        for (k, (w, s)) in self.weights.iter().zip(&self.arms).enumerate() {
            let share = *w / self.span;
            forces[k] = [f[0] * share, (ay + by * *s) * *w, (az + bz * *s) * *w];
            moments[k] = [m[0] * share, zero(), zero()];
        }
    }
}
