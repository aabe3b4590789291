//! The FMI 2.0 C types (`fmi2TypesPlatform.h`, `fmi2FunctionTypes.h`), constants and status
//! codes, defined once for both sides of the C boundary: `fmu-core` exports FMUs with them and
//! `cosim::import` calls FMUs with them, the function types ([`functions`]) included; and the
//! model description ([`model_description`]): its types and the one writer of
//! `modelDescription.xml`, used by our FMUs and the system FMU, and (feature `parse`) its parser, used by the importer. No dependencies without `parse`.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod functions;
pub mod model_description;

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::fmt;

/// `fmi2Component`
pub type Component = *mut c_void;
/// `fmi2ComponentEnvironment`
pub type ComponentEnvironment = *mut c_void;
/// `fmi2FMUstate`
pub type FmuState = *mut c_void;
/// `fmi2ValueReference`
pub type ValueReference = c_uint;
/// `fmi2Real`
pub type Real = f64;
/// `fmi2Integer`
pub type Integer = c_int;
/// `fmi2Boolean` (`fmi2True` = 1, `fmi2False` = 0)
pub type Boolean = c_int;
/// `fmi2String`
pub type FmiString = *const c_char;
/// `fmi2Byte`
pub type Byte = c_char;
/// `fmi2Status` as passed through the C functions (see [`Status`]).
pub type StatusCode = c_int;
/// `fmi2Type`
pub type Type = c_int;
/// `fmi2StatusKind`
pub type StatusKind = c_int;

/// `fmi2ModelExchange`
pub const MODEL_EXCHANGE: Type = 0;
/// `fmi2CoSimulation`
pub const CO_SIMULATION: Type = 1;
/// `fmi2True`
pub const TRUE: Boolean = 1;
/// `fmi2False`
pub const FALSE: Boolean = 0;
/// `fmi2DoStepStatus` (an `fmi2StatusKind`)
pub const DO_STEP_STATUS: StatusKind = 0;
/// `fmi2PendingStatus`
pub const PENDING_STATUS: StatusKind = 1;
/// `fmi2LastSuccessfulTime`
pub const LAST_SUCCESSFUL_TIME: StatusKind = 2;
/// `fmi2Terminated`
pub const TERMINATED: StatusKind = 3;

/// `fmi2CallbackLogger`: C-variadic, the message is a `printf` format.
pub type CallbackLogger = unsafe extern "C" fn(ComponentEnvironment, FmiString, StatusCode, FmiString, FmiString, ...);

/// `fmi2CallbackFunctions`. The function pointers are `Option`s (a null pointer is `None`, the
/// same layout): an FMU must cope with what the importer passes, and importers set what they
/// provide.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CallbackFunctions {
    /// `logger`
    pub logger: Option<CallbackLogger>,
    /// `allocateMemory` (`calloc` semantics)
    pub allocate_memory: Option<unsafe extern "C" fn(usize, usize) -> *mut c_void>,
    /// `freeMemory`
    pub free_memory: Option<unsafe extern "C" fn(*mut c_void)>,
    /// `stepFinished` (null: steps are synchronous)
    pub step_finished: Option<unsafe extern "C" fn(ComponentEnvironment, StatusCode)>,
    /// `componentEnvironment`, handed back to `logger`
    pub component_environment: ComponentEnvironment,
}

/// `fmi2EventInfo` (Model Exchange), as `fmi2NewDiscreteStates` fills it.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct EventInfo {
    /// `newDiscreteStatesNeeded`
    pub new_discrete_states_needed: Boolean,
    /// `terminateSimulation`
    pub terminate_simulation: Boolean,
    /// `nominalsOfContinuousStatesChanged`
    pub nominals_of_continuous_states_changed: Boolean,
    /// `valuesOfContinuousStatesChanged`
    pub values_of_continuous_states_changed: Boolean,
    /// `nextEventTimeDefined`
    pub next_event_time_defined: Boolean,
    /// `nextEventTime`
    pub next_event_time: Real,
}

/// `fmi2Status`, with the numeric values of `fmi2FunctionTypes.h` (so `Ok < Warning < ... <
/// Fatal < Pending`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(i32)]
pub enum Status {
    /// `fmi2OK`
    Ok = 0,
    /// `fmi2Warning`
    Warning = 1,
    /// `fmi2Discard`
    Discard = 2,
    /// `fmi2Error`
    Error = 3,
    /// `fmi2Fatal`
    Fatal = 4,
    /// `fmi2Pending`
    Pending = 5,
}

impl Status {
    /// The status of a C return code, `None` for a code outside the FMI 2.0 enum.
    pub fn from_code(code: StatusCode) -> Option<Status> {
        Some(match code {
            0 => Status::Ok,
            1 => Status::Warning,
            2 => Status::Discard,
            3 => Status::Error,
            4 => Status::Fatal,
            5 => Status::Pending,
            _ => return None,
        })
    }

    /// The C enumerator's name (`fmi2OK`, `fmi2Warning`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "fmi2OK",
            Status::Warning => "fmi2Warning",
            Status::Discard => "fmi2Discard",
            Status::Error => "fmi2Error",
            Status::Fatal => "fmi2Fatal",
            Status::Pending => "fmi2Pending",
        }
    }

    /// The log category a message with this status belongs to (the categories our FMUs declare).
    pub fn category(self) -> &'static str {
        match self {
            Status::Ok | Status::Pending => "logEvents",
            Status::Warning | Status::Discard => "logStatusWarning",
            Status::Error => "logStatusError",
            Status::Fatal => "logStatusFatal",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_order_by_severity() {
        for code in 0..6 {
            assert_eq!(Status::from_code(code).map(|s| s as StatusCode), Some(code));
        }
        assert_eq!(Status::from_code(6), None);
        assert!(Status::Ok < Status::Warning && Status::Error < Status::Fatal);
        assert_eq!(Status::Discard.to_string(), "fmi2Discard");
    }
}
