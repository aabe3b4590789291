//! A C81 airfoil table of known values for the tests of the Aero FMU's `airfoil_file`: where the
//! table is linear its bilinear interpolation is exact, so the FMU with it must give the thrust of
//! the analytic polar with the same lift slope and drag.

use std::f64::consts::PI;

/// The constant drag coefficient of [`linear_table`].
pub const LINEAR_TABLE_CD: f64 = 0.011;

/// C81 text: cl = 2 pi alpha (alpha in rad), cd = [`LINEAR_TABLE_CD`], at -30..30 deg every 5 deg
/// and Mach 0 and 0.9 with the same values; cm = 0 at -180 and 180 deg. The header holds the name
/// in columns 1-30 and the six two-digit counts; line 17 is the first drag row, its first
/// coefficient at column 9.
pub fn linear_table() -> String {
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
        text.push_str(&format!("{:7.1} {LINEAR_TABLE_CD} {LINEAR_TABLE_CD}\n", -30.0 + 5.0 * k as f64));
    }
    text.push_str("       0.0\n  -180. 0.0\n   180. 0.0\n");
    text
}

/// [`linear_table`] with its first drag coefficient (line 17, column 9) made unreadable.
pub fn malformed_table() -> String {
    linear_table().replacen(&format!("{LINEAR_TABLE_CD}"), "0.0x1", 1)
}
