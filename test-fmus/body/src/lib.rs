#![allow(non_snake_case)] // The library is named after the modelIdentifier, `TwoMassBody`.
//! `TwoMassBody.so`: the FMI 2.0 Co-Simulation symbols for [`test_fmus::Body`].

use test_fmus::Body;

fmu_core::export_fmu!(Body);
