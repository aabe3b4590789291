//! The variable declarations of the Fuselage FMU (each variable declared once).

use fmu_core::variable::{Enumeration, Variable};

use crate::layout::{GEAR_LEGS, Point, u, vr, y};

/// Component suffixes of a vector variable.
const AXES: [&str; 3] = ["x", "y", "z"];
/// Body axes (FRD) in words, for descriptions.
const BODY: [&str; 3] = ["body x (forward)", "body y (right)", "body z (down)"];
/// NED axes in words, for descriptions.
const NED: [&str; 3] = ["NED x (north)", "NED y (east)", "NED z (down)"];

/// Defaults of a Bo105-class airframe: mass 2100 kg, principal inertias about the CoM.
const DEFAULT_MASS: f64 = 2100.0;
const DEFAULT_INERTIA: [(&str, f64); 6] =
    [("xx", 1803.0), ("yy", 4892.0), ("zz", 4428.0), ("xy", 0.0), ("xz", 0.0), ("yz", 0.0)];

/// The choices of `euler_sequence`: intrinsic rotations NED to body, axes in order.
static EULER_SEQUENCE: Enumeration = Enumeration {
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

/// Every variable of the model: parameters (vr 0..), inputs (vr 100..), outputs (vr 200..).
pub fn variables() -> Vec<Variable> {
    let mut v = Vec::with_capacity(40 + u::N + y::N);
    parameters(&mut v);
    inputs(&mut v);
    outputs(&mut v);
    v
}

fn parameters(v: &mut Vec<Variable>) {
    v.push(Variable::real_parameter("mass", vr::MASS, "kg", DEFAULT_MASS).describe("Airframe mass, kg (> 0)").min(0.0));
    for k in 0..3 {
        v.push(
            Variable::real_parameter(format!("cg.{}", AXES[k]), vr::CG + k as u32, "m", 0.0)
                .describe(format!("Centre of mass relative to the body reference point, {}, m", BODY[k])),
        );
    }
    for (k, (ij, start)) in DEFAULT_INERTIA.iter().enumerate() {
        let what = if k < 3 { "moment of inertia" } else { "tensor element (= minus the product of inertia)" };
        v.push(
            Variable::real_parameter(format!("I.{ij}"), vr::INERTIA + k as u32, "kg.m2", *start)
                .describe(format!("Inertia tensor element {ij} about the centre of mass, body axes, kg m^2: {what}")),
        );
    }
    v.push(
        Variable::real_parameter("g", vr::G, "m/s2", 9.80665)
            .describe("Gravitational acceleration, acting along +z of NED (down), m/s^2"),
    );
    for p in Point::ALL {
        let d = p.default_position();
        for k in 0..3 {
            v.push(
                Variable::real_parameter(
                    format!("{}.{}", p.name(), AXES[k]),
                    vr::POINTS + (3 * p.index() + k) as u32,
                    "m",
                    d[k],
                )
                .describe(format!(
                    "Position of the {} attachment point relative to the body reference point, {}, m",
                    p.name(),
                    BODY[k]
                )),
            );
        }
    }
    v.push(
        Variable::integer_parameter("euler_sequence", vr::EULER_SEQUENCE, 321, 123, 321)
            .describe(
                "Euler sequence of the euler.1..3 outputs: 123, 132, 213, 231, 312 or 321; 'abc' = intrinsic \
                 rotations NED to body, first about axis a by euler.1, then new b by euler.2, then new c by euler.3",
            )
            .enumeration(&EULER_SEQUENCE),
    );
    for k in 0..3 {
        v.push(
            Variable::real_parameter(format!("{}0", AXES[k]), vr::POS0 + k as u32, "m", 0.0)
                .describe(format!("Initial position of the reference point, {}, m", NED[k])),
        );
    }
    let euler = [
        ("phi0", "roll (3-2-1), about body x"),
        ("theta0", "pitch (3-2-1), about the intermediate y"),
        ("psi0", "yaw (3-2-1), about NED z"),
    ];
    for (k, (name, what)) in euler.iter().enumerate() {
        v.push(
            Variable::real_parameter(*name, vr::EULER0 + k as u32, "rad", 0.0)
                .describe(format!("Initial attitude: {what}, rad")),
        );
    }
    for (k, name) in ["u0", "v0", "w0"].iter().enumerate() {
        v.push(
            Variable::real_parameter(*name, vr::VEL0 + k as u32, "m/s", 0.0)
                .describe(format!("Initial velocity of the reference point, {}, m/s", BODY[k])),
        );
    }
    for (k, name) in ["p0", "q0", "r0"].iter().enumerate() {
        v.push(
            Variable::real_parameter(*name, vr::RATE0 + k as u32, "rad/s", 0.0)
                .describe(format!("Initial angular velocity, {}, rad/s (right-handed)", BODY[k])),
        );
    }
    v.push(Variable::integer_parameter("dof_mask", vr::DOF_MASK, 63, 0, 63).describe(
        "Free degrees of freedom: bit k set = axis k free, axes in order u v w p q r (bit 0 = u); a blocked \
         axis has zero body-axis acceleration; 63 = all free",
    ));
    v.push(
        Variable::real_parameter("drag_area", vr::DRAG_AREA, "m2", 0.0)
            .describe(
                "Equivalent flat-plate drag area f, m^2 (>= 0): drag force -0.5 rho f |V| V at the reference point, \
         V its body velocity (still air)",
            )
            .min(0.0),
    );
    v.push(Variable::real_parameter("rho", vr::RHO, "kg/m3", 1.225).describe("Air density for the drag, kg/m^3"));
    v.push(Variable::real_parameter("tolerance", vr::TOLERANCE, "", 1e-9).describe(
        "Relative and absolute tolerance of the error-controlled integrator inside fmi2DoStep (0 < tol < 1)",
    ));
    for i in 0..GEAR_LEGS {
        for k in 0..3 {
            v.push(
                Variable::real_parameter(format!("gear[{}].{}", i + 1, AXES[k]), vr::GEAR + 3 * i as u32 + k as u32, "m", 0.0)
                    .describe(format!(
                        "Landing-gear contact point {} relative to the reference point (the bottom of the unloaded leg), {}, m",
                        i + 1,
                        BODY[k]
                    )),
            );
        }
    }
    v.push(Variable::real_parameter("gear.k", vr::GEAR_K, "N/m", 0.0).describe(
        "Vertical stiffness of each landing-gear leg, N/m (>= 0; 0: no landing gear): a leg whose contact point is \
         d below the ground (NED z above ground_z) pushes up with max(0, k d + c d_dot)",
    ).min(0.0));
    v.push(
        Variable::real_parameter("gear.c", vr::GEAR_C, "N.s/m", 0.0)
            .describe(
                "Vertical damping of each landing-gear leg, N s/m (>= 0), acting while the leg touches the ground",
            )
            .min(0.0),
    );
    v.push(
        Variable::real_parameter("gear.k_h", vr::GEAR_K_H, "N/m", 0.0)
            .describe(
                "Horizontal stiffness of each landing-gear leg in contact, N/m (>= 0): a spring in NED x (and, times \
         gear.k_h_ratio, in NED y) from the contact point to where that point starts (a helicopter parked where it \
         starts; 0 for landings elsewhere)",
            )
            .min(0.0),
    );
    v.push(
        Variable::real_parameter("gear.c_h", vr::GEAR_C_H, "N.s/m", 0.0)
            .describe(
                "Horizontal damping of each landing-gear leg in contact, N s/m (>= 0), on the NED x and y velocity",
            )
            .min(0.0),
    );
    v.push(
        Variable::real_parameter("gear.k_h_ratio", vr::GEAR_K_H_RATIO, "", 1.0)
            .describe(
                "Ratio of the lateral (NED y) to the longitudinal (NED x) horizontal stiffness of each leg (>= 0; 1: \
                 the same gear.k_h both ways): an orthotropic support, as for ground-resonance studies",
            )
            .min(0.0),
    );
    v.push(
        Variable::real_parameter("ground_z", vr::GROUND_Z, "m", 0.0)
            .describe("NED z of the flat ground the landing gear stands on, m (down positive)"),
    );
    v.push(Variable::boolean_parameter("strict_inertia", vr::STRICT_INERTIA, true).describe(
        "Reject inertia tensors whose principal moments violate the triangle inequality (physically \
         unrealisable); false admits them, e.g. for the GUNNS/JEOD validation case whose Izz > Ixx + Iyy",
    ));
}

fn inputs(v: &mut Vec<Variable>) {
    for p in Point::ALL {
        let base = u::point(p);
        for k in 0..3 {
            v.push(
                Variable::real_input(format!("{}.F.{}", p.name(), AXES[k]), vr::input(base + u::FORCE + k), "N", 0.0)
                    .describe(format!("Force on the airframe at the {} point, {}, N", p.name(), BODY[k])),
            );
        }
        for k in 0..3 {
            v.push(
                Variable::real_input(
                    format!("{}.M.{}", p.name(), AXES[k]),
                    vr::input(base + u::MOMENT + k),
                    "N.m",
                    0.0,
                )
                .describe(format!(
                    "Moment (couple) on the airframe at the {} point, {}, N m (right-handed)",
                    p.name(),
                    BODY[k]
                )),
            );
        }
    }
}

fn outputs(v: &mut Vec<Variable>) {
    let out = |name: String, k: usize, unit: &'static str, description: String| {
        Variable::real_output(name, vr::output(k), unit).describe(description)
    };
    for k in 0..3 {
        v.push(out(
            AXES[k].to_string(),
            y::POS + k,
            "m",
            format!("Position of the body reference point, {}, m", NED[k]),
        ));
    }
    for (k, name) in ["u", "v", "w"].iter().enumerate() {
        v.push(out(
            name.to_string(),
            y::VEL + k,
            "m/s",
            format!("Velocity of the reference point relative to NED, {}, m/s", BODY[k]),
        ));
    }
    for (k, name) in ["p", "q", "r"].iter().enumerate() {
        v.push(out(
            name.to_string(),
            y::RATE + k,
            "rad/s",
            format!("Angular velocity relative to NED, {}, rad/s", BODY[k]),
        ));
    }
    let e321 = [
        ("phi", "Roll angle (3-2-1 sequence), rad, in (-pi, pi]"),
        ("theta", "Pitch angle (3-2-1 sequence), rad, in [-pi/2, pi/2], nose up positive"),
        ("psi", "Yaw (heading) angle (3-2-1 sequence), rad, in (-pi, pi], from north towards east"),
    ];
    for (k, (name, d)) in e321.iter().enumerate() {
        v.push(out(name.to_string(), y::EULER321 + k, "rad", d.to_string()));
    }
    for k in 0..3 {
        v.push(out(
            format!("euler.{}", k + 1),
            y::EULER + k,
            "rad",
            format!(
                "Euler angle {} of the euler_sequence parameter (intrinsic rotations NED to body; 321 gives psi, \
                 theta, phi), rad",
                k + 1
            ),
        ));
    }
    for (k, c) in ["w", "x", "y", "z"].iter().enumerate() {
        v.push(out(
            format!("q.{c}"),
            y::QUAT + k,
            "",
            format!("Body-to-NED attitude quaternion, scalar-first, component {c}"),
        ));
    }
    v.push(out("energy.kinetic".into(), y::KINETIC, "J", "Kinetic energy of the airframe relative to NED, J".into()));
    v.push(out(
        "energy.potential".into(),
        y::POTENTIAL,
        "J",
        "Gravitational potential energy of the airframe, -m g z_cm (zero at NED z = 0), J".into(),
    ));
    let all_inputs: Vec<u32> = (0..u::N).map(vr::input).collect();
    for p in Point::ALL {
        let base = y::point(p);
        let n = p.name();
        for k in 0..3 {
            v.push(out(
                format!("{n}.pos.{}", AXES[k]),
                base + y::P_POS + k,
                "m",
                format!("Position of the {n} point, {}, m", NED[k]),
            ));
        }
        for k in 0..3 {
            v.push(out(
                format!("{n}.vel.{}", AXES[k]),
                base + y::P_VEL + k,
                "m/s",
                format!("Velocity of the {n} point relative to NED, {}, m/s", BODY[k]),
            ));
        }
        for k in 0..3 {
            v.push(out(
                format!("{n}.omega.{}", AXES[k]),
                base + y::P_OMEGA + k,
                "rad/s",
                format!("Angular velocity of the airframe at the {n} point, {}, rad/s", BODY[k]),
            ));
        }
        for k in 0..3 {
            v.push(
                out(
                    format!("{n}.acc.{}", AXES[k]),
                    base + y::P_ACC + k,
                    "m/s2",
                    format!(
                        "Specific force at the {n} point (inertial acceleration minus gravity), {}, m/s^2; at rest \
                         on the ground z reads -g",
                        BODY[k]
                    ),
                )
                .depends_on(all_inputs.iter().copied()),
            );
        }
        for k in 0..3 {
            v.push(
                out(
                    format!("{n}.alpha.{}", AXES[k]),
                    base + y::P_ALPHA + k,
                    "rad/s2",
                    format!("Angular acceleration of the airframe relative to NED, {}, rad/s^2", BODY[k]),
                )
                .depends_on(all_inputs.iter().copied()),
            );
        }
    }
    let free = [("u_dot", "m/s2", "du/dt"), ("v_dot", "m/s2", "dv/dt"), ("w_dot", "m/s2", "dw/dt")]
        .into_iter()
        .chain([("p_dot", "rad/s2", "dp/dt"), ("q_dot", "rad/s2", "dq/dt"), ("r_dot", "rad/s2", "dr/dt")]);
    for (k, (name, unit, what)) in free.enumerate() {
        v.push(
            out(
                format!("free.{name}"),
                y::FREE + k,
                unit,
                format!(
                    "{what} of the body-axis state with every DOF free, whatever dof_mask holds ({unit}): the \
                     airframe's unbalanced acceleration, zero in a trimmed steady flight (the trim residual); \
                     equals the state derivative when dof_mask = 63"
                ),
            )
            .depends_on(all_inputs.iter().copied()),
        );
    }
    for i in 0..GEAR_LEGS {
        v.push(out(
            format!("gear[{}].load", i + 1),
            y::GEAR_LOAD + i,
            "N",
            format!(
                "Normal ground force on landing-gear leg {} (upwards, >= 0; 0 in the air or without gear), N",
                i + 1
            ),
        ));
    }
}
