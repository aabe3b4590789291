//! FMI status codes, the importer's logger interface, and the per-instance logger environment
//! the C shim (`logger.c`) reports to.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub use fmi2_types::Status;

/// How much a message of this status says about a failure (Pending ranks with Ok).
fn severity(status: Status) -> u8 {
    match status {
        Status::Ok | Status::Pending => 0,
        Status::Warning => 1,
        Status::Discard => 2,
        Status::Error => 3,
        Status::Fatal => 4,
    }
}

/// Receives the messages FMU instances log through `fmi2CallbackLogger`, already formatted.
///
/// Called on the thread that called into the FMU (or, for an FMU that logs from threads of its
/// own, on those), possibly for several instances at once, hence `Send + Sync`.
pub trait FmuLogger: Send + Sync {
    /// One message of instance `instance`.
    fn log(&self, instance: &str, status: Status, category: &str, message: &str);

    /// Whether instances are created with `loggingOn = fmi2True` (debug messages for all
    /// categories). Off by default: errors and warnings are logged either way by FMUs that follow
    /// the standard's advice, and debug logging costs time on every step.
    fn debug_logging(&self) -> bool {
        false
    }
}

/// The `log` target of the FMU messages [`FacadeLogger`] passes on: their text names the FMI
/// status itself, so a program's logger can print them without a level prefix of its own.
pub const FMU_LOG_TARGET: &str = "fmu";

/// Passes warnings and errors (every message when verbose) to the `log` facade as
/// `[fmi2Error] instance (category): message`, with target [`FMU_LOG_TARGET`] and the level of
/// the status ([`log_level`]); the program's logger decides where they go (the `orchestrator`
/// prints them on standard error as they are).
#[derive(Debug, Clone, Copy, Default)]
pub struct FacadeLogger {
    /// Pass on every message and instantiate with debug logging on.
    pub verbose: bool,
}

impl FacadeLogger {
    /// A logger passing on warnings and errors, or everything when `verbose`.
    pub fn new(verbose: bool) -> FacadeLogger {
        FacadeLogger { verbose }
    }
}

/// The `log` level of an FMU message of this status: `Error` for fmi2Error and fmi2Fatal, `Warn`
/// for fmi2Warning and fmi2Discard, `Info` for fmi2OK and fmi2Pending (passed on only when
/// verbose, and `Info` so that a logger at the usual level shows what was asked for).
pub fn log_level(status: Status) -> log::Level {
    match status {
        Status::Error | Status::Fatal => log::Level::Error,
        Status::Warning | Status::Discard => log::Level::Warn,
        Status::Ok | Status::Pending => log::Level::Info,
    }
}

impl FmuLogger for FacadeLogger {
    fn log(&self, instance: &str, status: Status, category: &str, message: &str) {
        if self.verbose || severity(status) >= severity(Status::Warning) {
            log::log!(target: FMU_LOG_TARGET, log_level(status), "[{status}] {instance} ({category}): {message}");
        }
    }

    fn debug_logging(&self) -> bool {
        self.verbose
    }
}

/// The Rust side of the C shim: `(env, instance, status, category, formatted message)`.
type SinkFn = extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);

/// The most telling message logged during the current call.
struct Captured {
    /// Sequence number of `text` (0: none yet).
    seq: u64,
    /// Its status.
    status: Status,
    /// The message; the buffer is reused, so steady logging does not allocate.
    text: String,
}

/// The `componentEnvironment` of one instance: forwards messages to the [`FmuLogger`] and keeps
/// the most severe message of the current call for the error that call may return.
///
/// `#[repr(C)]` with the sink first: `logger.c` reads that field through the `void*`.
#[repr(C)]
pub(crate) struct LoggerEnv {
    sink: SinkFn,
    logger: Arc<dyn FmuLogger>,
    /// Number of messages logged so far.
    seq: AtomicU64,
    /// `seq` when the current call began.
    call_start: AtomicU64,
    captured: Mutex<Captured>,
}

impl LoggerEnv {
    /// A boxed environment (its address is handed to the FMU and must not move).
    pub(crate) fn new(logger: Arc<dyn FmuLogger>) -> Box<LoggerEnv> {
        Box::new(LoggerEnv {
            sink,
            logger,
            seq: AtomicU64::new(0),
            call_start: AtomicU64::new(0),
            captured: Mutex::new(Captured { seq: 0, status: Status::Ok, text: String::new() }),
        })
    }

    /// Marks the start of a call into the FMU; returns the mark for [`Self::message_since`].
    /// Two atomic operations, no allocation.
    #[inline]
    pub(crate) fn begin_call(&self) -> u64 {
        let mark = self.seq.load(Ordering::Acquire);
        self.call_start.store(mark, Ordering::Release);
        mark
    }

    /// The most severe (latest among equals) message logged since `mark`, if any.
    pub(crate) fn message_since(&self, mark: u64) -> Option<String> {
        let captured = self.lock();
        (captured.seq > mark).then(|| captured.text.clone())
    }

    fn lock(&self) -> MutexGuard<'_, Captured> {
        self.captured.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn record(&self, instance: &str, status: Status, category: &str, message: &str) {
        let seq = self.seq.fetch_add(1, Ordering::AcqRel) + 1;
        {
            let mut captured = self.lock();
            let stale = captured.seq <= self.call_start.load(Ordering::Acquire);
            if stale || severity(status) >= severity(captured.status) {
                captured.seq = seq;
                captured.status = status;
                captured.text.clear();
                captured.text.push_str(message);
            }
        }
        self.logger.log(instance, status, category, message);
    }
}

/// Turns a C string argument into text (`""` for null).
///
/// # Safety
/// `s` must be null or NUL-terminated and valid for the duration of the call.
unsafe fn text<'a>(s: *const c_char) -> std::borrow::Cow<'a, str> {
    if s.is_null() {
        "".into()
    } else {
        // SAFETY: non-null and NUL-terminated by the caller's contract.
        unsafe { CStr::from_ptr(s) }.to_string_lossy()
    }
}

/// Called by `rotorcraft_fmi2_logger` (C) with the formatted message.
extern "C" fn sink(
    env: *mut c_void,
    instance: *const c_char,
    status: c_int,
    category: *const c_char,
    message: *const c_char,
) {
    // A panicking FmuLogger must not unwind into C (that would abort the process).
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if env.is_null() {
            return;
        }
        // SAFETY: `env` is the componentEnvironment we passed to fmi2Instantiate: a pointer to a
        // boxed `LoggerEnv` that the owning `Slave` keeps alive until after fmi2FreeInstance
        // returned, so it is valid whenever the FMU can log. Only shared access is taken.
        let env = unsafe { &*(env as *const LoggerEnv) };
        // SAFETY: the shim passes the FMU's strings (null or NUL-terminated, valid during the
        // logger call) and its own formatted buffer.
        let (instance, category, message) = unsafe { (text(instance), text(category), text(message)) };
        let status = Status::from_code(status).unwrap_or(Status::Error);
        env.record(&instance, status, &category, &message);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nothing;
    impl FmuLogger for Nothing {
        fn log(&self, _: &str, _: Status, _: &str, _: &str) {}
    }

    #[test]
    fn the_most_severe_message_of_the_call_wins() {
        let env = LoggerEnv::new(Arc::new(Nothing));
        env.record("a", Status::Error, "c", "old error");
        let mark = env.begin_call();
        assert_eq!(env.message_since(mark), None, "messages of earlier calls do not count");
        env.record("a", Status::Ok, "c", "event");
        assert_eq!(env.message_since(mark).as_deref(), Some("event"));
        env.record("a", Status::Error, "c", "the reason");
        env.record("a", Status::Warning, "c", "a later warning");
        assert_eq!(env.message_since(mark).as_deref(), Some("the reason"));
        let mark = env.begin_call();
        env.record("a", Status::Warning, "c", "next call");
        assert_eq!(env.message_since(mark).as_deref(), Some("next call"));
    }

    #[test]
    fn statuses_map_to_log_levels_by_severity() {
        use log::Level;
        let levels = [Status::Ok, Status::Pending, Status::Warning, Status::Discard, Status::Error, Status::Fatal]
            .map(log_level);
        let expected = [Level::Info, Level::Info, Level::Warn, Level::Warn, Level::Error, Level::Error];
        assert_eq!(levels, expected);
    }

    #[test]
    fn status_codes_round_trip() {
        for code in 0..6 {
            let status = Status::from_code(code).unwrap();
            assert_eq!(status as c_int, code);
        }
        assert_eq!(Status::from_code(6), None);
        assert_eq!(Status::Error.to_string(), "fmi2Error");
    }
}
