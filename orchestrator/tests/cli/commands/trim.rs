//! `trim`, the built-in helicopter run and its command-line scenario, every example, and
//! `sweep`: what each writes, and the refusals before anything is written.

use super::*;

/// `helicopter.json` with its FMUs named by absolute paths to the packaged FMUs, written into `dir`.
pub(super) fn helicopter_json(dir: &std::path::Path) -> std::path::PathBuf {
    let example = test_fmus::fixtures::example_path("helicopter.json");
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    for (_, fmu) in json["fmus"].as_object_mut().unwrap() {
        let fmu = fmu.as_object_mut().unwrap();
        let model = fmu.remove("model").unwrap();
        fmu.insert(
            "path".into(),
            serde_json::json!(common::fmu_dir().join(format!("{}.fmu", model.as_str().unwrap()))),
        );
    }
    let path = dir.join("helicopter.json");
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    path
}

#[test]
fn trim_writes_a_system_that_runs_from_the_trim() {
    let dir = tempfile::tempdir().unwrap();
    let system = helicopter_json(dir.path());
    let (trimmed, summary) = (dir.path().join("sub/trimmed.json"), dir.path().join("trim.json"));
    std::fs::create_dir_all(dir.path().join("sub")).unwrap();
    let out = orchestrator()
        .args(["trim", system.to_str().unwrap(), "--speed", "20", "--out", trimmed.to_str().unwrap()])
        .args(["--summary-json", summary.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("level flight at 20 m/s") && stdout.contains("converged"), "{stdout}");
    let trim: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(trim["converged"], true);
    assert!(trim["residual_max"].as_f64().unwrap() < trim["tolerance"].as_f64().unwrap());
    let u_trim = trim["body_velocity_m_per_s"]["u"].as_f64().unwrap();
    let theta_trim = trim["attitude_rad"]["theta"].as_f64().unwrap();
    assert!((u_trim - 20.0 * theta_trim.cos()).abs() < 1e-12);

    // The trimmed system (written elsewhere: its FMU paths are absolute) flies level at 20 m/s.
    let csv = dir.path().join("r.csv");
    succeeds(orchestrator().args(["run", trimmed.to_str().unwrap(), "--out", csv.to_str().unwrap()]));
    let (u, theta) = (csv_column(&csv, "fuselage.u"), csv_column(&csv, "fuselage.theta"));
    assert!((u[0] - u_trim).abs() < 1e-12 && (theta[0] - theta_trim).abs() < 1e-12);
    let drift = u.iter().map(|v| (v - u[0]).abs()).fold(0.0, f64::max);
    let pitch = theta.iter().map(|v| (v - theta[0]).abs()).fold(0.0, f64::max);
    eprintln!("free flight from the 20 m/s trim, 3 s: |du| {drift:.2e} m/s, |dtheta| {pitch:.2e} rad");
    // Residual below 1e-3 m/s^2 and rad/s^2 over 3 s: a few 1e-3 without the forward-flight
    // modes, which may amplify it several times over 3 s. Bound 0.05.
    assert!(drift < 0.05 && pitch < 0.05, "{drift} {pitch}");
}

#[test]
fn trim_without_a_trim_section_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let system = fuselage_system(dir.path(), "s.json", "");
    let out = orchestrator().arg("trim").arg(&system).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("no 'trim' section") && !stderr.contains("panicked"), "{stderr}");
}

#[test]
fn run_without_arguments_trims_and_flies_the_built_in_helicopter() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let out = orchestrator().args(["run", "--out-dir", out_dir.to_str().unwrap()]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("trim (hover): converged") && stdout.contains("real-time factor"), "{stdout}");
    for file in ["results.csv", "plot.svg", "trim.json", "summary.json", "fmus/Rotor.fmu"] {
        assert!(out_dir.join(file).is_file(), "{file} missing");
    }
    let csv = out_dir.join("results.csv");
    let (t, lat, phi, p) = (
        csv_column(&csv, "time"),
        csv_column(&csv, "controls.lat_cyclic"),
        csv_column(&csv, "fuselage.phi"),
        csv_column(&csv, "fuselage.p"),
    );
    let step = t.iter().position(|&t| t >= 1.0).unwrap();
    assert!((lat[step] - lat[0] - 0.01).abs() < 1e-12, "the lateral-cyclic step");
    // Trimmed before the step; stick right rolls right after it.
    let before = phi[..step].iter().map(|v| (v - phi[0]).abs()).fold(0.0, f64::max);
    assert!(before < 1e-3, "{before}");
    assert!(
        p[step + 100] > 0.01 && phi.last().unwrap() > &(phi[0] + 0.05),
        "p {} phi {}",
        p[step + 100],
        phi.last().unwrap()
    );
}

/// The README's run command as a new user types it: from any folder, with the default relative
/// `--out-dir` or another one, relative or absolute, with spaces in the path.
#[test]
fn built_in_run_writes_into_relative_absolute_and_spaced_out_dirs() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("a folder");
    std::fs::create_dir_all(&cwd).unwrap();
    let absolute = dir.path().join("other place/my out");
    for (args, written) in [
        (vec!["run"], cwd.join("out")),
        (vec!["run", "--out-dir", "results here"], cwd.join("results here")),
        (vec!["run", "--out-dir", absolute.to_str().unwrap(), "--stop", "1.5"], absolute.clone()),
    ] {
        let out = orchestrator().args(&args).current_dir(&cwd).env_remove("ROTORCRAFT_FMU_DIR").output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
        for file in ["results.csv", "results.units.csv", "plot.svg", "trim.json", "summary.json", "fmus/Aero.fmu"] {
            assert!(written.join(file).is_file(), "{args:?}: {} missing", written.join(file).display());
        }
        let t = csv_column(&written.join("results.csv"), "time");
        let stop = if args.contains(&"--stop") { 1.5 } else { 4.0 };
        assert!((t.last().unwrap() - stop).abs() < 1e-12, "{args:?}: ends at {}", t.last().unwrap());
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(written.join("summary.json")).unwrap()).unwrap();
        assert_eq!(summary["inputs"]["tool"]["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(summary["inputs"]["system_sha256"].as_str().unwrap().len(), 64);
    }
}

/// `--set` (parameters, negative values, a driven input replaced by a constant), `--start`,
/// `--stop`, `--step` and `--output` change a run without editing its JSON; the units table
/// names each column's unit.
#[test]
fn command_line_changes_the_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let json = std::fs::read_to_string(&system).unwrap().replace(
        r#""outputs""#,
        r#""inputs": [ { "to": "fuselage.ext.F.z", "signal": { "sine": { "amplitude": 5.0, "frequency": 1.0 } } } ], "outputs""#,
    );
    std::fs::write(&system, json).unwrap();
    let csv = dir.path().join("r.csv");
    succeeds(
        orchestrator()
            .args(["run", system.to_str().unwrap(), "--out", csv.to_str().unwrap()])
            .args(["--set", "fuselage.g=5", "--set", "fuselage.w0=-2", "--set", "fuselage.ext.F.z=-1000"])
            .args(["--set", "fuselage.mass=500", "--stop", "0.5", "--step", "0.05", "--output", "fuselage.z"])
            .args(["--output", "fuselage.ext.F.z"]),
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().next().unwrap(), r#""time","fuselage.z","fuselage.ext.F.z""#);
    let (t, z) = (csv_column(&csv, "time"), csv_column(&csv, "fuselage.z"));
    assert_eq!(t.len(), 11);
    // z = w0 t + (g + F_z / m) t^2 / 2 with the constant force replacing the sine.
    let exact = -2.0 * 0.5 + 0.5 * (5.0 - 1000.0 / 500.0) * 0.25;
    assert!((z.last().unwrap() - exact).abs() < 1e-9, "{} vs {exact}", z.last().unwrap());
    let units = std::fs::read_to_string(dir.path().join("r.units.csv")).unwrap();
    assert!(units.contains(r#""fuselage.z","m","#) && units.contains(r#""fuselage.ext.F.z","N","#), "{units}");
}

/// Bad option values are clear errors that write nothing.
#[test]
fn bad_command_line_values_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let before = std::fs::read_to_string(&system).unwrap();
    let csv = dir.path().join("never.csv");
    for (args, expected) in [
        (vec!["--set", "fuselage.mass=heavy"], r#"'mass' is Real and needs a finite number, got "heavy""#),
        (vec!["--set", "fuselage.mass=nan"], "'nan' is not a finite number"),
        (vec!["--set", "fuselage.mass"], "expected INSTANCE.VARIABLE=VALUE"),
        (vec!["--set", "fuslage.mass=1"], "did you mean 'fuselage'"),
        (vec!["--set", "fuselage.no_such_thing=1"], "no_such_thing"),
        (vec!["--stop", "-1"], "experiment.stop"),
        (vec!["--step", "0"], "experiment.step"),
        (vec!["--output", "nobody.x"], "unknown instance 'nobody'"),
    ] {
        let out = orchestrator()
            .args(["run", system.to_str().unwrap(), "--out", csv.to_str().unwrap()])
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!csv.exists(), "{args:?}: nothing written");
    }
    // An output that is an input of the run.
    let out =
        orchestrator().args(["run", system.to_str().unwrap(), "--out", system.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("refusing to overwrite"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&system).unwrap(), before);
    // Negative numbers are values, not options.
    let out = orchestrator().args(["trim", system.to_str().unwrap(), "--turn-rate", "-5"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("no 'trim' section"), "{stderr}");
}

/// `trim --out` keeps the input's key order and relative paths (rebased to the output's
/// folder), and writes nothing when the trim does not converge.
#[test]
fn trim_out_keeps_the_file_as_written_and_refuses_an_unconverged_trim() {
    let dir = tempfile::tempdir().unwrap();
    let fmus = dir.path().join("fmus");
    std::fs::create_dir_all(&fmus).unwrap();
    let example = test_fmus::fixtures::example_path("helicopter.json");
    let mut text = std::fs::read_to_string(example).unwrap();
    for model in ["Fuselage", "Rotor", "Aero", "Controls"] {
        std::fs::copy(common::our_fmu(model), fmus.join(format!("{model}.fmu"))).unwrap();
        text = text.replace(&format!(r#""model": "{model}""#), &format!(r#""path": "../fmus/{model}.fmu""#));
    }
    let systems = dir.path().join("systems");
    std::fs::create_dir_all(&systems).unwrap();
    let system = systems.join("heli.json");
    std::fs::write(&system, &text).unwrap();
    let trimmed = systems.join("out/trimmed.json");
    std::fs::create_dir_all(trimmed.parent().unwrap()).unwrap();
    succeeds(
        orchestrator()
            .args(["trim", system.to_str().unwrap(), "--out", trimmed.to_str().unwrap()])
            .args(["--set", "fuselage.mass=2200"]),
    );
    let input: serde_json::Value = serde_json::from_str(&text).unwrap();
    let output: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&trimmed).unwrap()).unwrap();
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&input), keys(&output));
    assert_eq!(keys(&input["fmus"]), keys(&output["fmus"]));
    assert_eq!(output["fmus"]["rotor"]["path"], "../../fmus/Rotor.fmu");
    assert_eq!(output["fmus"]["fuselage"]["parameters"]["mass"], 2200.0);
    assert_eq!(
        keys(&input["fmus"]["rotor"]["parameters"]),
        keys(&output["fmus"]["rotor"]["parameters"])[..keys(&input["fmus"]["rotor"]["parameters"]).len()]
    );
    // It runs from where it was written.
    let csv = dir.path().join("r.csv");
    succeeds(
        orchestrator().args(["run", trimmed.to_str().unwrap(), "--out", csv.to_str().unwrap()]).args(["--stop", "0.5"]),
    );

    // One iteration from a collective far off the trim cannot converge: nothing is written.
    let mut one_iteration = input.clone();
    one_iteration["trim"]["max_iterations"] = serde_json::json!(1);
    let short = systems.join("one-iteration.json");
    std::fs::write(&short, serde_json::to_string_pretty(&one_iteration).unwrap()).unwrap();
    let refused = systems.join("refused.json");
    let out = orchestrator()
        .args(["trim", short.to_str().unwrap(), "--out", refused.to_str().unwrap()])
        .args(["--set", "controls.collective=0.25"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("did not converge") && stderr.contains("not written"), "{stderr}");
    assert!(!refused.exists());
}

/// A run of a trimmable system says when its start is not trimmed (here: collective off the
/// stored trim), and stays quiet when it is.
#[test]
fn run_says_when_the_start_is_not_trimmed() {
    let dir = tempfile::tempdir().unwrap();
    let system = helicopter_json(dir.path());
    let csv = dir.path().join("r.csv");
    for (extra, warned) in [(vec![], false), (vec!["--set", "controls.collective=0.15"], true)] {
        let out = orchestrator()
            .args(["run", system.to_str().unwrap(), "--out", csv.to_str().unwrap(), "--stop", "0.5"])
            .args(&extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert_eq!(stderr.contains("the start is not trimmed"), warned, "{extra:?}: {stderr}");
        // The accelerations recorded for the check are not added to the results.
        let header = std::fs::read_to_string(&csv).unwrap().lines().next().unwrap().to_string();
        assert!(!header.contains("free."), "{header}");
    }
}

/// Every example runs as `orchestrator run examples/X.json` from the workspace root right after
/// the build: our FMUs named by `model` are packaged on demand beside the executable
/// (`ROTORCRAFT_FMU_DIR` unset). The third-party aerodynamics FMU of `third-party-aero.json` and
/// `third-party-aero-helicopter.json` is built by the test command beside the examples.
#[test]
fn every_example_runs_from_the_workspace_root() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let mut examples: Vec<String> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 5, "{examples:?}");
    for example in examples {
        let csv = dir.path().join(example.replace(".json", ".csv"));
        let out = orchestrator()
            .args(["run", &format!("examples/{example}"), "--out", csv.to_str().unwrap()])
            .current_dir(&root)
            .env_remove("ROTORCRAFT_FMU_DIR")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{example}: {stderr}");
        assert!(!stderr.contains("the start is not trimmed"), "{example}: {stderr}");
        let rows = std::fs::read_to_string(&csv).unwrap().lines().count();
        assert!(rows > 10, "{example}: {rows} rows");
    }
}

/// Column `name` of a CSV with a quoted header, as strings (`sweep.csv`).
pub(super) fn csv_cells(path: &std::path::Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(|h| h.trim_matches('"').to_string()).collect();
    let k = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines.map(|l| l.split(',').nth(k).unwrap().trim_matches('"').to_string()).collect()
}

/// A sweep runs its points in separate processes, two at a time; a failing point is recorded and
/// the others go on; a second call runs only what is not done; each point's figures are those of
/// the same run made alone.
#[test]
fn sweep_runs_points_in_parallel_resumes_and_survives_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let system = test_fmus::fixtures::example_path("gunns-6dof.json");
    let sweep = dir.path().join("sweep.json");
    std::fs::write(
        &sweep,
        format!(
            r#"{{ "system": {system:?}, "work": "run",
                 "grid": {{ "body.mass": [1e6, -1, 2e6], "stop": [0.5] }},
                 "statistics": ["body.x"] }}"#
        ),
    )
    .unwrap();
    let out = dir.path().join("sweep");
    let run = orchestrator()
        .args(["sweep", sweep.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    // A failed point fails the sweep (exit code 1), after the others ran and sweep.csv is written.
    assert_eq!(run.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("1 of 3 points failed"), "{stderr}");
    assert!(stdout.contains("3 points run") && stdout.contains("1 failed"), "{stdout}");
    let table = out.join("sweep.csv");
    assert_eq!(csv_cells(&table, "status"), ["ok", "failed", "ok"]);
    assert!(csv_cells(&table, "error")[1].contains("mass"), "{:?}", csv_cells(&table, "error"));
    // The same point alone.
    let alone = dir.path().join("alone.csv");
    let single = orchestrator()
        .args([
            "run",
            system.to_str().unwrap(),
            "--set",
            "body.mass=2e6",
            "--stop",
            "0.5",
            "--out",
            alone.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(single.status.success());
    let x = csv_column(&alone, "body.x");
    assert_eq!(csv_cells(&table, "body.x.final")[2].parse::<f64>().unwrap(), *x.last().unwrap());
    assert_eq!(csv_cells(&table, "steps")[2], "50");
    assert!(out.join("sweep.svg").is_file());
    // Resumed: only the failed point runs again.
    let again =
        orchestrator().args(["sweep", sweep.to_str().unwrap(), "--out", out.to_str().unwrap()]).output().unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(stdout.contains("1 points run") && stdout.contains("2 already done"), "{stdout}");
    // Without Slurm installed, --slurm says so and leaves the job script.
    let slurm = orchestrator()
        .args(["sweep", sweep.to_str().unwrap(), "--out", out.to_str().unwrap(), "--slurm", "2"])
        .output()
        .unwrap();
    if !slurm.status.success() {
        let stderr = String::from_utf8_lossy(&slurm.stderr);
        assert!(stderr.contains("sbatch"), "{stderr}");
    }
    let script = std::fs::read_to_string(out.join("sweep.sbatch")).unwrap();
    assert!(
        script.contains("#SBATCH --array=0-1") && script.contains("--chunk \"$SLURM_ARRAY_TASK_ID\" --chunks 2"),
        "{script}"
    );
}

/// A trim sweep over speed gives exactly the trims of `orchestrator trim --speed V`.
#[test]
fn trim_sweep_reproduces_single_trims() {
    let dir = tempfile::tempdir().unwrap();
    let system = helicopter_json(dir.path());
    let sweep = dir.path().join("envelope.json");
    std::fs::write(&sweep, format!(r#"{{ "system": {system:?}, "work": "trim", "grid": {{ "speed": [0, 20] }} }}"#))
        .unwrap();
    let out = dir.path().join("envelope");
    succeeds(orchestrator().args(["sweep", sweep.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    let single = dir.path().join("trim20.json");
    let trim = orchestrator()
        .args(["trim", system.to_str().unwrap(), "--speed", "20", "--summary-json", single.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(trim.status.success());
    let expected: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&single).unwrap()).unwrap();
    let table = out.join("sweep.csv");
    for (column, value) in [
        ("controls_rad.controls.collective", &expected["controls_rad"]["controls.collective"]),
        ("controls_rad.controls.lon_cyclic", &expected["controls_rad"]["controls.lon_cyclic"]),
        ("attitude_rad.theta", &expected["attitude_rad"]["theta"]),
    ] {
        assert_eq!(csv_cells(&table, column)[1].parse::<f64>().unwrap(), value.as_f64().unwrap(), "{column}");
    }
    assert_eq!(csv_cells(&table, "converged"), ["1", "1"]);
}
