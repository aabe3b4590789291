//! The error type of the safe API; the status codes are [`fmi2_types::Status`].

pub use fmi2_types::Status;

/// A failed FMI call: the status to return (`Discard`, `Error` or `Fatal`) and the reason.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{function}: {message}")]
pub struct FmiError {
    /// Status returned to the importer.
    pub status: Status,
    /// The FMI function that failed, e.g. `fmi2DoStep`.
    pub function: &'static str,
    /// What went wrong, naming the variable or argument.
    pub message: String,
}

/// Result of a call of the safe API.
pub type FmiResult<T> = Result<T, FmiError>;
