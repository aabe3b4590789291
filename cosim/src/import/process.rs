//! What the process knows about the FMI call in progress, and the three things that read it:
//! the fatal-signal reporter, the Ctrl-C/SIGTERM flag and the `--fmu-timeout` watchdog, and
//! [`signal_process_group`] and [`end_with_parent`], with which a sweep ends its points. All the signal handling of the
//! toolkit is here (the only `unsafe` outside the FMI calls themselves).
//!
//! **The current call.** [`Slave`](super::Slave) marks each FMI call on entry (`enter`: the
//! instance, the function, the simulation time, a sequence number) and on return (the
//! `CallGuard` it holds is dropped). The record is a handful of relaxed atomic stores into
//! static memory, no clock read and no allocation; instance names are interned once per
//! instantiation (`intern`), so the record only ever points at `'static` text. Each thread that
//! calls FMUs (the master's and its workers, see `master/parallel.rs`) has a record of its own
//! (`SLOTS` of them; more threads share them), so a call stuck in one thread is seen while
//! another thread's calls come and go.
//!
//! **Fatal signals** ([`install_crash_reporter`]). SIGSEGV, SIGABRT, SIGBUS, SIGFPE or SIGILL print
//! one line on stderr with `write(2)` from a stack buffer (async-signal-safe): the instance, the
//! FMI function and the time of the call in progress, or that no FMU call was in progress. Then the
//! hook of [`set_crash_hook`] runs (the CLI writes out the CSV rows computed so far, without
//! allocating), the previous action is restored (Rust's stack-overflow reporter for SIGSEGV/SIGBUS,
//! else the default) and the signal raised again, so the process still dies of it (core dump and
//! exit status as without the reporter).
//!
//! **`exit()` inside an FMU call.** An `atexit` handler, registered with the reporter, prints one
//! line naming the call in progress, runs the hook (the CLI writes the CSV rows and a summary) and
//! removes the extracted FMU folders; an exit outside any FMU call (the normal end) does nothing.
//!
//! **Interrupts** ([`install_interrupt_flag`]). The first SIGINT or SIGTERM sets a flag that
//! [`crate::master::Master`] checks before every step (one relaxed load), so the run ends through
//! the normal error path: results written, FMU instances freed, extracted folders removed. A
//! second one while the first is pending ends the process at once (default action), for an FMU
//! that never returns.
//!
//! **Timeouts** ([`start_watchdog`]). A thread samples the record; when the same call has been in
//! progress for longer than the limit it prints what is stuck, runs the caller's hook (the CLI
//! flushes its result file), removes the extracted FMU folders and ends the process with `_exit(124)`
//! (no `atexit` handlers or library destructors run while the stuck FMU is still executing).

use std::cell::Cell;
use std::collections::HashSet;
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// One thread's record of its FMI call in progress.
struct Record {
    /// A call is in progress (between [`enter`] and the drop of its [`CallGuard`]).
    in_call: AtomicBool,
    /// Incremented at every [`enter`]: the watchdog sees progress as a change.
    sequence: AtomicU64,
    /// The instance name, a `&'static str` packed as `pointer << 16 | length` (see [`pack`]).
    instance: AtomicU64,
    /// The FMI function name, packed the same way.
    function: AtomicU64,
    /// The simulation time of the call, `f64` bits.
    time: AtomicU64,
}

impl Record {
    const fn new() -> Record {
        Record {
            in_call: AtomicBool::new(false),
            sequence: AtomicU64::new(0),
            instance: AtomicU64::new(0),
            function: AtomicU64::new(0),
            time: AtomicU64::new(0),
        }
    }

    /// The call in progress: (instance, function, time), if any.
    fn call(&self) -> Option<(&'static str, &'static str, f64)> {
        if !self.in_call.load(Ordering::Acquire) {
            return None;
        }
        Some((
            unpack(self.instance.load(Ordering::Relaxed)),
            unpack(self.function.load(Ordering::Relaxed)),
            f64::from_bits(self.time.load(Ordering::Relaxed)),
        ))
    }
}

/// Records of the threads that call FMUs.
const SLOTS: usize = 8;
static RECORDS: [Record; SLOTS] = [const { Record::new() }; SLOTS];
/// The record the next thread to call an FMU gets (modulo [`SLOTS`]).
static NEXT_RECORD: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's record, `usize::MAX` until its first call (const, no destructor: readable
    /// from a signal handler).
    static MY_RECORD: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// This thread's record.
fn my_record() -> &'static Record {
    let slot = MY_RECORD.with(|slot| {
        if slot.get() == usize::MAX {
            slot.set(NEXT_RECORD.fetch_add(1, Ordering::Relaxed) % SLOTS);
        }
        slot.get()
    });
    &RECORDS[slot]
}

/// A `&'static str` in one word, so that a reader never pairs the pointer of one string with the
/// length of another: user-space addresses fit in 48 bits on the 64-bit platforms we build for;
/// names longer than 65 535 bytes are cut (the cut is made on a character boundary).
fn pack(text: &'static str) -> u64 {
    let mut len = text.len().min(0xffff);
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    let pointer = text.as_ptr() as u64;
    if pointer >> 48 != 0 {
        return 0;
    }
    (pointer << 16) | len as u64
}

fn unpack(word: u64) -> &'static str {
    if word == 0 {
        return "?";
    }
    let (pointer, len) = ((word >> 16) as *const u8, (word & 0xffff) as usize);
    // SAFETY: `word` was made by `pack` from a `&'static str` (interned names are leaked, function
    // names are literals), cut on a character boundary: the bytes live forever and are UTF-8.
    unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(pointer, len)) }
}

/// `name` as a `&'static str`, leaked once per distinct name (instances are named by the system,
/// so the set stays small even when an iteration instantiates the same names again and again).
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    let names = names.get_or_insert_with(HashSet::new);
    if let Some(&known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    leaked
}

/// Marks an FMI call in progress until dropped.
#[must_use = "the call is marked in progress until the guard is dropped"]
pub(crate) struct CallGuard(&'static Record);

impl Drop for CallGuard {
    #[inline]
    fn drop(&mut self) {
        self.0.in_call.store(false, Ordering::Release);
    }
}

/// Records that `function` of `instance` is called at simulation time `time`.
#[inline]
pub(crate) fn enter(instance: &'static str, function: &'static str, time: f64) -> CallGuard {
    let record = my_record();
    record.instance.store(pack(instance), Ordering::Relaxed);
    record.function.store(pack(function), Ordering::Relaxed);
    record.time.store(time.to_bits(), Ordering::Relaxed);
    // Not a read-modify-write: one thread writes a record (threads beyond SLOTS share one; a
    // lost increment then only delays the watchdog by one sample).
    record.sequence.store(record.sequence.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
    record.in_call.store(true, Ordering::Release);
    CallGuard(record)
}

/// The call in progress in this thread: (instance, function, time), if any.
pub fn current_call() -> Option<(&'static str, &'static str, f64)> {
    let slot = MY_RECORD.with(Cell::get);
    RECORDS.get(slot).and_then(Record::call)
}

/// `time` as the messages print it: up to 9 decimals, trailing zeros dropped (`0.3` for
/// 0.30000000000000004).
pub fn time_text(time: f64) -> String {
    let mut line = Line::new();
    line.push_time(time);
    String::from_utf8_lossy(&line.bytes[..line.len]).into_owned()
}

/// The usual name of signal `signal` (`SIGSEGV`), or `signal`.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGKILL => "SIGKILL",
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        _ => "signal",
    }
}

// ---------------------------------------------------------------------------------------------
// Fatal signals.

const FATAL: [c_int; 5] = [libc::SIGSEGV, libc::SIGABRT, libc::SIGBUS, libc::SIGFPE, libc::SIGILL];

/// The actions in place before [`install_crash_reporter`], restored before re-raising.
static PREVIOUS: OnceLock<Vec<(c_int, libc::sigaction)>> = OnceLock::new();

/// A line assembled in a stack buffer, without allocation (usable in a signal handler).
struct Line {
    bytes: [u8; 1024],
    len: usize,
}

impl Line {
    fn new() -> Self {
        Line { bytes: [0; 1024], len: 0 }
    }

    fn push(&mut self, text: &str) -> &mut Self {
        let n = text.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + n].copy_from_slice(&text.as_bytes()[..n]);
        self.len += n;
        self
    }

    fn push_u64(&mut self, mut value: u64, min_digits: usize) -> &mut Self {
        let mut digits = [0u8; 20];
        let mut n = 0;
        while value > 0 || n < min_digits.max(1) {
            digits[n] = b'0' + (value % 10) as u8;
            value /= 10;
            n += 1;
        }
        for k in (0..n).rev() {
            if self.len < self.bytes.len() {
                self.bytes[self.len] = digits[k];
                self.len += 1;
            }
        }
        self
    }

    /// `value` with up to 9 decimals, trailing zeros dropped (0.30000000000000004 is `0.3`).
    fn push_time(&mut self, value: f64) -> &mut Self {
        if !value.is_finite() || value.abs() >= 1e15 {
            return self.push(if value.is_nan() { "NaN" } else { "a huge or infinite time" });
        }
        if value < 0.0 {
            self.push("-");
        }
        let scaled = (value.abs() * 1e9).round() as u64;
        let (whole, mut fraction) = (scaled / 1_000_000_000, scaled % 1_000_000_000);
        self.push_u64(whole, 1);
        if fraction > 0 {
            let mut digits = 9;
            while fraction % 10 == 0 {
                fraction /= 10;
                digits -= 1;
            }
            self.push(".").push_u64(fraction, digits);
        }
        self
    }

    fn write_to_stderr(&self) {
        // SAFETY: write(2) is async-signal-safe; the buffer is valid for `len` bytes.
        let _ = unsafe { libc::write(2, self.bytes.as_ptr().cast(), self.len) };
    }
}

/// Writes the one-line report of fatal signal `signal` into `line`.
fn fatal_report(line: &mut Line, signal: c_int, call: Option<(&str, &str, f64)>) {
    line.push("fatal signal ").push(signal_name(signal));
    match call {
        Some((instance, function, time)) => {
            line.push(" in instance '").push(instance).push("' during ").push(function).push(" at t = ");
            line.push_time(time).push(" s");
        }
        None => {
            line.push(" outside any FMU call");
        }
    }
    line.push(
        "; the process ends (the CSV keeps the rows computed before; a .mat file and the summary are not written)\n",
    );
}

/// Writes the one-line report of an `exit()` during `call` into `line`.
fn exit_report(line: &mut Line, (instance, function, time): (&str, &str, f64)) {
    line.push("error: instance '").push(instance).push("' called exit() during ").push(function).push(" at t = ");
    line.push_time(time)
        .push(" s; the process ends (the CSV keeps the rows computed before; a .mat file is not written)\n");
}

/// How the process is ending inside an FMU call, for the hook of [`set_crash_hook`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashKind {
    /// A fatal signal: the hook runs in the signal handler, so it must not allocate or take a
    /// lock it could wait for forever (the crashed thread may hold the allocator's).
    Signal,
    /// `exit()` called by the FMU: the hook runs in an `atexit` handler of the calling thread.
    Exit,
}

/// The hook run when the process ends inside an FMU call.
static CRASH_HOOK: OnceLock<Box<dyn Fn(CrashKind) + Send + Sync>> = OnceLock::new();

/// Sets the hook run after the report of a fatal signal or of an `exit()` inside an FMU call
/// (once per process; false if one was set already). Panics in it are caught.
pub fn set_crash_hook(hook: Box<dyn Fn(CrashKind) + Send + Sync>) -> bool {
    CRASH_HOOK.set(hook).is_ok()
}

/// Runs the crash hook, if set (a panic in it ends nothing more than the hook).
fn run_crash_hook(kind: CrashKind) {
    if let Some(hook) = CRASH_HOOK.get() {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hook(kind)));
    }
}

extern "C" fn on_process_exit() {
    let Some(call) = current_call() else { return };
    let mut line = Line::new();
    exit_report(&mut line, call);
    line.write_to_stderr();
    run_crash_hook(CrashKind::Exit);
    // Destructors do not run from here: remove the extracted FMU folders as the watchdog does.
    super::archive::remove_live_extractions();
}

extern "C" fn on_fatal(signal: c_int, _info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
    let mut line = Line::new();
    let call = current_call();
    fatal_report(&mut line, signal, call);
    line.write_to_stderr();
    run_crash_hook(CrashKind::Signal);
    let previous = PREVIOUS.get().and_then(|all| all.iter().find(|(s, _)| *s == signal)).map(|(_, a)| a);
    // SAFETY: sigaction and raise are async-signal-safe; `previous` is an action returned by
    // sigaction itself (or the default action). A fault raised again is delivered when this
    // handler returns (the signal is blocked until then), to the restored action; a synchronous
    // fault would also recur at the faulting instruction.
    unsafe {
        match previous {
            Some(action) => libc::sigaction(signal, action, std::ptr::null_mut()),
            None => libc::signal(signal, libc::SIG_DFL) as c_int,
        };
        libc::raise(signal);
    }
}

/// Installs the fatal-signal reporter and the `exit()` reporter (once per process; later calls
/// do nothing).
pub fn install_crash_reporter() {
    PREVIOUS.get_or_init(|| {
        // SAFETY: `on_process_exit` takes no arguments and returns nothing, as atexit(3) requires; it
        // reads atomics and writes to stderr, and runs the hook only inside an FMU call.
        unsafe { libc::atexit(on_process_exit) };
        let mut previous = Vec::new();
        for signal in FATAL {
            // SAFETY: a zeroed sigaction is a valid value to fill; `on_fatal` has the SA_SIGINFO
            // signature and only calls async-signal-safe functions; SA_ONSTACK runs it on the
            // alternate stack Rust sets up, so a stack overflow can be reported too.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fatal as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, &action, &mut old) == 0 {
                    previous.push((signal, old));
                }
            }
        }
        previous
    });
}

// ---------------------------------------------------------------------------------------------
// Interrupts.

/// The first SIGINT/SIGTERM received (0: none).
static INTERRUPT: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_interrupt(signal: c_int) {
    if INTERRUPT.swap(signal, Ordering::Relaxed) != 0 {
        // A second interrupt: the run did not stop (an FMU call that does not return): end now.
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
        return;
    }
    let mut line = Line::new();
    line.push("\n").push(signal_name(signal)).push(
        " received: the run stops after the FMU call in progress and writes its results (send it again to end at \
         once)\n",
    );
    line.write_to_stderr();
}

/// Makes SIGINT and SIGTERM set the flag of [`interrupt_requested`] instead of ending the process.
/// Only install it where something checks the flag ([`crate::master::Master::run`] does, before
/// every step).
pub fn install_interrupt_flag() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: `on_interrupt` has the plain handler signature and only uses atomics and
        // async-signal-safe functions; SA_RESTART keeps interrupted reads and writes going.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_interrupt as *const () as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The signal (SIGINT or SIGTERM) that asked the run to stop, if one did. One relaxed load.
#[inline]
pub fn interrupt_requested() -> Option<i32> {
    match INTERRUPT.load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal),
    }
}

/// Sends SIGTERM (`force` false: a run stops after the FMU call in progress and writes its
/// results) or SIGKILL (`force` true) to every process of process group `group`, as `kill(2)`
/// with `-group`. For a parent that started a child in a group of its own
/// (`CommandExt::process_group(0)`, the group id is the child's id) and ends it with everything
/// it started (e.g. its `fmu-host` processes). A group already gone is not an error.
pub fn signal_process_group(group: u32, force: bool) -> std::io::Result<()> {
    let group = libc::pid_t::try_from(group)
        .ok()
        .filter(|&g| g > 1)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("no process group {group}")))?;
    let signal = if force { libc::SIGKILL } else { libc::SIGTERM };
    // SAFETY: kill(2) with a negative pid only sends a signal to that process group; `group > 1`
    // so it never means "every process" (-1) or the caller's own group (0).
    if unsafe { libc::kill(-group, signal) } == 0 {
        return Ok(());
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::ESRCH) { Ok(()) } else { Err(error) }
}

/// Makes the process that `command` starts end (SIGKILL) when its parent ends, however the parent
/// ends (SIGKILL included): `prctl(PR_SET_PDEATHSIG)` in the child before `exec` (Linux; elsewhere
/// this does nothing). Linux sends the signal when the *thread* that started the child ends, so
/// start it from a thread that outlives it (one that waits for it). For a sweep's points, which
/// must not outlive the sweep.
pub fn end_with_parent(command: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        // SAFETY: the closure runs in the child between fork and exec, where only async-signal-safe
        // calls are allowed: prctl, getppid and an io::Error from an errno value (no allocation).
        // A parent that died before the prctl took effect is seen by getppid, and the child does
        // not start.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

// ---------------------------------------------------------------------------------------------
// Timeouts.

/// Exit status of a run ended by [`start_watchdog`] (as `timeout(1)`).
pub const TIMEOUT_EXIT_CODE: i32 = 124;

/// Starts a thread that ends the process when one FMI call lasts longer than `limit`: it writes
/// `error: ...` naming the instance, the function and the time on stderr, runs `on_timeout`
/// (given at most about a second's worth of work by the caller: the CLI flushes its result file),
/// removes the extracted FMU folders and calls `_exit(124)`. The record is sampled every
/// `limit / 20` (between 10 ms and 250 ms), so the process ends between `limit` and `limit` plus
/// one sample after the call began. The thread runs until the process ends.
pub fn start_watchdog(limit: Duration, on_timeout: Box<dyn Fn() + Send>) -> std::io::Result<()> {
    let sample = (limit / 20).clamp(Duration::from_millis(10), Duration::from_millis(250));
    std::thread::Builder::new().name("fmu-watchdog".into()).spawn(move || {
        // Per record: the call's sequence number and when it was first seen.
        let mut seen = [(u64::MAX, Instant::now()); SLOTS];
        loop {
            std::thread::sleep(sample);
            let stuck = RECORDS.iter().zip(&mut seen).find_map(|(record, seen)| {
                let sequence = record.sequence.load(Ordering::Relaxed);
                let Some(call) = record.call() else {
                    *seen = (u64::MAX, Instant::now());
                    return None;
                };
                if sequence != seen.0 {
                    // A new call since the last sample: it began at most one sample ago.
                    *seen = (sequence, Instant::now().checked_sub(sample).unwrap_or_else(Instant::now));
                    return None;
                }
                (seen.1.elapsed() >= limit).then_some(call)
            });
            let Some((instance, function, time)) = stuck else { continue };
            let mut line = Line::new();
            line.push("error: instance '").push(instance).push("': ").push(function).push(" at t = ");
            line.push_time(time).push(" s did not return within --fmu-timeout ");
            line.push(&format!("{} s", limit.as_secs_f64()));
            line.push("; ending the process (exit code 124) with the result rows computed so far\n");
            line.write_to_stderr();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&on_timeout));
            if result.is_err() {
                Line::new().push("error: writing the results after the timeout failed\n").write_to_stderr();
            }
            super::archive::remove_live_extractions();
            // SAFETY: _exit ends the process without running atexit handlers or library
            // destructors, which must not run while another thread is inside the FMU.
            unsafe { libc::_exit(TIMEOUT_EXIT_CODE) };
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line) -> &str {
        std::str::from_utf8(&line.bytes[..line.len]).unwrap()
    }

    #[test]
    fn times_are_printed_without_float_noise() {
        for (value, expected) in
            [(0.30000000000000004, "0.3"), (0.0, "0"), (12.5, "12.5"), (-1.25, "-1.25"), (1e-9, "0.000000001")]
        {
            let mut line = Line::new();
            line.push_time(value);
            assert_eq!(text(&line), expected);
        }
    }

    #[test]
    fn the_report_names_the_call() {
        let instance = intern("crashy");
        assert!(std::ptr::eq(instance, intern("crashy")), "interned once");
        assert_eq!(unpack(pack(instance)), "crashy");
        let mut line = Line::new();
        fatal_report(&mut line, libc::SIGSEGV, Some((instance, "fmi2DoStep", 0.30000000000000004)));
        assert!(text(&line).starts_with("fatal signal SIGSEGV in instance 'crashy' during fmi2DoStep at t = 0.3 s;"));
        let mut line = Line::new();
        fatal_report(&mut line, libc::SIGABRT, None);
        assert!(text(&line).starts_with("fatal signal SIGABRT outside any FMU call;"));
        let mut line = Line::new();
        exit_report(&mut line, (instance, "fmi2DoStep", 0.5));
        assert!(text(&line).starts_with("error: instance 'crashy' called exit() during fmi2DoStep at t = 0.5 s;"));
    }
}
