//! `fmi2FMUstate`: get, set, free, serialize and deserialize. A state is a `Box<S::State>`
//! handed to the importer as a raw pointer.

use std::ffi::c_char;

use super::{Component, FmuStatePtr, StatusCode, checked, null_argument, reject, slice, slice_mut, with_instance};
use crate::slave::CoSimulation;
use crate::status::{FmiError, FmiResult, Status};

/// The state behind `state`, refused (and logged) if null.
///
/// # Safety
/// `state` null or from [`get_fmu_state`] / [`deserialize_fmu_state`] of the same model, not
/// yet freed.
unsafe fn saved<'a, S: CoSimulation>(
    me: &mut S,
    function: &'static str,
    state: FmuStatePtr,
) -> FmiResult<&'a S::State> {
    if state.is_null() {
        return reject(me, null_argument(function, "FMUstate"));
    }
    // SAFETY: non-null, allocated by us for this model (the caller's contract).
    Ok(unsafe { &*(state as *const S::State) })
}

/// `fmi2GetFMUstate`: allocates a new state, or overwrites `*state` if it is one of ours.
///
/// # Safety
/// See `with_instance`; `state` null or valid, `*state` null or from this function.
pub unsafe fn get_fmu_state<S: CoSimulation>(c: Component, state: *mut FmuStatePtr) -> StatusCode {
    const F: &str = "fmi2GetFMUstate";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if state.is_null() {
                return reject(me, null_argument(F, "FMUstate"));
            }
            // SAFETY: non-null, writable by contract.
            let existing = *state as *mut S::State;
            if existing.is_null() {
                let saved = me.get_fmu_state()?;
                // SAFETY: as above.
                *state = Box::into_raw(Box::new(saved)) as FmuStatePtr;
                Ok(())
            } else {
                // SAFETY: a state we allocated and the importer has not freed.
                me.get_fmu_state_into(&mut *existing)
            }
        })
    }
}

/// `fmi2SetFMUstate`.
///
/// # Safety
/// See `with_instance`; `state` null or from [`get_fmu_state`] / [`deserialize_fmu_state`] of
/// the same model.
pub unsafe fn set_fmu_state<S: CoSimulation>(c: Component, state: FmuStatePtr) -> StatusCode {
    const F: &str = "fmi2SetFMUstate";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            let state = saved(me, F, state)?;
            me.set_fmu_state(state)
        })
    }
}

/// `fmi2FreeFMUstate`: frees `*state` and sets it to null.
///
/// # Safety
/// See [`set_fmu_state`].
pub unsafe fn free_fmu_state<S: CoSimulation>(c: Component, state: *mut FmuStatePtr) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, "fmi2FreeFMUstate", |me| {
            if !state.is_null() && !(*state).is_null() {
                // SAFETY: allocated by `Box::into_raw` in get/deserialize, freed once here.
                let owned = *Box::from_raw(*state as *mut S::State);
                *state = std::ptr::null_mut();
                return me.free_fmu_state(owned);
            }
            Ok(())
        })
    }
}

/// `fmi2SerializedFMUstateSize`.
///
/// # Safety
/// See [`set_fmu_state`]; `size` writable.
pub unsafe fn serialized_fmu_state_size<S: CoSimulation>(
    c: Component,
    state: FmuStatePtr,
    size: *mut usize,
) -> StatusCode {
    const F: &str = "fmi2SerializedFMUstateSize";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if state.is_null() || size.is_null() {
                return reject(me, null_argument(F, "FMUstate or size"));
            }
            let bytes = me.serialize_fmu_state(&*(state as *const S::State))?;
            *size = bytes.len();
            Ok(())
        })
    }
}

/// `fmi2SerializeFMUstate`.
///
/// # Safety
/// See [`set_fmu_state`]; `bytes` null or `size` writable bytes.
pub unsafe fn serialize_fmu_state<S: CoSimulation>(
    c: Component,
    state: FmuStatePtr,
    bytes: *mut c_char,
    size: usize,
) -> StatusCode {
    const F: &str = "fmi2SerializeFMUstate";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            let state = saved(me, F, state)?;
            let data = me.serialize_fmu_state(state)?;
            if data.len() > size {
                let message = format!("buffer of {size} bytes is smaller than the state ({} bytes)", data.len());
                return reject(me, FmiError { status: Status::Error, function: F, message });
            }
            checked(me, slice_mut(F, "byte buffer", bytes as *mut u8, data.len()))?.copy_from_slice(&data);
            Ok(())
        })
    }
}

/// `fmi2DeSerializeFMUstate`.
///
/// # Safety
/// See [`get_fmu_state`]; `bytes` null or `size` readable bytes.
pub unsafe fn deserialize_fmu_state<S: CoSimulation>(
    c: Component,
    bytes: *const c_char,
    size: usize,
    state: *mut FmuStatePtr,
) -> StatusCode {
    const F: &str = "fmi2DeSerializeFMUstate";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if state.is_null() {
                return reject(me, null_argument(F, "FMUstate"));
            }
            let data = checked(me, slice(F, "byte buffer", bytes as *const u8, size))?;
            let restored = me.deserialize_fmu_state(data)?;
            let existing = *state as *mut S::State;
            if existing.is_null() {
                *state = Box::into_raw(Box::new(restored)) as FmuStatePtr;
            } else {
                // SAFETY: a state we allocated and the importer has not freed.
                *existing = restored;
            }
            Ok(())
        })
    }
}
