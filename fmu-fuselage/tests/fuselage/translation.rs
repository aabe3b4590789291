//! Validation 1: a constant body-fixed force whose line passes through the CoM gives pure
//! translation, closed form `x(t) = R0 F t^2 / (2 m)` (no rotation, g = 0).

use crate::common::{Sim, compose, max_diff, mv, r};

const M: f64 = 2100.0;

/// Runs `t_end` seconds with force `f` (body axes) at the `ext` point and returns the worst
/// position, velocity, rate and specific-force errors against the closed form.
fn run_case(cg: [f64; 3], ext: [f64; 3], euler0: [f64; 3], f: [f64; 3], t_end: f64) -> [f64; 4] {
    let mut sim = Sim::new(&[
        ("mass", r(M)),
        ("g", r(0.0)),
        ("cg.x", r(cg[0])),
        ("cg.y", r(cg[1])),
        ("cg.z", r(cg[2])),
        ("ext.x", r(ext[0])),
        ("ext.y", r(ext[1])),
        ("ext.z", r(ext[2])),
        ("phi0", r(euler0[0])),
        ("theta0", r(euler0[1])),
        ("psi0", r(euler0[2])),
        ("tolerance", r(1e-10)),
    ]);
    sim.set3("ext.F", f);
    let r0 = compose(321, [euler0[2], euler0[1], euler0[0]]);
    let a_ned = mv(&r0, f.map(|e| e / M));
    let (mut pos_err, mut vel_err, mut rate_err, mut acc_err) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let h = 0.5;
    while sim.time() < t_end - 1e-9 {
        let t0 = sim.time();
        sim.run_to(t0 + h, h);
        let t = sim.time();
        let expected_pos = a_ned.map(|a| 0.5 * a * t * t);
        let expected_vel = f.map(|e| e / M * t);
        pos_err = pos_err.max(max_diff(&sim.get_names(["x", "y", "z"]), &expected_pos));
        vel_err = vel_err.max(max_diff(&sim.get_names(["u", "v", "w"]), &expected_vel));
        rate_err = rate_err.max(max_diff(&sim.get_names(["p", "q", "r"]), &[0.0; 3]));
        for p in ["hub", "tail", "ext"] {
            acc_err = acc_err.max(max_diff(&sim.get3(&format!("{p}.acc")), &f.map(|e| e / M)));
        }
    }
    [pos_err, vel_err, rate_err, acc_err]
}

#[test]
fn constant_force_through_cog_without_offset() {
    let f = [3000.0, -1200.0, 800.0];
    let [pos, vel, rate, acc] = run_case([0.0; 3], [0.0; 3], [0.0; 3], f, 20.0);
    let scale = 0.5 * 3000.0 / M * 400.0;
    eprintln!(
        "translation, c = 0, level: max |x - F t^2/2m| = {pos:.3e} m (of {scale:.1} m), |v err| = {vel:.3e} m/s, \
         |w| = {rate:.3e} rad/s, |acc err| = {acc:.3e} m/s^2"
    );
    assert!(pos < 1e-9, "position error {pos}");
    assert!(vel < 1e-9, "velocity error {vel}");
    assert!(rate == 0.0, "rates {rate}");
    assert!(acc < 1e-12, "specific force error {acc}");
}

#[test]
fn constant_force_through_offset_cog_with_initial_attitude() {
    // CoM offset from the reference point; the force acts at a point on its line of action
    // through the CoM, so there is no moment about the CoM and the body only translates.
    let f: [f64; 3] = [1500.0, 900.0, -2400.0];
    let cg = [0.3, -0.2, 0.5];
    let norm = (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt();
    let ext = [0, 1, 2].map(|k| cg[k] - 2.5 * f[k] / norm);
    let euler0 = [0.2, -0.4, 2.5];
    let [pos, vel, rate, acc] = run_case(cg, ext, euler0, f, 20.0);
    eprintln!(
        "translation, c = {cg:?}, attitude {euler0:?}: max |x - R0 F t^2/2m| = {pos:.3e} m, |v err| = {vel:.3e} \
         m/s, |w| = {rate:.3e} rad/s, |acc err| = {acc:.3e} m/s^2"
    );
    assert!(pos < 1e-6, "position error {pos}");
    assert!(vel < 1e-9, "velocity error {vel}");
    assert!(rate < 1e-12, "rates {rate}");
    assert!(acc < 1e-10, "specific force error {acc}");
}

#[test]
fn free_fall_with_drag_matches_closed_form() {
    // Level body falling from rest with drag at the reference point (CoM there): w' = g - k w^2 / m,
    // so w = v_t tanh(g t / v_t) and z = v_t^2 / g ln cosh(g t / v_t), v_t = sqrt(m g / k).
    let (g, f, rho) = (9.80665, 2.0, 1.225);
    let k = 0.5 * rho * f;
    let v_t = (M * g / k).sqrt();
    let mut sim =
        Sim::new(&[("mass", r(M)), ("g", r(g)), ("drag_area", r(f)), ("rho", r(rho)), ("tolerance", r(1e-11))]);
    let (mut z_err, mut w_err, mut acc_err) = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..30 {
        let t0 = sim.time();
        sim.run_to(t0 + 1.0, 1.0);
        let t = sim.time();
        let w = v_t * (g * t / v_t).tanh();
        z_err = z_err.max((sim.get("z") - v_t * v_t / g * (g * t / v_t).cosh().ln()).abs());
        w_err = w_err.max(max_diff(&sim.get_names(["u", "v", "w"]), &[0.0, 0.0, w]));
        // Specific force = drag / m, pointing up (body -z).
        acc_err = acc_err.max(max_diff(&sim.get3("hub.acc"), &[0.0, 0.0, -k * w * w / M]));
    }
    eprintln!(
        "free fall with drag (v_t = {v_t:.2} m/s, 30 s): z error {z_err:.3e} m, w error {w_err:.3e} m/s, specific \
         force error {acc_err:.3e} m/s^2"
    );
    assert!(z_err < 1e-7 && w_err < 1e-8 && acc_err < 1e-9, "{z_err} {w_err} {acc_err}");
}
