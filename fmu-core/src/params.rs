//! Reading and checking parameter values in [`Model::configure`]: the checks every model makes,
//! in one place, with a typed error.
//!
//! [`Model::configure`]: crate::model::Model::configure

use crate::model::Parameters;

/// Why a model refuses its parameter values; reported to the importer as
/// `invalid parameters: <message>`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParameterError {
    /// Not a finite number.
    #[error("parameter '{name}' must be finite (got {value})")]
    NotFinite {
        /// The parameter's name.
        name: String,
        /// Its value.
        value: f64,
    },
    /// Outside its range.
    #[error("parameter '{name}' must be {range} (got {value})")]
    OutOfRange {
        /// The parameter's name.
        name: String,
        /// The allowed range with its unit, e.g. `> 0 m` or `in 1..=8`.
        range: String,
        /// Its value.
        value: f64,
    },
    /// Refused for another reason (a combination of parameters, a geometry), said in words.
    #[error("{0}")]
    Invalid(String),
}

impl From<String> for ParameterError {
    fn from(message: String) -> Self {
        ParameterError::Invalid(message)
    }
}

impl From<&str> for ParameterError {
    fn from(message: &str) -> Self {
        ParameterError::Invalid(message.to_string())
    }
}

/// `range` followed by `unit` (none when empty).
fn with_unit(range: &str, unit: &str) -> String {
    if unit.is_empty() { range.to_string() } else { format!("{range} {unit}") }
}

/// The Real parameter `vr` (named `name`), which must be finite.
pub fn finite(params: &dyn Parameters, vr: u32, name: &str) -> Result<f64, ParameterError> {
    let value = params.real(vr);
    if value.is_finite() { Ok(value) } else { Err(ParameterError::NotFinite { name: name.into(), value }) }
}

/// Three consecutive Real parameters from `vr0` (a vector's components), each finite.
pub fn finite3(params: &dyn Parameters, vr0: u32, names: [&str; 3]) -> Result<[f64; 3], ParameterError> {
    Ok([finite(params, vr0, names[0])?, finite(params, vr0 + 1, names[1])?, finite(params, vr0 + 2, names[2])?])
}

/// A finite Real parameter `> 0`, in `unit` (for the message; may be empty).
pub fn positive(params: &dyn Parameters, vr: u32, name: &str, unit: &str) -> Result<f64, ParameterError> {
    let value = finite(params, vr, name)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(ParameterError::OutOfRange { name: name.into(), range: with_unit("> 0", unit), value })
    }
}

/// A finite Real parameter `>= 0`, in `unit` (for the message; may be empty).
pub fn non_negative(params: &dyn Parameters, vr: u32, name: &str, unit: &str) -> Result<f64, ParameterError> {
    let value = finite(params, vr, name)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(ParameterError::OutOfRange { name: name.into(), range: with_unit(">= 0", unit), value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Reals(Vec<f64>);

    impl Parameters for Reals {
        fn real(&self, vr: u32) -> f64 {
            self.0[vr as usize]
        }
        fn integer(&self, _vr: u32) -> i32 {
            0
        }
        fn boolean(&self, _vr: u32) -> bool {
            false
        }
    }

    #[test]
    fn checks_name_the_parameter_its_range_and_value() {
        let p = Reals(vec![f64::NAN, -1.0, 0.0, 2.5]);
        assert_eq!(finite(&p, 0, "a").unwrap_err().to_string(), "parameter 'a' must be finite (got NaN)");
        assert_eq!(positive(&p, 2, "R", "m").unwrap_err().to_string(), "parameter 'R' must be > 0 m (got 0)");
        assert_eq!(non_negative(&p, 1, "cd0", "").unwrap_err().to_string(), "parameter 'cd0' must be >= 0 (got -1)");
        assert_eq!(non_negative(&p, 2, "e", "m"), Ok(0.0));
        assert_eq!(finite3(&p, 1, ["x", "y", "z"]), Ok([-1.0, 0.0, 2.5]));
    }
}
