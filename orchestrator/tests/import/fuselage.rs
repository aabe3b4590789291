//! The importer against our real `Fuselage.fmu` (packaged by `bash scripts/test.sh`): the
//! parsed description, two instances side by side, closed-form free fall and hover, FMU state
//! round trips, the directional derivative against `1/mass`, and FMU error messages reaching
//! both the logger and the `CallError`.

use crate::import_support;

use std::sync::Arc;

use cosim::import::{CallErrorKind, Fmu, Slave, Status, StepResult};
use import_support::{Collector, packaged_fmu};

/// Default parameters of the Fuselage FMU (independent of the code: the documented contract).
const MASS: f64 = 2100.0;
const G: f64 = 9.80665;

fn open() -> Fmu {
    Fmu::open(&packaged_fmu("Fuselage")).expect("Fuselage.fmu opens")
}

fn vr(fmu: &Fmu, name: &str) -> u32 {
    fmu.model_description().variable(name).unwrap_or_else(|| panic!("no variable {name}")).value_reference
}

fn initialized(fmu: &Fmu, name: &str, logger: Arc<Collector>) -> Slave {
    let mut slave = fmu.instantiate(name, logger).expect("instantiate");
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    slave
}

fn get(slave: &mut Slave, vr: u32) -> f64 {
    let mut value = [f64::NAN];
    slave.get_real(&[vr], &mut value).unwrap();
    value[0]
}

#[test]
fn description_of_the_packaged_fuselage() {
    let fmu = open();
    let md = fmu.model_description();
    assert_eq!(md.fmi_version, "2.0");
    assert_eq!(md.model_name, "Fuselage");
    assert!(md.get_after_set, "our vendor annotation getAfterSet=\"true\"");
    let cs = &md.co_simulation;
    assert_eq!(cs.model_identifier, "Fuselage");
    assert_eq!(cs.can_handle_variable_communication_step_size, Some(true));
    assert_eq!(cs.can_interpolate_inputs, Some(true));
    assert_eq!(cs.max_output_derivative_order, Some(1));
    assert_eq!(cs.can_get_and_set_fmu_state, Some(true));
    assert_eq!(cs.can_serialize_fmu_state, Some(true));
    assert_eq!(cs.provides_directional_derivative, Some(true));
    assert_ne!(cs.can_be_instantiated_only_once_per_process, Some(true));
    assert_eq!(md.default_experiment.step_size, Some(0.01));

    let acc_z = md.index_of("hub.acc.z").unwrap();
    let f_z = md.index_of("hub.F.z").unwrap();
    let deps = md.output_dependency(acc_z).unwrap().dependencies.as_ref().expect("dependencies stated");
    assert!(deps.contains(&f_z), "hub.acc.z feeds through from hub.F.z");
    assert!(md.feedthrough_inputs(acc_z).contains(&f_z));
    let z = md.index_of("z").unwrap();
    let states: Vec<usize> = md.continuous_states.iter().map(|s| s.state).collect();
    assert_eq!(md.output_dependency(z).unwrap().dependencies, Some(states), "position depends on states only");
    assert!(md.feedthrough_inputs(z).is_empty());

    let functions = fmu.functions();
    assert!(functions.get_directional_derivative.is_some());
    assert!(functions.get_fmu_state.is_some() && functions.serialize_fmu_state.is_some());

    let report = cosim::import::inspect::describe(md);
    assert!(report.contains("hub.acc.z"), "{report}");
    assert!(report.contains("get after set (rotorcraft-fmi)"), "{report}");
}

/// Two instances of one FMU, stepped interleaved with different inputs: free fall follows
/// `z = g t^2 / 2`, the one held by `hub.F.z = -m g` stays at `z = 0`.
#[test]
fn two_instances_free_fall_and_hover() {
    let fmu = open();
    let logger = Arc::new(Collector::default());
    let (z, f_z, acc_z) = (vr(&fmu, "z"), vr(&fmu, "hub.F.z"), vr(&fmu, "hub.acc.z"));

    let mut falling = fmu.instantiate("falling", logger.clone()).unwrap();
    let mut hovering = fmu.instantiate("hovering", logger.clone()).unwrap();
    for slave in [&mut falling, &mut hovering] {
        slave.setup_experiment(None, 0.0, Some(2.0)).unwrap();
        slave.enter_initialization_mode().unwrap();
    }
    hovering.set_real(&[f_z], &[-MASS * G]).unwrap();
    falling.exit_initialization_mode().unwrap();
    hovering.exit_initialization_mode().unwrap();
    assert_eq!(falling.name(), "falling");

    // Specific force at the hub: 0 in free fall, -g when held.
    assert!(get(&mut falling, acc_z).abs() < 1e-12);
    assert!((get(&mut hovering, acc_z) + G).abs() < 1e-9);

    let h = 0.01;
    for k in 0..200 {
        let t = k as f64 * h;
        assert_eq!(falling.do_step(t, h, true).unwrap(), StepResult::Complete);
        assert_eq!(hovering.do_step(t, h, true).unwrap(), StepResult::Complete);
        let t_end = t + h;
        let expected = G * t_end * t_end / 2.0;
        let z_fall = get(&mut falling, z);
        assert!(
            (z_fall - expected).abs() <= 1e-9 * expected.max(1.0),
            "t = {t_end}: z = {z_fall}, expected {expected}"
        );
        let z_hover = get(&mut hovering, z);
        assert!(z_hover.abs() < 1e-9, "t = {t_end}: hovering z = {z_hover}");
    }
    assert!((get(&mut falling, z) - G * 2.0).abs() < 1e-8, "z(2 s) = g * 2^2 / 2");
    assert!(logger.messages().iter().all(|m| m.status < Status::Warning), "{:?}", logger.messages());
}

/// Save, run on, restore, run the same steps again: the outputs agree to the bit; a reused state
/// and serialisation round trip too.
#[test]
fn fmu_state_round_trip_is_bit_identical() {
    let fmu = open();
    let logger = Arc::new(Collector::default());
    let mut slave = initialized(&fmu, "body", logger.clone());
    let inputs = [vr(&fmu, "hub.F.x"), vr(&fmu, "hub.F.z"), vr(&fmu, "hub.M.y"), vr(&fmu, "tail.F.y")];
    let outputs: Vec<u32> = fmu
        .model_description()
        .variables
        .iter()
        .filter(|v| v.is_output() && v.var_type == cosim::import::model_description::VarType::Real)
        .map(|v| v.value_reference)
        .collect();
    assert!(outputs.len() > 20);
    let h = 0.01;
    let run = |slave: &mut Slave, from: usize, steps: usize| -> Vec<u64> {
        let mut values = vec![0.0; outputs.len()];
        let mut trace = Vec::new();
        for k in from..from + steps {
            let t = k as f64 * h;
            slave.set_real(&inputs, &[800.0 * t.sin(), -MASS * G * 0.9, 300.0, -40.0 * t]).unwrap();
            assert_eq!(slave.do_step(t, h, false).unwrap(), StepResult::Complete);
            slave.get_real(&outputs, &mut values).unwrap();
            trace.extend(values.iter().map(|v| v.to_bits()));
        }
        trace
    };
    run(&mut slave, 0, 50);
    let mut state = slave.get_fmu_state().unwrap();
    let first = run(&mut slave, 50, 50);
    slave.set_fmu_state(&state).unwrap();
    let second = run(&mut slave, 50, 50);
    assert!(first == second, "the restored state continues bit-identically");

    // Reuse the same state object (no new allocation on our side), then restore it again.
    slave.get_fmu_state_into(&mut state).unwrap();
    let third = run(&mut slave, 100, 30);
    slave.set_fmu_state(&state).unwrap();
    assert!(third == run(&mut slave, 100, 30));

    // Serialise, restore into a fresh state, continue: the same again.
    let bytes = slave.serialize_fmu_state(&state).unwrap();
    let restored = slave.deserialize_fmu_state(&bytes).unwrap();
    slave.set_fmu_state(&restored).unwrap();
    assert!(third == run(&mut slave, 100, 30));

    // A state belongs to its instance.
    let mut other = initialized(&fmu, "other", logger);
    let err = other.set_fmu_state(&state).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::InvalidArgument);
    assert!(err.to_string().contains("belongs to another instance"), "{err}");

    slave.free_fmu_state(state).unwrap();
    slave.free_fmu_state(restored).unwrap();
    // Outstanding states are freed with the instance.
    let _kept = slave.get_fmu_state().unwrap();
    drop(slave);
}

/// `d hub.acc.z / d hub.F.z = 1 / mass`: the hub is on the body z axis above the centre of mass,
/// so a vertical hub force has no moment and the airframe accelerates as a point mass.
#[test]
fn directional_derivative_is_one_over_mass() {
    let fmu = open();
    let mut slave = initialized(&fmu, "jacobian", Arc::new(Collector::default()));
    let (acc_z, f_z) = (vr(&fmu, "hub.acc.z"), vr(&fmu, "hub.F.z"));
    let mut d = [0.0];
    slave.get_directional_derivative(&[acc_z], &[f_z], &[1.0], &mut d).unwrap();
    assert!((d[0] - 1.0 / MASS).abs() < 1e-15, "d acc/dF = {} vs 1/m = {}", d[0], 1.0 / MASS);

    // Linear in the seed, and still so after a step.
    slave.do_step(0.0, 0.01, true).unwrap();
    slave.get_directional_derivative(&[acc_z], &[f_z], &[-3.0], &mut d).unwrap();
    assert!((d[0] + 3.0 / MASS).abs() < 1e-15);

    // Both lengths are checked before the FMU is called.
    let mut two = [0.0; 2];
    let err = slave.get_directional_derivative(&[acc_z], &[f_z], &[1.0], &mut two).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::InvalidArgument);
    assert!(err.to_string().contains("1 unknown value references but 2 result values"), "{err}");
    let err = slave.get_directional_derivative(&[acc_z], &[f_z], &[1.0, 2.0], &mut d).unwrap_err();
    assert!(err.to_string().contains("1 known value references but 2 seed values"), "{err}");
    let err = slave.get_real(&[acc_z, f_z], &mut d).unwrap_err();
    assert_eq!(err.function, "fmi2GetReal");
    assert!(err.to_string().starts_with("jacobian: fmi2GetReal not called: 2 value references but 1 values"), "{err}");
}

/// A bad call: the FMU's own message reaches the logger and the error.
#[test]
fn fmu_error_message_reaches_logger_and_error() {
    let fmu = open();
    let logger = Arc::new(Collector::default());
    let mut slave = initialized(&fmu, "fuselage", logger.clone());
    let err = slave.do_step(5.0, 0.01, true).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::Status(Status::Error));
    assert_eq!(err.function, "fmi2DoStep");
    assert_eq!(err.instance, "fuselage");
    let text = err.to_string();
    assert!(text.starts_with("fuselage: fmi2DoStep returned fmi2Error: "), "{text}");
    assert!(text.contains("communication point 5 s does not match"), "{text}");
    let logged = logger.messages();
    let m = logged.iter().find(|m| m.text.contains("does not match")).expect("the FMU logged the reason");
    assert_eq!((m.instance.as_str(), m.status), ("fuselage", Status::Error));

    // An unknown value reference: the FMU names it.
    let err = slave.get_real(&[999_999], &mut [0.0]).unwrap_err();
    assert!(err.message.is_some(), "{err}");

    // fmi2Reset recovers from the error state.
    slave.reset().unwrap();
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    assert_eq!(slave.do_step(0.0, 0.01, true).unwrap(), StepResult::Complete);
    slave.terminate().unwrap();
}

/// Instances keep the binary and the extracted files alive; the directory goes with the last.
#[test]
fn instances_outlive_the_fmu_handle_and_clean_up() {
    let fmu = open();
    let dir = fmu.directory().to_path_buf();
    assert!(dir.join("binaries/linux64/Fuselage.so").is_file());
    let mut slave = initialized(&fmu, "survivor", Arc::new(Collector::default()));
    let z = vr(&fmu, "z");
    drop(fmu);
    slave.do_step(0.0, 0.5, true).unwrap();
    assert!((get(&mut slave, z) - G * 0.125).abs() < 1e-9);
    assert!(dir.exists());
    drop(slave);
    assert!(!dir.exists(), "the temporary directory is removed with the last user");
}

/// The same archive opened twice gives two independent copies of the binary.
#[test]
fn one_archive_opened_twice() {
    let a = open();
    let b = open();
    assert_ne!(a.directory(), b.directory());
    let logger = Arc::new(Collector::default());
    let mut sa = initialized(&a, "a", logger.clone());
    let mut sb = initialized(&b, "b", logger);
    sa.do_step(0.0, 0.1, true).unwrap();
    sb.do_step(0.0, 0.1, true).unwrap();
    let z = vr(&a, "z");
    assert_eq!(get(&mut sa, z).to_bits(), get(&mut sb, z).to_bits());
}
