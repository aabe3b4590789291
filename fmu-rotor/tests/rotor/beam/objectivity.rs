//! Objectivity: a rigid rotation of a deformed configuration leaves every element's strains and
//! the strain energy unchanged to round-off.

use fmu_rotor::beam::rotation::{quat_about, quat_mul, rotate};
use fmu_rotor::beam::{BeamState, NewtonSettings, TipLoad};

use super::{uniform_cantilever, uniform_section};

#[test]
fn rigid_rotation_leaves_strains_and_energy_unchanged() {
    let section = uniform_section(2.0, 5.0, 1.5, 1e3, 1.0, [1e-3, 2e-3]);
    let beam = uniform_cantilever(8, section);
    // A strongly deformed configuration: a follower force and a dead force out of plane.
    let bent = beam.solve_static(TipLoad::Follower([0.0, 1.0, 3.0]), &NewtonSettings::default()).expect("static solve");
    let turn = quat_about([0.48, -0.6, 0.64], 2.3);
    let turned = BeamState {
        positions: bent.positions.iter().map(|&x| rotate(turn, x)).collect(),
        rotations: bent.rotations.iter().map(|&q| quat_mul(turn, q)).collect(),
    };
    let zero = [0.0_f64; 12];
    let mut largest_strain = 0.0_f64;
    for (e, element) in beam.elements.iter().enumerate() {
        let before = element.strains(&beam.element_nodes(&bent, e), &zero);
        let after = element.strains(&beam.element_nodes(&turned, e), &zero);
        for k in 0..6 {
            largest_strain = largest_strain.max(before[k].abs());
            assert!((before[k] - after[k]).abs() < 1e-13, "element {e} strain {k}");
        }
    }
    assert!(largest_strain > 0.1, "the configuration is not deformed: {largest_strain}");
    let energy = |state: &BeamState| -> f64 {
        (0..beam.elements.len()).map(|e| beam.elements[e].strain_energy(&beam.element_nodes(state, e), &zero)).sum()
    };
    let (before, after) = (energy(&bent), energy(&turned));
    assert!((before - after).abs() < 1e-13 * before, "{before} against {after}");
}
