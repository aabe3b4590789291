//! The index layout of states, inputs and outputs, and the value-reference scheme.
//!
//! Value references are the position in the corresponding list plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]). Blade outputs are declared for [`MAX_BLADES`] blades; the parameter `nb`
//! selects how many are active.

pub use fmu_core::contract::MAX_BLADES;

/// Indices into the continuous state vector `x`: the actuator positions in swashplate
/// coordinates. Only with `tau > 0` does the model have states; otherwise it has none.
pub mod x {
    /// `theta0`: collective pitch, rad.
    pub const THETA0: usize = 0;
    /// `theta1c`: lateral cyclic pitch (coefficient of `cos psi`), rad.
    pub const THETA1C: usize = 1;
    /// `theta1s`: longitudinal cyclic pitch (coefficient of `sin psi`), rad.
    pub const THETA1S: usize = 2;
    /// `tail_collective`: tail rotor collective pitch, rad.
    pub const TAIL: usize = 3;
    /// Number of actuator states.
    pub const N: usize = 4;
}

/// Indices into the real input vector `u` (6 inputs).
pub mod u {
    /// `collective`: pilot collective, rad of blade pitch.
    pub const COLLECTIVE: usize = 0;
    /// `lon_cyclic`: pilot longitudinal cyclic, stick forward positive, rad.
    pub const LON: usize = 1;
    /// `lat_cyclic`: pilot lateral cyclic, stick right positive, rad.
    pub const LAT: usize = 2;
    /// `pedal`: pilot pedal, rad of tail rotor pitch.
    pub const PEDAL: usize = 3;
    /// `azimuth`: rotor shaft azimuth, rad.
    pub const AZIMUTH: usize = 4;
    /// `azimuth_rate`: rotor speed, rad/s.
    pub const AZIMUTH_RATE: usize = 5;
    /// Number of inputs.
    pub const N: usize = 6;
}

/// Indices into the real output vector `y` (28 outputs).
pub mod y {
    /// Offset of `blade[i].pitch` (rad) within a blade's block.
    pub const PITCH: usize = 0;
    /// Offset of `blade[i].pitch_rate` (rad/s).
    pub const PITCH_RATE: usize = 1;
    /// Offset of `blade[i].pitch_acc` (rad/s^2).
    pub const PITCH_ACC: usize = 2;
    /// Outputs per blade.
    pub const PER_BLADE: usize = 3;
    /// `theta0 theta1c theta1s tail_collective` (4 outputs, in the order of [`super::x`]).
    pub const SWASHPLATE: usize = super::MAX_BLADES * PER_BLADE;
    /// Number of outputs.
    pub const N: usize = SWASHPLATE + 4;

    /// Index of the first output of blade `b` (0-based).
    pub const fn blade(b: usize) -> usize {
        PER_BLADE * b
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    /// `nb` (integer): number of blades of the main rotor, 1..8.
    pub const NB: u32 = 0;
    /// `tau`: actuator time constant, s (0 = ideal actuators).
    pub const TAU: u32 = 1;
    /// `gain.collective gain.lon gain.lat gain.pedal` (4 references).
    pub const GAINS: u32 = 2;
    /// `phase`: swashplate phase angle, rad.
    pub const PHASE: u32 = 6;
    /// `tail.offset`: tail rotor collective at zero pedal, rad.
    pub const TAIL_OFFSET: u32 = 7;
    /// `collective0 lon_cyclic0 lat_cyclic0 pedal0`: initial actuator positions as pilot inputs
    /// (4 references).
    pub const INITIAL: u32 = 8;
    /// `tolerance` (integrator, relative and absolute).
    pub const TOLERANCE: u32 = 12;
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
