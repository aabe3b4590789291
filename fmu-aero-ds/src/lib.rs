//! The `AeroDynamicStall` FMU: [`fmu_aero::AeroDynamicStall`], the Aero model with
//! Leishman-Beddoes dynamic stall, as a crate of its own so that its shared library
//! (`fmu/`, `libAeroDynamicStall.so`) is built like every other FMU's.

#![forbid(unsafe_code)]

/// The model this crate's FMU exports.
pub type Fmu = fmu_aero::AeroDynamicStall;
