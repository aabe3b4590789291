#![allow(non_snake_case)] // The library is named after the modelIdentifier, `Controls`.
//! `Controls.so`: the FMI 2.0 Co-Simulation symbols for [`fmu_controls::Controls`].
//!
//! Kept apart from the model crate so that several models can be linked into one test or
//! harness binary without clashing `fmi2*` symbols.

use fmu_controls::Controls;

fmu_core::export_fmu!(Controls);
