#![allow(non_snake_case)] // The library is named after the modelIdentifier, `TwoMassLoad`.
//! `TwoMassLoad.so`: the FMI 2.0 Co-Simulation symbols for [`test_fmus::Load`].

use test_fmus::Load;

fmu_core::export_fmu!(Load);
