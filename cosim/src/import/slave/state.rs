//! [`Slave`]'s FMU states: get, set, free, serialise and deserialise (`canGetAndSetFMUstate`,
//! `canSerializeFMUstate`). The instance keeps a registry of the states it handed out and frees
//! what is left of them when it is dropped.

use super::super::error::CallError;
use super::super::ffi::Fmi2FmuState;
use super::{FmuState, Slave, StateHandle};

impl Slave {
    /// The pointer of `state`; refuses a state made by another instance.
    fn own(&self, function: &'static str, state: &FmuState) -> Result<Fmi2FmuState, CallError> {
        match state.handle {
            StateHandle::Local(ptr) if state.owner == self.id => Ok(ptr),
            _ => Err(CallError::foreign_state(&self.name, function)),
        }
    }

    /// `fmi2GetFMUstate` into a new state (`canGetAndSetFMUstate`).
    pub fn get_fmu_state(&mut self) -> Result<FmuState, CallError> {
        const F: &str = "fmi2GetFMUstate";
        let Some(f) = self.functions.get_fmu_state else {
            return Err(self.unsupported(F, "canGetAndSetFMUstate"));
        };
        let mut ptr: Fmi2FmuState = std::ptr::null_mut();
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `*ptr` is null, so the FMU allocates a new state.
        let code = unsafe { f(self.c(), &mut ptr) };
        self.check(F, mark, code)?;
        if ptr.is_null() {
            return Err(self.invalid_result(F, "fmi2OK but no state (null pointer)"));
        }
        self.states.push(ptr);
        Ok(FmuState { handle: StateHandle::Local(ptr), owner: self.id })
    }

    /// `fmi2GetFMUstate` into an existing state, which the FMU updates in place (no allocation
    /// on our side; FMUs following the standard reuse the state's memory).
    pub fn get_fmu_state_into(&mut self, state: &mut FmuState) -> Result<(), CallError> {
        const F: &str = "fmi2GetFMUstate";
        let Some(f) = self.functions.get_fmu_state else {
            return Err(self.unsupported(F, "canGetAndSetFMUstate"));
        };
        let old = self.own(F, state)?;
        let mut ptr = old;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `ptr` is a live state of this instance (owner checked, still
        // registered since freeing consumes the FmuState), which the FMU overwrites.
        let code = unsafe { f(self.c(), &mut ptr) };
        let result = self.check(F, mark, code);
        if ptr != old && !ptr.is_null() {
            // The FMU replaced the state: keep the registry in step.
            if let Some(slot) = self.states.iter_mut().find(|p| **p == old) {
                *slot = ptr;
            }
            state.handle = StateHandle::Local(ptr);
        }
        result
    }

    /// `fmi2SetFMUstate`: restores `state`.
    pub fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), CallError> {
        const F: &str = "fmi2SetFMUstate";
        let Some(f) = self.functions.set_fmu_state else {
            return Err(self.unsupported(F, "canGetAndSetFMUstate"));
        };
        let ptr = self.own(F, state)?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `ptr` is a live state of this instance.
        let code = unsafe { f(self.c(), ptr) };
        self.check(F, mark, code)
    }

    /// `fmi2FreeFMUstate`.
    pub fn free_fmu_state(&mut self, state: FmuState) -> Result<(), CallError> {
        const F: &str = "fmi2FreeFMUstate";
        let Some(f) = self.functions.free_fmu_state else {
            return Err(self.unsupported(F, "canGetAndSetFMUstate"));
        };
        let old = self.own(F, &state)?;
        let mut ptr = old;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `ptr` is a live state of this instance, freed once: it is
        // removed from the registry below and the FmuState was consumed.
        let code = unsafe { f(self.c(), &mut ptr) };
        self.check(F, mark, code)?;
        self.states.retain(|p| *p != old);
        Ok(())
    }

    /// `fmi2SerializedFMUstateSize` + `fmi2SerializeFMUstate` (`canSerializeFMUstate`).
    pub fn serialize_fmu_state(&mut self, state: &FmuState) -> Result<Vec<u8>, CallError> {
        const F: &str = "fmi2SerializeFMUstate";
        let (Some(size_fn), Some(f)) = (self.functions.serialized_fmu_state_size, self.functions.serialize_fmu_state)
        else {
            return Err(self.unsupported(F, "canSerializeFMUstate"));
        };
        let ptr = self.own(F, state)?;
        let mut size = 0usize;
        let mark = self.begin("fmi2SerializedFMUstateSize")?;
        // SAFETY: FMI 2.0 signature; `ptr` is a live state of this instance.
        let code = unsafe { size_fn(self.c(), ptr, &mut size) };
        self.check("fmi2SerializedFMUstateSize", mark, code)?;
        let mut bytes = vec![0u8; size];
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `bytes` is writable for `size` bytes.
        let code = unsafe { f(self.c(), ptr, bytes.as_mut_ptr().cast(), size) };
        self.check(F, mark, code)?;
        Ok(bytes)
    }

    /// `fmi2DeSerializeFMUstate` into a new state (`canSerializeFMUstate`).
    pub fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> Result<FmuState, CallError> {
        const F: &str = "fmi2DeSerializeFMUstate";
        let Some(f) = self.functions.deserialize_fmu_state else {
            return Err(self.unsupported(F, "canSerializeFMUstate"));
        };
        let mut ptr: Fmi2FmuState = std::ptr::null_mut();
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `bytes` is readable for its length; `*ptr` is null, so the
        // FMU allocates a new state.
        let code = unsafe { f(self.c(), bytes.as_ptr().cast(), bytes.len(), &mut ptr) };
        self.check(F, mark, code)?;
        if ptr.is_null() {
            return Err(self.invalid_result(F, "fmi2OK but no state (null pointer)"));
        }
        self.states.push(ptr);
        Ok(FmuState { handle: StateHandle::Local(ptr), owner: self.id })
    }
}
