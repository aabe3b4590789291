//! Instantiate, free, debug logging, setup, initialization, terminate and reset.

use std::ffi::{c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{
    Boolean, CallbackFunctions, Component, StatusCode, c_message, c_str, checked, panic_text, reject, simple, slice,
    with_instance,
};
use crate::slave::{CoSimulation, InstantiateArgs};
use crate::status::{FmiError, Status};

const FMI2_COSIMULATION: c_int = fmi2_types::CO_SIMULATION;
const FMI2_MODEL_EXCHANGE: c_int = fmi2_types::MODEL_EXCHANGE;

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
            let ptrs = checked(me, slice(F, "categories", categories, n))?;
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

simple! {
    /// `fmi2EnterInitializationMode`.
    enter_initialization_mode => "fmi2EnterInitializationMode", enter_initialization_mode;
    /// `fmi2ExitInitializationMode`.
    exit_initialization_mode => "fmi2ExitInitializationMode", exit_initialization_mode;
    /// `fmi2Terminate`.
    terminate => "fmi2Terminate", terminate;
    /// `fmi2Reset`.
    reset => "fmi2Reset", reset;
}
