//! The rotorcraft co-simulation orchestrator as a library: FMU import, system descriptions,
//! the master algorithm, results, and packaging of our own FMUs.
#![warn(missing_docs)]
// Only the import layer crosses the C boundary; everything else is safe Rust.
#![deny(unsafe_code)]

pub mod container;
#[allow(unsafe_code)]
pub mod import;
pub mod linear;
pub mod master;
pub mod package;
pub mod plot;
pub mod result_files;
pub mod ssp;
pub mod system;
pub mod trim;
