//! The rotor of Seed 004 Table 1 (the bond-graph model's articulated rotor), with a small
//! collective, as the flap-response tests of the orchestrator and of the monolithic reference
//! run it on Rotor.fmu + Aero.fmu.

/// Number of blades.
pub const NB: usize = 4;
/// Rotor radius, m.
pub const R: f64 = 7.5;
/// Flap hinge offset, m.
pub const E: f64 = 0.3;
/// Lock number.
pub const GAMMA: f64 = 9.0;
/// Rotor speed, rad/s.
pub const OMEGA: f64 = 29.0;
/// Blade first mass moment about the hinge, kg.m.
pub const S: f64 = 390.0;
/// Blade flap inertia about the hinge, kg.m2.
pub const I: f64 = 1953.0;
/// Blade mass, kg.
pub const M: f64 = 100.0;
/// Lift slope, 1/rad (the chord follows from the Lock number `gamma = rho a c R^4 / I`).
pub const A: f64 = 5.73;
/// Air density, kg/m3.
pub const RHO: f64 = 1.225;
/// Collective pitch, rad (small: the linear flap equation is the reference).
pub const THETA: f64 = 0.2_f64 * std::f64::consts::PI / 180.0;
