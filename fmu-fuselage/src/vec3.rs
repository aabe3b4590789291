//! Quaternion helpers, beside the 3-vectors and 3x3 matrices of [`fmu_core::vec3`] (re-exported
//! here).
//!
//! Everything is written over [`Scalar`] with plain arithmetic only, so that the same code gives
//! values (`f64`) and exact derivatives (`num_dual::Dual64`). Nothing allocates.
//!
//! Conventions: quaternions are scalar-first `[w, x, y, z]`; [`dcm`] of a body-to-inertial
//! quaternion maps body components to inertial components (`v_i = R v_b`).

use fmu_core::model::Scalar;

pub use fmu_core::vec3::{M3, V3, add, cross, dot, lift3, mat_t_vec, mat_vec, scale, scale_f, sub, zero3};

/// A quaternion, scalar-first `[w, x, y, z]`.
pub type Quat<D> = [D; 4];

/// Hamilton product `a (x) b`.
pub fn quat_mul<D: Scalar>(a: Quat<D>, b: Quat<D>) -> Quat<D> {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

/// The quaternion scaled to unit norm (the zero quaternion is returned unchanged).
pub fn quat_normalize<D: Scalar>(q: Quat<D>) -> Quat<D> {
    let n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if n2.re() == 0.0 {
        return q;
    }
    let inv = n2.sqrt().recip();
    [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv]
}

/// Direction cosine matrix of a quaternion (normalised first): for a body-to-inertial
/// quaternion, `R` maps body components to inertial components.
pub fn dcm<D: Scalar>(q: Quat<D>) -> M3<D> {
    let [w, x, y, z] = quat_normalize(q);
    let one = D::from(1.0);
    let two = 2.0;
    [
        [one - (y * y + z * z) * two, (x * y - w * z) * two, (x * z + w * y) * two],
        [(x * y + w * z) * two, one - (x * x + z * z) * two, (y * z - w * x) * two],
        [(x * z - w * y) * two, (y * z + w * x) * two, one - (x * x + y * y) * two],
    ]
}

/// Unit quaternion of a rotation by `angle` (rad, right-handed) about coordinate axis `axis`
/// (0 = x, 1 = y, 2 = z).
pub fn axis_quat(axis: usize, angle: f64) -> Quat<f64> {
    let (s, c) = (0.5 * angle).sin_cos();
    let mut q = [c, 0.0, 0.0, 0.0];
    q[1 + axis] = s;
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dcm_of_axis_quaternion_is_elementary_rotation() {
        let a: f64 = 0.3;
        let r = dcm(axis_quat(2, a));
        let expected = [[a.cos(), -a.sin(), 0.0], [a.sin(), a.cos(), 0.0], [0.0, 0.0, 1.0]];
        for i in 0..3 {
            for j in 0..3 {
                assert!((r[i][j] - expected[i][j]).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn quaternion_product_matches_matrix_product() {
        let (qa, qb) = (axis_quat(0, 0.4), axis_quat(1, -1.1));
        let rab = dcm(quat_mul(qa, qb));
        let (ra, rb) = (dcm(qa), dcm(qb));
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| ra[i][k] * rb[k][j]).sum();
                assert!((rab[i][j] - p).abs() < 1e-15);
            }
        }
    }
}
