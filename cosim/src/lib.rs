//! The co-simulation library of rotorcraft-fmi: FMI 2.0 import, system descriptions, the Newton
//! master, linearisation and results. It knows no physics model and no rotorcraft: our own FMUs
//! are found through the [`system::ModelCatalog`] that the program passes in a
//! [`system::SystemContext`] (the `orchestrator` binary passes `fmu-catalog`'s), and what is
//! special to an application comes in through the traits of [`linear`]. See `docs/architecture.md`.
#![warn(missing_docs)]
// Only the import layer crosses the C boundary; everything else is safe Rust.
#![deny(unsafe_code)]

#[allow(unsafe_code)]
pub mod import;
pub mod linear;
pub mod master;
pub mod result_files;
pub mod ssp;
pub mod system;
