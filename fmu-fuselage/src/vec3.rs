//! Small generic 3-vector, 3x3-matrix and quaternion helpers.
//!
//! Everything is written over [`Scalar`] with plain arithmetic only, so that the same code gives
//! values (`f64`) and exact derivatives (`num_dual::Dual64`). Nothing allocates.
//!
//! Conventions: quaternions are scalar-first `[w, x, y, z]`; [`dcm`] of a body-to-inertial
//! quaternion maps body components to inertial components (`v_i = R v_b`).

use fmu_core::model::Scalar;

/// A 3-vector of generic scalars.
pub type V3<D> = [D; 3];
/// A 3x3 matrix, row-major (`m[row][col]`).
pub type M3<D> = [[D; 3]; 3];
/// A quaternion, scalar-first `[w, x, y, z]`.
pub type Quat<D> = [D; 4];

/// Lifts a constant `f64` vector into the generic scalar type (zero derivative part).
pub fn lift<D: Scalar>(a: [f64; 3]) -> V3<D> {
    [D::from(a[0]), D::from(a[1]), D::from(a[2])]
}

/// The zero vector.
pub fn zero<D: Scalar>() -> V3<D> {
    lift([0.0; 3])
}

/// `a + b`.
pub fn add<D: Scalar>(a: V3<D>, b: V3<D>) -> V3<D> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
pub fn sub<D: Scalar>(a: V3<D>, b: V3<D>) -> V3<D> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `s a` for a generic scalar `s`.
pub fn scale<D: Scalar>(a: V3<D>, s: D) -> V3<D> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `s a` for a constant `s`.
pub fn scale_f<D: Scalar>(a: V3<D>, s: f64) -> V3<D> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// Dot product `a . b`.
pub fn dot<D: Scalar>(a: V3<D>, b: V3<D>) -> D {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cross product `a x b`.
pub fn cross<D: Scalar>(a: V3<D>, b: V3<D>) -> V3<D> {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `m v` for a constant matrix and a generic vector.
pub fn mat_vec_f<D: Scalar>(m: &[[f64; 3]; 3], v: V3<D>) -> V3<D> {
    [
        v[0] * m[0][0] + v[1] * m[0][1] + v[2] * m[0][2],
        v[0] * m[1][0] + v[1] * m[1][1] + v[2] * m[1][2],
        v[0] * m[2][0] + v[1] * m[2][1] + v[2] * m[2][2],
    ]
}

/// `m v`.
pub fn mat_vec<D: Scalar>(m: &M3<D>, v: V3<D>) -> V3<D> {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

/// `m^T v`.
pub fn mat_t_vec<D: Scalar>(m: &M3<D>, v: V3<D>) -> V3<D> {
    [
        m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
        m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
        m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
    ]
}

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
    fn cross_of_basis_vectors() {
        let z = cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        assert_eq!(z, [0.0, 0.0, 1.0]);
    }

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
