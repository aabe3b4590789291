//! The source of every one of our FMU shared libraries (`fmu-*/fmu/`, `lib<Model>.so`): the
//! FMI 2.0 symbols of `model::Fmu`, where `model` is the package's model crate, renamed in its
//! `Cargo.toml` (`model = { package = "fmu-rotor", path = ".." }`), and `Fmu` the model type
//! that crate names for export (`pub type Fmu = Rotor;`). A new FMU's library is its
//! `Cargo.toml` alone, with `[lib] path` pointing here.
//!
//! Kept apart from the model crates so that several models can be linked into one test or
//! harness binary without clashing `fmi2*` symbols.
#![allow(non_snake_case)] // The library is named after the modelIdentifier (`Rotor`).

fmu_core::export_fmu!(model::Fmu);
