//! `fmi2FMUstate` through the C boundary: get, set and free through raw pointers, and
//! serialisation.

use super::*;

#[test]
fn fmu_state_round_trip_through_raw_pointers() {
    type M = MassSpringDamper;
    let fmu = Fmu::<M>::initialized();
    let steps = |from: usize, n: usize| -> Vec<u64> {
        (from..from + n)
            .flat_map(|i| {
                assert_eq!(fmu.set_real(&[vr::F], &[(i as f64).cos()]), OK);
                assert_eq!(fmu.do_step(i as f64 * 0.1, 0.1), OK);
                fmu.get_real(&[vr::X, vr::V, vr::A]).into_iter().map(f64::to_bits)
            })
            .collect()
    };
    steps(0, 5);
    let mut state: FmuStatePtr = null_mut();
    // SAFETY: live component; `state` is a valid out-pointer holding null (allocate a new state).
    assert_eq!(unsafe { abi::get_fmu_state::<Instance<M>>(fmu.c, &mut state) }, OK);
    assert!(!state.is_null());
    let first = steps(5, 10);
    // SAFETY: `state` came from get_fmu_state of this model.
    assert_eq!(unsafe { abi::set_fmu_state::<Instance<M>>(fmu.c, state) }, OK);
    assert_eq!(steps(5, 10), first, "restored continuation is bit-identical");

    // Saving into an existing state object reuses it.
    let previous = state;
    // SAFETY: `state` is ours and live; it is overwritten in place.
    assert_eq!(unsafe { abi::get_fmu_state::<Instance<M>>(fmu.c, &mut state) }, OK);
    assert_eq!(state, previous);
    let second = steps(15, 3);
    // SAFETY: as above.
    assert_eq!(unsafe { abi::set_fmu_state::<Instance<M>>(fmu.c, state) }, OK);
    assert_eq!(steps(15, 3), second);

    // SAFETY: frees our state once and nulls the pointer; freeing null is a no-op.
    unsafe {
        assert_eq!(abi::free_fmu_state::<Instance<M>>(fmu.c, &mut state), OK);
        assert!(state.is_null());
        assert_eq!(abi::free_fmu_state::<Instance<M>>(fmu.c, &mut state), OK);
        // A null state cannot be set.
        assert_eq!(abi::set_fmu_state::<Instance<M>>(fmu.c, null_mut()), ERROR);
    }
    fmu.assert_logged(&["fmi2SetFMUstate", "FMUstate is a null pointer"]);
}

#[test]
fn serialization_through_the_abi() {
    type M = MassSpringDamper;
    // An instance after four steps of 0.25 s under F = 0.8 N.
    let stepped = || {
        let fmu = Fmu::<M>::initialized();
        assert_eq!(fmu.set_real(&[vr::F], &[0.8]), OK);
        for i in 0..4 {
            assert_eq!(fmu.do_step(i as f64 * 0.25, 0.25), OK);
        }
        fmu
    };
    // Six more steps from t = 1 s: x and v after each.
    let continue_from = |fmu: &Fmu<M>| -> Vec<f64> {
        (4..10)
            .flat_map(|i| {
                assert_eq!(fmu.do_step(i as f64 * 0.25, 0.25), OK);
                fmu.get_real(&[vr::X, vr::V])
            })
            .collect()
    };
    let fmu = stepped();
    let mut state: FmuStatePtr = null_mut();
    let mut size = 0usize;
    // SAFETY: live component and valid out-pointers; the state is ours.
    let bytes = unsafe {
        assert_eq!(abi::get_fmu_state::<Instance<M>>(fmu.c, &mut state), OK);
        assert_eq!(abi::serialized_fmu_state_size::<Instance<M>>(fmu.c, state, &mut size), OK);
        assert!(size > 100, "size {size}");
        let mut bytes = vec![0u8; size];
        // Too small a buffer is refused ...
        assert_eq!(abi::serialize_fmu_state::<Instance<M>>(fmu.c, state, bytes.as_mut_ptr().cast(), size - 1), ERROR);
        assert_eq!(abi::free_fmu_state::<Instance<M>>(fmu.c, &mut state), OK);
        bytes
    };
    fmu.assert_logged(&["fmi2SerializeFMUstate", "smaller than the state"]);

    // ... and the right size works (on a fresh instance: the refusal moved the first to Error).
    let fmu = stepped();
    let mut bytes = bytes;
    // SAFETY: as above; `bytes` has `size` writable bytes.
    unsafe {
        assert_eq!(abi::get_fmu_state::<Instance<M>>(fmu.c, &mut state), OK);
        assert_eq!(abi::serialize_fmu_state::<Instance<M>>(fmu.c, state, bytes.as_mut_ptr().cast(), size), OK);
        assert_eq!(abi::free_fmu_state::<Instance<M>>(fmu.c, &mut state), OK);
    }
    let expected = continue_from(&fmu);

    // Deserialize into a fresh instance and continue there.
    let fresh = Fmu::<M>::new();
    let mut restored: FmuStatePtr = null_mut();
    // SAFETY: `bytes` holds `size` readable bytes; `restored` is a valid out-pointer.
    unsafe {
        assert_eq!(abi::deserialize_fmu_state::<Instance<M>>(fresh.c, bytes.as_ptr().cast(), size, &mut restored), OK);
        assert!(!restored.is_null());
        assert_eq!(abi::set_fmu_state::<Instance<M>>(fresh.c, restored), OK);
        assert_eq!(abi::free_fmu_state::<Instance<M>>(fresh.c, &mut restored), OK);
    }
    let continued = continue_from(&fresh);
    assert_eq!(
        continued.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        expected.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );

    // Garbage through the ABI: error and a message.
    let other = Fmu::<M>::new();
    let garbage = b"garbage garbage garbage";
    // SAFETY: `garbage` is readable for its length.
    let status = unsafe {
        abi::deserialize_fmu_state::<Instance<M>>(other.c, garbage.as_ptr().cast(), garbage.len(), &mut restored)
    };
    assert_eq!(status, ERROR);
    assert!(restored.is_null());
    other.assert_logged(&["fmi2DeSerializeFMUstate", "bad magic"]);
}
