//! Pilot controls, swashplate mixing and actuators as an FMI 2.0 Co-Simulation model (`Controls`).
//!
//! Pilot inputs (collective, longitudinal and lateral cyclic, pedal) are mixed into swashplate
//! coordinates (`theta0`, `theta1c`, `theta1s`) and the tail rotor collective, passed through
//! first-order actuators (states; a time constant of 0 makes them ideal), and turned into the
//! pitch angle, rate and acceleration of every blade from the rotor azimuth and speed: the inputs
//! of the Rotor FMU's driven pitch joints. See [`controls`] for the equations and sign
//! conventions and [`layout`] for the index and value-reference scheme.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod controls;
pub mod layout;

pub use controls::Controls;
pub use layout::vr;

/// The model this crate's FMU exports (`fmu/`, the shared library `libControls.so`).
pub type Fmu = Controls;
