//! Euler angle sequences (the six Tait-Bryan "aerodynamic" sequences of GUNNS, seed 003).
//!
//! Definition used throughout this crate: the sequence `abc` (digits 1 = x, 2 = y, 3 = z) means
//! intrinsic rotations taking the NED frame into the body frame: first about axis `a` by
//! `euler.1`, then about the new axis `b` by `euler.2`, then about the newest axis `c` by
//! `euler.3`. Equivalently the body-to-inertial direction cosine matrix is
//! `R = R_a(e1) R_b(e2) R_c(e3)` with `R_k` the elementary (active) rotation about axis `k`.
//! Sequence 321 therefore gives `(psi, theta, phi)` = (yaw, pitch, roll).
//!
//! Ranges: `euler.1` and `euler.3` in (-pi, pi], `euler.2` in [-pi/2, pi/2]. At gimbal lock
//! (`|euler.2| = pi/2`) the split between `euler.1` and `euler.3` is not unique.

use fmu_core::model::Scalar;

use crate::vec3::{M3, Quat, axis_quat, quat_mul};

/// One of the six Tait-Bryan sequences (each axis used once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EulerSequence {
    /// Roll-pitch-yaw: x, then y, then z.
    S123,
    /// x, then z, then y.
    S132,
    /// y, then x, then z.
    S213,
    /// y, then z, then x.
    S231,
    /// z, then x, then y.
    S312,
    /// Yaw-pitch-roll: z, then y, then x (the aeronautical convention).
    S321,
}

impl EulerSequence {
    /// All six sequences.
    pub const ALL: [EulerSequence; 6] = [Self::S123, Self::S132, Self::S213, Self::S231, Self::S312, Self::S321];

    /// Parses the integer code (123, 132, 213, 231, 312 or 321).
    pub fn from_code(code: i32) -> Option<Self> {
        Some(match code {
            123 => Self::S123,
            132 => Self::S132,
            213 => Self::S213,
            231 => Self::S231,
            312 => Self::S312,
            321 => Self::S321,
            _ => return None,
        })
    }

    /// The integer code, e.g. 321.
    pub fn code(self) -> i32 {
        let [a, b, c] = self.axes();
        (100 * (a + 1) + 10 * (b + 1) + c + 1) as i32
    }

    /// Rotation axes in order, 0-based (0 = x, 1 = y, 2 = z).
    pub fn axes(self) -> [usize; 3] {
        match self {
            Self::S123 => [0, 1, 2],
            Self::S132 => [0, 2, 1],
            Self::S213 => [1, 0, 2],
            Self::S231 => [1, 2, 0],
            Self::S312 => [2, 0, 1],
            Self::S321 => [2, 1, 0],
        }
    }

    /// `+1` for the cyclic sequences (123, 231, 312), `-1` for the others.
    fn parity(self) -> f64 {
        match self {
            Self::S123 | Self::S231 | Self::S312 => 1.0,
            Self::S132 | Self::S213 | Self::S321 => -1.0,
        }
    }

    /// Euler angles `[e1, e2, e3]` (rad) of a body-to-inertial direction cosine matrix.
    ///
    /// With axes `(i, j, k)` and parity `s`: `e2 = asin(s R[i][k])`,
    /// `e1 = atan2(-s R[j][k], R[k][k])`, `e3 = atan2(-s R[i][j], R[i][i])`.
    pub fn angles_from_dcm<D: Scalar>(self, r: &M3<D>) -> [D; 3] {
        let [i, j, k] = self.axes();
        let s = self.parity();
        let sin_e2 = r[i][k] * s;
        // Clamp round-off beyond +-1 (the derivative is undefined there anyway).
        let sin_e2 = if sin_e2.re() > 1.0 {
            D::from(1.0)
        } else if sin_e2.re() < -1.0 {
            D::from(-1.0)
        } else {
            sin_e2
        };
        let e1 = (r[j][k] * (-s)).atan2(r[k][k]);
        let e2 = sin_e2.asin();
        let e3 = (r[i][j] * (-s)).atan2(r[i][i]);
        [e1, e2, e3]
    }

    /// Body-to-inertial unit quaternion of Euler angles `[e1, e2, e3]` (rad) in this sequence:
    /// `q = q_a(e1) (x) q_b(e2) (x) q_c(e3)`.
    pub fn quaternion(self, angles: [f64; 3]) -> Quat<f64> {
        let [a, b, c] = self.axes();
        quat_mul(quat_mul(axis_quat(a, angles[0]), axis_quat(b, angles[1])), axis_quat(c, angles[2]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for s in EulerSequence::ALL {
            assert_eq!(EulerSequence::from_code(s.code()), Some(s));
        }
        assert_eq!(EulerSequence::from_code(121), None);
        assert_eq!(EulerSequence::from_code(0), None);
    }
}
