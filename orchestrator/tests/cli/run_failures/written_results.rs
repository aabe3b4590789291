//! Results are written as they are computed, and on every way the run ends.

use super::*;

#[test]
fn csv_rows_reach_the_file_while_the_run_goes() {
    // 10 ms per step, 100 s of steps: the run would take 100 s.
    let case = Case::new("", r#"{ "stop": 100, "step": 0.01 }"#);
    let child = case.start("results.csv", &[]);
    std::thread::sleep(Duration::from_millis(2500));
    // Rows computed more than a second ago are on disk while the process still runs.
    let during = csv_rows(&case.path("results.csv"));
    send(&child, "KILL");
    let (status, ..) = wait(child, Duration::from_secs(10));
    assert!(!status.success());
    assert!(during.len() >= 50, "after 2.5 s at most 1 s of rows may be buffered: {} rows", during.len());
    // Killed outright: still a valid CSV, cut at a row boundary or within the last row only.
    let csv = std::fs::read_to_string(case.path("results.csv")).unwrap();
    let complete = &csv[..csv.rfind('\n').unwrap() + 1];
    let rows = complete.lines().count() - 1;
    assert!(rows >= during.len(), "{rows} rows after the kill, {} before", during.len());
}

#[test]
fn a_failing_run_keeps_its_rows_and_says_why() {
    // fmi2Error from the step at t = 0.3 (step 0.1): rows 0 ... 0.3 are kept.
    for out in ["results.csv", "results.mat"] {
        let case = Case::new(r#""mode": 4, "fail_at": 0.3, "sleep_ms": 0"#, r#"{ "stop": 10, "step": 0.1 }"#);
        let (status, _, stderr, _) = wait(case.start(out, &[]), Duration::from_secs(30));
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("fmi2DoStep") && stderr.contains("the solver gave up at t = 0.3"), "{stderr}");
        assert!(
            stderr.contains("results so far:") && stderr.contains("(4 rows, to t = 0.30000000000000004 s)"),
            "{stderr}"
        );
        let summary = case.summary();
        let error = summary["error"].as_str().unwrap();
        assert!(error.contains("fmi2DoStep"), "{summary}");
        assert!(summary["stop_reason"].as_str().unwrap().contains("fmi2DoStep"), "{summary}");
        assert_eq!(summary["rows_written"], 4, "{summary}");
        if out.ends_with(".csv") {
            let rows = csv_rows(&case.path(out));
            assert_eq!(rows.len(), 4);
            assert!(case.path("results.units.csv").is_file());
        } else {
            // MAT v4: the data_2 matrix has one column per communication point.
            let bytes = std::fs::read(case.path(out)).unwrap();
            let at = bytes.windows(7).position(|w| w == b"data_2\0").expect("a data_2 matrix");
            let columns = i32::from_le_bytes(bytes[at - 12..at - 8].try_into().unwrap());
            assert_eq!(columns, 4, "rows 0, 0.1, 0.2, 0.3");
        }
        assert!(case.leftovers().is_empty(), "{:?}", case.leftovers());
    }
}
