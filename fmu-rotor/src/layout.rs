//! The declarations of the Rotor FMU's variables, each written once: the index constants, the views, the
//! value references and the variable list ([`TABLES`]) are generated from them
//! ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `300 + y index`
//! ([`vr::OUTPUT_BASE`]). So the `u` and `y` index constants below are also value-reference
//! offsets. Blade-indexed variables exist for blades 1..=8 ([`MAX_BLADES`]); the `nb` parameter
//! selects how many are active. Blade indices in this API are 0-based (`blade[1]` is index 0).
//!
//! The continuous state is `[q, q']`, `q` the free joint angles in link order (shaft if
//! `shaft_free`, then per blade lag unless `lock_lag` and flap unless `lock_flap`); see
//! [`crate::Rotor::coordinates`]; the declared states are [`x`].

use fmu_core::declare::Tables;

pub use fmu_core::contract::MAX_BLADES;

/// Default tolerance of the integrator inside `fmi2DoStep`.
pub const DEFAULT_TOLERANCE: f64 = 1e-9;

/// Blade axes: component suffixes and their words, for descriptions.
const BLADE: [(&str, &str); 3] = [
    ("x", "blade x (radially outboard along the pitch axis)"),
    ("y", "blade y (towards the leading edge)"),
    ("z", "blade z (blade normal, up at zero angles)"),
];

/// Indices into the declared continuous states `x` ([`fmu_core::Model::state_indices`] picks the
/// free ones): the joint angles, then their rates in the same order.
pub mod x {
    use super::MAX_BLADES;
    use fmu_core::declare::Labels;

    fmu_core::declare! { usize;
        SHAFT = state("shaft.angle", "rad", "rad/s", 0.1,
            "Shaft angle psi relative to the airframe (with shaft_free) (used when the blade is active and the hinge \
             free)");
        BLADES = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            LAG = state("blade[{n}].lag", "rad", "rad/s", 0.1,
                "Lag angle, positive lagging behind the rotation (used when the blade is active and the hinge free)");
            FLAP = state("blade[{n}].flap", "rad", "rad/s", 0.1,
                "Flap angle, positive up (towards +z_H) (used when the blade is active and the hinge free)");
        };
        /// The rate of the angle at `p` is at `RATES + p`.
        RATES = state("shaft.angle_rate", "rad/s", "rad/s2", 1.0,
            "Rate of: Shaft angle psi relative to the airframe (with shaft_free)");
        BLADE_RATES = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE_RATES {
            LAG_RATE = state("blade[{n}].lag_rate", "rad/s", "rad/s2", 1.0,
                "Rate of: Lag angle, positive lagging behind the rotation");
            FLAP_RATE = state("blade[{n}].flap_rate", "rad/s", "rad/s2", 1.0,
                "Rate of: Flap angle, positive up (towards +z_H)");
        };
        N;
    }

    const _: () = assert!(N == 2 * RATES && LAG_RATE == LAG && FLAP_RATE == FLAP, "rates mirror the angles");
}

/// Declares a rotor FMU's real input table `u` (Rotor's, RotorElastic's) with its views: first
/// the hub kinematics the airframe gives every rotor at the attachment point P (`HUB_VEL`,
/// `HUB_OMEGA`, `HUB_ACC`, `HUB_ALPHA`, inputs 0..12, in body axes), then the model's own
/// `rows` ([`fmu_core::declare!`] rows, ending with `N;`).
#[macro_export]
macro_rules! declare_rotor_inputs {
    ($($rows:tt)*) => {
        ::fmu_core::declare! { view usize;
            HUB_VEL as hub_vel = vector("hub.vel.{c}", "m/s", &::fmu_core::declare::BODY,
                "Inertial velocity of the attachment point P, {w}, m/s");
            HUB_OMEGA as hub_omega = vector("hub.omega.{c}", "rad/s", &::fmu_core::declare::BODY,
                "Angular velocity of the airframe relative to inertial space, {w}, rad/s");
            HUB_ACC as hub_acc = vector("hub.acc.{c}", "m/s2", &::fmu_core::declare::BODY,
                "Specific force at P (inertial acceleration minus gravity), {w}, m/s^2; gravity enters only here (at \
                 rest z reads -g)");
            HUB_ALPHA as hub_alpha = vector("hub.alpha.{c}", "rad/s2", &::fmu_core::declare::BODY,
                "Angular acceleration of the airframe, {w}, rad/s^2");
            $($rows)*
        }
    };
}

/// Indices into the real input vector `u` (85 inputs).
pub mod u {
    use super::{BLADE, MAX_BLADES};
    use fmu_core::declare::Labels;

    crate::declare_rotor_inputs! {
        SHAFT_TORQUE as shaft_torque = real("shaft_torque", "N.m",
            "Torque applied to the rotor about +z_H by the airframe (engine), N m; used only with shaft_free");
        BLADES = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            PITCH = real("blade[{n}].pitch", "rad",
                "Pitch angle of blade {n} (driven pitch bearing, positive leading edge up), rad");
            PITCH_RATE = real("blade[{n}].pitch_rate", "rad/s", "Pitch rate of blade {n}, rad/s");
            PITCH_ACC = real("blade[{n}].pitch_acc", "rad/s2", "Pitch acceleration of blade {n}, rad/s^2");
            FORCE = vector("blade[{n}].F.{c}", "N", &BLADE,
                "Applied (aerodynamic) force on blade {n} at its root reference (flap hinge / pitch bearing), {w}, N");
            MOMENT = vector("blade[{n}].M.{c}", "N.m", &BLADE,
                "Applied (aerodynamic) couple on blade {n} about its root reference, {w}, N m");
        };
        N;
    }
}

/// Indices into the real output vector `y` (123 outputs).
pub mod y {
    use super::{BLADE, MAX_BLADES, u};
    use fmu_core::declare::{BODY, Labels};

    /// Inputs on which the hub loads and the driven-shaft torque depend directly: everything
    /// except the hub velocity.
    fn loads(_: usize) -> Vec<usize> {
        (u::HUB_OMEGA..u::N).collect()
    }

    /// The hub velocity and angular velocity, and the pitch and pitch rate of every blade.
    fn kinetic(_: usize) -> Vec<usize> {
        let blades = (0..MAX_BLADES).flat_map(|b| [u::blade(b) + u::PITCH, u::blade(b) + u::PITCH_RATE]);
        (u::HUB_VEL..u::HUB_OMEGA + 3).chain(blades).collect()
    }

    fmu_core::declare! { view usize;
        HUB_FORCE as hub_force = vector("hub.F.{c}", "N", &BODY,
            "Force of the rotor on the airframe at P, {w}, N: blade loads minus the inertial (specific-force) \
             loads of all rotor bodies").deps(loads);
        HUB_MOMENT as hub_moment = vector("hub.M.{c}", "N.m", &BODY, "Moment of the rotor on the airframe about P, {w}, N m")
            .deps(loads);
        AZIMUTH as azimuth = real("azimuth", "rad",
            "Shaft azimuth psi (rotation of the hub about +z_H from x_H), rad; continuous (not wrapped)");
        SHAFT_RATE as shaft_rate = real("shaft.rate", "rad/s",
            "Shaft angular velocity relative to the airframe about +z_H, rad/s (Omega when driven)");
        SHAFT_TORQUE as shaft_torque = real("shaft.torque", "N.m",
            "Torque the airframe (drive) applies to the rotor about +z_H, N m: with the shaft driven, the torque \
             that holds the rotor at Omega (positive against aerodynamic drag); with shaft_free, the shaft_torque \
             input").deps(loads);
        KINETIC as kinetic = real("energy.kinetic", "J",
            "Kinetic energy of the rotor bodies (hub and blades) relative to inertial space, J").deps(kinetic);
        POTENTIAL as potential = real("energy.potential", "J",
            "Potential energy, J: hinge springs (k_lag, k_flap) plus gravity in the hub frame, sum m_b acc . c_b \
             (c_b the CoM relative to P); equals the gravitational potential relative to P when the hub does not \
             accelerate").deps(|_| (u::HUB_ACC..u::HUB_ACC + 3).collect());
        BLADES as blade = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            AZIMUTH_B as azimuth = real("blade[{n}].azimuth", "rad",
                "Azimuth of blade {n}: psi + 2 pi ({n} - 1)/nb, rad, continuous (0 when inactive)");
            FLAP as flap = real("blade[{n}].flap", "rad", "Flap angle of blade {n}, positive up, rad");
            LAG as lag = real("blade[{n}].lag", "rad", "Lag angle of blade {n}, positive lagging behind the rotation, rad");
            FLAP_RATE as flap_rate = real("blade[{n}].flap_rate", "rad/s", "Flap rate of blade {n}, rad/s");
            LAG_RATE as lag_rate = real("blade[{n}].lag_rate", "rad/s", "Lag rate of blade {n}, rad/s");
            VEL as vel = vector("blade[{n}].vel.{c}", "m/s", &BLADE,
                "Inertial velocity of the root reference (flap hinge) of blade {n}, {w}, m/s (for the aerodynamics)")
                .deps(|b| (u::HUB_VEL..u::HUB_OMEGA + 3).chain([u::blade(b) + u::PITCH]).collect());
            OMEGA as omega = vector("blade[{n}].omega.{c}", "rad/s", &BLADE,
                "Inertial angular velocity of blade {n}, {w}, rad/s")
                .deps(|b| (u::HUB_OMEGA..u::HUB_OMEGA + 3).chain([u::blade(b) + u::PITCH, u::blade(b) + u::PITCH_RATE])
                    .collect());
            /// The unit shaft axis `z_H` in blade axes.
            SHAFT as shaft = vector("blade[{n}].shaft.{c}", "", &BLADE,
                "Shaft axis z_H (unit vector) in the axes of blade {n}, {w} (the Aero FMU's blade[{n}].shaft \
                 input)").deps(|b| vec![u::blade(b) + u::PITCH]);
        };
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::{DEFAULT_TOLERANCE, MAX_BLADES};
    use fmu_core::declare::{BODY, Labels};

    fmu_core::declare! { u32;
        NB = integer("nb", 4, 1, MAX_BLADES as i32,
            "Number of active blades (1..8); variables of blades beyond nb read 0 and their inputs are ignored");
        OMEGA = real("Omega", "rad/s",
            "Rotor speed about +z_H (the shaft axis), rad/s: the constant drive rate of the shaft (psi = psi0 + \
             Omega t), or with shaft_free the initial shaft rate").start(29.0).display_unit("rpm");
        RADIUS = real("R", "m",
            "Rotor radius, m: documentation and consistency checks (e + S/m < R, I <= m (R - e)^2); the \
             aerodynamics live in the Aero FMU").start(7.5).positive();
        E = real("e", "m", "Flap hinge offset from the shaft axis, m (0 <= e < R)").start(0.3)
            .min(0.0);
        E_LAG = real("e_lag", "m",
            "Lag hinge offset from the shaft axis, m (0 <= e_lag <= e; the lag hinge is inboard of the flap \
             hinge); a negative value (default) means e_lag = e (coincident hinges)").start(-1.0);
        BLADE_M = real("blade.m", "kg", "Blade mass, kg (> 0)").start(100.0).positive();
        BLADE_S = real("blade.S", "kg.m",
            "Blade first mass moment about the flap hinge, kg m (>= 0): the CoM lies on the pitch axis at x_cg = \
             S/m outboard of the flap hinge").start(390.0).min(0.0);
        BLADE_I = real("blade.I", "kg.m2",
            "Blade flap moment of inertia about the flap hinge, kg m^2 (I >= S^2/m); the thin-blade inertia about \
             the CoM in blade axes is diag(I_pitch, I - S^2/m, I - S^2/m + I_pitch)").start(1953.0);
        BLADE_I_PITCH = real("blade.I_pitch", "kg.m2",
            "Blade torsional moment of inertia about the pitch axis, kg m^2 (>= 0)").min(0.0);
        K_LAG = real("k_lag", "N.m/rad",
            "Lag damper stiffness, N m/rad (>= 0): restoring moment -k_lag lag about the lag hinge (seed-004 Table \
             3)").start(16000.0).min(0.0);
        C_LAG = real("c_lag", "N.m.s/rad",
            "Lag damper damping, N m s/rad (>= 0): moment -c_lag lag_rate about the lag hinge (seed-004 Table 3)")
            .start(3000.0).min(0.0);
        K_FLAP = real("k_flap", "N.m/rad",
            "Flap hinge spring, N m/rad (>= 0): restoring moment -k_flap flap about the flap hinge").min(0.0);
        LOCK_LAG = boolean("lock_lag", false,
            "Lock the lag hinges at blade.zeta0 (removes the lag degrees of freedom)");
        LOCK_FLAP = boolean("lock_flap", false,
            "Lock the flap hinges at blade.beta0 (a precone; removes the flap degrees of freedom)");
        SHAFT_FREE = boolean("shaft_free", false,
            "false: the shaft turns at the constant rate Omega (driven joint; shaft.torque reports the torque it \
             needs); true: the shaft angle is a degree of freedom driven by the shaft_torque input");
        PSI0 = real("psi0", "rad",
            "Shaft azimuth at t = 0, rad: blade 1 points along x_H (shaft.ax/ay/az) when psi = 0");
        BETA0 = real("blade.beta0", "rad",
            "Initial flap angle of every blade (positive up, towards +z_H), rad; the locked angle with lock_flap");
        ZETA0 = real("blade.zeta0", "rad",
            "Initial lag angle of every blade (positive lagging behind the rotation), rad; the locked angle with \
             lock_lag");
        /// Per-blade initial state: blade `i` (0-based) at `BLADE_INITIAL + PER_BLADE_INITIAL * i`.
        BLADE_INITIAL @ 27 = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE_INITIAL {
            DLAG0 = real("blade[{n}].dlag0", "rad",
                "Initial lag angle of blade {n} relative to blade.zeta0, rad (ignored with lock_lag); with the other \
                 per-blade initial values it starts a run on a periodic state, e.g. from a trim");
            DFLAP0 = real("blade[{n}].dflap0", "rad",
                "Initial flap angle of blade {n} relative to blade.beta0, rad (ignored with lock_flap)");
            LAG_RATE0 = real("blade[{n}].lag_rate0", "rad/s",
                "Initial lag rate of blade {n}, rad/s (ignored with lock_lag)");
            FLAP_RATE0 = real("blade[{n}].flap_rate0", "rad/s",
                "Initial flap rate of blade {n}, rad/s (ignored with lock_flap)");
        };
        HUB_M @ 18 = real("hub.m", "kg", "Hub mass (at P, on the shaft axis), kg (>= 0)").min(0.0);
        HUB_I = real("hub.I", "kg.m2",
            "Hub polar moment of inertia about the shaft axis, kg m^2 (>= 0); the hub is a thin disk (transverse \
             moments hub.I/2)").min(0.0);
        /// The shaft axis.
        SHAFT_AXIS = vector("shaft.n{c}", "", &BODY,
            "Shaft axis z_H (thrust direction; the rotor turns right-handed about it), {w} component, airframe \
             body axes; normalised (default (0, 0, -1): a main rotor turning counter-clockwise seen from above)")
            .starts(&[0.0, 0.0, -1.0]);
        /// The azimuth-zero direction.
        SHAFT_AZIMUTH_ZERO = vector("shaft.a{c}", "", &BODY,
            "Azimuth-zero direction x_H, {w} component, airframe body axes; made orthonormal to the shaft axis \
             (default (-1, 0, 0): blade 1 over the tail at psi = 0)").starts(&[-1.0, 0.0, 0.0]);
        TOLERANCE = tolerance("tolerance", DEFAULT_TOLERANCE);
        /// Per-blade lag damper factor: blade `i` (0-based) at `BLADE_DAMPER + PER_BLADE_DAMPER * i`.
        BLADE_DAMPER @ 59 = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE_DAMPER {
            C_LAG_FACTOR = real("blade[{n}].c_lag_factor", "",
                "Factor on c_lag for the lag damper of blade {n} (>= 0; 1: c_lag; 0: the damper inoperative, \
                 as in the one-damper-inoperative ground-resonance case)").start(1.0).min(0.0);
        };
        /// Per-blade overrides: blade `i` (0-based) at `BLADE_OVERRIDES + PER_BLADE_OVERRIDES * i`.
        BLADE_OVERRIDES @ 67 = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE_OVERRIDES {
            MASS_FACTOR = real("blade[{n}].mass_factor", "",
                "Factor on the mass, first moment and inertias of blade {n} (> 0; 1: blade.m, blade.S, blade.I, \
                 blade.I_pitch; the centre of mass stays at blade.S / blade.m): an imbalanced blade").start(1.0)
                .positive();
            PITCH_OFFSET = real("blade[{n}].pitch_offset", "rad",
                "Pitch offset of blade {n} added to its pitch input (a track error, positive leading edge up), rad; \
                 blade {n}'s axes (its loads and kinematics) are pitched by it too");
        };
    }
    fmu_core::value_references!(100, 300);
}

/// The model's tables: parameters (vr 0..), inputs (vr 100..), outputs (vr 300..) and states.
pub const TABLES: Tables = Tables {
    parameters: vr::TABLE,
    inputs: (vr::INPUT_BASE, u::TABLE),
    outputs: (vr::OUTPUT_BASE, y::TABLE),
    states: x::TABLE,
};
