//! The fuselage force and moment table (`fuselage_table_file`) against closed forms written here:
//! - a table of constant `D/q = f` (the rest zero) gives the drag-area model's force
//!   `-0.5 rho f |V| V`, for any direction of the relative wind (and so equals `drag_area = f`);
//! - constant `D, Y, L, R, M, N` over q at several (alpha, beta) against the wind axes built here
//!   from vectors (`x_w = V/|V|`, `z_w` = unit `V x e_y`, `y_w = z_w x x_w`), with the moment
//!   taken about an offset reference point;
//! - the shipped UH-60A table at a grid point against the transcribed GENHEL values read by hand;
//! - a malformed or missing file is an initialisation error naming the parameter, file, line and
//!   column;
//! - directional derivatives against central differences.

use std::path::PathBuf;

use fmu_core::verify::check_directional_derivatives;

use crate::common::{Sim, Val, cross, r};

const M: f64 = 2100.0;
const RHO: f64 = 1.225;
const FT2: f64 = 0.3048 * 0.3048;
const FT3: f64 = FT2 * 0.3048;

/// Writes `text` to a fresh file in the system's temporary folder; returns its absolute path.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fuselage-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A table with the same six values (m^2, m^3) at every (alpha, beta) of a coarse grid.
fn constant_table(values: [f64; 6]) -> String {
    let mut text =
        String::from("alpha [deg], beta [deg], D/q [m2], Y/q [m2], L/q [m2], R/q [m3], M/q [m3], N/q [m3]\n");
    for a in [-180, -90, 0, 90, 180] {
        for b in [-90, 0, 90] {
            let v = values.map(|x| x.to_string()).join(", ");
            text += &format!("{a}, {b}, {v}\n");
        }
    }
    text
}

/// An initialised Fuselage (no gravity) with `params` and the String parameter
/// `fuselage_table_file = file`.
fn with_file(params: &[(&str, Val)], file: &str) -> Result<Sim, String> {
    let mut all = vec![("mass", r(M)), ("g", r(0.0))];
    all.extend_from_slice(params);
    Sim::try_new_with_strings(&all, &[("fuselage_table_file", file)])
}

/// The body velocity of a relative wind of speed `speed` at `alpha`, `beta` (deg).
fn velocity(speed: f64, alpha: f64, beta: f64) -> [f64; 3] {
    let (a, b) = (alpha.to_radians(), beta.to_radians());
    [speed * a.cos() * b.cos(), speed * b.sin(), speed * a.sin() * b.cos()]
}

fn unit(v: [f64; 3]) -> [f64; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / n)
}

/// Force and moment (about the reference point `p`) of the loads over q `[D, Y, L, R, M, N]` for
/// the body velocity `v` relative to the air, from the wind axes built by vectors.
fn closed_form(loads: [f64; 6], v: [f64; 3], p: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let q = 0.5 * RHO * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    let x_w = unit(v);
    let z_w = unit(cross(v, [0.0, 1.0, 0.0]));
    let y_w = cross(z_w, x_w);
    let [d, y, l, rr, m, n] = loads;
    let force: [f64; 3] = std::array::from_fn(|k| q * (-d * x_w[k] + y * y_w[k] - l * z_w[k]));
    let moment_p: [f64; 3] = std::array::from_fn(|k| q * (rr * x_w[k] + m * y_w[k] + n * z_w[k]));
    let arm = cross(p, force);
    (force, std::array::from_fn(|k| moment_p[k] + arm[k]))
}

fn max_abs_diff(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f64::max)
}

#[test]
fn without_a_table_the_outputs_are_zero() {
    let mut sim = Sim::new(&[("mass", r(M)), ("u0", r(30.0)), ("drag_area", r(1.0))]);
    for name in ["fuselage.alpha", "fuselage.beta", "fuselage.F.x", "fuselage.F.z", "fuselage.M.y"] {
        assert_eq!(sim.get(name), 0.0, "{name}");
    }
}

#[test]
fn a_constant_drag_table_equals_the_drag_area_model() {
    let f = 1.7;
    let path = temp_file("constant-drag.csv", &constant_table([f, 0.0, 0.0, 0.0, 0.0, 0.0]));
    let wind = [3.0, -2.0, 1.0];
    for (k, vel) in
        [[40.0, 0.0, 0.0], [-12.0, 5.0, 20.0], [3.0, -30.0, -4.0], [0.0, 10.0, 0.0], [3.0, 8.0, 1.0]].iter().enumerate()
    {
        let params = [("u0", r(vel[0])), ("v0", r(vel[1])), ("w0", r(vel[2]))];
        let mut table = with_file(&params, path.to_str().unwrap()).unwrap();
        let mut area = with_file(&[params.as_slice(), &[("drag_area", r(f))]].concat(), "").unwrap();
        for sim in [&mut table, &mut area] {
            sim.set3("wind", wind);
        }
        // Attitude level: the NED wind is the body wind. The last case is pure sideslip (u = w = 0).
        let v_air: [f64; 3] = std::array::from_fn(|i| vel[i] - wind[i]);
        let speed = (v_air.iter().map(|c| c * c).sum::<f64>()).sqrt();
        let want: [f64; 3] = std::array::from_fn(|i| -0.5 * RHO * f * speed * v_air[i]);
        let got = table.get3("fuselage.F");
        let acc_table = [table.get("free.u_dot"), table.get("free.v_dot"), table.get("free.w_dot")];
        let acc_area = [area.get("free.u_dot"), area.get("free.v_dot"), area.get("free.w_dot")];
        let scale = want.iter().fold(0.0_f64, |m, c| m.max(c.abs()));
        eprintln!(
            "case {k}: force {got:?} vs closed form {want:?}, error {:.1e} of {scale:.1} N",
            max_abs_diff(got, want)
        );
        assert!(max_abs_diff(got, want) <= 1e-12 * scale, "table {got:?} vs closed form {want:?}");
        assert!(max_abs_diff(acc_table, acc_area) <= 1e-12 * scale / M, "{acc_table:?} vs {acc_area:?}");
        assert!(max_abs_diff(acc_table, want.map(|c| c / M)) <= 1e-12 * scale / M);
        assert_eq!(table.get3("fuselage.M"), [0.0; 3], "drag at O has no moment");
    }
}

#[test]
fn forces_and_moments_turn_from_wind_to_body_axes() {
    let loads = [1.5, -0.8, 2.5, 0.3, -1.2, 0.7];
    let p = [0.4, -0.1, 0.6];
    let path = temp_file("constant-six.csv", &constant_table(loads));
    let speed = 25.0;
    for (alpha, beta) in
        [(0.0, 0.0), (10.0, 0.0), (0.0, 15.0), (-35.0, 20.0), (120.0, -40.0), (-150.0, 70.0), (180.0, 0.0)]
    {
        let v = velocity(speed, alpha, beta);
        let params = [
            ("u0", r(v[0])),
            ("v0", r(v[1])),
            ("w0", r(v[2])),
            ("fuselage_table.x", r(p[0])),
            ("fuselage_table.y", r(p[1])),
            ("fuselage_table.z", r(p[2])),
        ];
        let mut sim = with_file(&params, path.to_str().unwrap()).unwrap();
        let (force, moment) = closed_form(loads, v, p);
        let (got_f, got_m) = (sim.get3("fuselage.F"), sim.get3("fuselage.M"));
        let (ef, em) = (max_abs_diff(got_f, force), max_abs_diff(got_m, moment));
        eprintln!(
            "alpha {alpha} beta {beta}: force error {ef:.1e} N, moment error {em:.1e} N m (q = {:.1} Pa)",
            0.5 * RHO * speed * speed
        );
        assert!(ef < 1e-10 && em < 1e-10, "F {got_f:?} vs {force:?}; M {got_m:?} vs {moment:?}");
        let (a, b) = (sim.get("fuselage.alpha").to_degrees(), sim.get("fuselage.beta").to_degrees());
        let want_a = if alpha == 180.0 { 180.0 } else { alpha };
        assert!((a - want_a).abs() < 1e-9 && (b - beta).abs() < 1e-9, "angles {a} {b} vs {alpha} {beta}");
    }
}

/// The shipped table, by its absolute path in the crate.
fn shipped_table() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resources/uh60a_genhel_fuselage.csv").to_str().unwrap().to_owned()
}

#[test]
fn the_shipped_uh60a_table_reproduces_genhel_at_a_grid_point() {
    // alpha 10 deg, beta -5 deg (GENHEL's psi = -beta = 5 deg); the transcription's values (ft^2,
    // ft^3): DQFMP(10) = 27.58, DDQFMP(5) = 1.00, YQFMP(5) = 11, LQFMP(10) = 20, DLQFMP(5) = 2,
    // RQFMP(5) = 0, MQFMP(10) = 100, DMQFMP(5) = 10, NQFMP(5) = 100.
    let loads = [(27.58 + 1.0) * FT2, 11.0 * FT2, (20.0 + 2.0) * FT2, 0.0, (100.0 + 10.0) * FT3, 100.0 * FT3];
    let v = velocity(40.0, 10.0, -5.0);
    let mut sim = with_file(&[("u0", r(v[0])), ("v0", r(v[1])), ("w0", r(v[2]))], &shipped_table()).unwrap();
    let (force, moment) = closed_form(loads, v, [0.0; 3]);
    let (got_f, got_m) = (sim.get3("fuselage.F"), sim.get3("fuselage.M"));
    eprintln!("UH-60A at alpha 10, beta -5 deg, 40 m/s: F {got_f:?} N (closed form {force:?}), M {got_m:?} N m");
    assert!(max_abs_diff(got_f, force) < 1e-9 && max_abs_diff(got_m, moment) < 1e-9);
    // Drag over q at alpha = beta = 0: 23.58 ft^2 = 2.19 m^2, against the wind.
    let mut level = with_file(&[("u0", r(40.0))], &shipped_table()).unwrap();
    let drag = -level.get("fuselage.F.x") / (0.5 * RHO * 1600.0);
    assert!((drag - 23.58 * FT2).abs() < 1e-12, "D/q {drag} m^2");
}

#[test]
fn a_malformed_or_missing_table_is_an_initialisation_error_with_its_position() {
    let mut text = constant_table([1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    text = text.replacen("-90, 0, 1,", "-90, 0, 1e,", 1);
    let path = temp_file("malformed.csv", &text);
    let file = path.to_str().unwrap();
    let err = with_file(&[], file).err().expect("a malformed table is refused");
    // Header line 1; alpha -180 rows on lines 2-4, alpha -90 on 5-7: line 6 is (-90, 0).
    let want = format!("parameter 'fuselage_table_file': {file}:6: column 3 (D/q [m2]): `1e` is not a number");
    assert!(err.contains(&want), "{err}");
    let missing = path.with_file_name("missing.csv");
    let err = with_file(&[], missing.to_str().unwrap()).err().expect("a missing table is refused");
    assert!(err.contains("fuselage_table_file") && err.contains("missing.csv"), "{err}");
    let err = with_file(&[], "relative.csv").err().expect("a relative name without resources is refused");
    assert!(err.contains("fuselage_table_file") && err.contains("relative"), "{err}");
}

#[test]
fn directional_derivatives_with_the_table_match_central_differences() {
    let mut sim = with_file(
        &[("u0", r(35.0)), ("v0", r(-4.0)), ("w0", r(3.0)), ("fuselage_table.x", r(0.5)), ("fuselage_table.z", r(0.4))],
        &shipped_table(),
    )
    .unwrap();
    // Off the grid lines: alpha ~ 4.9 deg, beta ~ -6.5 deg.
    sim.set3("wind", [0.2, 0.1, -0.1]);
    sim.set("air.density", 1.1);
    let report = check_directional_derivatives(&mut sim.inst, |_, u| 1e-5 * u.abs().max(1.0), 1e-6).unwrap();
    report.assert_clean("directional derivatives with the fuselage table");
}
