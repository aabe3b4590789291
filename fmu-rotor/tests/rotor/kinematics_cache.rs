//! The rotor keeps the kinematics (bias pass, Jacobian columns, mass-matrix factors) of its last
//! evaluation and reuses them when only the hub accelerations or the blade loads change, as
//! between the iterations of the airframe-rotor algebraic loop. A cached evaluation must be the
//! evaluation from scratch bit for bit: checked against a fresh instance (empty cache) restored
//! to the same FMU state, for the outputs and for the state derivative through a step.

use crate::common::{Sim, b, loaded_main_rotor, r};
use fmu_core::{Causality, Instance, Model};
use fmu_rotor::Rotor;

fn outputs() -> Vec<u32> {
    Rotor::variables().iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect()
}

fn read(inst: &mut Instance<Rotor>) -> Vec<u64> {
    let vrs = outputs();
    let mut v = vec![0.0; vrs.len()];
    inst.get_real(&vrs, &mut v).unwrap();
    v.iter().map(|x| x.to_bits()).collect()
}

/// The same FMU state in a new instance, whose caches are empty.
fn fresh_copy(inst: &mut Instance<Rotor>) -> Instance<Rotor> {
    let state = inst.get_fmu_state().unwrap();
    let bytes = inst.serialize_fmu_state(&state).unwrap();
    let mut fresh = Instance::<Rotor>::new("fresh");
    let restored = fresh.deserialize_fmu_state(&bytes).unwrap();
    fresh.set_fmu_state(&restored).unwrap();
    fresh
}

#[test]
fn cached_kinematics_give_the_evaluation_from_scratch_bit_for_bit() {
    for free_shaft in [false, true] {
        let shaft = [("shaft_free", b(free_shaft)), ("hub.I", r(200.0))];
        let mut sim = Sim::new(&[&loaded_main_rotor()[..], &shaft].concat());
        for _ in 0..5 {
            sim.step(0.002);
        }
        read(&mut sim.inst);
        // Only loop inputs change: the next evaluations reuse the kinematics.
        for (n, (acc_x, alpha_y, load)) in [(0.3, -0.02, 2500.0), (-0.7, 0.05, 2600.0)].into_iter().enumerate() {
            sim.set("hub.acc.x", acc_x);
            sim.set("hub.alpha.y", alpha_y);
            sim.set("blade[2].F.z", load);
            let cached = read(&mut sim.inst);
            let mut fresh = fresh_copy(&mut sim.inst);
            assert_eq!(cached, read(&mut fresh), "shaft_free {free_shaft}: outputs after change {n}");
        }
        // And a step from there (the state derivative shares the buffers).
        sim.step(0.002);
        let mut fresh = fresh_copy(&mut sim.inst);
        sim.set("hub.acc.x", 0.1);
        fresh.set_real(&[crate::common::vr("hub.acc.x")], &[0.1]).unwrap();
        let t = sim.inst.time();
        sim.inst.do_step(t, 0.002).unwrap();
        fresh.do_step(t, 0.002).unwrap();
        assert_eq!(read(&mut sim.inst), read(&mut fresh), "shaft_free {free_shaft}: after a step");
    }
}
