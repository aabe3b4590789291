//! `airfoil = 2`: a C81 table read from the file `airfoil_file` names. The test writes a table of
//! known values (cl = 2 pi alpha, cd constant, -30..30 deg, two identical Mach columns) to a
//! temporary folder; where a table is linear, its bilinear interpolation is exact, so the hover
//! thrust and power with it equal those of the analytic polar with `a = 2 pi`, `cd0` the constant
//! and `cd2 = 0` (the default model, no section options) to rounding. A malformed file is a
//! configure error naming the parameter, the file, the line and the column.

use std::f64::consts::PI;
use std::path::PathBuf;

use crate::common::{Sim, Val, i, r, rel, set_hover_collective, vr};
use fmu_aero::Aero;
use fmu_core::Instance;
use test_fmus::c81::{LINEAR_TABLE_CD, linear_table, malformed_table};

/// The constant drag coefficient of the test table.
const CD: f64 = LINEAR_TABLE_CD;

/// Writes `text` to a fresh file in the system's temporary folder; returns its absolute path.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aero-airfoil-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// An initialised Aero instance with `params` and the String parameter `airfoil_file = file`.
fn with_file(params: &[(&str, Val)], file: &str) -> Result<Sim, String> {
    let mut inst = Instance::<Aero>::new("airfoil-file-test");
    inst.set_string(&[vr("airfoil_file")], &[file]).map_err(|e| e.to_string())?;
    for &(name, val) in params {
        match val {
            Val::R(v) => inst.set_real(&[vr(name)], &[v]),
            Val::I(v) => inst.set_integer(&[vr(name)], &[v]),
            Val::B(v) => inst.set_boolean(&[vr(name)], &[v]),
        }
        .map_err(|e| e.to_string())?;
    }
    inst.setup_experiment(0.0, None).map_err(|e| e.to_string())?;
    inst.enter_initialization_mode().map_err(|e| e.to_string())?;
    inst.exit_initialization_mode().map_err(|e| e.to_string())?;
    Ok(Sim { inst })
}

/// Thrust (N) and power (W) of a 4-blade rotor in hover at collectives 4, 8 and 12 deg with
/// uniform momentum inflow.
fn hover_thrust_and_power(sim: &mut Sim) -> Vec<[f64; 2]> {
    [4.0_f64, 8.0, 12.0]
        .iter()
        .map(|&deg| {
            set_hover_collective(sim, deg);
            [sim.get("thrust"), sim.get("power")]
        })
        .collect()
}

#[test]
fn a_linear_table_from_a_file_gives_the_analytic_polars_thrust() {
    let path = temp_file("linear.c81", &linear_table());
    let common = [("a", r(2.0 * PI)), ("cd0", r(CD)), ("cd2", r(0.0)), ("inflow_model", i(1))];
    let mut analytic = Sim::new(&common);
    let mut params = common.to_vec();
    params.push(("airfoil", i(2)));
    let mut table = with_file(&params, path.to_str().unwrap()).unwrap();
    let (want, got) = (hover_thrust_and_power(&mut analytic), hover_thrust_and_power(&mut table));
    for (w, g) in want.iter().zip(&got) {
        eprintln!("thrust {} N: rel. error {:.1e}, power rel. error {:.1e}", w[0], rel(g[0], w[0]), rel(g[1], w[1]));
        assert!(w[0] > 1e3, "a lifting rotor: {w:?}");
        assert!(rel(g[0], w[0]) < 1e-9 && rel(g[1], w[1]) < 1e-9, "table {g:?} vs analytic {w:?}");
    }
}

#[test]
fn a_malformed_or_missing_file_is_a_configure_error_naming_parameter_file_line_and_column() {
    let bad = malformed_table();
    let path = temp_file("malformed.c81", &bad);
    let file = path.to_str().unwrap();
    let err = with_file(&[("airfoil", i(2))], file).err().expect("a malformed file is refused");
    // Line 17: header, Mach line, 13 lift rows, the drag Mach line, then the first drag row.
    let position = format!("{file}:17:9:");
    assert!(err.contains("airfoil_file") && err.contains(&position) && err.contains("'0.0x1'"), "{err}");
    let missing = path.with_file_name("missing.c81");
    let err = with_file(&[("airfoil", i(2))], missing.to_str().unwrap()).err().expect("a missing file is refused");
    assert!(err.contains("airfoil_file") && err.contains("missing.c81"), "{err}");
    let err = with_file(&[("airfoil", i(2))], "").err().expect("an empty name is refused");
    assert!(err.contains("airfoil_file"), "{err}");
}
