//! The index layout of states, inputs and outputs, and the value-reference scheme.
//!
//! Value references are the position in the corresponding list plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]). So the `u` and `y` index constants below are also value-reference
//! offsets. Blade `i` (1-based in names, `b = i - 1` here) owns a fixed block of inputs and of
//! outputs, declared for all [`MAX_BLADES`] blades; the parameter `nb` selects how many are active.

pub use fmu_core::contract::MAX_BLADES;

/// Largest `n_sections` (spanwise stations per blade); the working arrays have this size.
pub const NS_MAX: usize = 64;

/// Indices into the continuous state vector `x`. Only with `inflow_model = 2` (Pitt-Peters)
/// does the model have states; otherwise it has none.
pub mod x {
    /// `lambda_0`: uniform part of the induced inflow ratio `v_i / (Omega R)`.
    pub const LAMBDA0: usize = 0;
    /// `lambda_s`: coefficient of `(r/R) sin(psi)` in the inflow ratio.
    pub const LAMBDA_S: usize = 1;
    /// `lambda_c`: coefficient of `(r/R) cos(psi)` in the inflow ratio.
    pub const LAMBDA_C: usize = 2;
    /// Number of states of the Pitt-Peters model.
    pub const N_PITT_PETERS: usize = 3;
}

/// Indices into the real input vector `u` (86 inputs): a block of [`u::PER_BLADE`] per blade,
/// then the hub kinematics.
pub mod u {
    /// Offset of `blade[i].vel.x/y/z` (inertial velocity of the blade root reference point,
    /// blade axes, m/s) within a blade's block.
    pub const VEL: usize = 0;
    /// Offset of `blade[i].omega.x/y/z` (blade inertial angular velocity, blade axes, rad/s).
    pub const OMEGA: usize = 3;
    /// Offset of `blade[i].azimuth` (rad).
    pub const AZIMUTH: usize = 6;
    /// Offset of `blade[i].shaft.x/y/z` (unit shaft axis, thrust direction, in blade axes).
    pub const SHAFT: usize = 7;
    /// Inputs per blade.
    pub const PER_BLADE: usize = 10;
    /// `hub.vel.x/y/z`: velocity of the hub, airframe body axes, m/s.
    pub const HUB_VEL: usize = super::MAX_BLADES * PER_BLADE;
    /// `hub.omega.x/y/z`: airframe angular velocity at the hub, body axes, rad/s.
    pub const HUB_OMEGA: usize = HUB_VEL + 3;
    /// Number of inputs.
    pub const N: usize = HUB_OMEGA + 3;

    /// Index of the first input of blade `b` (0-based).
    pub const fn blade(b: usize) -> usize {
        PER_BLADE * b
    }
}

/// Indices into the real output vector `y` (56 outputs).
pub mod y {
    /// Offset of `blade[i].F.x/y/z` (aerodynamic force on the blade, blade axes, N).
    pub const FORCE: usize = 0;
    /// Offset of `blade[i].M.x/y/z` (aerodynamic moment about the root reference, blade axes,
    /// N m).
    pub const MOMENT: usize = 3;
    /// Outputs per blade.
    pub const PER_BLADE: usize = 6;
    /// `thrust`, N.
    pub const THRUST: usize = super::MAX_BLADES * PER_BLADE;
    /// `torque`, N m.
    pub const TORQUE: usize = THRUST + 1;
    /// `power`, W.
    pub const POWER: usize = THRUST + 2;
    /// `CT`, thrust coefficient.
    pub const CT: usize = THRUST + 3;
    /// `inflow`: uniform induced inflow ratio (`lambda_i`, or the Pitt-Peters `lambda_0`).
    pub const INFLOW: usize = THRUST + 4;
    /// `inflow_s`: Pitt-Peters sine coefficient `lambda_s`.
    pub const INFLOW_S: usize = THRUST + 5;
    /// `inflow_c`: Pitt-Peters cosine coefficient `lambda_c`.
    pub const INFLOW_C: usize = THRUST + 6;
    /// `mu`: advance ratio.
    pub const MU: usize = THRUST + 7;
    /// Number of outputs.
    pub const N: usize = THRUST + 8;

    /// Index of the first output of blade `b` (0-based).
    pub const fn blade(b: usize) -> usize {
        PER_BLADE * b
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    /// `nb` (integer): number of active blades, 1..8.
    pub const NB: u32 = 0;
    /// `R`: rotor radius, m.
    pub const RADIUS: u32 = 1;
    /// `e`: radius of the blade root reference (flap hinge), m.
    pub const E: u32 = 2;
    /// `r_root`: root cut-out radius, m.
    pub const R_ROOT: u32 = 3;
    /// `chord`, m.
    pub const CHORD: u32 = 4;
    /// `twist`: linear twist from root to tip, rad.
    pub const TWIST: u32 = 5;
    /// `a`: lift-curve slope, 1/rad.
    pub const LIFT_SLOPE: u32 = 6;
    /// `cd0`.
    pub const CD0: u32 = 7;
    /// `cd2`, 1/rad^2.
    pub const CD2: u32 = 8;
    /// `rho`, kg/m^3.
    pub const RHO: u32 = 9;
    /// `n_sections` (integer).
    pub const N_SECTIONS: u32 = 10;
    /// `inflow_model` (integer): 0 none, 1 uniform momentum, 2 Pitt-Peters.
    pub const INFLOW_MODEL: u32 = 11;
    /// `Omega`: nominal rotor speed, rad/s.
    pub const OMEGA: u32 = 12;
    /// `shaft.nx shaft.ny shaft.nz` (3 references).
    pub const SHAFT: u32 = 13;
    /// `quadrature` (integer): 0 midpoint, 1 Gauss-Legendre.
    pub const QUADRATURE: u32 = 16;
    /// `lambda0_start lambda_s_start lambda_c_start` (3 references).
    pub const LAMBDA_START: u32 = 17;
    /// `tolerance` (integrator, relative and absolute).
    pub const TOLERANCE: u32 = 20;
    /// Value reference of input `u[k]` is `INPUT_BASE + k`.
    pub const INPUT_BASE: u32 = 100;
    /// Value reference of output `y[k]` is `OUTPUT_BASE + k`.
    pub const OUTPUT_BASE: u32 = 200;

    /// Value reference of input `u[k]`.
    pub const fn input(k: usize) -> u32 {
        INPUT_BASE + k as u32
    }

    /// Value reference of output `y[k]`.
    pub const fn output(k: usize) -> u32 {
        OUTPUT_BASE + k as u32
    }
}
