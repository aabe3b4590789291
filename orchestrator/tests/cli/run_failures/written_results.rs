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

/// The peak resident memory (`VmHWM`, bytes) of `child`, read from /proc until it exits; with its
/// exit status and stderr.
fn peak_memory(mut child: Child) -> (u64, ExitStatus, String) {
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        // Read before asking whether it exited: a zombie has no VmHWM any more.
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
            peak = peak.max(kib * 1024);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    (peak, status, stderr)
}

/// A run streamed to CSV keeps no rows in memory: the Fuselage alone (77 columns) for 200 000
/// steps (123 MB of rows as f64) peaks within 24 MB of the same for 1 000 steps. What may grow is
/// the CSV stream's queue when stepping outpaces formatting: at most 2^20 values waiting plus as
/// many in the writer thread's hands, 16 MB.
#[test]
fn the_memory_of_a_csv_run_stays_flat() {
    let case = Case::new("", r#"{ "stop": 1, "step": 0.1 }"#);
    let fuselage = crate::common::our_fmu("Fuselage");
    std::fs::write(
        case.path("system.json"),
        format!(r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?} }} }}, "experiment": {{ "stop": 1, "step": 0.001 }} }}"#),
    )
    .unwrap();
    let mut peaks = Vec::new();
    for stop in ["1", "200"] {
        let (peak, status, stderr) = peak_memory(case.start("results.csv", &["--stop", stop]));
        assert!(status.success(), "{stderr}");
        peaks.push(peak);
    }
    let rows = std::fs::read_to_string(case.path("results.csv")).unwrap().lines().count() - 1;
    assert_eq!(rows, 200_001);
    let grown = peaks[1].saturating_sub(peaks[0]);
    assert!(grown < 24 << 20, "peak memory {} MB for 1 000 steps, {} MB for 200 000", peaks[0] >> 20, peaks[1] >> 20);
}
