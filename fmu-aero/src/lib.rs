//! Quasi-steady blade-element rotor aerodynamics as an FMI 2.0 Co-Simulation model (`Aero`).
//!
//! A lifting line per blade (seed 004, eqs. 23-35, without the small-angle approximation): from
//! each blade's rigid kinematics (inputs, blade axes) the FMU computes the section velocities,
//! adds the induced inflow, and returns the resultant aerodynamic force and moment of each blade
//! at its root reference point in blade axes (direct feedthrough, exact directional derivatives),
//! plus rotor thrust, torque, power, `CT` and the inflow. Inflow models: none, uniform momentum
//! with Glauert's forward-flight form, Pitt-Peters 3-state dynamic inflow and Peters-He
//! finite-state dynamic inflow (the two with states), the dynamic ones optionally with the
//! Cheeseman-Bennett ground effect.
//!
//! These inputs and outputs are the *aero interface* (README, "Variable contract: Aero"): any
//! FMU that implements them can replace this one. See [`layout`] for the index and
//! value-reference scheme, [`aero`] for the section model and the uniform inflow, [`inflow`] for
//! the Pitt-Peters equations, [`peters_he`] for the Peters-He model and the ground effect and
//! [`quadrature`] for the spanwise stations.
//!
//! Options ([`airfoil`]): C81 airfoil tables (a NACA 0012 table ships in the FMU), several
//! airfoils along the span, Prandtl's tip and root loss, Prandtl-Glauert compressibility for the
//! analytic polar. Without them the polar `a alpha`, `cd0 + cd2 alpha^2` is used at any angle.
//! Not modelled: spanwise flow effects.
//! Wind: a uniform air velocity over the rotor ([`wind`]). Dynamic stall (Leishman-Beddoes,
//! [`dynamic_stall`]) is the option `dynamic_stall = 1` of the variant [`AeroDynamicStall`]
//! (`modelIdentifier="AeroDynamicStall"`), which declares its states.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod aero;
pub mod airfoil;
pub mod dynamic_stall;
pub mod inflow;
pub mod layout;
pub mod peters_he;
pub mod quadrature;
pub mod wind;

pub use aero::{Aero, AeroDynamicStall, InflowModel, RotorLoads};

/// The files the packaged Aero FMUs carry in their `resources/` folder (path in the archive,
/// contents): the shipped NACA 0012 C81 table, so `airfoil_file = "naca0012_sheldahl_re2e6.c81"`
/// names it relative to the resources folder.
pub const RESOURCES: &[(&str, &[u8])] =
    &[("resources/naca0012_sheldahl_re2e6.c81", airfoil::NACA0012_SHELDAHL_RE2E6.as_bytes())];

/// The model this crate's FMU exports (`fmu/`, the shared library `libAero.so`).
pub type Fmu = Aero;
pub use layout::vr;
