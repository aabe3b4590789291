//! The variable list of the Rotor FMU, generated from the declarations in [`crate::layout`].

pub use crate::layout::{DEFAULT_TOLERANCE, variables};
