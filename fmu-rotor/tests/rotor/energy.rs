//! Energy conservation (seed 000, "check energy conservation"): no aerodynamics, no dampers, no
//! energy source (free shaft without torque; the pitch bearings are held at constant angles
//! with zero rate, so their constraint does no work), fixed hub with gravity (`hub.acc = (0, 0,
//! -g)` in FRD body axes, the specific force at rest). The total energy
//! `energy.kinetic + energy.potential` must stay constant over 20 revolutions to 1e-6 relative
//! at the default tolerance, and the drift must shrink as the tolerance tightens.
//!
//! To exercise every coupling the shaft is tilted forward by 8 degrees (gravity then has an
//! in-plane component that varies around the azimuth), the blades have different pitch angles,
//! a pitch inertia, flap and lag springs, a hub inertia, separate hinge offsets and initial flap
//! and lag deflections.

use crate::common::{Sim, b, r};

const G: f64 = 9.80665;

/// Maximum relative deviation of the total energy from its initial value over 20 revolutions,
/// and the total energy, at integrator tolerance `tol`.
fn energy_drift(tol: f64) -> (f64, f64, f64) {
    let tilt = 8f64.to_radians();
    let mut sim = Sim::new(&[
        ("shaft_free", b(true)),
        ("c_lag", r(0.0)),
        ("k_lag", r(16000.0)),
        ("k_flap", r(2000.0)),
        ("e_lag", r(0.2)),
        ("blade.I_pitch", r(4.0)),
        ("blade.beta0", r(0.06)),
        ("blade.zeta0", r(0.03)),
        ("hub.m", r(80.0)),
        ("hub.I", r(30.0)),
        ("shaft.nx", r(-tilt.sin())),
        ("shaft.nz", r(-tilt.cos())),
        ("tolerance", r(tol)),
        ("hub.acc.z", r(-G)),
        ("blade[1].pitch", r(0.05)),
        ("blade[2].pitch", r(0.12)),
        ("blade[3].pitch", r(-0.04)),
        ("blade[4].pitch", r(0.2)),
    ]);
    let omega = 29.0;
    let revolutions = 20.0;
    let h = (5f64).to_radians() / omega;
    let n = (revolutions * 2.0 * std::f64::consts::PI / omega / h).round() as usize;
    let total = |sim: &mut Sim| sim.get("energy.kinetic") + sim.get("energy.potential");
    let e0 = total(&mut sim);
    let mut worst: f64 = 0.0;
    let mut potential_range = (f64::INFINITY, f64::NEG_INFINITY);
    for _ in 0..n {
        sim.step(h);
        let e = total(&mut sim);
        worst = worst.max((e - e0).abs() / e0.abs());
        let v = sim.get("energy.potential");
        potential_range = (potential_range.0.min(v), potential_range.1.max(v));
    }
    let revs = sim.get("azimuth") / (2.0 * std::f64::consts::PI);
    assert!(revs > 19.0, "the rotor turned {revs} revolutions");
    (worst, e0, potential_range.1 - potential_range.0)
}

#[test]
fn total_energy_is_conserved_and_drift_shrinks_with_tolerance() {
    let default_tol = fmu_rotor::layout::DEFAULT_TOLERANCE;
    let mut drifts = Vec::new();
    for tol in [1e-7, default_tol, 1e-11] {
        let (drift, e0, swing) = energy_drift(tol);
        eprintln!(
            "energy: tolerance {tol:e}: max |E - E0|/E0 over 20 revolutions = {drift:.3e} (E0 = {e0:.6e} J, potential \
             energy swing {swing:.3e} J)"
        );
        drifts.push((tol, drift, swing, e0));
    }
    let at_default = drifts.iter().find(|d| d.0 == default_tol).unwrap().1;
    assert!(at_default < 1e-6, "drift {at_default:e} at the default tolerance");
    assert!(drifts[2].1 < drifts[1].1 && drifts[1].1 < drifts[0].1, "drift does not shrink: {drifts:?}");
    // Not vacuous: energy moves between its kinetic and potential forms by far more than the
    // drift of the total.
    assert!(drifts[1].2 > 1e6 * at_default * drifts[1].3, "swing {} J", drifts[1].2);
}
