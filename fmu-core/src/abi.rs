//! The FMI 2.0 C ABI, Co-Simulation and Model Exchange. Every `unsafe` block of the export side
//! is in this file.
//!
//! Each function checks its pointers and lengths, converts them to slices and calls the safe
//! [`CoSimulation`] method of the same name inside `catch_unwind`, so a panic in a model becomes
//! `fmi2Error` with a log message instead of aborting the host. [`crate::export_fmu!`] emits the
//! `#[no_mangle]` symbols that forward here.

use std::ffi::{CStr, CString, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::slave::{CoSimulation, InstantiateArgs};
use crate::status::{FmiError, FmiResult, Status};

/// `fmi2FMUstate`
pub use fmi2_types::FmuState as FmuStatePtr;
pub use fmi2_types::{Boolean, CallbackFunctions, CallbackLogger, Component, EventInfo, StatusCode, ValueReference};

const FMI2_COSIMULATION: c_int = fmi2_types::CO_SIMULATION;
const FMI2_MODEL_EXCHANGE: c_int = fmi2_types::MODEL_EXCHANGE;
const STATUS_LAST_SUCCESSFUL_TIME: c_int = fmi2_types::LAST_SUCCESSFUL_TIME;
const STATUS_TERMINATED: c_int = fmi2_types::TERMINATED;

/// Text for `fmi2GetTypesPlatform`.
pub const TYPES_PLATFORM: &CStr = c"default";
/// Text for `fmi2GetVersion`.
pub const VERSION: &CStr = c"2.0";

/// A C string with `%` escaped (the logger treats the message as a printf format) and
/// interior NULs removed.
fn c_message(text: &str) -> CString {
    let escaped = text.replace('%', "%%").replace('\0', "");
    CString::new(escaped).expect("NULs removed above")
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Forwards messages to the importer's logger callback.
fn c_logger(callbacks: CallbackFunctions, instance_name: &str) -> crate::instance::Logger {
    let name = c_message(instance_name);
    Box::new(move |status: Status, category: &str, message: &str| {
        let Some(log) = callbacks.logger else { return };
        let category = c_message(category);
        let message = c_message(message);
        // SAFETY: `log` is the importer's fmi2CallbackLogger, valid for the instance's lifetime
        // (FMI 2.0 section 2.1.5); all string arguments are NUL-terminated and outlive the call;
        // `%` is escaped so no variadic argument is read.
        unsafe {
            log(
                callbacks.component_environment,
                name.as_ptr(),
                status as StatusCode,
                category.as_ptr(),
                message.as_ptr(),
            )
        };
    })
}

/// Runs `f` on the instance behind `c`, catching panics and mapping the result to a status.
///
/// # Safety
/// `c` must be null or a pointer returned by [`instantiate`] for the same model `M` and not yet
/// freed.
unsafe fn with_instance<S: CoSimulation>(
    c: Component,
    function: &'static str,
    f: impl FnOnce(&mut S) -> FmiResult<()>,
) -> StatusCode {
    if c.is_null() {
        eprintln!("{function}: called with a null fmi2Component");
        return Status::Error as StatusCode;
    }
    // SAFETY: per this function's contract `c` came from `Box::into_raw` in `instantiate` and is
    // live; the importer does not call into one instance from two threads at once (FMI 2.0
    // section 2.1.1), so this is the only reference.
    let instance = unsafe { &mut *(c as *mut S) };
    match catch_unwind(AssertUnwindSafe(|| f(instance))) {
        Ok(Ok(())) => Status::Ok as StatusCode,
        Ok(Err(e)) => e.status as StatusCode,
        Err(payload) => {
            let e = FmiError {
                status: Status::Error,
                function,
                message: format!("internal error (panic): {}", panic_text(payload.as_ref())),
            };
            instance.fail(&e);
            Status::Error as StatusCode
        }
    }
}

/// Builds a slice from a C array, refusing null with a non-zero length.
///
/// # Safety
/// If non-null, `ptr` must point to `n` initialised elements valid for the call.
unsafe fn slice<'a, T>(function: &'static str, what: &str, ptr: *const T, n: usize) -> FmiResult<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(FmiError { status: Status::Error, function, message: format!("{what} is a null pointer") });
    }
    // SAFETY: non-null and, by the caller's contract, `n` valid elements.
    Ok(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// Mutable variant of [`slice()`].
///
/// # Safety
/// If non-null, `ptr` must point to `n` writable elements valid for the call, not aliased.
unsafe fn slice_mut<'a, T>(function: &'static str, what: &str, ptr: *mut T, n: usize) -> FmiResult<&'a mut [T]> {
    if n == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(FmiError { status: Status::Error, function, message: format!("{what} is a null pointer") });
    }
    // SAFETY: non-null and, by the caller's contract, `n` writable unaliased elements.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

/// Logs and returns an argument error found before the instance method runs.
fn reject<S: CoSimulation>(instance: &mut S, e: FmiError) -> FmiResult<()> {
    instance.fail(&e);
    Err(e)
}

/// Turns a C string into `&str`, `None` for null.
///
/// # Safety
/// If non-null, `s` must be NUL-terminated and valid for the call.
unsafe fn c_str<'a>(s: *const c_char) -> Option<std::borrow::Cow<'a, str>> {
    if s.is_null() {
        None
    } else {
        // SAFETY: non-null and NUL-terminated by the caller's contract.
        Some(unsafe { CStr::from_ptr(s) }.to_string_lossy())
    }
}

/// `fmi2Instantiate`.
///
/// # Safety
/// String arguments must be null or NUL-terminated; `functions` null or a valid
/// `fmi2CallbackFunctions`.
pub unsafe fn instantiate<S: CoSimulation>(
    instance_name: *const c_char,
    fmu_type: c_int,
    guid: *const c_char,
    resource_location: *const c_char,
    functions: *const CallbackFunctions,
    _visible: Boolean,
    logging_on: Boolean,
) -> Component {
    let result = catch_unwind(|| {
        if functions.is_null() {
            eprintln!("fmi2Instantiate: callback functions pointer is null");
            return std::ptr::null_mut();
        }
        // SAFETY: non-null, points to the importer's struct; copied so it need not outlive us.
        let callbacks = unsafe { *functions };
        // SAFETY: null or NUL-terminated by contract.
        let name = unsafe { c_str(instance_name) }.map(|s| s.into_owned());
        let fail = |message: String| {
            c_logger(callbacks, name.as_deref().unwrap_or("?"))(
                Status::Error,
                "logStatusError",
                &format!("fmi2Instantiate: {message}"),
            );
            std::ptr::null_mut()
        };
        let Some(instance_name) = name.as_deref() else { return fail("instance name is null".into()) };
        if fmu_type != FMI2_COSIMULATION && fmu_type != FMI2_MODEL_EXCHANGE {
            return fail(format!("fmuType {fmu_type} is neither fmi2ModelExchange (0) nor fmi2CoSimulation (1)"));
        }
        // SAFETY: null or NUL-terminated by contract.
        let Some(guid) = (unsafe { c_str(guid) }) else { return fail("GUID is null".into()) };
        // SAFETY: null or NUL-terminated by contract.
        let resource_location = unsafe { c_str(resource_location) };
        let args = InstantiateArgs {
            instance_name,
            guid: &guid,
            resource_location: resource_location.as_deref(),
            model_exchange: fmu_type == FMI2_MODEL_EXCHANGE,
        };
        let mut instance = match S::instantiate(args, c_logger(callbacks, instance_name)) {
            Ok(instance) => instance,
            Err(m) => return fail(m),
        };
        if logging_on != 0 {
            let _ = instance.set_debug_logging(true, &[]);
        }
        Box::into_raw(Box::new(instance)) as Component
    });
    result.unwrap_or_else(|payload| {
        eprintln!("fmi2Instantiate: internal error (panic): {}", panic_text(payload.as_ref()));
        std::ptr::null_mut()
    })
}

/// `fmi2FreeInstance`.
///
/// # Safety
/// `c` must be null or a live pointer from [`instantiate`] of model `M`; it is invalid after.
pub unsafe fn free_instance<S: CoSimulation>(c: Component) {
    if c.is_null() {
        return;
    }
    // SAFETY: from `Box::into_raw` in `instantiate`, freed exactly once per the FMI contract.
    let boxed = unsafe { Box::from_raw(c as *mut S) };
    let _ = catch_unwind(AssertUnwindSafe(move || drop(boxed)));
}

/// `fmi2SetDebugLogging`.
///
/// # Safety
/// See `with_instance`; `categories` null or `n` valid C strings.
pub unsafe fn set_debug_logging<S: CoSimulation>(
    c: Component,
    logging_on: Boolean,
    n: usize,
    categories: *const *const c_char,
) -> StatusCode {
    const F: &str = "fmi2SetDebugLogging";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            let ptrs = match slice(F, "categories", categories, n) {
                Ok(p) => p,
                Err(e) => return reject(me, e),
            };
            let mut names = Vec::with_capacity(n);
            for &p in ptrs {
                match c_str(p) {
                    Some(s) => names.push(s.into_owned()),
                    None => {
                        return reject(
                            me,
                            FmiError { status: Status::Error, function: F, message: "a category is null".into() },
                        );
                    }
                }
            }
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            me.set_debug_logging(logging_on != 0, &refs)
        })
    }
}

/// `fmi2SetupExperiment`.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn setup_experiment<S: CoSimulation>(
    c: Component,
    _tolerance_defined: Boolean,
    _tolerance: f64,
    start_time: f64,
    stop_time_defined: Boolean,
    stop_time: f64,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, "fmi2SetupExperiment", |me| {
            me.setup_experiment(start_time, (stop_time_defined != 0).then_some(stop_time))
        })
    }
}

/// Functions that take only the component.
macro_rules! simple {
    ($(#[$doc:meta] $name:ident => $fmi:literal, $method:ident;)*) => {$(
        #[$doc]
        ///
        /// # Safety
        /// See `with_instance`.
        pub unsafe fn $name<S: CoSimulation>(c: Component) -> StatusCode {
            // SAFETY: forwarded contract.
            unsafe { with_instance::<S>(c, $fmi, |me| me.$method()) }
        }
    )*};
}

simple! {
    /// `fmi2EnterInitializationMode`.
    enter_initialization_mode => "fmi2EnterInitializationMode", enter_initialization_mode;
    /// `fmi2ExitInitializationMode`.
    exit_initialization_mode => "fmi2ExitInitializationMode", exit_initialization_mode;
    /// `fmi2Terminate`.
    terminate => "fmi2Terminate", terminate;
    /// `fmi2CancelStep`.
    cancel_step => "fmi2CancelStep", cancel_step;
}

/// `fmi2Reset`.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn reset<S: CoSimulation>(c: Component) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, "fmi2Reset", |me| me.reset()) }
}

/// Setters and getters over value-reference arrays.
macro_rules! accessors {
    ($($(#[$doc:meta])* $name:ident => $fmi:literal, $c:ty, $rust:ty, $conv:expr, setter $method:ident;)*) => {$(
        $(#[$doc])*
        ///
        /// # Safety
        /// See `with_instance`; `vr` and `value` null or `n` valid elements.
        pub unsafe fn $name<S: CoSimulation>(c: Component, vr: *const ValueReference, n: usize, value: *const $c) -> StatusCode {
            const F: &str = $fmi;
            // SAFETY: forwarded contract.
            unsafe {
                with_instance::<S>(c, F, |me| {
                    let (vrs, values) = match (slice(F, "value reference array", vr, n), slice(F, "value array", value, n)) {
                        (Ok(a), Ok(b)) => (a, b),
                        (Err(e), _) | (_, Err(e)) => return reject(me, e),
                    };
                    let converted: Vec<$rust> = values.iter().map($conv).collect();
                    me.$method(vrs, &converted)
                })
            }
        }
    )*};
}

accessors! {
    /// `fmi2SetInteger`.
    set_integer => "fmi2SetInteger", c_int, i32, |v: &c_int| *v, setter set_integer;
    /// `fmi2SetBoolean`.
    set_boolean => "fmi2SetBoolean", Boolean, bool, |v: &Boolean| *v != 0, setter set_boolean;
}

/// `fmi2SetReal`: the values go to the instance as they are, not copied.
///
/// # Safety
/// See `with_instance`; `vr` and `value` null or `n` valid elements.
pub unsafe fn set_real<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    value: *const f64,
) -> StatusCode {
    const F: &str = "fmi2SetReal";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            match (slice(F, "value reference array", vr, n), slice(F, "value array", value, n)) {
                (Ok(vrs), Ok(values)) => me.set_real(vrs, values),
                (Err(e), _) | (_, Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2GetReal`.
///
/// # Safety
/// See `with_instance`; `vr` null or `n` valid elements, `value` null or `n` writable.
pub unsafe fn get_real<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    value: *mut f64,
) -> StatusCode {
    const F: &str = "fmi2GetReal";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            match (slice(F, "value reference array", vr, n), slice_mut(F, "value array", value, n)) {
                (Ok(vrs), Ok(values)) => me.get_real(vrs, values),
                (Err(e), _) | (_, Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2GetInteger`.
///
/// # Safety
/// As [`get_real`].
pub unsafe fn get_integer<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    value: *mut c_int,
) -> StatusCode {
    const F: &str = "fmi2GetInteger";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            match (slice(F, "value reference array", vr, n), slice_mut(F, "value array", value, n)) {
                (Ok(vrs), Ok(values)) => me.get_integer(vrs, values),
                (Err(e), _) | (_, Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2GetBoolean`.
///
/// # Safety
/// As [`get_real`].
pub unsafe fn get_boolean<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    value: *mut Boolean,
) -> StatusCode {
    const F: &str = "fmi2GetBoolean";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            match (slice(F, "value reference array", vr, n), slice_mut(F, "value array", value, n)) {
                (Ok(vrs), Ok(values)) => {
                    let mut flags = vec![false; n];
                    me.get_boolean(vrs, &mut flags)?;
                    for (out, f) in values.iter_mut().zip(flags) {
                        *out = Boolean::from(f);
                    }
                    Ok(())
                }
                (Err(e), _) | (_, Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2GetString`: no string variables, so only `n == 0` succeeds.
///
/// # Safety
/// As [`get_real`].
pub unsafe fn get_string<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    _value: *mut *const c_char,
) -> StatusCode {
    const F: &str = "fmi2GetString";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| match slice(F, "value reference array", vr, n) {
            Ok(vrs) => me.get_string(vrs),
            Err(e) => reject(me, e),
        })
    }
}

/// `fmi2SetString`: no string variables, so only `n == 0` succeeds.
///
/// # Safety
/// As [`get_real`].
pub unsafe fn set_string<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    _value: *const *const c_char,
) -> StatusCode {
    const F: &str = "fmi2SetString";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| match slice(F, "value reference array", vr, n) {
            Ok(vrs) => me.set_string(vrs),
            Err(e) => reject(me, e),
        })
    }
}

fn null_argument(function: &'static str, what: &str) -> FmiError {
    FmiError { status: Status::Error, function, message: format!("{what} is a null pointer") }
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
            if state.is_null() {
                return reject(me, null_argument(F, "FMUstate"));
            }
            // SAFETY: non-null state allocated by us for this model.
            me.set_fmu_state(&*(state as *const S::State))
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
            if state.is_null() {
                return reject(me, null_argument(F, "FMUstate"));
            }
            let data = me.serialize_fmu_state(&*(state as *const S::State))?;
            if data.len() > size {
                let message = format!("buffer of {size} bytes is smaller than the state ({} bytes)", data.len());
                return reject(me, FmiError { status: Status::Error, function: F, message });
            }
            let out = match slice_mut(F, "byte buffer", bytes as *mut u8, data.len()) {
                Ok(out) => out,
                Err(e) => return reject(me, e),
            };
            out.copy_from_slice(&data);
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
            let data = match slice(F, "byte buffer", bytes as *const u8, size) {
                Ok(d) => d,
                Err(e) => return reject(me, e),
            };
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

/// `fmi2GetDirectionalDerivative`.
///
/// # Safety
/// See `with_instance`; arrays null or of the given lengths.
pub unsafe fn get_directional_derivative<S: CoSimulation>(
    c: Component,
    unknown: *const ValueReference,
    n_unknown: usize,
    known: *const ValueReference,
    n_known: usize,
    dv_known: *const f64,
    dv_unknown: *mut f64,
) -> StatusCode {
    const F: &str = "fmi2GetDirectionalDerivative";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            let args = (
                slice(F, "unknown value references", unknown, n_unknown),
                slice(F, "known value references", known, n_known),
                slice(F, "dvKnown", dv_known, n_known),
                slice_mut(F, "dvUnknown", dv_unknown, n_unknown),
            );
            match args {
                (Ok(u), Ok(k), Ok(dk), Ok(du)) => me.get_directional_derivative(u, k, dk, du),
                (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2SetRealInputDerivatives`.
///
/// # Safety
/// See `with_instance`; arrays null or `n` elements.
pub unsafe fn set_real_input_derivatives<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    order: *const c_int,
    value: *const f64,
) -> StatusCode {
    const F: &str = "fmi2SetRealInputDerivatives";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            match (slice(F, "value references", vr, n), slice(F, "orders", order, n), slice(F, "values", value, n)) {
                (Ok(v), Ok(o), Ok(x)) => me.set_real_input_derivatives(v, o, x),
                (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2GetRealOutputDerivatives`.
///
/// # Safety
/// See `with_instance`; arrays null or `n` elements, `value` writable.
pub unsafe fn get_real_output_derivatives<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    order: *const c_int,
    value: *mut f64,
) -> StatusCode {
    const F: &str = "fmi2GetRealOutputDerivatives";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            match (slice(F, "value references", vr, n), slice(F, "orders", order, n), slice_mut(F, "values", value, n))
            {
                (Ok(v), Ok(o), Ok(x)) => me.get_real_output_derivatives(v, o, x),
                (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => reject(me, e),
            }
        })
    }
}

/// `fmi2DoStep`.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn do_step<S: CoSimulation>(c: Component, t: f64, h: f64, _no_set_fmu_state_prior: Boolean) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, "fmi2DoStep", |me| me.do_step(t, h)) }
}

/// `fmi2GetStatus`.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn get_status<S: CoSimulation>(c: Component, kind: c_int, _value: *mut StatusCode) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, "fmi2GetStatus", |me| me.unsupported_status("fmi2GetStatus", kind)) }
}

/// `fmi2GetRealStatus`: `fmi2LastSuccessfulTime`.
///
/// # Safety
/// See `with_instance`; `value` writable.
pub unsafe fn get_real_status<S: CoSimulation>(c: Component, kind: c_int, value: *mut f64) -> StatusCode {
    const F: &str = "fmi2GetRealStatus";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if kind != STATUS_LAST_SUCCESSFUL_TIME {
                return me.unsupported_status(F, kind);
            }
            if value.is_null() {
                return reject(me, null_argument(F, "value"));
            }
            *value = me.last_successful_time()?;
            Ok(())
        })
    }
}

/// `fmi2GetBooleanStatus`: `fmi2Terminated`.
///
/// # Safety
/// See `with_instance`; `value` writable.
pub unsafe fn get_boolean_status<S: CoSimulation>(c: Component, kind: c_int, value: *mut Boolean) -> StatusCode {
    const F: &str = "fmi2GetBooleanStatus";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if kind != STATUS_TERMINATED {
                return me.unsupported_status(F, kind);
            }
            if value.is_null() {
                return reject(me, null_argument(F, "value"));
            }
            *value = Boolean::from(me.terminated_status()?);
            Ok(())
        })
    }
}

/// `fmi2GetIntegerStatus` and `fmi2GetStringStatus`: no such status kinds.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn get_other_status<S: CoSimulation>(c: Component, function: &'static str, kind: c_int) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, function, |me| me.unsupported_status(function, kind)) }
}

/// `fmi2SetTime`.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn set_time<S: CoSimulation>(c: Component, t: f64) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, "fmi2SetTime", |me| me.set_time(t)) }
}

/// `fmi2SetContinuousStates`.
///
/// # Safety
/// See `with_instance`; `x` null or `n` valid elements.
pub unsafe fn set_continuous_states<S: CoSimulation>(c: Component, x: *const f64, n: usize) -> StatusCode {
    const F: &str = "fmi2SetContinuousStates";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| match slice(F, "x", x, n) {
            Ok(x) => me.set_continuous_states(x),
            Err(e) => reject(me, e),
        })
    }
}

/// The Model Exchange getters that fill a real array: states, derivatives, nominals, event
/// indicators.
macro_rules! real_array_getters {
    ($($(#[$doc:meta])* $name:ident => $fmi:literal, $method:ident;)*) => {$(
        $(#[$doc])*
        ///
        /// # Safety
        /// See `with_instance`; `values` null or `n` writable elements.
        pub unsafe fn $name<S: CoSimulation>(c: Component, values: *mut f64, n: usize) -> StatusCode {
            const F: &str = $fmi;
            // SAFETY: forwarded contract.
            unsafe {
                with_instance::<S>(c, F, |me| match slice_mut(F, "array", values, n) {
                    Ok(v) => me.$method(v),
                    Err(e) => reject(me, e),
                })
            }
        }
    )*};
}

real_array_getters! {
    /// `fmi2GetContinuousStates`.
    get_continuous_states => "fmi2GetContinuousStates", get_continuous_states;
    /// `fmi2GetDerivatives`.
    get_derivatives => "fmi2GetDerivatives", get_derivatives;
    /// `fmi2GetNominalsOfContinuousStates`.
    get_nominals_of_continuous_states => "fmi2GetNominalsOfContinuousStates", get_nominals_of_continuous_states;
    /// `fmi2GetEventIndicators`.
    get_event_indicators => "fmi2GetEventIndicators", get_event_indicators;
}

simple! {
    /// `fmi2EnterEventMode`.
    enter_event_mode => "fmi2EnterEventMode", enter_event_mode;
    /// `fmi2EnterContinuousTimeMode`.
    enter_continuous_time_mode => "fmi2EnterContinuousTimeMode", enter_continuous_time_mode;
}

/// `fmi2NewDiscreteStates`.
///
/// # Safety
/// See `with_instance`; `info` null or writable.
pub unsafe fn new_discrete_states<S: CoSimulation>(c: Component, info: *mut EventInfo) -> StatusCode {
    const F: &str = "fmi2NewDiscreteStates";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if info.is_null() {
                return reject(me, null_argument(F, "fmi2EventInfo"));
            }
            let e = me.new_discrete_states()?;
            // SAFETY: non-null and writable by the caller's contract.
            *info = EventInfo {
                new_discrete_states_needed: e.new_discrete_states_needed.into(),
                terminate_simulation: e.terminate_simulation.into(),
                nominals_of_continuous_states_changed: e.nominals_changed.into(),
                values_of_continuous_states_changed: e.values_changed.into(),
                next_event_time_defined: e.next_event_time.is_some().into(),
                next_event_time: e.next_event_time.unwrap_or(0.0),
            };
            Ok(())
        })
    }
}

/// `fmi2CompletedIntegratorStep`.
///
/// # Safety
/// See `with_instance`; the two flags null or writable.
pub unsafe fn completed_integrator_step<S: CoSimulation>(
    c: Component,
    _no_set_fmu_state_prior: Boolean,
    enter_event_mode: *mut Boolean,
    terminate_simulation: *mut Boolean,
) -> StatusCode {
    const F: &str = "fmi2CompletedIntegratorStep";
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, F, |me| {
            if enter_event_mode.is_null() || terminate_simulation.is_null() {
                return reject(me, null_argument(F, "enterEventMode or terminateSimulation"));
            }
            let (event, terminate) = me.completed_integrator_step()?;
            // SAFETY: non-null and writable by the caller's contract.
            *enter_event_mode = event.into();
            *terminate_simulation = terminate.into();
            Ok(())
        })
    }
}

/// Emits the FMI 2.0 symbols, Co-Simulation and Model Exchange, for a model type. Use once, in
/// the crate that is built as the FMU's shared library. The model description declares Model
/// Exchange when the model declares its states ([`crate::Model::state_variables`]).
#[macro_export]
macro_rules! export_fmu {
    ($model:ty) => {
        $crate::export_cosimulation!($crate::Instance<$model>);
        $crate::export_model_exchange!($crate::Instance<$model>);
    };
}

/// Emits the FMI 2.0 Model Exchange symbols (those not shared with Co-Simulation) for a slave;
/// used by [`crate::export_fmu!`].
#[macro_export]
macro_rules! export_model_exchange {
    ($slave:ty) => {
        mod fmi2_model_exchange_exports {
            #![allow(non_snake_case, clippy::missing_safety_doc)]
            use super::*;
            use $crate::abi::{self, Boolean, Component, EventInfo, StatusCode};
            type M = $slave;

            // SAFETY (all functions below): as in `export_cosimulation!`.

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetTime(c: Component, t: f64) -> StatusCode {
                unsafe { abi::set_time::<M>(c, t) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetContinuousStates(c: Component, x: *const f64, n: usize) -> StatusCode {
                unsafe { abi::set_continuous_states::<M>(c, x, n) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetContinuousStates(c: Component, x: *mut f64, n: usize) -> StatusCode {
                unsafe { abi::get_continuous_states::<M>(c, x, n) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetDerivatives(c: Component, dx: *mut f64, n: usize) -> StatusCode {
                unsafe { abi::get_derivatives::<M>(c, dx, n) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetNominalsOfContinuousStates(
                c: Component,
                x: *mut f64,
                n: usize,
            ) -> StatusCode {
                unsafe { abi::get_nominals_of_continuous_states::<M>(c, x, n) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetEventIndicators(c: Component, z: *mut f64, n: usize) -> StatusCode {
                unsafe { abi::get_event_indicators::<M>(c, z, n) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2EnterEventMode(c: Component) -> StatusCode {
                unsafe { abi::enter_event_mode::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2NewDiscreteStates(c: Component, info: *mut EventInfo) -> StatusCode {
                unsafe { abi::new_discrete_states::<M>(c, info) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2EnterContinuousTimeMode(c: Component) -> StatusCode {
                unsafe { abi::enter_continuous_time_mode::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2CompletedIntegratorStep(
                c: Component,
                no_prior: Boolean,
                enter_event_mode: *mut Boolean,
                terminate_simulation: *mut Boolean,
            ) -> StatusCode {
                unsafe { abi::completed_integrator_step::<M>(c, no_prior, enter_event_mode, terminate_simulation) }
            }
        }
    };
}

/// Emits the FMI 2.0 Co-Simulation symbols for any [`CoSimulation`] slave (for a [`crate::Model`],
/// use [`crate::export_fmu!`]). Use once, in the crate that is built as the FMU's shared library.
#[macro_export]
macro_rules! export_cosimulation {
    ($slave:ty) => {
        mod fmi2_exports {
            #![allow(non_snake_case, clippy::missing_safety_doc)]
            use super::*;
            use std::ffi::{c_char, c_int};
            use $crate::abi::{self, Boolean, CallbackFunctions, Component, FmuStatePtr, StatusCode, ValueReference};
            type M = $slave;

            // SAFETY (all functions below): the importer calls them under the FMI 2.0 calling
            // contract; each forwards to `fmu_core::abi`, which checks null pointers and lengths
            // and catches panics.

            #[unsafe(no_mangle)]
            pub extern "C" fn fmi2GetTypesPlatform() -> *const c_char {
                abi::TYPES_PLATFORM.as_ptr()
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn fmi2GetVersion() -> *const c_char {
                abi::VERSION.as_ptr()
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetDebugLogging(
                c: Component,
                on: Boolean,
                n: usize,
                cats: *const *const c_char,
            ) -> StatusCode {
                unsafe { abi::set_debug_logging::<M>(c, on, n, cats) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2Instantiate(
                name: *const c_char,
                kind: c_int,
                guid: *const c_char,
                resources: *const c_char,
                functions: *const CallbackFunctions,
                visible: Boolean,
                logging_on: Boolean,
            ) -> Component {
                unsafe { abi::instantiate::<M>(name, kind, guid, resources, functions, visible, logging_on) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2FreeInstance(c: Component) {
                unsafe { abi::free_instance::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetupExperiment(
                c: Component,
                tol_defined: Boolean,
                tol: f64,
                start: f64,
                stop_defined: Boolean,
                stop: f64,
            ) -> StatusCode {
                unsafe { abi::setup_experiment::<M>(c, tol_defined, tol, start, stop_defined, stop) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2EnterInitializationMode(c: Component) -> StatusCode {
                unsafe { abi::enter_initialization_mode::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2ExitInitializationMode(c: Component) -> StatusCode {
                unsafe { abi::exit_initialization_mode::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2Terminate(c: Component) -> StatusCode {
                unsafe { abi::terminate::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2Reset(c: Component) -> StatusCode {
                unsafe { abi::reset::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetReal(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *mut f64,
            ) -> StatusCode {
                unsafe { abi::get_real::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetInteger(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *mut c_int,
            ) -> StatusCode {
                unsafe { abi::get_integer::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetBoolean(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *mut Boolean,
            ) -> StatusCode {
                unsafe { abi::get_boolean::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetString(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *mut *const c_char,
            ) -> StatusCode {
                unsafe { abi::get_string::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetReal(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *const f64,
            ) -> StatusCode {
                unsafe { abi::set_real::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetInteger(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *const c_int,
            ) -> StatusCode {
                unsafe { abi::set_integer::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetBoolean(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *const Boolean,
            ) -> StatusCode {
                unsafe { abi::set_boolean::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetString(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                v: *const *const c_char,
            ) -> StatusCode {
                unsafe { abi::set_string::<M>(c, vr, n, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetFMUstate(c: Component, s: *mut FmuStatePtr) -> StatusCode {
                unsafe { abi::get_fmu_state::<M>(c, s) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetFMUstate(c: Component, s: FmuStatePtr) -> StatusCode {
                unsafe { abi::set_fmu_state::<M>(c, s) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2FreeFMUstate(c: Component, s: *mut FmuStatePtr) -> StatusCode {
                unsafe { abi::free_fmu_state::<M>(c, s) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SerializedFMUstateSize(
                c: Component,
                s: FmuStatePtr,
                size: *mut usize,
            ) -> StatusCode {
                unsafe { abi::serialized_fmu_state_size::<M>(c, s, size) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SerializeFMUstate(
                c: Component,
                s: FmuStatePtr,
                bytes: *mut c_char,
                size: usize,
            ) -> StatusCode {
                unsafe { abi::serialize_fmu_state::<M>(c, s, bytes, size) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2DeSerializeFMUstate(
                c: Component,
                bytes: *const c_char,
                size: usize,
                s: *mut FmuStatePtr,
            ) -> StatusCode {
                unsafe { abi::deserialize_fmu_state::<M>(c, bytes, size, s) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetDirectionalDerivative(
                c: Component,
                unknown: *const ValueReference,
                n_unknown: usize,
                known: *const ValueReference,
                n_known: usize,
                dv_known: *const f64,
                dv_unknown: *mut f64,
            ) -> StatusCode {
                unsafe {
                    abi::get_directional_derivative::<M>(c, unknown, n_unknown, known, n_known, dv_known, dv_unknown)
                }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetRealInputDerivatives(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                order: *const c_int,
                v: *const f64,
            ) -> StatusCode {
                unsafe { abi::set_real_input_derivatives::<M>(c, vr, n, order, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetRealOutputDerivatives(
                c: Component,
                vr: *const ValueReference,
                n: usize,
                order: *const c_int,
                v: *mut f64,
            ) -> StatusCode {
                unsafe { abi::get_real_output_derivatives::<M>(c, vr, n, order, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2DoStep(c: Component, t: f64, h: f64, no_prior: Boolean) -> StatusCode {
                unsafe { abi::do_step::<M>(c, t, h, no_prior) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2CancelStep(c: Component) -> StatusCode {
                unsafe { abi::cancel_step::<M>(c) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetStatus(c: Component, kind: c_int, v: *mut StatusCode) -> StatusCode {
                unsafe { abi::get_status::<M>(c, kind, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetRealStatus(c: Component, kind: c_int, v: *mut f64) -> StatusCode {
                unsafe { abi::get_real_status::<M>(c, kind, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetIntegerStatus(c: Component, kind: c_int, _v: *mut c_int) -> StatusCode {
                unsafe { abi::get_other_status::<M>(c, "fmi2GetIntegerStatus", kind) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetBooleanStatus(c: Component, kind: c_int, v: *mut Boolean) -> StatusCode {
                unsafe { abi::get_boolean_status::<M>(c, kind, v) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetStringStatus(
                c: Component,
                kind: c_int,
                _v: *mut *const c_char,
            ) -> StatusCode {
                unsafe { abi::get_other_status::<M>(c, "fmi2GetStringStatus", kind) }
            }
        }
    };
}
