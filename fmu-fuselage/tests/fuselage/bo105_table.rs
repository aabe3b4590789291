//! The shipped Bo105 fuselage table (`resources/padfield_bo105_fuselage.csv`) against Padfield's
//! polynomials as published: G. D. Padfield, *Helicopter Flight Dynamics* (1996), appendix 4B,
//! eqs. 4B.6-4B.10 (body-axis X, Y, Z in N and M, N in N m at 30.48 m/s, angles in rad, for
//! |alpha_f|, |beta_f| < 20 deg), read as quoted on heli-air.net ("Fuselage aerodynamic
//! characteristics") and in HEROES (Musero45/TFG 10dddfea, `heroes/heroesData/fuselage/
//! PadBo105Fus.m`). The loads scale with the dynamic pressure; the test flies the Fuselage at
//! 40 m/s with the table and compares its body-axis force and moment (about the body origin, the
//! table's reference point) with the polynomials times `q / q_100`, evaluated here.

use std::path::PathBuf;

use crate::common::{Sim, r};

const RHO: f64 = 1.225;
/// Dynamic pressure of the polynomials, 0.5 * 1.225 * (100 ft/s)^2 (Pa).
const Q_100: f64 = 0.5 * 1.225 * 30.48 * 30.48;

/// Padfield eqs. 4B.6-4B.10: coefficients of 1, x, x^2, x^3 (x = alpha_f or beta_f in rad).
const X_ALPHA: [f64; 4] = [-580.6, -454.0, 6.2, 4648.9];
const Y_BETA: [f64; 4] = [-6.9, -2399.0, -1.7, 12.7];
const Z_ALPHA: [f64; 4] = [-51.1, -1202.0, 1515.7, -604.2];
const M_ALPHA: [f64; 4] = [-1191.8, 12752.0, 8201.3, -5796.7];
const N_BETA: [f64; 4] = [0.0, -10028.0, 0.0, 0.0];

fn cubic(c: [f64; 4], x: f64) -> f64 {
    c[0] + x * (c[1] + x * (c[2] + x * c[3]))
}

/// The Fuselage (no gravity, the bo105 example's mass) moving through still air at `speed`
/// with angle of attack `alpha` and sideslip `beta` (deg), with the shipped Bo105 table.
fn fuselage_at(speed: f64, alpha: f64, beta: f64) -> Sim {
    let (a, b) = (alpha.to_radians(), beta.to_radians());
    let velocity = [speed * a.cos() * b.cos(), speed * b.sin(), speed * a.sin() * b.cos()];
    let table = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resources/padfield_bo105_fuselage.csv");
    let params =
        [("mass", r(2088.0)), ("g", r(0.0)), ("u0", r(velocity[0])), ("v0", r(velocity[1])), ("w0", r(velocity[2]))];
    Sim::try_new_with_strings(&params, &[("fuselage_table_file", table.to_str().unwrap())]).unwrap()
}

/// Largest difference between the Fuselage's force and moment and Padfield's, relative to the
/// largest of Padfield's force (N) and moment (N m) components at that point.
fn relative_error(speed: f64, alpha: f64, beta: f64) -> (f64, f64) {
    let mut sim = fuselage_at(speed, alpha, beta);
    let scale = 0.5 * RHO * speed * speed / Q_100;
    let (a, b) = (alpha.to_radians(), beta.to_radians());
    let force = [cubic(X_ALPHA, a), cubic(Y_BETA, b), cubic(Z_ALPHA, a)].map(|f| f * scale);
    let moment = [0.0, cubic(M_ALPHA, a), cubic(N_BETA, b)].map(|m| m * scale);
    let (got_f, got_m) = (sim.get3("fuselage.F"), sim.get3("fuselage.M"));
    let err = |got: [f64; 3], want: [f64; 3]| {
        let size = want.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        (0..3).map(|k| (got[k] - want[k]).abs()).fold(0.0, f64::max) / size
    };
    eprintln!(
        "Bo105 table at alpha {alpha}, beta {beta} deg, {speed} m/s: F {got_f:.3?} N (Padfield {force:.3?}), \
         M {got_m:.3?} N m (Padfield {moment:.3?})"
    );
    (err(got_f, force), err(got_m, moment))
}

#[test]
fn the_shipped_bo105_table_reproduces_padfields_polynomials() {
    // Grid points of the table (every 2 deg within +-30 deg): exact up to the file's 9 digits.
    for (alpha, beta) in [(0.0, 0.0), (10.0, -6.0), (-8.0, 12.0), (16.0, 4.0), (-18.0, -18.0), (6.0, 20.0)] {
        let (ef, em) = relative_error(40.0, alpha, beta);
        assert!(ef < 1e-8 && em < 1e-8, "alpha {alpha} beta {beta}: force {ef:e}, moment {em:e}");
    }
    // Between grid points the bilinear interpolation of the wind-axis loads: within 0.5 %.
    for (alpha, beta) in [(5.3, -7.1), (-3.7, 2.9), (13.1, 9.5)] {
        let (ef, em) = relative_error(40.0, alpha, beta);
        assert!(ef < 5e-3 && em < 5e-3, "alpha {alpha} beta {beta}: force {ef:e}, moment {em:e}");
    }
}
