//! [`Slave`]: one FMI 2.0 Co-Simulation instance behind a safe API.
//!
//! Every method checks its slice lengths before a pointer reaches the FMU, maps the returned
//! `fmi2Status` to `Result` (`fmi2OK` and `fmi2Warning` are success; the warning's message went to
//! the logger) and, on failure, attaches the most severe message the FMU logged during the call.
//! The stepping path (`set_real`, `get_real`, `do_step`, `get_directional_derivative`) does not
//! allocate unless the FMU logs or fails.
//!
//! This file holds the instance, its creation, the checks around every call and the lifecycle
//! calls; `values.rs` the setters and getters, `step.rs` stepping, derivatives and the Model
//! Exchange calls, `state.rs` the FMU states.

mod state;
mod step;
mod values;

use std::ffi::{CStr, CString, c_int};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::error::{CallError, CallErrorKind};
use super::ffi::{
    FMI2_FALSE, FMI2_TRUE, Fmi2Boolean, Fmi2CallbackFunctions, Fmi2Component, Fmi2FmuState, Fmi2Functions, Fmi2Status,
    Fmi2String, calloc, free, rotorcraft_fmi2_logger,
};
use super::logger::LoggerEnv;
use super::process::{self, CallGuard};
use super::{FmuLogger, ImportError, PYTHON_INIT, Shared, Status, environment_pointer, next_instance_id};

/// Outcome of a successful `fmi2DoStep`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepResult {
    /// The step was done (`fmi2OK` or `fmi2Warning`).
    Complete,
    /// The FMU could not complete the step (`fmi2Discard`); see
    /// [`Slave::last_successful_time`] and roll back with an [`FmuState`] or stop.
    Discarded,
    /// `fmi2Discard` with `fmi2GetBooleanStatus(fmi2Terminated)` true: the FMU ended the
    /// simulation itself at [`Slave::last_successful_time`] (FMI 2.0 section 4.2.3). Retrying
    /// is pointless; the importer should stop (`fmi2Terminate` is still allowed).
    Terminated,
}

/// A saved FMU state (`fmi2FMUstate`), owned by the instance that made it.
///
/// Freed by [`Slave::free_fmu_state`], or when that instance is dropped. It can only be used with
/// the instance that made it (other instances refuse it). The state of an isolated instance
/// ([`super::isolated::IsolatedSlave`]) stays in its process; this is a handle to it.
#[derive(Debug)]
pub struct FmuState {
    pub(crate) handle: StateHandle,
    pub(crate) owner: u64,
}

/// Where an [`FmuState`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StateHandle {
    /// In this process: the FMU's pointer.
    Local(Fmi2FmuState),
    /// In the process of an isolated instance: its number there.
    Remote(u64),
}

// SAFETY: an FmuState is an opaque handle; it is only ever dereferenced by the FMU, through the
// owning Slave (which checks `owner`) with `&mut Slave`, so moving the handle between threads
// cannot cause concurrent access.
unsafe impl Send for FmuState {}

/// One instance of an FMU (`fmi2Component`), created by [`super::Fmu::instantiate`].
///
/// Drop frees its outstanding FMU states and the instance (`fmi2FreeInstance`); the loaded
/// binary and the extracted files live as long as any instance does.
pub struct Slave {
    component: NonNull<std::ffi::c_void>,
    functions: Fmi2Functions,
    name: String,
    /// `name`, interned for the process-wide record of the call in progress ([`process`]).
    static_name: &'static str,
    /// The simulation time the FMU is at (the start time, then the end of the last completed
    /// step; a step's start during `fmi2DoStep`), for that record.
    time: f64,
    id: u64,
    /// States handed out and not yet freed.
    states: Vec<Fmi2FmuState>,
    /// The FMU may keep pointers to these until fmi2FreeInstance: boxed, dropped after it.
    env: Box<LoggerEnv>,
    _callbacks: Box<Fmi2CallbackFunctions>,
    shared: Arc<Shared>,
}

// SAFETY: every call into the FMU goes through `&mut self`, so one instance is never called from
// two threads at once, which is what FMI 2.0 requires of an importer; the logger environment is
// Sync (atomics and a mutex) and the FmuLogger is Send + Sync.
unsafe impl Send for Slave {}

impl std::fmt::Debug for Slave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slave").field("name", &self.name).field("model", &self.shared.model_identifier).finish()
    }
}

/// The start of an FMI call: the logger's mark (messages logged since belong to the call) and the
/// call's entry in the process-wide record, cleared when this is dropped.
struct Mark {
    messages: u64,
    _call: CallGuard,
}

impl Slave {
    /// `fmi2Instantiate` with `fmu_type` (`fmi2CoSimulation` or `fmi2ModelExchange`); used by
    /// [`super::Fmu::instantiate`] and [`super::Fmu::instantiate_model_exchange`].
    pub(crate) fn instantiate(
        shared: Arc<Shared>,
        name: &str,
        c_name: &CStr,
        logger: Arc<dyn FmuLogger>,
        fmu_type: c_int,
    ) -> Result<Slave, ImportError> {
        let debug = logger.debug_logging();
        let env = LoggerEnv::new(logger);
        let callbacks = Box::new(Fmi2CallbackFunctions {
            logger: Some(rotorcraft_fmi2_logger),
            allocate_memory: Some(calloc),
            free_memory: Some(free),
            step_finished: None,
            component_environment: environment_pointer(&env),
        });
        let functions = shared.binary.functions;
        let _python_init = shared.python.then(|| PYTHON_INIT.lock().unwrap_or_else(|p| p.into_inner()));
        let static_name = process::intern(name);
        let call = process::enter(static_name, "fmi2Instantiate", 0.0);
        let mark = env.begin_call();
        // SAFETY: `instantiate` has the FMI 2.0 signature; all strings are NUL-terminated and
        // live across the call; `callbacks` and the environment it points to are boxed and
        // kept in the Slave until after fmi2FreeInstance, as the FMU may keep pointers to them.
        let component = unsafe {
            (functions.instantiate)(
                c_name.as_ptr(),
                fmu_type,
                shared.guid.as_ptr(),
                shared.resource_uri.as_ptr(),
                &*callbacks,
                FMI2_FALSE,
                if debug { FMI2_TRUE } else { FMI2_FALSE },
            )
        };
        drop(call);
        let Some(component) = NonNull::new(component) else {
            return Err(ImportError::Instantiate {
                model: shared.model_identifier.clone(),
                instance: name.to_string(),
                message: env.message_since(mark),
            });
        };
        Ok(Slave {
            component,
            functions,
            name: name.to_string(),
            static_name,
            time: 0.0,
            id: next_instance_id(),
            states: Vec::new(),
            env,
            _callbacks: callbacks,
            shared,
        })
    }

    /// The instance name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the binary is a PythonFMU one: all such instances share the process's one CPython
    /// interpreter, so the master calls them from one thread only.
    pub(crate) fn uses_python(&self) -> bool {
        self.shared.python
    }

    /// The raw `fmi2Component`, for code that calls [`Fmi2Functions`] directly (benchmarks).
    /// Valid while this `Slave` lives; calls through it must respect the FMI state machine.
    pub fn raw_component(&self) -> Fmi2Component {
        self.component.as_ptr()
    }

    #[inline]
    fn c(&self) -> Fmi2Component {
        self.component.as_ptr()
    }

    /// Marks the start of a call (for the logger and for the process-wide record of the call in
    /// progress, until the [`Mark`] is dropped); refuses every call after an `fmi2Fatal`.
    #[inline]
    fn begin(&self, function: &'static str) -> Result<Mark, CallError> {
        if self.shared.fatal.load(Ordering::Relaxed) {
            return Err(self.refused(
                function,
                "an earlier call of this FMU returned fmi2Fatal; FMI 2.0 forbids any further call",
            ));
        }
        let call = process::enter(self.static_name, function, self.time);
        Ok(Mark { messages: self.env.begin_call(), _call: call })
    }

    /// `fmi2OK` and `fmi2Warning` are success.
    #[inline]
    fn check(&self, function: &'static str, mark: Mark, code: Fmi2Status) -> Result<(), CallError> {
        drop(mark._call);
        if code == Status::Ok as Fmi2Status || code == Status::Warning as Fmi2Status {
            Ok(())
        } else {
            Err(self.failed(function, mark.messages, code))
        }
    }

    #[cold]
    fn failed(&self, function: &'static str, mark: u64, code: Fmi2Status) -> CallError {
        let kind = match Status::from_code(code) {
            Some(status) => {
                if status == Status::Fatal {
                    self.shared.fatal.store(true, Ordering::Relaxed);
                }
                CallErrorKind::Status(status)
            }
            None => CallErrorKind::UnknownStatus(code),
        };
        CallError { instance: self.name.clone(), function, kind, message: self.env.message_since(mark) }
    }

    #[cold]
    fn refused(&self, function: &'static str, reason: impl Into<String>) -> CallError {
        CallError::refused(&self.name, function, reason)
    }

    #[cold]
    fn invalid_result(&self, function: &'static str, what: &str) -> CallError {
        CallError {
            instance: self.name.clone(),
            function,
            kind: CallErrorKind::InvalidResult,
            message: Some(what.to_string()),
        }
    }

    /// An optional function whose capability flag `flag` the model description does not set.
    #[cold]
    fn unsupported(&self, function: &'static str, flag: &str) -> CallError {
        CallError {
            instance: self.name.clone(),
            function,
            kind: CallErrorKind::NotSupported,
            message: Some(format!("{flag} is not declared")),
        }
    }

    /// An optional function the binary does not export (no capability flag stands for it).
    #[cold]
    fn not_exported(&self, function: &'static str) -> CallError {
        CallError {
            instance: self.name.clone(),
            function,
            kind: CallErrorKind::NotSupported,
            message: Some("the binary does not export it".into()),
        }
    }

    #[inline]
    fn same_length(&self, function: &'static str, a: (&str, usize), b: (&str, usize)) -> Result<(), CallError> {
        CallError::same_length(&self.name, function, a, b)
    }

    /// `items` as C strings; refused with `refusal` when one contains a NUL byte.
    fn c_strings(&self, function: &'static str, items: &[&str], refusal: &str) -> Result<Vec<CString>, CallError> {
        items
            .iter()
            .map(|c| CString::new(*c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| self.refused(function, refusal))
    }

    /// `fmi2SetupExperiment`.
    pub fn setup_experiment(&mut self, tolerance: Option<f64>, start: f64, stop: Option<f64>) -> Result<(), CallError> {
        const F: &str = "fmi2SetupExperiment";
        self.time = start;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `self.c()` is a live instance of this binary.
        let code = unsafe {
            (self.functions.setup_experiment)(
                self.c(),
                tolerance.is_some() as Fmi2Boolean,
                tolerance.unwrap_or(0.0),
                start,
                stop.is_some() as Fmi2Boolean,
                stop.unwrap_or(0.0),
            )
        };
        self.check(F, mark, code)
    }

    fn simple(&mut self, function: &'static str, f: super::ffi::ComponentFn) -> Result<(), CallError> {
        let mark = self.begin(function)?;
        // SAFETY: `f` is one of the FMI 2.0 functions taking only the component; `self.c()` is a
        // live instance of this binary.
        let code = unsafe { f(self.c()) };
        self.check(function, mark, code)
    }

    /// `fmi2EnterInitializationMode`.
    pub fn enter_initialization_mode(&mut self) -> Result<(), CallError> {
        self.simple("fmi2EnterInitializationMode", self.functions.enter_initialization_mode)
    }

    /// `fmi2ExitInitializationMode`.
    pub fn exit_initialization_mode(&mut self) -> Result<(), CallError> {
        self.simple("fmi2ExitInitializationMode", self.functions.exit_initialization_mode)
    }

    /// `fmi2Terminate`.
    pub fn terminate(&mut self) -> Result<(), CallError> {
        self.simple("fmi2Terminate", self.functions.terminate)
    }

    /// `fmi2Reset`.
    pub fn reset(&mut self) -> Result<(), CallError> {
        self.simple("fmi2Reset", self.functions.reset)
    }

    /// `fmi2CancelStep` (only meaningful for FMUs that step asynchronously).
    pub fn cancel_step(&mut self) -> Result<(), CallError> {
        match self.functions.cancel_step {
            Some(f) => self.simple("fmi2CancelStep", f),
            None => Err(self.not_exported("fmi2CancelStep")),
        }
    }

    /// `fmi2SetDebugLogging`; empty `categories` means all.
    pub fn set_debug_logging(&mut self, on: bool, categories: &[&str]) -> Result<(), CallError> {
        const F: &str = "fmi2SetDebugLogging";
        let owned = self.c_strings(F, categories, "a category contains a NUL byte")?;
        let pointers: Vec<Fmi2String> = owned.iter().map(|c| c.as_ptr()).collect();
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `pointers` holds `len` NUL-terminated strings that outlive
        // the call.
        let code = unsafe {
            (self.functions.set_debug_logging)(
                self.c(),
                on as Fmi2Boolean,
                pointers.len(),
                if pointers.is_empty() { std::ptr::null() } else { pointers.as_ptr() },
            )
        };
        self.check(F, mark, code)
    }
}

impl Drop for Slave {
    fn drop(&mut self) {
        if self.shared.only_once {
            *self.shared.only_instance.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
        if self.shared.fatal.load(Ordering::Relaxed) {
            // FMI 2.0: after fmi2Fatal no function may be called, fmi2FreeInstance included;
            // the instance's memory is leaked rather than handed to a corrupted FMU.
            return;
        }
        let _call = process::enter(self.static_name, "fmi2FreeInstance", self.time);
        if let Some(free_state) = self.functions.free_fmu_state {
            for mut ptr in std::mem::take(&mut self.states) {
                // SAFETY: each registered pointer is a live state of this instance, freed once
                // (the registry was taken).
                unsafe { free_state(self.c(), &mut ptr) };
            }
        }
        // SAFETY: the component is live and freed exactly once, here; the logger environment
        // and callbacks it may use are fields dropped only after this returns.
        unsafe { (self.functions.free_instance)(self.c()) };
    }
}
