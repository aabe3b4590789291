//! The declarations of the Controls FMU's variables, each written once: the index constants, the views, the
//! value references and the variable list ([`TABLES`]) are generated from them
//! ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]). Blade outputs are declared for [`MAX_BLADES`] blades; the parameter `nb`
//! selects how many are active.

use fmu_core::declare::Tables;

pub use fmu_core::contract::MAX_BLADES;

/// Indices into the continuous state vector `x`: the actuator positions in swashplate
/// coordinates. Only with `tau > 0` does the model have states; otherwise it has none.
pub mod x {
    fmu_core::declare! { view usize;
        /// Collective pitch, rad.
        THETA0 as theta0 = state("theta0", "rad", "rad/s", 0.1, "Collective pitch (actuator state; used when tau > 0)");
        /// Lateral cyclic pitch (coefficient of `cos psi`), rad.
        THETA1C as theta1c = state("theta1c", "rad", "rad/s", 0.1,
            "Lateral cyclic pitch (coefficient of cos psi) (actuator state; used when tau > 0)");
        /// Longitudinal cyclic pitch (coefficient of `sin psi`), rad.
        THETA1S as theta1s = state("theta1s", "rad", "rad/s", 0.1,
            "Longitudinal cyclic pitch (coefficient of sin psi) (actuator state; used when tau > 0)");
        /// Tail rotor collective pitch, rad.
        TAIL as tail = state("tail_collective", "rad", "rad/s", 0.1,
            "Tail rotor collective pitch (actuator state; used when tau > 0)");
        /// Number of actuator states.
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::MAX_BLADES;

    fmu_core::declare! { u32;
        NB = integer("nb", 4, 1, MAX_BLADES as i32,
            "Number of main rotor blades (1..8); blade i sits at azimuth + 2 pi (i - 1) / nb");
        TAU = real("tau", "s",
            "Time constant of the first-order actuators, s (>= 0); 0 = ideal actuators (no states, pitch follows \
             the pilot inputs at once)").min(0.0);
        GAINS = vector("gain.{c}", "", &[
            ("collective", "collective pitch theta0 per unit collective input"),
            ("lon", "cyclic pitch per unit longitudinal cyclic input (stick forward gives theta1s = -gain.lon * lon)"),
            ("lat", "cyclic pitch per unit lateral cyclic input (stick right gives theta1c = -gain.lat * lat)"),
            ("pedal", "tail rotor collective per unit pedal input"),
        ], "Mixing gain: {w}").start(1.0);
        PHASE = real("phase", "rad",
            "Swashplate phase angle, rad: the cyclic command is applied as c cos(psi + phase) + s sin(psi + phase) \
             with c = -gain.lat * lat_cyclic, s = -gain.lon * lon_cyclic (positive phase advances the pitch input)");
        TAIL_OFFSET = real("tail.offset", "rad", "Tail rotor collective pitch at zero pedal, rad");
        /// The initial actuator positions as pilot inputs.
        INITIAL = vector("{c}0", "rad", &[("collective", ""), ("lon_cyclic", ""), ("lat_cyclic", ""), ("pedal", "")],
            "Initial actuator position expressed as the pilot input {c} (rad; tau > 0 only): set it equal to the \
             initial input to start in equilibrium");
        TOLERANCE = tolerance("tolerance", 1e-9);
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (6 inputs).
pub mod u {
    fmu_core::declare! { view usize;
        COLLECTIVE as collective = real("collective", "rad", "Pilot collective, as blade pitch (rad); up = positive");
        LON as lon_cyclic = real("lon_cyclic", "rad",
            "Pilot longitudinal cyclic, as blade pitch (rad); stick forward = positive");
        LAT as lat_cyclic = real("lat_cyclic", "rad", "Pilot lateral cyclic, as blade pitch (rad); stick right = positive");
        PEDAL as pedal = real("pedal", "rad",
            "Pilot pedal, as tail rotor pitch (rad); positive increases the tail rotor collective");
        AZIMUTH as azimuth = real("azimuth", "rad",
            "Rotor shaft azimuth (of blade 1), rad: 0 over the tail, increasing in the sense of rotation");
        AZIMUTH_RATE as azimuth_rate = real("azimuth_rate", "rad/s",
            "Rotor speed d(azimuth)/dt, rad/s (its own rate is taken as zero for the pitch acceleration)");
        N;
    }
}

/// Indices into the real output vector `y` (28 outputs).
pub mod y {
    use super::{MAX_BLADES, u};
    use fmu_core::declare::Labels;

    /// The pilot inputs and the azimuth: what a blade's pitch depends on.
    fn with_azimuth(_: usize) -> Vec<usize> {
        vec![u::COLLECTIVE, u::LON, u::LAT, u::AZIMUTH]
    }

    /// [`with_azimuth`] and the azimuth rate: what a blade's pitch rate and acceleration depend on.
    fn with_rate(_: usize) -> Vec<usize> {
        vec![u::COLLECTIVE, u::LON, u::LAT, u::AZIMUTH, u::AZIMUTH_RATE]
    }

    fmu_core::declare! { view usize;
        BLADES as blade = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            PITCH as pitch = real("blade[{n}].pitch", "rad",
                "Pitch angle of blade {n} (leading edge up positive), theta0 + theta1c cos(psi_{n}) + theta1s \
                 sin(psi_{n}), psi_{n} = azimuth + 2 pi ({n} - 1) / nb; 0 for blades above nb, rad")
                .deps(with_azimuth);
            PITCH_RATE as pitch_rate = real("blade[{n}].pitch_rate", "rad/s",
                "Time derivative of blade[{n}].pitch (actuator rates plus azimuth_rate times the azimuthal \
                 derivative; pilot input rates taken as zero), rad/s")
                .deps(with_rate);
            PITCH_ACC as pitch_acc = real("blade[{n}].pitch_acc", "rad/s2",
                "Second time derivative of blade[{n}].pitch (constant pilot inputs and rotor speed), rad/s^2")
                .deps(with_rate);
        };
        /// The actuator positions, in the order of [`super::x`].
        SWASHPLATE as swashplate =
            real("theta0", "rad", "Collective pitch (actuator position), rad").deps(|_| vec![u::COLLECTIVE]),
            real("theta1c", "rad", "Lateral cyclic pitch, coefficient of cos(psi) (actuator position), rad")
                .deps(|_| vec![u::LON, u::LAT]),
            real("theta1s", "rad", "Longitudinal cyclic pitch, coefficient of sin(psi) (actuator position), rad")
                .deps(|_| vec![u::LON, u::LAT]),
            real("tail_collective", "rad", "Tail rotor collective pitch (actuator position), rad")
                .deps(|_| vec![u::PEDAL]);
        N;
    }
}

/// The model's tables: parameters (vr 0..), inputs (vr 100..), outputs (vr 200..) and states.
pub const TABLES: Tables = Tables {
    parameters: vr::TABLE,
    inputs: (vr::INPUT_BASE, u::TABLE),
    outputs: (vr::OUTPUT_BASE, y::TABLE),
    states: x::TABLE,
};
