//! The declarations of the Pilot FMU's variables, each written once ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]).

use fmu_core::declare::Tables;

/// Standard gravity, m/s^2: the unit `g` of the transfer functions' input.
pub const G: f64 = 9.80665;

/// Indices into the continuous state vector `x`: per axis, the lever (stick) deflection before
/// the transfer function's lead and its rate (see [`crate::pilot`]). Only with `model = 1` does
/// the model have states.
pub mod x {
    fmu_core::declare! { usize;
        /// Vertical axis: collective lever deflection before the lead, rad.
        VERTICAL = state("vertical.q", "rad", "rad/s", 0.01,
            "Biodynamic collective deflection before the lead term (1 + vertical.tau s), as blade pitch, rad \
             (model = 1)");
        /// Vertical axis: its rate, rad/s.
        VERTICAL_RATE = state("vertical.q_dot", "rad/s", "rad/s2", 0.1,
            "Time derivative of state.vertical.q, rad/s (model = 1)");
        /// Lateral axis: lateral stick deflection before the lead, rad.
        LATERAL = state("lateral.q", "rad", "rad/s", 0.01,
            "Biodynamic lateral cyclic deflection before the lead term (1 + lateral.tau s), as blade pitch, rad \
             (model = 1)");
        /// Lateral axis: its rate, rad/s.
        LATERAL_RATE = state("lateral.q_dot", "rad/s", "rad/s2", 0.1,
            "Time derivative of state.lateral.q, rad/s (model = 1)");
        /// Number of states.
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::G;

    fmu_core::declare! { u32;
        MODEL = integer("model", 0, 0, 1,
            "Biodynamic feedthrough model: 0 = none (the outputs are the voluntary commands; no states), \
             1 = the second-order transfer functions given by vertical.* and lateral.* (see docs/models.md, Pilot)");
        GAIN = real("gain", "",
            "Overall gain of both biodynamic paths (1 = the transfer functions as given; for root-locus sweeps)")
            .start(1.0);
        VERTICAL_K = real("vertical.K", "",
            "Vertical path static gain: collective (rad of blade pitch, as the Controls FMU's collective input) per g \
             of downward cockpit acceleration; > 0 raises the lever when the cockpit accelerates down");
        VERTICAL_OMEGA = real("vertical.omega", "rad/s",
            "Vertical path natural frequency of the second-order denominator, rad/s (> 0 with model = 1)").min(0.0);
        VERTICAL_ZETA = real("vertical.zeta", "",
            "Vertical path damping ratio of the second-order denominator (> 0 with model = 1)").min(0.0);
        VERTICAL_TAU = real("vertical.tau", "s",
            "Vertical path lead time constant of the numerator (1 + tau s), s").min(0.0);
        LATERAL_K = real("lateral.K", "",
            "Lateral path static gain: lateral cyclic (rad of blade pitch, as the Controls FMU's lat_cyclic input; \
             stick right positive) per g of rightward cockpit acceleration");
        LATERAL_OMEGA = real("lateral.omega", "rad/s",
            "Lateral path natural frequency of the second-order denominator, rad/s (> 0 with model = 1)").min(0.0);
        LATERAL_ZETA = real("lateral.zeta", "",
            "Lateral path damping ratio of the second-order denominator (> 0 with model = 1)").min(0.0);
        LATERAL_TAU = real("lateral.tau", "s",
            "Lateral path lead time constant of the numerator (1 + tau s), s").min(0.0);
        ACC_Z_REF = real("acc_z_ref", "m/s2",
            "Cockpit specific force along body z at which the vertical path is at rest, m/s^2 (-g: at rest or in \
             steady level flight)").start(-G);
        TOLERANCE = tolerance("tolerance", 1e-9);
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (4 inputs).
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
        N;
    }
}

/// Indices into the real output vector `y` (4 outputs).
pub mod y {
    use super::u;

    fmu_core::declare! { view usize;
        COLLECTIVE as collective = real("collective", "rad",
            "Collective to the Controls FMU: collective_cmd plus the biodynamic collective, as blade pitch (rad)")
            .deps(|_| vec![u::COLLECTIVE_CMD]);
        LAT_CYCLIC as lat_cyclic = real("lat_cyclic", "rad",
            "Lateral cyclic to the Controls FMU: lat_cyclic_cmd plus the biodynamic lateral cyclic, as blade pitch \
             (rad)")
            .deps(|_| vec![u::LAT_CYCLIC_CMD]);
        BDFT_COLLECTIVE as bdft_collective = real("bdft.collective", "rad",
            "Biodynamic (involuntary) part of collective, rad");
        BDFT_LAT_CYCLIC as bdft_lat_cyclic = real("bdft.lat_cyclic", "rad",
            "Biodynamic (involuntary) part of lat_cyclic, rad");
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
