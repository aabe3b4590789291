#![allow(non_snake_case)] // The library is named after the modelIdentifier, `Atmosphere`.
//! `Atmosphere.so`: the FMI 2.0 Co-Simulation symbols for [`fmu_atmosphere::Atmosphere`].
//!
//! Kept apart from the model crate so that several models can be linked into one test or
//! harness binary without clashing `fmi2*` symbols.

use fmu_atmosphere::Atmosphere;

fmu_core::export_fmu!(Atmosphere);
