//! Seed 004 equation (36), flap dynamics: Rotor.fmu and Aero.fmu coupled through the orchestrator
//! on a fixed hub, lag locked, no inflow, Table-1 data. The response to a small collective step
//! matches the linear flap equation whose coefficients this test derives independently for the
//! same blade (hinge offset, root cut-out, section positions):
//!
//! `I b'' + C b' + K b = F theta` with, for a section at radius `r` (`x = r - e` from the hinge)
//! seeing `U_T = Omega r` and `U_P = x b'`, the flap moment `int x dL`,
//! `dL = rho a c / 2 (U_T^2 theta - U_T U_P)`:
//! `F = rho a c / 2 Omega^2 int x r^2 dr`, `C = rho a c / 2 Omega int x^2 r dr` (over
//! `r_root..R`), and for a thin rigid blade `K = Omega^2 (I + e S)`.
//! The integrals are polynomials, evaluated in closed form here; the FMU uses Gauss-Legendre
//! stations, exact for them.
//!
//! The simplified eq. (36) replaces these by `C = I Omega gamma / 8` and `F = I Omega^2 gamma / 8`,
//! i.e. damping ratio `gamma / (16 nu)`: the note reports its distance from the consistent model.

use crate::common;

use std::path::Path;

// Seed 004 Table 1; THETA is the collective step.
use test_fmus::table1::{self, A, E, GAMMA, I, OMEGA, R, RHO, S, THETA};

const T_STEP: f64 = 0.02;
const H: f64 = 0.0005;
const STOP: f64 = 0.5;

/// `int_{a}^{b} (r - e) r^2 dr` and `int (r - e)^2 r dr` in closed form.
fn flap_integrals(a: f64, b: f64) -> (f64, f64) {
    let f = |r: f64| r.powi(4) / 4.0 - E * r.powi(3) / 3.0;
    let g = |r: f64| r.powi(4) / 4.0 - 2.0 * E * r.powi(3) / 3.0 + E * E * r * r / 2.0;
    (f(b) - f(a), g(b) - g(a))
}

/// Linear step response of `I b'' + C b' + K b = F theta` starting at rest at `t0`.
fn linear_response(t: f64, inertia: f64, damping: f64, stiffness: f64, forcing: f64) -> f64 {
    if t <= 0.0 {
        return 0.0;
    }
    let wn = (stiffness / inertia).sqrt();
    let zeta = damping / (2.0 * (stiffness * inertia).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let gain = forcing / stiffness * THETA;
    gain * (1.0 - (-zeta * wn * t).exp() * ((wd * t).cos() + zeta * wn / wd * (wd * t).sin()))
}

#[test]
fn flap_step_response_matches_the_linear_flap_equation() {
    let rotor = common::our_fmu("Rotor");
    let aero = common::our_fmu("Aero");
    let chord = table1::chord();
    let json = table1::rotor_aero_json(
        &rotor,
        &aero,
        &format!(
            r#""inputs": [ {{ "to": "rotor.blade[*].pitch", "signal": {{ "step": {{ "time": {T_STEP}, "before": 0.0, "after": {THETA} }} }} }} ],
      "experiment": {{ "stop": {STOP}, "step": {H} }},
      "master": {{ "extrapolate_inputs": true }},
      "outputs": ["rotor.blade[1].flap", "rotor.blade[3].flap", "aero.thrust"]"#
        ),
    );
    let (results, master) = common::run(common::system(&json, Path::new("/"))).unwrap();
    assert!(master.loops().is_empty(), "rotor kinematics are states: no algebraic loop with the aero");

    let (int_f, int_c) = flap_integrals(E, R);
    let k_rho = 0.5 * RHO * A * chord;
    let forcing = k_rho * OMEGA * OMEGA * int_f;
    let damping = k_rho * OMEGA * int_c;
    let stiffness = OMEGA * OMEGA * (I + E * S);
    let wn = (stiffness / I).sqrt();
    let zeta = damping / (2.0 * (stiffness * I).sqrt());
    let gain = forcing / stiffness;

    // Whole response against the linear equation.
    let flap = results.column("rotor.blade[1].flap").unwrap();
    let flap3 = results.column("rotor.blade[3].flap").unwrap();
    let final_value = gain * THETA;
    let mut worst: f64 = 0.0;
    for (n, &t) in results.time.iter().enumerate() {
        let reference = linear_response(t - T_STEP, I, damping, stiffness, forcing);
        worst = worst.max((flap[n] - reference).abs() / final_value);
        assert!((flap[n] - flap3[n]).abs() <= 1e-9 * final_value, "blades 1 and 3 respond alike in hover");
    }

    // The three characteristics, measured from the simulated response.
    let peak = (1..flap.len() - 1).find(|&n| flap[n] >= flap[n - 1] && flap[n] > flap[n + 1]).expect("an overshoot");
    // Parabola through the three samples around the peak.
    let (y0, y1, y2) = (flap[peak - 1], flap[peak], flap[peak + 1]);
    let offset = 0.5 * (y0 - y2) / (y0 - 2.0 * y1 + y2);
    let t_peak = results.time[peak] + offset * H - T_STEP;
    let y_peak = y1 - 0.25 * (y0 - y2) * offset;
    let settled = *flap.last().unwrap();
    let gain_sim = settled / THETA;
    let overshoot = y_peak / settled - 1.0;
    let zeta_sim = -overshoot.ln() / (std::f64::consts::PI.powi(2) + overshoot.ln().powi(2)).sqrt();
    let wn_sim = std::f64::consts::PI / (t_peak * (1.0 - zeta_sim * zeta_sim).sqrt());
    let rel = |a: f64, b: f64| (a - b).abs() / b.abs();
    eprintln!(
        "flap response: nu = {:.5}/rev (sim {:.5}), zeta = {zeta:.5} (sim {zeta_sim:.5}), gain = {gain:.5} (sim {gain_sim:.5}); \
         worst deviation from the linear response {worst:.2e} of the final value",
        wn / OMEGA,
        wn_sim / OMEGA
    );
    // The simplified eq. (36) for comparison (reported, not asserted).
    let nu36 = (1.0 + E * S / I).sqrt();
    let zeta36 = GAMMA / (16.0 * nu36);
    let gain36 = GAMMA / 8.0 / (1.0 + E * S / I);
    eprintln!(
        "simplified eq. (36): nu {nu36:.5}/rev, zeta {zeta36:.5} ({:+.1} %), gain {gain36:.5} ({:+.1} %)",
        100.0 * (zeta36 / zeta - 1.0),
        100.0 * (gain36 / gain - 1.0)
    );
    assert!(rel(wn_sim, wn) < 0.01, "natural frequency {wn_sim} vs {wn}");
    assert!(rel(zeta_sim, zeta) < 0.01, "damping ratio {zeta_sim} vs {zeta}");
    assert!(rel(gain_sim, gain) < 0.01, "static gain {gain_sim} vs {gain}");
    assert!(worst < 0.01, "response deviates by {worst:e} of the final value");
}
