//! String parameters set by FMPy (`start_values` with strings, `fmi2SetString`):
//! `TextParameters.fmu` (`test_fmus::text`) stepped by FMPy gives the outputs its String
//! parameters say: `x = rate t`, `label_length` = the label's characters, `table_value` = the
//! number in the resource file named by a path relative to the FMU's `resources` folder (which
//! FMPy passes as `fmuResourceLocation`).

use rotorcraft_tests::simulate_with_fmpy;
use test_fmus::text::{RESOURCE_TABLE, package_into};

#[test]
fn fmpy_sets_string_parameters_and_the_outputs_follow() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = package_into(dir.path());
    // "Hub äöü": 7 characters, 10 bytes in UTF-8.
    let start = [
        ("label", "Hub \u{e4}\u{f6}\u{fc}".to_string()),
        ("rate", "0.75".to_string()),
        ("table_file", RESOURCE_TABLE.0.to_string()),
    ];
    let table = simulate_with_fmpy(&fmu, 1.0, 0.25, &start, &["x", "label_length", "table_value"]);
    let (time, x, length, value) =
        (table.column("time"), table.column("x"), table.column("label_length"), table.column("table_value"));
    assert_eq!(table.rows.len(), 5);
    for row in &table.rows {
        // x' = rate from x(0) = 0.
        assert!((row[x] - 0.75 * row[time]).abs() < 1e-12, "{row:?}");
        assert_eq!((row[length], row[value]), (7.0, RESOURCE_TABLE.1), "{row:?}");
    }
}
