//! Ctrl-C and SIGTERM stop the run cleanly.

use super::*;

/// Sends signal `name` after a second of a long run, to the process, or, with `isolate`, to the
/// process group of the run and its `fmu-host` children (as Ctrl-C in a terminal does).
fn interrupt(expected_code: i32, name: &str, isolate: bool) {
    let case = Case::new("", r#"{ "stop": 100, "step": 0.01 }"#);
    let child = if isolate {
        use std::os::unix::process::CommandExt;
        case.command("results.csv", &["--isolate"]).process_group(0).spawn().unwrap()
    } else {
        case.start("results.csv", &[])
    };
    std::thread::sleep(Duration::from_millis(1000));
    let sent = Instant::now();
    if isolate {
        let group = format!("-{}", child.id());
        let signal = format!("-{}", name.trim_start_matches("SIG"));
        let status = Command::new("kill").arg(signal).arg("--").arg(group).status().unwrap();
        assert!(status.success());
    } else {
        send(&child, name.trim_start_matches("SIG"));
    }
    let (status, _, stderr, _) = wait(child, Duration::from_secs(20));
    assert!(sent.elapsed() < Duration::from_secs(3), "stopped within one step of the signal");
    assert_eq!(status.code(), Some(expected_code), "{stderr}");
    assert!(stderr.contains(&format!("{name} received")), "{stderr}");
    assert!(stderr.contains(&format!("interrupted by {name} at t = ")), "{stderr}");
    let rows = csv_rows(&case.path("results.csv"));
    assert!(rows.len() >= 20, "about 1 s of 10 ms steps: {} rows", rows.len());
    let summary = case.summary();
    assert!(summary["stop_reason"].as_str().unwrap().starts_with(&format!("interrupted by {name}")), "{summary}");
    assert_eq!(summary["rows_written"], rows.len(), "{summary}");
    // The FMU's extraction folder (a TempDir in TMPDIR) was removed.
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}

#[test]
fn sigint_stops_the_run_cleanly() {
    interrupt(130, "SIGINT", false);
}

#[test]
fn sigterm_stops_the_run_cleanly() {
    interrupt(143, "SIGTERM", false);
}

#[test]
fn sigint_to_the_process_group_stops_an_isolated_run_cleanly() {
    // The children ignore it; the run stops after the step in progress and ends them.
    interrupt(130, "SIGINT", true);
}
