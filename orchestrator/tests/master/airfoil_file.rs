//! The Aero FMU's `airfoil_file` (a String parameter) set from a system description through our
//! importer: a C81 table with cl = 2 pi alpha and a constant cd written to a temporary folder and
//! named by its absolute path gives the thrust of the analytic polar with `a = 2 pi`, `cd0` that
//! constant and `cd2 = 0` (bilinear interpolation of a linear table is exact); a malformed file
//! stops the run with the parameter, file, line and column.

use crate::common;
use std::f64::consts::PI;

/// The constant drag coefficient of the test table.
const CD: f64 = 0.011;

/// A C81 file: cl = 2 pi alpha (alpha in rad), cd = [`CD`], cm = 0, -30..30 deg every 5 deg, at
/// Mach 0 and 0.9 with the same values.
fn linear_table() -> String {
    let mut text = format!("{:<30}{:02}{:02}{:02}{:02}{:02}{:02}\n", "LINEAR TEST TABLE", 2, 13, 2, 13, 1, 2);
    let mach = "       0.0 0.9\n";
    text.push_str(mach);
    for k in 0..13 {
        let deg = -30.0 + 5.0 * k as f64;
        let cl = 2.0 * PI * deg.to_radians();
        text.push_str(&format!("{deg:7.1} {cl:.17e} {cl:.17e}\n"));
    }
    text.push_str(mach);
    for k in 0..13 {
        text.push_str(&format!("{:7.1} {CD} {CD}\n", -30.0 + 5.0 * k as f64));
    }
    text.push_str("       0.0\n  -180. 0.0\n   180. 0.0\n");
    text
}

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
    std::fs::write(&file, linear_table().replacen("0.011", "0.0x1", 1)).unwrap();
    let name = file.to_str().unwrap();
    let error = common::run(common::system(&json(name), dir.path())).err().expect("a malformed table is refused");
    let text = error.to_string();
    assert!(text.contains("airfoil_file") && text.contains(&format!("{name}:17:9:")), "{text}");
}
