//! A two-mass oscillator split across two FMUs whose force/acceleration coupling is an algebraic
//! loop (the shape of the rotor-airframe coupling), against the closed-form solution of the
//! monolithic system (matrix exponential), with Newton coupling and with explicit Jacobi.

use crate::common;

use nalgebra::{Matrix4, Vector4};
use test_fmus::{Body, Load};

/// Body: m = 1 kg, k = 4 N/m, c = 0; Load: rigid m_r = 1.5 kg, m2 = 0.5 kg on k2 = 2 N/m,
/// c2 = 0.1 N.s/m. m_r > m makes the delayed (Jacobi) loop amplify by 1.5 per step.
const M: f64 = 1.0;
const K: f64 = 4.0;
const M_R: f64 = 1.5;
const M2: f64 = 0.5;
const K2: f64 = 2.0;
const C2: f64 = 0.1;
const X0: f64 = 1.0;
const STOP: f64 = 5.0;

/// Exact `x1(t)` of the monolithic system `(m + m_r) x1'' = -k x1 + k2 (x2 - x1) + c2 (v2 - v1)`,
/// `m2 x2'' = -k2 (x2 - x1) - c2 (v2 - v1)`, by the matrix exponential.
fn exact_x1(t: f64) -> f64 {
    let mt = M + M_R;
    #[rustfmt::skip]
    let a = Matrix4::new(
        0.0, 1.0, 0.0, 0.0,
        (-K - K2) / mt, -C2 / mt, K2 / mt, C2 / mt,
        0.0, 0.0, 0.0, 1.0,
        K2 / M2, C2 / M2, -K2 / M2, -C2 / M2,
    );
    ((a * t).exp() * Vector4::new(X0, 0.0, 0.0, 0.0))[0]
}

fn json(algorithm: &str, step: f64, extrapolate: bool) -> String {
    format!(
        r#"{{
  "fmus": {{
    "body": {{ "path": "TwoMassBody.fmu", "parameters": {{ "m": {M}, "k": {K}, "c": 0.0, "x0": {X0} }} }},
    "load": {{ "path": "TwoMassLoad.fmu", "parameters": {{ "m_r": {M_R}, "m2": {M2}, "k2": {K2}, "c2": {C2} }} }}
  }},
  "connections": [
    "body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F"
  ],
  "experiment": {{ "start": 0.0, "stop": {STOP}, "step": {step} }},
  "master": {{ "algorithm": "{algorithm}", "extrapolate_inputs": {extrapolate} }},
  "outputs": ["body.x", "body.a", "load.F"]
}}"#
    )
}

/// Max |x1 - exact| over the run, or None if the run failed or blew up.
fn max_error(dir: &std::path::Path, algorithm: &str, step: f64, extrapolate: bool) -> Option<f64> {
    let (results, _) = common::run(common::system(&json(algorithm, step, extrapolate), dir)).ok()?;
    let x = results.column("body.x").unwrap();
    let err = results.time.iter().zip(&x).map(|(&t, &x)| (x - exact_x1(t)).abs()).fold(0.0, f64::max);
    err.is_finite().then_some(err)
}

fn packaged() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::package_test_fmu::<Body>(dir.path());
    common::package_test_fmu::<Load>(dir.path());
    dir
}

#[test]
fn newton_coupling_converges_to_the_monolithic_solution_at_first_order() {
    let dir = packaged();
    let steps = [0.04, 0.02, 0.01];
    let errors: Vec<f64> = steps.iter().map(|&h| max_error(dir.path(), "newton", h, false).unwrap()).collect();
    eprintln!("Newton, inputs held: max |x1 error| {errors:?} at steps {steps:?}");
    for w in errors.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!((0.8..1.3).contains(&order), "observed order {order} (errors {errors:?})");
    }
    // Zero-order hold of the body kinematics and force over a step: error about 2 h here.
    assert!(errors[2] < 0.025, "{errors:?}");
}

#[test]
fn newton_with_input_extrapolation_is_second_order() {
    let dir = packaged();
    let steps = [0.04, 0.02, 0.01];
    let errors: Vec<f64> = steps.iter().map(|&h| max_error(dir.path(), "newton", h, true).unwrap()).collect();
    eprintln!("Newton, inputs extrapolated: max |x1 error| {errors:?} at steps {steps:?}");
    for w in errors.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!((1.7..2.4).contains(&order), "observed order {order} (errors {errors:?})");
    }
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
