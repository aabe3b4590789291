//! Third-party FMUs made with PythonFMU (from the test environment of `bash scripts/test.sh`):
//! imported alone (`import`), coupled to our Fuselage.fmu (`coupled`) and as the aerodynamics
//! of the flap example (`third_party_aero`). These share one process, so one embedded CPython,
//! as a master that loads several PythonFMU FMUs does. The first instantiation of a process from
//! several threads is `import_pythonfmu_threads` (a binary of its own: it must be the process's
//! first PythonFMU instantiation).

#[path = "../common/mod.rs"]
mod common;
#[path = "../import_support/mod.rs"]
mod import_support;

mod coupled;
mod import;
mod third_party_aero;
mod third_party_aero_helicopter;
