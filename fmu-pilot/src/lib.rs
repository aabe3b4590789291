//! The pilot as an FMI 2.0 model (`Pilot`): voluntary collective and lateral cyclic commands
//! passed through to the Controls FMU, plus the biodynamic feedthrough of cockpit vertical and
//! lateral acceleration (second-order transfer functions with a lead, an overall gain; Mayo's
//! mesomorphic pilot built in), and a voluntary pilot (McRuer's precision model with a Pade
//! delay) tracking a roll attitude or height command. See [`pilot`] and [`voluntary`] for the
//! equations and sign conventions, [`layout`] for the variables, and `docs/models.md` (Pilot) for
//! the sources and limits.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod layout;
pub mod pilot;
pub mod voluntary;

pub use pilot::{Pilot, SecondOrderPath};

/// The model this crate's FMU exports (`fmu/`, the shared library `libPilot.so`).
pub type Fmu = Pilot;
