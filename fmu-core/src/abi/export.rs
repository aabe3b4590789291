//! The macros that emit the `#[no_mangle]` FMI 2.0 symbols of an FMU's shared library.

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

/// One `#[no_mangle] extern "C"` function per line, `fmi2NameTYPE fmi2Name(args) -> ret =
/// abi_function;` as the C header declares it, forwarding its arguments to
/// `fmu_core::abi::abi_function::<$slave>`; used by the export macros. Each function is assigned
/// to its FMI 2.0 function type ([`fmi2_types::functions`]) in a `const`, so a signature that
/// differs from the standard's (and from what the importer calls) does not compile.
#[doc(hidden)]
#[macro_export]
macro_rules! __fmi2_forward {
    ($slave:ty; $($fmi_type:ident $fmi:ident($($arg:ident: $t:ty),*) $(-> $ret:ty)? = $abi:ident;)*) => {$(
        const _: $crate::abi::functions::$fmi_type = $fmi;
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $fmi($($arg: $t),*) $(-> $ret)? {
            // SAFETY: the importer calls under the FMI 2.0 calling contract; the `abi` function
            // checks null pointers and lengths and catches panics.
            unsafe { $crate::abi::$abi::<$slave>($($arg),*) }
        }
    )*};
}

/// The getter and the setter of one variable type per line, `fmi2GetXTYPE fmi2GetX / fmi2SetXTYPE
/// fmi2SetX: T = get_x / set_x;`: `fmi2GetX(c, vr, n, v: *mut T)` and `fmi2SetX(c, vr, n, v: *const
/// T)`, forwarded by [`__fmi2_forward!`](crate::__fmi2_forward!); used by [`crate::export_cosimulation!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __fmi2_get_set {
    ($slave:ty;
        $($get_type:ident $get:ident / $set_type:ident $set:ident: $t:ty = $get_abi:ident / $set_abi:ident;)*
    ) => {
        $crate::__fmi2_forward! { $slave; $(
            $get_type $get(c: Component, vr: *const ValueReference, n: usize, v: *mut $t) -> StatusCode = $get_abi;
            $set_type $set(c: Component, vr: *const ValueReference, n: usize, v: *const $t) -> StatusCode = $set_abi;
        )* }
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
            use $crate::abi::{Boolean, Component, EventInfo, StatusCode};

            $crate::__fmi2_forward! { $slave;
                fmi2SetTimeTYPE fmi2SetTime(c: Component, t: f64) -> StatusCode = set_time;
                fmi2SetContinuousStatesTYPE fmi2SetContinuousStates(c: Component, x: *const f64, n: usize)
                    -> StatusCode = set_continuous_states;
                fmi2GetContinuousStatesTYPE fmi2GetContinuousStates(c: Component, x: *mut f64, n: usize)
                    -> StatusCode = get_continuous_states;
                fmi2GetDerivativesTYPE fmi2GetDerivatives(c: Component, dx: *mut f64, n: usize)
                    -> StatusCode = get_derivatives;
                fmi2GetNominalsOfContinuousStatesTYPE fmi2GetNominalsOfContinuousStates(
                    c: Component,
                    x: *mut f64,
                    n: usize
                ) -> StatusCode = get_nominals_of_continuous_states;
                fmi2GetEventIndicatorsTYPE fmi2GetEventIndicators(c: Component, z: *mut f64, n: usize)
                    -> StatusCode = get_event_indicators;
                fmi2EnterEventModeTYPE fmi2EnterEventMode(c: Component) -> StatusCode = enter_event_mode;
                fmi2NewDiscreteStatesTYPE fmi2NewDiscreteStates(c: Component, info: *mut EventInfo)
                    -> StatusCode = new_discrete_states;
                fmi2EnterContinuousTimeModeTYPE fmi2EnterContinuousTimeMode(c: Component)
                    -> StatusCode = enter_continuous_time_mode;
                fmi2CompletedIntegratorStepTYPE fmi2CompletedIntegratorStep(
                    c: Component,
                    no_prior: Boolean,
                    enter_event_mode: *mut Boolean,
                    terminate_simulation: *mut Boolean
                ) -> StatusCode = completed_integrator_step;
            }
        }
    };
}

/// Emits the FMI 2.0 Co-Simulation symbols for any [`CoSimulation`](crate::CoSimulation)
/// slave (for a [`crate::Model`], use [`crate::export_fmu!`]). Use once, in the crate that is
/// built as the FMU's shared library.
#[macro_export]
macro_rules! export_cosimulation {
    ($slave:ty) => {
        mod fmi2_exports {
            #![allow(non_snake_case, clippy::missing_safety_doc)]
            use super::*;
            use std::ffi::{c_char, c_int};
            use $crate::abi::{self, Boolean, CallbackFunctions, Component, FmuStatePtr, StatusCode, ValueReference};

            const _: abi::functions::fmi2GetTypesPlatformTYPE = fmi2GetTypesPlatform;
            const _: abi::functions::fmi2GetVersionTYPE = fmi2GetVersion;
            const _: abi::functions::fmi2GetIntegerStatusTYPE = fmi2GetIntegerStatus;
            const _: abi::functions::fmi2GetStringStatusTYPE = fmi2GetStringStatus;

            #[unsafe(no_mangle)]
            pub extern "C" fn fmi2GetTypesPlatform() -> *const c_char {
                abi::TYPES_PLATFORM.as_ptr()
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn fmi2GetVersion() -> *const c_char {
                abi::VERSION.as_ptr()
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetIntegerStatus(c: Component, kind: c_int, _v: *mut c_int) -> StatusCode {
                // SAFETY: as in `__fmi2_forward!`.
                unsafe { abi::get_other_status::<$slave>(c, "fmi2GetIntegerStatus", kind) }
            }
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetStringStatus(
                c: Component,
                kind: c_int,
                _v: *mut *const c_char,
            ) -> StatusCode {
                // SAFETY: as in `__fmi2_forward!`.
                unsafe { abi::get_other_status::<$slave>(c, "fmi2GetStringStatus", kind) }
            }

            $crate::__fmi2_forward! { $slave;
                fmi2SetDebugLoggingTYPE fmi2SetDebugLogging(
                    c: Component,
                    on: Boolean,
                    n: usize,
                    cats: *const *const c_char
                ) -> StatusCode = set_debug_logging;
                fmi2InstantiateTYPE fmi2Instantiate(
                    name: *const c_char,
                    kind: c_int,
                    guid: *const c_char,
                    resources: *const c_char,
                    functions: *const CallbackFunctions,
                    visible: Boolean,
                    logging_on: Boolean
                ) -> Component = instantiate;
                fmi2FreeInstanceTYPE fmi2FreeInstance(c: Component) = free_instance;
                fmi2SetupExperimentTYPE fmi2SetupExperiment(
                    c: Component,
                    tol_defined: Boolean,
                    tol: f64,
                    start: f64,
                    stop_defined: Boolean,
                    stop: f64
                )
                    -> StatusCode = setup_experiment;
                fmi2EnterInitializationModeTYPE fmi2EnterInitializationMode(c: Component)
                    -> StatusCode = enter_initialization_mode;
                fmi2ExitInitializationModeTYPE fmi2ExitInitializationMode(c: Component)
                    -> StatusCode = exit_initialization_mode;
                fmi2TerminateTYPE fmi2Terminate(c: Component) -> StatusCode = terminate;
                fmi2ResetTYPE fmi2Reset(c: Component) -> StatusCode = reset;
                fmi2GetFMUstateTYPE fmi2GetFMUstate(c: Component, s: *mut FmuStatePtr) -> StatusCode = get_fmu_state;
                fmi2SetFMUstateTYPE fmi2SetFMUstate(c: Component, s: FmuStatePtr) -> StatusCode = set_fmu_state;
                fmi2FreeFMUstateTYPE fmi2FreeFMUstate(c: Component, s: *mut FmuStatePtr) -> StatusCode = free_fmu_state;
                fmi2SerializedFMUstateSizeTYPE fmi2SerializedFMUstateSize(
                    c: Component,
                    s: FmuStatePtr,
                    size: *mut usize
                ) -> StatusCode = serialized_fmu_state_size;
                fmi2SerializeFMUstateTYPE fmi2SerializeFMUstate(
                    c: Component,
                    s: FmuStatePtr,
                    bytes: *mut c_char,
                    size: usize
                ) -> StatusCode = serialize_fmu_state;
                fmi2DeSerializeFMUstateTYPE fmi2DeSerializeFMUstate(
                    c: Component,
                    bytes: *const c_char,
                    size: usize,
                    s: *mut FmuStatePtr
                )
                    -> StatusCode = deserialize_fmu_state;
                fmi2GetDirectionalDerivativeTYPE fmi2GetDirectionalDerivative(
                    c: Component,
                    unknown: *const ValueReference,
                    n_unknown: usize,
                    known: *const ValueReference,
                    n_known: usize,
                    dv_known: *const f64,
                    dv_unknown: *mut f64
                ) -> StatusCode = get_directional_derivative;
                fmi2SetRealInputDerivativesTYPE fmi2SetRealInputDerivatives(
                    c: Component,
                    vr: *const ValueReference,
                    n: usize,
                    order: *const c_int,
                    v: *const f64
                ) -> StatusCode = set_real_input_derivatives;
                fmi2GetRealOutputDerivativesTYPE fmi2GetRealOutputDerivatives(
                    c: Component,
                    vr: *const ValueReference,
                    n: usize,
                    order: *const c_int,
                    v: *mut f64
                ) -> StatusCode = get_real_output_derivatives;
                fmi2DoStepTYPE fmi2DoStep(c: Component, t: f64, h: f64, no_prior: Boolean) -> StatusCode = do_step;
                fmi2CancelStepTYPE fmi2CancelStep(c: Component) -> StatusCode = cancel_step;
                fmi2GetStatusTYPE fmi2GetStatus(c: Component, kind: c_int, v: *mut StatusCode)
                    -> StatusCode = get_status;
                fmi2GetRealStatusTYPE fmi2GetRealStatus(c: Component, kind: c_int, v: *mut f64)
                    -> StatusCode = get_real_status;
                fmi2GetBooleanStatusTYPE fmi2GetBooleanStatus(c: Component, kind: c_int, v: *mut Boolean)
                    -> StatusCode = get_boolean_status;
            }

            $crate::__fmi2_get_set! { $slave;
                fmi2GetRealTYPE fmi2GetReal / fmi2SetRealTYPE fmi2SetReal:
                    f64 = get_real / set_real;
                fmi2GetIntegerTYPE fmi2GetInteger / fmi2SetIntegerTYPE fmi2SetInteger:
                    c_int = get_integer / set_integer;
                fmi2GetBooleanTYPE fmi2GetBoolean / fmi2SetBooleanTYPE fmi2SetBoolean:
                    Boolean = get_boolean / set_boolean;
                fmi2GetStringTYPE fmi2GetString / fmi2SetStringTYPE fmi2SetString:
                    *const c_char = get_string / set_string;
            }
        }
    };
}
