//! Small generic linear algebra beyond [`fmu_core::vec3`] (re-exported here): products with
//! constant matrices, elementary rotations and a dense LU.
//!
//! Everything is written over [`Scalar`] with plain arithmetic only, so that the same code runs
//! on `f64` and on `num_dual::Dual64` (exact directional derivatives through the FMI layer).
//! Nothing allocates.

use fmu_core::model::Scalar;

pub use fmu_core::vec3::{
    IDENTITY, M3, M3f, V3, add, cross, dot, lift3, lift33, mat_t_vec, mat_vec, mat_vec_f, scale, scale_f, sub, zero,
    zero3, zero33,
};

/// `a b` for a generic `a` and a constant `b`.
#[inline]
pub fn mat_mul_f<D: Scalar>(a: &M3<D>, b: &M3f) -> M3<D> {
    let mut c = zero33();
    for (ci, ai) in c.iter_mut().zip(a) {
        for (j, cij) in ci.iter_mut().enumerate() {
            *cij = ai[0] * b[0][j] + ai[1] * b[1][j] + ai[2] * b[2][j];
        }
    }
    c
}

/// `r i r^T` for a generic rotation `r` and a constant symmetric `i` (a tensor rotated from the
/// frame of `r`'s columns into the frame of its rows).
pub fn congruence_f<D: Scalar>(r: &M3<D>, i: &M3f) -> M3<D> {
    let ri = mat_mul_f(r, i);
    let mut out = zero33();
    for a in 0..3 {
        for b in a..3 {
            let v = dot(ri[a], r[b]);
            out[a][b] = v;
            out[b][a] = v;
        }
    }
    out
}

/// Right-multiplies `m` in place by the elementary rotation about coordinate axis `axis`
/// (0 = x, 1 = y, 2 = z) with the given sine and cosine: `m <- m Rot_axis(angle)`.
///
/// Only the two columns perpendicular to the axis change: with `(i, j)` the cyclic successors
/// of `axis`, `col_i <- c col_i + s col_j` and `col_j <- c col_j - s col_i`.
#[inline]
pub fn rotate_columns<D: Scalar>(m: &mut M3<D>, axis: usize, s: D, c: D) {
    let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
    for row in m.iter_mut() {
        let (a, b) = (row[i], row[j]);
        row[i] = a * c + b * s;
        row[j] = b * c - a * s;
    }
}

/// Why a linear solve failed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Singular {
    /// Row of the vanishing (or non-finite) pivot within the block.
    pub row: usize,
}

/// LU decomposition with partial pivoting of the diagonal block `[o, o + n)` of `a` in place (the
/// multipliers below the diagonal, `U` on and above; rows `k` and `pivots[k]` swapped at step
/// `k`), for any number of [`lu_solve_factored_block`] calls. Pivots are chosen by the magnitude
/// of the real part, so that derivative parts propagate exactly (the pivot order is fixed by the
/// real parts).
pub fn lu_factor_block<D: Scalar, const N: usize>(
    a: &mut [[D; N]; N],
    pivots: &mut [usize; N],
    o: usize,
    n: usize,
) -> Result<(), Singular> {
    let mut scale = 0.0_f64;
    for row in &a[o..o + n] {
        for e in &row[o..o + n] {
            scale = scale.max(e.re().abs());
        }
    }
    let end = o + n;
    for k in o..end {
        // Pivot search.
        let (mut p, mut best) = (k, a[k][k].re().abs());
        for (i, row) in a.iter().enumerate().take(end).skip(k + 1) {
            let v = row[k].re().abs();
            if v > best {
                (p, best) = (i, v);
            }
        }
        if best <= 1e-14 * scale || !best.is_finite() {
            return Err(Singular { row: k - o });
        }
        pivots[k] = p;
        if p != k {
            a.swap(p, k);
        }
        let inv = a[k][k].recip();
        let (upper, lower) = a.split_at_mut(k + 1);
        let pivot_row = &upper[k][k + 1..end];
        for row in &mut lower[..end - k - 1] {
            let f = row[k] * inv;
            for (aij, &akj) in row[k + 1..end].iter_mut().zip(pivot_row) {
                *aij -= f * akj;
            }
            row[k] = f;
        }
    }
    Ok(())
}

/// Solves `a x = b` in place for the block `[o, o + n)` with the factors of [`lu_factor_block`].
/// The same operations in the same order as eliminating `b` along with the factorisation, so
/// the solution is bit for bit the same.
pub fn lu_solve_factored_block<D: Scalar, const N: usize>(
    lu: &[[D; N]; N],
    pivots: &[usize; N],
    b: &mut [D; N],
    o: usize,
    n: usize,
) {
    let end = o + n;
    // The swaps moved the multipliers with their rows (P a = L U): first P b.
    for (k, &p) in pivots.iter().enumerate().take(end).skip(o) {
        b.swap(k, p);
    }
    for k in o..end {
        let bk = b[k];
        for (row, bi) in lu[k + 1..end].iter().zip(&mut b[k + 1..end]) {
            *bi -= row[k] * bk;
        }
    }
    for k in (o..end).rev() {
        let mut s = b[k];
        for (&akj, &bj) in lu[k][k + 1..end].iter().zip(&b[k + 1..end]) {
            s -= akj * bj;
        }
        b[k] = s / lu[k][k];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotate_columns_is_the_elementary_rotation() {
        let a: f64 = 0.4;
        let (s, c) = a.sin_cos();
        let expected = [
            [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]],
            [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]],
            [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]],
        ];
        for (axis, e) in expected.iter().enumerate() {
            let mut m = IDENTITY;
            rotate_columns(&mut m, axis, s, c);
            for i in 0..3 {
                for j in 0..3 {
                    assert!((m[i][j] - e[i][j]).abs() < 1e-15, "axis {axis}");
                }
            }
        }
    }

    #[test]
    fn lu_solves_a_pivoting_system_in_a_block() {
        let mut a = [[0.0_f64; 4]; 4];
        a[0][0] = 7.0;
        a[1][1] = 0.0;
        a[1][2] = 2.0;
        a[1][3] = 1.0;
        a[2][1] = 3.0;
        a[2][2] = 1.0;
        a[2][3] = -1.0;
        a[3][1] = 1.0;
        a[3][2] = 1.0;
        a[3][3] = 4.0;
        let x = [0.0, 1.0, -2.0, 0.5];
        let mut b = [0.0_f64; 4];
        for i in 1..4 {
            b[i] = (1..4).map(|j| a[i][j] * x[j]).sum();
        }
        let mut pivots = [0; 4];
        lu_factor_block(&mut a, &mut pivots, 1, 3).unwrap();
        lu_solve_factored_block(&a, &pivots, &mut b, 1, 3);
        for i in 1..4 {
            assert!((b[i] - x[i]).abs() < 1e-14);
        }
        let mut z = [[0.0; 2]; 2];
        assert!(lu_factor_block(&mut z, &mut [0; 2], 0, 2).is_err());
    }
}
