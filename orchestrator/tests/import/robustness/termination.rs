//! An FMU that terminates the simulation ends the run cleanly.

use super::*;

#[test]
fn fmu_terminating_the_simulation_ends_the_run_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), false);
    let out = run_ball(dir.path(), &fmu, "", r#"{ "stop": 1.0, "step": 0.1 }"#);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "exit {:?}\nstdout: {stdout}\nstderr: {stderr}", out.status);
    let message = "instance 'ball' terminated the simulation at t = 0.35 s";
    assert!(stderr.contains(message), "{stderr}");
    assert!(stdout.contains(&format!("stopped early: {message}")), "{stdout}");
    assert!(!stderr.contains("discarded"), "not treated as a failed step: {stderr}");

    // Rows at 0, 0.1, 0.2 and 0.3: the communication points completed before the termination.
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), r#""time","ball.time","ball.count""#);
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 4, "{csv}");
    for (n, row) in rows.iter().enumerate() {
        assert!((row[0] - 0.1 * n as f64).abs() < 1e-12, "{csv}");
        assert_eq!(row[2], n as f64, "{csv}");
    }
    assert!(rows.last().unwrap()[0] < 0.35);

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop_reason"], message);
    assert!((summary["simulated_seconds"].as_f64().unwrap() - 0.3).abs() < 1e-12, "{summary}");
}

#[test]
fn a_plain_discard_is_still_a_failed_step() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), false);
    let out = run_ball(dir.path(), &fmu, r#", "parameters": { "terminate": 0 }"#, r#"{ "stop": 1.0, "step": 0.1 }"#);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("ball: fmi2DoStep from t = 0.3") && stderr.contains("was discarded"), "{stderr}");
    assert!(stderr.contains("the step cannot be retried"), "no FMU state support: {stderr}");
    assert!(!stderr.contains("terminated the simulation"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// With FMU state support a real discard is rolled back and retried smaller; a termination is not.
#[test]
fn only_a_real_discard_rolls_back() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = stateful_ball_fmu(dir.path());
    let summary = |dir: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
    };

    let out = run_ball(dir.path(), &fmu, "", r#"{ "stop": 1.0, "step": 0.1 }"#);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = summary(dir.path());
    assert_eq!(json["rollbacks"], 0, "{json}");
    assert_eq!(json["stop_reason"], "instance 'ball' terminated the simulation at t = 0.35 s");

    // A plain discard at 0.35 s: the step from 0.3 s is halved (0.3 -> 0.35 succeeds), then the
    // steps from 0.35 s are halved down to min_step and the run stops with an error.
    std::fs::remove_file(dir.path().join("summary.json")).unwrap();
    let out = run_ball_with(
        dir.path(),
        &fmu,
        r#", "parameters": { "terminate": 0 }"#,
        r#"{ "stop": 1.0, "step": 0.1 }"#,
        r#", "master": { "min_step": 0.02 }"#,
    );
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("ball: fmi2DoStep from t = 0.35"), "{stderr}");
    assert!(stderr.contains("halving down to min_step = 0.02 s did not help"), "{stderr}");
}

#[test]
fn terminated_is_a_step_result_of_the_import_api() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = Fmu::open(&ball_fmu(dir.path(), false)).unwrap();
    let mut slave = fmu.instantiate("ball", Arc::new(Collector::default())).unwrap();
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    assert!(!slave.terminated());
    assert_eq!(slave.do_step(0.0, 0.3, true).unwrap(), StepResult::Complete);
    assert_eq!(slave.do_step(0.3, 0.1, true).unwrap(), StepResult::Terminated);
    assert!(slave.terminated());
    assert_eq!(slave.last_successful_time().unwrap(), 0.35);
    slave.terminate().unwrap();
}
