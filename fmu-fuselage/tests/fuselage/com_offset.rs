//! Validation 6: CoM offset from the reference point.
//!
//! (a) A pure couple about a principal axis rotates the body about its (fixed) CoM: closed form
//!     for the attitude, the reference point's path and its velocity `w x (-c)`.
//! (b) A general case (full inertia tensor, gravity, drag, loads with moments at all three
//!     points, initial motion) against the independent CoM-based reference integration,
//!     including the attachment-point specific forces and angular accelerations.

use crate::common::{
    Load, RefBody, Sim, Val, compose, cross, inertia_parameters, mat_diff, max_diff, mv, quat_dcm, r, rot, sci,
};

#[test]
fn pure_couple_rotates_about_the_cog() {
    let (m, iyy, my) = (2100.0, 4892.0, 400.0);
    let c = [0.6, 0.0, 0.4];
    let mut sim =
        Sim::new(&[("mass", r(m)), ("g", r(0.0)), ("cg.x", r(c[0])), ("cg.z", r(c[2])), ("tolerance", r(1e-11))]);
    sim.set3("hub.M", [0.0, my, 0.0]);
    let alpha = my / iyy; // about the CoM: the CoM does not move
    let mut err = [0.0f64; 4];
    for _ in 0..20 {
        let t0 = sim.time();
        sim.run_to(t0 + 0.25, 0.25);
        let t = sim.time();
        let (theta, q) = (0.5 * alpha * t * t, alpha * t);
        let pos_o = [0, 1, 2].map(|k| c[k] - mv(&rot(1, theta), c)[k]);
        err[0] = err[0].max((sim.get("theta") - theta).abs());
        err[1] = err[1].max(max_diff(&sim.get_names(["x", "y", "z"]), &pos_o));
        err[2] = err[2].max(max_diff(&sim.get_names(["u", "v", "w"]), &cross([0.0, q, 0.0], c.map(|e| -e))));
        err[3] = err[3].max(max_diff(&sim.get_names(["p", "r"]), &[0.0; 2]));
    }
    eprintln!(
        "pure couple with CoM offset {c:?}: theta error {:.3e} rad, reference-point path error {:.3e} m, its \
         velocity vs w x (-c) {:.3e} m/s, off-axis rates {:.3e} rad/s (theta reached {:.2} rad)",
        err[0],
        err[1],
        err[2],
        err[3],
        0.5 * alpha * 25.0
    );
    assert!(err[0] < 1e-9 && err[1] < 1e-9 && err[2] < 1e-9 && err[3] < 1e-12, "{err:?}");
}

#[test]
fn general_offset_case_matches_cog_reference() {
    let m = 2100.0;
    let c = [0.15, 0.02, 0.3];
    let i_cm = [[1803.0, -40.0, 500.0], [-40.0, 4892.0, 25.0], [500.0, 25.0, 4428.0]];
    let (g, drag_area, rho) = (9.80665, 1.5, 1.225);
    let points = [[0.0, 0.0, -1.5], [-6.0, 0.0, -1.0], [1.0, 0.8, 0.5]];
    let forces = [[200.0, 50.0, -20500.0], [0.0, 700.0, 0.0], [-300.0, 0.0, 100.0]];
    // Hub couple chosen so the net moment about O at the initial attitude is about (87, -189, 130) N m.
    let moments = [[-1200.0, 3300.0, 4100.0], [0.0, 150.0, 0.0], [20.0, 0.0, -10.0]];
    let (euler0, vel0, rates0) = ([0.05, -0.03, 0.8], [30.0, 2.0, -1.0], [0.1, -0.05, 0.2]);
    let t_end = 20.0;

    let mut params: Vec<(&str, Val)> =
        vec![("mass", r(m)), ("g", r(g)), ("drag_area", r(drag_area)), ("rho", r(rho)), ("tolerance", r(1e-11))];
    params.extend(inertia_parameters(&i_cm));
    let names3 = |a: &'static str, b: &'static str, cc: &'static str| [a, b, cc];
    for (n, v) in [
        (names3("cg.x", "cg.y", "cg.z"), c),
        (names3("hub.x", "hub.y", "hub.z"), points[0]),
        (names3("tail.x", "tail.y", "tail.z"), points[1]),
        (names3("ext.x", "ext.y", "ext.z"), points[2]),
        (names3("phi0", "theta0", "psi0"), euler0),
        (names3("u0", "v0", "w0"), vel0),
        (names3("p0", "q0", "r0"), rates0),
    ] {
        for k in 0..3 {
            params.push((n[k], r(v[k])));
        }
    }
    let mut sim = Sim::new(&params);
    for (k, p) in ["hub", "tail", "ext"].iter().enumerate() {
        sim.set3(&format!("{p}.F"), forces[k]);
        sim.set3(&format!("{p}.M"), moments[k]);
    }
    sim.run_to(t_end, 0.5);

    let body = RefBody {
        m,
        c,
        i_cm,
        g,
        drag: 0.5 * rho * drag_area,
        loads: (0..3).map(|k| Load { at: points[k], force: forces[k], moment: moments[k] }).collect(),
    };
    let q0 = {
        // Quaternion of the 3-2-1 initial attitude, built from half-angle elementary quaternions.
        let h = |a: f64| (0.5 * a).sin_cos();
        let ((sp, cp), (st, ct), (ss, cs)) = (h(euler0[0]), h(euler0[1]), h(euler0[2]));
        [
            cs * ct * cp + ss * st * sp,
            cs * ct * sp - ss * st * cp,
            cs * st * cp + ss * ct * sp,
            ss * ct * cp - cs * st * sp,
        ]
    };
    assert!(mat_diff(&quat_dcm(q0), &compose(321, [euler0[2], euler0[1], euler0[0]])) < 1e-15);
    let s0 = body.state_from_o([0.0; 3], q0, vel0, rates0);
    let s = body.rk4(s0, t_end, 40_000);
    let s_coarse = body.rk4(s0, t_end, 20_000);
    let ref_step_err = max_diff(&s, &s_coarse);

    let pos_err = max_diff(&sim.get_names(["x", "y", "z"]), &body.pos_o(&s));
    let vel_err = max_diff(&sim.get_names(["u", "v", "w"]), &body.vel_o(&s));
    let rate_err = max_diff(&sim.get_names(["p", "q", "r"]), &[s[10], s[11], s[12]]);
    let att_err = mat_diff(&quat_dcm(sim.get_names(["q.w", "q.x", "q.y", "q.z"])), &quat_dcm([s[6], s[7], s[8], s[9]]));
    let (_, alpha_ref) = body.accelerations(&s);
    let mut acc_err = 0.0f64;
    let mut alpha_err = 0.0f64;
    let mut pvel_err = 0.0f64;
    for (k, p) in ["hub", "tail", "ext"].iter().enumerate() {
        acc_err = acc_err.max(max_diff(&sim.get3(&format!("{p}.acc")), &body.specific_force(&s, points[k])));
        alpha_err = alpha_err.max(max_diff(&sim.get3(&format!("{p}.alpha")), &alpha_ref));
        let v_p = [0, 1, 2].map(|j| body.vel_o(&s)[j] + cross([s[10], s[11], s[12]], points[k])[j]);
        pvel_err = pvel_err.max(max_diff(&sim.get3(&format!("{p}.vel")), &v_p));
    }
    eprintln!(
        "general CoM-offset case after {t_end} s (reference RK4 dt = 0.5 ms, step-halving change {ref_step_err:.3e}): \
         errors position {pos_err:.3e} m, velocity {vel_err:.3e} m/s, rates {rate_err:.3e} rad/s, attitude \
         {att_err:.3e}, point velocity {pvel_err:.3e} m/s, specific force {acc_err:.3e} m/s^2, alpha {alpha_err:.3e} \
         rad/s^2; final position {} m, rates {} rad/s",
        sci(&body.pos_o(&s)),
        sci(&s[10..13])
    );
    assert!(pos_err < 1e-6, "position {pos_err}");
    assert!(vel_err < 1e-7, "velocity {vel_err}");
    assert!(rate_err < 1e-8, "rates {rate_err}");
    assert!(att_err < 1e-8, "attitude {att_err}");
    assert!(pvel_err < 1e-7, "point velocity {pvel_err}");
    assert!(acc_err < 1e-7, "specific force {acc_err}");
    assert!(alpha_err < 1e-8, "alpha {alpha_err}");
}
