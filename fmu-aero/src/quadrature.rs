//! Spanwise quadrature rules: stations and weights on an interval, computed once in
//! `configure` into fixed arrays.
//!
//! The seed's left-rectangle rule (eq. 33, `R/n sum_{k=0}^{n-1} f(k R/n)`) is first order and
//! biased inboard; both rules here are accurate: the midpoint rule is second order (equal
//! strips, station at each strip centre) and `n`-point Gauss-Legendre integrates polynomials up
//! to degree `2n - 1` exactly.

use crate::layout::NS_MAX;

/// Which rule places the spanwise stations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `n` equal strips, stations at their centres, weights equal to the strip width.
    Midpoint,
    /// `n`-point Gauss-Legendre.
    GaussLegendre,
}

impl Rule {
    /// The rule for the `quadrature` parameter value (0 midpoint, 1 Gauss-Legendre).
    pub fn from_code(code: i32) -> Option<Rule> {
        match code {
            0 => Some(Rule::Midpoint),
            1 => Some(Rule::GaussLegendre),
            _ => None,
        }
    }
}

/// Stations and weights of `n` points on `[a, b]`: the first `n` entries of each array are set,
/// and `sum_k w[k] f(x[k])` approximates the integral of `f` over `[a, b]`.
pub fn stations(rule: Rule, n: usize, a: f64, b: f64) -> ([f64; NS_MAX], [f64; NS_MAX]) {
    assert!((1..=NS_MAX).contains(&n), "number of stations {n} outside 1..={NS_MAX}");
    let (mut x, mut w) = ([0.0; NS_MAX], [0.0; NS_MAX]);
    let half = 0.5 * (b - a);
    let mid = 0.5 * (a + b);
    match rule {
        Rule::Midpoint => {
            let h = (b - a) / n as f64;
            for k in 0..n {
                x[k] = a + (k as f64 + 0.5) * h;
                w[k] = h;
            }
        }
        Rule::GaussLegendre => {
            let (t, wt) = gauss_legendre(n);
            for k in 0..n {
                x[k] = mid + half * t[k];
                w[k] = half * wt[k];
            }
        }
    }
    (x, w)
}

/// `n`-point Gauss-Legendre nodes (ascending) and weights on `[-1, 1]`: Newton's method on the
/// Legendre polynomial from Chebyshev-like first guesses.
fn gauss_legendre(n: usize) -> ([f64; NS_MAX], [f64; NS_MAX]) {
    let (mut t, mut w) = ([0.0; NS_MAX], [0.0; NS_MAX]);
    let nf = n as f64;
    for k in 0..n.div_ceil(2) {
        // k-th root from the top, refined by Newton.
        let mut z = (std::f64::consts::PI * (k as f64 + 0.75) / (nf + 0.5)).cos();
        let mut dp = 1.0;
        for _ in 0..100 {
            let (p, d) = legendre(n, z);
            dp = d;
            let dz = p / d;
            z -= dz;
            if dz.abs() <= 1e-16 * z.abs().max(1.0) {
                break;
            }
        }
        let (_, d) = legendre(n, z);
        if d != 0.0 {
            dp = d;
        }
        let weight = 2.0 / ((1.0 - z * z) * dp * dp);
        t[n - 1 - k] = z;
        t[k] = -z;
        w[n - 1 - k] = weight;
        w[k] = weight;
    }
    if n % 2 == 1 {
        // The middle node is exactly zero.
        t[n / 2] = 0.0;
    }
    (t, w)
}

/// `(P_n(z), P_n'(z))` by the three-term recurrence.
fn legendre(n: usize, z: f64) -> (f64, f64) {
    let (mut p0, mut p1) = (1.0, z);
    if n == 0 {
        return (1.0, 0.0);
    }
    for k in 2..=n {
        let kf = k as f64;
        let p2 = ((2.0 * kf - 1.0) * z * p1 - (kf - 1.0) * p0) / kf;
        p0 = p1;
        p1 = p2;
    }
    let nf = n as f64;
    (p1, nf * (z * p1 - p0) / (z * z - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gauss-Legendre with n points integrates x^(2n-1) and lower exactly; the midpoint rule is
    /// exact for linear functions and has the error (b - a)^3 f'' / (24 n^2) otherwise.
    #[test]
    fn rules_integrate_polynomials_as_theory_says() {
        let (a, b) = (0.3, 7.5);
        for n in [1, 2, 3, 5, 8, 20, 33, 64] {
            let (x, w) = stations(Rule::GaussLegendre, n, a, b);
            assert!((w[..n].iter().sum::<f64>() - (b - a)).abs() < 1e-13, "n = {n} weights");
            for p in 0..(2 * n).min(12) as i32 {
                let exact = (b.powi(p + 1) - a.powi(p + 1)) / (p + 1) as f64;
                let sum: f64 = (0..n).map(|k| w[k] * x[k].powi(p)).sum();
                assert!((sum - exact).abs() <= 1e-12 * exact.abs().max(1.0), "GL n={n} p={p}: {sum} vs {exact}");
            }
            assert!(x[..n].windows(2).all(|s| s[0] < s[1]), "nodes ascending");
            let (x, w) = stations(Rule::Midpoint, n, a, b);
            let sum: f64 = (0..n).map(|k| w[k] * x[k] * x[k]).sum();
            let exact = (b.powi(3) - a.powi(3)) / 3.0;
            let predicted = -(b - a).powi(3) * 2.0 / (24.0 * (n * n) as f64);
            assert!((sum - exact - predicted).abs() < 1e-9 * exact, "midpoint n={n}");
        }
    }
}
