//! The `orchestrator` command line: `run` writes the CSV with the FMPy-style header and the
//! summary JSON; bad input exits with a clear message and no panic; `inspect` lists variables.

mod common;

use std::process::Command;

fn orchestrator() -> Command {
    Command::new(env!("CARGO_BIN_EXE_orchestrator"))
}

#[test]
fn run_writes_results_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let fuselage = common::our_fmu("Fuselage");
    let system = dir.path().join("system.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?} }} }},
                 "experiment": {{ "stop": 1.0, "step": 0.1 }},
                 "outputs": ["fuselage.z", "fuselage.w"] }}"#
        ),
    )
    .unwrap();
    let (csv, summary) = (dir.path().join("r.csv"), dir.path().join("s.json"));
    let out = orchestrator()
        .arg("run")
        .arg(&system)
        .arg("--out")
        .arg(&csv)
        .arg("--summary-json")
        .arg(&summary)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("real-time factor") && stdout.contains("steps: 10"), "{stdout}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), r#""time","fuselage.z","fuselage.w""#);
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 11);
    // Free fall from rest with default g: z = g t^2 / 2.
    let last = rows.last().unwrap();
    assert_eq!(last[0], 1.0);
    assert!((last[1] - 0.5 * 9.80665).abs() < 1e-9, "{last:?}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["steps"], 10);
    assert_eq!(json["simulated_seconds"], 1.0);
    assert!(json["real_time_factor"].as_f64().unwrap() > 0.0);
}

#[test]
fn unknown_variable_is_a_clear_error_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let fuselage = common::our_fmu("Fuselage");
    let system = dir.path().join("bad.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?} }} }},
                 "experiment": {{ "stop": 1.0, "step": 0.1 }},
                 "inputs": [ {{ "to": "fuselage.hub.F.q", "signal": {{ "constant": 1.0 }} }} ] }}"#
        ),
    )
    .unwrap();
    let csv = dir.path().join("r.csv");
    let out = orchestrator().arg("run").arg(&system).arg("--out").arg(&csv).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("inputs[0].to") && stderr.contains("hub.F.q"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!csv.exists(), "nothing is written for a rejected system");
}

#[test]
fn hostile_fmu_is_refused_by_inspect_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("evil.fmu");
    {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&fmu).unwrap());
        zip.start_file("../escaped.txt", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(b"gotcha").unwrap();
        zip.finish().unwrap();
    }
    for args in [vec!["inspect".to_string()], vec!["run".to_string()]] {
        let target = if args[0] == "run" {
            let system = dir.path().join("s.json");
            std::fs::write(
                &system,
                r#"{ "fmus": { "x": { "path": "evil.fmu" } }, "experiment": { "stop": 1, "step": 0.1 } }"#,
            )
            .unwrap();
            system
        } else {
            fmu.clone()
        };
        let out = orchestrator().args(&args).arg(&target).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} accepted a hostile archive");
        assert!(stderr.contains("escaped.txt") && !stderr.contains("panicked"), "{stderr}");
    }
    assert!(!dir.path().parent().unwrap().join("escaped.txt").exists());
}

#[test]
fn inspect_lists_variables() {
    let out = orchestrator().arg("inspect").arg(common::our_fmu("Fuselage")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("hub.acc.z") && text.contains("providesDirectionalDerivative"), "{text}");
}

#[test]
fn run_draws_a_plot_of_the_recorded_variables() {
    let dir = tempfile::tempdir().unwrap();
    let fuselage = common::our_fmu("Fuselage");
    let system = dir.path().join("system.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?} }} }},
                 "experiment": {{ "stop": 1.0, "step": 0.1 }},
                 "outputs": ["fuselage.z", "fuselage.w"] }}"#
        ),
    )
    .unwrap();
    let svg = dir.path().join("plot.svg");
    let out = orchestrator()
        .arg("run")
        .arg(&system)
        .arg("--out")
        .arg(dir.path().join("r.csv"))
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("fuselage.z") && text.contains("fuselage.w"));
    assert!(text.contains("<polyline"), "a line series is drawn");
}
