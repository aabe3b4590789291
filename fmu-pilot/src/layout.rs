//! The declarations of the Pilot FMU's variables, each written once ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]).

use fmu_core::declare::Tables;

/// Standard gravity, m/s^2: the unit `g` of the transfer functions' input.
pub const G: f64 = 9.80665;

/// Indices into the declared continuous states: per biodynamic axis, the lever (stick)
/// deflection before the transfer function's lead and its rate (see [`crate::pilot`]), then the
/// voluntary pilot's Pade and lag states ([`crate::voluntary`]). A configuration has those of its
/// active parts only.
pub mod x {
    fmu_core::declare! { view usize;
        /// Vertical axis: collective lever deflection before the lead, rad.
        VERTICAL as vertical = state("vertical.q", "rad", "rad/s", 0.01,
            "Biodynamic collective deflection before the vertical path's lead term (1 + tau s: vertical.tau, Mayo's \
             with model = 2), as blade pitch, rad (model = 1 or 2)");
        /// Vertical axis: its rate, rad/s.
        VERTICAL_RATE as vertical_rate = state("vertical.q_dot", "rad/s", "rad/s2", 0.1,
            "Time derivative of state.vertical.q, rad/s (model = 1 or 2)");
        /// Lateral axis: lateral stick deflection before the lead, rad.
        LATERAL as lateral = state("lateral.q", "rad", "rad/s", 0.01,
            "Biodynamic lateral cyclic deflection before the lead term (1 + lateral.tau s), as blade pitch, rad \
             (model = 1 or 3)");
        /// Lateral axis: its rate, rad/s.
        LATERAL_RATE as lateral_rate = state("lateral.q_dot", "rad/s", "rad/s2", 0.1,
            "Time derivative of state.lateral.q, rad/s (model = 1 or 3)");
        /// Voluntary pilot: the Pade approximant's states (`voluntary.pade_order` of them).
        PADE as pade = state_vector("voluntary.pade{c}", "rad", "rad/s", 0.01, &[("1", "first"), ("2", "second")],
            "Voluntary pilot: {w} state of the Pade approximant of the time delay, in the tracking error's unit \
             (rad or m) (voluntary.task > 0, voluntary.delay > 0)");
        /// Voluntary pilot: the lead-lag's lag state.
        LEAD_LAG as lead_lag = state("voluntary.lag", "rad", "rad/s", 0.01,
            "Voluntary pilot: the delayed tracking error low-passed by 1 / (T_lag s + 1), in the error's unit \
             (rad or m) (voluntary.task > 0)");
        /// Number of states.
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::G;

    fmu_core::declare! { u32;
        MODEL = integer("model", 0, 0, 3,
            "Biodynamic feedthrough model: 0 = none (no biodynamic states), 1 = the second-order transfer \
             functions given by vertical.* and lateral.*, 2 = Mayo's mesomorphic pilot for the vertical path \
             (omega, zeta, tau from Mayo 1989, gain vertical.K; no lateral path), 3 = the lateral arm alone (the \
             second-order transfer function given by lateral.*, no vertical path; no published lateral coefficients \
             found, the values are the user's) (see docs/models.md, Pilot)");
        GAIN = real("gain", "",
            "Overall gain of both biodynamic paths (1 = the transfer functions as given; for root-locus sweeps)")
            .start(1.0);
        VERTICAL_K = real("vertical.K", "",
            "Vertical path static gain: collective (rad of blade pitch, as the Controls FMU's collective input) per g \
             of downward cockpit acceleration; > 0 raises the lever when the cockpit accelerates down");
        VERTICAL_OMEGA = real("vertical.omega", "rad/s",
            "Vertical path natural frequency of the second-order denominator, rad/s (> 0 with model = 1; model = 2 \
             uses Mayo's)").min(0.0);
        VERTICAL_ZETA = real("vertical.zeta", "",
            "Vertical path damping ratio of the second-order denominator (> 0 with model = 1; model = 2 uses Mayo's)").min(0.0);
        VERTICAL_TAU = real("vertical.tau", "s",
            "Vertical path lead time constant of the numerator (1 + tau s), s (model = 1; model = 2 uses Mayo's)").min(0.0);
        LATERAL_K = real("lateral.K", "",
            "Lateral path static gain: lateral cyclic (rad of blade pitch, as the Controls FMU's lat_cyclic input; \
             stick right positive) per g of rightward cockpit acceleration");
        LATERAL_OMEGA = real("lateral.omega", "rad/s",
            "Lateral path natural frequency of the second-order denominator, rad/s (> 0 with model = 1 or 3)").min(0.0);
        LATERAL_ZETA = real("lateral.zeta", "",
            "Lateral path damping ratio of the second-order denominator (> 0 with model = 1 or 3)").min(0.0);
        LATERAL_TAU = real("lateral.tau", "s",
            "Lateral path lead time constant of the numerator (1 + tau s), s").min(0.0);
        ACC_Z_REF = real("acc_z_ref", "m/s2",
            "Cockpit specific force along body z at which the vertical path is at rest, m/s^2 (-g: at rest or in \
             steady level flight)").start(-G);
        TOLERANCE = tolerance("tolerance", 1e-9);
        VOLUNTARY_TASK = integer("voluntary.task", 0, 0, 2,
            "Voluntary pilot (McRuer precision model) task: 0 = none, 1 = roll attitude tracking (error cmd.phi - phi, \
             rad, to lat_cyclic), 2 = height tracking (error cmd.height + z, m, to collective)");
        VOLUNTARY_K = real("voluntary.K", "",
            "Voluntary pilot gain: control (rad of blade pitch) per unit of tracking error (rad or m)");
        VOLUNTARY_T_LEAD = real("voluntary.T_lead", "s", "Voluntary pilot lead time constant T_lead, s (>= 0)").min(0.0);
        VOLUNTARY_T_LAG = real("voluntary.T_lag", "s",
            "Voluntary pilot lag time constant T_lag, s (> 0 with a task)").min(0.0).start(0.1);
        VOLUNTARY_DELAY = real("voluntary.delay", "s",
            "Voluntary pilot time delay tau, s (>= 0; 0 = none), as a Pade approximant").min(0.0);
        VOLUNTARY_PADE_ORDER = integer("voluntary.pade_order", 2, 1, 2,
            "Order of the Pade approximant of the voluntary pilot's time delay (1 or 2)");
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (8 inputs).
pub mod u {
    use super::G;

    fmu_core::declare! { view usize;
        COLLECTIVE_CMD as collective_cmd = real("collective_cmd", "rad",
            "Voluntary collective command, as blade pitch (rad); up = positive");
        LAT_CYCLIC_CMD as lat_cyclic_cmd = real("lat_cyclic_cmd", "rad",
            "Voluntary lateral cyclic command, as blade pitch (rad); stick right = positive");
        ACC_Y as acc_y = real("acc.y", "m/s2",
            "Cockpit specific force along body y (right), m/s^2 (a Fuselage point's acc.y)");
        ACC_Z as acc_z = real("acc.z", "m/s2",
            "Cockpit specific force along body z (down), m/s^2 (a Fuselage point's acc.z; -g at rest)")
            .start(-G);
        CMD_PHI as cmd_phi = real("cmd.phi", "rad", "Voluntary pilot: roll attitude command (voluntary.task = 1), rad");
        CMD_HEIGHT as cmd_height = real("cmd.height", "m",
            "Voluntary pilot: height command above NED z = 0 (voluntary.task = 2), m");
        PHI as phi = real("phi", "rad", "Voluntary pilot: roll angle, rad (the Fuselage's phi)");
        Z as z = real("z", "m", "Voluntary pilot: NED z (down), m (the Fuselage's z); the height is -z");
        N;
    }
}

/// Indices into the real output vector `y` (5 outputs).
pub mod y {
    use super::u;

    fmu_core::declare! { view usize;
        COLLECTIVE as collective = real("collective", "rad",
            "Collective to the Controls FMU: collective_cmd plus the biodynamic collective (plus the voluntary pilot's \
             output with voluntary.task = 2), as blade pitch (rad)")
            .deps(|_| vec![u::COLLECTIVE_CMD, u::CMD_HEIGHT, u::Z]);
        LAT_CYCLIC as lat_cyclic = real("lat_cyclic", "rad",
            "Lateral cyclic to the Controls FMU: lat_cyclic_cmd plus the biodynamic lateral cyclic (plus the voluntary \
             pilot's output with voluntary.task = 1), as blade pitch (rad)")
            .deps(|_| vec![u::LAT_CYCLIC_CMD, u::CMD_PHI, u::PHI]);
        BDFT_COLLECTIVE as bdft_collective = real("bdft.collective", "rad",
            "Biodynamic (involuntary) part of collective, rad");
        BDFT_LAT_CYCLIC as bdft_lat_cyclic = real("bdft.lat_cyclic", "rad",
            "Biodynamic (involuntary) part of lat_cyclic, rad");
        VOLUNTARY as voluntary = real("voluntary", "rad",
            "Voluntary pilot's control (McRuer precision model on the tracking error), rad")
            .deps(|_| vec![u::CMD_PHI, u::CMD_HEIGHT, u::PHI, u::Z]);
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
