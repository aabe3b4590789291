//! The FMI 2.0 Co-Simulation export layer shared by all rotorcraft FMUs.
//!
//! A model crate implements the safe [`Model`] trait (variables declared once, equations generic
//! over the scalar type) and calls [`export_fmu!`] in its shared-library crate. This crate
//! derives the rest: get/set dispatch, the FMI state machine ([`Instance`]), lazy outputs
//! (get-after-set between steps is consistent), the Dormand-Prince integrator inside
//! `fmi2DoStep`, exact directional derivatives by forward-mode AD, FMU state save, restore and
//! serialisation, and `modelDescription.xml` with its GUID (packaging and documentation are in
//! `fmu-tooling`, which FMU binaries do not link). All `unsafe` of the
//! export side lives in [`abi`].
#![warn(missing_docs)]

pub mod abi;
pub mod active_states;
pub mod catalog;
pub mod codec;
pub mod contract;
pub mod csv_table;
pub mod declare;
pub mod description;
pub mod instance;
pub mod model;
pub mod ode;
pub mod params;
pub mod resources;
pub mod slave;
pub mod stateless;
pub mod status;
pub mod units;
pub mod variable;
pub mod vec3;
pub mod verify;

pub use active_states::ActiveStates;
pub use description::{guid, model_description};
pub use instance::{FmuState, Instance, SlaveState, Warnings};
pub use model::{InputPath, Model, ModelInfo, Parameters, Scalar, StateVariable};
pub use slave::{CoSimulation, InstantiateArgs};
pub use stateless::StatelessModel;
pub use status::{FmiError, FmiResult, Status};
pub use variable::{Causality, Feedthrough, Kind, Variability, Variable};

/// Re-export so model crates name one dual-number type.
pub use num_dual::{Dual64, DualNum};
