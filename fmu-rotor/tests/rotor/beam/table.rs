//! The blade-properties table reader: units converted, properties interpolated, and each kind of
//! bad input reported with its file, line and column.

use fmu_rotor::beam::{BladeTable, BladeTableError};

const GOOD: &str = "\
# a two-station test blade
radius [m], EA [kN], EI_flap [N m^2], EI_lag [lbf in^2], GJ [N*m^2], mass [kg/m], I_flap [kg m], I_lag [kg m], twist [deg], y_cg [mm]
0.5, 100, 2000, 1000, 500, 6, 0.01, 0.2, 0, 10
4.5, 200, 1000, 2000, 300, 4, 0.01, 0.2, -8, 30
";

fn parse(text: &str) -> Result<BladeTable, BladeTableError> {
    BladeTable::parse(text, "blade.csv")
}

#[test]
fn units_are_converted_and_properties_interpolated() {
    let table = parse(GOOD).unwrap();
    let (twist, mid) = table.at(2.5);
    // Half way: the mean of the two stations, in SI (1 kN = 1000 N, 1 lbf in^2 =
    // 4.4482216152605 N * 0.0254^2 m^2, 1 deg = pi/180 rad, 1 mm = 1e-3 m).
    assert!((mid.ea - 150e3).abs() < 1e-9);
    assert!((mid.ei_lag - 1500.0 * 4.448_221_615_260_5 * 0.0254 * 0.0254).abs() < 1e-9);
    assert!((twist + 4f64.to_radians()).abs() < 1e-15);
    assert!((mid.centre_of_mass[0] - 0.02).abs() < 1e-15);
    // GA defaults to EA.
    assert_eq!(mid.ga_flap, mid.ea);
    let beam = table.beam(4);
    assert!((beam.undeformed.positions[0][0] - 0.5).abs() < 1e-15);
    assert!((beam.undeformed.positions[4][0] - 4.5).abs() < 1e-12);
}

/// The error for `text` with the header and first row replaced as given.
fn error_for(header: &str, row: &str) -> String {
    let text = format!("{header}\n{row}\n4.5, 200, 1000, 2000, 300, 4, 0.01, 0.2\n");
    parse(&text).unwrap_err().to_string()
}

const HEADER: &str =
    "radius [m], EA [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], mass [kg/m], I_flap [kg m], I_lag [kg m]";
const ROW: &str = "0.5, 100, 2000, 1000, 500, 6, 0.01, 0.2";

#[test]
fn bad_tables_name_file_line_and_column() {
    let missing = HEADER.replace(", GJ [N m^2]", "");
    let row = ROW.replace(", 500", "");
    assert_eq!(error_for(&missing, &row), "blade.csv:1: missing column `GJ`");
    assert_eq!(
        error_for(HEADER, &ROW.replace("2000", "-2000")),
        "blade.csv:2: column 3 (EI_flap [N m^2]): -2000 is not positive"
    );
    assert_eq!(
        error_for(HEADER, &ROW.replace(", 6,", ", 0,")),
        "blade.csv:2: column 6 (mass [kg/m]): 0 is not positive"
    );
    assert!(
        error_for(&HEADER.replace("[kg/m]", "[kg per m]"), ROW)
            .starts_with("blade.csv:1: column 6 (mass [kg per m]): unknown unit `kg per m`")
    );
    assert_eq!(
        error_for(HEADER, &ROW.replace("0.5,", "5.0,")),
        "blade.csv:3: column 1 (radius [m]): stations out of order: radius 4.5 m is not beyond \
         the previous 5 m"
    );
    assert_eq!(
        error_for(HEADER, &ROW.replace("100", "1e0x")),
        "blade.csv:2: column 2 (EA [N]): `1e0x` is not a number"
    );
    assert!(
        error_for(&HEADER.replace("EA [N]", "EA"), ROW)
            .contains("column 2 (EA): expected a header field `name [unit]`")
    );
}
