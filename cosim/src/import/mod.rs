//! FMU import: open any FMI 2.0 Co-Simulation FMU (ours or third-party), check it, load its
//! binary and drive its instances through a safe API.
//!
//! ```no_run
//! use std::sync::Arc;
//! use cosim::import::{Fmu, FacadeLogger, StepResult};
//!
//! let fmu = Fmu::open("Fuselage.fmu".as_ref())?;
//! let mut slave = fmu.instantiate("fuselage", Arc::new(FacadeLogger::default()))?;
//! slave.setup_experiment(None, 0.0, None)?;
//! slave.enter_initialization_mode()?;
//! slave.exit_initialization_mode()?;
//! let z = fmu.model_description().variable("z").unwrap().value_reference;
//! let mut value = [0.0];
//! for step in 0..100 {
//!     assert!(matches!(slave.do_step(step as f64 * 0.01, 0.01, true)?, StepResult::Complete));
//!     slave.get_real(&[z], &mut value)?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layers: [`archive`] extracts the zip safely into a temporary directory (or, when asked, into
//! the [`cache`] of extractions kept between runs),
//! [`model_description`] parses `modelDescription.xml`, [`ffi`] loads the binary and resolves
//! the C functions, [`Slave`] wraps one instance. [`IsolatedSlave`] runs an instance in a child
//! process of its own ([`isolated`]; the child's side is [`host`], their framing `wire.rs`), and
//! [`Instance`] is either kind behind one set of methods, for the master. All `unsafe` code of the importer is in this
//! directory (`ffi/`, `slave/`, `logger.rs`, `host.rs`), each block with its `SAFETY` argument; the
//! C-variadic logger callback is `logger.c`, compiled by `build.rs`. [`inspect`] renders a
//! description for `orchestrator inspect` ([`read_model_description`] reads one without
//! loading the binary).
//!
//! Platform: the binary is `binaries/linux64/<modelIdentifier>.so` (Linux x86-64, the only
//! platform this toolkit builds for).
//!
//! FMUs built with **PythonFMU** need a CPython shared library at run time, which the importer
//! finds and loads itself; see [`ffi::ensure_python_runtime`].

pub mod archive;
pub mod cache;
pub mod ffi;
pub mod host;
pub mod inspect;
pub mod isolated;
pub mod model_description;
pub mod process;

mod error;
mod instance;
mod logger;
mod slave;
mod wire;

use std::ffi::{CString, c_void};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub use archive::{ExtractLimits, ExtractedFmu};
pub use cache::ExtractionCache;
pub use error::{CallError, CallErrorKind, ImportError};
pub use ffi::Fmi2Functions;
pub use instance::Instance;
pub use isolated::{HostOptions, IsolatedSlave};
pub use logger::{FMU_LOG_TARGET, FacadeLogger, FmuLogger, Status, log_level};
pub use model_description::{DescriptionError, ModelDescription};
pub use slave::{FmuState, Slave, StepResult};

use ffi::{Binary, FMI2_COSIMULATION, FMI2_MODEL_EXCHANGE, LoadError};
use logger::LoggerEnv;

/// The FMI platform name whose binary is loaded.
pub const PLATFORM: &str = if cfg!(target_os = "macos") {
    "darwin64"
} else if cfg!(target_pointer_width = "32") {
    "linux32"
} else {
    "linux64"
};

/// File extension of the binary on this platform.
pub const LIBRARY_EXTENSION: &str = if cfg!(target_os = "macos") { "dylib" } else { "so" };

/// What the instances of one FMU share: the loaded binary and the extracted files. Dropped
/// (library closed, then directory removed) after the [`Fmu`] and all its [`Slave`]s.
pub(crate) struct Shared {
    /// Declared first: the library is closed before the directory goes.
    pub(crate) binary: Binary,
    pub(crate) extracted: Arc<ExtractedFmu>,
    pub(crate) model_identifier: String,
    pub(crate) guid: CString,
    pub(crate) resource_uri: CString,
    /// Set when any instance returned `fmi2Fatal`: no instance may be called again (FMI 2.0
    /// section 2.1.3), not even `fmi2FreeInstance`.
    pub(crate) fatal: AtomicBool,
    /// For `canBeInstantiatedOnlyOncePerProcess`: the live instance's name.
    pub(crate) only_instance: Mutex<Option<String>>,
    pub(crate) only_once: bool,
    /// A PythonFMU binary: instantiation is serialised process-wide (see [`PYTHON_INIT`]).
    pub(crate) python: bool,
}

/// Held around `fmi2Instantiate` of PythonFMU binaries. Each copy of a PythonFMU binary starts
/// the process's one CPython interpreter on its first instantiation unless it is already
/// running; two copies doing that at once (two FMUs, or one FMU opened twice, instantiated from
/// two threads) would both call `Py_Initialize` and crash the process.
pub(crate) static PYTHON_INIT: Mutex<()> = Mutex::new(());

/// How [`Fmu::open_with`] extracts an FMU.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// Limits against zip bombs.
    pub limits: ExtractLimits,
    /// Directory in which the temporary extraction directory is created (default: `TMPDIR`,
    /// else `/tmp`). It must allow executing mapped code (not `noexec`).
    pub temp_dir: Option<PathBuf>,
}

/// An opened FMU: extracted into a temporary directory (removed when the `Fmu` and all its
/// instances are gone), its description parsed and its binary loaded.
pub struct Fmu {
    shared: Arc<Shared>,
    description: ModelDescription,
}

impl std::fmt::Debug for Fmu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fmu")
            .field("archive", &self.shared.extracted.archive())
            .field("directory", &self.shared.extracted.path())
            .field("model_identifier", &self.shared.model_identifier)
            .finish_non_exhaustive()
    }
}

impl Fmu {
    /// Opens `path` with the default [`OpenOptions`]: extracts it safely into a temporary
    /// directory, parses and checks `modelDescription.xml` (FMI 2.0, Co-Simulation), loads
    /// `binaries/linux64/<modelIdentifier>.so` and resolves its functions.
    pub fn open(path: &Path) -> Result<Fmu, ImportError> {
        Fmu::open_with(path, &OpenOptions::default())
    }

    /// [`Fmu::open`] with explicit extraction limits and temporary directory.
    pub fn open_with(path: &Path, options: &OpenOptions) -> Result<Fmu, ImportError> {
        let (extracted, description) = extract_fmu(path, options)?;
        Fmu::load(Arc::new(extracted), description)
    }

    /// Loads the binary of an FMU extracted by [`extract_fmu`] (the directory is kept as long as
    /// the `Fmu` or one of its instances lives, and as long as the caller keeps its `Arc`).
    pub fn load(extracted: Arc<ExtractedFmu>, description: ModelDescription) -> Result<Fmu, ImportError> {
        let archive = extracted.archive().to_path_buf();
        let cs = &description.co_simulation;
        let library = format!("binaries/{PLATFORM}/{}.{LIBRARY_EXTENSION}", cs.model_identifier);
        let library_path = extracted.path().join(&library);
        if !library_path.is_file() {
            return Err(missing_binary(&archive, extracted.path(), library));
        }
        let python = description.generation_tool.as_deref().is_some_and(|t| t.trim_start().starts_with("PythonFMU"));
        let binary = Binary::load(&library_path, cs, python).map_err(|e| match e {
            LoadError::Open(message) => ImportError::LoadLibrary {
                archive: archive.clone(),
                library: library.clone(),
                message: load_hint(message, &library_path, extracted.path()),
            },
            LoadError::Symbol(symbol) => {
                ImportError::MissingSymbol { archive: archive.clone(), library: library.clone(), symbol }
            }
            LoadError::Capability { symbol, flag } => {
                ImportError::MissingCapability { archive: archive.clone(), library: library.clone(), flag, symbol }
            }
            LoadError::Python(message) => ImportError::PythonRuntime { archive: archive.clone(), message },
            LoadError::Mismatch { function, reported, expected } => ImportError::BinaryMismatch {
                archive: archive.clone(),
                library: library.clone(),
                function,
                reported,
                expected,
            },
        })?;
        // The parser refuses a GUID with NUL, and OS paths cannot hold one.
        let no_nul = |text: String| CString::new(text.replace('\0', "")).unwrap_or_default();
        let guid = no_nul(description.guid.clone());
        let resource_uri = no_nul(file_uri(&extracted.path().join("resources")));
        let uses_python = binary.python;
        let shared = Arc::new(Shared {
            binary,
            model_identifier: cs.model_identifier.clone(),
            guid,
            resource_uri,
            fatal: AtomicBool::new(false),
            only_instance: Mutex::new(None),
            only_once: cs.can_be_instantiated_only_once_per_process == Some(true),
            python: uses_python,
            extracted,
        });
        Ok(Fmu { shared, description })
    }

    /// The parsed `modelDescription.xml`.
    pub fn model_description(&self) -> &ModelDescription {
        &self.description
    }

    /// The raw function table (for benchmarks and tests that bypass [`Slave`]). The pointers are
    /// valid while this `Fmu` or one of its instances lives.
    pub fn functions(&self) -> &Fmi2Functions {
        &self.shared.binary.functions
    }

    /// The `.fmu` file this was opened from.
    pub fn archive(&self) -> &Path {
        self.shared.extracted.archive()
    }

    /// The temporary directory the FMU was extracted into.
    pub fn directory(&self) -> &Path {
        self.shared.extracted.path()
    }

    /// Creates a Co-Simulation instance (`fmi2Instantiate`, not visible, debug logging as
    /// [`FmuLogger::debug_logging`] says). Any number of instances may live at once unless the
    /// FMU declares `canBeInstantiatedOnlyOncePerProcess`.
    pub fn instantiate(&self, instance_name: &str, logger: Arc<dyn FmuLogger>) -> Result<Slave, ImportError> {
        self.instantiate_as(instance_name, logger, FMI2_COSIMULATION)
    }

    /// `fmi2Instantiate` with `fmuType = fmi2ModelExchange`: an instance whose states the caller
    /// reads (`fmi2GetContinuousStates`, directional derivatives with respect to states), for
    /// linearisation. The FMU must declare `<ModelExchange>` with the same `modelIdentifier` as
    /// its `<CoSimulation>` (one binary for both) and export the Model Exchange functions.
    pub fn instantiate_model_exchange(
        &self,
        instance_name: &str,
        logger: Arc<dyn FmuLogger>,
    ) -> Result<Slave, ImportError> {
        let md = &self.description;
        let refuse = |why: String| ImportError::Instantiate {
            model: self.shared.model_identifier.clone(),
            instance: instance_name.to_string(),
            message: Some(why),
        };
        let Some(me) = &md.model_exchange else {
            return Err(refuse(
                "the FMU is Co-Simulation only (no <ModelExchange> element): it hides its states. A linear model \
                 needs the FMU exported for Model Exchange as well (states, their derivatives and outputs; \
                 directional derivatives optional: without them the Jacobians are differenced), e.g. a combined \
                 ME/CS FMU from the same tool"
                    .into(),
            ));
        };
        if me.model_identifier != md.co_simulation.model_identifier {
            return Err(refuse(format!(
                "its Model Exchange binary '{}' differs from the Co-Simulation one '{}': not supported",
                me.model_identifier, md.co_simulation.model_identifier
            )));
        }
        let f = &self.shared.binary.functions;
        if f.get_continuous_states.is_none() || f.get_derivatives.is_none() {
            return Err(refuse("the binary does not export fmi2GetContinuousStates and fmi2GetDerivatives".into()));
        }
        self.instantiate_as(instance_name, logger, FMI2_MODEL_EXCHANGE)
    }

    fn instantiate_as(
        &self,
        instance_name: &str,
        logger: Arc<dyn FmuLogger>,
        fmu_type: std::ffi::c_int,
    ) -> Result<Slave, ImportError> {
        let name = CString::new(instance_name)
            .map_err(|_| ImportError::InvalidInstanceName { name: instance_name.to_string() })?;
        if self.shared.fatal.load(Ordering::Relaxed) {
            return Err(ImportError::Instantiate {
                model: self.shared.model_identifier.clone(),
                instance: instance_name.to_string(),
                message: Some("an instance of this FMU returned fmi2Fatal; FMI 2.0 forbids any further call".into()),
            });
        }
        if self.shared.only_once {
            let mut only = self.shared.only_instance.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(existing) = only.as_ref() {
                return Err(ImportError::OnlyOnce {
                    model: self.shared.model_identifier.clone(),
                    instance: instance_name.to_string(),
                    existing: existing.clone(),
                });
            }
            *only = Some(instance_name.to_string());
        }
        let slave = Slave::instantiate(self.shared.clone(), instance_name, &name, logger, fmu_type);
        if slave.is_err() && self.shared.only_once {
            *self.shared.only_instance.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
        slave
    }
}

/// Extracts the `.fmu` at `path` as [`OpenOptions`] say and reads its model description, without
/// loading its binary: [`Fmu::load`] loads it in this process; an isolated instance
/// ([`isolated::IsolatedSlave`]) loads it in a child process from the same directory.
pub fn extract_fmu(path: &Path, options: &OpenOptions) -> Result<(ExtractedFmu, ModelDescription), ImportError> {
    extract_fmu_cached(path, options, None)
}

/// [`extract_fmu`] through the extraction cache `cache` when given (see [`cache`]: the archive
/// is extracted once per content and its entry checked on every use), else into a temporary
/// directory. The library never uses the cache unless asked.
pub fn extract_fmu_cached(
    path: &Path,
    options: &OpenOptions,
    cache: Option<&ExtractionCache>,
) -> Result<(ExtractedFmu, ModelDescription), ImportError> {
    let extracted = match cache {
        Some(cache) => cache.extract(path, options)?,
        None => {
            let parent = options.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
            archive::extract_in(path, &parent, &options.limits)?
        }
    };
    let description = read_extracted_description(&extracted)?;
    Ok((extracted, description))
}

/// Reads and checks the model description of the `.fmu` at `path` without loading its binary
/// (so it works for FMUs without a binary for this platform): for `orchestrator inspect`.
pub fn read_model_description(path: &Path) -> Result<ModelDescription, ImportError> {
    read_extracted_description(&archive::extract(path, &ExtractLimits::default())?)
}

/// Parses `modelDescription.xml` of an extracted FMU.
fn read_extracted_description(extracted: &ExtractedFmu) -> Result<ModelDescription, ImportError> {
    let archive = extracted.archive().to_path_buf();
    let xml_path = extracted.path().join("modelDescription.xml");
    let bytes = match std::fs::read(&xml_path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ImportError::MissingModelDescription { archive });
        }
        Err(source) => return Err(ImportError::Io { path: xml_path, source }),
    };
    ModelDescription::from_bytes(&bytes).map_err(|source| ImportError::Description { archive, source })
}

/// The error for a missing binary, listing what the archive has instead.
fn missing_binary(archive: &Path, dir: &Path, expected: String) -> ImportError {
    let mut platforms: Vec<String> = std::fs::read_dir(dir.join("binaries"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    platforms.sort();
    ImportError::MissingBinary {
        archive: archive.to_path_buf(),
        platform: PLATFORM,
        expected,
        platforms,
        has_sources: dir.join("sources").is_dir(),
    }
}

/// The loader's message (`dlerror`, kept whole) for a binary that cannot be loaded, made
/// readable: paths inside the temporary extraction directory (gone by the time the message is
/// read) are shown relative to the archive, and the usual causes are named. glibc reports a
/// binary for another machine as "cannot open shared object file: No such file or directory",
/// as if the file were missing, so the binary's ELF header is read to say what it really is.
fn load_hint(message: String, library: &Path, dir: &Path) -> String {
    let mut prefix = dir.as_os_str().to_string_lossy().into_owned();
    prefix.push('/');
    let message = message.strip_prefix("dlopen failed: ").unwrap_or(&message).replace(&prefix, "");
    let mut hints = Vec::new();
    if let Some(what) = elf_mismatch(library) {
        hints.push(format!("{what}, not a Linux x86-64 shared library"));
    } else if let Some(missing) = missing_dependency(&message, library) {
        hints.push(format!(
            "a library it depends on is missing: {missing} (neither shipped next to the binary nor on the loader's \
             path; `ldd` on the binary lists its dependencies)"
        ));
    }
    if message.contains("failed to map segment") || message.contains("operation not permitted") {
        hints.push("is the temporary directory on a noexec mount? set TMPDIR to another directory".into());
    }
    if hints.is_empty() { message } else { format!("{message} ({})", hints.join("; ")) }
}

/// What is wrong with `library` as a shared library for this process, read from its ELF
/// header; `None` when the header is that of a Linux x86-64 shared library (or unreadable).
fn elf_mismatch(library: &Path) -> Option<String> {
    use std::io::Read;
    let mut header = [0u8; 20];
    let read = std::fs::File::open(library).and_then(|mut f| f.read(&mut header)).ok()?;
    if read < 4 || header[..4] != *b"\x7fELF" {
        return Some("the binary is not an ELF file".into());
    }
    if read < header.len() {
        return Some("the binary is a truncated ELF file".into());
    }
    if header[4] != 2 {
        return Some(format!("the binary is a {} ELF file", if header[4] == 1 { "32-bit" } else { "non-64-bit" }));
    }
    if header[5] != 1 {
        return Some("the binary is a big-endian ELF file".into());
    }
    let machine = u16::from_le_bytes([header[18], header[19]]);
    if cfg!(target_arch = "x86_64") && machine != 62 {
        let name = match machine {
            3 => "i386",
            8 => "MIPS",
            20 => "PowerPC",
            21 => "PowerPC 64",
            22 => "S/390",
            40 => "ARM",
            183 => "AArch64",
            243 => "RISC-V",
            _ => "another machine",
        };
        return Some(format!("the binary is an ELF file for {name} (e_machine {machine})"));
    }
    let kind = u16::from_le_bytes([header[16], header[17]]);
    if kind != 3 {
        return Some(format!("the binary is not a shared library (ELF type {kind}, a shared library has 3)"));
    }
    None
}

/// The dependency named by a loader message "NAME: cannot open shared object file", when NAME
/// is not the binary itself.
fn missing_dependency<'a>(message: &'a str, library: &Path) -> Option<&'a str> {
    let end = message.find(": cannot open shared object file")?;
    let name = message[..end].rsplit(": ").next()?.trim();
    let own = library.file_name()?.to_string_lossy();
    (!name.is_empty() && !name.ends_with(own.as_ref())).then_some(name)
}

/// `file://` URI of an absolute path, percent-encoding what a URI path cannot hold.
fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.as_os_str().as_encoded_bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'.' | b'_' | b'~' | b'+' | b'=' | b',' | b'@' => {
                uri.push(*byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

/// Unique owner ids, so an [`FmuState`] is only ever used with the instance that made it.
static NEXT_INSTANCE_ID: AtomicU64 = AtomicU64::new(1);

fn next_instance_id() -> u64 {
    NEXT_INSTANCE_ID.fetch_add(1, Ordering::Relaxed)
}

/// The address of a logger environment, as the FMU's `componentEnvironment`.
fn environment_pointer(env: &LoggerEnv) -> *mut c_void {
    std::ptr::from_ref(env).cast_mut().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_safety_the_master_relies_on() {
        fn send_sync<T: Send + Sync>() {}
        fn send<T: Send>() {}
        send_sync::<Fmu>();
        send_sync::<ImportError>();
        send_sync::<CallError>();
        send::<Slave>();
        send::<IsolatedSlave>();
        send::<Instance>();
        send::<FmuState>();
    }

    #[test]
    fn file_uris() {
        assert_eq!(file_uri(Path::new("/tmp/x-1/resources")), "file:///tmp/x-1/resources");
        assert_eq!(file_uri(Path::new("/tmp/a b/r%s")), "file:///tmp/a%20b/r%25s");
    }
}
