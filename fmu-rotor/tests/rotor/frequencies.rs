//! In vacuum on a fixed hub (all hub inputs zero: no gravity) at constant Omega, the small
//! flap and lag oscillations of an articulated blade have the classical natural frequencies
//! (seed 004 eq. 36 without aerodynamics, and its lag counterpart):
//!
//! * lag locked: `nu_flap^2 = 1 + e S / I` (per rev);
//! * flap locked, hinges coincident: `nu_lag^2 = e S / I + k_lag / (I Omega^2)`.
//!
//! The periods are measured from the zero crossings of `blade[1].flap` / `blade[1].lag` (located
//! by cubic Hermite interpolation with the rate outputs) over several cycles. Seed-004 Table 1
//! data, `I_pitch = 0` (the closed forms are for a thin blade).

use crate::common::{Sim, TAIL_ROTOR_SHAFT, Val, b, r};

/// Zero crossings of a sampled signal with its derivative, by Hermite interpolation on each
/// interval with a sign change.
fn zero_crossings(t: &[f64], x: &[f64], xd: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for k in 0..t.len() - 1 {
        if x[k] == 0.0 || x[k].signum() == x[k + 1].signum() {
            continue;
        }
        let h = t[k + 1] - t[k];
        let hermite = |s: f64| {
            let (s2, s3) = (s * s, s * s * s);
            (2.0 * s3 - 3.0 * s2 + 1.0) * x[k]
                + (s3 - 2.0 * s2 + s) * h * xd[k]
                + (-2.0 * s3 + 3.0 * s2) * x[k + 1]
                + (s3 - s2) * h * xd[k + 1]
        };
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if hermite(mid).signum() == x[k].signum() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push(t[k] + 0.5 * (lo + hi) * h);
    }
    out
}

/// Runs the rotor and returns the oscillation frequency of `angle` in per-rev units.
fn measured_frequency(params: &[(&str, Val)], angle: &str, rate: &str, cycles: f64, nu_guess: f64) -> f64 {
    let omega = 29.0;
    let mut sim = Sim::new(params);
    let period = 2.0 * std::f64::consts::PI / (nu_guess * omega);
    let h = period / 100.0;
    let n = (cycles * period / h).ceil() as usize;
    let (mut t, mut x, mut xd) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..=n {
        t.push(sim.time());
        x.push(sim.get(angle));
        xd.push(sim.get(rate));
        sim.step(h);
    }
    let z = zero_crossings(&t, &x, &xd);
    assert!(z.len() >= 2 * cycles as usize - 1, "only {} zero crossings", z.len());
    // Consecutive zero crossings are half a period apart.
    let half = (z[z.len() - 1] - z[0]) / (z.len() - 1) as f64;
    2.0 * std::f64::consts::PI / (2.0 * half * omega)
}

#[test]
fn flap_frequency_in_vacuum_matches_one_plus_e_s_over_i() {
    let (e, s, i): (f64, f64, f64) = (0.3, 390.0, 1953.0);
    let expected = (1.0 + e * s / i).sqrt();
    let nu = measured_frequency(
        &[("lock_lag", b(true)), ("blade.beta0", r(0.01)), ("blade.I_pitch", r(0.0)), ("tolerance", r(1e-10))],
        "blade[1].flap",
        "blade[1].flap_rate",
        8.0,
        expected,
    );
    let rel = (nu - expected).abs() / expected;
    eprintln!(
        "flap frequency: measured {nu:.6}/rev, nu = sqrt(1 + e S/I) = {expected:.6}/rev, relative error {rel:.3e}"
    );
    assert!(rel < 5e-3, "relative error {rel}");
}

#[test]
fn lag_frequency_in_vacuum_matches_centrifugal_plus_spring() {
    let (e, s, i, k_lag, omega): (f64, f64, f64, f64, f64) = (0.3, 390.0, 1953.0, 16000.0, 29.0);
    let expected = (e * s / i + k_lag / (i * omega * omega)).sqrt();
    let nu = measured_frequency(
        &[
            ("lock_flap", b(true)),
            ("c_lag", r(0.0)),
            ("k_lag", r(k_lag)),
            ("blade.zeta0", r(0.01)),
            ("blade.I_pitch", r(0.0)),
            ("tolerance", r(1e-10)),
        ],
        "blade[1].lag",
        "blade[1].lag_rate",
        4.0,
        expected,
    );
    let rel = (nu - expected).abs() / expected;
    eprintln!(
        "lag frequency: measured {nu:.6}/rev, nu = sqrt(e S/I + k_lag/(I Omega^2)) = {expected:.6}/rev, relative error \
         {rel:.3e}"
    );
    assert!(rel < 5e-3, "relative error {rel}");
}

#[test]
fn flap_and_lag_frequencies_hold_on_a_tail_rotor_axis_too() {
    // The same blade on a tail-rotor shaft (axis along body y): nothing in the frequencies may
    // depend on the shaft orientation.
    let (e, s, i): (f64, f64, f64) = (0.3, 390.0, 1953.0);
    let expected = (1.0 + e * s / i).sqrt();
    let nu = measured_frequency(
        &[&[("lock_lag", b(true)), ("blade.beta0", r(0.01)), ("tolerance", r(1e-10))][..], &TAIL_ROTOR_SHAFT].concat(),
        "blade[2].flap",
        "blade[2].flap_rate",
        4.0,
        expected,
    );
    let rel = (nu - expected).abs() / expected;
    eprintln!("flap frequency, tail-rotor axis: measured {nu:.6}/rev vs {expected:.6}/rev, relative error {rel:.3e}");
    assert!(rel < 5e-3, "relative error {rel}");
}
