//! The declarations of the AeroStations FMU's variables ([`fmu_core::declare!`]): parameters
//! `0 + k` ([`vr`]), inputs `100 + u index`, outputs `2000 + y index` (the station inputs fill 100..1874), the Pitt-Peters states. The
//! station inputs have the names of RotorElastic's station outputs and the station outputs those
//! of its station inputs (`fmu_rotor_elastic::stations`), so the two connect name for name.

use fmu_core::declare::Tables;
use fmu_rotor_elastic::stations::LABELS;

pub use fmu_rotor_elastic::stations::MAX_STATIONS;

pub use fmu_core::contract::MAX_BLADES;

/// Default tolerance of the integrator inside `fmi2DoStep`.
pub const DEFAULT_TOLERANCE: f64 = 1e-8;

/// The Pitt-Peters inflow states.
pub mod x {
    fmu_core::declare! { view usize;
        LAMBDA as lambda = state_vector("inflow.{c}", "", "1/s", 0.05, &[
            ("lambda0", "lambda_0 (uniform part)"),
            ("lambda_s", "lambda_s (coefficient of (r/R) sin psi)"),
            ("lambda_c", "lambda_c (coefficient of (r/R) cos psi)"),
        ], "Pitt-Peters inflow ratio {w}, v_i / (Omega R) (used with inflow_model = 2)");
        N;
    }
}

/// Indices into the real input vector `u`.
pub mod u {
    use super::LABELS;
    use fmu_core::declare::{BODY, Labels};

    fmu_core::declare! { view usize;
        HUB_VEL as hub_vel = vector("hub.vel.{c}", "m/s", &BODY,
            "Inertial velocity of the hub (rotor attachment point), {w}, m/s: advance ratio, climb and wake skew");
        WIND as wind = vector("wind.{c}", "m/s", &BODY,
            "Velocity of the air (uniform wind) relative to the ground, {w}, m/s");
        STATIONS as station = block(Labels::Named(&LABELS)) per PER_STATION fn station {
            POS as pos = vector("{n}.pos.{c}", "m", &BODY,
                "Position of the section reference point of {n} from the hub point P, {w}, m");
            VEL as vel = vector("{n}.velocity.{c}", "m/s", &BODY, "Inertial velocity of the reference point of {n}, {w}, m/s");
            EY as ey = vector("{n}.ey.{c}", "", &BODY,
                "Section y axis of {n} (unit, chord towards the leading edge), {w} component");
            EZ as ez = vector("{n}.ez.{c}", "", &BODY, "Section z axis of {n} (unit, section normal), {w} component");
            WIDTH as width = real("{n}.width", "m",
                "Tributary span of {n} (quadrature weight of its line load), m; 0: the station is not in use");
        };
        N;
    }
}

/// Indices into the real output vector `y`.
pub mod y {
    use super::{LABELS, u};
    use fmu_core::declare::{BODY, Labels};

    /// The rotor totals depend on every input.
    fn all(_: usize) -> Vec<usize> {
        (0..u::N).collect()
    }

    /// Station `i`'s load: its own kinematics and the hub and wind velocities.
    fn station_inputs(i: usize) -> Vec<usize> {
        (u::HUB_VEL..u::STATIONS).chain(u::station(i)..u::station(i) + u::PER_STATION).collect()
    }

    fmu_core::declare! { view usize;
        THRUST as thrust = real("thrust", "N",
            "Rotor thrust: the sum over the stations of width times the line force along the shaft axis, N").deps(all);
        TORQUE as torque = real("torque", "N.m",
            "Aerodynamic torque about the shaft axis, positive opposing the rotation, N m").deps(all);
        POWER as power = real("power", "W", "Rotor power, torque * Omega (nominal rotor speed), W").deps(all);
        CT as ct = real("CT", "", "Thrust coefficient thrust / (rho pi R^2 (Omega R)^2)").deps(all);
        INFLOW as inflow = real("inflow", "", "Uniform induced inflow ratio lambda_0 (0 without inflow)");
        INFLOW_S as inflow_s = real("inflow_s", "", "Inflow ratio lambda_s, coefficient of (r/R) sin psi");
        INFLOW_C as inflow_c = real("inflow_c", "", "Inflow ratio lambda_c, coefficient of (r/R) cos psi");
        STATIONS as station = block(Labels::Named(&LABELS)) per PER_STATION fn station {
            LINE_FORCE as f = vector("{n}.f.{c}", "N/m", &BODY,
                "Aerodynamic force per unit span on the section of {n}, {w}, N/m (lift normal to and drag along \
                 the air velocity in the section plane)").deps(station_inputs);
            LINE_MOMENT as m = vector("{n}.m.{c}", "N", &BODY,
                "Aerodynamic moment per unit span about the reference point of {n}, {w}, N m/m (0: the \
                 aerodynamic centre is on the reference line)").deps(station_inputs);
        };
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::{DEFAULT_TOLERANCE, MAX_BLADES};
    use fmu_core::declare::BODY;

    fmu_core::declare! { u32;
        NB = integer("nb", 4, 1, MAX_BLADES as i32,
            "Number of active blades (1..8); stations of blades beyond nb are ignored and their loads read 0");
        RADIUS = real("R", "m",
            "Rotor radius, m (> 0): scales the inflow ratios, CT and the twist; the blade extent is the stations'")
            .start(4.91).positive();
        CHORD = real("chord", "m", "Blade chord (uniform along the span), m (> 0)").start(0.27).positive();
        TWIST = real("twist", "rad",
            "Aerodynamic twist added to the section axes' angle, rad: theta_tw(r) = twist * (r/R - 0.75) at the \
             station's radius r (a structural pretwist is already in the section axes ey, ez)").start(0.0);
        LIFT_SLOPE = real("a", "1/rad", "Section lift-curve slope, cl = a * alpha, 1/rad (>= 0)").start(5.73).min(0.0);
        CD0 = real("cd0", "", "Section drag polar cd = cd0 + cd2 * alpha^2: constant term (>= 0)")
            .start(0.008).min(0.0);
        CD2 = real("cd2", "", "Section drag polar cd = cd0 + cd2 * alpha^2: quadratic term, 1/rad^2 (>= 0)")
            .start(0.4).min(0.0);
        RHO = real("rho", "kg/m3", "Air density, kg/m^3 (> 0)").start(1.225).positive();
        INFLOW_MODEL = integer("inflow_model", 2, 0, 2,
            "Induced inflow: 0 none; 2 Pitt-Peters 3-state dynamic inflow (states inside the FMU; its steady state \
             in hover is momentum theory). 1 (Aero's uniform momentum inflow) is not offered: an error");
        OMEGA = real("Omega", "rad/s",
            "Nominal rotor speed, rad/s (> 0): scales the inflow ratios (v = Omega R lambda), CT and the \
             Pitt-Peters time; power = torque * Omega").start(44.401).display_unit("rpm").positive();
        SHAFT = vector("shaft.n{c}", "", &BODY,
            "Rotor shaft axis (thrust direction, rotation right-handed about it) in airframe body axes, {w} \
             component (normalised; default (0, 0, -1) = up): the inflow direction, the stations' radius and \
             azimuth").starts(&[0.0, 0.0, -1.0]);
        LAMBDA_START = vector("{c}_start", "", &[
            ("lambda0", "lambda_0 (uniform part)"),
            ("lambda_s", "lambda_s (coefficient of (r/R) sin psi)"),
            ("lambda_c", "lambda_c (coefficient of (r/R) cos psi)"),
        ], "Initial Pitt-Peters inflow state {w}, a ratio to Omega R (inflow_model = 2 only)");
        TOLERANCE = tolerance("tolerance", DEFAULT_TOLERANCE);
    }
    fmu_core::value_references!(100, 2000);
}

/// The model's tables.
pub const TABLES: Tables = Tables {
    parameters: vr::TABLE,
    inputs: (vr::INPUT_BASE, u::TABLE),
    outputs: (vr::OUTPUT_BASE, y::TABLE),
    states: x::TABLE,
};
