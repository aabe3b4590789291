//! The Rotor's FMI interface against independent references: directional derivatives (exact,
//! by AD through the whole evaluation including the `M q'' = Q` solve) against central finite
//! differences of the outputs (get-after-set between steps) for every declared output/input
//! pair, structural zeros where `ModelStructure` declares no dependency, and FMU state
//! save/restore/serialisation bit for bit.

use fmu_core::variable::{Kind, Variable};
use fmu_core::verify::{check_directional_derivatives, check_fmu_state_round_trip};
use fmu_core::{Causality, Instance, Model};
use fmu_rotor::Rotor;

fn set(inst: &mut Instance<Rotor>, name: &str, v: f64) {
    let vr = inst.vr(name).unwrap_or_else(|| panic!("no variable {name}"));
    inst.set_real(&[vr], &[v]).unwrap();
}

/// A rotor in motion with every input non-zero: hub translating, rotating and accelerating,
/// pitch moving, blade loads, shaft torque. `nb = 3` leaves blades 4..8 inactive.
fn moving_instance(shaft_free: bool) -> Instance<Rotor> {
    let mut inst = Instance::<Rotor>::new("rotor");
    for (name, v) in [
        ("e_lag", 0.2),
        ("blade.I_pitch", 4.0),
        ("k_flap", 1500.0),
        ("blade.beta0", 0.04),
        ("blade.zeta0", 0.02),
        ("hub.m", 50.0),
        ("hub.I", 20.0),
        ("shaft.nx", 0.1),
    ] {
        set(&mut inst, name, v);
    }
    let nb = inst.vr("nb").unwrap();
    inst.set_integer(&[nb], &[3]).unwrap();
    let free = inst.vr("shaft_free").unwrap();
    inst.set_boolean(&[free], &[shaft_free]).unwrap();
    let hub = [
        ("hub.vel", [25.0, -2.0, 1.5]),
        ("hub.omega", [0.15, -0.1, 0.2]),
        ("hub.acc", [1.2, 0.4, -9.0]),
        ("hub.alpha", [0.3, -0.5, 0.2]),
    ];
    for (prefix, v) in hub {
        for (k, c) in ["x", "y", "z"].iter().enumerate() {
            set(&mut inst, &format!("{prefix}.{c}"), v[k]);
        }
    }
    set(&mut inst, "shaft_torque", 12000.0);
    for i in 1..=8 {
        let k = i as f64;
        set(&mut inst, &format!("blade[{i}].pitch"), 0.05 + 0.02 * k);
        set(&mut inst, &format!("blade[{i}].pitch_rate"), 0.3 - 0.1 * k);
        set(&mut inst, &format!("blade[{i}].pitch_acc"), 2.0 - 0.7 * k);
        for (c, v) in ["F.x", "F.y", "F.z", "M.x", "M.y", "M.z"].iter().zip([30.0, 400.0, 2200.0, -80.0, 600.0, 150.0])
        {
            set(&mut inst, &format!("blade[{i}].{c}"), v * (1.0 + 0.1 * k));
        }
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    for n in 0..10 {
        inst.do_step(n as f64 * 0.004, 0.004).unwrap();
    }
    inst
}

fn check_derivatives(shaft_free: bool) {
    let mut inst = moving_instance(shaft_free);
    // Loads are in N and N m: their steps scale with that (a large step also keeps the
    // rounding of large outputs, the kinetic energy is ~4e6 J, below the truncation error).
    let step = |input: &Variable, u: f64| {
        let unit_scale = match input.kind {
            Kind::Real { unit: "N" | "N.m", .. } => 1000.0,
            _ => 1.0,
        };
        1e-3 * u.abs().max(unit_scale)
    };
    let report = check_directional_derivatives(&mut inst, step, 1e-6).unwrap();
    // Zero declared pairs: inactive blades, or the shaft torque input with the shaft driven.
    report.assert_clean(&format!("directional derivatives (shaft_free = {shaft_free})"));
}

#[test]
fn directional_derivatives_equal_central_differences_driven_shaft() {
    check_derivatives(false);
}

#[test]
fn directional_derivatives_equal_central_differences_free_shaft() {
    check_derivatives(true);
}

#[test]
fn output_derivatives_equal_central_differences_in_time() {
    // fmi2GetRealOutputDerivatives (AD along (1, x', u')) against the outputs one short step
    // before and after, inputs held.
    let mut inst = moving_instance(true);
    let outputs: Vec<u32> =
        Rotor::variables().iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect();
    let saved = inst.get_fmu_state().unwrap();
    let t = inst.time();
    let h = 1e-5;
    let mut ad = vec![0.0; outputs.len()];
    inst.get_real_output_derivatives(&outputs, &vec![1; outputs.len()], &mut ad).unwrap();
    let mut y0 = vec![0.0; outputs.len()];
    inst.get_real(&outputs, &mut y0).unwrap();
    inst.do_step(t, h).unwrap();
    let mut y1 = vec![0.0; outputs.len()];
    inst.get_real(&outputs, &mut y1).unwrap();
    inst.set_fmu_state(&saved).unwrap();
    inst.do_step(t, 2.0 * h).unwrap();
    let mut y2 = vec![0.0; outputs.len()];
    inst.get_real(&outputs, &mut y2).unwrap();
    // One-sided second-order difference: (-3 y0 + 4 y1 - y2) / (2h).
    let mut worst: f64 = 0.0;
    for k in 0..outputs.len() {
        let fd = (-3.0 * y0[k] + 4.0 * y1[k] - y2[k]) / (2.0 * h);
        let scale = fd.abs().max(ad[k].abs()).max(1.0);
        worst = worst.max((fd - ad[k]).abs() / scale);
    }
    eprintln!("output time derivatives: worst relative error vs one-sided FD (h = {h:e} s) {worst:.3e}");
    assert!(worst < 1e-5, "{worst:e}");
}

#[test]
fn fmu_state_restore_and_serialization_are_bit_identical() {
    let outputs = check_fmu_state_round_trip(&mut moving_instance(false), 5, 0.01);
    eprintln!("FMU state: restored and deserialized runs equal the original bit for bit ({outputs} outputs)");
}
