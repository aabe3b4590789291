//! The Aero FMU's FMI interface against independent references: the declarations follow the
//! design's contract and the layout, directional derivatives equal central finite differences of
//! the outputs (get-after-set between steps) for every declared pair, outputs that declare no
//! dependency do not move, and FMU state save/restore/serialisation is bit-identical.

use std::f64::consts::PI;

use crate::common::{BladeState, Rotor, Sim, Val, blade_inputs, i, r, set_blade};
use fmu_aero::Aero;
use fmu_aero::layout::{MAX_BLADES, u, vr as vrs, y};
use fmu_core::verify::{check_directional_derivatives, check_fmu_state_round_trip, check_layout};
use fmu_core::{Causality, Instance, Model};

#[test]
fn declarations_follow_the_contract_and_layout() {
    let vars = Aero::variables();
    let mut contract: Vec<String> =
        ["nb", "R", "e", "r_root", "chord", "twist", "a", "cd0", "cd2", "rho", "n_sections", "inflow_model", "Omega"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    contract
        .extend(["thrust", "torque", "power", "CT", "inflow", "shaft.nx", "shaft.ny", "shaft.nz"].map(String::from));
    for c in ["x", "y", "z"] {
        contract.push(format!("hub.vel.{c}"));
        contract.push(format!("hub.omega.{c}"));
        for b in 1..=MAX_BLADES {
            for v in ["vel", "omega", "shaft", "F", "M"] {
                contract.push(format!("blade[{b}].{v}.{c}"));
            }
        }
    }
    for b in 1..=MAX_BLADES {
        contract.push(format!("blade[{b}].azimuth"));
    }
    // Also checks that every description is non-empty.
    let (inputs, outputs) = check_layout(&vars, &contract, (u::N, vrs::INPUT_BASE), (y::N, vrs::OUTPUT_BASE));
    assert_eq!(inputs[u::blade(2) + u::AZIMUTH].name, "blade[3].azimuth");
    assert_eq!(inputs[u::blade(7) + u::SHAFT + 2].name, "blade[8].shaft.z");
    assert_eq!(inputs[u::HUB_OMEGA + 1].name, "hub.omega.y");
    assert_eq!(outputs[y::blade(4) + y::MOMENT + 1].name, "blade[5].M.y");
    assert_eq!(outputs[y::CT].name, "CT");
}

#[test]
fn invalid_parameters_are_refused_with_their_name() {
    for (name, val, needle) in [
        ("R", Val::R(-1.0), "'R'"),
        ("e", Val::R(8.0), "'e'"),
        ("r_root", Val::R(0.1), "'r_root'"),
        ("chord", Val::R(0.0), "'chord'"),
        ("rho", Val::R(0.0), "'rho'"),
        ("Omega", Val::R(0.0), "'Omega'"),
        ("shaft.nz", Val::R(0.0), "shaft"),
        ("tolerance", Val::R(2.0), "'tolerance'"),
    ] {
        let mut inst = Instance::<Aero>::new("bad");
        let vr = crate::common::vr(name);
        match val {
            Val::R(v) => inst.set_real(&[vr], &[v]).unwrap(),
            Val::I(v) => inst.set_integer(&[vr], &[v]).unwrap(),
            Val::B(v) => inst.set_boolean(&[vr], &[v]).unwrap(),
        }
        if name == "shaft.nz" {
            inst.set_real(&[crate::common::vr("shaft.nx")], &[0.0]).unwrap();
        }
        let e = inst.enter_initialization_mode().unwrap_err().to_string();
        assert!(e.contains(needle), "{name}: {e}");
    }
    // Integer ranges are declared, so the FMI layer refuses them before configure.
    let mut inst = Instance::<Aero>::new("bad");
    assert!(inst.set_integer(&[crate::common::vr("n_sections")], &[65]).is_err());
    let mut inst = Instance::<Aero>::new("bad");
    assert!(inst.set_integer(&[crate::common::vr("nb")], &[9]).is_err());
}

/// A 5-bladed rotor in forward flight with flapping, pitching blades; `model` selects the inflow
/// (Peters-He: 2 harmonics, 2 radial functions).
fn flying(model: i32) -> Sim {
    flying_with(model, &[])
}

/// [`flying`] with more parameters.
fn flying_with(model: i32, extra: &[(&'static str, Val)]) -> Sim {
    let mut params = vec![
        ("nb", i(5)),
        ("e", r(0.35)),
        ("r_root", r(1.4)),
        ("cd0", r(0.01)),
        ("cd2", r(0.7)),
        ("n_sections", i(12)),
        ("inflow_model", i(model)),
        ("shaft.nx", r(0.08)),
        ("shaft.ny", r(-0.02)),
        ("lambda0_start", r(0.04)),
        ("lambda_s_start", r(0.01)),
        ("lambda_c_start", r(-0.015)),
        ("peters_he_harmonics", i(2)),
        ("peters_he_radial", i(2)),
    ];
    params.extend_from_slice(extra);
    let mut sim = Sim::new(&params);
    let rotor = Rotor { hub_vel: [42.0, 3.0, -2.0], ..Rotor::hover(29.0, 0.35) };
    for b in 0..5 {
        let psi = 0.4 + 2.0 * PI * b as f64 / 5.0;
        let state = BladeState {
            psi,
            beta: 0.05 - 0.03 * psi.cos() - 0.01 * psi.sin(),
            beta_dot: 29.0 * (0.03 * psi.sin() - 0.01 * psi.cos()),
            theta: 0.15 + 0.02 * psi.cos() - 0.06 * psi.sin(),
            theta_dot: 29.0 * (-0.02 * psi.sin() - 0.06 * psi.cos()),
        };
        set_blade(&mut sim, b + 1, &blade_inputs(&rotor, &state));
    }
    sim.set3("hub.vel", rotor.hub_vel);
    sim.set3("hub.omega", [0.05, -0.1, 0.02]);
    if model >= 2 {
        for _ in 0..5 {
            sim.step(0.01);
        }
    }
    sim
}

#[test]
fn directional_derivatives_equal_central_differences_and_declared_structure() {
    for model in [0, 1, 2, 3] {
        let mut sim = flying(model);
        let report = check_directional_derivatives(&mut sim.inst, |_, u| 1e-4 * u.abs().max(1.0), 1e-6).unwrap();
        report.assert_clean(&format!("inflow_model {model}"));
    }
    // With the ground effect (hub 5 m above the ground, R = 7.5 m).
    for model in [2, 3] {
        let mut sim = flying_with(model, &[("ground_height", r(5.0))]);
        let report = check_directional_derivatives(&mut sim.inst, |_, u| 1e-4 * u.abs().max(1.0), 1e-6).unwrap();
        report.assert_clean(&format!("inflow_model {model} with ground effect"));
    }
}

#[test]
fn fmu_state_restore_and_serialization_are_bit_identical() {
    let mut sim = flying(2);
    let outputs = check_fmu_state_round_trip(&mut sim.inst, 5, 0.02);
    assert_eq!(sim.inst.continuous_state().len(), 3);
    eprintln!("FMU state: 5 steps after restore and after deserialisation bit-identical ({outputs} outputs)");
    // Peters-He, 2 harmonics and 2 radial functions: 2 (2 * 2 + 1) = 10 states.
    let mut sim = flying(3);
    check_fmu_state_round_trip(&mut sim.inst, 5, 0.02);
    assert_eq!(sim.inst.continuous_state().len(), 10);
}

/// The uniform inflow iteration starts from the inflow of the last evaluation, which the FMU
/// state holds (as an output value): a restored or deserialised state evaluates bit for bit as
/// the original did, and a warm-started evaluation agrees with a cold one (a fresh instance at
/// the same inputs) to the iteration's tolerance.
#[test]
fn uniform_inflow_warm_start_is_part_of_the_fmu_state() {
    let mut sim = flying(1);
    let outputs: Vec<u32> =
        Aero::variables().iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect();
    let mut values = vec![0.0; outputs.len()];
    sim.inst.get_real(&outputs, &mut values).unwrap();
    // A new flight condition after the evaluation: the next one starts from a stale inflow.
    sim.set3("hub.vel", [45.0, 2.0, -1.0]);
    let saved = sim.inst.get_fmu_state().unwrap();
    let run = |inst: &mut Instance<Aero>| {
        let mut trace = Vec::new();
        for (n, vz) in [-1.0, -1.5, -0.5].into_iter().enumerate() {
            let t = inst.time();
            inst.set_real(&[crate::common::vr("hub.vel.z")], &[vz]).unwrap();
            let mut v = vec![0.0; outputs.len()];
            inst.get_real(&outputs, &mut v).unwrap();
            trace.extend(v);
            if n < 2 {
                inst.do_step(t, 0.01).unwrap();
            }
        }
        trace
    };
    let first = run(&mut sim.inst);
    sim.inst.set_fmu_state(&saved).unwrap();
    let again = run(&mut sim.inst);
    assert!(first.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits()), "restored run differs");
    let bytes = sim.inst.serialize_fmu_state(&saved).unwrap();
    let mut fresh = Instance::<Aero>::new("fresh");
    let restored = fresh.deserialize_fmu_state(&bytes).unwrap();
    fresh.set_fmu_state(&restored).unwrap();
    let third = run(&mut fresh);
    assert!(first.iter().zip(&third).all(|(a, b)| a.to_bits() == b.to_bits()), "deserialized run differs");

    // Cold start: a fresh instance at the final inputs evaluates once, from no inflow.
    let mut cold = flying(1);
    cold.set3("hub.vel", [45.0, 2.0, -0.5]);
    let mut v = vec![0.0; outputs.len()];
    cold.inst.get_real(&outputs, &mut v).unwrap();
    let warm = &first[2 * outputs.len()..];
    let scale = v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let worst = v.iter().zip(warm).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max) / scale;
    let inflow = (v[y::INFLOW] - warm[y::INFLOW]).abs() / v[y::INFLOW].abs();
    eprintln!("uniform inflow: warm vs cold start {worst:.1e} of the largest output, inflow {inflow:.1e} relative");
    assert!(inflow <= 2e-13 && worst <= 1e-12, "warm {worst:e}, inflow {inflow:e}");
}

#[test]
fn unconnected_inputs_give_finite_zero_loads_for_every_inflow_model() {
    for model in [0, 1, 2, 3] {
        let mut sim = Sim::new(&[("inflow_model", i(model))]);
        for name in ["thrust", "torque", "CT", "inflow", "blade[1].F.z", "blade[4].M.y"] {
            assert_eq!(sim.get(name), 0.0, "model {model}: {name}");
        }
        let mut dv = [1.0; 3];
        let unknowns = [crate::common::vr("thrust"), crate::common::vr("inflow"), crate::common::vr("blade[2].F.z")];
        sim.inst
            .get_directional_derivative(&unknowns, &[crate::common::vr("blade[2].vel.y")], &[1.0], &mut dv)
            .unwrap();
        assert!(dv.iter().all(|d| d.is_finite()), "model {model}: {dv:?}");
        sim.step(0.01);
    }
}
