//! The FMI 2.0 function types of `fmi2FunctionTypes.h`, one per C function and named like the
//! standard's typedefs (`fmi2DoStepTYPE` is the type of `fmi2DoStep`). The importer
//! (`cosim::import::ffi`) loads each symbol as its type, and `fmu-core`'s export macros assign
//! each exported function to its type in a `const`, so a signature that drifts from the standard
//! on either side fails to compile.
#![allow(non_camel_case_types)]

use std::ffi::c_char;

use crate::{
    Boolean, Byte, CallbackFunctions, Component, EventInfo, FmiString, FmuState, Integer, Real, StatusCode, StatusKind,
    Type, ValueReference,
};

// Common functions (Co-Simulation and Model Exchange).

/// `fmi2GetTypesPlatform`
pub type fmi2GetTypesPlatformTYPE = unsafe extern "C" fn() -> *const c_char;
/// `fmi2GetVersion`
pub type fmi2GetVersionTYPE = unsafe extern "C" fn() -> *const c_char;
/// `fmi2SetDebugLogging(c, loggingOn, nCategories, categories[])`
pub type fmi2SetDebugLoggingTYPE = unsafe extern "C" fn(Component, Boolean, usize, *const FmiString) -> StatusCode;
/// `fmi2Instantiate(instanceName, fmuType, fmuGUID, fmuResourceLocation, functions, visible, loggingOn)`
pub type fmi2InstantiateTYPE = unsafe extern "C" fn(
    FmiString,
    Type,
    FmiString,
    FmiString,
    *const CallbackFunctions,
    Boolean,
    Boolean,
) -> Component;
/// `fmi2FreeInstance`
pub type fmi2FreeInstanceTYPE = unsafe extern "C" fn(Component);
/// `fmi2SetupExperiment(c, toleranceDefined, tolerance, startTime, stopTimeDefined, stopTime)`
pub type fmi2SetupExperimentTYPE = unsafe extern "C" fn(Component, Boolean, Real, Real, Boolean, Real) -> StatusCode;
/// `fmi2EnterInitializationMode`
pub type fmi2EnterInitializationModeTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2ExitInitializationMode`
pub type fmi2ExitInitializationModeTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2Terminate`
pub type fmi2TerminateTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2Reset`
pub type fmi2ResetTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2GetReal(c, vr[], nvr, value[])`
pub type fmi2GetRealTYPE = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut Real) -> StatusCode;
/// `fmi2GetInteger(c, vr[], nvr, value[])`
pub type fmi2GetIntegerTYPE = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut Integer) -> StatusCode;
/// `fmi2GetBoolean(c, vr[], nvr, value[])`
pub type fmi2GetBooleanTYPE = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut Boolean) -> StatusCode;
/// `fmi2GetString(c, vr[], nvr, value[])`
pub type fmi2GetStringTYPE =
    unsafe extern "C" fn(Component, *const ValueReference, usize, *mut FmiString) -> StatusCode;
/// `fmi2SetReal(c, vr[], nvr, value[])`
pub type fmi2SetRealTYPE = unsafe extern "C" fn(Component, *const ValueReference, usize, *const Real) -> StatusCode;
/// `fmi2SetInteger(c, vr[], nvr, value[])`
pub type fmi2SetIntegerTYPE =
    unsafe extern "C" fn(Component, *const ValueReference, usize, *const Integer) -> StatusCode;
/// `fmi2SetBoolean(c, vr[], nvr, value[])`
pub type fmi2SetBooleanTYPE =
    unsafe extern "C" fn(Component, *const ValueReference, usize, *const Boolean) -> StatusCode;
/// `fmi2SetString(c, vr[], nvr, value[])`
pub type fmi2SetStringTYPE =
    unsafe extern "C" fn(Component, *const ValueReference, usize, *const FmiString) -> StatusCode;
/// `fmi2GetFMUstate(c, FMUstate*)`
pub type fmi2GetFMUstateTYPE = unsafe extern "C" fn(Component, *mut FmuState) -> StatusCode;
/// `fmi2SetFMUstate(c, FMUstate)`
pub type fmi2SetFMUstateTYPE = unsafe extern "C" fn(Component, FmuState) -> StatusCode;
/// `fmi2FreeFMUstate(c, FMUstate*)`
pub type fmi2FreeFMUstateTYPE = unsafe extern "C" fn(Component, *mut FmuState) -> StatusCode;
/// `fmi2SerializedFMUstateSize(c, FMUstate, size*)`
pub type fmi2SerializedFMUstateSizeTYPE = unsafe extern "C" fn(Component, FmuState, *mut usize) -> StatusCode;
/// `fmi2SerializeFMUstate(c, FMUstate, serializedState[], size)`
pub type fmi2SerializeFMUstateTYPE = unsafe extern "C" fn(Component, FmuState, *mut Byte, usize) -> StatusCode;
/// `fmi2DeSerializeFMUstate(c, serializedState[], size, FMUstate*)`
pub type fmi2DeSerializeFMUstateTYPE = unsafe extern "C" fn(Component, *const Byte, usize, *mut FmuState) -> StatusCode;
/// `fmi2GetDirectionalDerivative(c, vUnknown_ref[], nUnknown, vKnown_ref[], nKnown, dvKnown[], dvUnknown[])`
pub type fmi2GetDirectionalDerivativeTYPE = unsafe extern "C" fn(
    Component,
    *const ValueReference,
    usize,
    *const ValueReference,
    usize,
    *const Real,
    *mut Real,
) -> StatusCode;

// Model Exchange.

/// `fmi2EnterEventMode`
pub type fmi2EnterEventModeTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2NewDiscreteStates(c, eventInfo*)`
pub type fmi2NewDiscreteStatesTYPE = unsafe extern "C" fn(Component, *mut EventInfo) -> StatusCode;
/// `fmi2EnterContinuousTimeMode`
pub type fmi2EnterContinuousTimeModeTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2CompletedIntegratorStep(c, noSetFMUStatePriorToCurrentPoint, enterEventMode*, terminateSimulation*)`
pub type fmi2CompletedIntegratorStepTYPE =
    unsafe extern "C" fn(Component, Boolean, *mut Boolean, *mut Boolean) -> StatusCode;
/// `fmi2SetTime(c, time)`
pub type fmi2SetTimeTYPE = unsafe extern "C" fn(Component, Real) -> StatusCode;
/// `fmi2SetContinuousStates(c, x[], nx)`
pub type fmi2SetContinuousStatesTYPE = unsafe extern "C" fn(Component, *const Real, usize) -> StatusCode;
/// `fmi2GetDerivatives(c, derivatives[], nx)`
pub type fmi2GetDerivativesTYPE = unsafe extern "C" fn(Component, *mut Real, usize) -> StatusCode;
/// `fmi2GetEventIndicators(c, eventIndicators[], ni)`
pub type fmi2GetEventIndicatorsTYPE = unsafe extern "C" fn(Component, *mut Real, usize) -> StatusCode;
/// `fmi2GetContinuousStates(c, x[], nx)`
pub type fmi2GetContinuousStatesTYPE = unsafe extern "C" fn(Component, *mut Real, usize) -> StatusCode;
/// `fmi2GetNominalsOfContinuousStates(c, x_nominal[], nx)`
pub type fmi2GetNominalsOfContinuousStatesTYPE = unsafe extern "C" fn(Component, *mut Real, usize) -> StatusCode;

// Co-Simulation.

/// `fmi2SetRealInputDerivatives(c, vr[], nvr, order[], value[])`
pub type fmi2SetRealInputDerivativesTYPE =
    unsafe extern "C" fn(Component, *const ValueReference, usize, *const Integer, *const Real) -> StatusCode;
/// `fmi2GetRealOutputDerivatives(c, vr[], nvr, order[], value[])`
pub type fmi2GetRealOutputDerivativesTYPE =
    unsafe extern "C" fn(Component, *const ValueReference, usize, *const Integer, *mut Real) -> StatusCode;
/// `fmi2DoStep(c, currentCommunicationPoint, communicationStepSize, noSetFMUStatePriorToCurrentPoint)`
pub type fmi2DoStepTYPE = unsafe extern "C" fn(Component, Real, Real, Boolean) -> StatusCode;
/// `fmi2CancelStep`
pub type fmi2CancelStepTYPE = unsafe extern "C" fn(Component) -> StatusCode;
/// `fmi2GetStatus(c, kind, value*)`
pub type fmi2GetStatusTYPE = unsafe extern "C" fn(Component, StatusKind, *mut StatusCode) -> StatusCode;
/// `fmi2GetRealStatus(c, kind, value*)`
pub type fmi2GetRealStatusTYPE = unsafe extern "C" fn(Component, StatusKind, *mut Real) -> StatusCode;
/// `fmi2GetIntegerStatus(c, kind, value*)`
pub type fmi2GetIntegerStatusTYPE = unsafe extern "C" fn(Component, StatusKind, *mut Integer) -> StatusCode;
/// `fmi2GetBooleanStatus(c, kind, value*)`
pub type fmi2GetBooleanStatusTYPE = unsafe extern "C" fn(Component, StatusKind, *mut Boolean) -> StatusCode;
/// `fmi2GetStringStatus(c, kind, value*)`
pub type fmi2GetStringStatusTYPE = unsafe extern "C" fn(Component, StatusKind, *mut FmiString) -> StatusCode;
