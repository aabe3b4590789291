//! Hover with induced inflow against independent references:
//! - uniform momentum inflow (`inflow_model = 1`) against blade-element momentum theory solved in
//!   the test (`C_T = sigma a / 2 (theta0 / 3 + theta_tw / 4 - lambda / 2)`, `lambda = sqrt(C_T / 2)`),
//! - Pitt-Peters (`inflow_model = 2`) run in time until steady, against the uniform momentum
//!   inflow of the same rotor.

use std::f64::consts::PI;

use crate::common::test_rotor::{self, A, CHORD, OMEGA, R, TWIST};
use crate::common::{BladeState, Rotor, Sim, Val, blade_inputs, i, r, rel, set_blade};
use fmu_core::verify::math::simpson;

const NB: usize = 4;

/// Sets hover kinematics (coning `beta`, pitch `theta`) of all blades at shaft azimuth `psi0`.
fn set_hover(sim: &mut Sim, e: f64, theta: f64, beta: f64, psi0: f64) {
    let rotor = Rotor::hover(OMEGA, e);
    for b in 0..NB {
        let psi = psi0 + 2.0 * PI * b as f64 / NB as f64;
        set_blade(sim, b + 1, &blade_inputs(&rotor, &BladeState { psi, beta, theta, ..Default::default() }));
    }
}

/// Blade-element momentum theory for the ideal blade (no root cut-out, uniform chord, linear
/// twist `theta(r) = theta0 + theta_tw r/R`, small angles): `(C_T, lambda)`.
fn bemt(theta75: f64) -> (f64, f64) {
    let sigma = NB as f64 * CHORD / (PI * R);
    // Our twist is zero at 3/4 radius: theta(r) = theta75 + TWIST (r/R - 0.75).
    let theta0 = theta75 - 0.75 * TWIST;
    let k = theta0 / 3.0 + TWIST / 4.0;
    // 2 lambda^2 = sigma a / 2 (k - lambda / 2)  =>  2 lambda^2 + (sigma a / 4) lambda - (sigma a / 2) k = 0.
    let (qa, qb, qc) = (2.0, sigma * A / 4.0, -sigma * A / 2.0 * k);
    let lambda = (-qb + (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
    (2.0 * lambda * lambda, lambda)
}

/// The same problem without small angles: `dT = b 1/2 rho c a (theta(r) - atan(lambda R / r)) U (Omega r) dr`,
/// `U = Omega sqrt(r^2 + (lambda R)^2)`, lift normal to the relative wind (its thrust component
/// is `L cos(phi) = L Omega r / U`); `lambda = sqrt(C_T / 2)` by bisection.
fn exact_angle_bemt(theta75: f64) -> (f64, f64) {
    let ct_of = |lambda: f64| {
        let rho = 1.225;
        let f = |x: f64| {
            let rr = x * R;
            let (ut, up) = (OMEGA * rr, lambda * OMEGA * R);
            let u = (ut * ut + up * up).sqrt();
            let alpha = theta75 + TWIST * (x - 0.75) - up.atan2(ut);
            0.5 * rho * CHORD * A * alpha * u * ut
        };
        NB as f64 * simpson(f, 0.0, 1.0, 4000) * R / (rho * PI * R * R * (OMEGA * R).powi(2))
    };
    let (mut lo, mut hi) = (0.0, 0.5);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if 2.0 * mid * mid < ct_of(mid) { lo = mid } else { hi = mid }
    }
    let lambda = 0.5 * (lo + hi);
    (ct_of(lambda), lambda)
}

#[test]
fn uniform_momentum_hover_thrust_matches_blade_element_momentum_theory() {
    let mut sim = Sim::new(&test_rotor::parameters(NB, [0.0, 0.0], [0.0, 0.0], 1));
    let mut worst: f64 = 0.0;
    for deg in [3.0_f64, 5.0, 7.0, 9.0, 11.0, 13.0] {
        let theta = deg.to_radians();
        set_hover(&mut sim, 0.0, theta, 0.0, 0.1);
        let (ct, lambda) = (sim.get("CT"), sim.get("inflow"));
        let (ct_ref, lambda_ref) = bemt(theta);
        let (err_ct, err_lambda) = (rel(ct, ct_ref), rel(lambda, lambda_ref));
        worst = worst.max(err_ct);
        eprintln!(
            "collective {deg:4.1} deg: CT {ct:.6e} vs BEMT {ct_ref:.6e} (rel. error {err_ct:.2e}); inflow {lambda:.6} \
             vs {lambda_ref:.6} ({err_lambda:.2e})"
        );
        assert!(err_ct < 0.02, "CT within 2 % at {deg} deg");
        // Without the small-angle approximations the same blade-element momentum problem, solved
        // here by bisection with a fine Simpson rule, agrees to the quadrature accuracy.
        let (ct_exact, lambda_exact) = exact_angle_bemt(theta);
        eprintln!(
            "    exact-angle blade-element momentum (Simpson, bisection): CT {ct_exact:.9e} (rel. error {:.2e}), \
             inflow {lambda_exact:.9} ({:.2e})",
            rel(ct, ct_exact),
            rel(lambda, lambda_exact)
        );
        // (20 Gauss points resolve the inboard inflow angle atan(lambda R / r) to about 1e-7.)
        assert!(rel(ct, ct_exact) < 1e-6 && rel(lambda, lambda_exact) < 1e-6);
        // Our inflow satisfies momentum theory with our own thrust exactly.
        assert!(rel(lambda, (ct / 2.0).sqrt()) < 1e-12);
        let thrust = sim.get("thrust");
        assert!(rel(thrust, ct * 1.225 * PI * R * R * (OMEGA * R).powi(2)) < 1e-12);
    }
    eprintln!("hover thrust vs BEMT: worst relative error {worst:.2e} (small-angle and atan2 differences)");
}

/// Parameters of a rotor with hinge offset, root cut-out and drag for the Pitt-Peters runs.
fn pp_params(model: i32) -> Vec<(&'static str, Val)> {
    test_rotor::parameters(NB, [0.3, 1.2], [0.01, 0.5], model)
}

#[test]
fn pitt_peters_in_hover_settles_to_the_uniform_momentum_inflow() {
    let (theta, beta) = (8.0_f64.to_radians(), 0.04);
    let mut uniform = Sim::new(&pp_params(1));
    set_hover(&mut uniform, 0.3, theta, beta, 0.0);
    let (lambda_ref, thrust_ref) = (uniform.get("inflow"), uniform.get("thrust"));

    let mut pp = Sim::new(&pp_params(2));
    let h = 0.01;
    let mut history = Vec::new();
    for n in 0..=400 {
        let t = n as f64 * h;
        set_hover(&mut pp, 0.3, theta, beta, OMEGA * t);
        if n % 50 == 0 {
            let l = pp.get("inflow");
            history.push(format!("t={t:.1}s: {l:.6}"));
        }
        if n < 400 {
            pp.step(h);
        }
    }
    let (lambda, thrust, ls, lc) = (pp.get("inflow"), pp.get("thrust"), pp.get("inflow_s"), pp.get("inflow_c"));
    eprintln!("Pitt-Peters lambda_0 history: {}", history.join(", "));
    eprintln!(
        "after 4 s: lambda_0 {lambda:.9} vs uniform momentum {lambda_ref:.9} (rel. error {:.2e}); thrust {thrust:.3} vs \
         {thrust_ref:.3} N ({:.2e}); lambda_s {ls:.1e}, lambda_c {lc:.1e}",
        rel(lambda, lambda_ref),
        rel(thrust, thrust_ref)
    );
    assert!(rel(lambda, lambda_ref) < 1e-7);
    assert!(rel(thrust, thrust_ref) < 1e-7);
    assert!(ls.abs() < 1e-10 && lc.abs() < 1e-10);
}

/// Runs `sim` in hover for `seconds` (steps of 0.05 s) with the 4 blades held at azimuths 0, 90,
/// 180 and 270 deg (in hover their loads do not depend on the azimuth, and the harmonics up to
/// 3 of their forcing cancel) and returns `(inflow, CT, thrust)` at the end.
fn settle(sim: &mut Sim, theta: f64, beta: f64, seconds: f64) -> (f64, f64, f64) {
    set_hover(sim, 0.3, theta, beta, 0.0);
    let h = 0.05;
    for _ in 0..(seconds / h).round() as usize {
        sim.step(h);
    }
    (sim.get("inflow"), sim.get("CT"), sim.get("thrust"))
}

/// Peters-He with one harmonic and one radial function (3 states) in hover, coupled to the blade
/// elements: the elliptic-loading form of momentum theory, `2 lambda_m^2 = (9/8) CT`
/// (`fmu-aero/src/peters_he.rs`, the Pitt-Peters limit); the harmonics stay zero.
#[test]
fn peters_he_in_hover_settles_to_the_elliptic_momentum_inflow() {
    let (theta, beta) = (8.0_f64.to_radians(), 0.04);
    let mut p = pp_params(3);
    p.extend([("peters_he_harmonics", i(1)), ("peters_he_radial", i(1)), ("lambda0_start", r(0.05))]);
    let mut ph = Sim::new(&p);
    let (lambda, ct, _) = settle(&mut ph, theta, beta, 4.0);
    let (ls, lc) = (ph.get("inflow_s"), ph.get("inflow_c"));
    eprintln!(
        "Peters-He (M=1, K=1) after 4 s: lambda_m {lambda:.9}, CT {ct:.6e}; 2 lambda_m^2 / CT = {:.9} (9/8 = 1.125); \
         lambda_s {ls:.1e}, lambda_c {lc:.1e}",
        2.0 * lambda * lambda / ct
    );
    assert!(rel(2.0 * lambda * lambda, 9.0 / 8.0 * ct) < 1e-7);
    assert!(ls.abs() < 1e-10 && lc.abs() < 1e-10);
}

/// `peters_he_start[n]` starts the state `inflow.peters_he[n]`: with one harmonic and one radial
/// function the states are `alpha_1^0`, `alpha_2^1`, `beta_2^1`, declared 1, 5 and 9 (states 1-4
/// `m = 0`, then four cosine and four sine states per harmonic: the parameter's documented
/// layout). At the start the mean inflow output is `sqrt(3) alpha_1^0` and the tip's cos/sin
/// parts are in the ratio `alpha_2^1 / beta_2^1` (one shape function); all zero (the default)
/// keeps the start from `lambda0_start`.
#[test]
fn peters_he_start_values_set_the_states_of_the_truncation() {
    let (alpha0, alpha1, beta1) = (0.04, 0.01, -0.02);
    let mut p = pp_params(3);
    p.extend([("peters_he_harmonics", i(1)), ("peters_he_radial", i(1)), ("lambda0_start", r(0.05))]);
    let mut default = Sim::new(&p);
    assert_eq!(default.inst.continuous_state(), [0.05 / 3.0_f64.sqrt(), 0.0, 0.0]);
    p.extend([("peters_he_start[1]", r(alpha0)), ("peters_he_start[5]", r(alpha1)), ("peters_he_start[9]", r(beta1))]);
    let mut ph = Sim::new(&p);
    assert_eq!(ph.inst.continuous_state(), [alpha0, alpha1, beta1]);
    assert!(rel(ph.get("inflow"), 3.0_f64.sqrt() * alpha0) < 1e-12, "inflow {}", ph.get("inflow"));
    let (ls, lc) = (ph.get("inflow_s"), ph.get("inflow_c"));
    assert!(rel(lc / ls, alpha1 / beta1) < 1e-12, "inflow_c {lc}, inflow_s {ls}");
    assert!(rel(default.get("inflow"), 0.05) < 1e-12, "default inflow {}", default.get("inflow"));
}

/// Peters-He in hover with 1..4 radial functions (no harmonics): the steady thrust converges as
/// the number of radial functions grows (each change smaller than the last, the last below
/// 0.1 %), and the mean inflow settles within 0.5 % from two functions on.
#[test]
fn peters_he_hover_inflow_converges_with_the_radial_functions() {
    let (theta, beta) = (8.0_f64.to_radians(), 0.04);
    let mut results = Vec::new();
    for k in 1..=4 {
        let mut p = pp_params(3);
        p.extend([("peters_he_harmonics", i(0)), ("peters_he_radial", i(k)), ("lambda0_start", r(0.05))]);
        let mut ph = Sim::new(&p);
        assert_eq!(ph.inst.continuous_state().len(), k as usize);
        let (lambda, ct, thrust) = settle(&mut ph, theta, beta, 4.0);
        eprintln!("Peters-He K = {k}: lambda_m {lambda:.8}, CT {ct:.7e}, thrust {thrust:.2} N");
        results.push((lambda, thrust));
    }
    for w in results.windows(3) {
        let (t1, t2) = ((w[1].1 - w[0].1).abs(), (w[2].1 - w[1].1).abs());
        assert!(t2 < t1, "thrust changes {t1:e} then {t2:e}");
    }
    assert!(rel(results[3].1, results[2].1) < 1e-3);
    for w in results[1..].windows(2) {
        assert!(rel(w[1].0, w[0].0) < 5e-3);
    }
}

/// Ground effect (Cheeseman and Bennett 1955) with Pitt-Peters in hover: the states still obey
/// momentum theory with the rotor's thrust (`2 lambda_0^2 = CT`), the blades see the induced
/// velocity times `1 - (R/4z)^2` (the `inflow` output), and the thrust at the same collective
/// grows.
#[test]
fn ground_effect_reduces_the_induced_velocity_by_the_image_factor() {
    let (theta, beta) = (8.0_f64.to_radians(), 0.04);
    let mut free = Sim::new(&pp_params(2));
    let (_, _, thrust_free) = settle(&mut free, theta, beta, 4.0);
    let z = 0.75 * R;
    let mut p = pp_params(2);
    p.push(("ground_height", r(z)));
    let mut ground = Sim::new(&p);
    let (inflow, ct, thrust) = settle(&mut ground, theta, beta, 4.0);
    let lambda0 = ground.inst.continuous_state()[0];
    let k = 1.0 - (R / (4.0 * z)).powi(2);
    eprintln!(
        "ground effect z = {z} m: lambda_0 {lambda0:.8} (momentum {:.8}), inflow {inflow:.8} = {:.6} lambda_0 \
         (1 - (R/4z)^2 = {k:.6}); thrust {thrust:.1} N vs {thrust_free:.1} N out of ground effect",
        (ct / 2.0).sqrt(),
        inflow / lambda0
    );
    assert!(rel(lambda0, (ct / 2.0).sqrt()) < 1e-7);
    assert!(rel(inflow, k * lambda0) < 1e-12);
    assert!(thrust > 1.02 * thrust_free);
}
