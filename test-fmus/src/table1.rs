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

/// Blade chord, m, from the Lock number `gamma = rho a c R^4 / I`.
pub fn chord() -> f64 {
    GAMMA * I / (RHO * A * R.powi(4))
}

/// A system description (JSON) of Rotor.fmu at `rotor` and Aero.fmu at `aero` with these
/// parameters (free flap, no lag damper, uniform lift without drag, no inflow model), every
/// blade's kinematics connected to the aerodynamics and its loads back; `rest` holds the other
/// members of the system object (inputs, experiment, master, outputs).
pub fn rotor_aero_json(rotor: &std::path::Path, aero: &std::path::Path, rest: &str) -> String {
    let chord = chord();
    let mut connections = Vec::new();
    for part in ["vel.x", "vel.y", "vel.z", "omega.x", "omega.y", "omega.z", "azimuth", "shaft.x", "shaft.y", "shaft.z"]
    {
        connections.push(format!("\"rotor.blade[*].{part} -> aero.blade[*].{part}\""));
    }
    for part in ["F.x", "F.y", "F.z", "M.x", "M.y", "M.z"] {
        connections.push(format!("\"aero.blade[*].{part} -> rotor.blade[*].{part}\""));
    }
    format!(
        r#"{{
      "fmus": {{
        "rotor": {{ "path": {rotor:?}, "parameters": {{ "nb": {NB}, "Omega": {OMEGA}, "R": {R}, "e": {E},
                   "blade.m": {M}, "blade.S": {S}, "blade.I": {I}, "blade.I_pitch": 0.0, "lock_lag": true,
                   "k_flap": 0.0, "blade.beta0": 0.0 }} }},
        "aero": {{ "path": {aero:?}, "parameters": {{ "nb": {NB}, "R": {R}, "e": {E}, "r_root": {E}, "chord": {chord},
                  "a": {A}, "rho": {RHO}, "twist": 0.0, "cd0": 0.0, "cd2": 0.0, "n_sections": 20, "inflow_model": 0,
                  "Omega": {OMEGA} }} }}
      }},
      "connections": [ {} ],
      {rest}
    }}"#,
        connections.join(", ")
    )
}
