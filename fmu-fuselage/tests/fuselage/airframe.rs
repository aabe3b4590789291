//! The lifting surfaces (horizontal stabiliser, fin) against closed forms written here:
//! - thin-airfoil lift `L = q S a alpha` normal to the relative wind, drag `q S cd0` along it, the
//!   moment `p x F` about the reference point, the stall clamp `|CL| <= a alpha_stall`: through
//!   the body accelerations `F / m` and `I^-1 M` (CoM at the reference point, no rotation);
//! - the main-rotor wake: the wash ratio `K` on the wake axis in hover against a numerical
//!   Biot-Savart integral over the ring vortices of a semi-infinite cylinder (far-wake velocity
//!   `2 v_i`), the wake skew against `atan2(mu, lambda_c + lambda_i)`, zero outside the wake;
//! - the tail rotor's wash on the fin against momentum theory `v = sqrt(T / (2 rho A))`;
//! - directional derivatives with both surfaces in the wake against central differences.

use std::f64::consts::{PI, TAU};

use fmu_core::Instance;
use fmu_core::verify::check_directional_derivatives;
use fmu_core::verify::math::simpson;
use fmu_fuselage::Fuselage;

use crate::common::{Sim, Val, cross, r};

const M: f64 = 2100.0;
const INERTIA: [f64; 3] = [1803.0, 4892.0, 4428.0];
const RHO: f64 = 1.225;
const HUB: [f64; 3] = [0.0, 0.0, -1.5];
const R_MAIN: f64 = 4.91;
const TIP_SPEED: f64 = 218.0;

/// A horizontal stabiliser and a fin (the fin's lift-positive normal: body +y).
fn surfaces() -> Vec<(&'static str, Val)> {
    vec![
        ("hs.area", r(2.0)),
        ("hs.x", r(-5.0)),
        ("hs.z", r(-0.5)),
        ("hs.a", r(TAU)),
        ("hs.cd0", r(0.01)),
        ("hs.incidence", r(0.02)),
        ("hs.alpha_stall", r(0.25)),
        ("fin.area", r(1.5)),
        ("fin.x", r(-5.5)),
        ("fin.z", r(-1.2)),
        ("fin.a", r(3.5)),
        ("fin.cd0", r(0.02)),
        ("fin.alpha_stall", r(0.3)),
    ]
}

fn sim(extra: &[(&'static str, Val)], vel0: [f64; 3]) -> Sim {
    let mut p = vec![("mass", r(M)), ("g", r(0.0)), ("u0", r(vel0[0])), ("v0", r(vel0[1])), ("w0", r(vel0[2]))];
    p.extend(surfaces());
    p.extend_from_slice(extra);
    Sim::new(&p)
}

/// Force of a surface (body axes, N) from thin-airfoil lift and drag: chord along body x, span
/// along `x x n`, `u` the surface's velocity relative to the air.
fn surface_force(u: [f64; 3], n: [f64; 3], area: f64, a: f64, cd0: f64, incidence: f64, stall: f64) -> [f64; 3] {
    let span = cross([1.0, 0.0, 0.0], n);
    // The velocity in the chord-normal plane (spanwise part dropped).
    let along_span: f64 = (0..3).map(|k| u[k] * span[k]).sum();
    let u2: [f64; 3] = std::array::from_fn(|k| u[k] - along_span * span[k]);
    let speed = u2.iter().map(|c| c * c).sum::<f64>().sqrt();
    let u_hat = u2.map(|c| c / speed);
    let lift_dir = cross(span, u_hat);
    let alpha = incidence + (-(0..3).map(|k| u2[k] * n[k]).sum::<f64>()).atan2(u2[0]);
    let cl = a * alpha.clamp(-stall, stall);
    let q = 0.5 * RHO * speed * speed * area;
    std::array::from_fn(|k| q * (cl * lift_dir[k] - cd0 * u_hat[k]))
}

/// Body accelerations `[F/m; I^-1 M]` of forces at points (CoM at the reference point).
fn accelerations(loads: &[([f64; 3], [f64; 3])]) -> [f64; 6] {
    let mut out = [0.0; 6];
    for (p, f) in loads {
        let m = cross(*p, *f);
        for k in 0..3 {
            out[k] += f[k] / M;
            out[3 + k] += m[k] / INERTIA[k];
        }
    }
    out
}

fn free(sim: &mut Sim) -> [f64; 6] {
    sim.get_names(["free.u_dot", "free.v_dot", "free.w_dot", "free.p_dot", "free.q_dot", "free.r_dot"])
}

fn worst(a: &[f64; 6], b: &[f64; 6]) -> f64 {
    let scale = b.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    a.iter().zip(b).fold(0.0_f64, |m, (x, y)| m.max((x - y).abs())) / scale
}

#[test]
fn stabiliser_and_fin_loads_match_thin_airfoil_lift_and_arm_times_force() {
    for (vel, label) in [([40.0, -2.0, 3.0], "attached"), ([40.0, -15.0, 20.0], "both stalled")] {
        let mut sim = sim(&[], vel);
        let hs = surface_force(vel, [0.0, 0.0, -1.0], 2.0, TAU, 0.01, 0.02, 0.25);
        let fin = surface_force(vel, [0.0, 1.0, 0.0], 1.5, 3.5, 0.02, 0.0, 0.3);
        let expected = accelerations(&[([-5.0, 0.0, -0.5], hs), ([-5.5, 0.0, -1.2], fin)]);
        let error = worst(&free(&mut sim), &expected);
        let alpha_hs = 0.02 + vel[2].atan2(vel[0]);
        let alpha_fin = (-vel[1]).atan2(vel[0]);
        let alpha_error = (sim.get("hs.alpha") - alpha_hs).abs().max((sim.get("fin.alpha") - alpha_fin).abs());
        eprintln!(
            "{label}: u v w = {vel:?} m/s, hs alpha {:.2} deg, fin alpha {:.2} deg: body accelerations against \
             thin-airfoil lift and p x F: worst {error:.2e} of the largest; alpha error {alpha_error:.1e} rad",
            alpha_hs.to_degrees(),
            alpha_fin.to_degrees()
        );
        assert!(error < 1e-12 && alpha_error < 1e-14);
    }
}

/// `K(s)` by Biot-Savart: ring vortices of strength `gamma dz` (`gamma = 2`, so the far wake moves
/// at twice the disc's velocity 1) from the disc (`z = 0`) downstream, on the axis at `s`.
fn biot_savart_wash_ratio(s: f64, radius: f64) -> f64 {
    let ring = |z: f64| 2.0 * radius * radius / (2.0 * (radius * radius + (z - s).powi(2)).powf(1.5));
    let far = 1.0e4;
    // The rings beyond `far` add 1 - (far - s)/sqrt((far - s)^2 + R^2) (their closed-form sum).
    simpson(ring, 0.0, far, 400_000) + 1.0 - (far - s) / ((far - s).powi(2) + radius * radius).sqrt()
}

#[test]
fn rotor_wake_wash_ratio_and_skew_match_biot_savart_and_momentum_theory() {
    let lambda_i = 0.05;
    let v_i = lambda_i * TIP_SPEED;
    // Hover: the stabiliser 4.5 m below the hub on the shaft axis, the fin outside the wake.
    let below = [("hs.x", r(0.0)), ("hs.z", r(3.0)), ("fin.x", r(-6.0))];
    let mut hover = sim(&below, [0.0; 3]);
    hover.set("main_rotor.inflow", lambda_i);
    let k = hover.get("hs.wash_ratio");
    let reference = biot_savart_wash_ratio(4.5, R_MAIN);
    eprintln!(
        "hover, 4.5 m below the hub: K = {k:.9} vs Biot-Savart {reference:.9} (closed form {:.9}); fin 6 m aft: \
         K = {}; skew {}",
        1.0 + 4.5 / (4.5f64 * 4.5 + R_MAIN * R_MAIN).sqrt(),
        hover.get("fin.wash_ratio"),
        hover.get("wake.skew")
    );
    assert!((k - reference).abs() < 1e-9, "K {k} vs {reference}");
    assert!(hover.get("fin.wash_ratio") == 0.0 && hover.get("wake.skew") == 0.0);
    // The stabiliser feels the wash: it moves up through the air at K v_i (alpha -90 deg, clamped).
    let hs = surface_force([0.0, 0.0, -k * v_i], [0.0, 0.0, -1.0], 2.0, TAU, 0.01, 0.02, 0.25);
    let expected = accelerations(&[([0.0, 0.0, 3.0], hs)]);
    assert!(worst(&free(&mut hover), &expected) < 1e-12);

    // Forward flight at 30 m/s, sinking 1 m/s: tan(chi) = mu / (lambda_c + lambda_i).
    let lambda = 0.02;
    let mut forward = sim(&[], [30.0, 0.0, 1.0]);
    forward.set("main_rotor.inflow", lambda);
    let (mu, lambda_c) = (30.0 / TIP_SPEED, -1.0 / TIP_SPEED);
    let chi = mu.atan2(lambda_c + lambda);
    let skew = forward.get("wake.skew");
    // The stabiliser (5 m aft, 1 m below the hub): downstream distance and distance from the axis.
    let d = [-chi.sin(), 0.0, chi.cos()];
    let rel = [-5.0 - HUB[0], 0.0, -0.5 - HUB[2]];
    let s = rel[0] * d[0] + rel[2] * d[2];
    let off_axis = (rel[0] * rel[0] + rel[2] * rel[2] - s * s).sqrt();
    let k_expected = if off_axis < R_MAIN { 1.0 + s / (s * s + R_MAIN * R_MAIN).sqrt() } else { 0.0 };
    let k = forward.get("hs.wash_ratio");
    eprintln!(
        "forward 30 m/s: skew {:.4} deg vs atan2(mu, lambda_c + lambda_i) {:.4} deg; stabiliser {s:.3} m \
         downstream, {off_axis:.3} m off the axis: K {k:.9} vs {k_expected:.9}",
        skew.to_degrees(),
        chi.to_degrees()
    );
    assert!((skew - chi).abs() < 1e-14 && k_expected > 1.0 && (k - k_expected).abs() < 1e-12);
}

#[test]
fn tail_rotor_wash_on_the_fin_matches_momentum_theory() {
    let (thrust, radius, eta) = (2000.0, 0.95, 1.0);
    let vel = [30.0, 0.0, 0.0];
    let mut s = sim(&[("hs.area", r(0.0)), ("tail_rotor.R", r(radius)), ("fin.tail_rotor_factor", r(eta))], vel);
    s.set("tail_rotor.thrust", thrust);
    let v_t = (thrust / (2.0 * RHO * PI * radius * radius)).sqrt();
    // Thrust along +y: the air is pushed along -y, so the fin moves along +y relative to it.
    let u = [vel[0], eta * v_t, 0.0];
    let fin = surface_force(u, [0.0, 1.0, 0.0], 1.5, 3.5, 0.02, 0.0, 0.3);
    let expected = accelerations(&[([-5.5, 0.0, -1.2], fin)]);
    let error = worst(&free(&mut s), &expected);
    let alpha = s.get("fin.alpha");
    eprintln!(
        "tail rotor {thrust} N, R {radius} m: v_T = {v_t:.4} m/s, fin alpha {:.4} deg vs {:.4} deg; accelerations \
         worst {error:.2e}",
        alpha.to_degrees(),
        (-eta * v_t).atan2(vel[0]).to_degrees()
    );
    assert!(error < 1e-12 && (alpha - (-eta * v_t).atan2(vel[0])).abs() < 1e-14);
}

#[test]
fn directional_derivatives_with_both_surfaces_in_the_wake() {
    let mut inst = Instance::<Fuselage>::new("fuselage");
    let mut set = |name: &str, v: f64| {
        let vr = inst.vr(name).unwrap();
        inst.set_real(&[vr], &[v]).unwrap();
    };
    for (name, v) in surfaces() {
        let Val::R(v) = v else { unreachable!("surfaces() holds reals") };
        set(name, v);
    }
    for (name, v) in [
        ("u0", 25.0),
        ("w0", 1.0),
        ("q0", 0.05),
        ("r0", -0.1),
        ("fin.tail_rotor_factor", 0.8),
        ("main_rotor.inflow", 0.03),
        ("tail_rotor.thrust", 1500.0),
        ("wind.x", 2.0),
        ("air.density", 1.1),
    ] {
        set(name, v);
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let mut sim_k = |name: &str| {
        let vr = inst.vr(name).unwrap();
        let mut v = [0.0];
        inst.get_real(&[vr], &mut v).unwrap();
        v[0]
    };
    assert!(sim_k("hs.wash_ratio") > 1.0 && sim_k("fin.wash_ratio") > 1.0, "both surfaces in the wake");
    let report = check_directional_derivatives(&mut inst, |_, u| 1e-4 * u.abs().max(1.0), 1e-6).unwrap();
    report.assert_clean("directional derivatives with lifting surfaces");
}
