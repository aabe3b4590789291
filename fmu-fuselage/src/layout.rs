//! The declarations of the Fuselage FMU's variables, each written once: the index constants, the views, the
//! value references and the variable list ([`TABLES`]) are generated from them
//! ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base:
//! parameters `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs
//! `200 + y index` ([`vr::OUTPUT_BASE`]). So the `u` and `y` index constants below are also
//! value-reference offsets.

use fmu_core::declare::Tables;

/// An airframe attachment point where loads come in and kinematics go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Main rotor hub.
    Hub,
    /// Tail rotor hub.
    Tail,
    /// Generic external point (position is a parameter like the others).
    Ext,
}

impl Point {
    /// All points, in layout order.
    pub const ALL: [Point; 3] = [Point::Hub, Point::Tail, Point::Ext];

    /// Variable-name prefixes, in layout order.
    pub const NAMES: [&str; 3] = ["hub", "tail", "ext"];

    /// Position in [`Point::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Variable-name prefix (`hub`, `tail`, `ext`).
    pub fn name(self) -> &'static str {
        Self::NAMES[self.index()]
    }

    /// Default position in body axes relative to the reference point, m (Bo105-class
    /// helicopter with the reference point at the CoM).
    pub fn default_position(self) -> [f64; 3] {
        match self {
            Point::Hub => [0.0, 0.0, -1.5],
            Point::Tail => [-6.0, 0.0, -1.0],
            Point::Ext => [0.0, 0.0, 0.0],
        }
    }
}

/// Indices into the continuous state vector `x` (13 states).
pub mod x {
    fmu_core::declare! { view usize;
        /// NED position of the body reference point `[x, y, z]`, m.
        POS as pos = state_vector("position.{c}", "m", "m/s", 1.0, &[("x", "north"), ("y", "east"), ("z", "down")],
            "Position of the reference point, {w} (NED)");
        /// Body-to-inertial unit quaternion `[w, x, y, z]`, scalar first.
        QUAT as quat = state_vector("quaternion.{c}", "", "1/s", 1.0, &[("w", ""), ("x", ""), ("y", ""), ("z", "")],
            "Body-to-NED attitude quaternion, component {c} (scalar w first)");
        /// Velocity of the reference point in body axes `[u, v, w]` (FRD), m/s.
        VEL as vel = state_vector("velocity.{c}", "m/s", "m/s2", 1.0,
            &[("x", "u, forward"), ("y", "v, right"), ("z", "w, down")],
            "Velocity of the reference point in body axes, {w}");
        /// Angular velocity in body axes `[p, q, r]`, rad/s.
        RATE as rate = state_vector("rate.{c}", "rad/s", "rad/s2", 0.1, &[("x", "p, roll"), ("y", "q, pitch"), ("z", "r, yaw")],
            "Angular velocity in body axes, {w}");
        N;
    }
}

/// Landing-gear contact points (legs) of the airframe.
pub const GEAR_LEGS: usize = 4;

/// Names of the lifting surfaces: the horizontal stabiliser and the vertical fin.
pub const SURFACE_NAMES: [&str; 2] = ["hs", "fin"];

/// Default lift-positive normals: the stabiliser lifts up, the fin to the right.
const SURFACE_DEFAULT_NORMALS: [[f64; 3]; 2] = [[0.0, 0.0, -1.0], [0.0, 1.0, 0.0]];

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::{GEAR_LEGS, Point, SURFACE_DEFAULT_NORMALS, SURFACE_NAMES};
    use fmu_core::declare::{BODY, Labels, NED, PQR, UVW};
    use fmu_core::variable::Enumeration;

    /// The choices of `euler_sequence`: intrinsic rotations NED to body, axes in order.
    static EULER_SEQUENCE_TYPE: Enumeration = Enumeration {
        name: "Fuselage.EulerSequence",
        description: "Euler sequence of the euler.1..3 outputs (intrinsic rotations from NED to body)",
        items: &[
            ("xyz", 123, "1-2-3: about x, then the new y, then the new z"),
            ("xzy", 132, "1-3-2: about x, then the new z, then the new y"),
            ("yxz", 213, "2-1-3: about y, then the new x, then the new z"),
            ("yzx", 231, "2-3-1: about y, then the new z, then the new x"),
            ("zxy", 312, "3-1-2: about z, then the new x, then the new y"),
            ("zyx", 321, "3-2-1: yaw, pitch, roll (the aerospace convention of phi, theta, psi)"),
        ],
    };

    fmu_core::declare! { u32;
        /// Defaults of a Bo105-class airframe: mass 2100 kg, principal inertias about the CoM.
        MASS = real("mass", "kg", "Airframe mass, kg (> 0)").start(2100.0).positive();
        CG = vector("cg.{c}", "m", &BODY, "Centre of mass relative to the body reference point, {w}, m");
        INERTIA = vector("I.{c}", "kg.m2", &[
            ("xx", "moment of inertia"),
            ("yy", "moment of inertia"),
            ("zz", "moment of inertia"),
            ("xy", "tensor element (= minus the product of inertia)"),
            ("xz", "tensor element (= minus the product of inertia)"),
            ("yz", "tensor element (= minus the product of inertia)"),
        ], "Inertia tensor element {c} about the centre of mass, body axes, kg m^2: {w}")
            .starts(&[1803.0, 4892.0, 4428.0, 0.0, 0.0, 0.0]);
        G = real("g", "m/s2", "Gravitational acceleration, acting along +z of NED (down), m/s^2").start(9.80665);
        /// Point `P` at `POINTS + PER_POINT * P.index()`.
        POINTS = block(Labels::Named(&Point::NAMES)) per PER_POINT {
            POINT_POS = vector("{n}.{c}", "m", &BODY,
                "Position of the {n} attachment point relative to the body reference point, {w}, m")
                .start_by(|p, k| Point::ALL[p].default_position()[k]);
        };
        EULER_SEQUENCE = integer("euler_sequence", 321, 123, 321,
            "Euler sequence of the euler.1..3 outputs: 123, 132, 213, 231, 312 or 321; 'abc' = intrinsic \
             rotations NED to body, first about axis a by euler.1, then new b by euler.2, then new c by euler.3")
            .enumeration(&EULER_SEQUENCE_TYPE);
        POS0 = vector("{c}0", "m", &NED, "Initial position of the reference point, {w}, m");
        EULER0 = vector("{c}0", "rad", &[
            ("phi", "roll (3-2-1), about body x"),
            ("theta", "pitch (3-2-1), about the intermediate y"),
            ("psi", "yaw (3-2-1), about NED z"),
        ], "Initial attitude: {w}, rad");
        VEL0 = vector("{c}0", "m/s", &UVW, "Initial velocity of the reference point, {w}, m/s");
        RATE0 = vector("{c}0", "rad/s", &PQR, "Initial angular velocity, {w}, rad/s (right-handed)");
        /// Bit k set: axis k of `u v w p q r` free.
        DOF_MASK = integer("dof_mask", 63, 0, 63,
            "Free degrees of freedom: bit k set = axis k free, axes in order u v w p q r (bit 0 = u); a blocked \
             axis has zero body-axis acceleration; 63 = all free");
        DRAG_AREA = real("drag_area", "m2",
            "Equivalent flat-plate drag area f, m^2 (>= 0): drag force -0.5 rho f |V| V at the reference point, \
             V its body velocity relative to the air (body velocity minus the wind.* input)").min(0.0);
        RHO = real("rho", "kg/m3", "Air density for the drag, kg/m^3, when the air.density input is 0 \
            (unconnected)").start(1.225).min(0.0);
        TOLERANCE = tolerance("tolerance", 1e-9);
        /// Leg `i` (1-based) at `GEAR + PER_GEAR (i - 1)`.
        GEAR @ 38 = block(Labels::Numbered(GEAR_LEGS)) per PER_GEAR {
            GEAR_POS = vector("gear[{n}].{c}", "m", &BODY,
                "Landing-gear contact point {n} relative to the reference point (the bottom of the unloaded leg), \
                 {w}, m");
        };
        GEAR_K = real("gear.k", "N/m",
            "Vertical stiffness of each landing-gear leg, N/m (>= 0; 0: no landing gear): a leg whose contact \
             point is d below the ground (NED z above ground_z) pushes up with max(0, k d + c d_dot)").min(0.0);
        GEAR_C = real("gear.c", "N.s/m",
            "Vertical damping of each landing-gear leg, N s/m (>= 0), acting while the leg touches the ground")
            .min(0.0);
        GEAR_K_H = real("gear.k_h", "N/m",
            "Horizontal stiffness of each landing-gear leg in contact, N/m (>= 0): a spring in NED x (and, times \
             gear.k_h_ratio, in NED y) from the contact point to where that point starts (a helicopter parked \
             where it starts; 0 for landings elsewhere)").min(0.0);
        GEAR_C_H = real("gear.c_h", "N.s/m",
            "Horizontal damping of each landing-gear leg in contact, N s/m (>= 0), on the NED x and y velocity")
            .min(0.0);
        GEAR_K_H_RATIO @ 55 = real("gear.k_h_ratio", "",
            "Ratio of the lateral (NED y) to the longitudinal (NED x) horizontal stiffness of each leg (>= 0; 1: \
             the same gear.k_h both ways): an orthotropic support, as for ground-resonance studies")
            .start(1.0).min(0.0);
        GROUND_Z @ 54 = real("ground_z", "m", "NED z of the flat ground the landing gear stands on, m (down positive)");
        STRICT_INERTIA @ 37 = boolean("strict_inertia", true,
            "Reject inertia tensors whose principal moments violate the triangle inequality (physically \
             unrealisable); false admits them, e.g. for the GUNNS/JEOD validation case whose Izz > Ixx + Iyy");
        /// Lifting surface `s` (0 = horizontal stabiliser, 1 = fin) at `SURFACES + PER_SURFACE s`.
        SURFACES @ 56 = block(Labels::Named(&SURFACE_NAMES)) per PER_SURFACE {
            SURFACE_AREA = real("{n}.area", "m2",
                "Planform area S of the {n} lifting surface, m^2 (>= 0; 0: no surface, the default)").min(0.0);
            SURFACE_POS = vector("{n}.{c}", "m", &BODY,
                "Aerodynamic centre of the {n} lifting surface relative to the reference point, {w}, m");
            SURFACE_NORMAL = vector("{n}.normal.{c}", "", &BODY,
                "Lift-positive normal of the {n} lifting surface, {w} component (normalised; its chord lies along \
                 body x): alpha = incidence + atan2(-U.n, U.x), U the surface's velocity relative to the air")
                .start_by(|s, k| SURFACE_DEFAULT_NORMALS[s][k]);
            SURFACE_LIFT_SLOPE = real("{n}.a", "1/rad",
                "Lift-curve slope of the {n} lifting surface, CL = a alpha, 1/rad (>= 0; default 2 pi, thin-airfoil \
                 theory; set the finite-span slope)").start(std::f64::consts::TAU).min(0.0);
            SURFACE_STALL = real("{n}.alpha_stall", "rad",
                "Stall angle of the {n} lifting surface, rad (> 0): |CL| is held at a alpha_stall beyond it \
                 (default pi/2: no stall)").start(std::f64::consts::FRAC_PI_2).positive();
            SURFACE_CD0 = real("{n}.cd0", "", "Drag coefficient of the {n} lifting surface (>= 0), along the \
                relative air velocity").min(0.0);
            SURFACE_INCIDENCE = real("{n}.incidence", "rad",
                "Incidence of the {n} lifting surface (chord to body x, positive raising the lift), rad");
        };
        MAIN_ROTOR_RADIUS = real("main_rotor.R", "m",
            "Main-rotor radius for the wake at the lifting surfaces, m (> 0)").start(4.91).positive();
        MAIN_ROTOR_TIP_SPEED = real("main_rotor.tip_speed", "m/s",
            "Main-rotor tip speed Omega R, m/s (> 0): the main_rotor.inflow input times it is the induced \
             velocity").start(218.0).positive();
        MAIN_ROTOR_SHAFT = vector("main_rotor.shaft.{c}", "", &BODY,
            "Main-rotor shaft axis (thrust direction; normalised), {w} component; the hub is at hub.x/y/z")
            .starts(&[0.0, 0.0, -1.0]);
        TAIL_ROTOR_RADIUS = real("tail_rotor.R", "m",
            "Tail-rotor radius for its wash on the fin, m (> 0)").start(0.95).positive();
        TAIL_ROTOR_SHAFT = vector("tail_rotor.shaft.{c}", "", &BODY,
            "Tail-rotor thrust direction (normalised), {w} component").starts(&[0.0, 1.0, 0.0]);
        FIN_TAIL_ROTOR_FACTOR = real("fin.tail_rotor_factor", "",
            "Fraction eta of the tail rotor's momentum induced velocity that the fin sees (0: no interference, \
             the default; 0..2: 1 at the disc, 2 in the fully developed slipstream)").min(0.0);
        FUSELAGE_TABLE_FILE = string("fuselage_table_file", "",
            "CSV table of the fuselage's loads over dynamic pressure (D/q, Y/q, L/q in m^2 or ft^2; R/q, M/q, N/q \
             in m^3 or ft^3; wind axes) against alpha (-180..180 deg) and beta (-90..90 deg), interpolated \
             bilinearly, applied at fuselage_table.x/y/z besides drag_area: an absolute path, or a path relative \
             to the FMU's resources folder (the shipped UH-60A table is uh60a_genhel_fuselage.csv); empty (the \
             default): no table; read at initialization");
        FUSELAGE_TABLE_POS = vector("fuselage_table.{c}", "m", &BODY,
            "Reference point of the fuselage table's moments relative to the body reference point, {w}, m \
             (its velocity relative to the air gives alpha and beta)");
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (24 inputs): for each [`super::Point`] `P`, six loads
/// starting at `6 * P.index()`; then the air (wind, density, rotor inflow, tail-rotor thrust).
pub mod u {
    use super::Point;
    use fmu_core::declare::{BODY, Labels, NED};

    fmu_core::declare! { view usize;
        POINTS as point = block(Labels::Named(&Point::NAMES)) per PER_POINT {
            FORCE as force = vector("{n}.F.{c}", "N", &BODY, "Force on the airframe at the {n} point, {w}, N");
            MOMENT as moment = vector("{n}.M.{c}", "N.m", &BODY,
                "Moment (couple) on the airframe at the {n} point, {w}, N m (right-handed)");
        };
        WIND as wind = vector("wind.{c}", "m/s", &NED,
            "Wind velocity (the air's velocity relative to the ground) at the airframe, {w}, m/s (e.g. the \
             Atmosphere's wind.*; 0 = still air): the airframe aerodynamics use the body velocity minus it");
        DENSITY as density = real("air.density", "kg/m3",
            "Air density for the airframe aerodynamics, kg/m^3 (e.g. the Atmosphere's density); 0 (unconnected) \
             or below: the rho parameter");
        MAIN_ROTOR_INFLOW as main_rotor_inflow = real("main_rotor.inflow", "",
            "Main rotor's uniform induced inflow ratio v_i / (Omega R) (the main Aero's inflow output; 0: no \
             rotor wash on the lifting surfaces)");
        TAIL_ROTOR_THRUST as tail_rotor_thrust = real("tail_rotor.thrust", "N",
            "Tail-rotor thrust along tail_rotor.shaft, N (the tail Aero's thrust output): its wash on the fin");
        N;
    }
}

/// Indices into the real output vector `y` (92 outputs).
pub mod y {
    use super::{GEAR_LEGS, Point, SURFACE_NAMES, u};
    use fmu_core::declare::{BODY, Labels, NED, PQR, UVW};

    /// Every input: what the accelerations depend on.
    fn all_inputs(_: usize) -> Vec<usize> {
        (0..u::N).collect()
    }

    /// The air inputs (wind, density, rotor inflow and tail-rotor thrust): what the lifting
    /// surfaces' diagnostics depend on.
    fn air_inputs(_: usize) -> Vec<usize> {
        (u::WIND..u::N).collect()
    }

    /// The wind and density inputs: what the fuselage table's loads depend on.
    fn wind_inputs(_: usize) -> Vec<usize> {
        (u::WIND..u::DENSITY + 1).collect()
    }

    /// Description of the `free.*` outputs, `{w}` the derivative.
    const FREE_DESCRIPTION: &str = "{w} of the body-axis state with every DOF free, whatever dof_mask holds \
        ({unit}): the airframe's unbalanced acceleration, zero in a trimmed steady flight (the trim residual); \
        equals the state derivative when dof_mask = 63";

    fmu_core::declare! { view usize;
        POS as pos = vector("{c}", "m", &NED, "Position of the body reference point, {w}, m");
        VEL as vel = vector("{c}", "m/s", &UVW, "Velocity of the reference point relative to NED, {w}, m/s");
        RATE as rate = vector("{c}", "rad/s", &PQR, "Angular velocity relative to NED, {w}, rad/s");
        EULER321 as euler321 =
            real("phi", "rad", "Roll angle (3-2-1 sequence), rad, in (-pi, pi]"),
            real("theta", "rad", "Pitch angle (3-2-1 sequence), rad, in [-pi/2, pi/2], nose up positive"),
            real("psi", "rad", "Yaw (heading) angle (3-2-1 sequence), rad, in (-pi, pi], from north towards east");
        /// Euler angles in the `euler_sequence` parameter.
        EULER as euler = vector("euler.{c}", "rad", &[("1", ""), ("2", ""), ("3", "")],
            "Euler angle {c} of the euler_sequence parameter (intrinsic rotations NED to body; 321 gives psi, \
             theta, phi), rad");
        QUAT as quat = vector("q.{c}", "", &[("w", ""), ("x", ""), ("y", ""), ("z", "")],
            "Body-to-NED attitude quaternion, scalar-first, component {c}");
        KINETIC as kinetic = real("energy.kinetic", "J", "Kinetic energy of the airframe relative to NED, J");
        POTENTIAL as potential = real("energy.potential", "J",
            "Gravitational potential energy of the airframe, -m g z_cm (zero at NED z = 0), J");
        /// Point `P` at `POINTS + PER_POINT * P.index()`.
        POINTS as point = block(Labels::Named(&Point::NAMES)) per PER_POINT {
            P_POS as pos = vector("{n}.pos.{c}", "m", &NED, "Position of the {n} point, {w}, m");
            P_VEL as vel = vector("{n}.vel.{c}", "m/s", &BODY, "Velocity of the {n} point relative to NED, {w}, m/s");
            P_OMEGA as omega = vector("{n}.omega.{c}", "rad/s", &BODY,
                "Angular velocity of the airframe at the {n} point, {w}, rad/s");
            P_ACC as acc = vector("{n}.acc.{c}", "m/s2", &BODY,
                "Specific force at the {n} point (inertial acceleration minus gravity), {w}, m/s^2; at rest \
                 on the ground z reads -g").deps(all_inputs);
            P_ALPHA as alpha = vector("{n}.alpha.{c}", "rad/s2", &BODY,
                "Angular acceleration of the airframe relative to NED, {w}, rad/s^2").deps(all_inputs);
        };
        /// Body-axis accelerations with every DOF free: the trim residual.
        FREE as free =
            vector("free.{c}", "m/s2", &[("u_dot", "du/dt"), ("v_dot", "dv/dt"), ("w_dot", "dw/dt")],
                FREE_DESCRIPTION).deps(all_inputs),
            vector("free.{c}", "rad/s2", &[("p_dot", "dp/dt"), ("q_dot", "dq/dt"), ("r_dot", "dr/dt")],
                FREE_DESCRIPTION).deps(all_inputs);
        /// Normal ground force on each landing-gear leg, N (>= 0).
        GEAR_LOAD as gear = block(Labels::Numbered(GEAR_LEGS)) per PER_GEAR {
            LOAD as load = real("gear[{n}].load", "N",
                "Normal ground force on landing-gear leg {n} (upwards, >= 0; 0 in the air or without gear), N");
        };
        WAKE_SKEW as wake_skew = real("wake.skew", "rad",
            "Main-rotor wake skew angle from the shaft axis, atan2(mu, lambda_c + lambda_i), rad (0 in hover)")
            .deps(air_inputs);
        /// Lifting surface `s` at `SURFACE_OUT + PER_SURFACE_OUT s`.
        SURFACE_OUT as surface = block(Labels::Named(&SURFACE_NAMES)) per PER_SURFACE_OUT {
            WASH_RATIO as wash_ratio = real("{n}.wash_ratio", "",
                "Main-rotor downwash at the {n} surface over the rotor's induced velocity (0 outside the wake)")
                .deps(air_inputs);
            SURFACE_ALPHA as alpha = real("{n}.alpha", "rad",
                "Angle of attack of the {n} surface (with incidence and wash), rad (0 without the surface)")
                .deps(air_inputs);
        };
        /// The wind input in body axes (for the Aero FMUs' wind inputs).
        WIND_BODY as wind_body = vector("wind.body.{c}", "m/s", &BODY,
            "Wind velocity (the wind.* input) in airframe body axes, {w}, m/s: the Aero FMUs' wind input")
            .deps(|_| (u::WIND..u::WIND + 3).collect());
        /// The fuselage table's angles and loads (zero without a table).
        FUSELAGE_ANGLES as fuselage_angles =
            real("fuselage.alpha", "rad",
                "Angle of attack of the fuselage table's reference point, atan2(w, u) of its velocity relative to \
                 the air, rad, in [-pi, pi] (0 without fuselage_table_file)").deps(wind_inputs),
            real("fuselage.beta", "rad",
                "Sideslip angle of the fuselage table's reference point, asin(v / |V|) of its velocity relative to \
                 the air, rad, in [-pi/2, pi/2] (0 without fuselage_table_file)").deps(wind_inputs);
        FUSELAGE_FORCE as fuselage_force = vector("fuselage.F.{c}", "N", &BODY,
            "Force of the fuselage table on the airframe, {w}, N (0 without fuselage_table_file)")
            .deps(wind_inputs);
        FUSELAGE_MOMENT as fuselage_moment = vector("fuselage.M.{c}", "N.m", &BODY,
            "Moment of the fuselage table about the body reference point, {w}, N m (0 without \
             fuselage_table_file)").deps(wind_inputs);
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
