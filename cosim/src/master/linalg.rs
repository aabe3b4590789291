//! Dense LU with partial pivoting on preallocated buffers, for the Newton matrix of an algebraic
//! loop (a few dozen unknowns at most): no allocation per solve.

/// Why a Newton matrix could not be factorised.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("Newton matrix is singular (pivot {pivot:e} in column {column})")]
pub struct Singular {
    /// Column where the largest available pivot was negligible.
    pub column: usize,
    /// That pivot.
    pub pivot: f64,
}

/// Solves `a x = b` in place: `a` (row-major `n x n`) is overwritten by its LU factors and `b`
/// by the solution. `pivots` must have length `n`.
pub fn solve_in_place(n: usize, a: &mut [f64], b: &mut [f64], pivots: &mut [usize]) -> Result<(), Singular> {
    factor(n, a, pivots)?;
    solve_factored(n, a, pivots, b);
    Ok(())
}

/// Overwrites `a` (row-major `n x n`) by its LU factors with partial pivoting (row `k` swapped
/// with row `pivots[k]` at step `k`), for any number of [`solve_factored`] calls.
pub fn factor(n: usize, a: &mut [f64], pivots: &mut [usize]) -> Result<(), Singular> {
    debug_assert_eq!(a.len(), n * n);
    let scale = a.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    for k in 0..n {
        let (p, pivot) = (k..n)
            .map(|i| (i, a[i * n + k]))
            .fold((k, 0.0_f64), |best, (i, v)| if v.abs() > best.1.abs() { (i, v) } else { best });
        if pivot.abs() <= 1e-14 * scale || !pivot.is_finite() {
            return Err(Singular { column: k, pivot });
        }
        pivots[k] = p;
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        for i in k + 1..n {
            let f = a[i * n + k] / pivot;
            a[i * n + k] = f;
            for j in k + 1..n {
                a[i * n + j] -= f * a[k * n + j];
            }
        }
    }
    Ok(())
}

/// Solves `a x = b` in place with the factors from [`factor`].
pub fn solve_factored(n: usize, lu: &[f64], pivots: &[usize], b: &mut [f64]) {
    debug_assert_eq!(b.len(), n);
    // The row swaps moved the multipliers with their rows: `P a = L U`, so first `P b`.
    for (k, &p) in pivots.iter().enumerate().take(n) {
        b.swap(k, p);
    }
    for k in 0..n {
        for i in k + 1..n {
            b[i] -= lu[i * n + k] * b[k];
        }
    }
    for k in (0..n).rev() {
        let mut s = b[k];
        for j in k + 1..n {
            s -= lu[k * n + j] * b[j];
        }
        b[k] = s / lu[k * n + k];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        // [[0, 2, 1], [1, 1, 1], [4, -1, 3]] x = b with x = (1, -2, 3).
        let a0 = [0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 4.0, -1.0, 3.0];
        let x = [1.0, -2.0, 3.0];
        let mut b: Vec<f64> = (0..3).map(|i| (0..3).map(|j| a0[i * 3 + j] * x[j]).sum()).collect();
        let mut a = a0;
        let mut piv = [0; 3];
        solve_in_place(3, &mut a, &mut b, &mut piv).unwrap();
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-14, "{b:?}");
        }
    }

    /// One factorisation serves several right-hand sides.
    #[test]
    fn factors_are_reused() {
        let a0 = [0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 4.0, -1.0, 3.0];
        let mut lu = a0;
        let mut piv = [0; 3];
        factor(3, &mut lu, &mut piv).unwrap();
        for x in [[1.0, -2.0, 3.0], [0.5, 0.0, -4.0]] {
            let mut b: Vec<f64> = (0..3).map(|i| (0..3).map(|j| a0[i * 3 + j] * x[j]).sum()).collect();
            solve_factored(3, &lu, &piv, &mut b);
            for i in 0..3 {
                assert!((b[i] - x[i]).abs() < 1e-14, "{b:?}");
            }
        }
    }

    #[test]
    fn singular_matrix_is_reported() {
        let mut a = [1.0, 2.0, 2.0, 4.0];
        let mut b = [1.0, 2.0];
        let mut piv = [0; 2];
        assert!(solve_in_place(2, &mut a, &mut b, &mut piv).is_err());
    }
}
