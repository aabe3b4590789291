//! fmu-core, the export side of the FMI boundary: all integration tests of this crate in one test
//! binary (one link instead of 4); each former test file is a module, e.g.
//! `cargo test -p fmu-core --test export c_abi::`. `exported_symbols` expands `export_fmu!`, so
//! this binary exports the `fmi2*` symbols once; no other module may expand it.

mod c_abi;
mod common;
mod exported_symbols;
mod model_description;
mod safe_api;
mod state_outputs;
mod stateless;
