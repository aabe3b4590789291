//! SSP 1.0 (System Structure and Parameterization): a system description as a `.ssp` archive
//! (`SystemStructure.ssd` and the FMUs under `resources/`) that other tools read, and back.
//!
//! Export writes one `ssd:System` with a `ssd:Component` per instance (its connectors typed, with
//! units defined in `ssd:Units` from the FMUs' own unit definitions), every connection with the
//! patterns expanded, the parameters as inline SSV parameter bindings, and the default experiment.
//! What SSP 1.0 cannot carry (the communication step, the master options, external signals, the
//! recorded outputs, the trim section) goes verbatim into a vendor annotation
//! ([`ANNOTATION_TYPE`]), so an export read back runs exactly as its JSON. Import reads SSP written
//! by us or by other tools and names every element it does not support in a warning.
//!
//! `export.rs` writes, `import.rs` reads, `xml.rs` holds the XML tree both use; failures are
//! [`SspError`]s.

mod error;
mod export;
mod import;
mod xml;

pub use error::SspError;
pub(crate) use export::unit_definitions;
pub use export::{ExportReport, export};
pub use import::import;

/// Name of every component's parameter set. Tools that apply parameter sets by name (ecos:
/// `init(parameter_set=...)`) apply all of them with this one name; others apply inline bindings
/// regardless of the name.
pub const PARAMETER_SET: &str = "initialValues";

/// The `type` of our vendor annotation.
pub const ANNOTATION_TYPE: &str = "org.rotorcraft-fmi.system";
