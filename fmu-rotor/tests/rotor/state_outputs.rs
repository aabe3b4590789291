//! The outputs without direct feedthrough (`azimuth`, `shaft.rate`, each blade's azimuth, flap,
//! lag and their rates) from the clock and the state alone (`Model::state_outputs`), as a
//! master reads them before it sets the pitch: bit for bit the values of the full evaluation,
//! every one of them written and nothing else, and through `fmi2GetReal` the same values as a
//! full read, whatever inputs were set since the step.

use crate::common::{ParamMap, Sim, b, i, r};
use fmu_core::{Causality, Feedthrough, Kind, Model, Variable};
use fmu_rotor::Rotor;

fn declared_outputs() -> Vec<Variable> {
    Rotor::variables().into_iter().filter(|v| v.causality == Causality::Output).collect()
}

/// Value references of the outputs with (false) or without (true) direct feedthrough.
fn output_vrs(state_only: bool) -> Vec<u32> {
    declared_outputs().iter().filter(|v| (v.feedthrough == Feedthrough::None) == state_only).map(|v| v.vr).collect()
}

fn configurations() -> Vec<Vec<(&'static str, fmu_core::verify::Val)>> {
    vec![
        vec![("blade.beta0", r(0.05)), ("blade.zeta0", r(0.01)), ("psi0", r(0.3))],
        vec![("shaft_free", b(true)), ("hub.I", r(200.0)), ("nb", i(3))],
        vec![("nb", i(2)), ("lock_flap", b(true)), ("lock_lag", b(true)), ("psi0", r(3.015229))],
        vec![("nb", i(8)), ("lock_lag", b(true)), ("k_flap", r(1000.0))],
    ]
}

#[test]
fn state_outputs_are_the_full_evaluation_bit_for_bit_and_write_only_those() {
    let outputs = declared_outputs();
    let inputs: Vec<f64> = Rotor::variables()
        .iter()
        .filter(|v| v.causality == Causality::Input)
        .map(|v| match v.kind {
            Kind::Real { start, .. } => start,
            _ => unreachable!("the rotor's inputs are reals"),
        })
        .collect();
    for (c, params) in configurations().iter().enumerate() {
        let rotor = Rotor::configure(&ParamMap::new(params)).unwrap();
        let mut x = vec![0.0; rotor.n_states()];
        rotor.initial_state(&mut x);
        for (k, xk) in x.iter_mut().enumerate() {
            *xk += 0.01 * (k as f64 + 1.0).sin();
        }
        // Pitch inputs and hub motion that the state-only outputs must not see.
        let u: Vec<f64> = inputs.iter().enumerate().map(|(j, &s)| s + 0.02 * (j as f64).cos()).collect();
        for t in [0.0, 0.37, 12.5] {
            let mut full = vec![0.0; outputs.len()];
            rotor.outputs(&mut rotor.work(), t, &x, &u, &mut full);
            let mut state = vec![f64::NAN; outputs.len()];
            assert!(rotor.state_outputs(t, &x, &mut state), "configuration {c}: the rotor has the shortcut");
            for (k, v) in outputs.iter().enumerate() {
                if v.feedthrough == Feedthrough::None {
                    assert_eq!(state[k].to_bits(), full[k].to_bits(), "configuration {c}, t = {t}: {}", v.name);
                } else {
                    assert!(state[k].is_nan(), "configuration {c}: {} written, but it has feedthrough", v.name);
                }
            }
        }
    }
}

#[test]
fn reading_only_the_outputs_without_feedthrough_gives_the_values_of_a_full_read() {
    let (state_vrs, feed_vrs) = (output_vrs(true), output_vrs(false));
    assert_eq!(state_vrs.len(), 2 + 5 * fmu_rotor::MAX_BLADES);
    for (c, params) in configurations().iter().enumerate() {
        let mut sim = Sim::new(params);
        sim.set("blade[1].pitch", 0.1);
        for _ in 0..3 {
            sim.step(0.002);
        }
        // After the step, before the pitch is set: the outputs without feedthrough alone.
        let mut alone = vec![0.0; state_vrs.len()];
        sim.inst.get_real(&state_vrs, &mut alone).unwrap();
        // New inputs (as a master sets the pitch it computed from the azimuth): the same values
        // alone, and in a full read.
        sim.set("blade[1].pitch", 0.15);
        sim.set("hub.acc.x", 0.4);
        let mut again = vec![0.0; state_vrs.len()];
        sim.inst.get_real(&state_vrs, &mut again).unwrap();
        let mut all_vrs = state_vrs.clone();
        all_vrs.extend(&feed_vrs);
        let mut all = vec![0.0; all_vrs.len()];
        sim.inst.get_real(&all_vrs, &mut all).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&alone), bits(&again), "configuration {c}: after new inputs");
        assert_eq!(bits(&alone), bits(&all[..state_vrs.len()]), "configuration {c}: against a full read");
        // Once the outputs are current, the stored values serve the read alone too.
        sim.inst.get_real(&state_vrs, &mut again).unwrap();
        assert_eq!(bits(&alone), bits(&again), "configuration {c}: stored outputs");
        // A full read right after a step, without the read alone: the same as with it (the
        // shortcut leaves nothing behind).
        let mut with = Sim::new(params);
        let mut without = Sim::new(params);
        for s in [&mut with, &mut without] {
            s.set("blade[1].pitch", 0.1);
            s.step(0.002);
        }
        with.inst.get_real(&state_vrs, &mut again).unwrap();
        for s in [&mut with, &mut without] {
            s.set("blade[1].pitch", 0.15);
            s.inst.get_real(&all_vrs, &mut all).unwrap();
            s.step(0.002);
        }
        let mut a = vec![0.0; all_vrs.len()];
        let mut b_ = vec![0.0; all_vrs.len()];
        with.inst.get_real(&all_vrs, &mut a).unwrap();
        without.inst.get_real(&all_vrs, &mut b_).unwrap();
        assert_eq!(bits(&a), bits(&b_), "configuration {c}: with and without the read alone");
    }
}
