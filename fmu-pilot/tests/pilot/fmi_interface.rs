//! The Pilot FMU's FMI interface: the declared variables, directional derivatives equal central
//! finite differences for every declared pair (undeclared pairs do not move), FMU state restore
//! is bit-identical, `model = 0` passes the commands through without states, and an incomplete
//! transfer function is refused by name; the biodynamic states' descriptions name the models
//! that integrate them.

use fmu_core::verify::{Sim, check_directional_derivatives, check_fmu_state_round_trip, check_layout, i, r};
use fmu_core::{Instance, Model};
use fmu_pilot::Pilot;
use fmu_pilot::layout::{G, u, vr as vrs, y};

/// Parameters of a running instance with both paths on (test coefficients).
const ACTIVE: [(&str, f64); 9] = [
    ("gain", 1.3),
    ("vertical.K", 0.05),
    ("vertical.omega", 20.0),
    ("vertical.zeta", 0.3),
    ("vertical.tau", 0.02),
    ("lateral.K", -0.03),
    ("lateral.omega", 15.0),
    ("lateral.zeta", 0.6),
    ("lateral.tau", 0.01),
];

fn active_sim() -> Sim<Pilot> {
    // With the voluntary pilot (roll tracking, second-order Pade delay) on as well.
    let mut params = vec![("model", i(1)), ("voluntary.task", i(1))];
    params.extend([("voluntary.K", r(0.4)), ("voluntary.T_lead", r(0.5)), ("voluntary.delay", r(0.2))]);
    params.extend(ACTIVE.iter().map(|&(n, v)| (n, r(v))));
    Sim::<Pilot>::new(&params)
}

#[test]
fn declarations_follow_the_layout() {
    let vars = Pilot::variables();
    let contract =
        ["model", "gain", "vertical.K", "lateral.tau", "acc_z_ref", "collective_cmd", "acc.z", "bdft.collective"]
            .map(String::from);
    let (inputs, outputs) = check_layout(&vars, &contract, (u::N, vrs::INPUT_BASE), (y::N, vrs::OUTPUT_BASE));
    assert_eq!(inputs[u::ACC_Z].name, "acc.z");
    assert_eq!(outputs[y::LAT_CYCLIC].name, "lat_cyclic");
    let states: Vec<String> = Pilot::state_variables().into_iter().map(|s| s.name).collect();
    assert_eq!(
        states,
        [
            "state.vertical.q",
            "state.vertical.q_dot",
            "state.lateral.q",
            "state.lateral.q_dot",
            "state.voluntary.pade1",
            "state.voluntary.pade2",
            "state.voluntary.lag"
        ]
    );
}

#[test]
fn without_a_model_the_commands_pass_through_and_there_are_no_states() {
    let mut sim = Sim::<Pilot>::new(&[("vertical.K", r(0.05))]);
    assert!(sim.inst.continuous_state().is_empty());
    sim.set("collective_cmd", 0.12);
    sim.set("lat_cyclic_cmd", -0.04);
    sim.set("acc.z", -G + 3.0);
    sim.set("acc.y", 2.0);
    sim.inst.do_step(0.0, 0.01).unwrap();
    assert_eq!(sim.get("collective"), 0.12);
    assert_eq!(sim.get("lat_cyclic"), -0.04);
    assert_eq!(sim.get("bdft.collective"), 0.0);
}

#[test]
fn a_constant_acceleration_settles_at_the_static_gain() {
    // H(0) = gain K per g: a step of 0.5 g down settles at gain K 0.5 on the collective.
    let mut sim = active_sim();
    sim.set("collective_cmd", 0.1);
    sim.set("acc.z", -G + 0.5 * G);
    sim.set("acc.y", -0.25 * G);
    for n in 0..5000 {
        sim.inst.do_step(n as f64 * 0.001, 0.001).unwrap();
    }
    let expected_z = 1.3 * 0.05 * 0.5;
    let expected_y = 1.3 * -0.03 * -0.25;
    assert!(
        (sim.get("bdft.collective") - expected_z).abs() < 1e-9 * expected_z.abs().max(1e-3),
        "{}",
        sim.get("bdft.collective")
    );
    assert!((sim.get("collective") - 0.1 - expected_z).abs() < 1e-9);
    assert!((sim.get("bdft.lat_cyclic") - expected_y).abs() < 1e-9, "{}", sim.get("bdft.lat_cyclic"));
}

#[test]
fn an_incomplete_transfer_function_is_refused_by_name() {
    let e = Sim::<Pilot>::try_new(&[("model", i(1)), ("vertical.omega", r(10.0)), ("vertical.zeta", r(0.3))])
        .err()
        .unwrap();
    assert!(e.contains("lateral.omega"), "{e}");
    let e = Sim::<Pilot>::try_new(&[("model", i(1))]).err().unwrap();
    assert!(e.contains("vertical.omega"), "{e}");
    let mut inst = Instance::<Pilot>::new("bad");
    assert!(inst.set_integer(&[fmu_core::verify::vr::<Pilot>("model")], &[4]).is_err());
}

#[test]
fn directional_derivatives_equal_central_differences_and_declared_structure() {
    let mut sim = active_sim();
    sim.set("collective_cmd", 0.1);
    sim.set("acc.z", -G + 1.0);
    sim.set("acc.y", 0.7);
    sim.set("cmd.phi", 0.1);
    sim.set("phi", 0.03);
    for n in 0..20 {
        sim.inst.do_step(n as f64 * 0.005, 0.005).unwrap();
    }
    let report = check_directional_derivatives(&mut sim.inst, |_, v| 1e-5 * v.abs().max(1.0), 1e-6).unwrap();
    report.assert_clean("model 1");
}

#[test]
fn fmu_state_restore_is_bit_identical() {
    let mut sim = active_sim();
    sim.set("acc.z", -G + 2.0);
    check_fmu_state_round_trip(&mut sim.inst, 5, 0.01);
    assert_eq!(sim.inst.continuous_state().len(), 7);
}

/// The models a description's closing `(model = 1 or 2)` lists.
fn listed_models(description: &str) -> Vec<i32> {
    let (_, list) = description.rsplit_once("(model = ").unwrap_or_else(|| panic!("no model list: {description}"));
    list.trim_end_matches(')').split(" or ").map(|m| m.parse().unwrap()).collect()
}

/// Each biodynamic state's description lists the models whose configuration integrates it:
/// for every model, with both accelerations applied, the path of a listed state moves its
/// output (vertical: `bdft.collective`, lateral: `bdft.lat_cyclic`) and the instance has as
/// many states as the descriptions list for that model.
#[test]
fn biodynamic_state_descriptions_name_the_models_that_integrate_them() {
    let states = Pilot::state_variables();
    for model in 0..=3 {
        let mut params = vec![("model", i(model))];
        params.extend(ACTIVE.iter().map(|&(n, v)| (n, r(v))));
        let mut sim = Sim::<Pilot>::new(&params);
        sim.set("acc.z", -G + 0.5 * G);
        sim.set("acc.y", 0.3 * G);
        sim.run_to(0.05, 0.001);
        let mut listed = 0;
        for (path, output) in [("vertical", "bdft.collective"), ("lateral", "bdft.lat_cyclic")] {
            let moves = sim.get(output) != 0.0;
            for state in states.iter().filter(|s| s.name.starts_with(&format!("state.{path}."))) {
                let integrated = listed_models(&state.description).contains(&model);
                assert_eq!(integrated, moves, "model {model}: {} says '{}'", state.name, state.description);
                listed += usize::from(integrated);
            }
        }
        assert_eq!(sim.inst.continuous_state().len(), listed, "model {model}");
    }
}
