//! An FMU that terminates the simulation ends the run cleanly.

use super::*;

/// The run ends at the FMU's last successful time and records it there, as FMPy does
/// (`simulate_fmu` samples at `fmi2LastSuccessfulTime` after a terminating discard): rows at 0,
/// 0.1, 0.2, 0.3 and 0.35 s, compared with FMPy's on the same FMU. The summary counts the four
/// steps taken, not the ten planned.
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

    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), r#""time","ball.time","ball.count""#);
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
    let fmpy = fmpy_ball(&fmu);
    assert_eq!(rows.len(), fmpy.len(), "ours: {csv}\nFMPy: {fmpy:?}");
    for (ours, theirs) in rows.iter().zip(&fmpy) {
        assert!((ours[0] - theirs[0]).abs() < 1e-12 && ours[2] == theirs[1], "ours: {csv}\nFMPy: {fmpy:?}");
    }
    assert_eq!(rows.last().unwrap(), &[0.35, 0.35, 3.0], "{csv}");

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop_reason"], message);
    assert_eq!(summary["steps"], 4, "{summary}");
    assert!((summary["simulated_seconds"].as_f64().unwrap() - 0.35).abs() < 1e-12, "{summary}");
}

/// FMPy's `simulate_fmu` of the Ball `fmu` to 1 s with output interval 0.1 s: (time, count) rows.
fn fmpy_ball(fmu: &Path) -> Vec<[f64; 2]> {
    let script = format!(
        "import fmpy\n\
         r = fmpy.simulate_fmu({:?}, stop_time=1.0, output_interval=0.1, output=['count'])\n\
         for row in r: print(row[0], row[1])\n",
        fmu.display().to_string()
    );
    let out = Command::new(import_support::python()).arg("-c").arg(script).output().unwrap();
    assert!(out.status.success(), "FMPy failed: {}", text(&out.stderr));
    // FMPy prints the FMU's log messages on stdout too: the rows are the lines of two numbers.
    text(&out.stdout)
        .lines()
        .filter_map(|l| match l.split_whitespace().map(str::parse).collect::<Result<Vec<f64>, _>>() {
            Ok(v) if v.len() == 2 => Some([v[0], v[1]]),
            _ => None,
        })
        .collect()
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
