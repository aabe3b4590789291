//! [`IsolatedSlave`]'s FMI calls: each checks its arguments as `Slave` does, then is one request
//! to the child and its reply.

use super::super::slave::StateHandle;
use super::super::wire::{Encoder, Item, Malformed, Op};
use super::{CallError, FmuState, IsolatedSlave, ReadReply, StepResult};

impl IsolatedSlave {
    /// A request without arguments and without results.
    fn plain(&mut self, op: Op, function: &'static str) -> Result<(), CallError> {
        self.request(op, function, |_| (), &mut |_| Ok(()))
    }

    /// A setter: value references and values of equal length.
    fn set<T: Item>(&mut self, op: Op, function: &'static str, vrs: &[u32], values: &[T]) -> Result<(), CallError> {
        self.same_length(function, ("value references", vrs.len()), ("values", values.len()))?;
        let write = |e: &mut Encoder<'_>| {
            e.slice(vrs).slice(values);
        };
        self.request(op, function, write, &mut |_| Ok(()))
    }

    /// A getter: value references sent, as many values read back.
    fn get<T: Item>(&mut self, op: Op, function: &'static str, vrs: &[u32], values: &mut [T]) -> Result<(), CallError> {
        self.same_length(function, ("value references", vrs.len()), ("values", values.len()))?;
        let write = |e: &mut Encoder<'_>| {
            e.slice(vrs);
        };
        self.request(op, function, write, &mut |d| d.slice_exact(values))
    }

    /// A call on the FMU state `state` of this instance (refused for another's), whose reply
    /// `read` reads.
    fn on_state<T>(
        &mut self,
        op: Op,
        function: &'static str,
        state: &FmuState,
        read: ReadReply<'_, T>,
    ) -> Result<T, CallError> {
        let handle = match state.handle {
            StateHandle::Remote(handle) if state.owner == self.id => handle,
            _ => return Err(CallError::foreign_state(&self.name, function)),
        };
        let write = |e: &mut Encoder<'_>| {
            e.u64(handle);
        };
        self.request(op, function, write, read)
    }

    /// `fmi2SetupExperiment`.
    pub fn setup_experiment(&mut self, tolerance: Option<f64>, start: f64, stop: Option<f64>) -> Result<(), CallError> {
        self.time = start;
        let write = |e: &mut Encoder<'_>| {
            e.u8(u8::from(tolerance.is_some())).f64(tolerance.unwrap_or(0.0)).f64(start);
            e.u8(u8::from(stop.is_some())).f64(stop.unwrap_or(0.0));
        };
        self.request(Op::SetupExperiment, "fmi2SetupExperiment", write, &mut |_| Ok(()))
    }

    /// `fmi2EnterInitializationMode`.
    pub fn enter_initialization_mode(&mut self) -> Result<(), CallError> {
        self.plain(Op::EnterInitializationMode, "fmi2EnterInitializationMode")
    }

    /// `fmi2ExitInitializationMode`.
    pub fn exit_initialization_mode(&mut self) -> Result<(), CallError> {
        self.plain(Op::ExitInitializationMode, "fmi2ExitInitializationMode")
    }

    /// `fmi2Terminate`.
    pub fn terminate(&mut self) -> Result<(), CallError> {
        self.plain(Op::Terminate, "fmi2Terminate")
    }

    /// `fmi2SetReal`.
    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Result<(), CallError> {
        self.set(Op::SetReal, "fmi2SetReal", vrs, values)
    }

    /// `fmi2GetReal`.
    pub fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> Result<(), CallError> {
        self.get(Op::GetReal, "fmi2GetReal", vrs, values)
    }

    /// `fmi2SetInteger` (also for Enumerations).
    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Result<(), CallError> {
        self.set(Op::SetInteger, "fmi2SetInteger", vrs, values)
    }

    /// `fmi2GetInteger` (also for Enumerations).
    pub fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> Result<(), CallError> {
        self.get(Op::GetInteger, "fmi2GetInteger", vrs, values)
    }

    /// `fmi2SetBoolean`.
    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> Result<(), CallError> {
        self.set(Op::SetBoolean, "fmi2SetBoolean", vrs, values)
    }

    /// `fmi2GetBoolean`.
    pub fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> Result<(), CallError> {
        self.get(Op::GetBoolean, "fmi2GetBoolean", vrs, values)
    }

    /// `fmi2DoStep` (with `fmi2GetBooleanStatus(fmi2Terminated)` after a discard, in the child).
    pub fn do_step(&mut self, t: f64, h: f64, no_set_fmu_state_prior: bool) -> Result<StepResult, CallError> {
        self.time = t;
        let write = |e: &mut Encoder<'_>| {
            e.f64(t).f64(h).u8(u8::from(no_set_fmu_state_prior));
        };
        let result = self.request(Op::DoStep, "fmi2DoStep", write, &mut |d| match d.u8()? {
            0 => Ok(StepResult::Complete),
            1 => Ok(StepResult::Discarded),
            2 => Ok(StepResult::Terminated),
            _ => Err(Malformed),
        })?;
        if result == StepResult::Complete {
            self.time = t + h;
        }
        Ok(result)
    }

    /// `fmi2GetDirectionalDerivative`.
    pub fn get_directional_derivative(
        &mut self,
        unknown: &[u32],
        known: &[u32],
        dv_known: &[f64],
        dv_unknown: &mut [f64],
    ) -> Result<(), CallError> {
        const F: &str = "fmi2GetDirectionalDerivative";
        CallError::directional_lengths(&self.name, (unknown, known), (dv_known.len(), dv_unknown.len()))?;
        self.request(
            Op::DirectionalDerivative,
            F,
            |e| {
                e.slice(unknown).slice(known).slice(dv_known);
            },
            &mut |d| d.slice_exact(dv_unknown),
        )
    }

    /// `fmi2SetRealInputDerivatives`.
    pub fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), CallError> {
        const F: &str = "fmi2SetRealInputDerivatives";
        CallError::derivative_lengths(&self.name, F, vrs, orders, values.len())?;
        self.request(
            Op::SetRealInputDerivatives,
            F,
            |e| {
                e.slice(vrs).slice(orders).slice(values);
            },
            &mut |_| Ok(()),
        )
    }

    /// `fmi2GetFMUstate` into a new state, kept in the child.
    pub fn get_fmu_state(&mut self) -> Result<FmuState, CallError> {
        let handle = self.request(Op::GetFmuState, "fmi2GetFMUstate", |_| (), &mut |d| d.u64())?;
        Ok(FmuState { handle: StateHandle::Remote(handle), owner: self.id })
    }

    /// `fmi2GetFMUstate` into an existing state.
    pub fn get_fmu_state_into(&mut self, state: &mut FmuState) -> Result<(), CallError> {
        self.on_state(Op::GetFmuStateInto, "fmi2GetFMUstate", state, &mut |_| Ok(()))
    }

    /// `fmi2SetFMUstate`.
    pub fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), CallError> {
        self.on_state(Op::SetFmuState, "fmi2SetFMUstate", state, &mut |_| Ok(()))
    }

    /// `fmi2FreeFMUstate`.
    pub fn free_fmu_state(&mut self, state: FmuState) -> Result<(), CallError> {
        self.on_state(Op::FreeFmuState, "fmi2FreeFMUstate", &state, &mut |_| Ok(()))
    }

    /// `fmi2SerializedFMUstateSize` + `fmi2SerializeFMUstate`.
    pub fn serialize_fmu_state(&mut self, state: &FmuState) -> Result<Vec<u8>, CallError> {
        self.on_state(Op::SerializeFmuState, "fmi2SerializeFMUstate", state, &mut |d| d.bytes().map(<[u8]>::to_vec))
    }

    /// `fmi2DeSerializeFMUstate` into a new state, kept in the child.
    pub fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> Result<FmuState, CallError> {
        let write = |e: &mut Encoder<'_>| {
            e.bytes(bytes);
        };
        let handle = self.request(Op::DeserializeFmuState, "fmi2DeSerializeFMUstate", write, &mut |d| d.u64())?;
        Ok(FmuState { handle: StateHandle::Remote(handle), owner: self.id })
    }

    /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`.
    pub fn last_successful_time(&mut self) -> Result<f64, CallError> {
        self.request(Op::LastSuccessfulTime, "fmi2GetRealStatus", |_| (), &mut |d| d.f64())
    }
}
