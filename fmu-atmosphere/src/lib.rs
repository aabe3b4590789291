//! The atmosphere and the wind as an FMI 2.0 Co-Simulation model (`Atmosphere`).
//!
//! From the aircraft's position, velocity and attitude (the Fuselage's outputs) the model gives
//! the air state of the International Standard Atmosphere with a temperature offset
//! ([`isa`]), the wind at the aircraft in NED (steady wind with shear and a 1-cosine discrete
//! gust, [`wind`]; Dryden or von Karman turbulence, [`turbulence`]) and the aircraft's velocity
//! relative to the air in body axes. The model has no states: gusts and turbulence are frozen
//! in the air mass, so every output is a function of the inputs, the time and the parameters
//! (reproducible under a master's step rollback and whatever the step size).
//! See [`atmosphere`] for how the parts are combined and [`layout`] for the variables.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod atmosphere;
pub mod isa;
pub mod layout;
pub mod turbulence;
pub mod wind;

pub use atmosphere::Atmosphere;
pub use layout::vr;

/// The model this crate's FMU exports (`fmu/`, the shared library `libAtmosphere.so`).
pub type Fmu = Atmosphere;
