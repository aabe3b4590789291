//! SSP 1.0 (System Structure and Parameterization): a system description as a `.ssp` archive
//! (`SystemStructure.ssd` and the FMUs under `resources/`) that other tools read, and back.
//!
//! Export writes one `ssd:System` with a `ssd:Component` per instance (its connectors typed, with
//! units defined in `ssd:Units` from the FMUs' own unit definitions), every connection with the
//! patterns expanded, the parameters and the constant external inputs (as their inputs' start
//! values) as inline SSV parameter bindings, and the default experiment. What SSP 1.0 cannot carry
//! (the communication step, the master options, the other external signals, the recorded outputs,
//! the application's sections) goes verbatim into a vendor annotation ([`ANNOTATION_TYPE`]) on the system, so
//! an export read back runs exactly as its JSON; OMSimulator's annotation
//! ([`OPENMODELICA_ANNOTATION_TYPE`]) before it gives OMSimulator its master and step. Import reads
//! SSP written by us or by other tools and names every element it does not support in a warning.
//!
//! `export.rs` writes, `import.rs` reads, `xml.rs` holds the XML tree both use; failures are
//! [`SspError`]s.

mod error;
mod export;
mod import;
mod xml;

pub use error::SspError;
pub use export::unit_definitions;
pub use export::{ExportReport, export};
pub use import::import;

/// Name of every component's parameter set. Tools that apply parameter sets by name (ecos:
/// `init(parameter_set=...)`) apply all of them with this one name; others apply inline bindings
/// regardless of the name.
pub const PARAMETER_SET: &str = "initialValues";

/// The `type` of our vendor annotation.
pub const ANNOTATION_TYPE: &str = "org.rotorcraft-fmi.system";

/// The `type` of OMSimulator's vendor annotation. OMSimulator (`Model::getSystemType`,
/// `System::importFromSnapshot`) reads the first `ssc:Annotation` of the root system and refuses
/// a system without this one's `oms:SimulationInformation` (it names the master), and it
/// refuses `ssd:Annotations` at the top level of the SSD (`Model::importFromSnapshot`).
pub const OPENMODELICA_ANNOTATION_TYPE: &str = "org.openmodelica";
