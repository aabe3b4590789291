//! The variable declarations of the Rotor FMU (each variable declared once).

use fmu_core::variable::Variable;

use crate::layout::{MAX_BLADES, u, vr, y};

/// Component suffixes of a vector variable.
const AXES: [&str; 3] = ["x", "y", "z"];
/// Airframe body axes (FRD) in words, for descriptions.
const BODY: [&str; 3] = ["body x (forward)", "body y (right)", "body z (down)"];
/// Blade axes in words, for descriptions.
const BLADE: [&str; 3] = [
    "blade x (radially outboard along the pitch axis)",
    "blade y (towards the leading edge)",
    "blade z (blade normal, up at zero angles)",
];

/// Default tolerance of the integrator inside `fmi2DoStep`.
pub const DEFAULT_TOLERANCE: f64 = 1e-9;

/// Every variable of the model: parameters (vr 0..), inputs (vr 100..), outputs (vr 300..).
pub fn variables() -> Vec<Variable> {
    let mut v = Vec::with_capacity(30 + u::N + y::N);
    parameters(&mut v);
    inputs(&mut v);
    outputs(&mut v);
    v
}

fn parameters(v: &mut Vec<Variable>) {
    let p = Variable::real_parameter;
    v.push(
        Variable::integer_parameter("nb", vr::NB, 4, 1, MAX_BLADES as i32).describe(
            "Number of active blades (1..8); variables of blades beyond nb read 0 and their inputs are ignored",
        ),
    );
    v.push(
        p("Omega", vr::OMEGA, "rad/s", 29.0)
            .describe(
                "Rotor speed about +z_H (the shaft axis), rad/s: the constant drive rate of the shaft (psi = psi0 + \
                 Omega t), or with shaft_free the initial shaft rate",
            )
            .display_unit("rpm"),
    );
    v.push(p("R", vr::RADIUS, "m", 7.5).describe(
        "Rotor radius, m: documentation and consistency checks (e + S/m < R, I <= m (R - e)^2); the aerodynamics \
         live in the Aero FMU",
    ));
    v.push(p("e", vr::E, "m", 0.3).describe("Flap hinge offset from the shaft axis, m (0 <= e < R)"));
    v.push(p("e_lag", vr::E_LAG, "m", -1.0).describe(
        "Lag hinge offset from the shaft axis, m (0 <= e_lag <= e; the lag hinge is inboard of the flap hinge); a \
         negative value (default) means e_lag = e (coincident hinges)",
    ));
    v.push(p("blade.m", vr::BLADE_M, "kg", 100.0).describe("Blade mass, kg (> 0)").min(0.0));
    v.push(p("blade.S", vr::BLADE_S, "kg.m", 390.0).describe(
        "Blade first mass moment about the flap hinge, kg m (>= 0): the CoM lies on the pitch axis at x_cg = S/m \
         outboard of the flap hinge",
    ).min(0.0));
    v.push(p("blade.I", vr::BLADE_I, "kg.m2", 1953.0).describe(
        "Blade flap moment of inertia about the flap hinge, kg m^2 (I >= S^2/m); the thin-blade inertia about the CoM \
         in blade axes is diag(I_pitch, I - S^2/m, I - S^2/m + I_pitch)",
    ));
    v.push(
        p("blade.I_pitch", vr::BLADE_I_PITCH, "kg.m2", 0.0)
            .describe("Blade torsional moment of inertia about the pitch axis, kg m^2 (>= 0)")
            .min(0.0),
    );
    v.push(p("k_lag", vr::K_LAG, "N.m/rad", 16000.0).describe(
        "Lag damper stiffness, N m/rad (>= 0): restoring moment -k_lag lag about the lag hinge (seed-004 Table 3)",
    ).min(0.0));
    v.push(
        p("c_lag", vr::C_LAG, "N.m.s/rad", 3000.0)
            .describe(
                "Lag damper damping, N m s/rad (>= 0): moment -c_lag lag_rate about the lag hinge (seed-004 Table 3)",
            )
            .min(0.0),
    );
    v.push(
        p("k_flap", vr::K_FLAP, "N.m/rad", 0.0)
            .describe("Flap hinge spring, N m/rad (>= 0): restoring moment -k_flap flap about the flap hinge")
            .min(0.0),
    );
    v.push(
        Variable::boolean_parameter("lock_lag", vr::LOCK_LAG, false)
            .describe("Lock the lag hinges at blade.zeta0 (removes the lag degrees of freedom)"),
    );
    v.push(
        Variable::boolean_parameter("lock_flap", vr::LOCK_FLAP, false)
            .describe("Lock the flap hinges at blade.beta0 (a precone; removes the flap degrees of freedom)"),
    );
    v.push(Variable::boolean_parameter("shaft_free", vr::SHAFT_FREE, false).describe(
        "false: the shaft turns at the constant rate Omega (driven joint; shaft.torque reports the torque it needs); \
         true: the shaft angle is a degree of freedom driven by the shaft_torque input",
    ));
    v.push(
        p("psi0", vr::PSI0, "rad", 0.0)
            .describe("Shaft azimuth at t = 0, rad: blade 1 points along x_H (shaft.ax/ay/az) when psi = 0"),
    );
    v.push(p("blade.beta0", vr::BETA0, "rad", 0.0).describe(
        "Initial flap angle of every blade (positive up, towards +z_H), rad; the locked angle with lock_flap",
    ));
    v.push(p("blade.zeta0", vr::ZETA0, "rad", 0.0).describe(
        "Initial lag angle of every blade (positive lagging behind the rotation), rad; the locked angle with lock_lag",
    ));
    for i in 0..MAX_BLADES {
        let n = i + 1;
        let base = vr::BLADE_INITIAL + 4 * i as u32;
        let [dlag, dflap, lag_rate, flap_rate] = vr::BLADE_INITIAL_NAMES;
        v.push(Variable::real_parameter(format!("blade[{n}].{dlag}"), base, "rad", 0.0).describe(format!(
            "Initial lag angle of blade {n} relative to blade.zeta0, rad (ignored with lock_lag); with the other \
             per-blade initial values it starts a run on a periodic state, e.g. from a trim"
        )));
        v.push(Variable::real_parameter(format!("blade[{n}].{dflap}"), base + 1, "rad", 0.0).describe(format!(
            "Initial flap angle of blade {n} relative to blade.beta0, rad (ignored with lock_flap)"
        )));
        v.push(
            Variable::real_parameter(format!("blade[{n}].{lag_rate}"), base + 2, "rad/s", 0.0)
                .describe(format!("Initial lag rate of blade {n}, rad/s (ignored with lock_lag)")),
        );
        v.push(
            Variable::real_parameter(format!("blade[{n}].{flap_rate}"), base + 3, "rad/s", 0.0)
                .describe(format!("Initial flap rate of blade {n}, rad/s (ignored with lock_flap)")),
        );
    }
    v.push(p("hub.m", vr::HUB_M, "kg", 0.0).describe("Hub mass (at P, on the shaft axis), kg (>= 0)").min(0.0));
    v.push(
        p("hub.I", vr::HUB_I, "kg.m2", 0.0)
            .describe(
                "Hub polar moment of inertia about the shaft axis, kg m^2 (>= 0); the hub is a thin disk (transverse \
         moments hub.I/2)",
            )
            .min(0.0),
    );
    for (k, start) in [0.0, 0.0, -1.0].iter().enumerate() {
        v.push(Variable::real_parameter(format!("shaft.n{}", AXES[k]), vr::SHAFT_AXIS + k as u32, "", *start).describe(format!(
            "Shaft axis z_H (thrust direction; the rotor turns right-handed about it), {} component, airframe body \
             axes; normalised (default (0, 0, -1): a main rotor turning counter-clockwise seen from above)",
            BODY[k]
        )));
    }
    for (k, start) in [-1.0, 0.0, 0.0].iter().enumerate() {
        v.push(
            Variable::real_parameter(format!("shaft.a{}", AXES[k]), vr::SHAFT_AZIMUTH_ZERO + k as u32, "", *start)
                .describe(format!(
                    "Azimuth-zero direction x_H, {} component, airframe body axes; made orthonormal to the shaft axis \
             (default (-1, 0, 0): blade 1 over the tail at psi = 0)",
                    BODY[k]
                )),
        );
    }
    v.push(p("tolerance", vr::TOLERANCE, "", DEFAULT_TOLERANCE).describe(
        "Relative and absolute tolerance of the error-controlled integrator inside fmi2DoStep (0 < tol < 1)",
    ));
}

fn inputs(v: &mut Vec<Variable>) {
    let inp = |name: String, k: usize, unit: &'static str, d: String| {
        Variable::real_input(name, vr::input(k), unit, 0.0).describe(d)
    };
    for k in 0..3 {
        v.push(inp(
            format!("hub.vel.{}", AXES[k]),
            u::HUB_VEL + k,
            "m/s",
            format!("Inertial velocity of the attachment point P, {}, m/s", BODY[k]),
        ));
    }
    for k in 0..3 {
        v.push(inp(
            format!("hub.omega.{}", AXES[k]),
            u::HUB_OMEGA + k,
            "rad/s",
            format!("Angular velocity of the airframe relative to inertial space, {}, rad/s", BODY[k]),
        ));
    }
    for k in 0..3 {
        v.push(inp(
            format!("hub.acc.{}", AXES[k]),
            u::HUB_ACC + k,
            "m/s2",
            format!(
                "Specific force at P (inertial acceleration minus gravity), {}, m/s^2; gravity enters only here (at \
                 rest z reads -g)",
                BODY[k]
            ),
        ));
    }
    for k in 0..3 {
        v.push(inp(
            format!("hub.alpha.{}", AXES[k]),
            u::HUB_ALPHA + k,
            "rad/s2",
            format!("Angular acceleration of the airframe, {}, rad/s^2", BODY[k]),
        ));
    }
    v.push(inp(
        "shaft_torque".into(),
        u::SHAFT_TORQUE,
        "N.m",
        "Torque applied to the rotor about +z_H by the airframe (engine), N m; used only with shaft_free".into(),
    ));
    for i in 0..MAX_BLADES {
        let n = i + 1;
        let b = u::blade(i);
        v.push(inp(
            format!("blade[{n}].pitch"),
            b + u::PITCH,
            "rad",
            format!("Pitch angle of blade {n} (driven pitch bearing, positive leading edge up), rad"),
        ));
        v.push(inp(
            format!("blade[{n}].pitch_rate"),
            b + u::PITCH_RATE,
            "rad/s",
            format!("Pitch rate of blade {n}, rad/s"),
        ));
        v.push(inp(
            format!("blade[{n}].pitch_acc"),
            b + u::PITCH_ACC,
            "rad/s2",
            format!("Pitch acceleration of blade {n}, rad/s^2"),
        ));
        for k in 0..3 {
            v.push(inp(
                format!("blade[{n}].F.{}", AXES[k]),
                b + u::FORCE + k,
                "N",
                format!(
                    "Applied (aerodynamic) force on blade {n} at its root reference (flap hinge / pitch bearing), {}, N",
                    BLADE[k]
                ),
            ));
        }
        for k in 0..3 {
            v.push(inp(
                format!("blade[{n}].M.{}", AXES[k]),
                b + u::MOMENT + k,
                "N.m",
                format!("Applied (aerodynamic) couple on blade {n} about its root reference, {}, N m", BLADE[k]),
            ));
        }
    }
}

/// Value references of the inputs of blade `i` (0-based) at the given offsets.
fn blade_inputs(i: usize, offsets: &[usize]) -> impl Iterator<Item = u32> + '_ {
    offsets.iter().map(move |&o| vr::input(u::blade(i) + o))
}

/// Inputs on which the hub loads and the driven-shaft torque depend directly: everything except
/// the hub velocity.
fn load_dependencies() -> Vec<u32> {
    (u::HUB_OMEGA..u::N).map(vr::input).collect()
}

fn outputs(v: &mut Vec<Variable>) {
    let out = |name: String, k: usize, unit: &'static str, d: String| {
        Variable::real_output(name, vr::output(k), unit).describe(d)
    };
    let hub = |range: std::ops::Range<usize>| range.map(vr::input).collect::<Vec<u32>>();
    for k in 0..3 {
        v.push(
            out(
                format!("hub.F.{}", AXES[k]),
                y::HUB_FORCE + k,
                "N",
                format!(
                    "Force of the rotor on the airframe at P, {}, N: blade loads minus the inertial (specific-force) \
                     loads of all rotor bodies",
                    BODY[k]
                ),
            )
            .depends_on(load_dependencies()),
        );
    }
    for k in 0..3 {
        v.push(
            out(
                format!("hub.M.{}", AXES[k]),
                y::HUB_MOMENT + k,
                "N.m",
                format!("Moment of the rotor on the airframe about P, {}, N m", BODY[k]),
            )
            .depends_on(load_dependencies()),
        );
    }
    v.push(out(
        "azimuth".into(),
        y::AZIMUTH,
        "rad",
        "Shaft azimuth psi (rotation of the hub about +z_H from x_H), rad; continuous (not wrapped)".into(),
    ));
    v.push(out(
        "shaft.rate".into(),
        y::SHAFT_RATE,
        "rad/s",
        "Shaft angular velocity relative to the airframe about +z_H, rad/s (Omega when driven)".into(),
    ));
    v.push(
        out(
            "shaft.torque".into(),
            y::SHAFT_TORQUE,
            "N.m",
            "Torque the airframe (drive) applies to the rotor about +z_H, N m: with the shaft driven, the torque that \
             holds the rotor at Omega (positive against aerodynamic drag); with shaft_free, the shaft_torque input"
                .into(),
        )
        .depends_on(load_dependencies()),
    );
    let mut kinetic_deps = hub(u::HUB_VEL..u::HUB_OMEGA + 3);
    for i in 0..MAX_BLADES {
        kinetic_deps.extend(blade_inputs(i, &[u::PITCH, u::PITCH_RATE]));
    }
    v.push(
        out(
            "energy.kinetic".into(),
            y::KINETIC,
            "J",
            "Kinetic energy of the rotor bodies (hub and blades) relative to inertial space, J".into(),
        )
        .depends_on(kinetic_deps),
    );
    v.push(
        out(
            "energy.potential".into(),
            y::POTENTIAL,
            "J",
            "Potential energy, J: hinge springs (k_lag, k_flap) plus gravity in the hub frame, sum m_b acc . c_b (c_b \
             the CoM relative to P); equals the gravitational potential relative to P when the hub does not \
             accelerate"
                .into(),
        )
        .depends_on(hub(u::HUB_ACC..u::HUB_ACC + 3)),
    );
    for i in 0..MAX_BLADES {
        let n = i + 1;
        let b = y::blade(i);
        v.push(out(
            format!("blade[{n}].azimuth"),
            b + y::AZIMUTH_B,
            "rad",
            format!("Azimuth of blade {n}: psi + 2 pi ({n} - 1)/nb, rad, continuous (0 when inactive)"),
        ));
        v.push(out(
            format!("blade[{n}].flap"),
            b + y::FLAP,
            "rad",
            format!("Flap angle of blade {n}, positive up, rad"),
        ));
        v.push(out(
            format!("blade[{n}].lag"),
            b + y::LAG,
            "rad",
            format!("Lag angle of blade {n}, positive lagging behind the rotation, rad"),
        ));
        v.push(out(
            format!("blade[{n}].flap_rate"),
            b + y::FLAP_RATE,
            "rad/s",
            format!("Flap rate of blade {n}, rad/s"),
        ));
        v.push(out(format!("blade[{n}].lag_rate"), b + y::LAG_RATE, "rad/s", format!("Lag rate of blade {n}, rad/s")));
        let vel_deps: Vec<u32> =
            hub(u::HUB_VEL..u::HUB_OMEGA + 3).into_iter().chain(blade_inputs(i, &[u::PITCH])).collect();
        for k in 0..3 {
            v.push(
                out(
                    format!("blade[{n}].vel.{}", AXES[k]),
                    b + y::VEL + k,
                    "m/s",
                    format!(
                        "Inertial velocity of the root reference (flap hinge) of blade {n}, {}, m/s (for the aerodynamics)",
                        BLADE[k]
                    ),
                )
                .depends_on(vel_deps.iter().copied()),
            );
        }
        let omega_deps: Vec<u32> = hub(u::HUB_OMEGA..u::HUB_OMEGA + 3)
            .into_iter()
            .chain(blade_inputs(i, &[u::PITCH, u::PITCH_RATE]))
            .collect();
        for k in 0..3 {
            v.push(
                out(
                    format!("blade[{n}].omega.{}", AXES[k]),
                    b + y::OMEGA + k,
                    "rad/s",
                    format!("Inertial angular velocity of blade {n}, {}, rad/s", BLADE[k]),
                )
                .depends_on(omega_deps.iter().copied()),
            );
        }
        for k in 0..3 {
            v.push(
                out(
                    format!("blade[{n}].shaft.{}", AXES[k]),
                    b + y::SHAFT + k,
                    "",
                    format!(
                        "Shaft axis z_H (unit vector) in the axes of blade {n}, {} (the Aero FMU's blade[{n}].shaft \
                         input)",
                        BLADE[k]
                    ),
                )
                .depends_on(blade_inputs(i, &[u::PITCH])),
            );
        }
    }
}
