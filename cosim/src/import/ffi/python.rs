//! The CPython runtime that PythonFMU binaries expect the host process to provide: found (from
//! `ROTORCRAFT_LIBPYTHON`, the process itself, a Python interpreter or the loader's path) and
//! loaded with `RTLD_GLOBAL` once per process.

use std::ffi::c_int;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};

use super::error_chain;

/// The CPython shared library loaded for PythonFMU binaries (once per process), or why none
/// could be loaded.
static PYTHON_RUNTIME: OnceLock<Result<String, PythonRuntimeError>> = OnceLock::new();

/// Makes the CPython C API available to PythonFMU binaries: loads a `libpython3.X.so` with
/// `RTLD_GLOBAL` once per process and keeps it loaded. Returns what was loaded.
///
/// Where it looks, in order:
/// 1. `ROTORCRAFT_LIBPYTHON`: path (or soname) of the library to use; nothing else is tried.
/// 2. The process already has the C API (e.g. the orchestrator runs inside Python): nothing to do.
/// 3. The library of the interpreter `ROTORCRAFT_PYTHON`, then of `python3` on `PATH` (asked with
///    `sysconfig`), so a virtual environment's base interpreter is used: normally the Python
///    that built the FMU.
/// 4. `libpython3.so` and `libpython3.<minor>.so.1.0` (newest first) on the loader's path.
///
/// The FMU's own Python code runs with that interpreter's standard library; the FMU puts its
/// `resources/` folder (its script and the `pythonfmu` package) first on `sys.path`. Packages
/// beyond those (numpy, ...) must be importable by that interpreter, e.g. through `PYTHONPATH`.
pub fn ensure_python_runtime() -> Result<String, PythonRuntimeError> {
    PYTHON_RUNTIME.get_or_init(find_and_load_python).clone()
}

/// Why [`ensure_python_runtime`] found no CPython shared library to load.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PythonRuntimeError {
    /// The library `ROTORCRAFT_LIBPYTHON` names cannot be loaded (nothing else is tried).
    #[error("cannot load ROTORCRAFT_LIBPYTHON={}: {reason}", library.display())]
    Explicit {
        /// The value of `ROTORCRAFT_LIBPYTHON`.
        library: PathBuf,
        /// The loader's reason.
        reason: String,
    },
    /// No candidate could be loaded.
    #[error(
        "no CPython shared library could be loaded (set ROTORCRAFT_LIBPYTHON to a libpython3.X.so); tried: {}",
        tried.join("; ")
    )]
    NotFound {
        /// Each interpreter or library tried, with why it did not serve.
        tried: Vec<String>,
    },
}

fn find_and_load_python() -> Result<String, PythonRuntimeError> {
    if let Some(explicit) = std::env::var_os("ROTORCRAFT_LIBPYTHON") {
        let explicit = PathBuf::from(explicit);
        return load_global(&explicit)
            .map(|()| explicit.display().to_string())
            .map_err(|reason| PythonRuntimeError::Explicit { library: explicit, reason });
    }
    // SAFETY: dlopen(NULL) returns the handle of the main program; no initialiser runs.
    let this = unsafe { Library::open(None::<&Path>, RTLD_NOW) };
    if let Ok(this) = this {
        // SAFETY: only the presence of the symbol is tested; it is never called here.
        let present = unsafe { this.get::<unsafe extern "C" fn() -> c_int>("Py_IsInitialized") }.is_ok();
        if present {
            return Ok("the Python C API already in the process".to_string());
        }
    }
    let mut tried = Vec::new();
    let interpreters =
        std::env::var_os("ROTORCRAFT_PYTHON").map(PathBuf::from).into_iter().chain([PathBuf::from("python3")]);
    for interpreter in interpreters {
        match python_library_of(&interpreter) {
            Ok(candidates) => {
                for candidate in candidates {
                    match load_global(&candidate) {
                        Ok(()) => return Ok(candidate.display().to_string()),
                        Err(e) => tried.push(format!("{}: {e}", candidate.display())),
                    }
                }
            }
            Err(e) => tried.push(format!("{}: {e}", interpreter.display())),
        }
    }
    let sonames = std::iter::once("libpython3.so".to_string())
        .chain((6..=20).rev().map(|minor| format!("libpython3.{minor}.so.1.0")));
    for soname in sonames {
        let path = PathBuf::from(&soname);
        if load_global(&path).is_ok() {
            return Ok(soname);
        }
    }
    tried.push("libpython3.so, libpython3.X.so.1.0: not on the loader's path".to_string());
    Err(PythonRuntimeError::NotFound { tried })
}

/// Asks `interpreter` where its shared library is. Returns candidate paths.
fn python_library_of(interpreter: &Path) -> Result<Vec<PathBuf>, String> {
    const SCRIPT: &str = "import os, sysconfig\n\
        v = sysconfig.get_config_var\n\
        d = v('LIBDIR') or ''\n\
        for n in (v('LDLIBRARY'), v('INSTSONAME')):\n    \
            if n and '.so' in n: print(os.path.join(d, n))\n";
    let output = Command::new(interpreter)
        .args(["-I", "-c", SCRIPT])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run it: {e}"))?;
    if !output.status.success() {
        return Err(format!("sysconfig query failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    let candidates: Vec<PathBuf> =
        String::from_utf8_lossy(&output.stdout).lines().map(PathBuf::from).filter(|p| p.is_file()).collect();
    if candidates.is_empty() {
        Err("this Python has no shared library (built without --enable-shared)".to_string())
    } else {
        Ok(candidates)
    }
}

/// `dlopen(path, RTLD_NOW | RTLD_GLOBAL)`, kept loaded for the rest of the process.
fn load_global(path: &Path) -> Result<(), String> {
    // SAFETY: loading CPython runs its (side-effect free) initialisers only; the interpreter
    // itself is initialised later by the PythonFMU binary. RTLD_GLOBAL is the point: the Py*
    // symbols become visible to binaries loaded afterwards.
    let library = unsafe { Library::open(Some(path), RTLD_NOW | RTLD_GLOBAL) }.map_err(|e| error_chain(&e))?;
    // Never unloaded: PythonFMU binaries (kept resident) refer to it until the process exits.
    std::mem::forget(library);
    Ok(())
}
