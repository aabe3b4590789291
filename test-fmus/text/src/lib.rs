#![allow(non_snake_case)] // The library is named after the modelIdentifier, `TextParameters`.
//! `TextParameters.so`: the FMI 2.0 symbols for [`test_fmus::text::TextParameters`].

use test_fmus::text::TextParameters;

fmu_core::export_fmu!(TextParameters);
