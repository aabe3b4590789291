//! The importer (`cosim::import`) against FMUs that are not ours or not well made: our packaged
//! Fuselage.fmu through the safe API (`fuselage`), C FMUs compiled here (`c_stub`,
//! `all_fmi_types`, `robustness`) and hostile archives and binaries (`hostile`). One test
//! binary; filter by module, e.g. `cargo test -p orchestrator --test import hostile::`.
//! The allocation count of a step is `import_no_alloc` (a binary of its own: it installs a
//! counting global allocator).

#[path = "../import_support/mod.rs"]
mod import_support;

mod all_fmi_types;
mod c_stub;
mod fuselage;
mod hostile;
mod robustness;
