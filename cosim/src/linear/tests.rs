//! Eigenvalues and modes of small hand-made systems of known spectra (the tests of state
//! transforms, Floquet exponents and mode names are in the `rotorcraft` crate).

use super::*;

/// Asserts that `got` is `want` up to `tol` in some order (each expected value matched to the
/// nearest remaining computed one).
fn assert_same_spectrum(mut got: Vec<Complex<f64>>, want: &[Complex<f64>], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for w in want {
        let (at, distance) = got.iter().map(|g| (g - w).norm()).enumerate().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert!(distance < tol, "{w} not among {got:?} (nearest {distance:e} away)");
        got.swap_remove(at);
    }
}

/// The companion matrix of the monic polynomial with the roots `roots` (real or conjugate
/// pairs): its coefficients by multiplying out `(s - r)`, on the last row negated.
fn companion(roots: &[Complex<f64>]) -> DMatrix<f64> {
    let mut coefficients = vec![Complex::new(1.0, 0.0)]; // lowest power first
    for r in roots {
        let mut next = vec![Complex::new(0.0, 0.0); coefficients.len() + 1];
        for (k, c) in coefficients.iter().enumerate() {
            next[k + 1] += c;
            next[k] -= c * r;
        }
        coefficients = next;
    }
    let n = roots.len();
    DMatrix::from_fn(n, n, |r, c| {
        if r + 1 == n {
            -coefficients[c].re
        } else if c == r + 1 {
            1.0
        } else {
            0.0
        }
    })
}

#[test]
fn bounded_eigenvalues_are_the_closed_form_spectra() {
    let z = |re: f64, im: f64| Complex::new(re, im);
    // (s + 1)(s + 2)(s - 3)(s^2 + 4)(s^2 + 2 s + 10)
    let roots = [z(-1.0, 0.0), z(-2.0, 0.0), z(3.0, 0.0), z(0.0, 2.0), z(0.0, -2.0), z(-1.0, 3.0), z(-1.0, -3.0)];
    assert_same_spectrum(modes::eigenvalues(&companion(&roots), "companion").unwrap(), &roots, 1e-9);
    // Rotation blocks [a w; -w a]: a +- i w.
    let mut rotations = DMatrix::<f64>::zeros(4, 4);
    for (b, (a, w)) in [(-0.5, 3.0), (0.2, 70.0)].into_iter().enumerate() {
        rotations[(2 * b, 2 * b)] = a;
        rotations[(2 * b + 1, 2 * b + 1)] = a;
        rotations[(2 * b, 2 * b + 1)] = w;
        rotations[(2 * b + 1, 2 * b)] = -w;
    }
    let want = [z(-0.5, 3.0), z(-0.5, -3.0), z(0.2, 70.0), z(0.2, -70.0)];
    assert_same_spectrum(modes::eigenvalues(&rotations, "rotations").unwrap(), &want, 1e-12);
    // A defective 3 x 3 Jordan block of 2 beside -1: the triple root only to ~eps^(1/3).
    let mut jordan = DMatrix::<f64>::zeros(4, 4);
    for k in 0..3 {
        jordan[(k, k)] = 2.0;
    }
    jordan[(0, 1)] = 1.0;
    jordan[(1, 2)] = 1.0;
    jordan[(3, 3)] = -1.0;
    assert_same_spectrum(
        modes::eigenvalues(&jordan, "jordan").unwrap(),
        &[z(2.0, 0.0), z(2.0, 0.0), z(2.0, 0.0), z(-1.0, 0.0)],
        1e-4,
    );
}

#[test]
fn modes_of_a_are_its_closed_form_eigenvalues() {
    let z = |re: f64, im: f64| Complex::new(re, im);
    let roots = [z(-0.3, 5.0), z(-0.3, -5.0), z(-4.0, 0.0)];
    let mut m = LinearModel::new(vec!["a".into(), "b".into(), "c".into()], Vec::new(), Vec::new(), 0.0);
    m.a = companion(&roots);
    let modes = m.modes(&StateNames).unwrap();
    assert_same_spectrum(modes.iter().map(|m| m.eigenvalue).collect(), &roots, 1e-9);
}

#[test]
fn eigenvalues_beyond_the_iteration_limit_are_an_error_naming_the_matrix() {
    let roots: Vec<Complex<f64>> = (1..=6).map(|k| Complex::new(-(k as f64), 0.0)).collect();
    let err = modes::eigenvalues_within(&companion(&roots), "state matrix A", 1).unwrap_err();
    assert!(matches!(err, LinearError::NoConvergence { size: 6, iterations: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("6 x 6 state matrix A did not converge in 1 iterations"), "{err}");
}
