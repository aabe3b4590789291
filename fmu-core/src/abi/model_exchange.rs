//! Model Exchange: time, continuous states, derivatives, event indicators and event mode.

use super::{
    Boolean, Component, EventInfo, StatusCode, checked, null_argument, reject, simple, slice, slice_mut, with_instance,
};
use crate::slave::CoSimulation;

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
        with_instance::<S>(c, F, |me| {
            let x = checked(me, slice(F, "x", x, n))?;
            me.set_continuous_states(x)
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
                with_instance::<S>(c, F, |me| {
                    let values = checked(me, slice_mut(F, "array", values, n))?;
                    me.$method(values)
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
