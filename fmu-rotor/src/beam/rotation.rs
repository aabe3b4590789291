//! Vectors, unit quaternions and rotation vectors, generic over the scalar so that the element
//! energies can be differentiated exactly with `num-dual`.
//!
//! Quaternions are `[w, x, y, z]` (scalar first) and map material (section) axes to the beam
//! frame: `v_frame = q v_material q*`. Rotation vectors are `angle * unit axis` (radians).

use num_dual::DualNum;

/// A scalar the beam's energies are written in: `f64` or a dual number over `f64`.
pub trait BeamScalar: DualNum<Primitive = f64> + Copy {}
impl<T: DualNum<Primitive = f64> + Copy> BeamScalar for T {}

/// A 3-vector.
pub type Vec3<S> = [S; 3];
/// A unit quaternion `[w, x, y, z]`.
pub type Quat<S> = [S; 4];

/// Below this squared angle (rad^2) the exponential and logarithm use their Taylor series, so
/// that derivatives at a zero rotation stay finite and exact.
const SERIES_BELOW: f64 = 1e-10;

/// `a + b`.
pub fn add<S: BeamScalar>(a: Vec3<S>, b: Vec3<S>) -> Vec3<S> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
pub fn sub<S: BeamScalar>(a: Vec3<S>, b: Vec3<S>) -> Vec3<S> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `s a`.
pub fn scale<S: BeamScalar>(a: Vec3<S>, s: S) -> Vec3<S> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `a . b`.
pub fn dot<S: BeamScalar>(a: Vec3<S>, b: Vec3<S>) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a x b`.
pub fn cross<S: BeamScalar>(a: Vec3<S>, b: Vec3<S>) -> Vec3<S> {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// A constant vector in the scalar type `S`.
pub fn lift<S: BeamScalar>(v: Vec3<f64>) -> Vec3<S> {
    [S::from(v[0]), S::from(v[1]), S::from(v[2])]
}

/// A constant quaternion in the scalar type `S`.
pub fn lift_quat<S: BeamScalar>(q: Quat<f64>) -> Quat<S> {
    [S::from(q[0]), S::from(q[1]), S::from(q[2]), S::from(q[3])]
}

/// The Hamilton product `a b` (apply `b`, then `a`).
pub fn quat_mul<S: BeamScalar>(a: Quat<S>, b: Quat<S>) -> Quat<S> {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

/// The conjugate (inverse of a unit quaternion).
pub fn quat_conj<S: BeamScalar>(q: Quat<S>) -> Quat<S> {
    [q[0], -q[1], -q[2], -q[3]]
}

/// `R(q) v`.
pub fn rotate<S: BeamScalar>(q: Quat<S>, v: Vec3<S>) -> Vec3<S> {
    let u = [q[1], q[2], q[3]];
    let t = scale(cross(u, v), S::from(2.0));
    add(add(v, scale(t, q[0])), cross(u, t))
}

/// `R(q)^T v`.
pub fn rotate_back<S: BeamScalar>(q: Quat<S>, v: Vec3<S>) -> Vec3<S> {
    rotate(quat_conj(q), v)
}

/// The columns of the rotation matrix `R(q)` of a unit quaternion (the material axes in frame
/// axes): `R v = sum_k v_k columns[k]`, `(R^T v)_k = columns[k] . v`.
pub fn rotation_columns<S: BeamScalar>(q: Quat<S>) -> [Vec3<S>; 3] {
    let [w, x, y, z] = q;
    let two = S::from(2.0);
    let (xx, yy, zz) = (x * x * two, y * y * two, z * z * two);
    let (xy, xz, yz) = (x * y * two, x * z * two, y * z * two);
    let (wx, wy, wz) = (w * x * two, w * y * two, w * z * two);
    let one = S::from(1.0);
    [[one - yy - zz, xy + wz, xz - wy], [xy - wz, one - xx - zz, yz + wx], [xz + wy, yz - wx, one - xx - yy]]
}

/// Below this squared angle (rad^2) [`quat_exp`] uses its Taylor series (to `a^10`: truncated
/// below 1e-19 relative), no `sqrt`, `sin` or `cos`.
const EXP_SERIES_BELOW: f64 = 1e-2;

/// `cos(a/2) = sum (-1)^n x^n / (2n)!` with `x = a^2/4`: the coefficients.
const COS_HALF_SERIES: [f64; 6] = [1.0, -1.0 / 2.0, 1.0 / 24.0, -1.0 / 720.0, 1.0 / 40_320.0, -1.0 / 3_628_800.0];

/// `sin(a/2) / a = 1/2 sum (-1)^n x^n / (2n+1)!` with `x = a^2/4`: the coefficients.
const SINC_HALF_SERIES: [f64; 6] = [0.5, -0.5 / 6.0, 0.5 / 120.0, -0.5 / 5040.0, 0.5 / 362_880.0, -0.5 / 39_916_800.0];

/// `sum_n coefficients[n] x^n` (Horner).
pub fn power_series<S: BeamScalar>(x: S, coefficients: &[f64]) -> S {
    coefficients.iter().rev().fold(S::from(0.0), |sum, &c| sum * x + c)
}

/// The unit quaternion of the rotation vector `psi` (rad).
pub fn quat_exp<S: BeamScalar>(psi: Vec3<S>) -> Quat<S> {
    let angle_sq = dot(psi, psi);
    let (w, s) = if angle_sq.re() < EXP_SERIES_BELOW {
        // cos(a/2) and sin(a/2)/a as series in a^2.
        let x = angle_sq * 0.25;
        (power_series(x, &COS_HALF_SERIES), power_series(x, &SINC_HALF_SERIES))
    } else {
        let angle = angle_sq.sqrt();
        let half = angle * 0.5;
        (half.cos(), half.sin() / angle)
    };
    [w, psi[0] * s, psi[1] * s, psi[2] * s]
}

/// The rotation vector (rad, angle in `[0, pi]`) of a unit quaternion.
pub fn quat_log<S: BeamScalar>(q: Quat<S>) -> Vec3<S> {
    let q = hemisphere(q);
    let v = [q[1], q[2], q[3]];
    let s_sq = dot(v, v);
    // angle / sin(angle / 2) = 2 atan2(s, w) / s.
    let factor = if s_sq.re() < SERIES_BELOW {
        let t_sq = s_sq / (q[0] * q[0]);
        (S::from(1.0) - t_sq / 3.0 + t_sq * t_sq / 5.0) / q[0] * 2.0
    } else {
        let s = s_sq.sqrt();
        s.atan2(q[0]) / s * 2.0
    };
    scale(v, factor)
}

/// `q` or `-q`, whichever has a non-negative scalar part (the same rotation).
pub fn hemisphere<S: BeamScalar>(q: Quat<S>) -> Quat<S> {
    if q[0].re() < 0.0 { q.map(|c| -c) } else { q }
}

/// The half rotation of `q` (`sqrt(q) sqrt(q) = q`, angle halved about the same axis); `q` is
/// first brought to the hemisphere `w >= 0`.
pub fn quat_sqrt<S: BeamScalar>(q: Quat<S>) -> Quat<S> {
    let q = hemisphere(q);
    let w = q[0] + 1.0;
    let norm = (w * w + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    [w / norm, q[1] / norm, q[2] / norm, q[3] / norm]
}

/// The quaternion of a rotation by `angle` (rad) about the unit `axis`.
pub fn quat_about(axis: Vec3<f64>, angle: f64) -> Quat<f64> {
    quat_exp(scale(axis, angle))
}

/// `q` divided by its norm.
pub fn normalize_quat(q: Quat<f64>) -> Quat<f64> {
    let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    q.map(|c| c / n)
}

#[cfg(test)]
mod tests {
    use num_dual::Dual64;

    use super::*;

    /// [`quat_exp`]'s series (angles below 0.1 rad) against the trigonometric form
    /// `[cos(a/2), sin(a/2)/a psi]` evaluated with the standard library's `sin`/`cos`, values and
    /// (by dual numbers, num-dual's exact derivatives of `sqrt`, `sin`, `cos`) the derivative
    /// along a direction: within 1e-15 over 400 rotation vectors.
    #[test]
    fn quat_exp_series_matches_the_trigonometric_form() {
        let mut worst = (0.0_f64, 0.0_f64);
        for k in 1..=400 {
            let angle = 0.1 * f64::from(k) / 400.0 * (1.0 - 1e-12);
            let axis = normalize_quat([0.0, (0.7 * f64::from(k)).sin(), (1.3 * f64::from(k)).cos(), 0.4]);
            let (psi, direction) = ([1, 2, 3].map(|i| axis[i] * angle), [0.3, -0.5, 0.8]);
            let moving: Vec3<Dual64> = std::array::from_fn(|i| Dual64::new(psi[i], direction[i]));
            let series = quat_exp(moving);
            let a = dot(moving, moving).sqrt();
            let half = a * 0.5;
            let (w, s) = (half.cos(), half.sin() / a);
            let trig = [w, moving[0] * s, moving[1] * s, moving[2] * s];
            for (x, y) in series.iter().zip(&trig) {
                worst = (worst.0.max((x.re - y.re).abs()), worst.1.max((x.eps - y.eps).abs()));
            }
        }
        assert!(
            worst.0 < 1e-15 && worst.1 < 1e-15,
            "worst difference: values {:e}, derivatives {:e}",
            worst.0,
            worst.1
        );
    }
}
