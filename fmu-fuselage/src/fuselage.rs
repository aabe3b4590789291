//! The rigid airframe: parameters, validation and the Newton-Euler equations.
//!
//! Equations (about the body reference point O, CoM at offset `c` from O, body axes FRD):
//!
//! ```text
//! M6 [v' ; alpha] = [F ; M_O] - [m (w x v + w x (w x c)) ; w x (I_O w) + m c x (w x v)]
//! M6 = [[m E, -m [c x]], [m [c x], I_O]],   I_O = I_cm + m (|c|^2 E - c c^T)
//! F   = sum_P F_P + m g_b - 0.5 rho f |V| V + sum_L F_L + F_S + F_T,   V = v - R^T W (W the NED wind)
//! M_O = sum_P (M_P + r_P x F_P) + c x (m g_b) + sum_L r_L x F_L + M_S + M_T
//! g_b = R^T (0, 0, g),  position' = R v,  q' = 0.5 q (x) (0, w)
//! ```
//!
//! `F_L` is the force of landing-gear leg `L` at its contact point `r_L` (see `Gear`): a
//! unilateral vertical spring-damper against a flat ground and horizontal springs to where the
//! leg started, NED axes, turned into body axes. `F_S`, `M_S` are the lifting surfaces' loads
//! ([`crate::airframe`]); `F_T`, `M_T` the fuselage table's ([`crate::fuselage_tables`]).
//!
//! `v'` is the rate of the body-axis components of the reference-point velocity and `alpha` the
//! angular acceleration. A blocked axis of the DOF mask gets zero acceleration; the free axes
//! solve the reduced system (free rows and columns of `M6`).

use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::ParameterError;

use crate::airframe::{Air, Airframe};
use crate::euler::EulerSequence;
use crate::fuselage_tables::FuselageAero;
use crate::layout::{GEAR_LEGS, Point, SURFACE_NAMES, u, x, y};
use crate::vec3::{self, V3, add, cross, dot, lift3, mat_vec, scale_f, sub};
use fmu_core::vec3::const_mat_vec;

mod params;

/// The 6-DOF rigid airframe (`modelIdentifier="Fuselage"`), holding only parameter-derived data.
#[derive(Debug, Clone)]
pub struct Fuselage {
    /// Mass, kg.
    mass: f64,
    /// CoM relative to the reference point, body axes, m.
    cg: [f64; 3],
    /// Inertia tensor about the reference point O, body axes, kg m^2.
    inertia_o: [[f64; 3]; 3],
    /// Inverse of the masked 6x6 mass matrix (blocked rows and columns zero), SI.
    m6_inv: [[f64; 6]; 6],
    /// Inverse of the full 6x6 mass matrix (every DOF free), SI: the `free.*` trim residual.
    m6_inv_free: [[f64; 6]; 6],
    /// Gravitational acceleration along NED z, m/s^2.
    g: f64,
    /// Attachment points relative to O, body axes, m; indexed by [`Point::index`].
    points: [[f64; 3]; 3],
    /// Euler sequence of the `euler.*` outputs.
    sequence: EulerSequence,
    /// `0.5 rho f`, kg/m, with the `rho` parameter.
    drag_coefficient: f64,
    /// Flat-plate drag area `f`, m^2.
    drag_area: f64,
    /// The `rho` parameter, kg/m^3: the density while the `air.density` input is not positive.
    rho: f64,
    /// Lifting surfaces (`None` when no surface has an area).
    airframe: Option<Airframe>,
    /// Fuselage force and moment tables (`None` when `fuselage_table_file` is empty).
    fuselage_table: Option<FuselageAero>,
    /// Landing gear (`None` when `gear.k` is 0).
    gear: Option<Gear>,
    /// Initial state.
    x0: [f64; x::N],
    /// Integrator tolerance (relative and absolute).
    tolerance: f64,
}

/// Landing gear: legs in contact with a flat ground push with a unilateral vertical
/// spring-damper, and are held horizontally by springs to where they started.
#[derive(Debug, Clone)]
struct Gear {
    /// Contact points relative to the reference point, body axes, m.
    legs: [[f64; 3]; GEAR_LEGS],
    /// Vertical stiffness (N/m) and damping (N s/m) of each leg.
    k: f64,
    c: f64,
    /// Horizontal stiffness along NED x and y (N/m) and damping (N s/m) of each leg in contact.
    k_h: f64,
    k_hy: f64,
    c_h: f64,
    /// NED z of the ground, m.
    ground_z: f64,
    /// NED x and y of each contact point at the initial state (the horizontal springs' anchors), m.
    anchors: [[f64; 2]; GEAR_LEGS],
}

impl Gear {
    /// Force on the airframe at each leg, NED axes, N, for the reference point at NED `pos`, attitude
    /// `r` (body to NED), body velocity `v` and rates `w`. Legs not touching the ground carry none.
    fn forces<D: Scalar>(&self, pos: V3<D>, r: &vec3::M3<D>, v: V3<D>, w: V3<D>) -> [V3<D>; GEAR_LEGS] {
        std::array::from_fn(|i| {
            let leg = lift3(self.legs[i]);
            let p = add(pos, mat_vec(r, leg));
            let depth = p[2] - self.ground_z;
            if depth.re() <= 0.0 {
                return [D::from(0.0); 3];
            }
            let p_dot = mat_vec(r, add(v, cross(w, leg)));
            let normal = depth * self.k + p_dot[2] * self.c;
            // The ground pushes, never pulls: a leg leaving faster than its spring extends carries none.
            let f_z = if normal.re() > 0.0 { -normal } else { D::from(0.0) };
            let f_x = -((p[0] - self.anchors[i][0]) * self.k_h + p_dot[0] * self.c_h);
            let f_y = -((p[1] - self.anchors[i][1]) * self.k_hy + p_dot[1] * self.c_h);
            [f_x, f_y, f_z]
        })
    }
}

/// Rigid-body accelerations at the reference point (body axes).
struct Accelerations<D> {
    /// Rate of the body-axis velocity components, m/s^2.
    v_dot: V3<D>,
    /// Angular acceleration, rad/s^2.
    alpha: V3<D>,
}

impl Fuselage {
    /// Gravity in body axes, m/s^2, from the body-to-inertial matrix: `R^T (0, 0, g)`.
    fn gravity_body<D: Scalar>(&self, r: &vec3::M3<D>) -> V3<D> {
        [r[2][0] * self.g, r[2][1] * self.g, r[2][2] * self.g]
    }

    /// Solves the coupled Newton-Euler equations for the accelerations at the reference point,
    /// blocked DOFs held.
    fn accelerations<D: Scalar>(&self, kinematics: &Kinematics<D>, loads: &[D]) -> Accelerations<D> {
        solve6(&self.m6_inv, self.generalized_forces(kinematics, loads))
    }

    /// Right-hand side of the Newton-Euler equations about the reference point: applied force and
    /// moment minus the velocity-dependent terms, body axes.
    fn generalized_forces<D: Scalar>(&self, kinematics: &Kinematics<D>, loads: &[D]) -> [D; 6] {
        let Kinematics { pos, r, v, w, g_b } = *kinematics;
        let m = self.mass;
        let c: V3<D> = lift3(self.cg);
        // Applied loads: attachment points, gravity at the CoM, drag at the reference point.
        let weight = scale_f(g_b, m);
        let mut force = weight;
        let mut moment = cross(c, weight);
        for p in Point::ALL {
            let point = u::View(loads).point(p.index());
            let (f, mp) = (point.force(), point.moment());
            force = add(force, f);
            moment = add(moment, add(mp, cross(lift3(self.points[p.index()]), f)));
        }
        if let Some(gear) = &self.gear {
            for (leg, f_ned) in gear.legs.iter().zip(gear.forces(pos, &r, v, w)) {
                let f = vec3::mat_t_vec(&r, f_ned);
                force = add(force, f);
                moment = add(moment, cross(lift3(*leg), f));
            }
        }
        force = sub(force, self.drag(&r, v, loads));
        if let Some(airframe) = &self.airframe {
            let surfaces = airframe.loads(&self.air(&r, v, w, loads));
            force = add(force, surfaces.force);
            moment = add(moment, surfaces.moment);
        }
        if let Some(table) = &self.fuselage_table {
            let fuselage = table.loads(&self.air(&r, v, w, loads));
            force = add(force, fuselage.force);
            moment = add(moment, fuselage.moment);
        }
        // Velocity-dependent (bias) terms.
        let w_x_v = cross(w, v);
        let bias_t = scale_f(add(w_x_v, cross(w, cross(w, c))), m);
        let bias_r = add(cross(w, const_mat_vec(&self.inertia_o, w)), scale_f(cross(c, w_x_v), m));
        let t = sub(force, bias_t);
        let r = sub(moment, bias_r);
        [t[0], t[1], t[2], r[0], r[1], r[2]]
    }
}

impl Fuselage {
    /// The air the lifting surfaces meet, from the attitude `r`, body velocity `v`, rates `w`
    /// and the inputs.
    fn air<D: Scalar>(&self, r: &vec3::M3<D>, v: V3<D>, w: V3<D>, us: &[D]) -> Air<D> {
        let inputs = u::View(us);
        let density = inputs.density();
        Air {
            velocity: sub(v, vec3::mat_t_vec(r, inputs.wind())),
            rate: w,
            density: if density.re() > 0.0 { density } else { D::from(self.rho) },
            inflow: inputs.main_rotor_inflow(),
            tail_thrust: inputs.tail_rotor_thrust(),
        }
    }

    /// The flat-plate drag `0.5 rho f |V| V`, body axes, N, with `V = v - R^T W` the velocity
    /// relative to the air (`W` the NED wind input) and `rho` the `air.density` input when it is
    /// positive, else the parameter.
    fn drag<D: Scalar>(&self, r: &vec3::M3<D>, v: V3<D>, us: &[D]) -> V3<D> {
        let air = u::View(us);
        let v_air = sub(v, vec3::mat_t_vec(r, air.wind()));
        let speed2 = dot(v_air, v_air);
        // |V| V has zero derivative at V = 0; skip there so sqrt(0) never meets a dual part.
        if self.drag_coefficient == 0.0 || speed2.re() <= 0.0 {
            return [D::from(0.0); 3];
        }
        let density = air.density();
        if density.re() > 0.0 {
            vec3::scale(v_air, speed2.sqrt() * density * (0.5 * self.drag_area))
        } else {
            scale_f(vec3::scale(v_air, speed2.sqrt()), self.drag_coefficient)
        }
    }
}

/// The state seen by the load model: NED position, body-to-NED matrix, body velocity and rates,
/// gravity in body axes.
#[derive(Clone, Copy)]
struct Kinematics<D> {
    pos: V3<D>,
    r: vec3::M3<D>,
    v: V3<D>,
    w: V3<D>,
    g_b: V3<D>,
}

/// `m6_inv * rhs`, split into the linear and angular accelerations.
fn solve6<D: Scalar>(m6_inv: &[[f64; 6]; 6], rhs: [D; 6]) -> Accelerations<D> {
    let mut a = [D::from(0.0); 6];
    for (ai, row) in a.iter_mut().zip(m6_inv) {
        for (rj, mij) in rhs.iter().zip(row) {
            *ai += *rj * *mij;
        }
    }
    Accelerations { v_dot: [a[0], a[1], a[2]], alpha: [a[3], a[4], a[5]] }
}

impl Model for Fuselage {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Fuselage",
        model_identifier: "Fuselage",
        description: "6-DOF rigid helicopter airframe: coupled Newton-Euler equations about a reference point with \
                      CoM offset, loads at the hub, tail and ext attachment points, gravity, drag, DOF mask",
        default_stop_time: 10.0,
        default_step_size: 0.01,
    };

    const TABLES: Tables = crate::layout::TABLES;

    fmu_core::no_work!();

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        Self::from_parameters(params)
    }

    fn n_states(&self) -> usize {
        x::N
    }

    fn initial_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&self.x0);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        let xs = x::View(xs);
        let q = xs.quat();
        let r = vec3::dcm(q);
        let (pos, v, w) = (xs.pos(), xs.vel(), xs.rate());
        let acc = self.accelerations(&Kinematics { pos, r, v, w, g_b: self.gravity_body(&r) }, us);
        let mut dx = x::ViewMut(dx);
        *dx.pos() = mat_vec(&r, v);
        let q_dot = vec3::quat_mul(q, [D::from(0.0), w[0], w[1], w[2]]);
        *dx.quat() = q_dot.map(|c| c * 0.5);
        *dx.vel() = acc.v_dot;
        *dx.rate() = acc.alpha;
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        let xs = x::View(xs);
        let q = vec3::quat_normalize(xs.quat());
        let r = vec3::dcm(q);
        let (pos, v, w) = (xs.pos(), xs.vel(), xs.rate());
        let g_b = self.gravity_body(&r);
        let kinematics = Kinematics { pos, r, v, w, g_b };
        let rhs = self.generalized_forces(&kinematics, us);
        let mut y = y::ViewMut(ys);
        let gear_forces = self.gear.as_ref().map(|gear| gear.forces(pos, &r, v, w));
        for i in 0..GEAR_LEGS {
            *y.gear(i).load() = gear_forces.map_or(D::from(0.0), |f| -f[i][2]);
        }
        let acc = solve6(&self.m6_inv, rhs);
        let free = solve6(&self.m6_inv_free, rhs);
        let [u_dot, v_dot, w_dot] = free.v_dot;
        let [p_dot, q_dot, r_dot] = free.alpha;
        *y.free() = [u_dot, v_dot, w_dot, p_dot, q_dot, r_dot];

        *y.pos() = pos;
        *y.vel() = v;
        *y.rate() = w;
        let [psi, theta, phi] = EulerSequence::S321.angles_from_dcm(&r);
        *y.euler321() = [phi, theta, psi];
        *y.euler() = self.sequence.angles_from_dcm(&r);
        *y.quat() = q;
        *y.wind_body() = vec3::mat_t_vec(&r, u::View(us).wind());
        let zero = D::from(0.0);
        let surfaces = self.airframe.as_ref().map(|a| a.loads(&self.air(&r, v, w, us)));
        *y.wake_skew() = surfaces.map_or(zero, |l| l.skew);
        for s in 0..SURFACE_NAMES.len() {
            let (ratio, alpha) = surfaces.map_or((zero, zero), |l| l.surfaces[s]);
            let mut out = y.surface(s);
            *out.wash_ratio() = ratio;
            *out.alpha() = alpha;
        }

        let fuselage = self.fuselage_table.as_ref().map(|t| t.loads(&self.air(&r, v, w, us)));
        *y.fuselage_angles() = fuselage.map_or([zero; 2], |l| [l.alpha, l.beta]);
        *y.fuselage_force() = fuselage.map_or([zero; 3], |l| l.force);
        *y.fuselage_moment() = fuselage.map_or([zero; 3], |l| l.moment);

        // Energies: T = 0.5 m v.v + m v.(w x c) + 0.5 w.I_O w; V = -m g z_cm.
        let c = lift3(self.cg);
        let m = self.mass;
        let kinetic = dot(v, v) * (0.5 * m) + dot(v, cross(w, c)) * m + dot(w, const_mat_vec(&self.inertia_o, w)) * 0.5;
        *y.kinetic() = kinetic;
        let z_cm = pos[2] + mat_vec(&r, c)[2];
        *y.potential() = z_cm * (-m * self.g);

        // Attachment-point kinematics (rigid body), body axes except the NED position.
        let a_o = add(acc.v_dot, cross(w, v));
        for p in Point::ALL {
            let rp = lift3(self.points[p.index()]);
            let mut point = y.point(p.index());
            *point.pos() = add(pos, mat_vec(&r, rp));
            *point.vel() = add(v, cross(w, rp));
            *point.omega() = w;
            let a_p = add(a_o, add(cross(acc.alpha, rp), cross(w, cross(w, rp))));
            *point.acc() = sub(a_p, g_b);
            *point.alpha() = acc.alpha;
        }
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }

    fn project_state(&self, xs: &mut [f64]) {
        let q = vec3::quat_normalize(x::View(xs).quat());
        *x::ViewMut(xs).quat() = q;
    }
}
