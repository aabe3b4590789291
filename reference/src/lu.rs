//! Dense LU with partial pivoting, factorisation and solve apart, so that a loop's Newton matrix
//! can be factorised once and reused over many right-hand-side evaluations.

/// A negligible pivot: the Newton matrix is singular.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Singular {
    pub column: usize,
    pub pivot: f64,
}

impl std::fmt::Display for Singular {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Newton matrix is singular (pivot {:e} in column {})", self.pivot, self.column)
    }
}

/// Factorises `a` (row-major `n x n`) in place into `P a = L U`; `pivots[k]` is the row swapped
/// with row `k` at step `k`.
pub(crate) fn factor(n: usize, a: &mut [f64], pivots: &mut [usize]) -> Result<(), Singular> {
    let scale = a.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    for k in 0..n {
        let mut p = k;
        for i in k + 1..n {
            if a[i * n + k].abs() > a[p * n + k].abs() {
                p = i;
            }
        }
        let pivot = a[p * n + k];
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
pub(crate) fn solve(n: usize, lu: &[f64], pivots: &[usize], b: &mut [f64]) {
    // Whole rows (multipliers included) were swapped, so the permutation applies first.
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
    fn factor_once_solve_twice() {
        // [[0, 2, 1], [1, 1, 1], [4, -1, 3]]: needs pivoting.
        let a0 = [0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 4.0, -1.0, 3.0];
        let mut lu = a0;
        let mut piv = [0; 3];
        factor(3, &mut lu, &mut piv).unwrap();
        for x in [[1.0, -2.0, 3.0], [0.5, 0.25, -4.0]] {
            let mut b: Vec<f64> = (0..3).map(|i| (0..3).map(|j| a0[i * 3 + j] * x[j]).sum()).collect();
            solve(3, &lu, &piv, &mut b);
            for i in 0..3 {
                assert!((b[i] - x[i]).abs() < 1e-14, "{b:?} vs {x:?}");
            }
        }
    }

    #[test]
    fn singular_matrix_is_reported() {
        let mut a = [1.0, 2.0, 2.0, 4.0];
        let mut piv = [0; 2];
        assert!(factor(2, &mut a, &mut piv).is_err());
    }
}
