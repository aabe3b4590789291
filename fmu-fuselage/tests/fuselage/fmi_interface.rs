//! The Fuselage's FMI interface against independent references: directional derivatives against
//! central finite differences of the outputs (get-after-set between steps), structural zeros where
//! `ModelStructure` declares no dependency, and FMU state save/restore/serialisation.

use fmu_core::Instance;
use fmu_core::verify::{check_directional_derivatives, check_fmu_state_round_trip};
use fmu_fuselage::Fuselage;

/// An airframe with CoM offset, products of inertia and drag, stepped into a tumbling state
/// with loads at every point, wind and a density input, so that every coupling term is non-zero.
fn tumbling_instance() -> Instance<Fuselage> {
    let mut inst = Instance::<Fuselage>::new("fuselage");
    let set = |inst: &mut Instance<Fuselage>, name: &str, v: f64| {
        let vr = inst.vr(name).unwrap();
        inst.set_real(&[vr], &[v]).unwrap();
    };
    for (name, v) in [
        ("cg.x", 0.15),
        ("cg.y", -0.05),
        ("cg.z", 0.3),
        ("I.xy", -20.0),
        ("I.xz", -150.0),
        ("I.yz", 10.0),
        ("drag_area", 1.2),
        ("u0", 30.0),
        ("w0", 2.0),
        ("p0", 0.3),
        ("q0", -0.2),
        ("r0", 0.25),
        ("theta0", 0.1),
        ("phi0", -0.2),
    ] {
        set(&mut inst, name, v);
    }
    for (k, name) in ["hub.F.x", "hub.F.y", "hub.F.z", "hub.M.x", "hub.M.y", "hub.M.z"].iter().enumerate() {
        set(&mut inst, name, [800.0, -300.0, -21000.0, 400.0, -900.0, 2500.0][k]);
    }
    for (name, v) in [
        ("tail.F.y", -900.0),
        ("ext.F.z", 150.0),
        ("ext.M.x", 30.0),
        ("wind.x", 5.0),
        ("wind.y", -3.0),
        ("wind.z", 1.0),
        ("air.density", 1.1),
    ] {
        set(&mut inst, name, v);
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    for n in 0..10 {
        inst.do_step(n as f64 * 0.05, 0.05).unwrap();
    }
    inst
}

#[test]
fn directional_derivatives_equal_central_differences_and_declared_structure() {
    let mut inst = tumbling_instance();
    let report = check_directional_derivatives(&mut inst, |_, u| 1e-3 * u.abs().max(100.0), 1e-6).unwrap();
    report.assert_clean("directional derivatives");
}

#[test]
fn fmu_state_restore_and_serialization_are_bit_identical() {
    check_fmu_state_round_trip(&mut tumbling_instance(), 5, 0.1);
}
