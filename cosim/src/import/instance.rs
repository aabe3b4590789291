//! [`Instance`]: one FMU instance as the master drives it, in this process ([`Slave`]) or in a
//! child process of its own ([`IsolatedSlave`]), behind one set of methods.

use super::isolated::IsolatedSlave;
use super::{CallError, FmuState, Slave, StepResult};

/// An FMU instance in this process or isolated in a child process. The methods are those of
/// [`Slave`] that the master uses, with the same meaning and errors; an isolated instance adds
/// the errors of a child that died or timed out ([`super::CallErrorKind::ProcessDied`],
/// [`super::CallErrorKind::TimedOut`]).
#[derive(Debug)]
pub enum Instance {
    /// Loaded into this process.
    InProcess(Slave),
    /// In a child process.
    Isolated(IsolatedSlave),
}

/// Methods forwarded to the variant.
macro_rules! forward {
    ($($(#[$doc:meta])* fn $name:ident(&mut self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)*) => {
        $(
            $(#[$doc])*
            #[inline]
            pub fn $name(&mut self $(, $arg: $ty)*) -> $ret {
                match self {
                    Instance::InProcess(slave) => slave.$name($($arg),*),
                    Instance::Isolated(slave) => slave.$name($($arg),*),
                }
            }
        )*
    };
}

impl Instance {
    /// The instance name.
    pub fn name(&self) -> &str {
        match self {
            Instance::InProcess(slave) => slave.name(),
            Instance::Isolated(slave) => slave.name(),
        }
    }

    /// Whether any thread may call this instance (one thread at a time, as FMI 2.0 allows for
    /// different instances): every isolated instance and every in-process one except those of
    /// PythonFMU binaries, which share the process's one CPython interpreter and are called
    /// from the master's own thread only.
    pub fn callable_from_any_thread(&self) -> bool {
        match self {
            Instance::InProcess(slave) => !slave.uses_python(),
            Instance::Isolated(_) => true,
        }
    }

    /// `fmi2GetContinuousStates` (a Model Exchange instance, in this process).
    pub fn get_continuous_states(&mut self, x: &mut [f64]) -> Result<(), CallError> {
        self.in_process("fmi2GetContinuousStates")?.get_continuous_states(x)
    }

    /// `fmi2GetDerivatives` (a Model Exchange instance, in this process).
    pub fn get_derivatives(&mut self, dx: &mut [f64]) -> Result<(), CallError> {
        self.in_process("fmi2GetDerivatives")?.get_derivatives(dx)
    }

    /// `fmi2SetContinuousStates` (a Model Exchange instance, in this process).
    pub fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), CallError> {
        self.in_process("fmi2SetContinuousStates")?.set_continuous_states(x)
    }

    /// `fmi2SetTime` (a Model Exchange instance, in this process).
    pub fn set_time(&mut self, t: f64) -> Result<(), CallError> {
        self.in_process("fmi2SetTime")?.set_time(t)
    }

    /// `fmi2SetString` (an instance in this process: the child process of an isolated one is not
    /// passed Strings).
    pub fn set_string(&mut self, vrs: &[u32], values: &[&str]) -> Result<(), CallError> {
        self.in_process("fmi2SetString")?.set_string(vrs, values)
    }

    /// The in-process slave, or an error for `function` on an isolated instance.
    fn in_process(&mut self, function: &'static str) -> Result<&mut Slave, CallError> {
        match self {
            Instance::InProcess(slave) => Ok(slave),
            Instance::Isolated(slave) => Err(CallError {
                instance: slave.name().to_string(),
                function,
                kind: super::CallErrorKind::NotSupported,
                message: Some(
                    if function == "fmi2SetString" {
                        "String parameters are set in this process only: run the instance without isolate"
                    } else {
                        "Model Exchange instances run in this process only"
                    }
                    .into(),
                ),
            }),
        }
    }

    forward! {
        /// `fmi2SetupExperiment`.
        fn setup_experiment(&mut self, tolerance: Option<f64>, start: f64, stop: Option<f64>) -> Result<(), CallError>;
        /// `fmi2EnterInitializationMode`.
        fn enter_initialization_mode(&mut self) -> Result<(), CallError>;
        /// `fmi2ExitInitializationMode`.
        fn exit_initialization_mode(&mut self) -> Result<(), CallError>;
        /// `fmi2Terminate`.
        fn terminate(&mut self) -> Result<(), CallError>;
        /// `fmi2SetReal`.
        fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Result<(), CallError>;
        /// `fmi2GetReal`.
        fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> Result<(), CallError>;
        /// `fmi2SetInteger` (also for Enumerations).
        fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Result<(), CallError>;
        /// `fmi2GetInteger` (also for Enumerations).
        fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> Result<(), CallError>;
        /// `fmi2SetBoolean`.
        fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> Result<(), CallError>;
        /// `fmi2GetBoolean`.
        fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> Result<(), CallError>;
        /// `fmi2DoStep`; see [`Slave::do_step`].
        fn do_step(&mut self, t: f64, h: f64, no_set_fmu_state_prior: bool) -> Result<StepResult, CallError>;
        /// `fmi2GetDirectionalDerivative`.
        fn get_directional_derivative(
            &mut self,
            unknown: &[u32],
            known: &[u32],
            dv_known: &[f64],
            dv_unknown: &mut [f64]
        ) -> Result<(), CallError>;
        /// `fmi2SetRealInputDerivatives`.
        fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), CallError>;
        /// `fmi2GetFMUstate` into a new state.
        fn get_fmu_state(&mut self) -> Result<FmuState, CallError>;
        /// `fmi2GetFMUstate` into an existing state.
        fn get_fmu_state_into(&mut self, state: &mut FmuState) -> Result<(), CallError>;
        /// `fmi2SetFMUstate`.
        fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), CallError>;
        /// `fmi2FreeFMUstate`.
        fn free_fmu_state(&mut self, state: FmuState) -> Result<(), CallError>;
        /// `fmi2SerializedFMUstateSize` + `fmi2SerializeFMUstate`.
        fn serialize_fmu_state(&mut self, state: &FmuState) -> Result<Vec<u8>, CallError>;
        /// `fmi2DeSerializeFMUstate` into a new state.
        fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> Result<FmuState, CallError>;
        /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`.
        fn last_successful_time(&mut self) -> Result<f64, CallError>;
    }
}
