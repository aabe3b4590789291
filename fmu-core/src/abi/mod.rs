//! The FMI 2.0 C ABI, Co-Simulation and Model Exchange. Every `unsafe` block of the export side
//! is in this folder.
//!
//! Each function checks its pointers and lengths, converts them to slices and calls the safe
//! [`CoSimulation`] method of the same name inside `catch_unwind`, so a panic in a model becomes
//! `fmi2Error` with a log message instead of aborting the host. [`crate::export_fmu!`] emits the
//! `#[no_mangle]` symbols that forward here.
//!
//! The functions are grouped as the instance's methods are: `lifecycle` (instantiate, setup,
//! initialization, terminate, reset, free), `variables` (getters and setters), `state`
//! (`fmi2FMUstate`), `cosim` (step, status, directional and input/output derivatives) and
//! `model_exchange`; this file holds the guard every function runs through and the pointer
//! checks; `export` the macros that emit the symbols.

use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::slave::CoSimulation;
use crate::status::{FmiError, FmiResult, Status};

mod cosim;
mod export;
mod lifecycle;
mod model_exchange;
mod state;
mod variables;

pub use cosim::*;
pub use lifecycle::*;
pub use model_exchange::*;
pub use state::*;
pub use variables::*;

/// `fmi2FMUstate`
pub use fmi2_types::FmuState as FmuStatePtr;
pub use fmi2_types::functions;
pub use fmi2_types::{Boolean, CallbackFunctions, CallbackLogger, Component, EventInfo, StatusCode, ValueReference};

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

/// [`with_instance`] for the functions that take `n` value references: the array checked and
/// turned into a slice before `f` runs.
///
/// # Safety
/// As [`with_instance`]; `vr` null or `n` valid elements.
unsafe fn with_value_references<'a, S: CoSimulation>(
    c: Component,
    function: &'static str,
    vr: *const ValueReference,
    n: usize,
    f: impl FnOnce(&mut S, &'a [ValueReference]) -> FmiResult<()>,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, function, |me| {
            let vrs = checked(me, slice(function, "value reference array", vr, n))?;
            f(me, vrs)
        })
    }
}

/// [`with_value_references`] with `n` values beside them, read (`*const T`) or written
/// (`*mut T`).
///
/// # Safety
/// As [`with_value_references`]; `values` null or `n` valid elements, writable for `*mut T`.
unsafe fn with_values<'a, S: CoSimulation, A: CArray<'a>>(
    c: Component,
    function: &'static str,
    vr: *const ValueReference,
    n: usize,
    values: A,
    f: impl FnOnce(&mut S, &'a [ValueReference], A::Slice) -> FmiResult<()>,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_value_references::<S>(c, function, vr, n, |me, vrs| {
            let values = checked(me, values.slice(function, "value array", n))?;
            f(me, vrs, values)
        })
    }
}

/// A C array argument: `*const T` is read as `&[T]`, `*mut T` written as `&mut [T]`.
trait CArray<'a> {
    /// The slice the array becomes.
    type Slice;
    /// [`slice()`] or [`slice_mut()`].
    ///
    /// # Safety
    /// As [`slice()`] or [`slice_mut()`].
    unsafe fn slice(self, function: &'static str, what: &str, n: usize) -> FmiResult<Self::Slice>;
}

impl<'a, T: 'a> CArray<'a> for *const T {
    type Slice = &'a [T];
    unsafe fn slice(self, function: &'static str, what: &str, n: usize) -> FmiResult<&'a [T]> {
        // SAFETY: forwarded contract.
        unsafe { slice(function, what, self, n) }
    }
}

impl<'a, T: 'a> CArray<'a> for *mut T {
    type Slice = &'a mut [T];
    unsafe fn slice(self, function: &'static str, what: &str, n: usize) -> FmiResult<&'a mut [T]> {
        // SAFETY: forwarded contract.
        unsafe { slice_mut(function, what, self, n) }
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
        return Err(null_argument(function, what));
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
        return Err(null_argument(function, what));
    }
    // SAFETY: non-null and, by the caller's contract, `n` writable unaliased elements.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

/// An argument check's result; an error, found before the instance method runs, is logged
/// on the instance first.
fn checked<S: CoSimulation, T>(instance: &mut S, result: FmiResult<T>) -> FmiResult<T> {
    result.or_else(|e| reject(instance, e))
}

/// Logs and returns an argument error found before the instance method runs.
fn reject<S: CoSimulation, T>(instance: &mut S, e: FmiError) -> FmiResult<T> {
    instance.fail(&e);
    Err(e)
}

/// Element `k` (for value reference `vr`) of a String value array as `&str`: an error for null or
/// for bytes that are not UTF-8.
///
/// # Safety
/// If non-null, `p` must be NUL-terminated and valid for `'a`.
unsafe fn utf8_string<'a>(
    function: &'static str,
    k: usize,
    vr: ValueReference,
    p: *const c_char,
) -> FmiResult<&'a str> {
    if p.is_null() {
        return Err(null_argument(function, &format!("value {k} (value reference {vr})")));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(p) }.to_str().map_err(|e| FmiError {
        status: Status::Error,
        function,
        message: format!("value {k} (value reference {vr}) is not UTF-8: {e}"),
    })
}

fn null_argument(function: &'static str, what: &str) -> FmiError {
    FmiError { status: Status::Error, function, message: format!("{what} is a null pointer") }
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
use simple;
