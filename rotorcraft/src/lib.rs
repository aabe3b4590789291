//! The rotorcraft layer above `cosim`: what the co-simulation library does not know about
//! helicopters. `cosim::linear` linearises any system and calls two small interfaces; this
//! crate implements them for rotors of ours:
//!
//! - [`Rotors`] finds the rotors of a system (instances with outputs `shaft.rate` and
//!   `blade[k].azimuth`), reads where their blades are, and is the
//!   [`StateTransform`](cosim::linear::StateTransform) to multiblade (Coleman) coordinates;
//! - [`RotorNaming`] is the [`ModeNaming`](cosim::linear::ModeNaming): a blade angle with its
//!   rate and every blade together, multiblade coordinates as collective, cyclic and
//!   differential, cyclic modes regressive or progressive;
//! - [`mode_shapes`] finds the blade stations among the states (elastic blades: displacement
//!   and rotation per node, [`station_radii`] their radii) and gives each mode's shape along
//!   the span, named 1st flap, 2nd lag, 1st torsion cyclic regressive, ...;
//! - [`TrimSpec`] is the system description's `trim` section, an application section `cosim`
//!   keeps as written: [`read_system`] reads a description with it.
#![deny(unsafe_code)]

mod multiblade;
mod naming;
mod shapes;
mod trim;

pub use multiblade::{MultibladeError, RotorFrame, Rotors};
pub use naming::{RotorNaming, state_group};
pub use shapes::{
    BladeModeKind, BladeShape, BladeStations, ModeShape, STATION_COMPONENTS, Station, blade_stations, mode_shapes,
    name_shapes, station_radii, station_shape,
};
pub use trim::{TrimSpec, read_system, system_from_str};

#[cfg(test)]
mod tests;
