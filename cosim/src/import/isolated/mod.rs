//! [`IsolatedSlave`]: an FMU instance in a child process of its own, behind the same methods as
//! [`Slave`](super::Slave).
//!
//! The child is the host executable (the `orchestrator` binary) started as `orchestrator
//! fmu-host` ([`super::host`]) with one end of a Unix socket pair as its standard input; it
//! loads the FMU from the directory this process extracted (this process owns the directory and
//! removes it) and serves one instance. Every call is one request frame and one reply frame
//! (`wire.rs`); the FMU's log messages come back as frames before the reply and go to this
//! process's [`FmuLogger`]. The child's standard output and error are this process's.
//!
//! A child that dies or exits during a call (a crash, `abort()`, `exit()` in the FMU) becomes a
//! [`CallError`] of kind [`CallErrorKind::ProcessDied`] naming the instance, the function, the
//! simulation time and the signal or exit status; with a time limit, a call that does not return
//! in time kills the child ([`CallErrorKind::TimedOut`]), and so does SIGINT or SIGTERM during a
//! call, once [`super::process::install_interrupt_flag`] is in place ([`CallErrorKind::Interrupted`]:
//! the wait for a reply looks at the flag every [`INTERRUPT_POLL`] and kills the child when the call
//! has not returned [`INTERRUPT_GRACE`] after the signal). Either way every later call
//! of the instance fails with the same error at once, so the master ends the run through its
//! normal error path.
//!
//! This file holds the child's start, the request and reply cycle and how a child's end becomes
//! an error; `calls.rs` the FMI calls.

mod calls;

use std::io::{ErrorKind, Write};
use std::net::Shutdown;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::process::{signal_name, time_text};
use super::wire::{Decoder, Encoder, FrameReader, Malformed, Op, Reply};
use super::{CallError, CallErrorKind, ExtractedFmu, FmuLogger, FmuState, ImportError, Status, StepResult};

/// How often a call waiting for its child's reply looks whether SIGINT or SIGTERM asked the run
/// to stop.
pub const INTERRUPT_POLL: Duration = Duration::from_millis(100);

/// How long a call may still take after SIGINT or SIGTERM asked the run to stop before its child
/// is killed (a step in progress usually finishes, and the run stops after it).
pub const INTERRUPT_GRACE: Duration = Duration::from_secs(1);

/// How isolated instances are started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostOptions {
    /// The executable serving an instance when started with the argument `fmu-host`: the
    /// `orchestrator` binary.
    pub executable: PathBuf,
    /// The longest one call may take; on expiry the child is killed and the call fails.
    pub timeout: Option<Duration>,
}

impl HostOptions {
    /// The environment variable naming the host executable for programs that are not the
    /// `orchestrator` binary (tests, the system FMU, library users).
    pub const ENV: &'static str = "ROTORCRAFT_FMU_HOST";

    /// The host named by [`HostOptions::ENV`], without a time limit.
    pub fn from_env() -> Option<HostOptions> {
        let executable = std::env::var_os(Self::ENV).filter(|v| !v.is_empty())?;
        Some(HostOptions { executable: executable.into(), timeout: None })
    }
}

/// One FMU instance in a child process; see the [module documentation](self).
///
/// Drop closes the socket, upon which the child frees the instance (`fmi2FreeInstance`) and
/// exits; this waits for it (at most the time limit, then the child is killed).
pub struct IsolatedSlave {
    /// The instance name.
    name: String,
    /// Owner id of its [`FmuState`]s (unique among all instances of the process).
    id: u64,
    /// As in `Slave`: the start time, a step's start during `fmi2DoStep`, its end after it.
    time: f64,
    /// The child process.
    child: Child,
    /// This process's end of the socket.
    stream: UnixStream,
    /// The request being written (reused).
    out: Vec<u8>,
    /// Frames from the child.
    reader: FrameReader,
    /// Receives the FMU's messages.
    logger: Arc<dyn FmuLogger>,
    /// The longest one call may take.
    timeout: Option<Duration>,
    /// The read timeout set on `stream` (set again only when it changes).
    read_timeout: Option<Duration>,
    /// The error that ended the child, returned again by every later call.
    gone: Option<CallError>,
    /// The directory the child loads from; removed after the child is gone (fields drop after
    /// `Drop::drop` waited for it).
    _extracted: Arc<ExtractedFmu>,
}

impl std::fmt::Debug for IsolatedSlave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IsolatedSlave").field("name", &self.name).field("pid", &self.child.id()).finish()
    }
}

/// How a reply is read: the values after its tag.
type ReadReply<'a, T> = &'a mut dyn FnMut(&mut Decoder<'_>) -> Result<T, Malformed>;

impl IsolatedSlave {
    /// Starts the child, which loads the FMU extracted in `extracted` and instantiates
    /// `instance` (debug logging as `logger` says).
    pub fn spawn(
        extracted: Arc<ExtractedFmu>,
        instance: &str,
        logger: Arc<dyn FmuLogger>,
        options: &HostOptions,
    ) -> Result<IsolatedSlave, ImportError> {
        let host = |message: String| ImportError::Host { instance: instance.to_string(), message };
        let (ours, theirs) = UnixStream::pair().map_err(|e| host(format!("cannot create a socket pair: {e}")))?;
        let child = Command::new(&options.executable)
            .arg("fmu-host")
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .spawn()
            .map_err(|e| host(format!("cannot start {} fmu-host: {e}", options.executable.display())))?;
        let mut slave = IsolatedSlave {
            name: instance.to_string(),
            id: super::next_instance_id(),
            time: 0.0,
            child,
            stream: ours,
            out: Vec::new(),
            reader: FrameReader::new(),
            logger,
            timeout: options.timeout,
            read_timeout: None,
            gone: None,
            _extracted: extracted.clone(),
        };
        let debug = slave.logger.debug_logging();
        let open = |e: &mut Encoder<'_>| {
            e.bytes(extracted.path().as_os_str().as_bytes()).bytes(extracted.archive().as_os_str().as_bytes());
            e.str(instance).u8(u8::from(debug));
        };
        match slave.request(Op::Open, "fmi2Instantiate", open, &mut |_| Ok(())) {
            Ok(()) => Ok(slave),
            Err(e) => Err(host(e.message.clone().unwrap_or_else(|| e.to_string()))),
        }
    }

    /// The instance name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends request `op` (arguments written by `write`) and reads the reply with `read`,
    /// passing log messages on to the logger as they come.
    fn request<T>(
        &mut self,
        op: Op,
        function: &'static str,
        write: impl FnOnce(&mut Encoder<'_>),
        read: ReadReply<'_, T>,
    ) -> Result<T, CallError> {
        if let Some(gone) = &self.gone {
            return Err(gone.clone());
        }
        let mut e = Encoder::new(&mut self.out, op as u8);
        write(&mut e);
        e.finish();
        if self.stream.write_all(&self.out).is_err() {
            return Err(self.died(function));
        }
        let deadline = self.timeout.map(|limit| (Instant::now() + limit, limit));
        let mut interrupt_seen: Option<Instant> = None;
        loop {
            // Wait at most until the deadline, and no longer than the interrupt poll.
            let left = deadline.map(|(deadline, _)| deadline.saturating_duration_since(Instant::now()));
            let wait = left.map_or(INTERRUPT_POLL, |left| left.min(INTERRUPT_POLL));
            if wait.is_zero() || self.set_read_timeout(Some(wait)).is_err() {
                return Err(self.timed_out(function, deadline.map_or(Duration::ZERO, |(_, limit)| limit)));
            }
            let body = match self.reader.next(&mut self.stream) {
                Ok(body) => body,
                // A read timeout, or a signal (with a read timeout set, recv(2) is not restarted).
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {
                    if let Some(signal) = super::process::interrupt_requested() {
                        let seen = *interrupt_seen.get_or_insert_with(Instant::now);
                        if seen.elapsed() >= INTERRUPT_GRACE {
                            return Err(self.interrupted(function, signal));
                        }
                    }
                    continue;
                }
                Err(_) => return Err(self.died(function)),
            };
            let mut d = Decoder::new(&body[1..]);
            let outcome = match body[0] {
                t if t == Reply::Log as u8 => {
                    if log(&*self.logger, &mut d).is_err() {
                        Err(None)
                    } else {
                        continue;
                    }
                }
                t if t == Reply::Ok as u8 => read(&mut d).map_err(|Malformed| None),
                t if t == Reply::Err as u8 => Err(call_error(&mut d, &self.name, function).ok()),
                t if t == Reply::OpenFailed as u8 => Err(d.str().ok().map(|text| CallError {
                    instance: self.name.clone(),
                    function,
                    kind: CallErrorKind::InvalidResult,
                    message: Some(text.to_string()),
                })),
                _ => Err(None),
            };
            return outcome.map_err(|error| error.unwrap_or_else(|| self.malformed(function)));
        }
    }

    /// The child closed the socket: reaps it and keeps the error saying how it ended.
    #[cold]
    fn died(&mut self, function: &'static str) -> CallError {
        let status = reap(&mut self.child, Duration::from_secs(2));
        let how = match status {
            Some(status) => ended(status),
            None => "closed its socket (it was killed)".to_string(),
        };
        let message = format!("the isolated FMU process {how} during {function} at t = {} s", time_text(self.time));
        self.end(function, CallErrorKind::ProcessDied, message)
    }

    /// A call exceeded the time limit: kills the child.
    #[cold]
    fn timed_out(&mut self, function: &'static str, limit: Duration) -> CallError {
        self.kill();
        self.end(
            function,
            CallErrorKind::TimedOut,
            format!(
                "{function} at t = {} s did not return within --fmu-timeout {} s; its isolated process was killed",
                time_text(self.time),
                limit.as_secs_f64()
            ),
        )
    }

    /// SIGINT or SIGTERM asked the run to stop, and the child has not answered within
    /// [`INTERRUPT_GRACE`]: kills it.
    #[cold]
    fn interrupted(&mut self, function: &'static str, signal: i32) -> CallError {
        self.kill();
        self.end(
            function,
            CallErrorKind::Interrupted,
            format!(
                "{function} at t = {} s was interrupted by {}; its isolated process was killed",
                time_text(self.time),
                signal_name(signal)
            ),
        )
    }

    /// Sets the read timeout of the socket, when it differs from the one set.
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        if self.read_timeout != timeout {
            self.stream.set_read_timeout(timeout)?;
            self.read_timeout = timeout;
        }
        Ok(())
    }

    /// The child sent what this process cannot read: kills it.
    #[cold]
    fn malformed(&mut self, function: &'static str) -> CallError {
        self.kill();
        self.end(
            function,
            CallErrorKind::ProcessDied,
            format!(
                "the isolated FMU process sent a malformed reply to {function} at t = {} s; it was killed",
                time_text(self.time)
            ),
        )
    }

    /// Kills the child and reaps it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Keeps the error that ended the child for every later call.
    fn end(&mut self, function: &'static str, kind: CallErrorKind, message: String) -> CallError {
        let error = CallError { instance: self.name.clone(), function, kind, message: Some(message) };
        self.gone = Some(error.clone());
        error
    }

    /// Refuses slices of different lengths before anything is sent (as `Slave` does).
    fn same_length(&self, function: &'static str, a: (&str, usize), b: (&str, usize)) -> Result<(), CallError> {
        CallError::same_length(&self.name, function, a, b)
    }
}

impl Drop for IsolatedSlave {
    fn drop(&mut self) {
        if self.gone.is_some() {
            return;
        }
        // End of requests: the child frees the instance and exits, closing its end; the log
        // messages of fmi2FreeInstance come before that end of the stream.
        let _ = self.stream.shutdown(Shutdown::Write);
        let deadline = self.timeout.map(|limit| Instant::now() + limit);
        if deadline.is_none() && self.set_read_timeout(None).is_err() {
            let _ = self.child.kill();
        }
        loop {
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() || self.set_read_timeout(Some(left)).is_err() {
                    let _ = self.child.kill();
                    break;
                }
            }
            match self.reader.next(&mut self.stream) {
                Ok(body) if body[0] == Reply::Log as u8 => {
                    let _ = log(&*self.logger, &mut Decoder::new(&body[1..]));
                }
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    let _ = self.child.kill();
                    break;
                }
                Err(_) => break,
            }
        }
        let _ = self.child.wait();
    }
}

/// Passes a log frame on to `logger`.
fn log(logger: &dyn FmuLogger, d: &mut Decoder<'_>) -> Result<(), Malformed> {
    let status = Status::from_code(d.i32()?).unwrap_or(Status::Error);
    let (instance, category, message) = (d.str()?, d.str()?, d.str()?);
    logger.log(instance, status, category, message);
    Ok(())
}

/// The error in an `Err` reply to a call of `function` of `instance`.
fn call_error(d: &mut Decoder<'_>, instance: &str, function: &'static str) -> Result<CallError, Malformed> {
    let child_function = d.str()?;
    let (kind, code) = (d.u8()?, d.i32()?);
    let message = if d.u8()? != 0 { Some(d.str()?.to_string()) } else { None };
    let kind = match kind {
        0 => CallErrorKind::Status(Status::from_code(code).ok_or(Malformed)?),
        1 => CallErrorKind::UnknownStatus(code),
        2 => CallErrorKind::NotSupported,
        3 => CallErrorKind::InvalidResult,
        4 => CallErrorKind::InvalidArgument,
        _ => return Err(Malformed),
    };
    // A call may fail in a helper function (`fmi2SerializedFMUstateSize` for a serialisation).
    let function = match child_function {
        "fmi2SerializedFMUstateSize" => "fmi2SerializedFMUstateSize",
        _ => function,
    };
    Ok(CallError { instance: instance.to_string(), function, kind, message })
}

/// Waits up to `limit` for `child` to end (it closed its socket, so it is ending), then kills it;
/// its status, `None` when it cannot be had.
fn reap(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            Err(_) => return None,
        }
    }
    let _ = child.kill();
    child.wait().ok()
}

/// How a child process ended: `died of SIGSEGV`, `exited with status 3`.
fn ended(status: ExitStatus) -> String {
    match (status.signal(), status.code()) {
        (Some(signal), _) => match signal_name(signal) {
            "signal" => format!("died of signal {signal}"),
            name => format!("died of {name}"),
        },
        (None, Some(code)) => format!("exited with status {code}"),
        (None, None) => format!("ended ({status})"),
    }
}
