//! The FCS FMU's FMI interface: the declared variables, all loops off is the gearing alone
//! without states, directional derivatives equal central finite differences for every declared
//! pair with every loop on, FMU state restore is bit-identical, time responses against closed
//! forms (washout step response, heading error across the +-pi cut), and bad configurations are
//! refused by name.

use fmu_core::Model;
use fmu_core::verify::{Sim, b, check_directional_derivatives, check_fmu_state_round_trip, check_layout, r};
use fmu_fcs::Fcs;
use fmu_fcs::layout::{u, vr as vrs, y};

/// Every loop on, with actuators (test gains).
fn all_loops() -> Sim<Fcs> {
    Sim::<Fcs>::new(&[
        ("actuator.tau", r(0.05)),
        ("sas", b(true)),
        ("sas.K_p", r(0.08)),
        ("sas.K_q", r(0.1)),
        ("sas.K_r", r(0.2)),
        ("sas.washout_tau", r(1.0)),
        ("attitude_hold", b(true)),
        ("attitude_hold.K_phi", r(0.5)),
        ("attitude_hold.Ki_phi", r(0.1)),
        ("attitude_hold.K_theta", r(0.6)),
        ("attitude_hold.Ki_theta", r(0.2)),
        ("heading_hold", b(true)),
        ("heading_hold.K", r(0.9)),
        ("heading_hold.Ki", r(0.05)),
        ("hover_hold", b(true)),
        ("hover_hold.K_pos", r(0.3)),
        ("hover_hold.K_vel", r(0.05)),
        ("hover_hold.K_z", r(0.5)),
        ("hover_hold.K_w", r(0.04)),
    ])
}

#[test]
fn declarations_follow_the_layout() {
    let vars = Fcs::variables();
    let contract = ["gear.collective", "sas", "stick.collective", "phi", "collective", "aug.pedal"].map(String::from);
    let (inputs, outputs) = check_layout(&vars, &contract, (u::N, vrs::INPUT_BASE), (y::N, vrs::OUTPUT_BASE));
    assert_eq!(inputs[u::RATES].name, "p");
    assert_eq!(outputs[y::COMMAND + 3].name, "pedal");
    assert_eq!(Fcs::state_variables().len(), 10);
}

#[test]
fn with_every_loop_off_the_outputs_are_the_gearings_and_there_are_no_states() {
    let mut sim = Sim::<Fcs>::new(&[("gear.lat_cyclic", r(0.2)), ("offset.pedal", r(0.1))]);
    assert!(sim.inst.continuous_state().is_empty());
    for (name, v) in [("stick.collective", 0.14), ("stick.lon", -0.01), ("stick.lat", 0.5), ("stick.pedal", 0.03)] {
        sim.set(name, v);
    }
    for (name, v) in [("p", 0.3), ("phi", 0.2), ("psi", 1.0), ("x", 5.0)] {
        sim.set(name, v);
    }
    sim.step(0.01);
    assert_eq!(
        sim.get_names(["collective", "lon_cyclic", "lat_cyclic", "pedal"]),
        [0.14, -0.01, 0.2 * 0.5, 0.1 + 0.03]
    );
    assert_eq!(sim.get_names(["aug.collective", "aug.lon_cyclic", "aug.lat_cyclic", "aug.pedal"]), [0.0; 4]);
}

#[test]
fn washout_step_response_is_minus_k_p_exp_minus_t_over_tau_w() {
    let (k_p, tau_w) = (0.08, 0.8);
    let mut sim = Sim::<Fcs>::new(&[("sas", b(true)), ("sas.K_p", r(k_p)), ("sas.washout_tau", r(tau_w))]);
    sim.set("p", 1.0);
    sim.run_to(1.2, 0.01);
    let expected = -k_p * (-1.2 / tau_w).exp();
    let got = sim.get("lat_cyclic");
    assert!((got - expected).abs() < 1e-8, "lat_cyclic {got}, closed form {expected}");
}

#[test]
fn heading_error_is_wrapped_across_the_cut() {
    let mut sim = Sim::<Fcs>::new(&[("heading_hold", b(true)), ("heading_hold.K", r(0.9))]);
    sim.set("cmd.psi", 3.0);
    sim.set("psi", -3.0);
    sim.step(0.01);
    // cmd.psi - psi = 6 rad, i.e. 6 - 2 pi: turn left by 0.283 rad, not right by 6.
    let expected = -0.9 * (6.0 - std::f64::consts::TAU);
    assert!((sim.get("pedal") - expected).abs() < 1e-14, "{}", sim.get("pedal"));
}

#[test]
fn directional_derivatives_equal_central_differences_and_declared_structure() {
    let mut sim = all_loops();
    for (name, v) in [("stick.collective", 0.1), ("p", 0.1), ("q", -0.05), ("r", 0.2), ("phi", 0.05)] {
        sim.set(name, v);
    }
    for (name, v) in [("psi", 0.6), ("cmd.psi", 0.4), ("x", 2.0), ("y", -1.0), ("z", -10.0), ("u", 0.5), ("w", 0.2)] {
        sim.set(name, v);
    }
    sim.run_to(0.2, 0.01);
    let report = check_directional_derivatives(&mut sim.inst, |_, v| 1e-5 * v.abs().max(1.0), 1e-6).unwrap();
    report.assert_clean("every loop on");
}

#[test]
fn fmu_state_restore_is_bit_identical() {
    let mut sim = all_loops();
    sim.set("p", 0.2);
    sim.set("x", 3.0);
    check_fmu_state_round_trip(&mut sim.inst, 5, 0.01);
    assert_eq!(sim.inst.continuous_state().len(), 10);
}

#[test]
fn hover_hold_without_attitude_hold_is_refused() {
    let e = Sim::<Fcs>::try_new(&[("hover_hold", b(true))]).err().unwrap();
    assert!(e.contains("attitude_hold"), "{e}");
}
