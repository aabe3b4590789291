//! `fmi2Get…` and `fmi2Set…` for Real, Integer, Boolean and String variables.

use std::ffi::{c_char, c_int};

use super::{Boolean, Component, StatusCode, ValueReference, checked, utf8_string, with_values};
use crate::slave::CoSimulation;

/// One function per line: its name, the FMI function, the C pointer to the values, and the
/// instance call on the checked slices `vrs` and `values`.
macro_rules! accessors {
    ($($(#[$doc:meta])* $name:ident => $fmi:literal, $ptr:ty, |$me:ident, $vrs:ident, $values:ident| $call:expr;)*) => {$(
        $(#[$doc])*
        ///
        /// # Safety
        /// See `with_instance`; `vr` and `value` null or `n` valid elements (writable for a
        /// getter).
        pub unsafe fn $name<S: CoSimulation>(c: Component, vr: *const ValueReference, n: usize, value: $ptr) -> StatusCode {
            // SAFETY: forwarded contract.
            unsafe { with_values::<S, _>(c, $fmi, vr, n, value, |$me, $vrs, $values| $call) }
        }
    )*};
}

accessors! {
    /// `fmi2SetReal`: the values go to the instance as they are, not copied.
    set_real => "fmi2SetReal", *const f64, |me, vrs, values| me.set_real(vrs, values);
    /// `fmi2SetInteger`.
    set_integer => "fmi2SetInteger", *const c_int, |me, vrs, values| me.set_integer(vrs, values);
    /// `fmi2SetBoolean`.
    set_boolean => "fmi2SetBoolean", *const Boolean, |me, vrs, values| {
        let flags: Vec<bool> = values.iter().map(|&v| v != 0).collect();
        me.set_boolean(vrs, &flags)
    };
    /// `fmi2GetReal`.
    get_real => "fmi2GetReal", *mut f64, |me, vrs, values| me.get_real(vrs, values);
    /// `fmi2GetInteger`.
    get_integer => "fmi2GetInteger", *mut c_int, |me, vrs, values| me.get_integer(vrs, values);
    /// `fmi2GetBoolean`.
    get_boolean => "fmi2GetBoolean", *mut Boolean, |me, vrs, values| {
        let mut flags = vec![false; values.len()];
        me.get_boolean(vrs, &mut flags)?;
        for (out, f) in values.iter_mut().zip(flags) {
            *out = Boolean::from(f);
        }
        Ok(())
    };
}

/// `fmi2GetString`: the pointers written stay valid until the instance's next call.
///
/// # Safety
/// As [`get_real`].
pub unsafe fn get_string<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    value: *mut *const c_char,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_values::<S, _>(c, "fmi2GetString", vr, n, value, |me, vrs, values| me.get_string(vrs, values)) }
}

/// `fmi2SetString`: a null string or one that is not UTF-8 is refused with `fmi2Error` (the
/// instance then logs which element).
///
/// # Safety
/// As [`get_real`]; each non-null element of `value` NUL-terminated and valid for the call.
pub unsafe fn set_string<S: CoSimulation>(
    c: Component,
    vr: *const ValueReference,
    n: usize,
    value: *const *const c_char,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_values::<S, _>(c, "fmi2SetString", vr, n, value, |me, vrs, pointers| {
            let mut strings = Vec::with_capacity(pointers.len());
            for (k, &p) in pointers.iter().enumerate() {
                // SAFETY: `p` is null or NUL-terminated and valid for the call (this function's
                // contract).
                let text = checked(me, utf8_string("fmi2SetString", k, vrs[k], p))?;
                strings.push(text);
            }
            me.set_string(vrs, &strings)
        })
    }
}
