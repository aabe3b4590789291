//! The two-mass oscillator split across `TwoMassBody` and `TwoMassLoad` (force/acceleration
//! algebraic loop, the shape of the rotor-airframe coupling), from the same JSON the
//! orchestrator's tests use:
//!
//! 1. the monolithic reference against the closed form of the monolithic system (matrix
//!    exponential): it has no coupling error, only integrator error, which follows its tolerance;
//! 2. co-simulation (orchestrator, packaged FMUs, Newton coupling) against the monolithic
//!    reference: the error falls at first order in the macro step with inputs held, at second
//!    order with `extrapolate_inputs` (linear) and at third order with `extrapolation_order` 2.

use fmu_core::verify::math::sci;
use monolithic_reference::{JacobianUpdate, MonolithicSystem, Options, Registry};
use test_fmus::two_mass::{self, K, M, exact, packaged};

/// The system at macro step `step` with inputs held (`order` 0) or extrapolated at `order` 1 or 2
/// (the two-mass case of `test_fmus::two_mass`, as orchestrator/tests/master/two_mass.rs).
fn json(step: f64, order: u8) -> String {
    let master = match order {
        0 => r#""extrapolate_inputs": false"#.to_string(),
        n => format!(r#""extrapolate_inputs": true, "extrapolation_order": {n}"#),
    };
    two_mass::json(
        step,
        &format!(r#""algorithm": "newton", {master}"#),
        r#""body.x", "body.v", "body.a", "load.F", "load.x2", "load.v2", "load.x1""#,
    )
}

/// Max over the grid of the largest state error against the closed form.
fn error_against_closed_form(results: &cosim::master::Results) -> f64 {
    let cols: Vec<Vec<f64>> =
        ["body.x", "body.v", "load.x2", "load.v2"].iter().map(|c| results.column(c).unwrap()).collect();
    let mut worst: f64 = 0.0;
    for (n, &t) in results.time.iter().enumerate() {
        let e = exact(t);
        for i in 0..4 {
            worst = worst.max((cols[i][n] - e[i]).abs());
        }
    }
    worst
}

#[test]
fn monolithic_reference_matches_the_closed_form() {
    let dir = packaged();
    let system = crate::common::system(&json(0.01, 0), dir.path());
    let (results, reference) = crate::common::monolithic(&system);
    let error = error_against_closed_form(&results);
    eprintln!("monolithic, tolerance 1e-10: max state error {error:.2e}; {}", reference.stats().to_text());
    // Only the integrator's error: Dormand-Prince at 1e-10 over 5 s (about 1.1 periods of the
    // slow mode), state of order 1.
    assert!(error < 1e-8, "max state error {error:e}");

    // The loop is the orchestrator's, and it is consistent at every recorded point.
    assert_eq!(reference.loops(), vec![vec!["body.a".to_string(), "load.F".to_string()]]);
    let (a, f, x) =
        (results.column("body.a").unwrap(), results.column("load.F").unwrap(), results.column("body.x").unwrap());
    let x1 = results.column("load.x1").unwrap();
    for i in 0..a.len() {
        assert!((a[i] - (f[i] - K * x[i]) / M).abs() < 1e-9, "loop residual at row {i}");
        assert_eq!(x1[i], x[i], "connected input equals its source at row {i}");
    }
    // A linear loop with exact Jacobians: one Newton iteration per solve at most.
    let stats = reference.stats();
    assert_eq!(stats.coupling.newton_iterations_max, 1);
    assert!(stats.coupling.loop_solves >= stats.rhs_evaluations);
    assert_eq!(stats.coupling.loop_failures, 0);
}

#[test]
fn monolithic_error_follows_the_integrator_tolerance() {
    let dir = packaged();
    let system = crate::common::system(&json(0.01, 0), dir.path());
    let mut errors = Vec::new();
    for tol in [1e-5, 1e-7, 1e-9] {
        // Recorded every 0.5 s so that the tolerance, not the recording grid, limits the steps.
        let options = Options::for_system(&system).with_tolerance(tol);
        let mut reference = MonolithicSystem::with_options(&system, &Registry::builtin(), options).unwrap();
        let results = reference.run(0.5).unwrap();
        errors.push(error_against_closed_form(&results));
    }
    eprintln!("monolithic error at tolerances 1e-5, 1e-7, 1e-9: {}", sci(&errors));
    for w in errors.windows(2) {
        // Two decades of tolerance buy at least one decade of error (fifth order: about 1.6).
        assert!(w[1] < w[0] / 10.0, "{}", sci(&errors));
    }
}

#[test]
fn reused_and_fresh_loop_jacobians_give_the_same_solution() {
    let dir = packaged();
    let system = crate::common::system(&json(0.01, 0), dir.path());
    let mut runs = Vec::new();
    for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::WhenSlow] {
        let options = Options { jacobian, ..Options::for_system(&system) };
        let mut reference = MonolithicSystem::with_options(&system, &Registry::builtin(), options).unwrap();
        let results = reference.run(0.01).unwrap();
        eprintln!("{jacobian:?}: {}", reference.stats().to_text());
        runs.push((results, reference.stats().clone()));
    }
    for column in ["body.x", "body.a", "load.F"] {
        let d = crate::common::max_difference(&runs[0].0, &runs[1].0, column);
        assert!(d < 1e-9, "{column}: {d:e}");
    }
    // The loop is linear with a constant matrix: one factorisation serves the whole run.
    assert_eq!(runs[1].1.coupling.jacobian_updates, 1);
    assert!(runs[0].1.coupling.jacobian_updates > 1000);
}

/// Max |co-simulation - monolithic| of the body position at macro step `h`.
fn cosim_error(dir: &std::path::Path, h: f64, order: u8) -> f64 {
    let system = crate::common::system(&json(h, order), dir);
    let (cosim, _) = crate::common::cosim(&system);
    let (reference, _) = crate::common::monolithic(&system);
    crate::common::max_difference(&cosim, &reference, "body.x")
}

/// The co-simulation errors at macro steps 0.04, 0.02, 0.01 and 0.005 s with inputs extrapolated
/// to `order` (0: held), checked to converge at an order in `expected`.
fn cosim_errors(dir: &std::path::Path, order: u8, what: &str, expected: std::ops::Range<f64>) -> Vec<f64> {
    let steps = [0.04, 0.02, 0.01, 0.005];
    let errors: Vec<f64> = steps.iter().map(|&h| cosim_error(dir, h, order)).collect();
    let what = format!("co-simulation vs monolithic, {what}: max |x1 error| at steps {steps:?}");
    test_fmus::convergence::assert_order(&what, &errors, expected);
    errors
}

#[test]
fn cosimulation_error_is_first_order_with_inputs_held() {
    cosim_errors(packaged().path(), 0, "inputs held", 0.9..1.1);
}

#[test]
fn cosimulation_error_is_second_order_with_extrapolated_inputs() {
    let errors = cosim_errors(packaged().path(), 1, "inputs extrapolated", 1.8..2.2);
    // The reference's own error (about 1e-9) is far below the smallest co-simulation error.
    assert!(errors[errors.len() - 1] > 1e-6);
}

#[test]
fn cosimulation_error_is_third_order_with_quadratic_extrapolation() {
    let dir = packaged();
    let errors = cosim_errors(dir.path(), 2, "inputs extrapolated quadratically", 2.7..3.3);
    let linear = cosim_error(dir.path(), 0.01, 1);
    eprintln!("linear extrapolation at 0.01 s: {linear:.3e}");
    assert!(errors[2] < linear / 10.0, "quadratic {:e} vs linear {linear:e} at 0.01 s", errors[2]);
    // The reference's own error (about 1e-9) is far below the smallest co-simulation error.
    assert!(errors[errors.len() - 1] > 1e-7);
}
