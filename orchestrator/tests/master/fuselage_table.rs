//! The Fuselage FMU's `fuselage_table_file` (a String parameter) set from a system description
//! through our importer: a table of constant `D/q = f` named by its absolute path flies exactly
//! like the drag-area model with `drag_area = f` (closed form `-0.5 rho f |V| V` for both); the
//! shipped UH-60A table named relative to the packaged FMU's resources folder gives GENHEL's drag
//! `q 23.58 ft^2` at zero incidence and sideslip; a malformed file stops the run with the
//! parameter, file, line and column.

use crate::common;

const F: f64 = 1.7;

/// A constant-drag table on a coarse full grid, `D/q` in the first data row replaced by `first`.
fn table(first: &str) -> String {
    let mut text =
        String::from("alpha [deg], beta [deg], D/q [m2], Y/q [m2], L/q [m2], R/q [m3], M/q [m3], N/q [m3]\n");
    for a in [-180, 0, 180] {
        for b in [-90, 0, 90] {
            let d = if text.lines().count() == 1 { first.to_owned() } else { F.to_string() };
            text += &format!("{a}, {b}, {d}, 0, 0, 0, 0, 0\n");
        }
    }
    text
}

/// Three airframes without gravity starting at (40, 3, -5) m/s: `area` (drag area `F`), `table`
/// (the table at `file`), `uh60` (the shipped table, level at 40 m/s).
fn json(file: &str) -> String {
    let start = r#""g": 0.0, "u0": 40.0, "v0": 3.0, "w0": -5.0"#;
    format!(
        r#"{{
      "fmus": {{
        "area": {{ "model": "Fuselage", "parameters": {{ {start}, "drag_area": {F} }} }},
        "table": {{ "model": "Fuselage", "parameters": {{ {start}, "fuselage_table_file": {file:?} }} }},
        "uh60": {{ "model": "Fuselage", "parameters": {{ "g": 0.0, "u0": 40.0,
                   "fuselage_table_file": "uh60a_genhel_fuselage.csv" }} }}
      }},
      "experiment": {{ "stop": 1.0, "step": 0.1 }},
      "outputs": ["area.u", "area.v", "area.w", "table.u", "table.v", "table.w", "uh60.fuselage.F.x"]
    }}"#
    )
}

#[test]
fn fuselage_table_file_from_a_system_description_flies_like_the_drag_area() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("constant.csv");
    std::fs::write(&file, table(&F.to_string())).unwrap();
    let (results, _) = common::run(common::system(&json(file.to_str().unwrap()), dir.path())).unwrap();
    for c in ["u", "v", "w"] {
        let area = results.column(&format!("area.{c}")).unwrap();
        let table = results.column(&format!("table.{c}")).unwrap();
        for (a, t) in area.iter().zip(table) {
            assert!((t - a).abs() <= 1e-12 * 40.0, "{c}: table {t} vs drag area {a}");
        }
    }
    // The drag decelerates: u falls from 40 m/s.
    let u = results.column("area.u").unwrap();
    assert!(u[u.len() - 1] < 40.0 - 0.1, "{u:?}");
    let drag = -results.column("uh60.fuselage.F.x").unwrap()[0];
    let want = 0.5 * 1.225 * 40.0 * 40.0 * 23.58 * 0.3048 * 0.3048;
    eprintln!("UH-60A drag at 40 m/s: {drag} N (closed form {want} N)");
    assert!((drag - want).abs() < 1e-9 * want, "{drag} vs {want}");
}

#[test]
fn a_malformed_fuselage_table_stops_the_run_naming_parameter_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("malformed.csv");
    std::fs::write(&file, table("1.7.0")).unwrap();
    let name = file.to_str().unwrap();
    let error = common::run(common::system(&json(name), dir.path())).err().expect("a malformed table is refused");
    let text = error.to_string();
    assert!(text.contains("fuselage_table_file") && text.contains(&format!("{name}:2: column 3 (D/q [m2])")), "{text}");
}
