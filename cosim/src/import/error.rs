//! The importer's errors: [`ImportError`] for opening an FMU and creating instances,
//! [`CallError`] for a call into an instance.

use std::fmt;
use std::path::PathBuf;

use super::Status;
use super::model_description::DescriptionError;

/// Why an FMU could not be opened, loaded or instantiated. Every variant names the archive and
/// the entry, symbol or instance concerned.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The `.fmu` file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not a readable zip archive (not a zip, truncated or corrupt).
    #[error("{} is not a readable FMU archive (zip): {source}; is the file truncated or not an FMU?", .path.display())]
    NotAZip {
        /// The file.
        path: PathBuf,
        /// What the zip reader found.
        source: zip::result::ZipError,
    },
    /// An entry whose path could escape the extraction directory, or a symbolic link.
    #[error("{}: refusing entry '{entry}': {reason}", .archive.display())]
    UnsafeEntry {
        /// The archive.
        archive: PathBuf,
        /// The entry's name as stored in the archive.
        entry: String,
        /// Why it is refused (absolute path, `..` component, symbolic link, NUL byte).
        reason: &'static str,
    },
    /// Two entries of the archive have the same name: which one a zip reader extracts is
    /// arbitrary (the last one, usually), so the archive is ambiguous.
    #[error("{}: refusing the archive: it has two entries named '{entry}'", .archive.display())]
    DuplicateEntry {
        /// The archive.
        archive: PathBuf,
        /// The duplicated name.
        entry: String,
    },
    /// More entries than the extraction limit allows (zip bomb protection).
    #[error("{}: {entries} entries, more than the limit of {limit}; refusing a possible zip bomb", .archive.display())]
    TooManyEntries {
        /// The archive.
        archive: PathBuf,
        /// Entries in its central directory.
        entries: usize,
        /// The limit.
        limit: usize,
    },
    /// Extracting would exceed the limit on uncompressed bytes (zip bomb protection), counted
    /// while decompressing, whatever the headers claim.
    #[error(
        "{}: extracting entry '{entry}' exceeds the limit of {limit} uncompressed bytes; refusing a possible zip bomb",
        .archive.display()
    )]
    TooLarge {
        /// The archive.
        archive: PathBuf,
        /// The entry being extracted when the limit was reached.
        entry: String,
        /// The limit on the total uncompressed size, bytes.
        limit: u64,
    },
    /// An entry cannot be decompressed or written (corrupt data, CRC mismatch, duplicate name,
    /// disk full).
    #[error("{}: cannot extract entry '{entry}': {source}", .archive.display())]
    Extract {
        /// The archive.
        archive: PathBuf,
        /// The entry.
        entry: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No temporary directory could be created.
    #[error("cannot create a temporary directory to extract {} (set TMPDIR to a writable directory): {source}", .archive.display())]
    TempDir {
        /// The archive.
        archive: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The archive has no `modelDescription.xml` at its root.
    #[error("{} has no modelDescription.xml at its root; it is not an FMU", .archive.display())]
    MissingModelDescription {
        /// The archive.
        archive: PathBuf,
    },
    /// `modelDescription.xml` is refused (malformed, not FMI 2.0, not Co-Simulation, invalid).
    #[error("{}: {source}", .archive.display())]
    Description {
        /// The archive.
        archive: PathBuf,
        /// What is wrong with the description.
        source: DescriptionError,
    },
    /// No binary for this platform.
    #[error("{} has no binary for {platform}: {expected} is missing; {}", .archive.display(), platforms_text(.platforms, *.has_sources))]
    MissingBinary {
        /// The archive.
        archive: PathBuf,
        /// This platform's FMI name (`linux64`).
        platform: &'static str,
        /// The path inside the archive that was expected.
        expected: String,
        /// The platforms the archive has binaries for (folders under `binaries/`).
        platforms: Vec<String>,
        /// Whether the archive has a `sources/` folder.
        has_sources: bool,
    },
    /// The binary cannot be loaded.
    #[error("{}: cannot load {}: {message}", .archive.display(), .library)]
    LoadLibrary {
        /// The archive.
        archive: PathBuf,
        /// The binary's path inside the archive.
        library: String,
        /// The loader's message.
        message: String,
    },
    /// A required FMI 2.0 function is not exported.
    #[error("{}: {library} does not export the FMI 2.0 function {symbol}", .archive.display())]
    MissingSymbol {
        /// The archive.
        archive: PathBuf,
        /// The binary's path inside the archive.
        library: String,
        /// The missing function.
        symbol: &'static str,
    },
    /// A function needed by a capability the description declares is not exported.
    #[error("{}: modelDescription.xml declares {flag} but {library} does not export {symbol}", .archive.display())]
    MissingCapability {
        /// The archive.
        archive: PathBuf,
        /// The binary's path inside the archive.
        library: String,
        /// The capability flag.
        flag: &'static str,
        /// The missing function.
        symbol: &'static str,
    },
    /// The binary reports another FMI version or types platform.
    #[error("{}: {library}: {function}() returns \"{reported}\", expected \"{expected}\"", .archive.display())]
    BinaryMismatch {
        /// The archive.
        archive: PathBuf,
        /// The binary's path inside the archive.
        library: String,
        /// `fmi2GetVersion` or `fmi2GetTypesPlatform`.
        function: &'static str,
        /// What it returned.
        reported: String,
        /// What FMI 2.0 requires.
        expected: &'static str,
    },
    /// A PythonFMU binary needs a CPython shared library, and none could be loaded.
    #[error("{}: built with PythonFMU, it needs a CPython shared library in the process: {message}", .archive.display())]
    PythonRuntime {
        /// The archive.
        archive: PathBuf,
        /// What was tried.
        message: String,
    },
    /// The instance name contains a NUL byte.
    #[error("instance name {name:?} contains a NUL byte")]
    InvalidInstanceName {
        /// The name.
        name: String,
    },
    /// The FMU allows one instance per process and one exists.
    #[error(
        "{model}: cannot create instance '{instance}': the FMU declares canBeInstantiatedOnlyOncePerProcess and \
         instance '{existing}' exists; open the .fmu a second time for an independent copy of its binary"
    )]
    OnlyOnce {
        /// The model identifier.
        model: String,
        /// The refused instance.
        instance: String,
        /// The existing instance.
        existing: String,
    },
    /// The child process of an isolated instance could not be started or could not open and
    /// instantiate the FMU (the child's error, as text).
    #[error("instance '{instance}': isolated FMU process: {message}")]
    Host {
        /// The instance name.
        instance: String,
        /// What went wrong.
        message: String,
    },
    /// `fmi2Instantiate` returned null.
    #[error("{model}: fmi2Instantiate failed for instance '{instance}'{}", message_suffix(.message))]
    Instantiate {
        /// The model identifier.
        model: String,
        /// The instance name.
        instance: String,
        /// The last (most severe) message the FMU logged during the call.
        message: Option<String>,
    },
}

fn platforms_text(platforms: &[String], has_sources: bool) -> String {
    let mut text = if platforms.is_empty() {
        "it has no binaries at all".to_string()
    } else {
        format!("it has binaries for: {}", platforms.join(", "))
    };
    if has_sources {
        text.push_str(" (it ships sources/: compile them into a binary for this platform first)");
    }
    text
}

fn message_suffix(message: &Option<String>) -> String {
    match message {
        Some(m) => format!(": {m}"),
        None => " (the FMU logged no message)".to_string(),
    }
}

/// What went wrong in a [`CallError`].
#[derive(Debug, Clone, PartialEq)]
pub enum CallErrorKind {
    /// The FMU function returned this status (`Error`, `Fatal`, `Discard` outside a step,
    /// `Pending`).
    Status(Status),
    /// The FMU returned a code outside the `fmi2Status` enum.
    UnknownStatus(i32),
    /// The FMU does not provide this optional function (its capability flag is false).
    NotSupported,
    /// The FMU reported success but returned something unusable (a null FMU state).
    InvalidResult,
    /// The call was refused before reaching the FMU (slice lengths differ, a state of another
    /// instance, a string with NUL, an earlier `fmi2Fatal`).
    InvalidArgument,
    /// The child process of an isolated instance died or exited (the message says how, during
    /// which call, at which simulation time); every later call of the instance fails the same way.
    ProcessDied,
    /// A call of an isolated instance did not return within the time limit; its process was
    /// killed (the message names the call, the time and the limit).
    TimedOut,
    /// SIGINT or SIGTERM asked the run to stop while a call of an isolated instance did not
    /// return; its process was killed (the message names the call, the time and the signal).
    Interrupted,
}

/// A failed call into an FMU instance: which instance, which FMI function, how it failed and the
/// message the FMU logged during the call, e.g.
/// `fuselage: fmi2DoStep returned fmi2Error: communication point 5 s does not match ...`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct CallError {
    /// The instance name.
    pub instance: String,
    /// The FMI function (`fmi2DoStep`, ...).
    pub function: &'static str,
    /// How it failed.
    pub kind: CallErrorKind,
    /// The most severe message the FMU logged during the call (for [`CallErrorKind::Status`]),
    /// or the reason the call was refused.
    pub message: Option<String>,
}

impl CallError {
    /// A call refused before it reached the FMU ([`CallErrorKind::InvalidArgument`]), with the
    /// reason.
    #[cold]
    pub(crate) fn refused(instance: &str, function: &'static str, reason: impl Into<String>) -> CallError {
        CallError {
            instance: instance.to_string(),
            function,
            kind: CallErrorKind::InvalidArgument,
            message: Some(reason.into()),
        }
    }

    /// Refuses slices of different lengths: `a` and `b` are (what, length).
    #[inline]
    pub(crate) fn same_length(
        instance: &str,
        function: &'static str,
        a: (&str, usize),
        b: (&str, usize),
    ) -> Result<(), CallError> {
        if a.1 == b.1 { Ok(()) } else { Err(CallError::length_mismatch(instance, function, a, b)) }
    }

    #[cold]
    fn length_mismatch(instance: &str, function: &'static str, a: (&str, usize), b: (&str, usize)) -> CallError {
        CallError::refused(
            instance,
            function,
            format!("{} {} but {} {}: the lengths must be equal", a.1, a.0, b.1, b.0),
        )
    }

    /// The two length checks of `fmi2GetDirectionalDerivative`: seeds for the knowns, results
    /// for the unknowns.
    pub(crate) fn directional_lengths(
        instance: &str,
        (unknown, known): (&[u32], &[u32]),
        (seeds, results): (usize, usize),
    ) -> Result<(), CallError> {
        const F: &str = "fmi2GetDirectionalDerivative";
        CallError::same_length(instance, F, ("known value references", known.len()), ("seed values", seeds))?;
        CallError::same_length(instance, F, ("unknown value references", unknown.len()), ("result values", results))
    }

    /// The length checks of the input and output derivative calls: an order and a value per
    /// value reference.
    pub(crate) fn derivative_lengths(
        instance: &str,
        function: &'static str,
        vrs: &[u32],
        orders: &[i32],
        values: usize,
    ) -> Result<(), CallError> {
        CallError::same_length(instance, function, ("value references", vrs.len()), ("orders", orders.len()))?;
        CallError::same_length(instance, function, ("value references", vrs.len()), ("values", values))
    }

    /// Refuses an FMU state made by another instance.
    #[cold]
    pub(crate) fn foreign_state(instance: &str, function: &'static str) -> CallError {
        CallError::refused(instance, function, "this FMU state belongs to another instance")
    }

    /// The status the FMU returned, if it was called.
    pub fn status(&self) -> Option<Status> {
        match self.kind {
            CallErrorKind::Status(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // The message names the function and the time itself.
            CallErrorKind::ProcessDied | CallErrorKind::TimedOut | CallErrorKind::Interrupted => {
                let message = self.message.as_deref().unwrap_or("the isolated FMU process is gone");
                return write!(f, "instance '{}': {message}", self.instance);
            }
            _ => write!(f, "{}: {} ", self.instance, self.function)?,
        }
        match &self.kind {
            CallErrorKind::Status(s) => write!(f, "returned {s}")?,
            CallErrorKind::UnknownStatus(code) => write!(f, "returned {code}, which is not an fmi2Status")?,
            CallErrorKind::NotSupported => write!(f, "is not provided by this FMU")?,
            CallErrorKind::InvalidResult => write!(f, "returned an unusable result")?,
            CallErrorKind::InvalidArgument => write!(f, "not called")?,
            CallErrorKind::ProcessDied | CallErrorKind::TimedOut | CallErrorKind::Interrupted => {}
        }
        match (&self.message, &self.kind) {
            // FMUs often start their message with the function's name: say it once.
            (Some(m), _) => {
                write!(f, ": {}", m.strip_prefix(self.function).and_then(|r| r.strip_prefix(": ")).unwrap_or(m))
            }
            (None, CallErrorKind::Status(_) | CallErrorKind::UnknownStatus(_)) => {
                write!(f, " (the FMU logged no message)")
            }
            (None, _) => Ok(()),
        }
    }
}
