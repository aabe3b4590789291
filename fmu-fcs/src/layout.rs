//! The declarations of the FCS FMU's variables, each written once ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]). The four control channels are, in this order everywhere: collective,
//! longitudinal cyclic, lateral cyclic, pedal.

use fmu_core::declare::Tables;

/// The four control channels: component suffixes and their words.
const CHANNELS: [(&str, &str); 4] = [
    ("collective", "collective"),
    ("lon_cyclic", "longitudinal cyclic"),
    ("lat_cyclic", "lateral cyclic"),
    ("pedal", "pedal"),
];

/// Indices into the continuous state vector `x` (the declared maximum; a configuration has the
/// states of its active parts only, see [`crate::fcs`]).
pub mod x {
    use super::CHANNELS;

    fmu_core::declare! { view usize;
        /// Actuator positions, one per channel, rad (with `actuator.tau > 0`).
        ACTUATOR as actuator = state_vector("actuator.{c}", "rad", "rad/s", 0.1, &CHANNELS,
            "Control-system actuator position of the {w} channel, as the Controls FMU's input (rad; \
             actuator.tau > 0)");
        /// Washout filters' low-passed body rates p, q, r, rad/s (with `sas` and `sas.washout_tau > 0`).
        WASHOUT as washout = state_vector("washout.{c}", "rad/s", "rad/s2", 0.1,
            &[("p", "roll rate p"), ("q", "pitch rate q"), ("r", "yaw rate r")],
            "Washout filter state of the SAS: the {w} low-passed with time constant sas.washout_tau; the SAS \
             feeds back the rate minus this (rad/s; sas and sas.washout_tau > 0)");
        /// Integral terms of the roll, pitch and heading holds, rad of control.
        INTEGRAL as integral = state_vector("integral.{c}", "rad", "rad/s", 0.01,
            &[("phi", "roll attitude hold (Ki_phi times the integral of the roll error)"),
              ("theta", "pitch attitude hold (Ki_theta times the integral of the pitch error)"),
              ("psi", "heading hold (Ki times the integral of the heading error)")],
            "Integral term of the {w}, as the Controls FMU's input (rad; the hold on and its Ki non-zero)");
        /// Number of declared states.
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::CHANNELS;

    fmu_core::declare! { u32;
        GEAR = vector("gear.{c}", "rad", &CHANNELS,
            "Gearing of the {w} channel: Controls input (rad of blade pitch) per unit of stick travel").start(1.0);
        OFFSET = vector("offset.{c}", "rad", &CHANNELS,
            "Controls input of the {w} channel (rad) at zero stick travel");
        ACTUATOR_TAU = real("actuator.tau", "s",
            "Time constant of the first-order control-system actuators of all four channels, s (>= 0; 0 = none, \
             no states)").min(0.0);
        SAS = boolean("sas", false,
            "Stability augmentation (body-rate damping of roll, pitch and yaw, with washout) on");
        SAS_GAIN = vector("sas.K_{c}", "s", &[("p", "roll"), ("q", "pitch"), ("r", "yaw")],
            "SAS {w} rate gain: Controls input (rad) per rad/s of washed-out body rate (> 0 damps; signs in \
             docs/models.md, FCS)");
        WASHOUT_TAU = real("sas.washout_tau", "s",
            "Time constant of the SAS washout tau_w s / (tau_w s + 1), s (>= 0; 0 = no washout: pure rate \
             feedback)").min(0.0);
        ATTITUDE_HOLD = boolean("attitude_hold", false,
            "Roll and pitch attitude hold (PI on the attitude error against cmd.phi, cmd.theta) on");
        ATTITUDE_KP = vector("attitude_hold.K_{c}", "", &[("phi", "roll"), ("theta", "pitch")],
            "Attitude hold {w} proportional gain: Controls input (rad) per rad of attitude error");
        ATTITUDE_KI = vector("attitude_hold.Ki_{c}", "1/s", &[("phi", "roll"), ("theta", "pitch")],
            "Attitude hold {w} integral gain: Controls input (rad) per rad s of integrated attitude error, 1/s \
             (0 = proportional only, no state)");
        HEADING_HOLD = boolean("heading_hold", false, "Heading hold (PI on the heading error against cmd.psi) on");
        HEADING_KP = real("heading_hold.K", "", "Heading hold proportional gain: pedal (rad) per rad of heading error");
        HEADING_KI = real("heading_hold.Ki", "1/s",
            "Heading hold integral gain: pedal (rad) per rad s of integrated heading error, 1/s (0 = no state)");
        HOVER_HOLD = boolean("hover_hold", false,
            "Hover hold (position and velocity loops to cmd.x, cmd.y, cmd.z, through the attitude hold's \
             references and the collective) on; needs attitude_hold");
        HOVER_K_POS = real("hover_hold.K_pos", "1/s",
            "Hover hold horizontal position gain: commanded ground speed (m/s) per m of position error, 1/s");
        HOVER_K_VEL = real("hover_hold.K_vel", "rad.s/m",
            "Hover hold horizontal velocity gain: attitude reference (rad) per m/s of velocity error");
        HOVER_K_Z = real("hover_hold.K_z", "1/s",
            "Hover hold height gain: commanded vertical speed (m/s) per m of height error, 1/s");
        HOVER_K_W = real("hover_hold.K_w", "rad.s/m",
            "Hover hold vertical velocity gain: collective (rad) per m/s of vertical velocity error");
        TOLERANCE = tolerance("tolerance", 1e-9);
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (22 inputs).
pub mod u {
    use fmu_core::declare::{NED, UVW};

    fmu_core::declare! { view usize;
        /// The pilot's controls, fractions of travel.
        STICK as stick =
            real("stick.collective", "", "Collective lever travel, fraction of full travel (up = positive)"),
            real("stick.lon", "", "Longitudinal cyclic stick travel from centre, fraction of full travel (forward = \
                 positive)"),
            real("stick.lat", "", "Lateral cyclic stick travel from centre, fraction of full travel (right = \
                 positive)"),
            real("stick.pedal", "", "Pedal travel from centre, fraction of full travel (positive = more tail rotor \
                 collective, as the Controls FMU's pedal)");
        /// The autopilot's references.
        CMD as cmd =
            real("cmd.phi", "rad", "Roll attitude reference of the attitude hold (3-2-1), rad, right wing down positive"),
            real("cmd.theta", "rad", "Pitch attitude reference of the attitude hold (3-2-1), rad, nose up positive"),
            real("cmd.psi", "rad", "Heading reference of the heading hold (3-2-1), rad, from north towards east"),
            vector("cmd.{c}", "m", &NED, "Hover hold position reference, {w}, m");
        /// Sensors: the Fuselage's attitude (3-2-1).
        ATTITUDE as attitude =
            real("phi", "rad", "Roll angle (3-2-1), rad (the Fuselage's phi)"),
            real("theta", "rad", "Pitch angle (3-2-1), rad (the Fuselage's theta)"),
            real("psi", "rad", "Heading (3-2-1), rad (the Fuselage's psi)");
        /// Sensors: the Fuselage's body rates.
        RATES as rates =
            real("p", "rad/s", "Roll rate, body x (forward), rad/s (the Fuselage's p)"),
            real("q", "rad/s", "Pitch rate, body y (right), rad/s (the Fuselage's q)"),
            real("r", "rad/s", "Yaw rate, body z (down), rad/s (the Fuselage's r)");
        /// Sensors: the Fuselage's body velocity.
        VELOCITY as velocity =
            vector("{c}", "m/s", &UVW, "Velocity, {w}, m/s (the Fuselage's {c})");
        /// Sensors: the Fuselage's position.
        POSITION as position =
            vector("{c}", "m", &NED, "Position, {w}, m (the Fuselage's {c})");
        N;
    }
}

/// Indices into the real output vector `y` (8 outputs).
pub mod y {
    use super::u;

    /// What the collective depends on: lever, height reference, height, vertical speed.
    fn collective(_: usize) -> Vec<usize> {
        vec![u::STICK, u::CMD + 5, u::VELOCITY + 2, u::POSITION + 2]
    }

    /// What the longitudinal cyclic depends on: stick, pitch loops, horizontal hover loops.
    fn lon_cyclic(_: usize) -> Vec<usize> {
        let mut deps = vec![u::STICK + 1, u::CMD + 1, u::CMD + 3, u::CMD + 4, u::ATTITUDE + 1, u::ATTITUDE + 2];
        deps.extend([u::RATES + 1, u::VELOCITY, u::VELOCITY + 1, u::POSITION, u::POSITION + 1]);
        deps
    }

    /// What the lateral cyclic depends on: stick, roll loops, horizontal hover loops.
    fn lat_cyclic(_: usize) -> Vec<usize> {
        let mut deps = vec![u::STICK + 2, u::CMD, u::CMD + 3, u::CMD + 4, u::ATTITUDE, u::ATTITUDE + 2];
        deps.extend([u::RATES, u::VELOCITY, u::VELOCITY + 1, u::POSITION, u::POSITION + 1]);
        deps
    }

    /// What the pedal depends on: pedal, yaw rate, heading and its reference.
    fn pedal(_: usize) -> Vec<usize> {
        vec![u::STICK + 3, u::CMD + 2, u::ATTITUDE + 2, u::RATES + 2]
    }

    fmu_core::declare! { view usize;
        /// The commands to the Controls FMU, rad.
        COMMAND as command =
            real("collective", "rad", "Collective to the Controls FMU, rad: offset + gear * stick + augmentation, \
                 through the actuator").deps(collective),
            real("lon_cyclic", "rad", "Longitudinal cyclic to the Controls FMU (forward = positive), rad")
                .deps(lon_cyclic),
            real("lat_cyclic", "rad", "Lateral cyclic to the Controls FMU (right = positive), rad").deps(lat_cyclic),
            real("pedal", "rad", "Pedal to the Controls FMU (more tail rotor collective = positive), rad").deps(pedal);
        /// The loops' share of the commands (before the actuator), rad.
        AUGMENTATION as augmentation =
            real("aug.collective", "rad", "Sum of the loops' collective commands (hover hold), rad").deps(collective),
            real("aug.lon_cyclic", "rad", "Sum of the loops' longitudinal cyclic commands (SAS, attitude and hover \
                 hold), rad").deps(lon_cyclic),
            real("aug.lat_cyclic", "rad", "Sum of the loops' lateral cyclic commands (SAS, attitude and hover hold), \
                 rad").deps(lat_cyclic),
            real("aug.pedal", "rad", "Sum of the loops' pedal commands (SAS, heading hold), rad").deps(pedal);
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
