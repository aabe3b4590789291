//! Validation 5: the DOF mask (bit k = axis k free, axes u v w p q r). Blocked axes have zero
//! acceleration, so each case below has a closed form.

use crate::common::{Sim, Val, compose, cross, i, max_diff, mv, r};

const M: f64 = 2100.0;
const G: f64 = 9.80665;

/// Loads with every component non-zero at two points, and a CoM offset.
fn loaded_sim(mask: i32, euler0: [f64; 3], g: f64) -> Sim {
    let params: [(&str, Val); 9] = [
        ("mass", r(M)),
        ("g", r(g)),
        ("cg.x", r(0.4)),
        ("cg.y", r(0.1)),
        ("cg.z", r(-0.3)),
        ("phi0", r(euler0[0])),
        ("theta0", r(euler0[1])),
        ("psi0", r(euler0[2])),
        ("dof_mask", i(mask)),
    ];
    let mut sim = Sim::new(&params);
    sim.set3("hub.F", [500.0, -300.0, -12000.0]);
    sim.set3("hub.M", [100.0, 200.0, -50.0]);
    sim.set3("tail.F", [0.0, 800.0, 40.0]);
    sim.set3("tail.M", [-20.0, 600.0, 30.0]);
    sim
}

/// Body-axis load sum of `loaded_sim`, N.
const F_BODY: [f64; 3] = [500.0, 500.0, -11960.0];

#[test]
fn only_heave_free_moves_along_body_z() {
    let euler0 = [0.1, 0.05, 0.7];
    let mut sim = loaded_sim(0b000100, euler0, G);
    let r0 = compose(321, [euler0[2], euler0[1], euler0[0]]);
    // Body-z specific force plus the body-z component of gravity.
    let g_body = [r0[2][0] * G, r0[2][1] * G, r0[2][2] * G];
    let a = F_BODY[2] / M + g_body[2];
    // Specific force: the acceleration (body z only) minus gravity.
    let specific_force = [-g_body[0], -g_body[1], a - g_body[2]];
    let mut err = [0.0f64; 5];
    for _ in 0..10 {
        let t0 = sim.time();
        sim.run_to(t0 + 0.5, 0.5);
        let t = sim.time();
        let pos = mv(&r0, [0.0, 0.0, 0.5 * a * t * t]);
        err[0] = err[0].max(max_diff(&sim.get_names(["x", "y", "z"]), &pos));
        err[1] = err[1].max(max_diff(&sim.get_names(["u", "v", "w"]), &[0.0, 0.0, a * t]));
        err[2] = err[2].max(max_diff(&sim.get_names(["p", "q", "r"]), &[0.0; 3]));
        err[3] = err[3].max(max_diff(&sim.get_names(["phi", "theta", "psi"]), &euler0));
        err[4] = err[4].max(max_diff(&sim.get3("hub.acc"), &specific_force));
    }
    eprintln!(
        "dof_mask = w only: errors vs closed form: position {:.3e} m, velocity {:.3e} m/s, rates {:.3e} rad/s, \
         attitude {:.3e} rad, hub specific force {:.3e} m/s^2",
        err[0], err[1], err[2], err[3], err[4]
    );
    assert!(err[0] < 1e-9 && err[1] < 1e-10 && err[4] < 1e-12, "{err:?}");
    assert!(err[2] == 0.0 && err[3] < 1e-14, "{err:?}");
}

#[test]
fn translations_only_ignore_moments() {
    let euler0 = [-0.2, 0.3, -1.0];
    let mut sim = loaded_sim(0b000111, euler0, G);
    let r0 = compose(321, [euler0[2], euler0[1], euler0[0]]);
    let g_body = [r0[2][0] * G, r0[2][1] * G, r0[2][2] * G];
    let a = [0, 1, 2].map(|k| F_BODY[k] / M + g_body[k]);
    sim.run_to(5.0, 0.5);
    let t = sim.time();
    let pos_err = max_diff(&sim.get_names(["x", "y", "z"]), &mv(&r0, a.map(|e| 0.5 * e * t * t)));
    let vel_err = max_diff(&sim.get_names(["u", "v", "w"]), &a.map(|e| e * t));
    let rate = max_diff(&sim.get_names(["p", "q", "r"]), &[0.0; 3]);
    eprintln!(
        "dof_mask = u v w: position error {pos_err:.3e} m, velocity error {vel_err:.3e} m/s, rates {rate:.3e} rad/s"
    );
    assert!(pos_err < 1e-9 && vel_err < 1e-10 && rate == 0.0);
}

#[test]
fn pitch_only_rotates_about_body_y_with_inertia_about_reference_point() {
    let (iyy, cg) = (4892.0, [0.4, 0.0, -0.3]);
    let my = 1500.0;
    let mut sim = Sim::new(&[
        ("mass", r(M)),
        ("g", r(0.0)),
        ("cg.x", r(cg[0])),
        ("cg.z", r(cg[2])),
        ("I.xy", r(35.0)),
        ("I.yz", r(-60.0)),
        ("dof_mask", i(0b010000)),
    ]);
    sim.set3("hub.F", [0.0, 0.0, 0.0]);
    sim.set3("hub.M", [300.0, my, -200.0]);
    // Parallel-axis theorem about the reference point.
    let i_o = iyy + M * (cg[0] * cg[0] + cg[2] * cg[2]);
    let alpha = my / i_o;
    let hub = [0.0, 0.0, -1.5];
    let mut err = [0.0f64; 5];
    for _ in 0..10 {
        let t0 = sim.time();
        sim.run_to(t0 + 0.2, 0.2);
        let t = sim.time();
        let theta = 0.5 * alpha * t * t;
        err[0] = err[0].max(max_diff(&sim.get_names(["phi", "theta", "psi"]), &[0.0, theta, 0.0]));
        err[1] = err[1].max(max_diff(&sim.get_names(["p", "q", "r"]), &[0.0, alpha * t, 0.0]));
        err[2] = err[2].max(max_diff(&sim.get_names(["x", "y", "z", "u", "v", "w"]), &[0.0; 6]));
        err[3] = err[3].max(max_diff(&sim.get3("hub.alpha"), &[0.0, alpha, 0.0]));
        err[4] = err[4].max(max_diff(&sim.get3("hub.vel"), &cross([0.0, alpha * t, 0.0], hub)));
    }
    eprintln!(
        "dof_mask = q only: theta error {:.3e} rad, rate error {:.3e} rad/s, translation {:.3e}, alpha error {:.3e} \
         rad/s^2, hub velocity error {:.3e} m/s",
        err[0], err[1], err[2], err[3], err[4]
    );
    assert!(err[0] < 1e-10 && err[1] < 1e-10 && err[2] == 0.0 && err[3] < 1e-14 && err[4] < 1e-10, "{err:?}");
}

#[test]
fn all_blocked_stays_put() {
    let mut sim = loaded_sim(0, [0.1, 0.2, 0.3], G);
    sim.run_to(2.0, 0.5);
    let moved = max_diff(&sim.get_names(["x", "y", "z", "u", "v", "w", "p", "q", "r"]), &[0.0; 9]);
    assert_eq!(moved, 0.0);
}

/// `free.*` reads the accelerations the body would have with every DOF free, whatever the mask:
/// with all axes blocked it equals the free body's state derivative, measured here by a central
/// difference of the free body's velocities and rates over +-0.1 ms (truncation falls 100x per 10x in h).
#[test]
fn free_accelerations_are_the_unblocked_state_derivative() {
    const FREE: [&str; 6] = ["free.u_dot", "free.v_dot", "free.w_dot", "free.p_dot", "free.q_dot", "free.r_dot"];
    const STATE: [&str; 6] = ["u", "v", "w", "p", "q", "r"];
    let euler0 = [0.1, -0.2, 0.4];
    let blocked = loaded_sim(0, euler0, G).get_names(FREE);
    let h = 1e-4;
    let mut minus = loaded_sim(63, euler0, G);
    let mut plus = loaded_sim(63, euler0, G);
    // Central difference about t = h from the states at t = 0 and t = 2h.
    minus.run_to(h, h);
    let at_h = minus.get_names(FREE);
    plus.run_to(2.0 * h, h);
    let start = loaded_sim(63, euler0, G).get_names(STATE);
    let end = plus.get_names(STATE);
    let central: [f64; 6] = std::array::from_fn(|k| (end[k] - start[k]) / (2.0 * h));
    let scale = blocked.iter().fold(0.0f64, |m, a| m.max(a.abs()));
    let unblocked = loaded_sim(63, euler0, G).get_names(FREE);
    let same = max_diff(&blocked, &unblocked);
    let fd = max_diff(&at_h, &central);
    eprintln!(
        "free.* blocked vs free body: {same:.3e}; vs central difference of the state: {fd:.3e} (scale {scale:.3e})"
    );
    assert!(same == 0.0, "blocked {blocked:?} vs free {unblocked:?}");
    // Central-difference truncation, h^2/6 times the third derivative: far below 1e-6 of the scale.
    assert!(fd < 1e-6 * scale, "{at_h:?} vs {central:?}");
}
