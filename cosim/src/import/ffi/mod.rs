//! The FMI 2.0 C boundary of the importer: C types, loading the binary of an FMU with
//! `libloading` and resolving its functions into [`Fmi2Functions`].
//!
//! Libraries are opened with `RTLD_NOW | RTLD_LOCAL`: every symbol is bound at load time, so a
//! binary that needs something the process lacks fails here with the loader's message instead of
//! aborting the process at its first call, and two FMUs exporting the same `fmi2*` names never see
//! each other's symbols.
//!
//! **FMUs built with PythonFMU** embed CPython but, on Linux, are deliberately not linked against
//! `libpython`: they expect the host process to provide the `Py*` symbols (FMPy, a Python
//! process, does). Before loading such a binary the importer therefore loads a CPython shared
//! library with `RTLD_GLOBAL` (see [`ensure_python_runtime`]), and keeps PythonFMU binaries
//! resident (`RTLD_NODELETE`) because unloading one finalizes the interpreter that every other
//! PythonFMU FMU in the process shares. That runtime is found and loaded by `python.rs`.

mod python;

pub use python::{PythonRuntimeError, ensure_python_runtime};

use std::ffi::{CStr, c_int, c_void};
use std::path::Path;

use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};

use super::model_description::CoSimulation;

/// `RTLD_NODELETE` (glibc and musl): keep the library mapped after `dlclose`.
const RTLD_NODELETE: c_int = 0x1000;

// The C types and constants are defined once, in `fmi2-types`, for the export side too; here under
// the importer's `Fmi2*` names.
pub use fmi2_types::{
    Boolean as Fmi2Boolean, Byte as Fmi2Byte, CO_SIMULATION as FMI2_COSIMULATION,
    CallbackFunctions as Fmi2CallbackFunctions, CallbackLogger as Fmi2CallbackLogger, Component as Fmi2Component,
    ComponentEnvironment as Fmi2ComponentEnvironment, FALSE as FMI2_FALSE, FmiString as Fmi2String,
    FmuState as Fmi2FmuState, Integer as Fmi2Integer, LAST_SUCCESSFUL_TIME as FMI2_LAST_SUCCESSFUL_TIME,
    MODEL_EXCHANGE as FMI2_MODEL_EXCHANGE, Real as Fmi2Real, StatusCode as Fmi2Status, StatusKind as Fmi2StatusKind,
    TERMINATED as FMI2_TERMINATED, TRUE as FMI2_TRUE, Type as Fmi2Type, ValueReference as Fmi2ValueReference,
};

unsafe extern "C" {
    /// The C shim in `logger.c`: formats the message and forwards it to the Rust sink whose
    /// pointer is the first field of the struct behind `env`.
    pub(crate) fn rotorcraft_fmi2_logger(
        env: Fmi2ComponentEnvironment,
        instance: Fmi2String,
        status: Fmi2Status,
        category: Fmi2String,
        message: Fmi2String,
        ...
    );
    /// The C library's `calloc`, for `allocateMemory`.
    pub(crate) fn calloc(count: usize, size: usize) -> *mut c_void;
    /// The C library's `free`, for `freeMemory`.
    pub(crate) fn free(ptr: *mut c_void);
}

// The function types are the standard's (`fmi2FunctionTypes.h`), defined once in `fmi2-types`,
// where fmu-core's export macros check the exported functions against them too.
pub use fmi2_types::functions::*;

/// The shape of the functions that take only the component (`fmi2EnterInitializationMode`,
/// `fmi2Terminate`, `fmi2Reset`, `fmi2CancelStep`, ...).
pub type ComponentFn = fmi2TerminateTYPE;
/// `fmi2Get<Type>` for values of the C type `T` (`GetFn<Fmi2Real>` is [`fmi2GetRealTYPE`], ...).
pub type GetFn<T> = unsafe extern "C" fn(Fmi2Component, *const Fmi2ValueReference, usize, *mut T) -> Fmi2Status;
/// `fmi2Set<Type>` for values of the C type `T` (`SetFn<Fmi2Real>` is [`fmi2SetRealTYPE`], ...).
pub type SetFn<T> = unsafe extern "C" fn(Fmi2Component, *const Fmi2ValueReference, usize, *const T) -> Fmi2Status;
/// The shape of `fmi2GetContinuousStates` and `fmi2GetDerivatives` (Model Exchange).
pub type GetRealArrayFn = fmi2GetDerivativesTYPE;

/// The FMI 2.0 Co-Simulation functions of one loaded binary.
///
/// The required functions are plain pointers; the optional ones are `Some` exactly when the
/// model description declares the capability (and then the binary must export them), so an FMU
/// is never called through a function it says it does not support.
///
/// The pointers are valid only while the [`super::Fmu`] (or one of its
/// [`super::Slave`]s) that produced this table is alive.
#[derive(Clone, Copy)]
pub struct Fmi2Functions {
    /// `fmi2GetTypesPlatform`
    pub get_types_platform: fmi2GetTypesPlatformTYPE,
    /// `fmi2GetVersion`
    pub get_version: fmi2GetVersionTYPE,
    /// `fmi2SetDebugLogging`
    pub set_debug_logging: fmi2SetDebugLoggingTYPE,
    /// `fmi2Instantiate`
    pub instantiate: fmi2InstantiateTYPE,
    /// `fmi2FreeInstance`
    pub free_instance: fmi2FreeInstanceTYPE,
    /// `fmi2SetupExperiment`
    pub setup_experiment: fmi2SetupExperimentTYPE,
    /// `fmi2EnterInitializationMode`
    pub enter_initialization_mode: fmi2EnterInitializationModeTYPE,
    /// `fmi2ExitInitializationMode`
    pub exit_initialization_mode: fmi2ExitInitializationModeTYPE,
    /// `fmi2Terminate`
    pub terminate: fmi2TerminateTYPE,
    /// `fmi2Reset`
    pub reset: fmi2ResetTYPE,
    /// `fmi2GetReal`
    pub get_real: fmi2GetRealTYPE,
    /// `fmi2GetInteger`
    pub get_integer: fmi2GetIntegerTYPE,
    /// `fmi2GetBoolean`
    pub get_boolean: fmi2GetBooleanTYPE,
    /// `fmi2GetString`
    pub get_string: fmi2GetStringTYPE,
    /// `fmi2SetReal`
    pub set_real: fmi2SetRealTYPE,
    /// `fmi2SetInteger`
    pub set_integer: fmi2SetIntegerTYPE,
    /// `fmi2SetBoolean`
    pub set_boolean: fmi2SetBooleanTYPE,
    /// `fmi2SetString`
    pub set_string: fmi2SetStringTYPE,
    /// `fmi2DoStep`
    pub do_step: fmi2DoStepTYPE,
    /// `fmi2GetFMUstate` (`canGetAndSetFMUstate`)
    pub get_fmu_state: Option<fmi2GetFMUstateTYPE>,
    /// `fmi2SetFMUstate` (`canGetAndSetFMUstate`)
    pub set_fmu_state: Option<fmi2SetFMUstateTYPE>,
    /// `fmi2FreeFMUstate` (`canGetAndSetFMUstate`)
    pub free_fmu_state: Option<fmi2FreeFMUstateTYPE>,
    /// `fmi2SerializedFMUstateSize` (`canSerializeFMUstate`)
    pub serialized_fmu_state_size: Option<fmi2SerializedFMUstateSizeTYPE>,
    /// `fmi2SerializeFMUstate` (`canSerializeFMUstate`)
    pub serialize_fmu_state: Option<fmi2SerializeFMUstateTYPE>,
    /// `fmi2DeSerializeFMUstate` (`canSerializeFMUstate`)
    pub deserialize_fmu_state: Option<fmi2DeSerializeFMUstateTYPE>,
    /// `fmi2GetDirectionalDerivative` (`providesDirectionalDerivative`)
    pub get_directional_derivative: Option<fmi2GetDirectionalDerivativeTYPE>,
    /// `fmi2SetRealInputDerivatives` (`canInterpolateInputs`)
    pub set_real_input_derivatives: Option<fmi2SetRealInputDerivativesTYPE>,
    /// `fmi2GetRealOutputDerivatives` (`maxOutputDerivativeOrder` >= 1)
    pub get_real_output_derivatives: Option<fmi2GetRealOutputDerivativesTYPE>,
    /// `fmi2CancelStep` (if exported; only meaningful for asynchronous steps)
    pub cancel_step: Option<fmi2CancelStepTYPE>,
    /// `fmi2GetRealStatus` (if exported; used for `fmi2LastSuccessfulTime`)
    pub get_real_status: Option<fmi2GetRealStatusTYPE>,
    /// `fmi2GetBooleanStatus` (if exported; used for `fmi2Terminated` after a discarded step)
    pub get_boolean_status: Option<fmi2GetBooleanStatusTYPE>,
    /// `fmi2GetContinuousStates` (if exported: Model Exchange from the same binary)
    pub get_continuous_states: Option<fmi2GetContinuousStatesTYPE>,
    /// `fmi2GetDerivatives` (if exported: Model Exchange from the same binary)
    pub get_derivatives: Option<fmi2GetDerivativesTYPE>,
    /// `fmi2SetContinuousStates` (if exported: Model Exchange from the same binary)
    pub set_continuous_states: Option<fmi2SetContinuousStatesTYPE>,
    /// `fmi2SetTime` (if exported: Model Exchange from the same binary)
    pub set_time: Option<fmi2SetTimeTYPE>,
}

/// Why a binary could not be loaded or resolved (turned into an `ImportError` by the caller,
/// which knows the archive).
#[derive(Debug)]
pub(crate) enum LoadError {
    /// `dlopen` failed.
    Open(String),
    /// A required symbol is missing.
    Symbol(&'static str),
    /// A symbol required by a declared capability is missing.
    Capability { symbol: &'static str, flag: &'static str },
    /// PythonFMU binary, but no usable Python shared library.
    Python(String),
    /// `fmi2GetVersion`/`fmi2GetTypesPlatform` disagree with FMI 2.0.
    Mismatch { function: &'static str, reported: String, expected: &'static str },
}

/// A loaded FMU binary and its function table.
pub(crate) struct Binary {
    /// Keeps the code mapped; dropped (dlclose) after every instance is freed.
    _library: Library,
    /// The resolved functions.
    pub(crate) functions: Fmi2Functions,
    /// Loaded as a PythonFMU binary (CPython provided, kept resident).
    pub(crate) python: bool,
}

impl Binary {
    /// Loads `path` and resolves the FMI 2.0 CS functions according to `capabilities`.
    /// `python` selects the PythonFMU treatment (libpython preloaded, binary kept resident).
    pub(crate) fn load(path: &Path, capabilities: &CoSimulation, python: bool) -> Result<Binary, LoadError> {
        if python {
            ensure_python_runtime().map_err(|e| LoadError::Python(e.to_string()))?;
        }
        let flags = RTLD_NOW | RTLD_LOCAL | if python { RTLD_NODELETE } else { 0 };
        // SAFETY: loading runs the library's initialisers. This is what importing an FMU means:
        // the importer trusts the FMU's code as much as any FMI importer does (the archive was
        // extracted safely; its code is not sandboxed). RTLD_LOCAL keeps its symbols private.
        let library = match unsafe { Library::open(Some(path), flags) } {
            Ok(library) => library,
            Err(e) => {
                let message = error_chain(&e);
                // A PythonFMU binary not recognised from its generationTool: retry once with
                // the Python runtime in place.
                if !python && looks_like_missing_python(&message) {
                    ensure_python_runtime().map_err(|p| LoadError::Open(format!("{message}; {p}")))?;
                    return Binary::load(path, capabilities, true);
                }
                return Err(LoadError::Open(message));
            }
        };
        let functions = resolve(&library, capabilities)?;
        check_text(functions.get_version, "fmi2GetVersion", "2.0")?;
        check_text(functions.get_types_platform, "fmi2GetTypesPlatform", "default")?;
        Ok(Binary { _library: library, functions, python })
    }
}

/// An error with its sources (libloading puts the loader's text in the source).
pub(super) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Whether a `dlopen` error is the signature of a PythonFMU binary without libpython.
fn looks_like_missing_python(message: &str) -> bool {
    message.contains("undefined symbol: Py") || message.contains("undefined symbol: _Py")
}

/// Calls a function returning a C string and compares the text.
fn check_text(f: fmi2GetVersionTYPE, function: &'static str, expected: &'static str) -> Result<(), LoadError> {
    // SAFETY: `f` was resolved from the loaded library with the FMI 2.0 signature
    // `const char* f(void)`; it takes no arguments and may be called at any time.
    let ptr = unsafe { f() };
    let reported = if ptr.is_null() {
        "(null)".to_string()
    } else {
        // SAFETY: non-null; FMI 2.0 returns a static NUL-terminated string.
        unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
    };
    if reported == expected { Ok(()) } else { Err(LoadError::Mismatch { function, reported, expected }) }
}

/// Looks up `name` and copies the function pointer out.
///
/// # Safety
/// `T` must be the `unsafe extern "C" fn` type of the C function `name` per FMI 2.0.
unsafe fn symbol<T: Copy>(library: &Library, name: &'static str) -> Option<T> {
    // SAFETY: the caller guarantees `T` is the symbol's true type; the pointer is copied out and
    // used only while `library` is alive (`Binary` owns both).
    unsafe { library.get::<T>(name).ok().map(|s| *s) }
}

/// Resolves the table: required functions must exist; optional ones are resolved (and then
/// required) when their capability flag is set.
fn resolve(library: &Library, cs: &CoSimulation) -> Result<Fmi2Functions, LoadError> {
    macro_rules! required {
        ($name:literal) => {
            // SAFETY: the field's type is the FMI 2.0 signature of `$name`.
            unsafe { symbol(library, $name) }.ok_or(LoadError::Symbol($name))?
        };
    }
    // A capability: its flag's name when the model description sets it.
    let state = (cs.can_get_and_set_fmu_state == Some(true)).then_some("canGetAndSetFMUstate");
    let serialize = (cs.can_serialize_fmu_state == Some(true)).then_some("canSerializeFMUstate");
    let directional = (cs.provides_directional_derivative == Some(true)).then_some("providesDirectionalDerivative");
    let interpolate = (cs.can_interpolate_inputs == Some(true)).then_some("canInterpolateInputs");
    let output_derivatives = (cs.max_output_derivative_order.unwrap_or(0) >= 1).then_some("maxOutputDerivativeOrder");
    macro_rules! capability {
        ($flag:expr, $name:literal) => {
            match $flag {
                Some(flag) => {
                    // SAFETY: the field's type is the FMI 2.0 signature of `$name`.
                    let f = unsafe { symbol(library, $name) };
                    Some(f.ok_or(LoadError::Capability { symbol: $name, flag })?)
                }
                None => None,
            }
        };
    }
    macro_rules! optional {
        ($name:literal) => {
            // SAFETY: the field's type is the FMI 2.0 signature of `$name`.
            unsafe { symbol(library, $name) }
        };
    }
    Ok(Fmi2Functions {
        get_types_platform: required!("fmi2GetTypesPlatform"),
        get_version: required!("fmi2GetVersion"),
        set_debug_logging: required!("fmi2SetDebugLogging"),
        instantiate: required!("fmi2Instantiate"),
        free_instance: required!("fmi2FreeInstance"),
        setup_experiment: required!("fmi2SetupExperiment"),
        enter_initialization_mode: required!("fmi2EnterInitializationMode"),
        exit_initialization_mode: required!("fmi2ExitInitializationMode"),
        terminate: required!("fmi2Terminate"),
        reset: required!("fmi2Reset"),
        get_real: required!("fmi2GetReal"),
        get_integer: required!("fmi2GetInteger"),
        get_boolean: required!("fmi2GetBoolean"),
        get_string: required!("fmi2GetString"),
        set_real: required!("fmi2SetReal"),
        set_integer: required!("fmi2SetInteger"),
        set_boolean: required!("fmi2SetBoolean"),
        set_string: required!("fmi2SetString"),
        do_step: required!("fmi2DoStep"),
        get_fmu_state: capability!(state, "fmi2GetFMUstate"),
        set_fmu_state: capability!(state, "fmi2SetFMUstate"),
        free_fmu_state: capability!(state, "fmi2FreeFMUstate"),
        serialized_fmu_state_size: capability!(serialize, "fmi2SerializedFMUstateSize"),
        serialize_fmu_state: capability!(serialize, "fmi2SerializeFMUstate"),
        deserialize_fmu_state: capability!(serialize, "fmi2DeSerializeFMUstate"),
        get_directional_derivative: capability!(directional, "fmi2GetDirectionalDerivative"),
        set_real_input_derivatives: capability!(interpolate, "fmi2SetRealInputDerivatives"),
        get_real_output_derivatives: capability!(output_derivatives, "fmi2GetRealOutputDerivatives"),
        cancel_step: optional!("fmi2CancelStep"),
        get_real_status: optional!("fmi2GetRealStatus"),
        get_boolean_status: optional!("fmi2GetBooleanStatus"),
        get_continuous_states: optional!("fmi2GetContinuousStates"),
        get_derivatives: optional!("fmi2GetDerivatives"),
        set_continuous_states: optional!("fmi2SetContinuousStates"),
        set_time: optional!("fmi2SetTime"),
    })
}
