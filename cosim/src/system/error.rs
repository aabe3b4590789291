//! The one error type of system descriptions.

use std::fmt;

/// What is wrong with a system description, and where.
///
/// `path` is the JSON field path of the offending value, written with dots for object keys and
/// brackets for array positions (`connections[2].to`, `fmus.plant.path`,
/// `fmus.fuselage.parameters.mass`); it is empty for problems of the document as a whole (an
/// unreadable file, a syntax error before the first field). Displayed as `path: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemError {
    /// JSON field path of the offending value (empty for the whole document).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl SystemError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() { f.write_str(&self.message) } else { write!(f, "{}: {}", self.path, self.message) }
    }
}

impl std::error::Error for SystemError {}
