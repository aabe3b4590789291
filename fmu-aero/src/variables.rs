//! The variable declarations of the Aero FMU (each variable declared once).

use fmu_core::variable::{Enumeration, Variable};

use crate::layout::{MAX_BLADES, NS_MAX, u, vr, y};

/// Component suffixes of a vector variable.
const AXES: [&str; 3] = ["x", "y", "z"];
/// Blade axes in words, for descriptions.
const BLADE: [&str; 3] = [
    "blade x (radially outboard along the pitch axis)",
    "blade y (towards the leading edge)",
    "blade z (blade normal, up at zero pitch and flap)",
];
/// Body axes (FRD) in words, for descriptions.
const BODY: [&str; 3] = ["body x (forward)", "body y (right)", "body z (down)"];

/// Every variable of the model: parameters (vr 0..), inputs (vr 100..), outputs (vr 200..).
pub fn variables() -> Vec<Variable> {
    let mut v = Vec::with_capacity(24 + u::N + y::N);
    parameters(&mut v);
    inputs(&mut v);
    outputs(&mut v);
    v
}

/// The choices of `inflow_model`.
static INFLOW_MODEL: Enumeration = Enumeration {
    name: "Aero.InflowModel",
    description: "Induced inflow model",
    items: &[
        ("none", 0, "No induced inflow (seed 004)"),
        ("uniform_momentum", 1, "Uniform momentum inflow, Glauert's forward-flight form"),
        ("pitt_peters", 2, "Pitt-Peters 3-state dynamic inflow"),
    ],
};

fn parameters(v: &mut Vec<Variable>) {
    let int = |name: &str, r: u32, start: i32, min: i32, max: i32, d: &str| {
        Variable::integer_parameter(name, r, start, min, max).describe(d)
    };
    let real = |name: &str, r: u32, unit: &'static str, start: f64, d: &str| {
        Variable::real_parameter(name, r, unit, start).describe(d)
    };
    v.push(int(
        "nb",
        vr::NB,
        4,
        1,
        MAX_BLADES as i32,
        "Number of active blades (1..8); blades above nb get zero loads",
    ));
    v.push(real("R", vr::RADIUS, "m", 7.5, "Rotor radius (blade tip radius from the shaft axis), m (> 0)").min(0.0));
    v.push(real(
        "e",
        vr::E,
        "m",
        0.3,
        "Radius of the blade root reference point (on the pitch axis at the flap hinge) from the shaft axis, m \
         (0 <= e < R); a section at radius r lies at r - e along blade x from the root reference",
    ));
    v.push(real(
        "r_root",
        vr::R_ROOT,
        "m",
        1.5,
        "Root cut-out radius from the shaft axis: the lifting span is r_root..R, m (e <= r_root < R)",
    ));
    v.push(real("chord", vr::CHORD, "m", 0.55, "Blade chord (uniform along the span), m (> 0)").min(0.0));
    v.push(real(
        "twist",
        vr::TWIST,
        "rad",
        -0.14,
        "Linear twist over the full radius, rad: section pitch relative to the blade frame theta_tw(r) = twist * \
         (r/R - 0.75), zero at 3/4 radius, so the blade pitch angle is the pitch at r = 0.75 R; negative = washout",
    ));
    v.push(real("a", vr::LIFT_SLOPE, "1/rad", 5.73, "Section lift-curve slope, cl = a * alpha, 1/rad (>= 0)").min(0.0));
    v.push(
        real("cd0", vr::CD0, "", 0.008, "Section drag polar cd = cd0 + cd2 * alpha^2: constant term (>= 0)").min(0.0),
    );
    v.push(
        real("cd2", vr::CD2, "", 0.4, "Section drag polar cd = cd0 + cd2 * alpha^2: quadratic term, 1/rad^2 (>= 0)")
            .min(0.0),
    );
    v.push(real("rho", vr::RHO, "kg/m3", 1.225, "Air density, kg/m^3 (> 0)").min(0.0));
    v.push(int(
        "n_sections",
        vr::N_SECTIONS,
        20,
        1,
        NS_MAX as i32,
        "Number of spanwise stations per blade between r_root and R (1..64), placed by the quadrature rule",
    ));
    v.push(
        int(
            "inflow_model",
            vr::INFLOW_MODEL,
            1,
            0,
            2,
            "Induced inflow: 0 none (seed 004); 1 uniform momentum inflow with Glauert's forward-flight form, \
             solved at every output evaluation; 2 Pitt-Peters 3-state dynamic inflow (states inside the FMU)",
        )
        .enumeration(&INFLOW_MODEL),
    );
    v.push(
        real(
            "Omega",
            vr::OMEGA,
            "rad/s",
            29.0,
            "Nominal rotor speed, rad/s (> 0): scales the inflow ratios (v = Omega R lambda), CT and the \
             Pitt-Peters time; power = torque * Omega",
        )
        .display_unit("rpm")
        .min(0.0),
    );
    let shaft = [0.0, 0.0, -1.0];
    for (k, c) in ["nx", "ny", "nz"].iter().enumerate() {
        v.push(real(
            &format!("shaft.{c}"),
            vr::SHAFT + k as u32,
            "",
            shaft[k],
            &format!(
                "Rotor shaft axis (thrust direction, rotation is right-handed about it) in airframe body axes, {} \
                 component (normalised; default (0, 0, -1) = up); used with hub.vel for the advance ratio, the \
                 climb inflow and the wake skew",
                BODY[k]
            ),
        ));
    }
    v.push(int(
        "quadrature",
        vr::QUADRATURE,
        1,
        0,
        1,
        "Spanwise quadrature over r_root..R: 0 midpoint rule (n_sections equal strips, stations at their \
         centres); 1 Gauss-Legendre with n_sections points",
    ));
    let starts = [
        ("lambda0_start", "lambda_0 (uniform part)"),
        ("lambda_s_start", "lambda_s (coefficient of (r/R) sin psi)"),
        ("lambda_c_start", "lambda_c (coefficient of (r/R) cos psi)"),
    ];
    for (k, (name, what)) in starts.iter().enumerate() {
        v.push(real(
            name,
            vr::LAMBDA_START + k as u32,
            "",
            0.0,
            &format!("Initial Pitt-Peters inflow state {what}, a ratio to Omega R (inflow_model = 2 only)"),
        ));
    }
    v.push(real(
        "tolerance",
        vr::TOLERANCE,
        "",
        1e-9,
        "Relative and absolute tolerance of the error-controlled integrator inside fmi2DoStep (0 < tol < 1)",
    ));
}

fn inputs(v: &mut Vec<Variable>) {
    for b in 0..MAX_BLADES {
        let base = u::blade(b);
        let i = b + 1;
        for k in 0..3 {
            v.push(
                Variable::real_input(format!("blade[{i}].vel.{}", AXES[k]), vr::input(base + u::VEL + k), "m/s", 0.0)
                    .describe(format!(
                        "Inertial velocity of blade {i}'s root reference point (pitch axis at the flap hinge), {}, \
                         m/s; the air is at rest",
                        BLADE[k]
                    )),
            );
        }
        for k in 0..3 {
            v.push(
                Variable::real_input(
                    format!("blade[{i}].omega.{}", AXES[k]),
                    vr::input(base + u::OMEGA + k),
                    "rad/s",
                    0.0,
                )
                .describe(format!("Inertial angular velocity of blade {i}, {}, rad/s", BLADE[k])),
            );
        }
        v.push(Variable::real_input(format!("blade[{i}].azimuth"), vr::input(base + u::AZIMUTH), "rad", 0.0).describe(
            format!(
                "Azimuth of blade {i}, rad: 0 with the blade over the tail (along -x_h, x_h = body x projected \
                     on the rotor plane), increasing in the sense of rotation (right-handed about the shaft axis)"
            ),
        ));
        for k in 0..3 {
            v.push(
                Variable::real_input(
                    format!("blade[{i}].shaft.{}", AXES[k]),
                    vr::input(base + u::SHAFT + k),
                    "",
                    if k == 2 { 1.0 } else { 0.0 },
                )
                .describe(format!(
                    "Unit shaft axis z_H (rotor thrust direction) expressed in blade {i}'s axes, {} component \
                     (normalised by the model; induced velocity acts along -shaft)",
                    BLADE[k]
                )),
            );
        }
    }
    for k in 0..3 {
        v.push(Variable::real_input(format!("hub.vel.{}", AXES[k]), vr::input(u::HUB_VEL + k), "m/s", 0.0).describe(
            format!("Inertial velocity of the hub, {}, m/s (advance ratio, climb inflow, wake skew)", BODY[k]),
        ));
    }
    for k in 0..3 {
        v.push(
            Variable::real_input(format!("hub.omega.{}", AXES[k]), vr::input(u::HUB_OMEGA + k), "rad/s", 0.0).describe(
                format!(
                    "Airframe angular velocity at the hub, {}, rad/s: part of the aero interface, not used by the \
                     built-in inflow models (the blade kinematics already contain the airframe rotation)",
                    BODY[k]
                ),
            ),
        );
    }
}

/// The inputs that the loads depend on directly: every blade's kinematics and the hub velocity.
/// (With uniform momentum inflow every blade's load depends on every blade through the inflow;
/// the declaration is the union over the inflow models.)
fn feedthrough_inputs() -> Vec<u32> {
    (0..u::HUB_OMEGA).map(vr::input).collect()
}

fn outputs(v: &mut Vec<Variable>) {
    let deps = feedthrough_inputs();
    let out = |name: String, k: usize, unit: &'static str, description: String| {
        Variable::real_output(name, vr::output(k), unit).describe(description).depends_on(deps.iter().copied())
    };
    for b in 0..MAX_BLADES {
        let base = y::blade(b);
        let i = b + 1;
        for k in 0..3 {
            v.push(out(
                format!("blade[{i}].F.{}", AXES[k]),
                base + y::FORCE + k,
                "N",
                format!("Resultant aerodynamic force on blade {i}, {}, N", BLADE[k]),
            ));
        }
        for k in 0..3 {
            v.push(out(
                format!("blade[{i}].M.{}", AXES[k]),
                base + y::MOMENT + k,
                "N.m",
                format!(
                    "Resultant aerodynamic moment on blade {i} about its root reference point, {}, N m \
                     (right-handed)",
                    BLADE[k]
                ),
            ));
        }
    }
    v.push(out(
        "thrust".into(),
        y::THRUST,
        "N",
        "Rotor thrust: sum over the blades of the aerodynamic force along the shaft axis, N".into(),
    ));
    v.push(out(
        "torque".into(),
        y::TORQUE,
        "N.m",
        "Aerodynamic torque about the shaft axis, positive opposing the rotation (the torque the shaft must supply), \
         N m"
        .into(),
    ));
    v.push(out("power".into(), y::POWER, "W", "Rotor power, torque * Omega (nominal rotor speed), W".into()));
    v.push(out("CT".into(), y::CT, "", "Thrust coefficient thrust / (rho pi R^2 (Omega R)^2)".into()));
    v.push(out(
        "inflow".into(),
        y::INFLOW,
        "",
        "Uniform induced inflow ratio v_i / (Omega R): lambda_i of the momentum model (inflow_model 1), lambda_0 of \
         Pitt-Peters (2), 0 without inflow (0)"
            .into(),
    ));
    // Pitt-Peters harmonics are states (no feedthrough); the advance ratio depends on the hub
    // velocity only.
    v.push(
        Variable::real_output("inflow_s", vr::output(y::INFLOW_S), "").describe(
            "Pitt-Peters lambda_s, coefficient of (r/R) sin(psi) in the inflow ratio (0 for the other models)",
        ),
    );
    v.push(
        Variable::real_output("inflow_c", vr::output(y::INFLOW_C), "").describe(
            "Pitt-Peters lambda_c, coefficient of (r/R) cos(psi) in the inflow ratio (0 for the other models)",
        ),
    );
    v.push(
        Variable::real_output("mu", vr::output(y::MU), "")
            .describe("Advance ratio: hub velocity component in the rotor plane / (Omega R)")
            .depends_on((0..3).map(|k| vr::input(u::HUB_VEL + k))),
    );
}
