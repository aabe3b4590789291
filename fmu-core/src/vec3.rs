//! The 3-vectors and 3x3 matrices of our models' kinematics, over [`Scalar`].
//!
//! Written with plain arithmetic only, so that the same code runs on `f64` and on
//! `num_dual::Dual64` (exact directional derivatives through the FMI layer). Nothing allocates.
//! Matrices are row-major (`m[row][col]`); a suffix `_f` marks a constant (`f64`) operand.

use crate::model::Scalar;

/// A 3-vector of generic scalars.
pub type V3<D> = [D; 3];
/// A 3x3 matrix of generic scalars, row-major (`m[row][col]`).
pub type M3<D> = [[D; 3]; 3];
/// A constant 3x3 matrix, row-major.
pub type M3f = [[f64; 3]; 3];

/// The identity matrix as constants.
pub const IDENTITY: M3f = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// The scalar zero.
#[inline]
pub fn zero<D: Scalar>() -> D {
    D::from(0.0)
}

/// The zero vector.
#[inline]
pub fn zero3<D: Scalar>() -> V3<D> {
    [zero(); 3]
}

/// The zero matrix.
#[inline]
pub fn zero33<D: Scalar>() -> M3<D> {
    [[zero(); 3]; 3]
}

/// Lifts a constant vector into the generic scalar type (zero derivative parts).
#[inline]
pub fn lift3<D: Scalar>(a: [f64; 3]) -> V3<D> {
    [D::from(a[0]), D::from(a[1]), D::from(a[2])]
}

/// Lifts a constant matrix into the generic scalar type.
#[inline]
pub fn lift33<D: Scalar>(m: &M3f) -> M3<D> {
    [lift3(m[0]), lift3(m[1]), lift3(m[2])]
}

/// `a + b`.
#[inline]
pub fn add<D: Scalar>(a: V3<D>, b: V3<D>) -> V3<D> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
#[inline]
pub fn sub<D: Scalar>(a: V3<D>, b: V3<D>) -> V3<D> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `s a` for a generic scalar `s`.
#[inline]
pub fn scale<D: Scalar>(a: V3<D>, s: D) -> V3<D> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `s a` for a constant `s`.
#[inline]
pub fn scale_f<D: Scalar>(a: V3<D>, s: f64) -> V3<D> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// Dot product `a . b`.
#[inline]
pub fn dot<D: Scalar>(a: V3<D>, b: V3<D>) -> D {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cross product `a x b`.
#[inline]
pub fn cross<D: Scalar>(a: V3<D>, b: V3<D>) -> V3<D> {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `m v`.
#[inline]
pub fn mat_vec<D: Scalar>(m: &M3<D>, v: V3<D>) -> V3<D> {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

/// `m^T v`.
#[inline]
pub fn mat_t_vec<D: Scalar>(m: &M3<D>, v: V3<D>) -> V3<D> {
    [
        m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
        m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
        m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
    ]
}

/// `m v` for a generic matrix and a constant vector.
#[inline]
pub fn mat_vec_f<D: Scalar>(m: &M3<D>, v: [f64; 3]) -> V3<D> {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

/// `m v` for a constant matrix and a generic vector.
#[inline]
pub fn const_mat_vec<D: Scalar>(m: &M3f, v: V3<D>) -> V3<D> {
    [
        v[0] * m[0][0] + v[1] * m[0][1] + v[2] * m[0][2],
        v[0] * m[1][0] + v[1] * m[1][1] + v[2] * m[1][2],
        v[0] * m[2][0] + v[1] * m[2][1] + v[2] * m[2][2],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_basis_vectors() {
        let (x, y) = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        assert_eq!(cross(x, y), [0.0, 0.0, 1.0]);
        assert_eq!(dot(x, y), 0.0);
        let m = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
        assert_eq!(mat_vec(&m, x), [1.0, 4.0, 7.0]);
        assert_eq!(mat_t_vec(&m, x), [1.0, 2.0, 3.0]);
        assert_eq!(mat_vec_f(&m, y), const_mat_vec(&m, y));
    }
}
