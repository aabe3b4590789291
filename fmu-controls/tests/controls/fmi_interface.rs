//! The Controls FMU's FMI interface: declarations follow the design's contract and the layout,
//! directional derivatives equal central finite differences for every declared pair (ideal and
//! first-order actuators), undeclared pairs do not move, FMU state restore is bit-identical and
//! bad parameters are refused by name.

use fmu_controls::Controls;
use fmu_controls::layout::{MAX_BLADES, u, vr as vrs, y};
use fmu_core::verify::{check_directional_derivatives, check_fmu_state_round_trip, check_layout};
use fmu_core::{Instance, Model};

fn vr(name: &str) -> u32 {
    Controls::variables().iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable '{name}'")).vr
}

#[test]
fn declarations_follow_the_contract_and_layout() {
    let vars = Controls::variables();
    let mut contract: Vec<String> = [
        "nb",
        "tau",
        "gain.collective",
        "gain.lon",
        "gain.lat",
        "gain.pedal",
        "phase",
        "tail.offset",
        "collective",
        "lon_cyclic",
        "lat_cyclic",
        "pedal",
        "azimuth",
        "azimuth_rate",
        "theta0",
        "theta1c",
        "theta1s",
        "tail_collective",
    ]
    .map(String::from)
    .to_vec();
    for b in 1..=MAX_BLADES {
        for s in ["pitch", "pitch_rate", "pitch_acc"] {
            contract.push(format!("blade[{b}].{s}"));
        }
    }
    let (_, outputs) = check_layout(&vars, &contract, (u::N, vrs::INPUT_BASE), (y::N, vrs::OUTPUT_BASE));
    assert_eq!(outputs[y::blade(2) + y::PITCH_ACC].name, "blade[3].pitch_acc");
    assert_eq!(outputs[y::SWASHPLATE + 3].name, "tail_collective");
}

#[test]
fn invalid_parameters_are_refused_with_their_name() {
    for (name, v) in [("tau", -0.1), ("tolerance", 0.0)] {
        let mut inst = Instance::<Controls>::new("bad");
        inst.set_real(&[vr(name)], &[v]).unwrap();
        let e = inst.enter_initialization_mode().unwrap_err().to_string();
        assert!(e.contains(&format!("'{name}'")), "{e}");
    }
    let mut inst = Instance::<Controls>::new("bad");
    assert!(inst.set_integer(&[vr("nb")], &[0]).is_err());
}

fn running(tau: f64) -> Instance<Controls> {
    let mut inst = Instance::<Controls>::new("controls");
    inst.set_integer(&[vr("nb")], &[5]).unwrap();
    for (name, v) in [
        ("tau", tau),
        ("gain.lon", 0.9),
        ("gain.lat", 1.3),
        ("gain.pedal", -1.1),
        ("phase", 0.2),
        ("tail.offset", 0.1),
        ("collective0", 0.05),
    ] {
        inst.set_real(&[vr(name)], &[v]).unwrap();
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    for (name, v) in [
        ("collective", 0.15),
        ("lon_cyclic", 0.03),
        ("lat_cyclic", -0.02),
        ("pedal", 0.04),
        ("azimuth", 1.1),
        ("azimuth_rate", 29.0),
    ] {
        inst.set_real(&[vr(name)], &[v]).unwrap();
    }
    for n in 0..3 {
        inst.do_step(n as f64 * 0.01, 0.01).unwrap();
    }
    inst
}

#[test]
fn directional_derivatives_equal_central_differences_and_declared_structure() {
    for tau in [0.0, 0.05] {
        let mut inst = running(tau);
        let report = check_directional_derivatives(&mut inst, |_, u| 1e-5 * u.abs().max(1.0), 1e-6).unwrap();
        report.assert_clean(&format!("tau {tau} s"));
    }
}

#[test]
fn fmu_state_restore_is_bit_identical() {
    let mut inst = running(0.05);
    check_fmu_state_round_trip(&mut inst, 5, 0.01);
    assert_eq!(inst.continuous_state().len(), 4);
}
