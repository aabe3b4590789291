//! `sweep` at scale and its plots: results drawn against the swept variable in display units,
//! one line per condition, diagnostics apart, the units and trim condition in the tables,
//! sampling designs.

use super::trim::{csv_cells, helicopter_json};
use super::*;

/// `sweep.json` in `dir` with the body of the sweep file after the system (`gunns-6dof.json`,
/// the Fuselage alone under a constant force), then runs it into `dir/out`; stdout.
fn gunns_sweep(dir: &std::path::Path, body: &str) -> String {
    let out = succeeds(&mut gunns_sweep_command(dir, body));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The command of [`gunns_sweep`] (for a sweep expected to fail).
fn gunns_sweep_command(dir: &std::path::Path, body: &str) -> std::process::Command {
    let system = test_fmus::fixtures::example_path("gunns-6dof.json");
    let sweep = dir.join("sweep.json");
    std::fs::write(&sweep, format!(r#"{{ "system": {system:?}, "work": "run", {body} }}"#)).unwrap();
    let mut command = orchestrator();
    command.args(["sweep", sweep.to_str().unwrap(), "--out", dir.join("out").to_str().unwrap()]);
    command
}

/// Whether an SVG has a text element (a panel caption) that is exactly `text`.
fn has_text(svg: &str, text: &str) -> bool {
    svg.lines().any(|line| line.trim() == text)
}

/// A 2 x 3 grid is drawn against the variable with 3 values (not the alphabetically first), in
/// degrees for angles, one line per value of the other (numeric order, in its unit), the run
/// diagnostics in their own plot, a contour map of the grid; `sweep.units.csv` has the units of
/// the model descriptions.
#[test]
fn grid_sweep_is_drawn_against_the_variable_with_most_values_in_display_units() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = gunns_sweep(
        dir.path(),
        r#""grid": { "body.I.xx": [2e7, 1e7], "body.phi0": [0, 0.1, 0.2] },
           "statistics": ["body.euler.1"], "arguments": ["--stop", "0.1", "--output", "body.euler.1"]"#,
    );
    assert!(stdout.contains("sweep.svg, sweep-diagnostics.svg, sweep-map.svg against body.phi0"), "{stdout}");
    let out = dir.path().join("out");
    let svg = std::fs::read_to_string(out.join("sweep.svg")).unwrap();
    assert!(svg.contains("body.phi0 [deg]") && svg.contains("body.euler.1.max [deg]"), "{svg}");
    // The legend: 1e7 before 2e7 whatever the order in the file, with the unit of I.xx.
    let (first, second) =
        (svg.find("body.I.xx = 10000000 kg.m2").unwrap(), svg.find("body.I.xx = 20000000 kg.m2").unwrap());
    assert!(first < second);
    assert!(!has_text(&svg, "steps"), "diagnostics among the physics");
    assert!(has_text(&std::fs::read_to_string(out.join("sweep-diagnostics.svg")).unwrap(), "steps"));
    assert!(std::fs::read_to_string(out.join("sweep-map.svg")).unwrap().contains("body.euler.1.final [deg]"));
    assert!(!out.join("sweep-0.svg").exists());
    let units = std::fs::read_to_string(out.join("sweep.units.csv")).unwrap();
    for line in
        [r#""body.phi0","rad""#, r#""body.I.xx","kg.m2""#, r#""body.euler.1.max","rad""#, r#""wall_seconds","s""#]
    {
        assert!(units.contains(line), "{line} not in {units}");
    }
}

/// A Latin hypercube of normal and uniform variables: one point per stratum of the uniform
/// range, drawn as dots (the points form no lines) and saying so.
#[test]
fn random_sweep_is_drawn_as_dots_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = gunns_sweep(
        dir.path(),
        r#""random": { "count": 6, "seed": 7, "design": "latin_hypercube",
                        "ranges": { "body.phi0": [0, 0.6] },
                        "normal": { "body.mass": { "mean": 1e6, "std": 1e5 } } },
           "plot_against": "body.phi0",
           "statistics": ["body.euler.1"], "arguments": ["--stop", "0.1", "--output", "body.euler.1"]"#,
    );
    assert!(stdout.contains("drawn as dots") && stdout.contains("against body.phi0"), "{stdout}");
    let table = dir.path().join("out/sweep.csv");
    let mut strata: Vec<usize> =
        csv_cells(&table, "body.phi0").iter().map(|v| (v.parse::<f64>().unwrap() / 0.1).floor() as usize).collect();
    strata.sort_unstable();
    assert_eq!(strata, [0, 1, 2, 3, 4, 5]);
    // The statistic is the initial roll angle (no moment acts).
    for (phi0, phi) in csv_cells(&table, "body.phi0").iter().zip(csv_cells(&table, "body.euler.1.final")) {
        assert!((phi0.parse::<f64>().unwrap() - phi.parse::<f64>().unwrap()).abs() < 1e-9);
    }
    assert!(dir.path().join("out/sweep.svg").is_file());
}

/// A trim sweep's table carries the trim condition (speed, turn rate) with units, and its plot
/// shows the controls in degrees without the solver's iterations and residuals.
#[test]
fn trim_sweep_table_has_the_condition_and_the_plot_no_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let system = helicopter_json(dir.path());
    let sweep = dir.path().join("envelope.json");
    std::fs::write(
        &sweep,
        format!(r#"{{ "system": {system:?}, "work": "trim", "grid": {{ "speed": [0, 5], "turn_rate": [3] }} }}"#),
    )
    .unwrap();
    let out = dir.path().join("envelope");
    succeeds(orchestrator().args(["sweep", sweep.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    let table = out.join("sweep.csv");
    let number = |column: &str| csv_cells(&table, column).iter().map(|v| v.parse::<f64>().unwrap()).collect::<Vec<_>>();
    assert_eq!(number("condition.speed_m_per_s"), [0.0, 5.0]);
    assert_eq!(number("condition.turn_rate_rad_per_s"), [3f64.to_radians(); 2]);
    let units = std::fs::read_to_string(out.join("sweep.units.csv")).unwrap();
    for line in [
        r#""speed","m/s""#,
        r#""turn_rate","deg/s""#,
        r#""condition.turn_rate_rad_per_s","rad/s""#,
        r#""controls_rad.controls.collective","rad""#,
    ] {
        assert!(units.contains(line), "{line} not in {units}");
    }
    let svg = std::fs::read_to_string(out.join("sweep.svg")).unwrap();
    assert!(svg.contains("controls.collective [deg]") && svg.contains("speed [m/s]"), "{svg}");
    assert!(!has_text(&svg, "iterations") && !svg.contains("residual"), "diagnostics among the physics");
}

/// Packed (the default; here with a process per point) a task leaves `packed/results-0.csv`,
/// which pandas reads in one line (`pandas.read_csv`) with every point's rows equal to the same run made alone, and
/// `packed/points-0.jsonl`; no folder per point. A failed point is recorded; the resumed sweep
/// runs only it, after dropping rows that a killed task appended without recording the point.
#[test]
fn packed_sweep_writes_one_results_file_that_pandas_reads() {
    let dir = tempfile::tempdir().unwrap();
    let run = gunns_sweep_command(
        dir.path(),
        r#""process": "point", "grid": { "body.mass": [1e6, -1, 2e6] },
           "statistics": ["body.x"], "arguments": ["--stop", "0.5", "--output", "body.x"]"#,
    )
    .output()
    .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(stdout.contains("3 points run") && stdout.contains("1 failed"), "{stdout}");
    // A failed point fails the sweep, naming where its reason is.
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("1 of 3 points failed") && stderr.contains("packed/points-*.jsonl"), "{stderr}");
    let out = dir.path().join("out");
    let mut files: Vec<String> = walk(&out);
    files.sort();
    assert_eq!(
        files,
        [
            "packed/points-0.jsonl",
            "packed/results-0.csv",
            "packed/results.units.csv",
            "sweep-diagnostics.svg",
            "sweep.csv",
            "sweep.lock",
            "sweep.svg",
            "sweep.units.csv"
        ]
    );
    let table = out.join("sweep.csv");
    assert_eq!(csv_cells(&table, "status"), ["ok", "failed", "ok"]);
    // The reference: point 2 run alone.
    let alone = dir.path().join("alone.csv");
    let system = test_fmus::fixtures::example_path("gunns-6dof.json");
    succeeds(
        orchestrator()
            .args(["run", system.to_str().unwrap(), "--set", "body.mass=2e6", "--stop", "0.5"])
            .args(["--out", alone.to_str().unwrap()]),
    );
    let expected = csv_column(&alone, "body.x");
    assert_eq!(csv_cells(&table, "body.x.final")[2].parse::<f64>().unwrap(), *expected.last().unwrap());
    let packed = out.join("packed/results-0.csv");
    let by_point = |path: &std::path::Path| -> serde_json::Value {
        let script = "import pandas, sys, json; df = pandas.read_csv(sys.argv[1]); \
                      print(json.dumps({str(k): g['body.x'].tolist() for k, g in df.groupby('point')}))";
        let run = succeeds(std::process::Command::new(crate::import_support::python()).args(["-c", script]).arg(path));
        serde_json::from_slice(&run.stdout).unwrap()
    };
    let points = by_point(&packed);
    // pandas' default (fast) number parser may differ from the exact value in the last digit.
    let parsed: Vec<f64> = points["2"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(parsed.len(), expected.len());
    assert!(parsed.iter().zip(&expected).all(|(a, b)| (a - b).abs() <= 1e-15 * b.abs()), "{parsed:?}");
    assert_eq!(points["0"].as_array().unwrap().len(), expected.len());
    // A task killed while appending leaves rows of a point it did not record: dropped on resume.
    let mut text = std::fs::read_to_string(&packed).unwrap();
    text += "1,0.0,99.0\n1,0.01,";
    std::fs::write(&packed, text).unwrap();
    let again = orchestrator()
        .args(["sweep", dir.path().join("sweep.json").to_str().unwrap(), "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "point 1 fails again");
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(stdout.contains("1 points run") && stdout.contains("2 already done"), "{stdout}");
    let points = by_point(&packed);
    assert!(points.get("1").is_none(), "rows of the failed point: {points}");
    assert_eq!(points["2"].as_array().unwrap().len(), expected.len());
}

/// The files under `dir`, relative to it.
fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.extend(walk(&path).into_iter().map(|f| format!("{name}/{f}")));
        } else {
            files.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    files
}
