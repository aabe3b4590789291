//! A geometrically exact beam (Simo-Reissner: large displacements and rotations, small strains)
//! for elastic rotor blades: two-node elements with the Crisfield-Jelenic interpolation of
//! relative rotations and one-point (reduced) integration of the strain energy, exact Newton
//! tangents in closed form, linearised dynamics (AD only for the centrifugal and Coriolis terms,
//! `num-dual`) and an implicit-midpoint time step.
//!
//! * [`section`]: the 6x6 section stiffness and the mass per length, from engineering
//!   properties with offsets;
//! * [`element`]: strains, strain energy and kinetic energy of one element;
//! * [`model`] and [`statics`]: the clamped beam, tip loads (dead and follower), Newton;
//! * [`dynamics`]: free motion by the implicit midpoint rule (lumped inertia), energy to second
//!   order in the step;
//! * [`modal`]: mass, gyroscopic and stiffness matrices about an equilibrium in a turning frame
//!   (centrifugal stiffening) and the natural modes;
//! * [`table`]: the blade-properties CSV reader;
//! * [`princeton`]: the Princeton beam benchmark (shared by its test and example);
//! * [`tangent`]: the element's internal force and tangent stiffness in closed form (the AD
//!   Hessian stays as its test oracle);
//! * [`implicit`]: the implicit midpoint rule for the blade's first-order equations
//!   ([`blade_dynamics`]), simplified Newton on a kept reduced matrix.
//!
//! See `docs/models.md` ("Beam") for the equations and sources.

pub mod blade_dynamics;
pub mod dynamics;
pub mod element;
pub mod implicit;
pub mod modal;
pub mod model;
pub mod princeton;
pub mod rotation;
pub mod section;
pub mod statics;
pub mod table;
pub mod tangent;

pub use dynamics::{BeamMotion, LumpedInertia, StepError};
pub use element::Element;
pub use modal::{LinearisedBeam, Mode, ModeKind};
pub use model::{Beam, BeamState, TipLoad};
pub use section::{EngineeringSection, SectionProperties};
pub use statics::{NewtonSettings, StaticError};
pub use table::{BladeStation, BladeTable, BladeTableError};
