//! A whole system as one FMI 2.0 Co-Simulation FMU: the orchestrator's Newton master inside a
//! standard FMU, for tools that cannot solve the algebraic loops between FMUs themselves.
//!
//! [`export`] writes the archive (`orchestrator export SYSTEM.json --fmu OUT.fmu`):
//!
//! - `binaries/linux64/<modelIdentifier>.so`: the `RotorcraftSystem` library (crate
//!   `fmu-system/fmu`), which exports [`SystemSlave`] through `fmu_core`'s guarded C boundary;
//! - `resources/system.json`: the system description, its FMUs under `resources/fmus/` (nested
//!   archives, unpacked by the master at instantiation like any FMU it imports) and its CSV
//!   tables under `resources/tables/`;
//! - `resources/container.json`: the outer interface ([`Interface`]);
//! - `modelDescription.xml`: the outer variables `instance.variable`, with the inner types, units,
//!   descriptions and start values.
//!
//! Semantics: the master keeps the system's own communication grid `start + n * step` whatever
//! the importer's step. One outer `fmi2DoStep(t, h)` steps it over the grid points up to `t + h`;
//! where `t + h` falls between two grid points the master steps on to the next one and the
//! outputs at `t + h` are interpolated linearly between the two. Outer steps that are multiples
//! of the inner step give the same values as `orchestrator run`; other steps (an importer's
//! nanosecond rounding, any step) sample the same trajectory. Outer inputs replace the signal of
//! the inner input they name with their value, held constant and sampled on the grid: an input
//! changed at a communication point is applied at that grid point, or at the next one when the
//! point lies between grid points, by solving the coupling again there (Newton). Parameters are
//! applied to the system description before the inner FMUs are instantiated, at the end of
//! initialization mode.
#![warn(missing_docs)]
#![deny(unsafe_code)]

mod export;
mod slave;

use serde::{Deserialize, Serialize};

pub use export::{ExportOptions, ExportReport, export};
pub use slave::{OpenError, SystemSlave};

/// File name of [`Interface`] under `resources/`.
pub const INTERFACE_FILE: &str = "container.json";
/// File name of the system description under `resources/`.
pub const SYSTEM_FILE: &str = "system.json";
/// Name of the shared library that runs a system FMU (`lib<name>.so`, crate `fmu-system/fmu`).
pub const LIBRARY_NAME: &str = "RotorcraftSystem";

/// The outer interface of a system FMU, written by [`export`] and read at instantiation.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interface {
    /// GUID of the generated `modelDescription.xml`, checked in `fmi2Instantiate`.
    pub guid: String,
    /// The outer variables, value reference `k + 1` for entry `k`.
    pub variables: Vec<OuterVariable>,
}

/// One variable of the outer FMU.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OuterVariable {
    /// `instance.variable`, as in the system description.
    pub name: String,
    /// What the outer FMU does with it.
    pub causality: OuterCausality,
    /// FMI type of the outer variable.
    pub var_type: OuterType,
    /// Start value (parameters and inputs).
    pub start: Option<f64>,
}

/// Causality of an outer variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OuterCausality {
    /// An inner parameter, set before initialization.
    Parameter,
    /// An inner input, held over each outer step.
    Input,
    /// A value the master records (an inner output, or a driven inner input).
    Output,
}

/// Type of an outer variable (inner Enumerations become Integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OuterType {
    /// `fmi2Real`.
    Real,
    /// `fmi2Integer`.
    Integer,
    /// `fmi2Boolean`.
    Boolean,
}
