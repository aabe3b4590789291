//! Landing gear against closed forms: a body on four symmetric legs heaves at
//! `omega = sqrt(4 k / m)` about its static deflection `m g / (4 k)` without rotating, settles
//! there with damping (the legs then carry its weight), and slides on the horizontal springs at
//! `sqrt(4 k_h / m)`. Legs off the ground carry nothing.

use crate::common::{Sim, r};

const M: f64 = 2100.0;
const G: f64 = 9.80665;
const K: f64 = 1.0e5;
/// Contact points: a rectangle symmetric about the CoM, `LEG_Z` below it.
const LEGS: [[f64; 2]; 4] = [[1.5, 1.0], [1.5, -1.0], [-1.5, 1.0], [-1.5, -1.0]];

fn airframe(leg_z: f64, extra: &[(&str, f64)]) -> Sim {
    let mut params: Vec<(String, f64)> =
        vec![("mass".into(), M), ("g".into(), G), ("gear.k".into(), K), ("tolerance".into(), 1e-11)];
    for (i, [x, y]) in LEGS.iter().enumerate() {
        for (axis, value) in [("x", *x), ("y", *y), ("z", leg_z)] {
            params.push((format!("gear[{}].{axis}", i + 1), value));
        }
    }
    params.extend(extra.iter().map(|(n, v)| (n.to_string(), *v)));
    let named: Vec<(&str, crate::common::Val)> = params.iter().map(|(n, v)| (n.as_str(), r(*v))).collect();
    Sim::new(&named)
}

#[test]
fn heave_on_the_gear_follows_the_spring_mass_closed_form() {
    let static_deflection = M * G / (4.0 * K);
    let amplitude = 0.02; // less than the static deflection: the legs never leave the ground
    let z_eq = -1.0 + static_deflection;
    let mut sim = airframe(1.0, &[("z0", z_eq - amplitude)]);
    let omega = (4.0 * K / M).sqrt();
    let (mut z_err, mut rotation, mut load_err) = (0.0f64, 0.0f64, 0.0f64);
    while sim.time() < 2.0 - 1e-9 {
        let t = sim.time() + 0.01;
        sim.run_to(t, 0.01);
        let expected = z_eq - amplitude * (omega * t).cos();
        let [z, p, q, rr, phi, theta] = sim.get_names(["z", "p", "q", "r", "phi", "theta"]);
        z_err = z_err.max((z - expected).abs());
        rotation = rotation.max(p.abs()).max(q.abs()).max(rr.abs()).max(phi.abs()).max(theta.abs());
        let loads = sim.get_names(["gear[1].load", "gear[2].load", "gear[3].load", "gear[4].load"]);
        load_err = load_err.max((loads.iter().sum::<f64>() - 4.0 * K * (z + 1.0)).abs());
    }
    eprintln!(
        "heave on the gear over 2 s: |z - closed form| {z_err:.2e} m, rotation {rotation:.1e}, load {load_err:.1e} N"
    );
    assert!(z_err < 1e-7, "{z_err}");
    assert!(rotation < 1e-9, "{rotation}");
    assert!(load_err < 1e-6, "{load_err}");
}

#[test]
fn damped_drop_settles_on_the_static_deflection() {
    let c = 0.5 * 2.0 * (K * M / 4.0).sqrt(); // half the critical damping of one leg's share
    // Dropped from 5 cm above the ground.
    let mut sim = airframe(1.0, &[("gear.c", c), ("z0", -1.05)]);
    sim.run_to(0.05, 0.01);
    let loads = sim.get_names(["gear[1].load", "gear[2].load", "gear[3].load", "gear[4].load"]);
    assert_eq!(loads, [0.0; 4], "in the air for the first 0.1 s of the fall");
    sim.run_to(6.0, 0.01);
    let z = sim.get("z");
    let loads = sim.get_names(["gear[1].load", "gear[2].load", "gear[3].load", "gear[4].load"]);
    let expected = -1.0 + M * G / (4.0 * K);
    eprintln!("settled at z = {z:.9} m (closed form {expected:.9}), legs {loads:?} N");
    assert!((z - expected).abs() < 1e-6, "{z} vs {expected}");
    for load in loads {
        assert!((load - M * G / 4.0).abs() < 1e-2, "{loads:?}");
    }
}

#[test]
fn horizontal_springs_hold_the_airframe_where_it_stands() {
    // Legs at the CoM height, so a horizontal force makes no moment.
    let k_h = 2.0e4;
    let static_deflection = M * G / (4.0 * K);
    let v0 = 0.1;
    let mut sim = airframe(0.0, &[("gear.k_h", k_h), ("z0", static_deflection), ("v0", v0)]);
    let omega = (4.0 * k_h / M).sqrt();
    let mut y_err = 0.0f64;
    while sim.time() < 3.0 - 1e-9 {
        let t = sim.time() + 0.01;
        sim.run_to(t, 0.01);
        y_err = y_err.max((sim.get("y") - v0 / omega * (omega * t).sin()).abs());
    }
    eprintln!("sliding on the horizontal springs over 3 s: |y - closed form| {y_err:.2e} m");
    assert!(y_err < 1e-8, "{y_err}");
}
