//! The Princeton beam (Dowell and Traybar 1975): a 0.508 m aluminium strip clamped at the root,
//! a dead tip load at an angle `beta` from the strong (chordwise) section axis, coupled flap, lag
//! and twist. Shared by the validation test (`fmu-rotor/tests/rotor/beam/princeton.rs`) and the
//! runnable example (`cargo run --release -p fmu-rotor --example princeton_beam`).
//!
//! Section stiffnesses as published in Dymore's benchmark description, quoted in
//! zanoni-mbdyn/MBDyn `tests/benchmarks/princeton/princeton_gen.m`: `EA = 2.84191e6 N`,
//! bending `36.2794 N m^2` (strong, chordwise) and `2.42873 N m^2` (weak, flap),
//! `GJ = 3.10338 N m^2`, shear `9.03881e5 N` and `6.40131e5 N`. They are the 12.3777 mm x
//! 3.2024 mm rectangle of 7075 aluminium (E = 71.7 GPa, nu = 0.31) the ANSYS model uses.
//! The measured deflections (NASA reports, NTRS 19770003066/67) were not found in a readable
//! public source; the reference is the published ANSYS beam-element computation in
//! `fmu-rotor/tests/rotor/beam/data/princeton_ansys_beam.csv` (source in its header), read by
//! [`parse_reference`].

use super::rotation::rotate;
use super::{Beam, BeamState, BladeTable, NewtonSettings, StaticError, TipLoad};

/// The beam as a blade-properties table (root and tip stations). Shear along the wide section
/// axis (chordwise, `GA_lag`) and along the thin one (`GA_flap`): which of the two published
/// values belongs to which axis is our reading (shear moves the tip by less than 1e-4 of its
/// deflection here). Mass and inertias do not enter the static solve.
pub const TABLE: &str = "\
radius [m], EA [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], GA_flap [N], GA_lag [N], mass [kg/m], I_flap [kg m], I_lag [kg m]
0, 2.84191e6, 2.42873, 36.2794, 3.10338, 6.40131e5, 9.03881e5, 0.1, 1e-7, 1e-6
0.508, 2.84191e6, 2.42873, 36.2794, 3.10338, 6.40131e5, 9.03881e5, 0.1, 1e-7, 1e-6
";

/// The experiment's three tip loads, 1, 2 and 3 lb (N); the published computation covers the
/// last two (8.896 and 13.345 N as it prints them).
pub const LOADS_N: [f64; 3] = [4.448, 8.896, 13.345];

/// The Princeton beam with `n_elements` equal elements.
pub fn beam(n_elements: usize) -> Beam {
    BladeTable::parse(TABLE, "princeton.csv").expect("the built-in Princeton table parses").beam(n_elements)
}

/// Tip displacements and twist under one load case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TipDeflection {
    /// Displacement along the thin section axis (flapwise, frame `z`), m.
    pub flap_m: f64,
    /// Displacement along the wide section axis (chordwise, frame `-y`), m.
    pub lag_m: f64,
    /// Rotation of the tip section about the frame's `x` axis, `atan2(e2_z, e3_z)` of its
    /// material axes (rad): exact for a section turned about `x` only, an approximation of the
    /// twist when the tip also bends.
    pub twist_rad: f64,
}

/// Solves the static deflection of `beam` under the dead tip load `load_n` (N) at `beta_rad`
/// from the strong axis (force `[0, -P cos(beta), P sin(beta)]`, the published computation's
/// convention) and returns the tip's displacements and twist.
pub fn tip_deflection(
    beam: &Beam,
    load_n: f64,
    beta_rad: f64,
    settings: &NewtonSettings,
) -> Result<TipDeflection, StaticError> {
    let force = [0.0, -load_n * beta_rad.cos(), load_n * beta_rad.sin()];
    let state = beam.solve_static(TipLoad::Dead(force), settings)?;
    let tip = *state.positions.last().expect("a beam has nodes");
    Ok(TipDeflection { flap_m: tip[2], lag_m: -tip[1], twist_rad: tip_twist(&state) })
}

/// Rotation of the tip section about the frame's `x` axis (rad), see [`TipDeflection::twist_rad`].
fn tip_twist(state: &BeamState) -> f64 {
    let q = *state.rotations.last().expect("a beam has nodes");
    let (e2, e3) = (rotate(q, [0.0, 1.0, 0.0]), rotate(q, [0.0, 0.0, 1.0]));
    e2[2].atan2(e3[2])
}

/// One point of the published computation: tip load (N), load angle (deg), tip displacements
/// along the wide (lag) and thin (flap) section axes (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferencePoint {
    /// Tip load (N).
    pub load_n: f64,
    /// Load angle from the strong axis (deg).
    pub beta_deg: f64,
    /// Chordwise tip displacement (m).
    pub lag_m: f64,
    /// Flapwise tip displacement (m).
    pub flap_m: f64,
}

/// Reads the reference CSV (`load_N,beta_deg,u_lag_m,u_flap_m` after `#` comment lines); errors
/// name the line and column.
pub fn parse_reference(text: &str) -> Result<Vec<ReferencePoint>, String> {
    let mut points = Vec::new();
    let rows = text.lines().enumerate().filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty());
    for (index, line) in rows.skip(1) {
        let mut values = [0.0; 4];
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != 4 {
            return Err(format!("line {}: {} columns, expected 4", index + 1, cells.len()));
        }
        for (column, (cell, value)) in cells.iter().zip(&mut values).enumerate() {
            *value = cell
                .trim()
                .parse()
                .map_err(|e| format!("line {}, column {}: '{}': {e}", index + 1, column + 1, cell.trim()))?;
        }
        let [load_n, beta_deg, lag_m, flap_m] = values;
        points.push(ReferencePoint { load_n, beta_deg, lag_m, flap_m });
    }
    Ok(points)
}
