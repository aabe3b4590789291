//! The variable list of the Fuselage FMU, generated from the declarations in [`crate::layout`].

pub use crate::layout::variables;
