//! Validation 4: the six Euler sequences against composition of elementary rotations.
//!
//! The reference attitude is always built by multiplying elementary rotation matrices written in
//! the test (`crate::common::compose`), never by the crate's extraction formula.

use std::f64::consts::FRAC_PI_2;

use crate::common::{Lcg, Sim, compose, i, mat_diff, max_diff, quat_dcm, r};
use fmu_fuselage::EulerSequence;

/// Random angles away from gimbal lock: e1, e3 in (-pi, pi), e2 in (-pi/2, pi/2) less 0.05.
fn random_angles(rng: &mut Lcg) -> [f64; 3] {
    let pi = std::f64::consts::PI;
    [rng.uniform(-pi, pi), rng.uniform(-FRAC_PI_2 + 0.05, FRAC_PI_2 - 0.05), rng.uniform(-pi, pi)]
}

#[test]
fn extraction_inverts_composition_for_all_sequences() {
    let mut rng = Lcg(0x5eed_0003);
    let mut worst = 0.0f64;
    let mut worst_quat = 0.0f64;
    for seq in EulerSequence::ALL {
        let mut seq_worst = 0.0f64;
        for _ in 0..2000 {
            let e = random_angles(&mut rng);
            let rot = compose(seq.code(), e);
            let back = seq.angles_from_dcm(&rot);
            seq_worst = seq_worst.max(max_diff(&back, &e));
            // The crate's quaternion of the same angles must give the same matrix.
            worst_quat = worst_quat.max(mat_diff(&quat_dcm(seq.quaternion(e)), &rot));
        }
        eprintln!("euler {}: max |angles(compose(e)) - e| over 2000 random sets = {seq_worst:.3e} rad", seq.code());
        worst = worst.max(seq_worst);
    }
    eprintln!("euler: max |dcm(quaternion(e)) - compose(e)| = {worst_quat:.3e}");
    assert!(worst < 1e-12, "extraction error {worst}");
    assert!(worst_quat < 1e-14, "quaternion error {worst_quat}");
}

#[test]
fn sequence_321_gives_yaw_pitch_roll() {
    let (phi, theta, psi) = (0.3_f64, -0.2_f64, 1.1_f64);
    let rot = compose(321, [psi, theta, phi]);
    // Hand-written aeronautical relations for the 3-2-1 matrix.
    assert!((rot[2][0] + theta.sin()).abs() < 1e-15);
    assert!((rot[1][0].atan2(rot[0][0]) - psi).abs() < 1e-15);
    assert!((rot[2][1].atan2(rot[2][2]) - phi).abs() < 1e-15);
    let e = EulerSequence::S321.angles_from_dcm(&rot);
    assert!(max_diff(&e, &[psi, theta, phi]) < 1e-15);
}

#[test]
fn fmu_euler_outputs_match_initial_attitude_in_every_sequence() {
    let mut rng = Lcg(0xfeed_0321);
    let mut worst_321 = 0.0f64;
    let mut worst_seq = 0.0f64;
    for trial in 0..20 {
        let [psi, theta, phi] = random_angles(&mut rng);
        let reference = compose(321, [psi, theta, phi]);
        for seq in EulerSequence::ALL {
            let mut sim = Sim::new(&[
                ("phi0", r(phi)),
                ("theta0", r(theta)),
                ("psi0", r(psi)),
                ("euler_sequence", i(seq.code())),
            ]);
            let e321 = sim.get_names(["phi", "theta", "psi"]);
            worst_321 = worst_321.max(max_diff(&e321, &[phi, theta, psi]));
            let e = sim.get_names(["euler.1", "euler.2", "euler.3"]);
            if seq == EulerSequence::S321 {
                assert!(max_diff(&e, &[psi, theta, phi]) < 1e-13, "trial {trial}: 321 outputs {e:?}");
            }
            // The outputs in any sequence, composed in that sequence, give the same attitude.
            worst_seq = worst_seq.max(mat_diff(&compose(seq.code(), e), &reference));
        }
    }
    eprintln!(
        "FMU euler outputs: max |(phi, theta, psi) - parameters| = {worst_321:.3e} rad; max |compose(seq, euler.*) \
         - R(phi0, theta0, psi0)| over 6 sequences x 20 attitudes = {worst_seq:.3e}"
    );
    assert!(worst_321 < 1e-13);
    assert!(worst_seq < 1e-14);
}
