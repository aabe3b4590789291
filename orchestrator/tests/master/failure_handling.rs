//! Failed steps and failed loop solves: roll back with FMU state and retry with half the step
//! where every FMU can get and set its state; otherwise stop with an error that says why. A step
//! refused by an FMU that terminates the simulation ends the run cleanly.

use crate::common;
use crate::import_support;

use std::path::Path;

use cosim::master::MasterError;
use test_fmus::Body;

/// A stiff spring (omega = 1e5 rad/s) integrated to a 1e-6 tolerance needs more than 100 000
/// internal steps per second, the integrator's budget for one
/// `fmi2DoStep`: the 1 s step is discarded and must be retried as two halves.
#[test]
fn discarded_step_is_rolled_back_and_retried_smaller() {
    let dir = tempfile::tempdir().unwrap();
    common::package_test_fmu::<Body>(dir.path());
    let json = r#"{
      "fmus": { "body": { "path": "TwoMassBody.fmu", "parameters": { "k": 1e10, "x0": 0.001, "tolerance": 1e-6 } } },
      "experiment": { "stop": 1.0, "step": 1.0 },
      "master": { "min_step": 0.01 },
      "outputs": ["body.x", "body.v"]
    }"#;
    let (results, master) = common::run(common::system(json, dir.path())).unwrap();
    let rollbacks = master.stats().rollbacks;
    eprintln!("stiff spring: {rollbacks} rollbacks, {} communication points", master.stats().communication_points);
    assert!(rollbacks >= 1);
    assert_eq!(*results.time.last().unwrap(), 1.0);
    // The retried steps continue the same trajectory: the spring's energy is kept, up to the
    // slight dissipation of Dormand-Prince at rtol 1e-6 over about a million internal steps.
    let (x, v) = (results.column("body.x").unwrap(), results.column("body.v").unwrap());
    let energy = 0.5 * 1e10 * x[1] * x[1] + 0.5 * v[1] * v[1];
    let energy0 = 0.5 * 1e10 * 0.001 * 0.001;
    eprintln!("energy ratio after 1 s: {}", energy / energy0);
    assert!((0.85..1.0 + 1e-6).contains(&(energy / energy0)), "energy ratio {}", energy / energy0);
}

#[test]
fn loop_failure_names_the_loop_and_its_residual() {
    let dir = test_fmus::two_mass::packaged();
    let json = r#"{
      "fmus": { "body": { "path": "TwoMassBody.fmu" }, "load": { "path": "TwoMassLoad.fmu" } },
      "connections": ["body.a -> load.a1", "load.F -> body.F", "body.x -> load.x1", "body.v -> load.v1"],
      "experiment": { "stop": 1.0, "step": 0.1 },
      "master": { "max_iterations": 1, "tolerance": 1e-300, "min_step": 0.05 }
    }"#;
    let error = common::run(common::system(json, dir.path())).err().expect("no residual reaches 1e-300");
    let text = error.to_string();
    eprintln!("{text}");
    assert!(matches!(error, MasterError::LoopFailed { .. }), "{error:?}");
    assert!(text.contains("algebraic loop {body.a, load.F}"), "{text}");
    assert!(text.contains("iteration limit") && text.contains("residual"), "{text}");
}

/// PythonFMU (0.7) answers a step its model refuses (`do_step` returns False) with `fmi2Discard`
/// and reports `fmi2Terminated`: the FMU ends the simulation, and the run stops cleanly at the
/// last communication point. (A plain discard without FMU state support, which stops the run with
/// an error, is `a_plain_discard_is_still_a_failed_step` in import/robustness.rs.)
#[test]
fn pythonfmu_refusing_a_step_terminates_the_run_cleanly() {
    let (_dir, refuser) = import_support::build_with_pythonfmu("Refuser", import_support::REFUSER_PY);
    let json = format!(
        r#"{{ "fmus": {{ "refuser": {{ "path": {refuser:?} }} }}, "experiment": {{ "stop": 1.0, "step": 0.1 }} }}"#
    );
    let (results, master) = common::run(common::system(&json, Path::new("/"))).unwrap();
    assert_eq!(master.stop_reason(), Some("instance 'refuser' terminated the simulation at t = 0.2 s"));
    assert_eq!(results.time.len(), 3, "rows at 0, 0.1 and 0.2 s: {:?}", results.time);
    assert!((results.time[2] - 0.2).abs() < 1e-12, "{:?}", results.time);
}

/// A caller's own interrupt flag, set from the row callback once the run passed t = 0.3 s: the
/// run ends before the next step with `MasterError::Interrupted` naming the flag and the last
/// communication point completed, whose row was the last recorded.
#[test]
fn an_interrupt_flag_ends_the_run_at_the_last_communication_point() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let dir = test_fmus::two_mass::packaged();
    let json = test_fmus::two_mass::json(0.1, r#""algorithm": "newton""#, r#""body.x""#);
    let mut master = common::master(common::system(&json, dir.path())).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    master.set_interrupt(cosim::master::Interrupt::flag(flag.clone(), "test stop"));
    let mut results = cosim::master::Results::new(Vec::new(), 0);
    let outcome = master.run_into(&mut results, |t, _| {
        if t > 0.25 {
            flag.store(true, Ordering::Relaxed);
        }
    });
    match outcome {
        Err(MasterError::Interrupted { signal, time }) => {
            assert_eq!(signal, "test stop");
            assert!((time - 0.3).abs() < 1e-12, "{time}");
            assert_eq!(results.time.len(), 4, "rows at 0, 0.1, 0.2 and 0.3 s: {:?}", results.time);
            assert_eq!(*results.time.last().unwrap(), time);
        }
        other => panic!("not interrupted: {other:?}"),
    }
    assert_eq!(master.stats().steps, 3);
}
