//! `orchestrator export --fmu`: the helicopter as one FMI 2.0 Co-Simulation FMU, imported back
//! into the orchestrator as a single instance, gives the same trajectory as `orchestrator run` on
//! the system itself: bit for bit at equal steps, at the common points when the outer step is
//! twice the inner one, with parameters set from outside, and (to the loop tolerance) when a
//! pilot input steps from outside. (FMPy and libcosim run it in tests/python/test_system_fmu.py.)

use crate::import_support;

use std::path::{Path, PathBuf};
use std::process::Command;

const STEP: f64 = 0.0019654088;

fn orchestrator(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "orchestrator {args:?}: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn helicopter() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/helicopter.json")
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Header and rows of a results CSV, values as written (compared as text: bit for bit).
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(|h| h.trim_matches('"').to_string()).collect();
    (header, lines.map(|l| l.split(',').map(str::to_string).collect()).collect())
}

/// Writes a system of the one system FMU `fmu` as instance `heli`, recording everything.
fn outer_system(dir: &Path, name: &str, fmu: &Path, step: f64, stop: f64, extra: &str) -> PathBuf {
    let path = dir.join(name);
    let json = format!(
        r#"{{ "fmus": {{ "heli": {{ "path": {fmu:?} {extra} }} }},
             "experiment": {{ "start": 0.0, "stop": {stop}, "step": {step} }},
             "outputs": ["heli.*"] }}"#
    );
    std::fs::write(&path, json).unwrap();
    path
}

/// Compares the outer run's columns (`heli.` + name) with the direct run at every `stride`-th
/// direct row; returns the largest difference relative to the column's largest magnitude (0 when
/// every value is the same text).
fn compare(outer: &Path, direct: &Path, stride: usize) -> f64 {
    let (outer_header, outer_rows) = read_csv(outer);
    let (direct_header, direct_rows) = read_csv(direct);
    assert_eq!(outer_rows.len(), (direct_rows.len() - 1).div_ceil(stride) + 1);
    let value = |row: &Vec<String>, j: usize| row[j].parse::<f64>().unwrap();
    let scale: Vec<f64> = (0..direct_header.len())
        .map(|j| direct_rows.iter().map(|r| value(r, j).abs()).fold(1e-300, f64::max))
        .collect();
    let mut worst: f64 = 0.0;
    for (k, row) in outer_rows.iter().enumerate() {
        let reference = &direct_rows[(k * stride).min(direct_rows.len() - 1)];
        assert_eq!(row[0], reference[0], "time of row {k}");
        for (j, name) in direct_header.iter().enumerate().skip(1) {
            let i = outer_header.iter().position(|h| *h == format!("heli.{name}")).unwrap();
            if row[i] != reference[j] {
                worst = worst.max((value(row, i) - value(reference, j)).abs() / scale[j]);
            }
        }
    }
    worst
}

#[test]
fn helicopter_fmu_equals_the_orchestrator_run() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("helicopter.fmu");
    let message = orchestrator(&["export", text(&helicopter()), "--fmu", text(&fmu)]);
    assert!(message.contains("4 FMUs inside; 0 parameters, 4 inputs, 47 outputs"), "{message}");

    let direct = dir.path().join("direct.csv");
    orchestrator(&["run", text(&helicopter()), "--stop", "0.1", "--out", text(&direct)]);

    // Same step: bit for bit.
    let outer = dir.path().join("outer.csv");
    let system = outer_system(dir.path(), "outer.json", &fmu, STEP, 0.1, "");
    orchestrator(&["run", text(&system), "--out", text(&outer)]);
    assert_eq!(compare(&outer, &direct, 1), 0.0);

    // Outer step twice the inner one: the same values at the common points (and at the stop
    // time, reached by a shorter last step on both sides).
    let outer = dir.path().join("outer2.csv");
    let system = outer_system(dir.path(), "outer2.json", &fmu, 2.0 * STEP, 0.1, "");
    orchestrator(&["run", text(&system), "--out", text(&outer)]);
    assert_eq!(compare(&outer, &direct, 2), 0.0);
}

/// The direct run's rows (time first) interpolated linearly in time to `t`.
fn interpolate(rows: &[Vec<f64>], t: f64) -> Vec<f64> {
    let k = rows.partition_point(|r| r[0] <= t).clamp(1, rows.len() - 1);
    let (a, b) = (&rows[k - 1], &rows[k]);
    let weight = (t - a[0]) / (b[0] - a[0]);
    a.iter().zip(b).map(|(a, b)| a + weight * (b - a)).collect()
}

/// At an outer step unrelated to the system's (5 ms against 1.9654088 ms) the system FMU stays on
/// its own grid: the outer run samples the orchestrator's trajectory, its rows interpolated to
/// the outer points (before, the outer points added short steps inside the system and drifted).
#[test]
fn an_unrelated_outer_step_samples_the_same_trajectory() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("helicopter.fmu");
    let message = orchestrator(&["export", text(&helicopter()), "--fmu", text(&fmu)]);
    // 1.9654088 ms is no whole number of nanoseconds: the export says what libcosim will use.
    assert!(message.contains("step at 1965409 ns"), "{message}");
    let direct = dir.path().join("direct.csv");
    orchestrator(&["run", text(&helicopter()), "--stop", "0.2", "--out", text(&direct)]);
    let outer = dir.path().join("outer.csv");
    let system = outer_system(dir.path(), "outer.json", &fmu, 0.005, 0.2, "");
    orchestrator(&["run", text(&system), "--out", text(&outer)]);

    let (direct_header, direct_rows) = read_csv(&direct);
    let parse = |rows: Vec<Vec<String>>| -> Vec<Vec<f64>> {
        rows.iter().map(|r| r.iter().map(|v| v.parse().unwrap()).collect()).collect()
    };
    let direct_rows = parse(direct_rows);
    let (outer_header, outer_rows) = read_csv(&outer);
    let outer_rows = parse(outer_rows);
    assert_eq!(outer_rows.len(), 41);
    let mut worst: f64 = 0.0;
    for (j, name) in direct_header.iter().enumerate().skip(1) {
        let i = outer_header.iter().position(|h| *h == format!("heli.{name}")).unwrap();
        let column = direct_rows.iter().map(|r| r[j]);
        let range = column.clone().fold(f64::MIN, f64::max) - column.fold(f64::MAX, f64::min);
        for row in &outer_rows {
            let expected = interpolate(&direct_rows, row[0])[j];
            worst = worst.max((row[i] - expected).abs() / range.max(1e-300));
        }
    }
    println!("outer step 5 ms: largest difference {worst:.1e} of the column's range");
    assert!(worst < 1e-12, "{worst:e}");
}

#[test]
fn parameters_and_inputs_set_from_outside() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("helicopter.fmu");
    let message = orchestrator(&["export", text(&helicopter()), "--fmu", text(&fmu), "--parameter", "fuselage.mass"]);
    assert!(message.contains("1 parameters, 4 inputs"), "{message}");

    // A parameter set on the outer FMU is the parameter of the inner one: bit for bit.
    let direct = dir.path().join("heavy.csv");
    orchestrator(&[
        "run",
        text(&helicopter()),
        "--stop",
        "0.06",
        "--set",
        "fuselage.mass=2300",
        "--out",
        text(&direct),
    ]);
    let outer = dir.path().join("outer-heavy.csv");
    let parameters = r#", "parameters": { "fuselage.mass": 2300.0 }"#;
    let system = outer_system(dir.path(), "heavy.json", &fmu, STEP, 0.06, parameters);
    orchestrator(&["run", text(&system), "--out", text(&outer)]);
    assert_eq!(compare(&outer, &direct, 1), 0.0);

    // A lateral-cyclic step driven from outside at 0.03 s, between two of the system's grid
    // points (the outer master lands on it), takes effect at the next grid point
    // (docs/system-fmu.md): it equals the same step as a signal inside the system at that grid
    // point. The system FMU solves the coupling again where the input changed, from the old
    // solution instead of the step's prediction, so the two agree to the Newton tolerance.
    let mut inner: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(helicopter()).unwrap()).unwrap();
    let step = serde_json::json!({ "step": { "time": 0.03, "before": -0.004635, "after": -0.014635 } });
    let next_grid_point = (0.03 / STEP).ceil() * STEP;
    let step_on_grid =
        serde_json::json!({ "step": { "time": next_grid_point, "before": -0.004635, "after": -0.014635 } });
    let inputs = inner["inputs"].as_array_mut().unwrap();
    let lateral = inputs.iter_mut().find(|i| i["to"] == "controls.lat_cyclic").unwrap();
    lateral["signal"] = step_on_grid;
    let stepped = dir.path().join("stepped.json");
    std::fs::write(&stepped, serde_json::to_string(&inner).unwrap()).unwrap();
    let direct = dir.path().join("stepped.csv");
    orchestrator(&["run", text(&stepped), "--stop", "0.1", "--out", text(&direct)]);

    let system = dir.path().join("outer-stepped.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "heli": {{ "path": {fmu:?} }} }},
                 "experiment": {{ "start": 0.0, "stop": 0.1, "step": {STEP} }},
                 "inputs": [ {{ "to": "heli.controls.lat_cyclic", "signal": {step} }} ],
                 "outputs": ["heli.*"] }}"#
        ),
    )
    .unwrap();
    let outer = dir.path().join("outer-stepped.csv");
    orchestrator(&["run", text(&system), "--out", text(&outer)]);
    let worst = compare(&outer, &direct, 1);
    println!("lateral-cyclic step from outside vs inside: largest relative difference {worst:.1e}");
    assert!(worst < 1e-9, "{worst:e}");
    // ... and the step did move the helicopter: roll rate at 0.1 s differs from the trim run.
    let (header, rows) = read_csv(&outer);
    let p = header.iter().position(|h| h == "heli.fuselage.p").unwrap();
    let roll_rate: f64 = rows.last().unwrap()[p].parse().unwrap();
    assert!(roll_rate.abs() > 1e-3, "roll rate {roll_rate}");
}

#[test]
fn export_names_what_it_cannot_expose() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("x.fmu");
    let out = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .args(["export", text(&helicopter()), "--fmu", text(&fmu), "--input", "rotor.hub.F.*"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--input 'rotor.hub.F.*' matches no input"), "{stderr}");
    assert!(!fmu.exists());
}

/// Runs `system` expecting failure; returns stderr.
fn failing_run(system: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .arg("run")
        .arg(system)
        .output()
        .unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn inner_failures_name_the_inner_instance() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("helicopter.fmu");
    orchestrator(&["export", text(&helicopter()), "--fmu", text(&fmu), "--parameter", "fuselage.mass"]);

    // A bad parameter from outside: the inner Fuselage refuses it, and the message says so.
    let system = outer_system(dir.path(), "bad.json", &fmu, STEP, 0.01, r#", "parameters": { "fuselage.mass": -5.0 }"#);
    let stderr = failing_run(&system);
    assert!(stderr.contains("fuselage") && stderr.contains("mass"), "{stderr}");

    // An archive whose interface does not belong to its model description is refused at
    // instantiation, naming both GUIDs.
    let tampered = dir.path().join("tampered.fmu");
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&fmu).unwrap()).unwrap();
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&tampered).unwrap());
    for k in 0..archive.len() {
        let mut entry = archive.by_index(k).unwrap();
        let name = entry.name().unwrap().to_string();
        let options = zip::write::SimpleFileOptions::default().unix_permissions(entry.unix_mode().unwrap_or(0o644));
        if entry.is_dir() {
            writer.add_directory(name, options).unwrap();
            continue;
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut bytes).unwrap();
        if name == "resources/container.json" {
            let mut interface: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            interface["guid"] = "{00000000-0000-0000-0000-000000000000}".into();
            bytes = serde_json::to_vec(&interface).unwrap();
        }
        writer.start_file(name, options).unwrap();
        std::io::Write::write_all(&mut writer, &bytes).unwrap();
    }
    writer.finish().unwrap();
    let system = outer_system(dir.path(), "tampered.json", &tampered, STEP, 0.01, "");
    let stderr = failing_run(&system);
    assert!(stderr.contains("does not match '{00000000-0000-0000-0000-000000000000}'"), "{stderr}");
}

#[test]
fn input_derivatives_reach_the_inner_fmus() {
    // A sine on the lateral cyclic: inside the system (the reference), and from outside with and
    // without input derivatives (the outer master's `extrapolate_inputs`).
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("helicopter.fmu");
    orchestrator(&["export", text(&helicopter()), "--fmu", text(&fmu)]);
    let description = std::fs::read_to_string(helicopter()).unwrap();
    let mut inner: serde_json::Value = serde_json::from_str(&description).unwrap();
    let sine =
        serde_json::json!({ "sine": { "amplitude": 0.01, "frequency": 2.0, "phase": 0.0, "offset": -0.004635 } });
    let inputs = inner["inputs"].as_array_mut().unwrap();
    inputs.iter_mut().find(|i| i["to"] == "controls.lat_cyclic").unwrap()["signal"] = sine.clone();
    let system = dir.path().join("sine.json");
    std::fs::write(&system, inner.to_string()).unwrap();
    let direct = dir.path().join("sine.csv");
    orchestrator(&["run", text(&system), "--stop", "0.2", "--out", text(&direct)]);

    let mut worst = Vec::new();
    for (name, master) in [("with", r#"{ "extrapolate_inputs": true, "extrapolation_order": 2 }"#), ("without", "{}")] {
        let system = dir.path().join(format!("outer-{name}.json"));
        std::fs::write(
            &system,
            format!(
                r#"{{ "fmus": {{ "heli": {{ "path": {fmu:?} }} }},
                     "experiment": {{ "start": 0.0, "stop": 0.2, "step": {STEP} }}, "master": {master},
                     "inputs": [ {{ "to": "heli.controls.lat_cyclic", "signal": {sine} }} ],
                     "outputs": ["heli.*"] }}"#
            ),
        )
        .unwrap();
        let outer = dir.path().join(format!("outer-{name}.csv"));
        orchestrator(&["run", text(&system), "--out", text(&outer)]);
        worst.push(compare(&outer, &direct, 1));
    }
    println!("sine input from outside vs inside, with derivatives {:.1e}, held {:.1e}", worst[0], worst[1]);
    // With derivatives the input follows its Taylor polynomial over each step (an O(h^3) error
    // that the redone first step carries on); held, it lags a step.
    assert!(worst[0] < 1e-6 && worst[1] > 1e-4, "{worst:?}");
}

/// An inner FMU that ends the simulation (PythonFMU: a refused step is `fmi2Discard` with
/// `fmi2Terminated`) ends the outer FMU's simulation the same way: the outer `fmi2DoStep` returns
/// `fmi2Discard`, `fmi2Terminated` is true, and the importer (here the orchestrator) stops
/// cleanly at the last communication point with the rows so far.
#[test]
fn an_inner_fmu_ending_the_simulation_ends_the_outer_one() {
    let (dir, refuser) = import_support::build_with_pythonfmu("Refuser", import_support::REFUSER_PY);
    let inner = dir.path().join("refusing.json");
    std::fs::write(
        &inner,
        format!(
            r#"{{ "fmus": {{ "refuser": {{ "path": {refuser:?} }} }}, "experiment": {{ "stop": 1.0, "step": 0.1 }},
                 "outputs": ["refuser.y"] }}"#
        ),
    )
    .unwrap();
    let fmu = dir.path().join("refusing.fmu");
    orchestrator(&["export", text(&inner), "--fmu", text(&fmu)]);
    let system = outer_system(dir.path(), "outer.json", &fmu, 0.1, 1.0, "");
    let csv = dir.path().join("outer.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .args(["run", text(&system), "--out", text(&csv)])
        .env("ROTORCRAFT_PYTHON", import_support::python())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("instance 'heli' terminated the simulation at t = 0.2 s"), "{stderr}");
    let (_, rows) = read_csv(&csv);
    let times: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(times, ["0.0", "0.1", "0.2"]);
}

/// The system FMU's description, written through the model-description schema
/// (`fmi2_types::model_description`), parses back into the same types, which write the same bytes.
#[test]
fn the_description_round_trips_through_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("helicopter.fmu");
    orchestrator(&["export", text(&helicopter()), "--fmu", text(&fmu), "--parameter", "fuselage.mass"]);
    let written = import_support::description_text(&fmu);
    let document = import_support::parse_write_parse(&written);
    assert_eq!(document.to_xml(), written);
    assert!(!document.unit_definitions.is_empty(), "the helicopter's units are declared");
    assert_eq!(document.model_structure.outputs.len(), document.model_structure.initial_unknowns.len());
}
