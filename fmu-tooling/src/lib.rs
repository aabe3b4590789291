//! What builds our FMUs' archives and documents them, apart from what an FMU's shared library
//! links (`fmu-core`): [`package::write_fmu`] writes the `.fmu` (zip), [`documentation`]
//! generates `documentation/index.html` and the variable reference `docs/variables/<id>.md`.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod documentation;
pub mod package;

pub use documentation::{documentation_html, variables_markdown};
pub use package::write_fmu;
