//! A two-mass oscillator split across two FMUs whose force/acceleration coupling is an algebraic
//! loop (the shape of the rotor-airframe coupling), against the closed-form solution of the
//! monolithic system (matrix exponential), with Newton coupling and with explicit Jacobi.

use crate::common;

use test_fmus::two_mass::{self, K, M, packaged};

/// The two-mass case of `test_fmus::two_mass` (m_r > m makes the delayed (Jacobi) loop amplify
/// by 1.5 per step).
fn exact_x1(t: f64) -> f64 {
    two_mass::exact(t)[0]
}

fn json(algorithm: &str, step: f64, extrapolate: bool) -> String {
    two_mass::json(
        step,
        &format!(r#""algorithm": "{algorithm}", "extrapolate_inputs": {extrapolate}"#),
        r#""body.x", "body.a", "load.F""#,
    )
}

/// Max |x1 - exact| over the run, or None if the run failed or blew up.
fn max_error(dir: &std::path::Path, algorithm: &str, step: f64, extrapolate: bool) -> Option<f64> {
    let (results, _) = common::run(common::system(&json(algorithm, step, extrapolate), dir)).ok()?;
    let x = results.column("body.x").unwrap();
    let err = results.time.iter().zip(&x).map(|(&t, &x)| (x - exact_x1(t)).abs()).fold(0.0, f64::max);
    err.is_finite().then_some(err)
}

/// The Newton-coupled errors at macro steps 0.04, 0.02 and 0.01 s, checked to converge at an
/// order in `expected`.
fn newton_errors(extrapolate: bool, what: &str, expected: std::ops::Range<f64>) -> Vec<f64> {
    let dir = packaged();
    let steps = [0.04, 0.02, 0.01];
    let errors: Vec<f64> = steps.iter().map(|&h| max_error(dir.path(), "newton", h, extrapolate).unwrap()).collect();
    test_fmus::convergence::assert_order(&format!("{what}: max |x1 error| at steps {steps:?}"), &errors, expected);
    errors
}

#[test]
fn newton_coupling_converges_to_the_monolithic_solution_at_first_order() {
    let errors = newton_errors(false, "Newton, inputs held", 0.8..1.3);
    // Zero-order hold of the body kinematics and force over a step: error about 2 h here.
    assert!(errors[2] < 0.025, "{errors:?}");
}

#[test]
fn newton_with_input_extrapolation_is_second_order() {
    newton_errors(true, "Newton, inputs extrapolated", 1.7..2.4);
}

#[test]
fn loop_is_found_and_solved_exactly_at_each_point() {
    let dir = packaged();
    let (results, master) = common::run(common::system(&json("newton", 0.01, false), dir.path())).unwrap();
    // The loop: body.a -> load.a1 -> load.F -> body.F -> body.a.
    assert_eq!(master.loops(), vec![vec!["body.a".to_string(), "load.F".to_string()]]);
    // At every point the loop is consistent: F = -m_r a + (spring-damper force), and
    // a = F / m - k x / m; so F + m_r a is the link force, independent of the loop.
    let (a, f, x) =
        (results.column("body.a").unwrap(), results.column("load.F").unwrap(), results.column("body.x").unwrap());
    for i in 0..a.len() {
        let residual = a[i] - (f[i] - K * x[i]) / M;
        assert!(residual.abs() < 1e-9, "loop residual {residual} at row {i}");
    }
    // A linear loop with exact Jacobians converges in one Newton iteration.
    assert_eq!(master.stats().newton_iterations_max, 1);
}

#[test]
fn explicit_jacobi_and_gauss_seidel_diverge_where_newton_is_stable() {
    let dir = packaged();
    let h = 0.01;
    let newton = max_error(dir.path(), "newton", h, false).expect("Newton run");
    let jacobi = max_error(dir.path(), "jacobi", h, false);
    let gauss_seidel = max_error(dir.path(), "gauss-seidel", h, false);
    eprintln!("h = {h}: Newton max error {newton:e}, Jacobi {jacobi:?}, Gauss-Seidel {gauss_seidel:?}");
    assert!(newton < 0.025);
    // The delayed loop multiplies the coupling force by -m_r/m = -1.5 every step; Gauss-Seidel
    // still delays the force fed back to the body, so it diverges too.
    assert!(jacobi.is_none_or(|e| e > 1e3), "Jacobi should diverge, max error {jacobi:?}");
    assert!(gauss_seidel.is_none_or(|e| e > 1e3), "Gauss-Seidel should diverge, max error {gauss_seidel:?}");
}
