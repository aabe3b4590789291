//! FMU state through the safe API: get, set and serialise bit for bit, bad bytes refused, and a
//! restored state leaving the `Error` state.

use super::*;

#[test]
fn fmu_state_get_step_set_step_is_bit_identical() {
    let (mut inst, _) = initialized(&[]);
    run(&mut inst, 7, 0.13);
    let saved = inst.get_fmu_state().unwrap();
    let first = run(&mut inst, 25, 0.11);
    // Change a tunable parameter and the input derivative, then go back.
    inst.set_real(&[vr::C], &[1.0]).unwrap();
    inst.set_real_input_derivatives(&[vr::F], &[1], &[3.0]).unwrap();
    run(&mut inst, 3, 0.2);
    inst.set_fmu_state(&saved).unwrap();
    assert_eq!(inst.slave_state(), SlaveState::StepComplete);
    let second = run(&mut inst, 25, 0.11);
    assert_eq!(first, second);
    // get_fmu_state_into reuses an existing state object.
    let mut again = inst.get_fmu_state().unwrap();
    run(&mut inst, 2, 0.1);
    inst.get_fmu_state_into(&mut again).unwrap();
    assert_eq!(again, inst.get_fmu_state().unwrap());
}

#[test]
fn serialized_state_continues_bit_identically_in_a_fresh_instance() {
    let (mut inst, _) = initialized(&[(vr::TOL, 1e-7)]);
    inst.set_real_input_derivatives(&[vr::F], &[1], &[0.25]).unwrap();
    run(&mut inst, 9, 0.07);
    inst.set_real_input_derivatives(&[vr::F], &[1], &[-1.5]).unwrap();
    let state = inst.get_fmu_state().unwrap();
    let t_saved = inst.time();
    let bytes = inst.serialize_fmu_state(&state).unwrap();
    let expected = run(&mut inst, 30, 0.09);

    let (mut fresh, _) = recorded::<MassSpringDamper>();
    assert_eq!(fresh.slave_state(), SlaveState::Instantiated);
    let restored = fresh.deserialize_fmu_state(&bytes).unwrap();
    assert_eq!(restored, state);
    fresh.set_fmu_state(&restored).unwrap();
    assert_eq!(fresh.slave_state(), SlaveState::StepComplete);
    assert_eq!(fresh.time(), t_saved);
    assert_eq!(run(&mut fresh, 30, 0.09), expected);
    // The tolerance parameter travelled with the state.
    assert_eq!(get(&mut fresh, vr::TOL), 1e-7);
}

#[test]
fn deserializing_bad_bytes_is_refused_with_a_clear_message() {
    let (mut inst, _) = initialized(&[]);
    inst.do_step(0.0, 0.1).unwrap();
    let state = inst.get_fmu_state().unwrap();
    let bytes = inst.serialize_fmu_state(&state).unwrap();

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("garbage", b"this is not an FMU state at all".to_vec(), "bad magic"),
        ("empty", Vec::new(), "truncated"),
        ("truncated", bytes[..bytes.len() - 3].to_vec(), "truncated"),
        ("header only", bytes[..12].to_vec(), "truncated"),
        ("trailing", [&bytes[..], &[0u8]].concat(), "trailing bytes"),
        ("huge GUID length", [&bytes[..8], &u32::MAX.to_le_bytes(), &bytes[12..]].concat(), "truncated"),
        (
            "bad slave state",
            {
                let mut b = bytes.clone();
                let guid_len = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
                b[12 + guid_len] = 9;
                b
            },
            "invalid slave state",
        ),
    ];
    for (what, data, needle) in cases {
        let (mut fresh, log) = recorded::<MassSpringDamper>();
        let r = fresh.deserialize_fmu_state(&data);
        let e = assert_error(&fresh, r, "fmi2DeSerializeFMUstate", needle);
        assert!(log.borrow().iter().any(|m| m.contains(needle)), "{what}: {e} not logged");
    }

    // A state of another model type: refused by its GUID.
    let (mut decay, _) = recorded::<Decay>();
    decay.setup_experiment(0.0, None).unwrap();
    decay.enter_initialization_mode().unwrap();
    decay.exit_initialization_mode().unwrap();
    decay.do_step(0.0, 0.1).unwrap();
    let foreign = decay.get_fmu_state().unwrap();
    let foreign_bytes = decay.serialize_fmu_state(&foreign).unwrap();
    let (mut fresh, _) = recorded::<MassSpringDamper>();
    let r = fresh.deserialize_fmu_state(&foreign_bytes);
    let e = assert_error(&fresh, r, "fmi2DeSerializeFMUstate", "belongs to another model");
    assert!(e.message.contains(&*fmu_core::guid::<Decay>()), "{e}");
    // ... and in memory by its shape.
    let (mut fresh, _) = initialized(&[]);
    let r = fresh.set_fmu_state(&foreign);
    assert_error(&fresh, r, "fmi2SetFMUstate", "different model");
}

#[test]
fn set_fmu_state_recovers_from_error() {
    let (mut inst, _) = initialized(&[]);
    inst.do_step(0.0, 0.2).unwrap();
    let saved = inst.get_fmu_state().unwrap();
    let expected = run(&mut inst, 4, 0.1);
    inst.set_real(&[vr::M], &[1.0]).unwrap_err(); // fixed parameter: Error
    assert_eq!(inst.slave_state(), SlaveState::Error);
    inst.set_fmu_state(&saved).unwrap();
    assert_eq!(inst.slave_state(), SlaveState::StepComplete);
    assert_eq!(run(&mut inst, 4, 0.1), expected);
}
