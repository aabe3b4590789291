//! Dissimilar blades (`blade[n].mass_factor`, `blade[n].pitch_offset`) against closed forms:
//! the 1/rev hub force of an imbalanced blade and the pitched axes of a blade with a track error.

use crate::common::{Sim, b, i, r};

/// An imbalanced blade: four blades (seed-004 defaults: 100 kg, S 390 kg m, e 0.3 m), hinges
/// locked, blade 1's mass properties times 1.2, the hub at rest without gravity. The rotor's
/// force on the airframe is the excess mass's centrifugal pull, turning with blade 1:
/// `0.2 m Omega^2 (e + S/m)` along `x_H cos psi + y_H sin psi` (`x_H = (-1, 0, 0)`,
/// `y_H = (0, 1, 0)` body axes), no vertical force and no moment about P; at five azimuths,
/// within 1e-9 of the amplitude.
#[test]
fn an_imbalanced_blade_gives_the_closed_form_one_per_rev_hub_force() {
    let (omega, mass, s, e, factor) = (29.0, 100.0, 390.0, 0.3, 1.2);
    let mut sim = Sim::new(&[
        ("nb", i(4)),
        ("lock_lag", b(true)),
        ("lock_flap", b(true)),
        ("blade[1].mass_factor", r(factor)),
        ("Omega", r(omega)),
    ]);
    sim.set3("hub.acc", [0.0; 3]);
    let amplitude = (factor - 1.0) * mass * omega * omega * (e + s / mass);
    for k in 0..5 {
        sim.run_to(0.013 * k as f64, 1e-3);
        let psi = omega * sim.time();
        let force = sim.get3("hub.F");
        let moment = sim.get3("hub.M");
        let expected = [-amplitude * psi.cos(), amplitude * psi.sin(), 0.0];
        println!("psi {psi:.4}: hub force {force:?} N, closed form {expected:?} N, moment {moment:?} N m");
        for c in 0..3 {
            assert!((force[c] - expected[c]).abs() < 1e-9 * amplitude, "{force:?} vs {expected:?}");
            assert!(moment[c].abs() < 1e-9 * amplitude, "{moment:?}");
        }
    }
}

/// A track error: blade 2 of four with a pitch offset of 0.05 rad and a pitch input of 0.1 rad
/// on every blade, hinges locked at zero: the shaft axis in blade 2's axes is
/// `(0, sin 0.15, cos 0.15)`, in the others' `(0, sin 0.1, cos 0.1)`; within 1e-12.
#[test]
fn a_pitch_offset_pitches_its_blade_alone() {
    let mut sim =
        Sim::new(&[("nb", i(4)), ("lock_lag", b(true)), ("lock_flap", b(true)), ("blade[2].pitch_offset", r(0.05))]);
    for n in 1..=4 {
        sim.set(&format!("blade[{n}].pitch"), 0.1);
    }
    for n in 1..=4 {
        let pitch: f64 = if n == 2 { 0.15 } else { 0.1 };
        let shaft = sim.get3(&format!("blade[{n}].shaft"));
        println!("blade {n}: shaft axis {shaft:?}");
        let expected = [0.0, pitch.sin(), pitch.cos()];
        for c in 0..3 {
            assert!((shaft[c] - expected[c]).abs() < 1e-12, "blade {n}: {shaft:?} vs {expected:?}");
        }
    }
}
