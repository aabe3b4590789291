//! [`Slave`]: one FMI 2.0 Co-Simulation instance behind a safe API.
//!
//! Every method checks its slice lengths before a pointer reaches the FMU, maps the returned
//! `fmi2Status` to `Result` (`fmi2OK` and `fmi2Warning` are success; the warning's message went to
//! the logger) and, on failure, attaches the most severe message the FMU logged during the call.
//! The stepping path (`set_real`, `get_real`, `do_step`, `get_directional_derivative`) does not
//! allocate unless the FMU logs or fails.

use std::ffi::{CStr, CString, c_char, c_int};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::error::{CallError, CallErrorKind};
use super::ffi::{
    FMI2_FALSE, FMI2_LAST_SUCCESSFUL_TIME, FMI2_TERMINATED, FMI2_TRUE, Fmi2Boolean, Fmi2CallbackFunctions,
    Fmi2Component, Fmi2FmuState, Fmi2Functions, Fmi2Status, Fmi2String, calloc, free, rotorcraft_fmi2_logger,
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

/// Stack buffer size for converting Booleans without allocating.
const BOOL_CHUNK: usize = 64;

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
        CallError {
            instance: self.name.clone(),
            function,
            kind: CallErrorKind::InvalidArgument,
            message: Some(reason.into()),
        }
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

    #[cold]
    fn unsupported(&self, function: &'static str, flag: &str) -> CallError {
        CallError {
            instance: self.name.clone(),
            function,
            kind: CallErrorKind::NotSupported,
            message: Some(format!("the FMU does not provide it ({flag} is not declared)")),
        }
    }

    #[inline]
    fn same_length(&self, function: &'static str, a: (&str, usize), b: (&str, usize)) -> Result<(), CallError> {
        if a.1 == b.1 { Ok(()) } else { Err(self.length_mismatch(function, a, b)) }
    }

    #[cold]
    fn length_mismatch(&self, function: &'static str, a: (&str, usize), b: (&str, usize)) -> CallError {
        self.refused(function, format!("{} {} but {} {}: the lengths must be equal", a.1, a.0, b.1, b.0))
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

    /// `fmi2GetContinuousStates` (a Model Exchange instance). No allocation.
    pub fn get_continuous_states(&mut self, x: &mut [f64]) -> Result<(), CallError> {
        self.real_array("fmi2GetContinuousStates", self.functions.get_continuous_states, x)
    }

    /// `fmi2GetDerivatives` (a Model Exchange instance). No allocation.
    pub fn get_derivatives(&mut self, dx: &mut [f64]) -> Result<(), CallError> {
        self.real_array("fmi2GetDerivatives", self.functions.get_derivatives, dx)
    }

    /// `fmi2SetContinuousStates` (a Model Exchange instance).
    pub fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), CallError> {
        const F: &str = "fmi2SetContinuousStates";
        let Some(f) = self.functions.set_continuous_states else { return Err(self.unsupported(F, "<ModelExchange>")) };
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `x` holds `x.len()` values for the call.
        let code = unsafe { f(self.c(), x.as_ptr(), x.len()) };
        self.check(F, mark, code)
    }

    /// `fmi2SetTime` (a Model Exchange instance).
    pub fn set_time(&mut self, t: f64) -> Result<(), CallError> {
        const F: &str = "fmi2SetTime";
        let Some(f) = self.functions.set_time else { return Err(self.unsupported(F, "<ModelExchange>")) };
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; plain values.
        let code = unsafe { f(self.c(), t) };
        self.time = t;
        self.check(F, mark, code)
    }

    fn real_array(
        &mut self,
        function: &'static str,
        f: Option<super::ffi::GetRealArrayFn>,
        values: &mut [f64],
    ) -> Result<(), CallError> {
        let Some(f) = f else { return Err(self.unsupported(function, "<ModelExchange>")) };
        let mark = self.begin(function)?;
        // SAFETY: FMI 2.0 signature; `values` is writable for `values.len()` elements.
        let code = unsafe { f(self.c(), values.as_mut_ptr(), values.len()) };
        self.check(function, mark, code)
    }

    /// `fmi2CancelStep` (only meaningful for FMUs that step asynchronously).
    pub fn cancel_step(&mut self) -> Result<(), CallError> {
        match self.functions.cancel_step {
            Some(f) => self.simple("fmi2CancelStep", f),
            None => Err(self.unsupported("fmi2CancelStep", "the symbol fmi2CancelStep")),
        }
    }

    /// `fmi2SetDebugLogging`; empty `categories` means all.
    pub fn set_debug_logging(&mut self, on: bool, categories: &[&str]) -> Result<(), CallError> {
        const F: &str = "fmi2SetDebugLogging";
        let owned = categories
            .iter()
            .map(|c| CString::new(*c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| self.refused(F, "a category contains a NUL byte"))?;
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

    /// `fmi2SetReal`. No allocation.
    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Result<(), CallError> {
        const F: &str = "fmi2SetReal";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; both arrays have `vrs.len()` elements (checked above) and
        // live across the call.
        let code = unsafe { (self.functions.set_real)(self.c(), vrs.as_ptr(), vrs.len(), values.as_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2GetReal`. No allocation.
    pub fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> Result<(), CallError> {
        const F: &str = "fmi2GetReal";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `values` is writable for `vrs.len()` elements (checked).
        let code = unsafe { (self.functions.get_real)(self.c(), vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2SetInteger` (also for Enumerations).
    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Result<(), CallError> {
        const F: &str = "fmi2SetInteger";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature (fmi2Integer = int = i32); equal lengths checked.
        let code = unsafe { (self.functions.set_integer)(self.c(), vrs.as_ptr(), vrs.len(), values.as_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2GetInteger` (also for Enumerations).
    pub fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> Result<(), CallError> {
        const F: &str = "fmi2GetInteger";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `values` writable for `vrs.len()` elements (checked).
        let code = unsafe { (self.functions.get_integer)(self.c(), vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2SetBoolean` (converted through a stack buffer, in chunks of 64; no allocation).
    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> Result<(), CallError> {
        const F: &str = "fmi2SetBoolean";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mut buffer = [FMI2_FALSE; BOOL_CHUNK];
        for (vrs, values) in vrs.chunks(BOOL_CHUNK).zip(values.chunks(BOOL_CHUNK)) {
            for (b, &v) in buffer.iter_mut().zip(values) {
                *b = if v { FMI2_TRUE } else { FMI2_FALSE };
            }
            let mark = self.begin(F)?;
            // SAFETY: FMI 2.0 signature; `buffer` holds at least `vrs.len()` converted values.
            let code = unsafe { (self.functions.set_boolean)(self.c(), vrs.as_ptr(), vrs.len(), buffer.as_ptr()) };
            self.check(F, mark, code)?;
        }
        Ok(())
    }

    /// `fmi2GetBoolean` (through a stack buffer, in chunks of 64; no allocation).
    pub fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> Result<(), CallError> {
        const F: &str = "fmi2GetBoolean";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mut buffer = [FMI2_FALSE; BOOL_CHUNK];
        for (vrs, values) in vrs.chunks(BOOL_CHUNK).zip(values.chunks_mut(BOOL_CHUNK)) {
            let mark = self.begin(F)?;
            // SAFETY: FMI 2.0 signature; `buffer` is writable for `vrs.len()` <= 64 elements.
            let code = unsafe { (self.functions.get_boolean)(self.c(), vrs.as_ptr(), vrs.len(), buffer.as_mut_ptr()) };
            self.check(F, mark, code)?;
            for (v, &b) in values.iter_mut().zip(&buffer) {
                *v = b != FMI2_FALSE;
            }
        }
        Ok(())
    }

    /// `fmi2SetString`.
    pub fn set_string(&mut self, vrs: &[u32], values: &[&str]) -> Result<(), CallError> {
        const F: &str = "fmi2SetString";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let owned = values
            .iter()
            .map(|v| CString::new(*v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| self.refused(F, "a value contains a NUL byte"))?;
        let pointers: Vec<Fmi2String> = owned.iter().map(|c| c.as_ptr()).collect();
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `pointers` holds `vrs.len()` NUL-terminated strings (owned
        // by `owned`) that outlive the call.
        let code = unsafe { (self.functions.set_string)(self.c(), vrs.as_ptr(), vrs.len(), pointers.as_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2GetString`; the FMU's strings are copied into `values`.
    pub fn get_string(&mut self, vrs: &[u32], values: &mut [String]) -> Result<(), CallError> {
        const F: &str = "fmi2GetString";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mut pointers: Vec<Fmi2String> = vec![std::ptr::null(); vrs.len()];
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `pointers` is writable for `vrs.len()` elements.
        let code = unsafe { (self.functions.get_string)(self.c(), vrs.as_ptr(), vrs.len(), pointers.as_mut_ptr()) };
        self.check(F, mark, code)?;
        for (value, &p) in values.iter_mut().zip(&pointers) {
            value.clear();
            if !p.is_null() {
                // SAFETY: the FMU returned NUL-terminated strings valid until its next call.
                value.push_str(&unsafe { CStr::from_ptr(p as *const c_char) }.to_string_lossy());
            }
        }
        Ok(())
    }

    /// `fmi2DoStep` from communication point `t` over `h`. `fmi2Discard` is not an error: it is
    /// [`StepResult::Terminated`] when the FMU then reports `fmi2Terminated` (see
    /// [`Slave::terminated`]), else [`StepResult::Discarded`]. No allocation.
    pub fn do_step(&mut self, t: f64, h: f64, no_set_fmu_state_prior: bool) -> Result<StepResult, CallError> {
        const F: &str = "fmi2DoStep";
        self.time = t;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; scalar arguments only.
        let code = unsafe { (self.functions.do_step)(self.c(), t, h, no_set_fmu_state_prior as Fmi2Boolean) };
        if code == Status::Discard as Fmi2Status {
            drop(mark);
            return Ok(if self.terminated() { StepResult::Terminated } else { StepResult::Discarded });
        }
        self.check(F, mark, code)?;
        self.time = t + h;
        Ok(StepResult::Complete)
    }

    /// `fmi2GetDirectionalDerivative`: `dv_unknown = (d unknown / d known) dv_known`. Both
    /// length pairs are checked. No allocation.
    pub fn get_directional_derivative(
        &mut self,
        unknown: &[u32],
        known: &[u32],
        dv_known: &[f64],
        dv_unknown: &mut [f64],
    ) -> Result<(), CallError> {
        const F: &str = "fmi2GetDirectionalDerivative";
        let Some(f) = self.functions.get_directional_derivative else {
            return Err(self.unsupported(F, "providesDirectionalDerivative"));
        };
        self.same_length(F, ("known value references", known.len()), ("seed values", dv_known.len()))?;
        self.same_length(F, ("unknown value references", unknown.len()), ("result values", dv_unknown.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `unknown`/`dv_unknown` have `unknown.len()` elements and
        // `known`/`dv_known` have `known.len()` (both checked above).
        let code = unsafe {
            f(
                self.c(),
                unknown.as_ptr(),
                unknown.len(),
                known.as_ptr(),
                known.len(),
                dv_known.as_ptr(),
                dv_unknown.as_mut_ptr(),
            )
        };
        self.check(F, mark, code)
    }

    /// `fmi2SetRealInputDerivatives` (`canInterpolateInputs`).
    pub fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), CallError> {
        const F: &str = "fmi2SetRealInputDerivatives";
        let Some(f) = self.functions.set_real_input_derivatives else {
            return Err(self.unsupported(F, "canInterpolateInputs"));
        };
        self.same_length(F, ("value references", vrs.len()), ("orders", orders.len()))?;
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; the three arrays have `vrs.len()` elements (checked).
        let code = unsafe { f(self.c(), vrs.as_ptr(), vrs.len(), orders.as_ptr(), values.as_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2GetRealOutputDerivatives` (`maxOutputDerivativeOrder` >= 1).
    pub fn get_real_output_derivatives(
        &mut self,
        vrs: &[u32],
        orders: &[i32],
        values: &mut [f64],
    ) -> Result<(), CallError> {
        const F: &str = "fmi2GetRealOutputDerivatives";
        let Some(f) = self.functions.get_real_output_derivatives else {
            return Err(self.unsupported(F, "maxOutputDerivativeOrder >= 1"));
        };
        self.same_length(F, ("value references", vrs.len()), ("orders", orders.len()))?;
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; the three arrays have `vrs.len()` elements (checked).
        let code = unsafe { f(self.c(), vrs.as_ptr(), vrs.len(), orders.as_ptr(), values.as_mut_ptr()) };
        self.check(F, mark, code)
    }

    /// The pointer of `state`; refuses a state made by another instance.
    fn own(&self, function: &'static str, state: &FmuState) -> Result<Fmi2FmuState, CallError> {
        match state.handle {
            StateHandle::Local(ptr) if state.owner == self.id => Ok(ptr),
            _ => Err(self.refused(function, "this FMU state belongs to another instance")),
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

    /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`: the time up to which a discarded step
    /// succeeded.
    pub fn last_successful_time(&mut self) -> Result<f64, CallError> {
        const F: &str = "fmi2GetRealStatus";
        let Some(f) = self.functions.get_real_status else {
            return Err(self.unsupported(F, "the symbol fmi2GetRealStatus"));
        };
        let mut value = f64::NAN;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `value` is a writable fmi2Real.
        let code = unsafe { f(self.c(), FMI2_LAST_SUCCESSFUL_TIME, &mut value) };
        self.check(F, mark, code)?;
        Ok(value)
    }

    /// `fmi2GetBooleanStatus(fmi2Terminated)`: whether the FMU wants the simulation to end (asked
    /// after a discarded step). A binary without the function, a call that does not return
    /// `fmi2OK`/`fmi2Warning`, or an instance poisoned by `fmi2Fatal` count as "not terminated".
    pub fn terminated(&mut self) -> bool {
        const F: &str = "fmi2GetBooleanStatus";
        let Some(f) = self.functions.get_boolean_status else {
            return false;
        };
        let Ok(mark) = self.begin(F) else {
            return false;
        };
        let mut value: Fmi2Boolean = FMI2_FALSE;
        // SAFETY: FMI 2.0 signature; `value` is a writable fmi2Boolean.
        let code = unsafe { f(self.c(), FMI2_TERMINATED, &mut value) };
        self.check(F, mark, code).is_ok() && value != FMI2_FALSE
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
