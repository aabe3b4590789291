//! The safe face of an FMI 2.0 Co-Simulation slave (and, optionally, Model Exchange instance),
//! as the C boundary ([`crate::abi`]) sees it.
//!
//! [`Instance`] implements it for every [`Model`]; a slave that is not an ODE model (the
//! orchestrator's system FMU, which runs a whole coupled system inside one `fmi2DoStep`)
//! implements it directly and is exported with [`crate::export_cosimulation!`]. Optional
//! capabilities (FMU state, directional derivatives, input derivatives) have default methods that
//! refuse the call with `fmi2Error`; a slave that overrides them declares them in its model
//! description.

use std::ffi::c_char;

use crate::instance::{EventInfo, FmuState, Instance, Logger};
use crate::model::Model;
use crate::status::{FmiError, FmiResult, Status};

/// What `fmi2Instantiate` passes on after checking its arguments.
#[derive(Debug, Clone, Copy)]
pub struct InstantiateArgs<'a> {
    /// `instanceName`.
    pub instance_name: &'a str,
    /// `fmuGUID`, to compare with the model description the slave was built for.
    pub guid: &'a str,
    /// `fmuResourceLocation`: a URI of the unzipped `resources` folder, if the importer gave one.
    pub resource_location: Option<&'a str>,
    /// `fmuType` is `fmi2ModelExchange` (otherwise `fmi2CoSimulation`).
    pub model_exchange: bool,
}

/// An `fmi2Error` from `function` saying the capability is not provided.
pub fn not_provided(function: &'static str) -> FmiError {
    FmiError {
        status: Status::Error,
        function,
        message: "not provided by this FMU (see the capability flags of its modelDescription.xml)".into(),
    }
}

/// One FMI 2.0 Co-Simulation slave: every `fmi2*` function of the C API as a safe method.
#[allow(missing_docs)] // Each method is the `fmi2` function of the same name.
pub trait CoSimulation: Sized + 'static {
    /// What `fmi2GetFMUstate` hands out and `fmi2SetFMUstate` takes back.
    type State: 'static;

    /// `fmi2Instantiate`: the GUID and resources are checked here; an `Err` is logged and the
    /// call returns null.
    fn instantiate(args: InstantiateArgs<'_>, logger: Logger) -> Result<Self, String>;

    /// Logs an error found at the C boundary (null pointer, bad length, panic).
    fn fail(&mut self, e: &FmiError);

    fn set_debug_logging(&mut self, on: bool, categories: &[&str]) -> FmiResult<()>;
    fn setup_experiment(&mut self, start_time: f64, stop_time: Option<f64>) -> FmiResult<()>;
    fn enter_initialization_mode(&mut self) -> FmiResult<()>;
    fn exit_initialization_mode(&mut self) -> FmiResult<()>;
    fn terminate(&mut self) -> FmiResult<()>;
    fn reset(&mut self) -> FmiResult<()>;
    fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> FmiResult<()>;
    fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> FmiResult<()>;
    fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> FmiResult<()>;
    /// `fmi2SetString`, the values checked UTF-8 at the C boundary.
    fn set_string(&mut self, vrs: &[u32], values: &[&str]) -> FmiResult<()>;
    fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> FmiResult<()>;
    fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> FmiResult<()>;
    fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> FmiResult<()>;
    /// `fmi2GetString`: pointers to NUL-terminated strings the slave keeps valid until its next
    /// call.
    fn get_string(&mut self, vrs: &[u32], values: &mut [*const c_char]) -> FmiResult<()>;
    fn do_step(&mut self, t: f64, h: f64) -> FmiResult<()>;
    fn last_successful_time(&mut self) -> FmiResult<f64>;
    fn terminated_status(&mut self) -> FmiResult<bool>;
    fn unsupported_status(&mut self, function: &'static str, kind: i32) -> FmiResult<()>;

    fn cancel_step(&mut self) -> FmiResult<()> {
        Err(not_provided("fmi2CancelStep"))
    }
    fn get_fmu_state(&mut self) -> FmiResult<Self::State> {
        Err(not_provided("fmi2GetFMUstate"))
    }
    fn get_fmu_state_into(&mut self, target: &mut Self::State) -> FmiResult<()> {
        let old = std::mem::replace(target, self.get_fmu_state()?);
        self.free_fmu_state(old)
    }
    /// `fmi2FreeFMUstate`: releases what `state` holds besides its memory.
    fn free_fmu_state(&mut self, state: Self::State) -> FmiResult<()> {
        drop(state);
        Ok(())
    }
    fn set_fmu_state(&mut self, _state: &Self::State) -> FmiResult<()> {
        Err(not_provided("fmi2SetFMUstate"))
    }
    fn serialize_fmu_state(&mut self, _state: &Self::State) -> FmiResult<Vec<u8>> {
        Err(not_provided("fmi2SerializeFMUstate"))
    }
    fn deserialize_fmu_state(&mut self, _bytes: &[u8]) -> FmiResult<Self::State> {
        Err(not_provided("fmi2DeSerializeFMUstate"))
    }
    fn get_directional_derivative(
        &mut self,
        _unknowns: &[u32],
        _knowns: &[u32],
        _dv_known: &[f64],
        _dv_unknown: &mut [f64],
    ) -> FmiResult<()> {
        Err(not_provided("fmi2GetDirectionalDerivative"))
    }
    fn set_real_input_derivatives(&mut self, _vrs: &[u32], _orders: &[i32], _values: &[f64]) -> FmiResult<()> {
        Err(not_provided("fmi2SetRealInputDerivatives"))
    }
    fn get_real_output_derivatives(&mut self, _vrs: &[u32], _orders: &[i32], _values: &mut [f64]) -> FmiResult<()> {
        Err(not_provided("fmi2GetRealOutputDerivatives"))
    }

    // Model Exchange (exported by `export_fmu!` only).
    fn set_time(&mut self, _t: f64) -> FmiResult<()> {
        Err(not_provided("fmi2SetTime"))
    }
    fn set_continuous_states(&mut self, _x: &[f64]) -> FmiResult<()> {
        Err(not_provided("fmi2SetContinuousStates"))
    }
    fn get_continuous_states(&mut self, _x: &mut [f64]) -> FmiResult<()> {
        Err(not_provided("fmi2GetContinuousStates"))
    }
    fn get_derivatives(&mut self, _dx: &mut [f64]) -> FmiResult<()> {
        Err(not_provided("fmi2GetDerivatives"))
    }
    fn get_nominals_of_continuous_states(&mut self, _nominals: &mut [f64]) -> FmiResult<()> {
        Err(not_provided("fmi2GetNominalsOfContinuousStates"))
    }
    fn get_event_indicators(&mut self, _indicators: &mut [f64]) -> FmiResult<()> {
        Err(not_provided("fmi2GetEventIndicators"))
    }
    fn enter_event_mode(&mut self) -> FmiResult<()> {
        Err(not_provided("fmi2EnterEventMode"))
    }
    fn new_discrete_states(&mut self) -> FmiResult<EventInfo> {
        Err(not_provided("fmi2NewDiscreteStates"))
    }
    fn enter_continuous_time_mode(&mut self) -> FmiResult<()> {
        Err(not_provided("fmi2EnterContinuousTimeMode"))
    }
    /// `(enterEventMode, terminateSimulation)`.
    fn completed_integrator_step(&mut self) -> FmiResult<(bool, bool)> {
        Err(not_provided("fmi2CompletedIntegratorStep"))
    }
}

impl<M: Model> CoSimulation for Instance<M> {
    type State = FmuState;

    fn instantiate(args: InstantiateArgs<'_>, logger: Logger) -> Result<Self, String> {
        Instance::<M>::check_guid(args.guid)?;
        let mut instance = if args.model_exchange {
            Instance::model_exchange(args.instance_name, logger)?
        } else {
            Instance::with_logger(args.instance_name, logger)
        };
        // A location that is not a `file:` URI leaves the model without a resources folder: only
        // a model that needs one (a relative table file) refuses its parameters.
        instance.set_resources(args.resource_location.and_then(|uri| crate::resources::path_from_uri(uri).ok()));
        Ok(instance)
    }
    fn fail(&mut self, e: &FmiError) {
        Instance::fail(self, e)
    }
    fn set_debug_logging(&mut self, on: bool, categories: &[&str]) -> FmiResult<()> {
        Instance::set_debug_logging(self, on, categories)
    }
    fn setup_experiment(&mut self, start_time: f64, stop_time: Option<f64>) -> FmiResult<()> {
        Instance::setup_experiment(self, start_time, stop_time)
    }
    fn enter_initialization_mode(&mut self) -> FmiResult<()> {
        Instance::enter_initialization_mode(self)
    }
    fn exit_initialization_mode(&mut self) -> FmiResult<()> {
        Instance::exit_initialization_mode(self)
    }
    fn terminate(&mut self) -> FmiResult<()> {
        Instance::terminate(self)
    }
    fn reset(&mut self) -> FmiResult<()> {
        Instance::reset(self);
        Ok(())
    }
    fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> FmiResult<()> {
        Instance::set_real(self, vrs, values)
    }
    fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> FmiResult<()> {
        Instance::set_integer(self, vrs, values)
    }
    fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> FmiResult<()> {
        Instance::set_boolean(self, vrs, values)
    }
    fn set_string(&mut self, vrs: &[u32], values: &[&str]) -> FmiResult<()> {
        Instance::set_string(self, vrs, values)
    }
    fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> FmiResult<()> {
        Instance::get_real(self, vrs, values)
    }
    fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> FmiResult<()> {
        Instance::get_integer(self, vrs, values)
    }
    fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> FmiResult<()> {
        Instance::get_boolean(self, vrs, values)
    }
    fn get_string(&mut self, vrs: &[u32], values: &mut [*const c_char]) -> FmiResult<()> {
        Instance::get_string(self, vrs, values)
    }
    fn do_step(&mut self, t: f64, h: f64) -> FmiResult<()> {
        Instance::do_step(self, t, h)
    }
    fn last_successful_time(&mut self) -> FmiResult<f64> {
        Instance::last_successful_time(self)
    }
    fn terminated_status(&mut self) -> FmiResult<bool> {
        Instance::terminated_status(self)
    }
    fn unsupported_status(&mut self, function: &'static str, kind: i32) -> FmiResult<()> {
        Instance::unsupported_status(self, function, kind)
    }
    fn cancel_step(&mut self) -> FmiResult<()> {
        Instance::cancel_step(self)
    }
    fn get_fmu_state(&mut self) -> FmiResult<FmuState> {
        Instance::get_fmu_state(self)
    }
    fn get_fmu_state_into(&mut self, target: &mut FmuState) -> FmiResult<()> {
        Instance::get_fmu_state_into(self, target)
    }
    fn set_fmu_state(&mut self, state: &FmuState) -> FmiResult<()> {
        Instance::set_fmu_state(self, state)
    }
    fn serialize_fmu_state(&mut self, state: &FmuState) -> FmiResult<Vec<u8>> {
        Instance::serialize_fmu_state(self, state)
    }
    fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> FmiResult<FmuState> {
        Instance::deserialize_fmu_state(self, bytes)
    }
    fn get_directional_derivative(
        &mut self,
        unknowns: &[u32],
        knowns: &[u32],
        dv_known: &[f64],
        dv_unknown: &mut [f64],
    ) -> FmiResult<()> {
        Instance::get_directional_derivative(self, unknowns, knowns, dv_known, dv_unknown)
    }
    fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> FmiResult<()> {
        Instance::set_real_input_derivatives(self, vrs, orders, values)
    }
    fn get_real_output_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &mut [f64]) -> FmiResult<()> {
        Instance::get_real_output_derivatives(self, vrs, orders, values)
    }
    fn set_time(&mut self, t: f64) -> FmiResult<()> {
        Instance::set_time(self, t)
    }
    fn set_continuous_states(&mut self, x: &[f64]) -> FmiResult<()> {
        Instance::set_continuous_states(self, x)
    }
    fn get_continuous_states(&mut self, x: &mut [f64]) -> FmiResult<()> {
        Instance::get_continuous_states(self, x)
    }
    fn get_derivatives(&mut self, dx: &mut [f64]) -> FmiResult<()> {
        Instance::get_derivatives(self, dx)
    }
    fn get_nominals_of_continuous_states(&mut self, nominals: &mut [f64]) -> FmiResult<()> {
        Instance::get_nominals_of_continuous_states(self, nominals)
    }
    fn get_event_indicators(&mut self, indicators: &mut [f64]) -> FmiResult<()> {
        Instance::get_event_indicators(self, indicators)
    }
    fn enter_event_mode(&mut self) -> FmiResult<()> {
        Instance::enter_event_mode(self)
    }
    fn new_discrete_states(&mut self) -> FmiResult<EventInfo> {
        Instance::new_discrete_states(self)
    }
    fn enter_continuous_time_mode(&mut self) -> FmiResult<()> {
        Instance::enter_continuous_time_mode(self)
    }
    fn completed_integrator_step(&mut self) -> FmiResult<(bool, bool)> {
        Instance::completed_integrator_step(self)
    }
}
