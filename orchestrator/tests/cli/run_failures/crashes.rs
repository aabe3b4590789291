//! A crashing FMU is named before the process dies; an FMI call that never returns; the same
//! with two instances stepped on two threads (`--threads 2`).

use super::*;

fn crash(mode: u32, signal: i32, name: &str) {
    // 0.1 s per step of 0.05 s: the crash in the step from t = 0.3 comes after about 0.7 s, before
    // the writer thread's first flush (at one second); the crash path writes the rows computed.
    let case =
        Case::new(&format!(r#""mode": {mode}, "fail_at": 0.3, "sleep_ms": 100"#), r#"{ "stop": 10, "step": 0.05 }"#);
    let (status, _, stderr, _) = wait(case.start("results.csv", &[]), Duration::from_secs(30));
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(signal), "the process dies of the signal: {status:?}\n{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("fatal signal")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with(&format!("fatal signal {name} in instance 'slow' during fmi2DoStep at t = 0.3 s;")),
        "{stderr}"
    );
    let rows = csv_rows(&case.path("results.csv"));
    assert_eq!(rows.len(), 7, "every row computed, 0 ... 0.3: {rows:?}");
}

#[test]
fn a_segfaulting_fmu_is_named() {
    crash(1, 11, "SIGSEGV");
}

#[test]
fn an_aborting_fmu_is_named() {
    crash(2, 6, "SIGABRT");
}

/// An FMU that calls `exit()` ends the process with its status, but not silently: a line names the
/// call, the CSV keeps every row computed and the summary says how the run ended.
#[test]
fn an_exiting_fmu_is_named_and_the_results_kept() {
    // As in `crash`: the exit comes before the writer thread's first flush.
    let case = Case::new(r#""mode": 5, "fail_at": 0.3, "sleep_ms": 100"#, r#"{ "stop": 10, "step": 0.05 }"#);
    let (status, _, stderr, _) = wait(case.start("results.csv", &[]), Duration::from_secs(30));
    assert_eq!(status.code(), Some(3), "the FMU's exit status: {stderr}");
    let expected = "error: instance 'slow' called exit() during fmi2DoStep at t = 0.3 s";
    assert!(stderr.contains(expected), "{stderr}");
    let rows = csv_rows(&case.path("results.csv"));
    assert_eq!(rows.len(), 7, "every row computed, 0 ... 0.3: {rows:?}");
    let summary = case.summary();
    assert!(summary["error"].as_str().unwrap().contains("called exit() during fmi2DoStep at t = 0.3 s"), "{summary}");
    assert_eq!(summary["rows_written"], 7, "{summary}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
}

// ---------------------------------------------------------------------------------------------
// An FMI call that never returns.

#[test]
fn a_hanging_fmu_call_ends_the_process_after_the_timeout() {
    // 10 ms steps of 0.1 s; the step from t = 0.5 never returns.
    let case = Case::new(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, elapsed) =
        wait(case.start("results.csv", &["--fmu-timeout", "1"]), Duration::from_secs(20));
    assert_eq!(status.code(), Some(124), "{stderr}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    assert!(
        stderr.contains("error: instance 'slow': fmi2DoStep at t = 0.5 s did not return within --fmu-timeout 1 s"),
        "{stderr}"
    );
    // The watchdog flushed the rows computed before the hang: 0 ... 0.5.
    let rows = csv_rows(&case.path("results.csv"));
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());

    // Without the option a normal run is not affected; a zero or negative limit is refused.
    let case = Case::new("", r#"{ "stop": 0.5, "step": 0.1 }"#);
    let (status, _, stderr, _) = wait(case.start("results.csv", &["--fmu-timeout", "5"]), Duration::from_secs(20));
    assert!(status.success(), "{stderr}");
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6);
    for limit in ["0", "-1"] {
        let (status, _, stderr, _) =
            wait(case.start("results.csv", &["--fmu-timeout", limit]), Duration::from_secs(20));
        let expected = format!("--fmu-timeout {limit}: expected a positive number");
        assert!(!status.success() && stderr.contains(&expected), "{stderr}");
    }
}

// ---------------------------------------------------------------------------------------------
// Two instances stepped on two threads (`--threads 2`).

/// [`Case::new`] with instance `slow` given `parameters` after a second instance, `other`, that
/// runs normally. Both sleep 1 ms per step, so their steps are shared between the two threads
/// (`other` on the calling thread, `slow` on the worker).
fn two_instances(parameters: &str, experiment: &str) -> Case {
    let case = Case::new("", experiment);
    let fmu = case.path("Slow.fmu");
    std::fs::write(
        case.path("system.json"),
        format!(
            r#"{{ "fmus": {{ "other": {{ "path": {fmu:?}, "parameters": {{ "sleep_ms": 1 }} }},
                          "slow": {{ "path": {fmu:?}, "parameters": {{ "sleep_ms": 1, {parameters} }} }} }},
                 "experiment": {experiment},
                 "outputs": ["slow.time", "slow.count"] }}"#
        ),
    )
    .unwrap();
    case
}

#[test]
fn an_error_in_a_worker_thread_is_reported_as_on_one_thread() {
    // fmi2Error from slow's step at t = 0.3: the same error, naming slow, and the same rows.
    let case = two_instances(r#""mode": 4, "fail_at": 0.3"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let mut ends = Vec::new();
    for threads in ["1", "2"] {
        let (status, _, stderr, _) =
            wait(case.start(&format!("t{threads}.csv"), &["--threads", threads]), Duration::from_secs(30));
        assert_eq!(status.code(), Some(1), "{stderr}");
        let error = stderr.lines().find(|l| l.starts_with("error:")).unwrap_or_else(|| panic!("{stderr}")).to_string();
        assert!(
            error.ends_with("failed: slow: fmi2DoStep returned fmi2Error: the solver gave up at t = 0.3"),
            "{stderr}"
        );
        assert!(stderr.contains("the solver gave up at t = 0.3"), "{stderr}");
        ends.push((error, std::fs::read(case.path(&format!("t{threads}.csv"))).unwrap()));
    }
    assert_eq!(ends[0].0, ends[1].0);
    assert!(ends[0].1 == ends[1].1, "the CSV files differ");
    assert_eq!(csv_rows(&case.path("t2.csv")).len(), 4);
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
}

#[test]
fn a_hanging_call_in_a_worker_thread_ends_the_process_after_the_timeout() {
    // slow's step from t = 0.5 never returns while other's calls come and go on the other thread.
    let case = two_instances(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, elapsed) =
        wait(case.start("results.csv", &["--threads", "2", "--fmu-timeout", "1"]), Duration::from_secs(20));
    assert_eq!(status.code(), Some(124), "{stderr}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    assert!(
        stderr.contains("error: instance 'slow': fmi2DoStep at t = 0.5 s did not return within --fmu-timeout 1 s"),
        "{stderr}"
    );
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6);
}
