//! The variable list of the Controls FMU, generated from the declarations in [`crate::layout`].

pub use crate::layout::variables;
