//! FMI 2.0 status codes and the error type of the safe API.

/// `fmi2Status`, with the numeric values of `fmi2FunctionTypes.h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i32)]
pub enum Status {
    /// `fmi2OK`
    Ok = 0,
    /// `fmi2Warning`
    Warning = 1,
    /// `fmi2Discard`
    Discard = 2,
    /// `fmi2Error`
    Error = 3,
    /// `fmi2Fatal`
    Fatal = 4,
    /// `fmi2Pending`
    Pending = 5,
}

impl Status {
    /// The log category a message with this status belongs to.
    pub fn category(self) -> &'static str {
        match self {
            Status::Ok | Status::Pending => "logEvents",
            Status::Warning | Status::Discard => "logStatusWarning",
            Status::Error => "logStatusError",
            Status::Fatal => "logStatusFatal",
        }
    }
}

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
