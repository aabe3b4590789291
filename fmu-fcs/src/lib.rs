//! The flight control system as an FMI 2.0 model (`FCS`): the pilot's stick and pedal travel
//! through gearings and first-order actuators to the Controls FMU's inputs, with a stability
//! augmentation system (rate damping with washout), roll and pitch attitude hold, heading hold
//! and hover hold, each switchable by a parameter. See [`fcs`] for the equations and sign
//! conventions, [`layout`] for the variables, and `docs/models.md` (FCS) for the limits.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod fcs;
pub mod layout;

pub use fcs::Fcs;

/// The model this crate's FMU exports (`fmu/`, the shared library `libFCS.so`).
pub type Fmu = Fcs;
