//! `fmi2SetFMUstate` continues bit-identically: restoring a state of unchanged parameters keeps
//! the configured model but starts its evaluation memory (the implicit integrator's kept Newton
//! matrix and previous steps) afresh, exactly as a fresh instance configured from that state
//! does. For the elastic rotor with the implicit midpoint (`integrator = 1`) and for the rigid
//! Rotor FMU (Dormand-Prince).

use fmu_core::verify::{Sim, Val};
use fmu_core::{FmuState, Instance, Model};
use fmu_rotor::Rotor;
use fmu_rotor_elastic::RotorElastic;

/// `steps` communication steps of `h` s from the instance's time; every output's and state's
/// bits at the end.
fn run<M: Model>(inst: &mut Instance<M>, steps: usize, h: f64) -> Vec<u64> {
    let outputs: Vec<u32> =
        M::variables().iter().filter(|v| v.causality == fmu_core::Causality::Output).map(|v| v.vr).collect();
    let t = inst.time();
    for n in 0..steps {
        inst.do_step(t + n as f64 * h, h).unwrap();
    }
    let mut values = vec![0.0; outputs.len()];
    inst.get_real(&outputs, &mut values).unwrap();
    values.iter().chain(inst.continuous_state()).map(|v| v.to_bits()).collect()
}

/// After `warm_up` steps (so the model's memory is not empty) saves the state, restores it and
/// runs `steps` steps; restores it again and runs again; then a fresh instance (configured
/// from the deserialised state) runs them: all three bit for bit the same.
fn assert_restores_bit_identically<M: Model>(sim: &mut Sim<M>, warm_up: usize, steps: usize, h: f64) {
    for _ in 0..warm_up {
        sim.step(h);
    }
    let saved: FmuState = sim.inst.get_fmu_state().unwrap();
    sim.inst.set_fmu_state(&saved).unwrap();
    let first = run(&mut sim.inst, steps, h);
    sim.inst.set_fmu_state(&saved).unwrap();
    let again = run(&mut sim.inst, steps, h);
    assert!(first == again, "{}: the restored run differs from the first", M::INFO.model_identifier);
    let bytes = sim.inst.serialize_fmu_state(&saved).unwrap();
    let mut fresh = Instance::<M>::new("fresh");
    let restored = fresh.deserialize_fmu_state(&bytes).unwrap();
    fresh.set_fmu_state(&restored).unwrap();
    assert!(run(&mut fresh, steps, h) == first, "{}: the fresh instance's run differs", M::INFO.model_identifier);
}

#[test]
fn restored_elastic_rotor_with_the_implicit_midpoint_continues_bit_identically() {
    let blade_file = concat!(env!("CARGO_MANIFEST_DIR"), "/blades/bo105_uniform_blade.csv");
    let params = [
        ("nb", Val::I(2)),
        ("n_elements", Val::I(4)),
        ("integrator", Val::I(1)),
        ("structural_damping", Val::R(0.005)),
    ];
    let mut sim = Sim::<RotorElastic>::try_new_with_strings(&params, &[("blade_file", blade_file)]).unwrap();
    sim.set3("hub.acc", [0.3, -0.2, -9.8]);
    sim.set3("hub.omega", [0.05, -0.03, 0.0]);
    for b in 1..=2 {
        sim.set(&format!("blade[{b}].pitch"), 0.1 + 0.02 * b as f64);
        sim.set3(&format!("blade[{b}].F"), [0.0, -20.0 * b as f64, 300.0]);
    }
    assert_restores_bit_identically(&mut sim, 3, 4, 1e-3);
}

#[test]
fn restored_rigid_rotor_continues_bit_identically() {
    let mut sim = Sim::<Rotor>::new(&[("nb", Val::I(4))]);
    sim.set3("hub.acc", [0.8, -0.5, -9.8]);
    sim.set3("hub.omega", [0.05, -0.03, 0.0]);
    for b in 1..=4 {
        sim.set(&format!("blade[{b}].pitch"), 0.1 + 0.01 * b as f64);
        sim.set3(&format!("blade[{b}].F"), [30.0, -50.0, 900.0 + 40.0 * b as f64]);
    }
    assert_restores_bit_identically(&mut sim, 5, 10, 2e-3);
}
