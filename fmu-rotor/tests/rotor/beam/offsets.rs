//! Section offsets and pretwist through the blade-properties table: an axial tip force on the
//! reference line of a beam whose tension centre sits `z_t` above it bends the beam with the
//! moment `P z_t` (small-load closed form), and a rigid rotation of a pretwisted beam with
//! offsets leaves its strain energy unchanged.

use fmu_rotor::beam::rotation::{quat_about, quat_mul, rotate};
use fmu_rotor::beam::{BeamState, BladeTable, NewtonSettings, TipLoad};

/// A uniform 2 m blade with the tension centre 5 cm above the reference line.
const TABLE: &str = "\
radius [m], EA [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], GA_flap [N], GA_lag [N], mass [kg/m], I_flap [kg m], I_lag [kg m], z_tension [cm], twist [deg], y_cg [m]
1, 1e6, 100, 400, 50, 1e7, 1e7, 5, 1e-3, 1e-2, 5, 0, 0.02
3, 1e6, 100, 400, 50, 1e7, 1e7, 5, 1e-3, 1e-2, 5, -20, 0.02
";

#[test]
fn tension_centre_offset_bends_the_beam_by_the_axial_force_times_the_offset() {
    let table = BladeTable::parse(&TABLE.replace(", -20,", ", 0,"), "offsets.csv").unwrap();
    let beam = table.beam(16);
    let (p, z_t, ei, ea, length) = (1e-2, 0.05, 100.0, 1e6, 2.0);
    let state = beam.solve_static(TipLoad::Dead([p, 0.0, 0.0]), &NewtonSettings::default()).unwrap();
    let tip = *state.positions.last().unwrap();
    // Section law: N = EA (Gamma1 + z_t K2), M2 = EA (Gamma1 + z_t K2) z_t + EI K2. A force
    // through the reference line carries no moment there (M2 = 0, small loads), so
    // K2 = -P z_t / EI: the line below the tension centre stretches more and the beam bends up,
    // w'' = -K2, tip deflection P z_t L^2 / (2 EI); the reference line stretches by
    // Gamma1 = P / EA + P z_t^2 / EI.
    let deflection = p * z_t * length * length / (2.0 * ei);
    let stretch = (p / ea + p * z_t * z_t / ei) * length;
    assert!((tip[2] - deflection).abs() < 1e-3 * deflection.abs(), "{} against {deflection}", tip[2]);
    assert!((tip[0] - 3.0 - stretch).abs() < 1e-3 * stretch, "{} against {stretch}", tip[0] - 3.0);
}

#[test]
fn pretwisted_offset_beam_energy_is_objective() {
    let beam = BladeTable::parse(TABLE, "twisted.csv").unwrap().beam(10);
    let bent = beam.solve_static(TipLoad::Follower([0.0, 20.0, 60.0]), &NewtonSettings::default()).unwrap();
    let turn = quat_about([0.0, 0.6, 0.8], -1.1);
    let turned = BeamState {
        positions: bent.positions.iter().map(|&x| rotate(turn, x)).collect(),
        rotations: bent.rotations.iter().map(|&q| quat_mul(turn, q)).collect(),
    };
    let (before, after) = (beam.potential_energy(&bent), beam.potential_energy(&turned));
    assert!(before > 1.0, "not deformed: {before} J");
    assert!((before - after).abs() < 1e-12 * before, "{before} against {after}");
}
