//! The Aero FMU's `airfoil_file` (a String parameter) set from a system description through our
//! importer: a C81 table with cl = 2 pi alpha and a constant cd written to a temporary folder and
//! named by its absolute path gives the thrust of the analytic polar with `a = 2 pi`, `cd0` that
//! constant and `cd2 = 0` (bilinear interpolation of a linear table is exact); a malformed file
//! stops the run with the parameter, file, line and column.

use crate::common;
use std::f64::consts::PI;
use test_fmus::c81::{LINEAR_TABLE_CD, linear_table, malformed_table};

/// The constant drag coefficient of the test table.
const CD: f64 = LINEAR_TABLE_CD;

/// Two one-blade Aero instances, `analytic` (the default polar) and `table` (`airfoil = 2`,
/// `airfoil_file = file`), with the same blade velocity: 40 m/s at 5 deg angle of attack.
fn json(file: &str) -> String {
    let alpha = 5.0_f64.to_radians();
    let (vy, vz) = (40.0 * alpha.cos(), -40.0 * alpha.sin());
    let common = format!(
        r#""nb": 1, "R": 2.0, "e": 0.0, "r_root": 1.0, "chord": 0.2, "twist": 0.0, "a": {a}, "cd0": {CD},
           "cd2": 0.0, "n_sections": 4, "inflow_model": 0"#,
        a = 2.0 * PI
    );
    let inputs: Vec<String> = ["analytic", "table"]
        .iter()
        .flat_map(|fmu| {
            [("vel.y", vy), ("vel.z", vz), ("shaft.z", 1.0)].map(|(input, value)| {
                format!(r#"{{ "to": "{fmu}.blade[1].{input}", "signal": {{ "constant": {value} }} }}"#)
            })
        })
        .collect();
    let inputs = inputs.join(", ");
    format!(
        r#"{{
      "fmus": {{
        "analytic": {{ "model": "Aero", "parameters": {{ {common} }} }},
        "table": {{ "model": "Aero", "parameters": {{ {common}, "airfoil": 2, "airfoil_file": {file:?} }} }}
      }},
      "inputs": [ {inputs} ],
      "experiment": {{ "stop": 0.1, "step": 0.05 }},
      "outputs": ["analytic.thrust", "table.thrust"]
    }}"#
    )
}

#[test]
fn airfoil_file_from_a_system_description_gives_the_analytic_polars_thrust() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("linear.c81");
    std::fs::write(&file, linear_table()).unwrap();
    let (results, _) = common::run(common::system(&json(file.to_str().unwrap()), dir.path())).unwrap();
    let (analytic, table) = (results.column("analytic.thrust").unwrap(), results.column("table.thrust").unwrap());
    for (a, t) in analytic.iter().zip(table) {
        eprintln!("thrust: analytic {a} N, table {t} N, rel. error {:.1e}", (t - a).abs() / a.abs());
        assert!(a.abs() > 1.0 && (t - a).abs() < 1e-9 * a.abs(), "table {t} vs analytic {a}");
    }
}

#[test]
fn a_malformed_airfoil_file_stops_the_run_naming_parameter_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("malformed.c81");
    std::fs::write(&file, malformed_table()).unwrap();
    let name = file.to_str().unwrap();
    let error = common::run(common::system(&json(name), dir.path())).err().expect("a malformed table is refused");
    let text = error.to_string();
    assert!(text.contains("airfoil_file") && text.contains(&format!("{name}:17:9:")), "{text}");
}
