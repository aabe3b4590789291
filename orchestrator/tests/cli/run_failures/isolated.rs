//! Isolated instances (`--isolate`): a crash, an exit or a hang is an ordinary error.

use super::*;

#[test]
fn isolated_runs_give_the_same_results_bit_for_bit() {
    let case = Case::new(r#""sleep_ms": 0"#, r#"{ "stop": 1, "step": 0.05 }"#);
    let (status, _, stderr, _) = wait(case.start("in-process.csv", &[]), Duration::from_secs(30));
    assert!(status.success(), "{stderr}");
    let (status, _, stderr, _) = wait(case.start("isolated.csv", &["--isolate"]), Duration::from_secs(30));
    assert!(status.success(), "{stderr}");
    let read = |name: &str| std::fs::read(case.path(name)).unwrap();
    assert_eq!(csv_rows(&case.path("isolated.csv")).len(), 21);
    assert!(read("in-process.csv") == read("isolated.csv"), "the CSV files differ");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));

    // The coupled helicopter (five instances, an algebraic loop solved by Newton with directional
    // derivatives, FMU states saved every step), all isolated.
    let example = std::fs::read_to_string(import_support::workspace_root().join("examples/helicopter.json")).unwrap();
    let mut text = example.clone();
    for model in ["Fuselage", "Rotor", "Aero", "Controls"] {
        let path = import_support::packaged_fmu(model);
        text = text.replace(&format!(r#""model": "{model}""#), &format!(r#""path": {path:?}"#));
    }
    assert_ne!(text, example);
    std::fs::write(case.path("system.json"), text).unwrap();
    let csv = |name: &str, extra: &[&str]| {
        let mut args = vec!["--stop", "0.05", "--output", "fuselage.*", "--output", "rotor.*"];
        args.extend_from_slice(extra);
        let (status, _, stderr, _) = wait(case.start(name, &args), Duration::from_secs(60));
        assert!(status.success(), "{stderr}");
        std::fs::read(case.path(name)).unwrap()
    };
    let (in_process, isolated) = (csv("heli.csv", &[]), csv("heli-isolated.csv", &["--isolate"]));
    assert!(in_process.len() > 1000 && in_process == isolated, "the helicopter CSV files differ");
    // Two threads against one, in process and isolated.
    assert!(csv("heli-2.csv", &["--threads", "2"]) == in_process, "two threads differ from one");
    assert!(csv("heli-isolated-2.csv", &["--isolate", "--threads", "2"]) == isolated, "isolated: two threads differ");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
}

/// Runs `Slow` isolated with `mode` from t = 0.3 (steps of 0.1 s): the run ends with an error
/// naming how the child ended, rows 0 ... 0.3 kept, summary written, nothing left behind.
fn isolated_failure(mode: u32, how: &str) {
    let case =
        Case::new(&format!(r#""mode": {mode}, "fail_at": 0.3, "sleep_ms": 0"#), r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, _) = wait(case.start("results.csv", &["--isolate"]), Duration::from_secs(30));
    assert_eq!(status.code(), Some(1), "an ordinary error: {status:?}\n{stderr}");
    let expected = format!("instance 'slow': the isolated FMU process {how} during fmi2DoStep at t = 0.3 s");
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(!stderr.contains("fatal signal"), "this process did not crash: {stderr}");
    assert!(
        stderr.contains("results so far:") && stderr.contains("(4 rows, to t = 0.30000000000000004 s)"),
        "{stderr}"
    );
    let rows = csv_rows(&case.path("results.csv"));
    assert_eq!(rows.len(), 4, "rows 0 ... 0.3: {rows:?}");
    let summary = case.summary();
    assert!(summary["error"].as_str().unwrap().contains(&expected), "{summary}");
    assert_eq!(summary["rows_written"], 4, "{summary}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}

#[test]
fn an_isolated_segfault_is_an_error_naming_the_call() {
    isolated_failure(1, "died of SIGSEGV");
}

#[test]
fn an_isolated_abort_is_an_error_naming_the_call() {
    isolated_failure(2, "died of SIGABRT");
}

#[test]
fn an_isolated_exit_is_an_error_naming_the_call() {
    isolated_failure(5, "exited with status 3");
}

#[test]
fn an_isolated_hanging_call_is_killed_after_the_timeout() {
    // 10 ms steps of 0.1 s; the step from t = 0.5 never returns.
    let case = Case::new(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, elapsed) =
        wait(case.start("results.csv", &["--isolate", "--fmu-timeout", "1"]), Duration::from_secs(20));
    assert_eq!(status.code(), Some(1), "an ordinary error, not the watchdog's exit 124: {stderr}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    let expected = "instance 'slow': fmi2DoStep at t = 0.5 s did not return within --fmu-timeout 1 s; its isolated \
                    process was killed";
    assert!(stderr.contains(expected), "{stderr}");
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6, "rows 0 ... 0.5");
    let summary = case.summary();
    assert!(summary["error"].as_str().unwrap().contains(expected), "{summary}");
    assert_eq!(summary["rows_written"], 6, "{summary}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    // The spinning child was killed, not left running.
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}

/// One Ctrl-C (SIGINT to the process group, which the children ignore) during an isolated call
/// that never returns: the child is killed after the grace second, the run ends as interrupted
/// with its rows and summary.
#[test]
fn sigint_during_a_hanging_isolated_call_kills_the_child() {
    use std::os::unix::process::CommandExt;
    // 10 ms steps of 0.1 s; the step from t = 0.5 never returns.
    let case = Case::new(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let child = case.command("results.csv", &["--isolate"]).process_group(0).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Instant::now();
    let group = format!("-{}", child.id());
    assert!(Command::new("kill").arg("-INT").arg("--").arg(group).status().unwrap().success());
    let (status, _, stderr, _) = wait(child, Duration::from_secs(20));
    assert!(sent.elapsed() < Duration::from_secs(4), "ended {:?} after the signal", sent.elapsed());
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("fmi2DoStep at t = 0.5 s was interrupted by SIGINT; its isolated process was killed"),
        "{stderr}"
    );
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6, "rows 0 ... 0.5");
    let summary = case.summary();
    assert!(summary["stop_reason"].as_str().unwrap().starts_with("interrupted by SIGINT at t = 0.5"), "{summary}");
    assert_eq!(summary["rows_written"], 6, "{summary}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}
