//! The declarations of the RotorElastic FMU's variables ([`fmu_core::declare!`]): parameters
//! `0 + k` ([`vr`]), inputs `100 + u index`, outputs `2000 + y index` (the station inputs fill 100..1000). The inputs and the hub,
//! azimuth and per-blade kinematic outputs have the Rotor FMU's names, frames and signs, so the
//! Fuselage, Controls and Aero couple to it as to the Rotor. The continuous states are declared
//! by the model (`fmu_core::Model::state_variables`): [`MAX_ELEMENTS`] nodes per blade for the
//! [`MAX_BLADES`] blades, of which `nb` blades and `n_elements` nodes are used.

use fmu_core::declare::Tables;

pub use fmu_core::contract::MAX_BLADES;

/// The most elements per blade (FMI 2.0 fixes the number of variables, hence of declared
/// states, independently of the parameters: `n_elements` selects how many are used).
pub const MAX_ELEMENTS: usize = 16;

/// Default tolerance of the integrator inside `fmi2DoStep`.
pub const DEFAULT_TOLERANCE: f64 = 1e-7;

/// Blade axes: component suffixes and their words, for descriptions.
const BLADE: [(&str, &str); 3] = [
    ("x", "blade x (radially outboard: from the clamp towards the tip)"),
    ("y", "blade y (towards the leading edge)"),
    ("z", "blade z (blade normal, up at zero angles)"),
];

/// Pitch-frame axes: component suffixes and their words.
const PITCH_FRAME: [(&str, &str); 3] = [
    ("x", "pitch-frame x (along the undeformed pitch axis, outboard)"),
    ("y", "pitch-frame y (towards the leading edge)"),
    ("z", "pitch-frame z (blade normal at zero pitch: +z_H)"),
];

/// Indices into the real input vector `u`.
pub mod u {
    use super::{BLADE, MAX_BLADES};
    use fmu_core::declare::{BODY, Labels};

    fmu_rotor::declare_rotor_inputs! {
        BLADES = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            PITCH = real("blade[{n}].pitch", "rad",
                "Pitch angle of blade {n} (driven pitch bearing at the hub, positive leading edge up), rad");
            PITCH_RATE = real("blade[{n}].pitch_rate", "rad/s", "Pitch rate of blade {n}, rad/s");
            PITCH_ACC = real("blade[{n}].pitch_acc", "rad/s2", "Pitch acceleration of blade {n}, rad/s^2");
            FORCE = vector("blade[{n}].F.{c}", "N", &BLADE,
                "Applied (aerodynamic) force on blade {n} at its root reference (the clamp), {w} of the equivalent \
                 rigid blade, N; spread along the beam as a line load linear in the span with the same resultant \
                 and moment about the root");
            MOMENT = vector("blade[{n}].M.{c}", "N.m", &BLADE,
                "Applied (aerodynamic) couple on blade {n} about its root reference, {w} of the equivalent rigid \
                 blade, N m (y and z: through the linear line load; x: a uniform torque per length)");
        };
        /// The station-level aero interface's loads (used with `aero_interface = 1`).
        STATIONS = block(Labels::Named(&crate::stations::LABELS)) per PER_STATION fn station {
            LINE_FORCE = vector("{n}.f.{c}", "N/m", &BODY,
                "Applied (aerodynamic) force per unit span at {n} (beam node; k = 1 the clamp), {w}, N/m; used \
                 when aero_interface = 1 and the station exists (k <= n_elements + 1): the node takes it times its \
                 width output");
            LINE_MOMENT = vector("{n}.m.{c}", "N", &BODY,
                "Applied (aerodynamic) moment per unit span about the reference point of {n}, {w}, N m/m; used \
                 when aero_interface = 1");
        };
        N;
    }
}

/// Indices into the real output vector `y`.
pub mod y {
    use super::{BLADE, MAX_BLADES, MAX_ELEMENTS, PITCH_FRAME, u};
    use fmu_core::declare::{BODY, Labels};

    /// Inputs on which the hub loads depend directly (through the clamped root node and the
    /// blade loads): all but the hub velocity.
    fn loads(_: usize) -> Vec<usize> {
        (u::HUB_OMEGA..u::N).collect()
    }

    /// Station `i`'s blade pitch (its pitch frame).
    fn station_pitch(i: usize) -> Vec<usize> {
        vec![u::blade(i / crate::stations::MAX_STATIONS) + u::PITCH]
    }

    /// Station `i`'s velocity: the hub velocity and angular velocity, its blade's pitch and rate.
    fn station_motion(i: usize) -> Vec<usize> {
        let b = i / crate::stations::MAX_STATIONS;
        (u::HUB_VEL..u::HUB_OMEGA + 3).chain([u::blade(b) + u::PITCH, u::blade(b) + u::PITCH_RATE]).collect()
    }

    /// The hub angular velocity and every blade's pitch and pitch rate.
    fn blade_motion(b: usize) -> Vec<usize> {
        (u::HUB_OMEGA..u::HUB_OMEGA + 3).chain([u::blade(b) + u::PITCH, u::blade(b) + u::PITCH_RATE]).collect()
    }

    fmu_core::declare! { view usize;
        HUB_FORCE as hub_force = vector("hub.F.{c}", "N", &BODY,
            "Force of the rotor on the airframe at P, {w}, N: the clamp loads of all blades").deps(loads);
        HUB_MOMENT as hub_moment = vector("hub.M.{c}", "N.m", &BODY,
            "Moment of the rotor on the airframe about P, {w}, N m").deps(loads);
        AZIMUTH as azimuth = real("azimuth", "rad",
            "Shaft azimuth psi = psi0 + Omega t (rotation of the hub about +z_H from x_H), rad; continuous");
        SHAFT_RATE as shaft_rate = real("shaft.rate", "rad/s", "Shaft angular velocity relative to the airframe about +z_H (Omega), rad/s");
        SHAFT_TORQUE as shaft_torque = real("shaft.torque", "N.m",
            "Torque the drive applies to the rotor about +z_H to hold Omega, N m (positive against aerodynamic \
             drag)").deps(loads);
        BLADES as blade = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            AZIMUTH_B as azimuth = real("blade[{n}].azimuth", "rad",
                "Azimuth of blade {n}: psi + 2 pi ({n} - 1)/nb, rad, continuous (0 when inactive)");
            FLAP as flap = real("blade[{n}].flap", "rad",
                "Equivalent flap angle of blade {n}: elevation of the chord from the clamp to the tip above the \
                 rotor plane (towards +z_H), rad");
            LAG as lag = real("blade[{n}].lag", "rad",
                "Equivalent lag angle of blade {n}: angle of that chord behind the radial direction in the rotor \
                 plane (lagging behind the rotation), rad");
            FLAP_RATE as flap_rate = real("blade[{n}].flap_rate", "rad/s", "Rate of blade[{n}].flap, rad/s");
            LAG_RATE as lag_rate = real("blade[{n}].lag_rate", "rad/s", "Rate of blade[{n}].lag, rad/s");
            VEL as vel = vector("blade[{n}].vel.{c}", "m/s", &BLADE,
                "Inertial velocity of the root reference (the clamp, on the pitch axis) of blade {n}, {w} of the \
                 equivalent rigid blade, m/s (for the aerodynamics)")
                .deps(|b| (u::HUB_VEL..u::HUB_OMEGA + 3).chain([u::blade(b) + u::PITCH]).collect());
            OMEGA as omega = vector("blade[{n}].omega.{c}", "rad/s", &BLADE,
                "Inertial angular velocity of the equivalent rigid blade {n} (the frame through the clamp and the \
                 tip), {w}, rad/s").deps(blade_motion);
            SHAFT as shaft = vector("blade[{n}].shaft.{c}", "", &BLADE,
                "Shaft axis z_H (unit vector) in the axes of the equivalent rigid blade {n}, {w} (the Aero FMU's \
                 blade[{n}].shaft input)").deps(|b| vec![u::blade(b) + u::PITCH]);
            TIP as tip = vector("blade[{n}].tip.{c}", "m", &PITCH_FRAME,
                "Elastic displacement of the tip node of blade {n} from its undeformed position, {w}, m");
            TIP_TWIST as tip_twist = real("blade[{n}].tip.twist", "rad",
                "Elastic twist of the tip section of blade {n} relative to the clamp (nose up), rad");
        };
        /// The undeformed radius of each node (the stations of the mode shapes).
        NODES as node = block(Labels::Numbered(MAX_ELEMENTS)) per PER_NODE_OUT fn node {
            NODE_RADIUS as r = real("node[{n}].r", "m",
                "Undeformed radius of node {n} of the blades (the station of the states blade[b].node[{n}].*, \
                 counted from the clamp): its distance from the shaft axis along the pitch axis, m; 0 for {n} > \
                 n_elements");
        };
        /// The station-level aero interface's kinematics (written whatever `aero_interface`).
        STATIONS as station = block(Labels::Named(&crate::stations::LABELS)) per PER_STATION fn station {
            STATION_POS as pos = vector("{n}.pos.{c}", "m", &BODY,
                "Position of the reference point (beam node on the elastic line; k = 1 the clamp, n_elements + 1 \
                 the tip) of {n} from the attachment point P, {w}, m (0 for stations and blades not in use)")
                .deps(station_pitch);
            STATION_VEL as vel = vector("{n}.velocity.{c}", "m/s", &BODY,
                "Inertial velocity of the reference point of {n}, {w}, m/s (air at rest: the air moves at minus \
                 this relative to the section)").deps(station_motion);
            STATION_EY as ey = vector("{n}.ey.{c}", "", &BODY,
                "Section y axis of {n} (unit, along the chord towards the leading edge, with pitch, pretwist and \
                 elastic rotation), {w} component").deps(station_pitch);
            STATION_EZ as ez = vector("{n}.ez.{c}", "", &BODY,
                "Section z axis of {n} (unit, section normal: up at zero pitch; the section x axis, outboard, is \
                 ey x ez), {w} component").deps(station_pitch);
            STATION_WIDTH as width = real("{n}.width", "m",
                "Tributary span of {n}: the trapezoidal weight of its node on the undeformed span (half of each \
                 adjacent element), m; the node's load is width times the line load; 0 for stations not in use");
        };
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::{DEFAULT_TOLERANCE, MAX_BLADES, MAX_ELEMENTS};
    use fmu_core::declare::{BODY, Labels};

    fmu_core::declare! { u32;
        NB = integer("nb", 4, 1, MAX_BLADES as i32,
            "Number of active blades (1..8); variables of blades beyond nb read 0 and their inputs are ignored");
        OMEGA = real("Omega", "rad/s", "Rotor speed about +z_H (the shaft axis), rad/s: the constant drive rate \
             of the shaft (psi = psi0 + Omega t)").start(44.401).display_unit("rpm");
        PSI0 = real("psi0", "rad", "Shaft azimuth at t = 0, rad: blade 1 points along x_H when psi = 0");
        /// The shaft axis.
        SHAFT_AXIS = vector("shaft.n{c}", "", &BODY,
            "Shaft axis z_H (thrust direction; the rotor turns right-handed about it), {w} component, airframe \
             body axes; normalised (default (0, 0, -1))").starts(&[0.0, 0.0, -1.0]);
        /// The azimuth-zero direction.
        SHAFT_AZIMUTH_ZERO = vector("shaft.a{c}", "", &BODY,
            "Azimuth-zero direction x_H, {w} component, airframe body axes; made orthonormal to the shaft axis \
             (default (-1, 0, 0): blade 1 over the tail at psi = 0)").starts(&[-1.0, 0.0, 0.0]);
        BLADE_FILE = string("blade_file", "bo105_uniform_blade.csv",
            "Blade properties table (CSV, `name [unit]` headers; docs/models.md, Beam): an absolute path, or a path \
             relative to the FMU's resources folder (the shipped Bo105-class uniform blade is \
             bo105_uniform_blade.csv); the blade is clamped at the first station's radius on the pitch axis and \
             ends at the last one's; read at initialization");
        N_ELEMENTS = integer("n_elements", 8, 1, MAX_ELEMENTS as i32,
            "Number of equal two-node beam elements per blade (1..16, the declared maximum)");
        TOLERANCE = tolerance("tolerance", DEFAULT_TOLERANCE);
        ROTARY_INERTIA_SCALING = boolean("rotary_inertia_scaling", true,
            "Add to each node's flap and lag inertia the rotary inertia of its element mass, (m L/2) L^2/12 per \
             element side (mass scaling of the rotations): lowers the highest natural frequency about tenfold, so \
             explicit integrators take larger steps, and changes the bending frequencies by O(L^2) (false: the \
             section inertias of the table only)");
        STRUCTURAL_DAMPING = real("structural_damping", "s",
            "Stiffness-proportional (Rayleigh) structural damping coefficient beta, s (>= 0; 0: none): damping \
             loads -beta K q', modal damping ratio beta omega/2 of an elastic mode of frequency omega (e.g. 1e-3 \
             s: 0.3 % at 1 Hz, 3 % at 10 Hz)").min(0.0);
        HUB_TYPE = integer("hub_type", 0, 0, 1,
            "Hub configuration: 0 hingeless (the beam clamped behind the pitch bearing on the shaft); 1 articulated \
             (lag then flap hinge at the offset e, springs k_lag and k_flap, lag damper c_lag, the pitch bearing \
             outboard of them and the beam clamped in the pitch frame; docs/models.md, Hub configurations)");
        E = real("e", "m",
            "Hinge offset from the shaft axis with hub_type = 1, m (0 <= e <= the blade table's first radius, \
             where the beam is clamped; a massless rigid arm joins hinge and clamp)").start(0.3).min(0.0);
        K_LAG = real("k_lag", "N.m/rad",
            "Lag hinge spring with hub_type = 1, N m/rad (>= 0): restoring moment -k_lag lag about the lag hinge")
            .min(0.0);
        C_LAG = real("c_lag", "N.m.s/rad",
            "Lag damper with hub_type = 1, N m s/rad (>= 0): moment -c_lag blade[n].c_lag_factor lag_rate about the \
             lag hinge").min(0.0);
        K_FLAP = real("k_flap", "N.m/rad",
            "Flap hinge spring with hub_type = 1, N m/rad (>= 0): restoring moment -k_flap flap about the flap \
             hinge").min(0.0);
        /// Per-blade overrides: blade `i` (0-based) at `BLADE_OVERRIDES + PER_BLADE_OVERRIDES * i`.
        BLADE_OVERRIDES = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE_OVERRIDES {
            C_LAG_FACTOR = real("blade[{n}].c_lag_factor", "",
                "Factor on c_lag for the lag damper of blade {n} with hub_type = 1 (>= 0; 1: c_lag; 0: the damper \
                 inoperative)").start(1.0).min(0.0);
            PITCH_OFFSET = real("blade[{n}].pitch_offset", "rad",
                "Pitch offset of blade {n} added to its pitch input (a track error, positive leading edge up), rad");
            MASS_FACTOR = real("blade[{n}].mass_factor", "",
                "Factor on the mass per length and section inertias of blade {n} along its whole span (> 0; 1: the \
                 blade table's): an imbalanced blade").start(1.0).positive();
            STIFFNESS_FACTOR = real("blade[{n}].stiffness_factor", "",
                "Factor on the whole section stiffness matrix of blade {n} (> 0; 1: the blade table's)").start(1.0)
                .positive();
        };

        INTEGRATOR = integer("integrator", 0, 0, 2,
            "Integrator inside fmi2DoStep (Co-Simulation): 0 the Dormand-Prince 5(4) with error control at \
             `tolerance` (explicit: its step is bounded by the stiffest blade mode); 1 the implicit midpoint rule, 2 \
             BDF2, per blade at fixed steps of at most implicit_step with Newton to `tolerance` (both second order \
             and A-stable: the midpoint without numerical damping, BDF2 damping the modes with h omega >> 1; \
             docs/models.md, Elastic rotor); 1 and 2 with hub_type = 0 only");
        IMPLICIT_STEP = real("implicit_step", "s",
            "Largest step of the implicit integrators (integrator = 1 or 2), s: each communication step is divided \
             into equal steps no longer than this").start(1e-3).min(1e-6);

        AERO_INTERFACE = integer("aero_interface", 0, 0, 1,
            "Which aerodynamic inputs the blades take: 0 = the equivalent rigid blade's root loads blade[n].F/M \
             (spread as a linear line load); 1 = the station line loads blade[n].station[k].f/m at the beam nodes \
             (docs/models.md, Station-level aero interface); the station kinematics outputs are written either way");
    }
    fmu_core::value_references!(100, 2000);
}

/// The model's tables: parameters (vr 0..), inputs (vr 100..), outputs (vr 2000..); the states
/// are declared by the model.
pub const TABLES: Tables = Tables {
    parameters: vr::TABLE,
    inputs: (vr::INPUT_BASE, u::TABLE),
    outputs: (vr::OUTPUT_BASE, y::TABLE),
    states: &[],
};
