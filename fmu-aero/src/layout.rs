//! The declarations of the Aero FMU's variables, each written once: the index constants, the views, the
//! value references and the variable list ([`TABLES`]) are generated from them
//! ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]). Blade `i` (1-based in names, `b = i - 1` here) owns a fixed block of
//! inputs and of outputs, declared for all [`MAX_BLADES`] blades; the parameter `nb` selects how
//! many are active.

use fmu_core::declare::Tables;

pub use fmu_core::contract::MAX_BLADES;

/// Largest `n_sections` (spanwise stations per blade); the working arrays have this size.
pub const NS_MAX: usize = 64;

/// Blade axes: component suffixes and their words, for descriptions.
const BLADE: [(&str, &str); 3] = [
    ("x", "blade x (radially outboard along the pitch axis)"),
    ("y", "blade y (towards the leading edge)"),
    ("z", "blade z (blade normal, up at zero pitch and flap)"),
];

/// Indices into the continuous state vector `x`: the Pitt-Peters states (`inflow_model = 2`),
/// then the Peters-He states (`inflow_model = 3`, those of the chosen truncation). The other
/// inflow models have no states.
pub mod x {
    use crate::peters_he::N_DECLARED;
    use fmu_core::declare::Labels;

    fmu_core::declare! { view usize;
        /// `lambda_0`: uniform part of the induced inflow ratio `v_i / (Omega R)`.
        LAMBDA0 as lambda0 = state("inflow.lambda0", "", "1/s", 0.05,
            "Pitt-Peters inflow ratio lambda_0, the uniform part, v_i / (Omega R) (used with inflow_model = 2)");
        /// `lambda_s`: coefficient of `(r/R) sin(psi)` in the inflow ratio.
        LAMBDA_S as lambda_s = state("inflow.lambda_s", "", "1/s", 0.05,
            "Pitt-Peters inflow ratio lambda_s, coefficient of (r/R) sin psi, v_i / (Omega R) (used with \
             inflow_model = 2)");
        /// `lambda_c`: coefficient of `(r/R) cos(psi)` in the inflow ratio.
        LAMBDA_C as lambda_c = state("inflow.lambda_c", "", "1/s", 0.05,
            "Pitt-Peters inflow ratio lambda_c, coefficient of (r/R) cos psi, v_i / (Omega R) (used with \
             inflow_model = 2)");
        /// Number of states of the Pitt-Peters model.
        N_PITT_PETERS;
        /// The Peters-He states (inflow_model = 3), in the order of
        /// [`crate::peters_he::declared_index`].
        PETERS_HE = block(Labels::Numbered(N_DECLARED)) per PER_PETERS_HE {
            PETERS_HE_STATE = state("inflow.peters_he[{n}]", "", "1/s", 0.05,
                "Peters-He inflow state {n} (inflow_model = 3): the coefficient alpha_j^m (cosine) or beta_j^m \
                 (sine) of the shape function phi_j^m(r/R) times cos or sin(m psi) in the inflow ratio v_i / \
                 (Omega R); states 1-4: m = 0, j = 1, 3, 5, 7; then for m = 1..4 four cosine states j = m+1, m+3, \
                 m+5, m+7 and four sine states (docs/models.md); unused ones stay zero");
        };
        /// Number of declared states.
        N;
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::{MAX_BLADES, NS_MAX};
    use crate::peters_he::N_DECLARED;
    use fmu_core::declare::{BODY, Labels};
    use fmu_core::variable::Enumeration;

    /// The choices of `inflow_model`.
    static INFLOW_MODEL_TYPE: Enumeration = Enumeration {
        name: "Aero.InflowModel",
        description: "Induced inflow model",
        items: &[
            ("none", 0, "No induced inflow (seed 004)"),
            ("uniform_momentum", 1, "Uniform momentum inflow, Glauert's forward-flight form"),
            ("pitt_peters", 2, "Pitt-Peters 3-state dynamic inflow"),
            ("peters_he", 3, "Peters-He finite-state dynamic inflow"),
        ],
    };

    /// The choices of `airfoil` and `airfoil_inboard`.
    static AIRFOIL_TYPE: Enumeration = Enumeration {
        name: "Aero.Airfoil",
        description: "Section airfoil",
        items: &[
            ("analytic", 0, "Linear lift a alpha, drag cd0 + cd2 alpha^2, no moment"),
            ("naca0012_sheldahl", 1, "NACA 0012 C81 table, Sheldahl and Klimas (1981), Re 2e6"),
            ("file", 2, "C81 table read from the file airfoil_file (airfoil_inboard_file for airfoil_inboard)"),
        ],
    };

    /// The choices of `tip_loss`.
    static TIP_LOSS_TYPE: Enumeration = Enumeration {
        name: "Aero.TipLoss",
        description: "Prandtl loss factor on the section lift",
        items: &[
            ("none", 0, "No loss factor"),
            ("tip", 1, "Prandtl tip loss"),
            ("tip_and_root", 2, "Prandtl tip and root loss"),
        ],
    };

    fmu_core::declare! { u32;
        NB = integer("nb", 4, 1, MAX_BLADES as i32, "Number of active blades (1..8); blades above nb get zero loads");
        RADIUS = real("R", "m", "Rotor radius (blade tip radius from the shaft axis), m (> 0)").start(7.5).positive();
        E = real("e", "m",
            "Radius of the blade root reference point (on the pitch axis at the flap hinge) from the shaft axis, m \
             (0 <= e < R); a section at radius r lies at r - e along blade x from the root reference").start(0.3)
            .min(0.0);
        R_ROOT = real("r_root", "m",
            "Root cut-out radius from the shaft axis: the lifting span is r_root..R, m (e <= r_root < R)").start(1.5);
        CHORD = real("chord", "m", "Blade chord (uniform along the span), m (> 0)").start(0.55).positive();
        TWIST = real("twist", "rad",
            "Linear twist over the full radius, rad: section pitch relative to the blade frame theta_tw(r) = twist * \
             (r/R - 0.75), zero at 3/4 radius, so the blade pitch angle is the pitch at r = 0.75 R; negative = \
             washout").start(-0.14);
        LIFT_SLOPE = real("a", "1/rad", "Section lift-curve slope, cl = a * alpha, 1/rad (>= 0)").start(5.73).min(0.0);
        CD0 = real("cd0", "", "Section drag polar cd = cd0 + cd2 * alpha^2: constant term (>= 0)")
            .start(0.008).min(0.0);
        CD2 = real("cd2", "", "Section drag polar cd = cd0 + cd2 * alpha^2: quadratic term, 1/rad^2 (>= 0)")
            .start(0.4).min(0.0);
        RHO = real("rho", "kg/m3", "Air density, kg/m^3 (> 0)").start(1.225).positive();
        N_SECTIONS = integer("n_sections", 20, 1, NS_MAX as i32,
            "Number of spanwise stations per blade between r_root and R (1..64), placed by the quadrature rule");
        INFLOW_MODEL = integer("inflow_model", 1, 0, 3,
            "Induced inflow: 0 none (seed 004); 1 uniform momentum inflow with Glauert's forward-flight form, \
             solved at every output evaluation; 2 Pitt-Peters 3-state dynamic inflow (states inside the FMU); 3 \
             Peters-He finite-state dynamic inflow (peters_he_harmonics, peters_he_radial)")
            .enumeration(&INFLOW_MODEL_TYPE);
        OMEGA = real("Omega", "rad/s",
            "Nominal rotor speed, rad/s (> 0): scales the inflow ratios (v = Omega R lambda), CT and the \
             Pitt-Peters time; power = torque * Omega").start(29.0).display_unit("rpm").positive();
        SHAFT = vector("shaft.n{c}", "", &BODY,
            "Rotor shaft axis (thrust direction, rotation is right-handed about it) in airframe body axes, {w} \
             component (normalised; default (0, 0, -1) = up); used with hub.vel for the advance ratio, the \
             climb inflow and the wake skew").starts(&[0.0, 0.0, -1.0]);
        QUADRATURE = integer("quadrature", 1, 0, 1,
            "Spanwise quadrature over r_root..R: 0 midpoint rule (n_sections equal strips, stations at their \
             centres); 1 Gauss-Legendre with n_sections points");
        LAMBDA_START = vector("{c}_start", "", &[
            ("lambda0", "lambda_0 (uniform part)"),
            ("lambda_s", "lambda_s (coefficient of (r/R) sin psi)"),
            ("lambda_c", "lambda_c (coefficient of (r/R) cos psi)"),
        ], "Initial Pitt-Peters inflow state {w}, a ratio to Omega R (inflow_model = 2 only)");
        TOLERANCE = tolerance("tolerance", 1e-9);
        AIRFOIL = integer("airfoil", 0, 0, 2,
            "Airfoil of the blade (outboard of airfoil_change): 0 the analytic polar of a, cd0 and cd2; 1 the \
             NACA 0012 table shipped with the FMU (Sheldahl and Klimas 1981, Re 2e6, -180..180 deg, C81); 2 the \
             C81 table in the file airfoil_file")
            .enumeration(&AIRFOIL_TYPE);
        AIRFOIL_INBOARD = integer("airfoil_inboard", 0, 0, 2,
            "Airfoil of the stations inboard of airfoil_change (r/R < airfoil_change), same choices as airfoil \
             (2: the C81 table in the file airfoil_inboard_file)")
            .enumeration(&AIRFOIL_TYPE);
        AIRFOIL_CHANGE = real("airfoil_change", "",
            "Radius ratio r/R where the inboard airfoil gives way to the outboard one (0 <= airfoil_change < 1; \
             0: the whole blade uses airfoil)").start(0.0).min(0.0).below(1.0);
        TIP_LOSS = integer("tip_loss", 0, 0, 2,
            "Prandtl's loss factor on the section lift: 0 none; 1 tip loss F_tip = 2/pi acos(exp(-nb/2 (R - r) \
             / (r |sin phi|))); 2 tip and root loss (F_tip F_root, root at r_root); phi is the section inflow angle")
            .enumeration(&TIP_LOSS_TYPE);
        COMPRESSIBILITY = integer("compressibility", 0, 0, 1,
            "Compressibility of the analytic airfoil: 0 none; 1 Prandtl-Glauert, lift divided by sqrt(1 - M^2) \
             with the section Mach number M capped at 0.9 (tables carry their own Mach dependence)");
        SPEED_OF_SOUND = real("speed_of_sound", "m/s",
            "Speed of sound, m/s (> 0): section Mach number = section speed in its plane / speed_of_sound (used by \
             airfoil tables, compressibility = 1 and dynamic_stall = 1; default ISA sea level)").start(340.294).positive();
        DYNAMIC_STALL = integer("dynamic_stall", 0, 0, 1,
            "Leishman-Beddoes dynamic stall at every station: 0 off (the linear polar); 1 on, only in the \
             AeroDynamicStall FMU, which declares its states (7 per station; inflow_model 0 or 2)");
        ALPHA_STALL = real("alpha_stall", "rad",
            "Dynamic stall: static stall angle alpha1 of the separation-point fit (f = 0.7 there), rad (> 0); \
             the other constants are NACA 0012's at each station's nominal Mach number").start(0.2662).positive();
        PETERS_HE_HARMONICS = integer("peters_he_harmonics", 1, 0, 4,
            "Peters-He inflow (inflow_model = 3): highest azimuthal harmonic M (0..4); with peters_he_radial = K \
             the model has K (2M + 1) states");
        PETERS_HE_RADIAL = integer("peters_he_radial", 1, 1, 4,
            "Peters-He inflow (inflow_model = 3): number of radial shape functions per harmonic K (1..4); M = 1, K \
             = 1 is the 3-state model of Pitt-Peters' form");
        GROUND_HEIGHT = real("ground_height", "m",
            "Height of the rotor hub above the ground for the Cheeseman-Bennett ground effect, m: 0 (default) for \
             none, otherwise >= R/2; the induced velocity is reduced by 1 - (R/(4 z))^2 / (1 + (mu/lambda_i)^2) \
             (inflow_model 2 or 3 only)").start(0.0).min(0.0);
        AIRFOIL_FILE = string("airfoil_file", "",
            "C81 airfoil table used when airfoil = 2: an absolute path, or a path relative to the FMU's resources \
             folder (the shipped NACA 0012 table is naca0012_sheldahl_re2e6.c81); read at initialization");
        AIRFOIL_INBOARD_FILE = string("airfoil_inboard_file", "",
            "C81 airfoil table used when airfoil_inboard = 2: an absolute path, or a path relative to the FMU's \
             resources folder; read at initialization");
        PETERS_HE_START = block(Labels::Numbered(N_DECLARED)) per PER_PETERS_HE_START {
            PETERS_HE_START_VALUE = real("peters_he_start[{n}]", "",
                "Initial Peters-He inflow state {n}, the state inflow.peters_he[{n}] (inflow_model = 3; the states \
                 of the chosen truncation are used). All zero (the default): the uniform state starts at \
                 lambda0_start / sqrt(3), the others at zero");
        };
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (89 inputs): a block of [`u::PER_BLADE`] per blade,
/// then the hub kinematics and the wind.
pub mod u {
    use super::{BLADE, MAX_BLADES};
    use fmu_core::declare::{BODY, Labels};

    fmu_core::declare! { view usize;
        BLADES as blade = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            VEL as vel = vector("blade[{n}].vel.{c}", "m/s", &BLADE,
                "Inertial velocity of blade {n}'s root reference point (pitch axis at the flap hinge), {w}, \
                 m/s; the air moves with the wind.* input");
            OMEGA as omega = vector("blade[{n}].omega.{c}", "rad/s", &BLADE,
                "Inertial angular velocity of blade {n}, {w}, rad/s");
            AZIMUTH as azimuth = real("blade[{n}].azimuth", "rad",
                "Azimuth of blade {n}, rad: 0 with the blade over the tail (along -x_h, x_h = body x projected \
                 on the rotor plane), increasing in the sense of rotation (right-handed about the shaft axis)");
            /// Unit shaft axis, thrust direction, in blade axes.
            SHAFT as shaft = vector("blade[{n}].shaft.{c}", "", &BLADE,
                "Unit shaft axis z_H (rotor thrust direction) expressed in blade {n}'s axes, {w} component \
                 (normalised by the model; induced velocity acts along -shaft)").starts(&[0.0, 0.0, 1.0]);
        };
        HUB_VEL as hub_vel = vector("hub.vel.{c}", "m/s", &BODY,
            "Inertial velocity of the hub, {w}, m/s (minus wind.*: advance ratio, climb inflow, wake skew)");
        HUB_OMEGA = vector("hub.omega.{c}", "rad/s", &BODY,
            "Airframe angular velocity at the hub, {w}, rad/s: part of the aero interface, not used by the \
             built-in inflow models (the blade kinematics already contain the airframe rotation)");
        WIND as wind = vector("wind.{c}", "m/s", &BODY,
            "Wind velocity (the air's velocity relative to the ground, uniform over the rotor) at the rotor, {w}, \
             m/s; the aerodynamic velocities are the inertial ones (hub.vel, blade[*].vel) minus it; 0 = still \
             air (e.g. from the Fuselage's wind.body.* output)");
        N;
    }
}

/// Indices into the real output vector `y` (56 outputs).
pub mod y {
    use super::{BLADE, MAX_BLADES, u};
    use fmu_core::declare::Labels;

    /// The inputs that the loads depend on directly: every blade's kinematics and the hub
    /// velocity. (With uniform momentum inflow every blade's load depends on every blade through
    /// the inflow; the declaration is the union over the inflow models.)
    fn loads(_: usize) -> Vec<usize> {
        (0..u::HUB_OMEGA).chain(u::WIND..u::WIND + 3).collect()
    }

    fmu_core::declare! { view usize;
        BLADES as blade = block(Labels::Numbered(MAX_BLADES)) per PER_BLADE fn blade {
            FORCE as force = vector("blade[{n}].F.{c}", "N", &BLADE, "Resultant aerodynamic force on blade {n}, {w}, N")
                .deps(loads);
            MOMENT as moment = vector("blade[{n}].M.{c}", "N.m", &BLADE,
                "Resultant aerodynamic moment on blade {n} about its root reference point, {w}, N m \
                 (right-handed)").deps(loads);
        };
        THRUST as thrust = real("thrust", "N",
            "Rotor thrust: sum over the blades of the aerodynamic force along the shaft axis, N").deps(loads);
        TORQUE as torque = real("torque", "N.m",
            "Aerodynamic torque about the shaft axis, positive opposing the rotation (the torque the shaft must \
             supply), N m").deps(loads);
        POWER as power = real("power", "W", "Rotor power, torque * Omega (nominal rotor speed), W").deps(loads);
        CT as ct = real("CT", "", "Thrust coefficient thrust / (rho pi R^2 (Omega R)^2)").deps(loads);
        INFLOW as inflow = real("inflow", "",
            "Uniform induced inflow ratio v_i / (Omega R): lambda_i of the momentum model (inflow_model 1), \
             lambda_0 of Pitt-Peters (2), lambda_m = sqrt(3) alpha_1^0 of Peters-He (3), times the ground-effect \
             factor; 0 without inflow (0)").deps(loads);
        // The Pitt-Peters harmonics are states (no feedthrough).
        INFLOW_S as inflow_s = real("inflow_s", "",
            "Pitt-Peters lambda_s, coefficient of (r/R) sin(psi) in the inflow ratio; Peters-He: the sin(psi) part \
             of the inflow ratio at the tip; without the ground-effect factor (0 for the other models)");
        INFLOW_C as inflow_c = real("inflow_c", "",
            "Pitt-Peters lambda_c, coefficient of (r/R) cos(psi) in the inflow ratio; Peters-He: the cos(psi) part \
             of the inflow ratio at the tip; without the ground-effect factor (0 for the other models)");
        MU as mu = real("mu", "", "Advance ratio: hub velocity component in the rotor plane / (Omega R)")
            .deps(|_| (u::HUB_VEL..u::HUB_VEL + 3).chain(u::WIND..u::WIND + 3).collect());
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
