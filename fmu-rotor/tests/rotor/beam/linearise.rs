//! The fast linearisation ([`Beam::linearise`]: closed-form strain Hessian, mass and gyroscopic
//! matrices from first derivatives of the Gauss-point velocities) against second-order AD of the
//! whole element Lagrangian ([`Beam::linearise_ad`]) on a pretwisted blade with centre-of-mass,
//! tension-centre and shear-centre offsets, about a bent equilibrium, turning and not.

use fmu_rotor::beam::{Beam, BladeTable, NewtonSettings, TipLoad};
use nalgebra::DMatrix;

/// A 2 m blade from 1 m to 3 m radius: offsets of the tension centre, shear centre and centre
/// of mass, unequal section inertias, 20 deg of pretwist.
const TABLE: &str = "\
radius [m], EA [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], GA_flap [N], GA_lag [N], mass [kg/m], I_flap [kg m], I_lag [kg m], z_tension [cm], y_shear [cm], twist [deg], y_cg [m], z_cg [m]
1, 1e6, 1000, 4000, 200, 1e7, 1e7, 5, 1e-3, 1e-2, 2, 1, 0, 0.02, 0.005
3, 1e6, 1000, 4000, 200, 1e7, 1e7, 5, 1e-3, 1e-2, 2, 1, -20, 0.02, 0.005
";

fn relative_difference(fast: &DMatrix<f64>, oracle: &DMatrix<f64>) -> f64 {
    (fast - oracle).amax() / oracle.amax()
}

#[test]
fn fast_linearisation_matches_second_order_ad_of_the_lagrangian() {
    compare_about_a_bent_equilibrium([0.0, 0.0, 10.0]);
}

#[test]
fn fast_linearisation_matches_second_order_ad_in_a_frame_that_does_not_turn() {
    compare_about_a_bent_equilibrium([0.0; 3]);
}

fn compare_about_a_bent_equilibrium(frame_rate: [f64; 3]) {
    let mut beam: Beam = BladeTable::parse(TABLE, "linearise.csv").unwrap().beam(6);
    beam.frame_rate = frame_rate;
    let equilibrium =
        beam.solve_static(TipLoad::Follower([0.0, 20.0, 60.0]), &NewtonSettings::default()).expect("static solve");
    let fast = beam.linearise(&equilibrium);
    let oracle = beam.linearise_ad(&equilibrium);
    let mut errors = [
        relative_difference(&fast.mass, &oracle.mass),
        relative_difference(&fast.gyroscopic, &oracle.gyroscopic),
        relative_difference(&fast.stiffness, &oracle.stiffness),
    ];
    if frame_rate == [0.0; 3] {
        assert_eq!(fast.gyroscopic.amax(), 0.0);
        assert!(oracle.gyroscopic.amax() < 1e-12, "{}", oracle.gyroscopic.amax());
        errors[1] = 0.0;
    } else {
        assert!(oracle.gyroscopic.amax() > 1.0, "no Coriolis coupling to compare");
    }
    println!(
        "frame rate {frame_rate:?}: relative differences mass {:.1e}, gyroscopic {:.1e}, stiffness {:.1e}",
        errors[0], errors[1], errors[2]
    );
    for (name, error) in ["mass", "gyroscopic", "stiffness"].iter().zip(errors) {
        assert!(error < 1e-10, "{name}: {error:e}");
    }
}
