//! Co-Simulation: step, status, directional derivatives and the input and output derivatives.

use std::ffi::c_int;

use super::{
    Boolean, CArray, Component, StatusCode, ValueReference, checked, null_argument, reject, simple, slice, slice_mut,
    with_instance,
};
use crate::slave::CoSimulation;
use crate::status::FmiResult;

const STATUS_LAST_SUCCESSFUL_TIME: c_int = fmi2_types::LAST_SUCCESSFUL_TIME;
const STATUS_TERMINATED: c_int = fmi2_types::TERMINATED;

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
            let u = checked(me, slice(F, "unknown value references", unknown, n_unknown))?;
            let k = checked(me, slice(F, "known value references", known, n_known))?;
            let dk = checked(me, slice(F, "dvKnown", dv_known, n_known))?;
            let du = checked(me, slice_mut(F, "dvUnknown", dv_unknown, n_unknown))?;
            me.get_directional_derivative(u, k, dk, du)
        })
    }
}

/// [`with_instance`] for the input and output derivatives: `n` value references, orders and
/// values (read for `*const f64`, written for `*mut f64`), checked before `f` runs.
///
/// # Safety
/// As [`with_instance`]; the arrays null or `n` valid elements.
unsafe fn with_derivatives<'a, S: CoSimulation, A: CArray<'a>>(
    c: Component,
    function: &'static str,
    vr: *const ValueReference,
    n: usize,
    order: *const c_int,
    values: A,
    f: impl FnOnce(&mut S, &'a [ValueReference], &'a [c_int], A::Slice) -> FmiResult<()>,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, function, |me| {
            let vrs = checked(me, slice(function, "value references", vr, n))?;
            let orders = checked(me, slice(function, "orders", order, n))?;
            let values = checked(me, values.slice(function, "values", n))?;
            f(me, vrs, orders, values)
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
    unsafe { with_derivatives::<S, _>(c, F, vr, n, order, value, |me, v, o, x| me.set_real_input_derivatives(v, o, x)) }
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
        with_derivatives::<S, _>(c, F, vr, n, order, value, |me, v, o, x| me.get_real_output_derivatives(v, o, x))
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

simple! {
    /// `fmi2CancelStep`.
    cancel_step => "fmi2CancelStep", cancel_step;
}

/// `fmi2GetStatus`.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn get_status<S: CoSimulation>(c: Component, kind: c_int, _value: *mut StatusCode) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, "fmi2GetStatus", |me| me.unsupported_status("fmi2GetStatus", kind)) }
}

/// [`with_instance`] for a status getter that answers one `kind`, with the value `read`
/// returns.
///
/// # Safety
/// As [`with_instance`]; `value` null or writable.
unsafe fn with_status<S: CoSimulation, T>(
    c: Component,
    function: &'static str,
    kind: c_int,
    answered: c_int,
    value: *mut T,
    read: impl FnOnce(&mut S) -> FmiResult<T>,
) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe {
        with_instance::<S>(c, function, |me| {
            if kind != answered {
                return me.unsupported_status(function, kind);
            }
            if value.is_null() {
                return reject(me, null_argument(function, "value"));
            }
            // SAFETY: non-null and writable by the caller's contract.
            *value = read(me)?;
            Ok(())
        })
    }
}

/// `fmi2GetRealStatus`: `fmi2LastSuccessfulTime`.
///
/// # Safety
/// See `with_instance`; `value` writable.
pub unsafe fn get_real_status<S: CoSimulation>(c: Component, kind: c_int, value: *mut f64) -> StatusCode {
    const F: &str = "fmi2GetRealStatus";
    // SAFETY: forwarded contract.
    unsafe { with_status::<S, _>(c, F, kind, STATUS_LAST_SUCCESSFUL_TIME, value, |me| me.last_successful_time()) }
}

/// `fmi2GetBooleanStatus`: `fmi2Terminated`.
///
/// # Safety
/// See `with_instance`; `value` writable.
pub unsafe fn get_boolean_status<S: CoSimulation>(c: Component, kind: c_int, value: *mut Boolean) -> StatusCode {
    const F: &str = "fmi2GetBooleanStatus";
    // SAFETY: forwarded contract.
    unsafe { with_status::<S, _>(c, F, kind, STATUS_TERMINATED, value, |me| me.terminated_status().map(Boolean::from)) }
}

/// `fmi2GetIntegerStatus` and `fmi2GetStringStatus`: no such status kinds.
///
/// # Safety
/// See `with_instance`.
pub unsafe fn get_other_status<S: CoSimulation>(c: Component, function: &'static str, kind: c_int) -> StatusCode {
    // SAFETY: forwarded contract.
    unsafe { with_instance::<S>(c, function, |me| me.unsupported_status(function, kind)) }
}
