//! Validation 6: CoM offset from the reference point.
//!
//! (a) A pure couple about a principal axis rotates the body about its (fixed) CoM: closed form
//!     for the attitude, the reference point's path and its velocity `w x (-c)`.
//! (b) A general case (full inertia tensor, gravity, drag, loads with moments at all three
//!     points, initial motion) against the independent CoM-based reference integration,
//!     including the attachment-point specific forces and angular accelerations.

use crate::common::{
    Load, RefBody, RefState, Sim, Val, compose, cross, inertia_parameters, mat_diff, max_diff, mv, quat_dcm, r, rot,
    sci,
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

// The general case: full inertia tensor, gravity, drag, loads with moments at the hub, tail and
// external points, initial attitude and motion.
const MASS: f64 = 2100.0;
/// Centre of mass relative to the reference point O, body axes, m.
const COM: [f64; 3] = [0.15, 0.02, 0.3];
/// Inertia about the CoM, body axes, kg m^2.
const I_CM: [[f64; 3]; 3] = [[1803.0, -40.0, 500.0], [-40.0, 4892.0, 25.0], [500.0, 25.0, 4428.0]];
const G: f64 = 9.80665;
const DRAG_AREA: f64 = 1.5;
const RHO: f64 = 1.225;
/// The load points `hub`, `tail`, `ext`, in this order.
const POINT_NAMES: [&str; 3] = ["hub", "tail", "ext"];
/// Positions of the load points relative to O, body axes, m.
const POINTS: [[f64; 3]; 3] = [[0.0, 0.0, -1.5], [-6.0, 0.0, -1.0], [1.0, 0.8, 0.5]];
const FORCES: [[f64; 3]; 3] = [[200.0, 50.0, -20500.0], [0.0, 700.0, 0.0], [-300.0, 0.0, 100.0]];
// Hub couple chosen so the net moment about O at the initial attitude is about (87, -189, 130) N m.
const MOMENTS: [[f64; 3]; 3] = [[-1200.0, 3300.0, 4100.0], [0.0, 150.0, 0.0], [20.0, 0.0, -10.0]];
/// Initial 3-2-1 Euler angles (phi, theta, psi), rad.
const EULER0: [f64; 3] = [0.05, -0.03, 0.8];
/// Initial velocity of O, body axes, m/s.
const VEL0: [f64; 3] = [30.0, 2.0, -1.0];
/// Initial body rates, rad/s.
const RATES0: [f64; 3] = [0.1, -0.05, 0.2];
const T_END: f64 = 20.0;

/// The Fuselage FMU in the general case, run to [`T_END`].
fn general_case_fmu() -> Sim {
    let mut params: Vec<(&str, Val)> =
        vec![("mass", r(MASS)), ("g", r(G)), ("drag_area", r(DRAG_AREA)), ("rho", r(RHO)), ("tolerance", r(1e-11))];
    params.extend(inertia_parameters(&I_CM));
    let names3 = |a: &'static str, b: &'static str, cc: &'static str| [a, b, cc];
    for (n, v) in [
        (names3("cg.x", "cg.y", "cg.z"), COM),
        (names3("hub.x", "hub.y", "hub.z"), POINTS[0]),
        (names3("tail.x", "tail.y", "tail.z"), POINTS[1]),
        (names3("ext.x", "ext.y", "ext.z"), POINTS[2]),
        (names3("phi0", "theta0", "psi0"), EULER0),
        (names3("u0", "v0", "w0"), VEL0),
        (names3("p0", "q0", "r0"), RATES0),
    ] {
        for k in 0..3 {
            params.push((n[k], r(v[k])));
        }
    }
    let mut sim = Sim::new(&params);
    for (k, p) in POINT_NAMES.iter().enumerate() {
        sim.set3(&format!("{p}.F"), FORCES[k]);
        sim.set3(&format!("{p}.M"), MOMENTS[k]);
    }
    sim.run_to(T_END, 0.5);
    sim
}

/// The general case as the independent CoM-based reference body.
fn general_case_reference() -> RefBody {
    RefBody {
        m: MASS,
        c: COM,
        i_cm: I_CM,
        g: G,
        drag: 0.5 * RHO * DRAG_AREA,
        loads: (0..3).map(|k| Load { at: POINTS[k], force: FORCES[k], moment: MOMENTS[k] }).collect(),
    }
}

/// Quaternion of a 3-2-1 attitude `[phi, theta, psi]`, built from half-angle elementary
/// quaternions.
fn quaternion_321(euler: [f64; 3]) -> [f64; 4] {
    let h = |a: f64| (0.5 * a).sin_cos();
    let ((sp, cp), (st, ct), (ss, cs)) = (h(euler[0]), h(euler[1]), h(euler[2]));
    [cs * ct * cp + ss * st * sp, cs * ct * sp - ss * st * cp, cs * st * cp + ss * ct * sp, ss * ct * cp - cs * st * sp]
}

/// The largest errors over the three load points of the FMU's specific force, angular
/// acceleration and point velocity against the reference state `s`.
fn load_point_errors(sim: &mut Sim, body: &RefBody, s: &RefState) -> (f64, f64, f64) {
    let (_, alpha_ref) = body.accelerations(s);
    let mut acc_err = 0.0f64;
    let mut alpha_err = 0.0f64;
    let mut pvel_err = 0.0f64;
    for (k, p) in POINT_NAMES.iter().enumerate() {
        acc_err = acc_err.max(max_diff(&sim.get3(&format!("{p}.acc")), &body.specific_force(s, POINTS[k])));
        alpha_err = alpha_err.max(max_diff(&sim.get3(&format!("{p}.alpha")), &alpha_ref));
        let v_p = [0, 1, 2].map(|j| body.vel_o(s)[j] + cross([s[10], s[11], s[12]], POINTS[k])[j]);
        pvel_err = pvel_err.max(max_diff(&sim.get3(&format!("{p}.vel")), &v_p));
    }
    (acc_err, alpha_err, pvel_err)
}

#[test]
fn general_offset_case_matches_cog_reference() {
    let mut sim = general_case_fmu();
    let body = general_case_reference();
    let q0 = quaternion_321(EULER0);
    assert!(mat_diff(&quat_dcm(q0), &compose(321, [EULER0[2], EULER0[1], EULER0[0]])) < 1e-15);
    let s0 = body.state_from_o([0.0; 3], q0, VEL0, RATES0);
    let s = body.rk4(s0, T_END, 40_000);
    let s_coarse = body.rk4(s0, T_END, 20_000);
    let ref_step_err = max_diff(&s, &s_coarse);

    let pos_err = max_diff(&sim.get_names(["x", "y", "z"]), &body.pos_o(&s));
    let vel_err = max_diff(&sim.get_names(["u", "v", "w"]), &body.vel_o(&s));
    let rate_err = max_diff(&sim.get_names(["p", "q", "r"]), &[s[10], s[11], s[12]]);
    let att_err = mat_diff(&quat_dcm(sim.get_names(["q.w", "q.x", "q.y", "q.z"])), &quat_dcm([s[6], s[7], s[8], s[9]]));
    let (acc_err, alpha_err, pvel_err) = load_point_errors(&mut sim, &body, &s);
    eprintln!(
        "general CoM-offset case after {T_END} s (reference RK4 dt = 0.5 ms, step-halving change {ref_step_err:.3e}): \
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
