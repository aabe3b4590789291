//! The index layout of inputs and outputs, and the value-reference scheme.
//!
//! Value references are the position in the corresponding list plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `300 + y index`
//! ([`vr::OUTPUT_BASE`]). So the `u` and `y` index constants below are also value-reference
//! offsets. Blade-indexed variables exist for blades 1..=8 ([`MAX_BLADES`]); the `nb` parameter
//! selects how many are active. Blade indices in this API are 0-based (`blade[1]` is index 0).
//!
//! The continuous state is `[q, q']`, `q` the free joint angles in link order (shaft if
//! `shaft_free`, then per blade lag unless `lock_lag` and flap unless `lock_flap`); see
//! [`crate::Rotor::coordinates`].

pub use fmu_core::contract::MAX_BLADES;

/// Indices into the real input vector `u` (85 inputs).
pub mod u {
    /// `hub.vel.x/y/z`: inertial velocity of P, airframe body axes, m/s.
    pub const HUB_VEL: usize = 0;
    /// `hub.omega.x/y/z`: airframe angular velocity, body axes, rad/s.
    pub const HUB_OMEGA: usize = 3;
    /// `hub.acc.x/y/z`: specific force at P (`a_P - g`), body axes, m/s^2.
    pub const HUB_ACC: usize = 6;
    /// `hub.alpha.x/y/z`: airframe angular acceleration, body axes, rad/s^2.
    pub const HUB_ALPHA: usize = 9;
    /// `shaft_torque`: torque on the rotor about the shaft axis (used with `shaft_free`), N m.
    pub const SHAFT_TORQUE: usize = 12;
    /// Start of the per-blade blocks; blade `i` (0-based) starts at `BLADES + PER_BLADE * i`.
    pub const BLADES: usize = 13;
    /// Offset of `blade[i].pitch` (rad) within a blade block.
    pub const PITCH: usize = 0;
    /// Offset of `blade[i].pitch_rate` (rad/s).
    pub const PITCH_RATE: usize = 1;
    /// Offset of `blade[i].pitch_acc` (rad/s^2).
    pub const PITCH_ACC: usize = 2;
    /// Offset of `blade[i].F.x/y/z` (N, blade axes, at the blade root reference).
    pub const FORCE: usize = 3;
    /// Offset of `blade[i].M.x/y/z` (N m, blade axes).
    pub const MOMENT: usize = 6;
    /// Inputs per blade.
    pub const PER_BLADE: usize = 9;
    /// Number of inputs.
    pub const N: usize = BLADES + super::MAX_BLADES * PER_BLADE;

    /// Index of the first input of blade `i` (0-based).
    pub fn blade(i: usize) -> usize {
        BLADES + PER_BLADE * i
    }
}

/// Indices into the real output vector `y` (123 outputs).
pub mod y {
    /// `hub.F.x/y/z`: force on the airframe at P, body axes, N.
    pub const HUB_FORCE: usize = 0;
    /// `hub.M.x/y/z`: moment on the airframe about P, body axes, N m.
    pub const HUB_MOMENT: usize = 3;
    /// `azimuth`: shaft angle psi, rad (continuous, not wrapped).
    pub const AZIMUTH: usize = 6;
    /// `shaft.rate`: shaft angular velocity relative to the airframe, rad/s.
    pub const SHAFT_RATE: usize = 7;
    /// `shaft.torque`: torque the drive applies to the rotor about the shaft axis, N m.
    pub const SHAFT_TORQUE: usize = 8;
    /// `energy.kinetic`, J.
    pub const KINETIC: usize = 9;
    /// `energy.potential`, J.
    pub const POTENTIAL: usize = 10;
    /// Start of the per-blade blocks; blade `i` (0-based) starts at `BLADES + PER_BLADE * i`.
    pub const BLADES: usize = 11;
    /// Offset of `blade[i].azimuth` (rad, continuous).
    pub const AZIMUTH_B: usize = 0;
    /// Offset of `blade[i].flap` (rad).
    pub const FLAP: usize = 1;
    /// Offset of `blade[i].lag` (rad).
    pub const LAG: usize = 2;
    /// Offset of `blade[i].flap_rate` (rad/s).
    pub const FLAP_RATE: usize = 3;
    /// Offset of `blade[i].lag_rate` (rad/s).
    pub const LAG_RATE: usize = 4;
    /// Offset of `blade[i].vel.x/y/z` (m/s, blade axes).
    pub const VEL: usize = 5;
    /// Offset of `blade[i].omega.x/y/z` (rad/s, blade axes).
    pub const OMEGA: usize = 8;
    /// Offset of `blade[i].shaft.x/y/z` (unit shaft axis `z_H` in blade axes).
    pub const SHAFT: usize = 11;
    /// Outputs per blade.
    pub const PER_BLADE: usize = 14;
    /// Number of outputs.
    pub const N: usize = BLADES + super::MAX_BLADES * PER_BLADE;

    /// Index of the first output of blade `i` (0-based).
    pub fn blade(i: usize) -> usize {
        BLADES + PER_BLADE * i
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    /// `nb` (integer 1..=8).
    pub const NB: u32 = 0;
    /// `Omega`, rad/s.
    pub const OMEGA: u32 = 1;
    /// `R`, m.
    pub const RADIUS: u32 = 2;
    /// `e`, m.
    pub const E: u32 = 3;
    /// `e_lag`, m.
    pub const E_LAG: u32 = 4;
    /// `blade.m`, kg.
    pub const BLADE_M: u32 = 5;
    /// `blade.S`, kg m.
    pub const BLADE_S: u32 = 6;
    /// `blade.I`, kg m^2.
    pub const BLADE_I: u32 = 7;
    /// `blade.I_pitch`, kg m^2.
    pub const BLADE_I_PITCH: u32 = 8;
    /// `k_lag`, N m/rad.
    pub const K_LAG: u32 = 9;
    /// `c_lag`, N m s/rad.
    pub const C_LAG: u32 = 10;
    /// `k_flap`, N m/rad.
    pub const K_FLAP: u32 = 11;
    /// `lock_lag` (boolean).
    pub const LOCK_LAG: u32 = 12;
    /// `lock_flap` (boolean).
    pub const LOCK_FLAP: u32 = 13;
    /// `shaft_free` (boolean).
    pub const SHAFT_FREE: u32 = 14;
    /// `psi0`, rad.
    pub const PSI0: u32 = 15;
    /// `blade.beta0`, rad.
    pub const BETA0: u32 = 16;
    /// `blade.zeta0`, rad.
    pub const ZETA0: u32 = 17;
    /// `hub.m`, kg.
    pub const HUB_M: u32 = 18;
    /// `hub.I`, kg m^2.
    pub const HUB_I: u32 = 19;
    /// `shaft.nx shaft.ny shaft.nz` (3 references).
    pub const SHAFT_AXIS: u32 = 20;
    /// `shaft.ax shaft.ay shaft.az` (3 references).
    pub const SHAFT_AZIMUTH_ZERO: u32 = 23;
    /// `tolerance`.
    pub const TOLERANCE: u32 = 26;
    /// Per-blade initial state, `BLADE_INITIAL + 4 * i + k` for blade `i` (0-based) and `k` in
    /// [`BLADE_INITIAL_NAMES`] order (32 references).
    pub const BLADE_INITIAL: u32 = 27;
    /// Suffixes of the per-blade initial-state parameters `blade[i].<suffix>`.
    pub const BLADE_INITIAL_NAMES: [&str; 4] = ["dlag0", "dflap0", "lag_rate0", "flap_rate0"];
    /// Value reference of input `u[k]` is `INPUT_BASE + k`.
    pub const INPUT_BASE: u32 = 100;
    /// Value reference of output `y[k]` is `OUTPUT_BASE + k`.
    pub const OUTPUT_BASE: u32 = 300;

    /// Value reference of input `u[k]`.
    pub fn input(k: usize) -> u32 {
        INPUT_BASE + k as u32
    }

    /// Value reference of output `y[k]`.
    pub fn output(k: usize) -> u32 {
        OUTPUT_BASE + k as u32
    }
}
