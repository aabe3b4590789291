//! [`SspError`]: why an SSP export or import failed.

use std::path::PathBuf;

use crate::import::ImportError;
use crate::system::SystemError;

/// Why an SSP archive could not be written or read. Displayed as the message the orchestrator
/// prints, e.g. `cannot read system.ssd: No such file or directory (os error 2)`.
#[derive(Debug, thiserror::Error)]
pub enum SspError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The archive could not be written.
    #[error("cannot write {}: {reason}", path.display())]
    Write {
        /// The archive.
        path: PathBuf,
        /// The I/O or zip error.
        reason: String,
    },
    /// A file is not what it should be (a zip, XML or JSON error, an SSD of another kind, an
    /// archive without `SystemStructure.ssd`): `path: reason`.
    #[error("{}: {reason}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// XML that does not parse.
    #[error("{0}")]
    Xml(String),
    /// An element or attribute that SSP requires is missing, e.g. `a component has no name`.
    #[error("{0}")]
    Missing(String),
    /// A parameter that cannot be written to or read from SSP.
    #[error("{0}")]
    Parameter(String),
    /// Our annotation could not be written.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The `.ssp` archive could not be extracted.
    #[error("{0}")]
    Extract(#[from] ImportError),
    /// The extracted archive could not be kept in its folder under `TMPDIR`.
    #[error("cannot keep the extracted {}: {source}", path.display())]
    Keep {
        /// The archive.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The system read from the SSD is not a valid system description.
    #[error("{}: {source}", path.display())]
    System {
        /// The `.ssp` or `.ssd` file.
        path: PathBuf,
        /// What is wrong with the system.
        source: SystemError,
    },
}

impl SspError {
    /// A read error of the file at `path`.
    pub(crate) fn read(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> SspError {
        let path = path.into();
        move |source| SspError::Read { path, source }
    }

    /// `path: reason`.
    pub(crate) fn invalid<E: std::fmt::Display>(path: impl Into<PathBuf>) -> impl FnOnce(E) -> SspError {
        let path = path.into();
        move |reason| SspError::Invalid { path, reason: reason.to_string() }
    }
}
