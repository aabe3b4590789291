//! The 6-DOF rigid helicopter airframe as an FMI 2.0 Co-Simulation model (`Fuselage`).
//!
//! A GUNNS-style single rigid body (seed 003): the reference point O of the body frame carries
//! the state, the centre of mass may be offset from it, and translation and rotation are solved
//! as one coupled 6x6 system. Loads come in at the `hub`, `tail` and `ext` attachment points;
//! the kinematics of those points (including the specific force `acc = a - g`, with direct
//! feedthrough from the loads) go out.
//!
//! Frames and units: SI, angles in rad; inertial frame NED, body frame FRD; quaternion
//! scalar-first, body-to-inertial. See [`layout`] for the state, input and output indices and
//! the value-reference scheme, [`euler`] for the Euler-sequence definition and
//! [`fuselage`] for the equations.
//!
//! The drag uses the velocity relative to the air: the wind comes in as the `wind.*` input (NED)
//! and goes out in body axes (`wind.body.*`) for the Aero FMUs. Optional lifting surfaces (a
//! horizontal stabiliser and a fin in the rotors' wash) are in [`airframe`]; fuselage force and
//! moment tables against angle of attack and sideslip in [`fuselage_tables`].
//!
//! Not modelled (yet): time-varying mass properties.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod airframe;
pub mod euler;
pub mod fuselage;
pub mod fuselage_tables;
pub mod layout;
pub mod vec3;

pub use euler::EulerSequence;
pub use fuselage::Fuselage;
pub use layout::{Point, vr};

/// The files the packaged Fuselage FMU carries in its `resources/` folder (path in the archive,
/// contents): the UH-60A and Bo105 fuselage tables (`fuselage_table_file =
/// "uh60a_genhel_fuselage.csv"` names one relative to the resources folder; sources in
/// `resources/README.md`).
pub const RESOURCES: &[(&str, &[u8])] = &[
    ("resources/uh60a_genhel_fuselage.csv", include_bytes!("../resources/uh60a_genhel_fuselage.csv")),
    ("resources/padfield_bo105_fuselage.csv", include_bytes!("../resources/padfield_bo105_fuselage.csv")),
];

/// The model this crate's FMU exports (`fmu/`, the shared library `libFuselage.so`).
pub type Fmu = Fuselage;
