//! The C boundary: `fmu_core::abi::*::<M>` called with raw pointers exactly as an importer calls
//! the exported `fmi2*` symbols, with a logger callback that records every message. This file
//! holds that harness and the lifecycle, misuse and status tests; `model_exchange` and `state`
//! the Model Exchange and FMU-state tests.

mod model_exchange;
mod state;
mod strings;

use crate::common;

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::marker::PhantomData;
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use common::{Decay, MassSpringDamper, decay_vr, defaults as d, vr};
use fmu_core::abi::{self, CallbackFunctions, CallbackLogger, Component, FmuStatePtr};
use fmu_core::{Instance, Model};

const OK: c_int = 0;
const ERROR: c_int = 3;
const CO_SIMULATION: c_int = 1;
const MODEL_EXCHANGE: c_int = 0;

/// The messages of one instance, reached through `componentEnvironment`.
type Messages = Mutex<Vec<String>>;

/// Non-variadic stand-in for `fmi2CallbackLogger`: records `"[instance] status category:
/// message"` into the `Messages` behind `env`.
unsafe extern "C" fn record(
    env: *mut c_void,
    instance: *const c_char,
    status: c_int,
    category: *const c_char,
    message: *const c_char,
) {
    if env.is_null() {
        return;
    }
    let text = |p: *const c_char| {
        // SAFETY: fmu-core passes NUL-terminated strings that live for the duration of the call.
        if p.is_null() { "(null)".to_string() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() }
    };
    // SAFETY: `env` is the `componentEnvironment` we registered: a `Messages` owned by the test
    // harness, which outlives the instance (the instance is freed before the messages).
    let log = unsafe { &*(env as *const Messages) };
    let line = format!("[{}] {status} {}: {}", text(instance), text(category), text(message));
    log.lock().unwrap_or_else(|e| e.into_inner()).push(line);
}

/// [`record`] as an `fmi2CallbackLogger`.
fn logger() -> CallbackLogger {
    type Plain = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: fmu-core always calls the logger with exactly these five arguments and a message
    // with `%` escaped, so no variadic argument is ever read; on x86-64 SysV (and AArch64) a
    // non-variadic callee with the same fixed parameters is call-compatible (the caller's
    // vector-register count in %al is simply ignored). ctypes-based importers such as FMPy pass
    // non-variadic callbacks the same way.
    unsafe { std::mem::transmute::<Plain, CallbackLogger>(record) }
}

/// Calls `fmi2Instantiate` for model `M`; returns the component (possibly null) and the log.
fn instantiate<M: Model>(name: Option<&str>, fmu_type: c_int, guid: &str) -> (Component, Box<Messages>) {
    instantiate_at::<M>(name, fmu_type, guid, c"file:///tmp")
}

/// [`instantiate`] with this `fmuResourceLocation`.
fn instantiate_at<M: Model>(
    name: Option<&str>,
    fmu_type: c_int,
    guid: &str,
    resources: &CStr,
) -> (Component, Box<Messages>) {
    let log: Box<Messages> = Box::default();
    let callbacks = CallbackFunctions {
        logger: Some(logger()),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: &*log as *const Messages as *mut c_void,
    };
    let name = name.map(|n| CString::new(n).unwrap());
    let guid = CString::new(guid).unwrap();
    // SAFETY: all strings are NUL-terminated or null, `callbacks` is valid for the call (it is
    // copied), and `log` (the environment) outlives the instance (see `Fmu::drop`).
    let c = unsafe {
        abi::instantiate::<Instance<M>>(
            name.as_ref().map_or(null(), |n| n.as_ptr()),
            fmu_type,
            guid.as_ptr(),
            resources.as_ptr(),
            &callbacks,
            0,
            0,
        )
    };
    (c, log)
}

/// A live instance of `M` created through the ABI, freed on drop.
struct Fmu<M: Model> {
    c: Component,
    log: Box<Messages>,
    _model: PhantomData<M>,
}

impl<M: Model> Fmu<M> {
    fn new() -> Self {
        let (c, log) = instantiate::<M>(Some("abi-test"), CO_SIMULATION, &fmu_core::guid::<M>());
        assert!(!c.is_null(), "instantiate failed: {:?}", log.lock().unwrap());
        Fmu { c, log, _model: PhantomData }
    }

    /// A new instance, initialized at t = 0.
    fn initialized() -> Self {
        let fmu = Self::new();
        // SAFETY: `fmu.c` is a live component of model `M`.
        unsafe {
            assert_eq!(abi::setup_experiment::<Instance<M>>(fmu.c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(abi::enter_initialization_mode::<Instance<M>>(fmu.c), OK);
            assert_eq!(abi::exit_initialization_mode::<Instance<M>>(fmu.c), OK);
        }
        fmu
    }

    fn messages(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    #[track_caller]
    fn assert_logged(&self, needles: &[&str]) {
        let messages = self.messages();
        assert!(
            messages.iter().any(|m| needles.iter().all(|n| m.contains(n))),
            "no message with {needles:?} in {messages:?}"
        );
    }

    fn get_real(&self, vrs: &[u32]) -> Vec<f64> {
        let mut v = vec![f64::NAN; vrs.len()];
        // SAFETY: live component; arrays of `vrs.len()` elements.
        let status = unsafe { abi::get_real::<Instance<M>>(self.c, vrs.as_ptr(), vrs.len(), v.as_mut_ptr()) };
        assert_eq!(status, OK, "{:?}", self.messages());
        v
    }

    fn set_real(&self, vrs: &[u32], values: &[f64]) -> c_int {
        assert_eq!(vrs.len(), values.len());
        // SAFETY: live component; arrays of `vrs.len()` elements.
        unsafe { abi::set_real::<Instance<M>>(self.c, vrs.as_ptr(), vrs.len(), values.as_ptr()) }
    }

    fn do_step(&self, t: f64, h: f64) -> c_int {
        // SAFETY: live component.
        unsafe { abi::do_step::<Instance<M>>(self.c, t, h, 0) }
    }
}

impl<M: Model> Drop for Fmu<M> {
    fn drop(&mut self) {
        // SAFETY: `c` came from `instantiate::<M>` and is freed exactly once, before `log`.
        unsafe { abi::free_instance::<Instance<M>>(self.c) };
    }
}

#[test]
fn wrong_guid_is_refused_and_named() {
    let (c, log) = instantiate::<MassSpringDamper>(Some("x"), CO_SIMULATION, "{not-the-guid}");
    assert!(c.is_null());
    let log = log.lock().unwrap();
    assert!(log.iter().any(|m| m.contains("{not-the-guid}") && m.contains("GUID") && m.contains(" 3 ")), "{log:?}");
    // The other model's GUID is also refused.
    let (c, log) = instantiate::<MassSpringDamper>(Some("x"), CO_SIMULATION, &fmu_core::guid::<Decay>());
    assert!(c.is_null());
    assert!(log.lock().unwrap().iter().any(|m| m.contains(&*fmu_core::guid::<Decay>())));
}

#[test]
fn null_instance_name_is_refused() {
    let (c, log) = instantiate::<MassSpringDamper>(None, CO_SIMULATION, &fmu_core::guid::<MassSpringDamper>());
    assert!(c.is_null());
    let log = log.lock().unwrap();
    assert!(log.iter().any(|m| m.contains("instance name is null")), "{log:?}");
}

#[test]
fn null_guid_and_null_callbacks_are_refused() {
    let guid = CString::new(&*fmu_core::guid::<MassSpringDamper>()).unwrap();
    // SAFETY: null callbacks must be detected before anything is dereferenced.
    let c = unsafe {
        abi::instantiate::<Instance<MassSpringDamper>>(
            c"n".as_ptr(),
            CO_SIMULATION,
            guid.as_ptr(),
            null(),
            null(),
            0,
            0,
        )
    };
    assert!(c.is_null());
    // Callbacks without a logger: refused quietly, no crash.
    let callbacks = CallbackFunctions {
        logger: None,
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: null_mut(),
    };
    // SAFETY: valid strings and callbacks; the wrong GUID is reported to a logger that is absent.
    let c = unsafe {
        abi::instantiate::<Instance<MassSpringDamper>>(
            c"n".as_ptr(),
            CO_SIMULATION,
            c"{}".as_ptr(),
            null(),
            &callbacks,
            0,
            0,
        )
    };
    assert!(c.is_null());
    // Null GUID.
    let log: Box<Messages> = Box::default();
    let callbacks = CallbackFunctions {
        logger: Some(logger()),
        component_environment: &*log as *const Messages as *mut c_void,
        ..callbacks
    };
    // SAFETY: as above; `log` outlives the call.
    let c = unsafe {
        abi::instantiate::<Instance<MassSpringDamper>>(c"n".as_ptr(), CO_SIMULATION, null(), null(), &callbacks, 0, 0)
    };
    assert!(c.is_null());
    assert!(log.lock().unwrap().iter().any(|m| m.contains("GUID is null")));
}

#[test]
fn null_component_is_an_error_everywhere() {
    type M = MassSpringDamper;
    let c: Component = null_mut();
    let vrs = [vr::X];
    let (mut r, mut i, mut b, mut size) = ([0.0], [0], [0], 0usize);
    let mut state: FmuStatePtr = null_mut();
    let mut bytes = [0 as c_char; 16];
    // SAFETY: every function must check for a null component before touching anything else; all
    // other pointers are valid anyway.
    let statuses = unsafe {
        abi::free_instance::<Instance<M>>(c); // returns nothing; must not crash
        [
            ("SetDebugLogging", abi::set_debug_logging::<Instance<M>>(c, 1, 0, null())),
            ("SetupExperiment", abi::setup_experiment::<Instance<M>>(c, 0, 0.0, 0.0, 0, 0.0)),
            ("EnterInitializationMode", abi::enter_initialization_mode::<Instance<M>>(c)),
            ("ExitInitializationMode", abi::exit_initialization_mode::<Instance<M>>(c)),
            ("Terminate", abi::terminate::<Instance<M>>(c)),
            ("Reset", abi::reset::<Instance<M>>(c)),
            ("CancelStep", abi::cancel_step::<Instance<M>>(c)),
            ("SetReal", abi::set_real::<Instance<M>>(c, vrs.as_ptr(), 1, r.as_ptr())),
            ("SetInteger", abi::set_integer::<Instance<M>>(c, vrs.as_ptr(), 1, i.as_ptr())),
            ("SetBoolean", abi::set_boolean::<Instance<M>>(c, vrs.as_ptr(), 1, b.as_ptr())),
            ("SetString", abi::set_string::<Instance<M>>(c, vrs.as_ptr(), 0, null())),
            ("GetReal", abi::get_real::<Instance<M>>(c, vrs.as_ptr(), 1, r.as_mut_ptr())),
            ("GetInteger", abi::get_integer::<Instance<M>>(c, vrs.as_ptr(), 1, i.as_mut_ptr())),
            ("GetBoolean", abi::get_boolean::<Instance<M>>(c, vrs.as_ptr(), 1, b.as_mut_ptr())),
            ("GetString", abi::get_string::<Instance<M>>(c, vrs.as_ptr(), 0, null_mut())),
            ("GetFMUstate", abi::get_fmu_state::<Instance<M>>(c, &mut state)),
            ("SetFMUstate", abi::set_fmu_state::<Instance<M>>(c, state)),
            ("FreeFMUstate", abi::free_fmu_state::<Instance<M>>(c, &mut state)),
            ("SerializedFMUstateSize", abi::serialized_fmu_state_size::<Instance<M>>(c, state, &mut size)),
            ("SerializeFMUstate", abi::serialize_fmu_state::<Instance<M>>(c, state, bytes.as_mut_ptr(), bytes.len())),
            (
                "DeSerializeFMUstate",
                abi::deserialize_fmu_state::<Instance<M>>(c, bytes.as_ptr(), bytes.len(), &mut state),
            ),
            (
                "GetDirectionalDerivative",
                abi::get_directional_derivative::<Instance<M>>(
                    c,
                    vrs.as_ptr(),
                    1,
                    [vr::F].as_ptr(),
                    1,
                    [1.0].as_ptr(),
                    r.as_mut_ptr(),
                ),
            ),
            (
                "SetRealInputDerivatives",
                abi::set_real_input_derivatives::<Instance<M>>(c, [vr::F].as_ptr(), 1, [1].as_ptr(), [1.0].as_ptr()),
            ),
            (
                "GetRealOutputDerivatives",
                abi::get_real_output_derivatives::<Instance<M>>(c, vrs.as_ptr(), 1, [1].as_ptr(), r.as_mut_ptr()),
            ),
            ("DoStep", abi::do_step::<Instance<M>>(c, 0.0, 0.1, 0)),
            ("GetStatus", abi::get_status::<Instance<M>>(c, 0, null_mut())),
            ("GetRealStatus", abi::get_real_status::<Instance<M>>(c, 2, r.as_mut_ptr())),
            ("GetBooleanStatus", abi::get_boolean_status::<Instance<M>>(c, 3, b.as_mut_ptr())),
            ("GetIntegerStatus", abi::get_other_status::<Instance<M>>(c, "fmi2GetIntegerStatus", 0)),
            ("GetStringStatus", abi::get_other_status::<Instance<M>>(c, "fmi2GetStringStatus", 0)),
        ]
    };
    for (function, status) in statuses {
        assert_eq!(status, ERROR, "fmi2{function}(NULL, ...)");
    }
    assert!(state.is_null());
}

#[test]
fn null_arrays_are_refused_with_a_message() {
    let fmu = Fmu::<MassSpringDamper>::initialized();
    let mut out = [0.0; 2];
    // SAFETY: live component; the null array must be detected, `out` is valid.
    let status = unsafe { abi::get_real::<Instance<MassSpringDamper>>(fmu.c, null(), 2, out.as_mut_ptr()) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["fmi2GetReal", "value reference array is a null pointer"]);

    let fmu = Fmu::<MassSpringDamper>::initialized();
    // SAFETY: as above, the value array is null.
    let status = unsafe { abi::set_real::<Instance<MassSpringDamper>>(fmu.c, [vr::F].as_ptr(), 1, null()) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["fmi2SetReal", "value array is a null pointer"]);

    // n = 0 with null arrays is a legal no-op.
    let fmu = Fmu::<MassSpringDamper>::initialized();
    // SAFETY: n = 0, so no array is read.
    let status = unsafe { abi::get_real::<Instance<MassSpringDamper>>(fmu.c, null(), 0, null_mut()) };
    assert_eq!(status, OK);
}

#[test]
fn unknown_value_reference_is_refused_with_a_message() {
    let fmu = Fmu::<MassSpringDamper>::initialized();
    let mut out = [0.0];
    // SAFETY: live component, arrays of one element.
    let status = unsafe { abi::get_real::<Instance<MassSpringDamper>>(fmu.c, [777].as_ptr(), 1, out.as_mut_ptr()) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["[abi-test] 3 logStatusError", "fmi2GetReal", "unknown value reference 777"]);
}

#[test]
fn negative_step_is_refused_with_a_message() {
    let fmu = Fmu::<MassSpringDamper>::initialized();
    assert_eq!(fmu.do_step(0.0, -0.5), ERROR);
    fmu.assert_logged(&["fmi2DoStep", "-0.5", "must be positive"]);
}

#[test]
fn do_step_before_initialization_is_an_illegal_call_sequence() {
    let fmu = Fmu::<MassSpringDamper>::new();
    assert_eq!(fmu.do_step(0.0, 0.1), ERROR);
    fmu.assert_logged(&["fmi2DoStep", "illegal call sequence"]);
}

#[test]
fn lifecycle_and_values_through_the_abi() {
    type M = MassSpringDamper;
    let fmu = Fmu::<M>::new();
    // SAFETY: live component, arrays of the given lengths.
    unsafe {
        assert_eq!(abi::setup_experiment::<Instance<M>>(fmu.c, 1, 1e-6, 0.0, 1, 5.0), OK);
        assert_eq!(abi::set_integer::<Instance<M>>(fmu.c, [vr::SPRINGS].as_ptr(), 1, [2].as_ptr()), OK);
        assert_eq!(abi::set_boolean::<Instance<M>>(fmu.c, [vr::DAMPING].as_ptr(), 1, [0].as_ptr()), OK);
        assert_eq!(abi::enter_initialization_mode::<Instance<M>>(fmu.c), OK);
        assert_eq!(abi::exit_initialization_mode::<Instance<M>>(fmu.c), OK);
        let (mut n, mut flag) = ([0], [1]);
        assert_eq!(abi::get_integer::<Instance<M>>(fmu.c, [vr::SPRINGS].as_ptr(), 1, n.as_mut_ptr()), OK);
        assert_eq!(abi::get_boolean::<Instance<M>>(fmu.c, [vr::DAMPING].as_ptr(), 1, flag.as_mut_ptr()), OK);
        assert_eq!((n, flag), ([2], [0]));
        // Integer out of range through the ABI.
        assert_eq!(abi::set_integer::<Instance<M>>(fmu.c, [vr::SPRINGS].as_ptr(), 1, [99].as_ptr()), ERROR);
    }
    fmu.assert_logged(&["fmi2SetInteger", "99", "outside [1, 8]"]);
    let fmu = Fmu::<M>::initialized();
    assert_eq!(fmu.set_real(&[vr::F], &[2.0]), OK);
    let y = fmu.get_real(&[vr::X, vr::V, vr::A]);
    assert_eq!(y, [d::X0, d::V0, (2.0 - d::K * d::X0 - d::C * d::V0) / d::M]);
    assert_eq!(fmu.set_real(&[vr::X], &[2.0]), ERROR);
    fmu.assert_logged(&["fmi2SetReal", "'x'"]);
    let fmu = Fmu::<M>::initialized();
    assert_eq!(fmu.do_step(0.0, 0.1), OK);
    // SAFETY: live component.
    unsafe {
        assert_eq!(abi::terminate::<Instance<M>>(fmu.c), OK);
        assert_eq!(abi::reset::<Instance<M>>(fmu.c), OK);
    }
}

#[test]
fn debug_logging_categories() {
    type M = MassSpringDamper;
    let fmu = Fmu::<M>::new();
    let all = [c"logEvents".as_ptr()];
    // SAFETY: live component; one valid category string.
    unsafe {
        assert_eq!(abi::set_debug_logging::<Instance<M>>(fmu.c, 1, 1, all.as_ptr()), OK);
        assert_eq!(abi::setup_experiment::<Instance<M>>(fmu.c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(abi::enter_initialization_mode::<Instance<M>>(fmu.c), OK);
    }
    fmu.assert_logged(&["[abi-test] 0 logEvents", "entered initialization mode"]);
    let bad = [c"logNothing".as_ptr()];
    // SAFETY: as above.
    let status = unsafe { abi::set_debug_logging::<Instance<M>>(fmu.c, 1, 1, bad.as_ptr()) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["unknown log category 'logNothing'"]);
}

#[test]
fn version_and_types_platform() {
    assert_eq!(abi::VERSION.to_str().unwrap(), "2.0");
    assert_eq!(abi::TYPES_PLATFORM.to_str().unwrap(), "default");
}

#[test]
fn cancel_step_is_an_error() {
    let fmu = Fmu::<MassSpringDamper>::initialized();
    assert_eq!(fmu.do_step(0.0, 0.1), OK);
    // SAFETY: live component.
    assert_eq!(unsafe { abi::cancel_step::<Instance<MassSpringDamper>>(fmu.c) }, ERROR);
    fmu.assert_logged(&["fmi2CancelStep"]);
}

#[test]
fn status_queries() {
    type M = MassSpringDamper;
    let fmu = Fmu::<M>::initialized();
    for i in 0..3 {
        assert_eq!(fmu.do_step(i as f64 * 0.2, 0.2), OK);
    }
    let (mut t, mut terminated) = (f64::NAN, 1);
    // SAFETY: live component, valid out-pointers.
    unsafe {
        assert_eq!(abi::get_real_status::<Instance<M>>(fmu.c, 2, &mut t), OK); // fmi2LastSuccessfulTime
        assert_eq!(abi::get_boolean_status::<Instance<M>>(fmu.c, 3, &mut terminated), OK); // fmi2Terminated
    }
    assert!((t - 0.6).abs() < 1e-15, "t = {t}");
    assert_eq!(terminated, 0);
    // Other kinds do not exist for synchronous steps.
    // SAFETY: live component; the status kind is refused before `value` is used.
    assert_eq!(unsafe { abi::get_real_status::<Instance<M>>(fmu.c, 0, &mut t) }, ERROR);
    fmu.assert_logged(&["fmi2GetRealStatus", "status kind 0"]);
}

#[test]
fn panic_in_model_becomes_fmi2_error_and_the_host_survives() {
    type M = Decay;
    let fmu = Fmu::<M>::new();
    // SAFETY: live component; one-element arrays.
    unsafe {
        assert_eq!(abi::set_boolean::<Instance<M>>(fmu.c, [decay_vr::PANIC].as_ptr(), 1, [1].as_ptr()), OK);
        assert_eq!(abi::setup_experiment::<Instance<M>>(fmu.c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(abi::enter_initialization_mode::<Instance<M>>(fmu.c), OK);
        assert_eq!(abi::exit_initialization_mode::<Instance<M>>(fmu.c), OK);
    }
    let mut y = [f64::NAN];
    // SAFETY: live component; `outputs` panics inside, which must not unwind across this call.
    let status = unsafe { abi::get_real::<Instance<M>>(fmu.c, [decay_vr::Y].as_ptr(), 1, y.as_mut_ptr()) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["3 logStatusError", "fmi2GetReal", "panic", "panics on request"]);
    // The instance is in Error: stepping is an illegal call sequence, reset recovers.
    assert_eq!(fmu.do_step(0.0, 0.1), ERROR);
    fmu.assert_logged(&["fmi2DoStep", "illegal call sequence"]);
    // SAFETY: live component.
    unsafe {
        assert_eq!(abi::reset::<Instance<M>>(fmu.c), OK);
        assert_eq!(abi::setup_experiment::<Instance<M>>(fmu.c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(abi::enter_initialization_mode::<Instance<M>>(fmu.c), OK);
        assert_eq!(abi::exit_initialization_mode::<Instance<M>>(fmu.c), OK);
    }
    assert_eq!(fmu.do_step(0.0, 0.1), OK);
    let y = fmu.get_real(&[decay_vr::Y]);
    assert!((y[0] - (-0.1_f64).exp()).abs() < 1e-8, "{y:?}");
}

#[test]
fn percent_signs_in_messages_are_escaped() {
    // The logger's message is a printf format: a '%' from an error text must arrive as "%%".
    let fmu = Fmu::<MassSpringDamper>::new();
    // SAFETY: live component; the category string is valid.
    let status =
        unsafe { abi::set_debug_logging::<Instance<MassSpringDamper>>(fmu.c, 1, 1, [c"100%s".as_ptr()].as_ptr()) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["'100%%s'"]);
}
