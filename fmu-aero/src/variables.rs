//! The variable list of the Aero FMU, generated from the declarations in [`crate::layout`].

pub use crate::layout::variables;
