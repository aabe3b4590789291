//! The example systems of `examples/` run through the library (`SystemDescription::from_file`,
//! then `Master`) for a short time, each checked against an independent reference computed here:
//!
//! - `gunns-6dof.json` (seed 003, the Fuselage FMU alone): from rest, the reference point
//!   accelerates at `F/m` and the body spins up at `I^-1 (r x F)`, the moment of the off-centre
//!   force; both in closed form.
//! - `flap-response.json` (seed 004 Table 1, Rotor + Aero on a fixed hub): the steady coning after
//!   the collective step against the linear flap equation's static gain, and the thrust against
//!   blade-element theory without inflow.
//! - `helicopter.json` (all four FMUs, six instances): the hub-load/hub-acceleration algebraic
//!   loop is found and solved by full Newton in one iteration (and by the default chord Newton
//!   to the same results with a few Jacobians for the whole run), the thrust is the weight within 20 % in
//!   the first revolution, and the hover power and yaw balance agree with momentum theory and the
//!   tail-rotor moment arm.
//! - The same helicopter on a held airframe: stick right rolls it right and stick forward pitches
//!   it nose down (the rotor-controls sign convention across the FMUs, see the README
//!   "Scenarios").
//!
//! The FMU paths of the examples are redirected to the packaged FMUs (`ROTORCRAFT_FMU_DIR`).

use crate::common;

use std::f64::consts::PI;

use common::{example, param, run_description};
use cosim::master::Results;
use cosim::system::{JacobianUpdate, SignalSpec, SystemDescription};
use fmu_core::verify::math::cross;

/// The constant signal driving `to`.
fn constant_input(description: &SystemDescription, to: &str) -> f64 {
    match description.inputs.iter().find(|i| i.to == to).map(|i| &i.signal) {
        Some(SignalSpec::Constant(v)) => *v,
        other => panic!("{to}: {other:?}"),
    }
}

fn set_constant_input(description: &mut SystemDescription, to: &str, value: f64) {
    let input = description.inputs.iter_mut().find(|i| i.to == to).unwrap();
    input.signal = SignalSpec::Constant(value);
}

fn column(results: &Results, name: &str) -> Vec<f64> {
    results.column(name).unwrap_or_else(|| panic!("{name} not recorded"))
}

fn sci(v: [f64; 3]) -> String {
    format!("({:.4e}, {:.4e}, {:.4e})", v[0], v[1], v[2])
}

/// `A^-1 b` for a 3x3 matrix by Cramer's rule.
fn solve3(a: [[f64; 3]; 3], b: [f64; 3]) -> [f64; 3] {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    let mut x = [0.0; 3];
    for (k, xk) in x.iter_mut().enumerate() {
        let mut m = a;
        for r in 0..3 {
            m[r][k] = b[r];
        }
        *xk = det(m) / d;
    }
    x
}

#[test]
fn gunns_6dof_example_accelerates_and_spins_up_as_the_closed_form() {
    let mut description = example("gunns-6dof.json");
    description.experiment.stop = 1.0;
    let p = |n: &str| param(&description, "body", n);
    let mass = p("mass");
    // Inertia tensor about the CoM (at the reference point here), body axes.
    let inertia =
        [[p("I.xx"), p("I.xy"), p("I.xz")], [p("I.xy"), p("I.yy"), p("I.yz")], [p("I.xz"), p("I.yz"), p("I.zz")]];
    let at = [p("ext.x"), p("ext.y"), p("ext.z")];
    let force = ["x", "y", "z"].map(|c| constant_input(&description, &format!("body.ext.F.{c}")));
    assert_eq!([p("cg.x"), p("cg.y"), p("cg.z"), p("g")], [0.0; 4], "the closed form assumes the CoM at O, no gravity");

    // Closed form from rest: translation F/m; the off-centre force's moment r x F spins the body
    // up at I^-1 (r x F) (translation-rotation coupling through the point of application).
    let accel = force.map(|f| f / mass);
    let moment = cross(at, force);
    let alpha = solve3(inertia, moment);
    // At the point of application, at rest: a_P = a_O + alpha x r (specific force, g = 0).
    let alpha_x_r = cross(alpha, at);
    let acc_point: [f64; 3] = std::array::from_fn(|k| accel[k] + alpha_x_r[k]);

    let (results, _) = run_description(&description);
    let t = &results.time;
    let get = |n: &str| column(&results, &format!("body.{n}"));
    let alpha_out = ["x", "y", "z"].map(|c| get(&format!("ext.alpha.{c}")));
    let acc_out = ["x", "y", "z"].map(|c| get(&format!("ext.acc.{c}")));
    let rates = ["p", "q", "r"].map(get);
    let vel = ["u", "v", "w"].map(get);
    let pos = ["x", "y", "z"].map(get);
    let alpha_norm = alpha.iter().map(|a| a * a).sum::<f64>().sqrt();
    let accel_norm = accel.iter().map(|a| a * a).sum::<f64>().sqrt();

    // The FMU's own acceleration outputs at t = 0 (direct feedthrough of the load).
    let mut worst_t0: f64 = 0.0;
    for k in 0..3 {
        worst_t0 = worst_t0.max((alpha_out[k][0] - alpha[k]).abs() / alpha_norm);
        worst_t0 = worst_t0.max((acc_out[k][0] - acc_point[k]).abs() / accel_norm);
    }
    // The integrated motion over the first second: w = alpha t, v = a t, x = a t^2 / 2, up to the
    // second-order terms w x v, w x I w and the attitude change, all of relative size alpha t^2
    // (about 1e-4 here at t = 1 s): tolerance 1e-3 of the leading term.
    let mut worst_motion: f64 = 0.0;
    for (n, &time) in t.iter().enumerate().skip(1) {
        for k in 0..3 {
            worst_motion = worst_motion.max((rates[k][n] - alpha[k] * time).abs() / (alpha_norm * time));
            worst_motion = worst_motion.max((vel[k][n] - accel[k] * time).abs() / (accel_norm * time));
            worst_motion =
                worst_motion.max((pos[k][n] - accel[k] * time * time / 2.0).abs() / (accel_norm * time * time / 2.0));
        }
    }
    eprintln!(
        "GUNNS 6-DOF: F/m = {} m/s^2, I^-1 (r x F) = {} rad/s^2 (r x F = {moment:?} N m); \
         outputs at t = 0 off by {worst_t0:.1e}, motion over 1 s off by {worst_motion:.1e} (relative)",
        sci(accel),
        sci(alpha)
    );
    assert!(worst_t0 < 1e-9, "acceleration outputs at t = 0 off by {worst_t0:e}");
    assert!(worst_motion < 1e-3, "early motion off by {worst_motion:e}");
    // The coupling is really there: the force along +x applied at +y, +z pitches the body up and
    // yaws it left (r x F = (0, 3000, -3000) N m).
    assert!(alpha[1] > 0.0 && alpha[2] < 0.0 && rates[1][t.len() - 1] > 0.0 && rates[2][t.len() - 1] < 0.0);
}

/// `int_a^b (r - e) r^2 dr` (flap moment of the lift per unit `rho a c / 2 Omega^2 theta`).
fn flap_forcing_integral(a: f64, b: f64, e: f64) -> f64 {
    let f = |r: f64| r.powi(4) / 4.0 - e * r.powi(3) / 3.0;
    f(b) - f(a)
}

#[test]
fn flap_response_example_cones_to_the_linear_static_gain() {
    let description = example("flap-response.json");
    let rp = |n: &str| param(&description, "rotor", n);
    let ap = |n: &str| param(&description, "aero", n);
    let (omega, e, s, inertia) = (rp("Omega"), rp("e"), rp("blade.S"), rp("blade.I"));
    let (rho, a, chord, r_tip, r_root, nb) = (ap("rho"), ap("a"), ap("chord"), ap("R"), ap("r_root"), ap("nb"));
    let theta = match &description.inputs[0].signal {
        SignalSpec::Step { after, .. } => *after,
        other => panic!("{other:?}"),
    };
    // Linear flap equation (see flap_response.rs): static gain F / K with F the lift moment per
    // radian of pitch and K = Omega^2 (I + e S) the centrifugal stiffness about the hinge.
    let k_rho = 0.5 * rho * a * chord;
    let forcing = k_rho * omega * omega * flap_forcing_integral(r_root, r_tip, e);
    let stiffness = omega * omega * (inertia + e * s);
    let coning = forcing / stiffness * theta;
    // Blade-element thrust without inflow at zero coning: nb rho a c / 2 Omega^2 theta int r^2 dr.
    let thrust = nb * k_rho * omega * omega * theta * (r_tip.powi(3) - r_root.powi(3)) / 3.0;

    let (results, master) = run_description(&description);
    assert!(master.loops().is_empty());
    let flap1 = column(&results, "rotor.blade[1].flap");
    let flap3 = column(&results, "rotor.blade[3].flap");
    let thrust_sim = *column(&results, "aero.thrust").last().unwrap();
    let settled = *flap1.last().unwrap();
    let coning_error = (settled - coning).abs() / coning;
    let thrust_error = (thrust_sim - thrust).abs() / thrust;
    eprintln!(
        "flap response: coning {:.5} deg (linear static gain {:.5} deg, {coning_error:.1e} off), thrust {thrust_sim:.1} N \
         (blade-element {thrust:.1} N, {thrust_error:.1e} off)",
        settled.to_degrees(),
        coning.to_degrees()
    );
    // The FMUs are nonlinear (coning shortens the lever arms and the in-plane velocity by
    // cos(beta), tilts the lift by beta, no small angles in the inflow angle): at beta ~ 1 deg those
    // effects are a few beta^2 ~ 3e-4 each; the step response has decayed to about 1e-4 by the
    // end (0.48 s after the step). Tolerance 2e-3 on both.
    assert!(coning_error < 2e-3, "coning {settled} vs {coning}");
    assert!(thrust_error < 2e-3, "thrust {thrust_sim} vs {thrust}");
    let spread = flap1.iter().zip(&flap3).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(spread < 1e-9 * coning, "blades 1 and 3 respond alike on a fixed hub in hover ({spread:e})");
}

/// Total mass of the helicopter in the description: airframe plus all rotor blades.
fn helicopter_mass(description: &SystemDescription) -> f64 {
    param(description, "fuselage", "mass")
        + param(description, "rotor", "nb") * param(description, "rotor", "blade.m")
        + param(description, "tail_rotor", "nb") * param(description, "tail_rotor", "blade.m")
}

#[test]
fn helicopter_example_solves_its_loop_by_newton_and_hovers_on_its_thrust() {
    let mut description = example("helicopter.json");
    let omega = param(&description, "rotor", "Omega");
    let revolution = 2.0 * PI / omega;
    description.experiment.stop = 2.0 * revolution;
    let g = param(&description, "fuselage", "g");
    let weight = helicopter_mass(&description) * g;
    let radius = param(&description, "aero", "R");
    let rho = param(&description, "aero", "rho");
    let tail_arm = -param(&description, "fuselage", "tail.x");
    // Full Newton, a fresh Jacobian at every iteration, for the one-iteration property below; the
    // default reuses the Jacobian (`chord_newton_on_the_helicopter_matches_full_newton`).
    description.master.jacobian = JacobianUpdate::EveryIteration;

    let (results, master) = run_description(&description);
    let loops = master.loops();
    eprintln!("loops: {loops:?}");
    assert_eq!(loops.len(), 1, "one algebraic loop: both rotors and the airframe through the hub accelerations");
    for name in [
        "rotor.hub.F.x",
        "rotor.hub.F.y",
        "rotor.hub.F.z",
        "rotor.hub.M.x",
        "rotor.hub.M.y",
        "rotor.hub.M.z",
        "fuselage.hub.acc.x",
        "fuselage.hub.acc.y",
        "fuselage.hub.acc.z",
        "fuselage.hub.alpha.x",
        "fuselage.hub.alpha.y",
        "fuselage.hub.alpha.z",
        "tail_rotor.hub.F.y",
        "fuselage.tail.acc.y",
    ] {
        assert!(loops[0].iter().any(|m| m == name), "{name} is not in the loop {loops:?}");
    }
    // The loop is linear in the coupling variables (hub loads are linear in the hub
    // accelerations, the airframe accelerations linear in the loads), so Newton with exact
    // directional-derivative Jacobians converges in one iteration at every point.
    let stats = master.stats();
    let summary = master.summary(0.0);
    eprintln!(
        "Newton iterations per point: mean {:.2}, max {}; max residual {:.1e}; rollbacks {}",
        summary.newton_iterations_mean, stats.newton_iterations_max, stats.max_residual, stats.rollbacks
    );
    assert_eq!(stats.newton_iterations_max, 1);
    assert_eq!(stats.rollbacks, 0);
    assert!(stats.max_residual < 1e-6, "loop residual {}", stats.max_residual);

    let t = &results.time;
    let thrust = column(&results, "aero.thrust");
    let power = column(&results, "aero.power");
    let tail_thrust = column(&results, "tail_aero.thrust");
    let shaft_torque = column(&results, "rotor.shaft.torque");
    let first: Vec<usize> = (0..t.len()).filter(|&n| t[n] <= revolution + 1e-9).collect();
    let worst = first.iter().map(|&n| (thrust[n] / weight - 1.0).abs()).fold(0.0, f64::max);
    let mean = |c: &[f64]| first.iter().map(|&n| c[n]).sum::<f64>() / first.len() as f64;
    let (t_mean, p_mean, tail_mean, q_mean) = (mean(&thrust), mean(&power), mean(&tail_thrust), mean(&shaft_torque));
    // Momentum theory: ideal induced power T^1.5 / sqrt(2 rho A); figure of merit.
    let ideal = t_mean.powf(1.5) / (2.0 * rho * PI * radius * radius).sqrt();
    let figure_of_merit = ideal / p_mean;
    let yaw_balance = tail_mean * tail_arm / q_mean;
    eprintln!(
        "first revolution: thrust {t_mean:.0} N = {:.4} W (worst sample {worst:.1e} off), main power {:.1} kW, \
         figure of merit {figure_of_merit:.3}, shaft torque {q_mean:.0} N m, tail thrust {tail_mean:.0} N, \
         tail moment / shaft torque {yaw_balance:.3}",
        t_mean / weight,
        p_mean / 1e3
    );
    assert!(worst < 0.2, "thrust off the weight by {worst} in the first revolution");
    // A well-designed hovering rotor has a figure of merit of 0.6-0.8 (profile power on top of
    // the ideal induced power, here with uniform inflow, no tip loss).
    assert!((0.6..0.8).contains(&figure_of_merit), "figure of merit {figure_of_merit}");
    // The example's pedal setting balances the main-rotor torque with the tail thrust.
    assert!((yaw_balance - 1.0).abs() < 0.05, "tail moment / torque {yaw_balance}");
}

/// Two threads (the rotors, their aero FMUs and the airframe step and are read at once) give the
/// results of one thread bit for bit, over a revolution.
#[test]
fn helicopter_on_two_threads_matches_one_thread_bit_for_bit() {
    let mut description = example("helicopter.json");
    description.experiment.stop = 2.0 * PI / param(&description, "rotor", "Omega");
    let mut runs = [1, 2].map(|threads| {
        description.master.threads = Some(threads);
        run_description(&description).0
    });
    let [one, two] = &mut runs;
    assert_eq!(one.names, two.names);
    assert!(one.time.len() > 50, "{} points", one.time.len());
    let bits = |r: &Results| r.time.iter().chain(&r.values).map(|x| x.to_bits()).collect::<Vec<_>>();
    assert!(bits(one) == bits(two), "one and two threads differ");
}

/// The default `master.jacobian = "reuse"` (chord Newton: the factorised loop Jacobian kept
/// across iterations and points while it contracts the residual tenfold per iteration) meets the
/// same loop tolerance as full Newton with a handful of Jacobians instead of one per point, and
/// the two runs agree to the loop tolerance's order.
#[test]
fn chord_newton_on_the_helicopter_matches_full_newton() {
    let mut description = example("helicopter.json");
    let omega = param(&description, "rotor", "Omega");
    description.experiment.stop = 2.0 * 2.0 * PI / omega;
    assert_eq!(description.master.jacobian, JacobianUpdate::Reuse, "the default");
    let (chord, chord_master) = run_description(&description);
    description.master.jacobian = JacobianUpdate::EveryIteration;
    let (full, full_master) = run_description(&description);
    let (c, f) = (chord_master.stats(), full_master.stats());
    let points = c.communication_points;
    let mut worst = (0.0_f64, String::new());
    for name in &chord.names {
        let (a, b) = (chord.column(name).unwrap(), full.column(name).unwrap());
        let scale = b.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-300);
        let d = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max) / scale;
        if d > worst.0 {
            worst = (d, name.clone());
        }
    }
    eprintln!(
        "chord Newton: {} Jacobians for {points} points, iterations mean {:.2} max {}, max residual {:.1e}; \
         full Newton: {} Jacobians, max residual {:.1e}; largest difference {:.1e} of max |{}|",
        c.jacobian_updates,
        c.newton_iterations_total as f64 / points as f64,
        c.newton_iterations_max,
        c.max_residual,
        f.jacobian_updates,
        f.max_residual,
        worst.0,
        worst.1
    );
    assert_eq!(f.newton_iterations_max, 1);
    assert!(c.jacobian_updates < points / 10, "{} Jacobians for {points} points", c.jacobian_updates);
    assert!(c.newton_iterations_max <= 6 && c.max_residual < 1e-6 && c.rollbacks == 0);
    assert!(worst.0 < 1e-8, "chord and full Newton differ by {:e} in {}", worst.0, worst.1);
}

/// Revolution-averaged hub loads and first-harmonic flapping of the main rotor with the airframe
/// held, for given cyclic inputs.
struct RotorResponse {
    /// Hub force and moment on the airframe, body axes (N, N m), averaged over the last revolution.
    force: [f64; 3],
    moment: [f64; 3],
    /// `beta = beta0 + beta1c cos psi + beta1s sin psi` over the last revolution (rad).
    beta1c: f64,
    beta1s: f64,
}

fn held_rotor_response(lon: f64, lat: f64) -> RotorResponse {
    let mut description = example("helicopter.json");
    let omega = param(&description, "rotor", "Omega");
    let steps_per_rev = 72;
    let revolution = 2.0 * PI / omega;
    description.experiment.step = revolution / steps_per_rev as f64;
    description.experiment.stop = 4.0 * revolution;
    description.set_number_parameter("fuselage", "dof_mask", 0.0);
    for (input, value) in [("controls.lon_cyclic", lon), ("controls.lat_cyclic", lat)] {
        set_constant_input(&mut description, input, value);
    }
    description.set_number_parameter("controls", "lon_cyclic0", lon);
    description.set_number_parameter("controls", "lat_cyclic0", lat);
    description.outputs.as_mut().unwrap().push("rotor.blade[1].azimuth".into());
    let (results, _) = run_description(&description);
    let n = results.time.len();
    let last = n - 1 - steps_per_rev..n - 1;
    let avg = |name: &str| column(&results, name)[last.clone()].iter().sum::<f64>() / steps_per_rev as f64;
    let psi = column(&results, "rotor.blade[1].azimuth");
    let beta = column(&results, "rotor.blade[1].flap");
    let harmonic =
        |f: fn(f64) -> f64| last.clone().map(|k| beta[k] * f(psi[k])).sum::<f64>() * 2.0 / steps_per_rev as f64;
    RotorResponse {
        force: ["x", "y", "z"].map(|c| avg(&format!("rotor.hub.F.{c}"))),
        moment: ["x", "y", "z"].map(|c| avg(&format!("rotor.hub.M.{c}"))),
        beta1c: harmonic(f64::cos),
        beta1s: harmonic(f64::sin),
    }
}

#[test]
fn stick_right_rolls_right_and_stick_forward_pitches_nose_down() {
    // Rotor turning anticlockwise seen from above, azimuth 0 over the tail, 90 deg on the right:
    // the flapping lags the pitch by about 90 deg, so the disk tilts towards where the pitch is
    // least a quarter turn earlier. Stick right must lower the blade on the right (beta1s < 0),
    // tilt the thrust right (F.y > 0) and roll the airframe right (M.x > 0); stick forward must
    // lower it over the nose (beta1c > 0), tilt the thrust forward (F.x > 0) and pitch the nose
    // down (M.y < 0). Differences between +/- 1.15 deg of cyclic, airframe held.
    let d = 0.02;
    let right = held_rotor_response(0.0, d);
    let left = held_rotor_response(0.0, -d);
    let forward = held_rotor_response(d, 0.0);
    let aft = held_rotor_response(-d, 0.0);
    let diff = |a: f64, b: f64| a - b;
    let lat = (
        diff(right.beta1c, left.beta1c),
        diff(right.beta1s, left.beta1s),
        diff(right.force[1], left.force[1]),
        diff(right.moment[0], left.moment[0]),
    );
    let lon = (
        diff(forward.beta1c, aft.beta1c),
        diff(forward.beta1s, aft.beta1s),
        diff(forward.force[0], aft.force[0]),
        diff(forward.moment[1], aft.moment[1]),
    );
    eprintln!(
        "stick right - left: d beta1c {:+.4}, d beta1s {:+.4} rad, d F.y {:+.0} N, d M.x {:+.0} N m; \
         stick forward - aft: d beta1c {:+.4}, d beta1s {:+.4} rad, d F.x {:+.0} N, d M.y {:+.0} N m",
        lat.0, lat.1, lat.2, lat.3, lon.0, lon.1, lon.2, lon.3
    );
    assert!(lat.1 < 0.0 && lat.1.abs() > lat.0.abs(), "stick right lowers the blade on the right: {lat:?}");
    assert!(lat.2 > 0.0 && lat.3 > 0.0, "stick right: side force and rolling moment to the right: {lat:?}");
    assert!(lon.0 > 0.0 && lon.0.abs() > lon.1.abs(), "stick forward lowers the blade over the nose: {lon:?}");
    assert!(lon.2 > 0.0 && lon.3 < 0.0, "stick forward: forward force and nose-down moment: {lon:?}");
    // In hover the rotor is axisymmetric: the lateral response is the longitudinal one turned by
    // 90 deg (d beta1s(lat) = -d beta1c(lon), d beta1c(lat) = d beta1s(lon)).
    assert!((lat.1 + lon.0).abs() < 1e-3 * lon.0.abs() && (lat.0 - lon.1).abs() < 1e-3 * lon.0.abs());
}
