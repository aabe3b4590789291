//! The wind and density inputs against independent references:
//! - Galilean invariance: an airframe at rest in a wind `W` (NED) feels the drag of the same
//!   airframe moving at `-W` in still air, to round-off;
//! - the drag against the closed form `-0.5 rho f |V| V`, `V = v - R^T W`, with `rho` the
//!   `air.density` input (or the `rho` parameter while that input is 0);
//! - `wind.body.*` = `R^T W`, `R` composed by the test from the Euler angles.

use crate::common::{Sim, compose, max_diff, mtv, r};

const M: f64 = 2100.0;
const F_AREA: f64 = 1.4;
const RHO: f64 = 1.225;
/// Attitude (phi, theta, psi), rad.
const EULER: [f64; 3] = [0.2, -0.15, 1.1];

fn sim(vel0: [f64; 3]) -> Sim {
    Sim::new(&[
        ("mass", r(M)),
        ("g", r(0.0)),
        ("drag_area", r(F_AREA)),
        ("rho", r(RHO)),
        ("phi0", r(EULER[0])),
        ("theta0", r(EULER[1])),
        ("psi0", r(EULER[2])),
        ("u0", r(vel0[0])),
        ("v0", r(vel0[1])),
        ("w0", r(vel0[2])),
    ])
}

fn free_acceleration(sim: &mut Sim) -> [f64; 3] {
    sim.get_names(["free.u_dot", "free.v_dot", "free.w_dot"])
}

#[test]
fn wind_gives_the_drag_of_the_opposite_motion_in_still_air() {
    let wind = [-9.0, 14.0, 2.5];
    let r0 = compose(321, [EULER[2], EULER[1], EULER[0]]);
    let wind_body = mtv(&r0, wind);
    let mut in_wind = sim([0.0; 3]);
    in_wind.set3("wind", wind);
    let mut moving = sim(wind_body.map(|c| -c));
    let (a, b) = (free_acceleration(&mut in_wind), free_acceleration(&mut moving));
    // Closed form: 0.5 rho f |V| V / m against the air velocity V = -R^T W.
    let speed = wind_body.iter().map(|c| c * c).sum::<f64>().sqrt();
    let expected = wind_body.map(|c| 0.5 * RHO * F_AREA * speed * c / M);
    let (galilean, closed) = (max_diff(&a, &b), max_diff(&a, &expected));
    let body_error = max_diff(&in_wind.get3("wind.body"), &wind_body);
    eprintln!(
        "airframe drag in wind {wind:?}: |a(wind) - a(motion -W)| = {galilean:.2e}, |a - closed form| = \
         {closed:.2e} m/s^2 (of {:.3}); |wind.body - R^T W| = {body_error:.2e} m/s",
        expected.iter().fold(0.0_f64, |m, c| m.max(c.abs()))
    );
    assert!(galilean < 1e-13 && closed < 1e-13 && body_error < 1e-13);
    // The density input replaces the parameter.
    in_wind.set("air.density", 0.9);
    let scaled = expected.map(|c| c * 0.9 / RHO);
    let density_error = max_diff(&free_acceleration(&mut in_wind), &scaled);
    eprintln!("air.density 0.9: |a - closed form| = {density_error:.2e} m/s^2");
    assert!(density_error < 1e-13);
}
