//! The `orchestrator` command line: `run` writes the CSV with the FMPy-style header and the
//! summary JSON; bad input exits with a clear message and no panic; `inspect` lists variables.
//! `trim`: the trim, the built-in helicopter and its scenario options, the examples and sweeps.

mod bo105;
mod bo105_damping;
mod bo105_elastic;
mod elastic_modes;
mod realtime;
mod set_strings;
mod sweep_scale;
mod trim;

use crate::common;

use std::process::Command;

fn orchestrator() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_orchestrator"));
    command.env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir());
    command
}

/// Runs `command` and asserts that it succeeded (showing its stderr if not); its output.
fn succeeds(command: &mut Command) -> std::process::Output {
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// `dir/file`: a system of the Fuselage alone for 1 s in steps of 0.1 s, with the other members
/// `rest` of the system object (none when empty).
fn fuselage_system(dir: &std::path::Path, file: &str, rest: &str) -> std::path::PathBuf {
    let fuselage = common::our_fmu("Fuselage");
    let system = dir.join(file);
    let rest = if rest.is_empty() { String::new() } else { format!(",\n                 {rest}") };
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?} }} }},
                 "experiment": {{ "stop": 1.0, "step": 0.1 }}{rest} }}"#
        ),
    )
    .unwrap();
    system
}

/// `system.json` in `dir`: the Fuselage falling freely for 1 s in steps of 0.1 s, recording `z`
/// and `w`.
fn free_fall_system(dir: &std::path::Path) -> std::path::PathBuf {
    fuselage_system(dir, "system.json", r#""outputs": ["fuselage.z", "fuselage.w"]"#)
}

/// `orchestrator modes examples/rotor-elastic-vacuum.json` (RotorElastic in vacuum, no shapes)
/// with `args`, into `dir`: the positive frequencies (rad/s) of `modes.csv` and their mode names.
fn elastic_vacuum_modes(dir: &std::path::Path, args: &[&str]) -> Vec<(f64, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    succeeds(
        orchestrator()
            .args(["modes", "examples/rotor-elastic-vacuum.json", "--shapes", "0"])
            .args(args)
            .args(["--out", dir.to_str().unwrap()])
            .current_dir(&root),
    );
    let text = std::fs::read_to_string(dir.join("modes.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let im: f64 = cells[2].parse().unwrap();
            (im > 0.0).then(|| (im, cells[5].trim_matches('"').to_string()))
        })
        .collect()
}

/// Column `name` of a results CSV written by `run`.
fn csv_column(path: &std::path::Path, name: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(|h| h.trim_matches('"').to_string()).collect();
    let k = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines.map(|l| l.split(',').nth(k).unwrap().parse().unwrap()).collect()
}

#[test]
fn run_writes_results_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let (csv, summary) = (dir.path().join("r.csv"), dir.path().join("s.json"));
    let out =
        succeeds(orchestrator().arg("run").arg(&system).arg("--out").arg(&csv).arg("--summary-json").arg(&summary));
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

/// An output that is a hard link to an input (another name of the same file) is refused like the
/// input's own name: the FMU and the system file are left as they were.
#[test]
fn outputs_hard_linked_to_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = dir.path().join("Fuselage.fmu");
    std::fs::copy(common::our_fmu("Fuselage"), &fmu).unwrap();
    let system = dir.path().join("system.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "fuselage": {{ "path": {fmu:?} }} }}, "experiment": {{ "stop": 0.2, "step": 0.1 }} }}"#
        ),
    )
    .unwrap();
    for (input, option) in [(&fmu, "--out"), (&system, "--out"), (&fmu, "--summary-json")] {
        let before = std::fs::read(input).unwrap();
        let link = dir.path().join("link.csv");
        let _ = std::fs::remove_file(&link);
        std::fs::hard_link(input, &link).unwrap();
        let out = orchestrator().arg("run").arg(&system).arg(option).arg(&link).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{option} {}: {stderr}", link.display());
        assert!(stderr.contains(&format!("refusing to overwrite {}", input.display())), "{stderr}");
        assert!(std::fs::read(input).unwrap() == before, "{} was changed", input.display());
    }
}

#[test]
fn unknown_variable_is_a_clear_error_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let system = fuselage_system(
        dir.path(),
        "bad.json",
        r#""inputs": [ { "to": "fuselage.hub.F.q", "signal": { "constant": 1.0 } } ]"#,
    );
    let csv = dir.path().join("r.csv");
    let out = orchestrator().arg("run").arg(&system).arg("--out").arg(&csv).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("inputs[0].to") && stderr.contains("hub.F.q"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!csv.exists(), "nothing is written for a rejected system");
}

#[test]
fn closed_stdout_does_not_stop_the_run() {
    // `orchestrator run ... | head -1`: stdout is closed before the summary is printed; the run
    // must still write its results and summary, without a panic.
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let (csv, summary) = (dir.path().join("r.csv"), dir.path().join("s.json"));
    let mut child = orchestrator()
        .arg("run")
        .arg(&system)
        .arg("--out")
        .arg(&csv)
        .arg("--summary-json")
        .arg(&summary)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end at once: the process cannot have printed yet (it unpacks the FMU
    // first), so every line it prints meets a closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{stderr}");
    assert!(csv.exists() && summary.exists(), "results and summary are written");
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
    let out = succeeds(orchestrator().arg("inspect").arg(common::our_fmu("Fuselage")));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("hub.acc.z") && text.contains("providesDirectionalDerivative"), "{text}");
}

#[test]
fn run_draws_a_plot_of_the_recorded_variables() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let svg = dir.path().join("plot.svg");
    succeeds(orchestrator().arg("run").arg(&system).arg("--out").arg(dir.path().join("r.csv")).arg("--plot").arg(&svg));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("fuselage.z") && text.contains("fuselage.w"));
    assert!(text.contains("<polyline"), "a line series is drawn");
}

/// `export --ssp` then `run X.ssp` gives the JSON's run bit for bit (our annotation carries the
/// step, master options, signals, outputs and trim); an SSD written by another tool is read with
/// an external `.ssv` binding, and what is not supported is named in warnings.
#[test]
fn ssp_export_runs_bit_for_bit_and_foreign_ssd_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (example, stop) in [("helicopter.json", "0.5"), ("flap-response.json", "0.3")] {
        let ssp = dir.path().join(example.replace(".json", ".ssp"));
        let system = root.join("examples").join(example);
        succeeds(orchestrator().args(["export", system.to_str().unwrap(), "--ssp", ssp.to_str().unwrap()]));
        let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
        for (input, csv) in [(&system, &a), (&ssp, &b)] {
            succeeds(
                orchestrator()
                    .args(["run", input.to_str().unwrap(), "--stop", stop])
                    .args(["--out", csv.to_str().unwrap()]),
            );
        }
        assert_eq!(std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap(), "{example}");
    }

    // An SSD beside its FMU, as another tool writes it: parameters in an .ssv file, a signal
    // dictionary and a non-FMU component we do not support, no annotation (no step size).
    let foreign = dir.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::copy(common::our_fmu("Fuselage"), foreign.join("Fuselage.fmu")).unwrap();
    std::fs::write(
        foreign.join("body.ssv"),
        r#"<?xml version="1.0"?>
<ssv:ParameterSet xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" version="1.0" name="p">
  <ssv:Parameters>
    <ssv:Parameter name="g"><ssv:Real value="5.0"/></ssv:Parameter>
    <ssv:Parameter name="w0"><ssv:Real value="-1.0"/></ssv:Parameter>
  </ssv:Parameters>
</ssv:ParameterSet>"#,
    )
    .unwrap();
    let ssd = foreign.join("SystemStructure.ssd");
    std::fs::write(
        &ssd,
        r#"<?xml version="1.0"?>
<ssd:SystemStructureDescription xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" version="1.0" name="s">
  <ssd:System name="s">
    <ssd:Elements>
      <ssd:Component name="body" type="application/x-fmu-sharedlibrary" source="Fuselage.fmu">
        <ssd:ParameterBindings><ssd:ParameterBinding source="body.ssv"/></ssd:ParameterBindings>
      </ssd:Component>
      <ssd:Component name="scope" type="application/x-ssp-definition" source="scope.ssd"/>
    </ssd:Elements>
    <ssd:SignalDictionaries/>
  </ssd:System>
  <ssd:DefaultExperiment startTime="0" stopTime="1"/>
</ssd:SystemStructureDescription>"#,
    )
    .unwrap();
    let csv = dir.path().join("foreign.csv");
    let run = orchestrator()
        .args(["run", ssd.to_str().unwrap(), "--output", "body.z", "--out", csv.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    for named in ["'scope'", "SignalDictionaries", "communication step"] {
        assert!(stderr.contains(named), "warning naming {named}: {stderr}");
    }
    // z = w0 t + g t^2 / 2 with the .ssv's values.
    let (t, z) = (csv_column(&csv, "time"), csv_column(&csv, "body.z"));
    assert_eq!(t.len(), 1001);
    assert!((z.last().unwrap() - (-1.0 + 2.5)).abs() < 1e-9, "{}", z.last().unwrap());
}

/// An SSD exported before OMSimulator was supported has our annotation at its top level, not on
/// the system: `run` still takes the step, outputs and inputs from it (the free fall's 11 rows
/// of 0.1 s, not 1001 of the fallback step).
#[test]
fn ssp_with_our_annotation_at_the_top_level_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let ssp = dir.path().join("system.ssp");
    succeeds(orchestrator().args(["export", system.to_str().unwrap(), "--ssp", ssp.to_str().unwrap()]));
    let old = dir.path().join("old");
    zip::ZipArchive::new(std::fs::File::open(&ssp).unwrap()).unwrap().extract(&old).unwrap();
    let ssd = old.join("SystemStructure.ssd");
    let text = std::fs::read_to_string(&ssd).unwrap();
    let start = text.find("<ssc:Annotation type=\"org.rotorcraft-fmi.system\">").unwrap();
    let end = start + text[start..].find("</ssc:Annotation>").unwrap() + "</ssc:Annotation>".len();
    let ours = &text[start..end];
    let moved = text.replace(ours, "").replace(
        "</ssd:SystemStructureDescription>",
        &format!("<ssd:Annotations>{ours}</ssd:Annotations></ssd:SystemStructureDescription>"),
    );
    std::fs::write(&ssd, moved).unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    succeeds(orchestrator().args(["run", system.to_str().unwrap(), "--out", a.to_str().unwrap()]));
    let run = succeeds(orchestrator().args(["run", ssd.to_str().unwrap(), "--out", b.to_str().unwrap()]));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!stderr.contains("communication step"), "{stderr}");
    assert_eq!(csv_column(&b, "time").len(), 11);
    assert_eq!(std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap());
}

/// `trim --out` and `export` rewrite the system's JSON text: given an SSP file they say so before
/// any work, instead of failing on its bytes.
#[test]
fn commands_that_rewrite_json_refuse_ssp_input_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let ssp = dir.path().join("system.ssp");
    succeeds(orchestrator().args(["export", system.to_str().unwrap(), "--ssp", ssp.to_str().unwrap()]));
    for args in [
        vec!["trim", ssp.to_str().unwrap(), "--out", "trimmed.json"],
        vec!["export", ssp.to_str().unwrap(), "--fmu", "system.fmu"],
    ] {
        let out = orchestrator().current_dir(dir.path()).args(&args).output().unwrap();
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("needs a JSON system description") && stderr.contains("is SSP"), "{args:?}: {stderr}");
    }
}

/// `--record-every N` writes every N-th communication point and the last, with the values of
/// the full run at those points.
#[test]
fn record_every_keeps_every_nth_point_and_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let system = free_fall_system(dir.path());
    let read = |path: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(path).unwrap().lines().skip(1).map(str::to_string).collect()
    };
    let (full, sparse) = (dir.path().join("full.csv"), dir.path().join("sparse.csv"));
    for (out, extra) in [(&full, vec![]), (&sparse, vec!["--record-every", "3"])] {
        succeeds(orchestrator().arg("run").arg(&system).arg("--out").arg(out).args(extra));
    }
    let full = read(&full);
    let expected: Vec<String> = [0, 3, 6, 9, 10].iter().map(|&k| full[k].clone()).collect();
    assert_eq!(read(&sparse), expected);
    let refused = orchestrator().arg("run").arg(&system).args(["--record-every", "0"]).output().unwrap();
    assert!(!refused.status.success());
}
