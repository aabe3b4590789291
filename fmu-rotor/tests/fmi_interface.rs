//! The Rotor's FMI interface against independent references: directional derivatives (exact,
//! by AD through the whole evaluation including the `M q'' = Q` solve) against central finite
//! differences of the outputs (get-after-set between steps) for every declared output/input
//! pair, structural zeros where `ModelStructure` declares no dependency, and FMU state
//! save/restore/serialisation bit for bit.

use fmu_core::variable::Kind;
use fmu_core::{Causality, Feedthrough, Instance, Model};
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

fn check_directional_derivatives(shaft_free: bool) {
    let mut inst = moving_instance(shaft_free);
    let vars = Rotor::variables();
    let inputs: Vec<_> = vars.iter().filter(|v| v.causality == Causality::Input).collect();
    let outputs: Vec<_> = vars.iter().filter(|v| v.causality == Causality::Output).collect();
    let out_vrs: Vec<u32> = outputs.iter().map(|v| v.vr).collect();
    let n_out = out_vrs.len();
    let (mut plus, mut minus, mut ad) = (vec![0.0; n_out], vec![0.0; n_out], vec![0.0; n_out]);
    let (mut worst, mut pairs, mut zeros, mut declared_zero) = (0.0_f64, 0, 0, 0);
    let mut worst_pair = String::new();
    for input in &inputs {
        let mut u0 = [0.0];
        inst.get_real(&[input.vr], &mut u0).unwrap();
        let unit_scale = match input.kind {
            Kind::Real { unit: "N" | "N.m", .. } => 1000.0,
            _ => 1.0,
        };
        // Richardson-extrapolated central differences (O(delta^4)), so that delta can be large
        // enough for the rounding of large outputs (the kinetic energy is ~4e6 J) to vanish.
        let delta = 1e-3 * u0[0].abs().max(unit_scale);
        let mut central = |d: f64| {
            inst.set_real(&[input.vr], &[u0[0] + d]).unwrap();
            inst.get_real(&out_vrs, &mut plus).unwrap();
            inst.set_real(&[input.vr], &[u0[0] - d]).unwrap();
            inst.get_real(&out_vrs, &mut minus).unwrap();
            plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * d)).collect::<Vec<f64>>()
        };
        let (d1, d2) = (central(delta), central(2.0 * delta));
        inst.set_real(&[input.vr], &u0).unwrap();
        inst.get_directional_derivative(&out_vrs, &[input.vr], &[1.0], &mut ad).unwrap();
        let fd: Vec<f64> = d1.iter().zip(&d2).map(|(a, b)| (4.0 * a - b) / 3.0).collect();
        // Column scale for the relative error: the largest finite-difference entry.
        let scale = fd.iter().fold(0.0_f64, |a, b| a.max(b.abs())).max(1e-300);
        for (k, out) in outputs.iter().enumerate() {
            let declared = matches!(&out.feedthrough, Feedthrough::Inputs(deps) if deps.contains(&input.vr));
            if declared {
                let rel = (ad[k] - fd[k]).abs() / scale;
                if rel > worst {
                    worst_pair =
                        format!("d {}/d {}: AD {:e} FD {:e} scale {scale:e}", out.name, input.name, ad[k], fd[k]);
                }
                worst = worst.max(rel);
                pairs += 1;
                if ad[k] == 0.0 && fd[k] == 0.0 {
                    declared_zero += 1;
                }
                assert!(
                    rel < 1e-6,
                    "d {}/d {}: AD {} vs FD {} (rel {rel:e}, shaft_free {shaft_free})",
                    out.name,
                    input.name,
                    ad[k],
                    fd[k]
                );
            } else {
                zeros += 1;
                assert_eq!(ad[k], 0.0, "d {}/d {} must be zero (no declared dependency)", out.name, input.name);
                assert!(
                    fd[k].abs() <= 1e-9 * scale.max(1.0),
                    "{} moves with {} ({}) but declares no dependency",
                    out.name,
                    input.name,
                    fd[k]
                );
            }
        }
    }
    eprintln!(
        "directional derivatives (shaft_free = {shaft_free}): {pairs} declared output/input pairs, worst relative error \
         vs central FD (Richardson) {worst:.3e} ({declared_zero} declared pairs are zero here: inactive blades, or the shaft torque \
         input with the shaft driven); {zeros} undeclared pairs exactly zero; worst pair {worst_pair}"
    );
    assert!(pairs > 0 && zeros > 0);
}

#[test]
fn directional_derivatives_equal_central_differences_driven_shaft() {
    check_directional_derivatives(false);
}

#[test]
fn directional_derivatives_equal_central_differences_free_shaft() {
    check_directional_derivatives(true);
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
    let mut inst = moving_instance(false);
    let t = inst.time();
    let outputs: Vec<u32> =
        Rotor::variables().iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect();
    let saved = inst.get_fmu_state().unwrap();
    let run = |inst: &mut Instance<Rotor>| {
        let mut values = vec![0.0; outputs.len()];
        for n in 0..5 {
            inst.do_step(t + n as f64 * 0.01, 0.01).unwrap();
        }
        inst.get_real(&outputs, &mut values).unwrap();
        values
    };
    let first = run(&mut inst);
    inst.set_fmu_state(&saved).unwrap();
    let again = run(&mut inst);
    assert!(first.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits()), "restored run differs");

    let bytes = inst.serialize_fmu_state(&saved).unwrap();
    let mut fresh = Instance::<Rotor>::new("fresh");
    let restored = fresh.deserialize_fmu_state(&bytes).unwrap();
    fresh.set_fmu_state(&restored).unwrap();
    let from_bytes = run(&mut fresh);
    assert!(first.iter().zip(&from_bytes).all(|(a, b)| a.to_bits() == b.to_bits()), "deserialized run differs");
    eprintln!("FMU state: restored and deserialized runs equal the original bit for bit ({} outputs)", outputs.len());
}
