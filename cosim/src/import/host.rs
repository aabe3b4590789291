//! The child process of an isolated instance (`orchestrator fmu-host`): loads the FMU from the
//! directory its parent extracted, creates the one instance and serves the parent's calls
//! ([`super::isolated::IsolatedSlave`]) over the Unix socket it has as standard input, in the
//! framing of `wire.rs`. The FMU's log messages go to the parent as they are logged.
//!
//! The child ignores SIGINT and SIGTERM (Ctrl-C reaches the whole process group; the parent
//! decides when the run stops and then ends its children). It ends when the parent closes the
//! socket (after freeing the instance) and, from a thread of its own, as soon as the parent's end
//! of the socket is gone (the parent died), even when an FMU call never returns.

use std::ffi::OsStr;
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::wire::{Decoder, Encoder, FrameReader, Item, Malformed, Op, Reply};
use super::{
    CallError, CallErrorKind, ExtractedFmu, Fmu, FmuLogger, FmuState, Slave, Status, StepResult,
    read_extracted_description,
};

/// Exit status of a child whose parent sent something it cannot read.
const PROTOCOL_ERROR: i32 = 2;

/// Serves an isolated instance on standard input (a Unix socket made by the parent) and returns
/// the process's exit status: 0 when the parent closed the socket, 2 after a protocol error.
/// The `orchestrator fmu-host` subcommand; not meant to be started by hand.
pub fn serve_stdin() -> i32 {
    let stream = match std::io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => UnixStream::from(fd),
        Err(e) => {
            eprintln!("fmu-host: standard input is not usable: {e}");
            return PROTOCOL_ERROR;
        }
    };
    // SAFETY: setting the disposition of SIGINT and SIGTERM to "ignore" has no preconditions.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
    exit_when_parent_goes(stream.as_raw_fd());
    match serve(stream) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("fmu-host: {message}");
            PROTOCOL_ERROR
        }
    }
}

/// Ends the process (`_exit(0)`) once both directions of the socket `fd` are closed by the peer:
/// the parent process is gone.
fn exit_when_parent_goes(fd: RawFd) {
    let watcher = std::thread::Builder::new().name("fmu-host-parent".into()).spawn(move || {
        loop {
            let mut poll = libc::pollfd { fd, events: 0, revents: 0 };
            // SAFETY: `poll` is one valid pollfd; the socket stays open for the process's life
            // (the serving loop owns a descriptor of it until the process exits).
            let n = unsafe { libc::poll(&mut poll, 1, -1) };
            if n > 0 && poll.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                // SAFETY: _exit ends the process without running destructors, which must not run
                // while the serving thread may be inside the FMU.
                unsafe { libc::_exit(0) };
            }
        }
    });
    if let Err(e) = watcher {
        eprintln!("fmu-host: cannot watch the parent process: {e}");
    }
}

/// The writing end of the socket and its frame buffer, shared by the replies and the logger.
struct Out {
    /// The socket (a duplicate of the reading end's descriptor).
    stream: UnixStream,
    /// The frame being written.
    buffer: Vec<u8>,
}

/// Sends the FMU's messages to the parent, which gives them to its own logger.
struct ForwardLogger {
    /// Where the frames go.
    out: Arc<Mutex<Out>>,
    /// The parent's logger's [`FmuLogger::debug_logging`].
    debug: bool,
}

impl FmuLogger for ForwardLogger {
    fn log(&self, instance: &str, status: Status, category: &str, message: &str) {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        let Out { stream, buffer } = &mut *out;
        Encoder::new(buffer, Reply::Log as u8).i32(status as i32).str(instance).str(category).str(message).finish();
        // The parent is gone when this fails; the watcher thread ends the process.
        let _ = stream.write_all(buffer);
    }

    fn debug_logging(&self) -> bool {
        self.debug
    }
}

/// One served instance and the scratch buffers of its calls (reused: no allocation per call once
/// grown).
struct Host {
    /// The instance.
    slave: Slave,
    /// FMU states by handle (their index); freed ones are `None`.
    states: Vec<Option<FmuState>>,
    /// Value references (unknowns of a directional derivative).
    vrs: Vec<u32>,
    /// Knowns of a directional derivative.
    vrs2: Vec<u32>,
    /// Real values (seeds of a directional derivative).
    reals: Vec<f64>,
    /// Directional derivatives.
    reals2: Vec<f64>,
    /// Integer values (input derivative orders).
    ints: Vec<i32>,
    /// Boolean values.
    bools: Vec<bool>,
}

/// What a call returns to the parent.
enum Answer {
    /// Nothing beyond success.
    Done,
    /// The values in `Host::reals`.
    Reals,
    /// The values in `Host::reals2` (directional derivatives).
    Reals2,
    /// The values in `Host::ints`.
    Ints,
    /// The values in `Host::bools`.
    Bools,
    /// A step's outcome.
    Step(StepResult),
    /// A new FMU state's handle.
    Handle(u64),
    /// A serialised FMU state.
    Bytes(Vec<u8>),
    /// `fmi2LastSuccessfulTime`.
    Time(f64),
}

/// Why the serving loop ends before the parent closed the socket (a protocol error).
#[derive(Debug, thiserror::Error)]
enum ServeError {
    #[error("cannot duplicate the socket: {0}")]
    Duplicate(std::io::Error),
    #[error("cannot read from the parent process: {0}")]
    Read(std::io::Error),
    #[error("cannot answer the parent: {0}")]
    Answer(std::io::Error),
    #[error("the first request is not Open")]
    NotOpen,
    #[error("unknown request {0}")]
    UnknownRequest(u8),
    #[error("malformed request from the parent process")]
    Malformed,
}

/// Opens the instance the first request names, then serves requests until the parent closes the
/// socket.
fn serve(mut input: UnixStream) -> Result<(), ServeError> {
    let out =
        Arc::new(Mutex::new(Out { stream: input.try_clone().map_err(ServeError::Duplicate)?, buffer: Vec::new() }));
    let mut reader = FrameReader::new();
    let malformed = |_: Malformed| ServeError::Malformed;
    let mut host = {
        let Some(body) = next(&mut reader, &mut input)? else { return Ok(()) };
        if Op::from_code(body[0]) != Some(Op::Open) {
            return Err(ServeError::NotOpen);
        }
        let mut d = Decoder::new(&body[1..]);
        let path = |bytes: &[u8]| PathBuf::from(OsStr::from_bytes(bytes));
        let (dir, archive) = (path(d.bytes().map_err(malformed)?), path(d.bytes().map_err(malformed)?));
        let (instance, debug) = (d.str().map_err(malformed)?, d.u8());
        let logger = Arc::new(ForwardLogger { out: out.clone(), debug: debug.map_err(malformed)? != 0 });
        let extracted = Arc::new(ExtractedFmu::borrowed(dir, archive));
        let opened = read_extracted_description(&extracted)
            .and_then(|description| Fmu::load(extracted, description))
            .and_then(|fmu| fmu.instantiate(instance, logger));
        match opened {
            Ok(slave) => {
                send(&out, |_| ())?;
                Host {
                    slave,
                    states: Vec::new(),
                    vrs: Vec::new(),
                    vrs2: Vec::new(),
                    reals: Vec::new(),
                    reals2: Vec::new(),
                    ints: Vec::new(),
                    bools: Vec::new(),
                }
            }
            Err(e) => {
                let text = e.to_string();
                let mut guard = out.lock().unwrap_or_else(|p| p.into_inner());
                let Out { stream, buffer } = &mut *guard;
                Encoder::new(buffer, Reply::OpenFailed as u8).str(&text).finish();
                return stream.write_all(buffer).map_err(ServeError::Answer);
            }
        }
    };
    while let Some(body) = next(&mut reader, &mut input)? {
        let op = Op::from_code(body[0]).ok_or(ServeError::UnknownRequest(body[0]))?;
        let answer = host.call(op, &mut Decoder::new(&body[1..])).map_err(malformed)?;
        match answer {
            Ok(answer) => send(&out, |e| host.encode(e, answer))?,
            Err(error) => send_error(&out, &error)?,
        }
    }
    Ok(())
}

/// The next request, `None` at the end of the stream (the parent closed it).
fn next<'a>(reader: &'a mut FrameReader, input: &mut UnixStream) -> Result<Option<&'a [u8]>, ServeError> {
    match reader.next(input) {
        Ok(body) => Ok(Some(body)),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(ServeError::Read(e)),
    }
}

/// Sends a success reply whose results `fill` appends.
fn send(out: &Mutex<Out>, fill: impl FnOnce(&mut Encoder<'_>)) -> Result<(), ServeError> {
    let mut guard = out.lock().unwrap_or_else(|p| p.into_inner());
    let Out { stream, buffer } = &mut *guard;
    let mut e = Encoder::new(buffer, Reply::Ok as u8);
    fill(&mut e);
    e.finish();
    stream.write_all(buffer).map_err(ServeError::Answer)
}

/// Sends a failed call's error.
fn send_error(out: &Mutex<Out>, error: &CallError) -> Result<(), ServeError> {
    let (kind, code) = match error.kind {
        CallErrorKind::Status(status) => (0, status as i32),
        CallErrorKind::UnknownStatus(code) => (1, code),
        CallErrorKind::NotSupported => (2, 0),
        CallErrorKind::InvalidResult => (3, 0),
        CallErrorKind::InvalidArgument
        | CallErrorKind::ProcessDied
        | CallErrorKind::TimedOut
        | CallErrorKind::Interrupted => (4, 0),
    };
    let mut guard = out.lock().unwrap_or_else(|p| p.into_inner());
    let Out { stream, buffer } = &mut *guard;
    let mut e = Encoder::new(buffer, Reply::Err as u8);
    e.str(error.function).u8(kind).i32(code);
    match &error.message {
        Some(message) => e.u8(1).str(message),
        None => e.u8(0),
    }
    .finish();
    stream.write_all(buffer).map_err(ServeError::Answer)
}

impl Host {
    /// Makes the call `op` with the arguments in `d`.
    fn call(&mut self, op: Op, d: &mut Decoder<'_>) -> Result<Result<Answer, CallError>, Malformed> {
        let s = &mut self.slave;
        Ok(match op {
            Op::Open => return Err(Malformed),
            Op::SetupExperiment => {
                let tolerance = (d.u8()? != 0, d.f64()?);
                let start = d.f64()?;
                let stop = (d.u8()? != 0, d.f64()?);
                let option = |(some, value): (bool, f64)| some.then_some(value);
                done(s.setup_experiment(option(tolerance), start, option(stop)))
            }
            Op::EnterInitializationMode => done(s.enter_initialization_mode()),
            Op::ExitInitializationMode => done(s.exit_initialization_mode()),
            Op::Terminate => done(s.terminate()),
            Op::SetReal | Op::GetReal | Op::SetInteger | Op::GetInteger | Op::SetBoolean | Op::GetBoolean => {
                return self.values(op, d);
            }
            Op::DoStep => {
                let (t, h, no_set_prior) = (d.f64()?, d.f64()?, d.u8()? != 0);
                s.do_step(t, h, no_set_prior).map(Answer::Step)
            }
            Op::DirectionalDerivative => {
                d.slice_into(&mut self.vrs)?;
                d.slice_into(&mut self.vrs2)?;
                d.slice_into(&mut self.reals)?;
                self.reals2.resize(self.vrs.len(), 0.0);
                s.get_directional_derivative(&self.vrs, &self.vrs2, &self.reals, &mut self.reals2)
                    .map(|()| Answer::Reals2)
            }
            Op::SetRealInputDerivatives => {
                d.slice_into(&mut self.vrs)?;
                d.slice_into(&mut self.ints)?;
                d.slice_into(&mut self.reals)?;
                done(s.set_real_input_derivatives(&self.vrs, &self.ints, &self.reals))
            }
            Op::GetFmuState
            | Op::GetFmuStateInto
            | Op::SetFmuState
            | Op::FreeFmuState
            | Op::SerializeFmuState
            | Op::DeserializeFmuState => return self.state(op, d),
            Op::LastSuccessfulTime => s.last_successful_time().map(Answer::Time),
        })
    }

    /// The setters and getters: value references, then the values to set.
    fn values(&mut self, op: Op, d: &mut Decoder<'_>) -> Result<Result<Answer, CallError>, Malformed> {
        d.slice_into(&mut self.vrs)?;
        let (s, vrs, n) = (&mut self.slave, &self.vrs, self.vrs.len());
        Ok(match op {
            Op::SetReal => done(s.set_real(vrs, read(d, &mut self.reals)?)),
            Op::GetReal => s.get_real(vrs, zeroed(&mut self.reals, n)).map(|()| Answer::Reals),
            Op::SetInteger => done(s.set_integer(vrs, read(d, &mut self.ints)?)),
            Op::GetInteger => s.get_integer(vrs, zeroed(&mut self.ints, n)).map(|()| Answer::Ints),
            Op::SetBoolean => done(s.set_boolean(vrs, read(d, &mut self.bools)?)),
            Op::GetBoolean => s.get_boolean(vrs, zeroed(&mut self.bools, n)).map(|()| Answer::Bools),
            _ => return Err(Malformed),
        })
    }

    /// The FMU state calls: a state's handle, or the bytes to deserialise.
    fn state(&mut self, op: Op, d: &mut Decoder<'_>) -> Result<Result<Answer, CallError>, Malformed> {
        let s = &mut self.slave;
        let states = &mut self.states;
        let new = |states: &mut Vec<Option<FmuState>>, state| {
            states.push(Some(state));
            Answer::Handle(states.len() as u64 - 1)
        };
        Ok(match op {
            Op::GetFmuState => s.get_fmu_state().map(|state| new(states, state)),
            Op::DeserializeFmuState => s.deserialize_fmu_state(d.bytes()?).map(|state| new(states, state)),
            Op::GetFmuStateInto => match states.get_mut(d.u64()? as usize).and_then(Option::as_mut) {
                Some(state) => done(s.get_fmu_state_into(state)),
                None => Err(no_state(s, "fmi2GetFMUstate")),
            },
            Op::SetFmuState => match states.get(d.u64()? as usize).and_then(Option::as_ref) {
                Some(state) => done(s.set_fmu_state(state)),
                None => Err(no_state(s, "fmi2SetFMUstate")),
            },
            Op::FreeFmuState => match states.get_mut(d.u64()? as usize).and_then(Option::take) {
                Some(state) => done(s.free_fmu_state(state)),
                None => Err(no_state(s, "fmi2FreeFMUstate")),
            },
            Op::SerializeFmuState => match states.get(d.u64()? as usize).and_then(Option::as_ref) {
                Some(state) => s.serialize_fmu_state(state).map(Answer::Bytes),
                None => Err(no_state(s, "fmi2SerializeFMUstate")),
            },
            _ => return Err(Malformed),
        })
    }

    /// Appends the results of a successful call.
    fn encode(&self, e: &mut Encoder<'_>, answer: Answer) {
        match answer {
            Answer::Done => e,
            Answer::Reals => e.slice(&self.reals),
            Answer::Reals2 => e.slice(&self.reals2),
            Answer::Ints => e.slice(&self.ints),
            Answer::Bools => e.slice(&self.bools),
            Answer::Step(result) => e.u8(match result {
                StepResult::Complete => 0,
                StepResult::Discarded => 1,
                StepResult::Terminated => 2,
            }),
            Answer::Handle(handle) => e.u64(handle),
            Answer::Bytes(bytes) => e.bytes(&bytes),
            Answer::Time(time) => e.f64(time),
        };
    }
}

/// The error for a state handle the parent does not hold (freed, or never made).
fn no_state(slave: &Slave, function: &'static str) -> CallError {
    CallError::refused(slave.name(), function, "no such FMU state in the isolated process")
}

/// A call that returns nothing beyond success.
fn done(result: Result<(), CallError>) -> Result<Answer, CallError> {
    result.map(|()| Answer::Done)
}

/// The values of a setter, read into `buffer`.
fn read<'b, T: Item>(d: &mut Decoder<'_>, buffer: &'b mut Vec<T>) -> Result<&'b [T], Malformed> {
    d.slice_into(buffer)?;
    Ok(buffer)
}

/// `buffer` with `n` values for a getter to fill.
fn zeroed<T: Item + Default>(buffer: &mut Vec<T>, n: usize) -> &mut [T] {
    buffer.resize(n, T::default());
    buffer
}
