//! The rotor aerodynamics: parameters, the blade-element loads and the inflow models.
//!
//! **Sections.** Blade `i` has stations at radii `r_j` (from the shaft axis) on `r_root..R`
//! placed by the quadrature rule, at `x_j = r_j - e` along blade x from the root reference
//! point, on the pitch axis (the aerodynamic centre is on the pitch axis, no pitching moment).
//! From the blade's rigid kinematics (inputs, blade axes) the section velocity is
//! `v_j = vel - W + omega x (x_j e_x)`, relative to the air that moves with the uniform wind `W`
//! (input `wind.*`, turned into blade axes by [`crate::wind`]). The air has in addition the induced velocity
//! `-nu_j shaft` (`nu_j = Omega R lambda(r_j, psi_i)`, see [`crate::inflow`]), so the air
//! velocity relative to the section is `w = -v_j - nu_j shaft`. Its spanwise (blade x) component
//! is ignored for the section loads (no yawed-flow or radial-drag effects); the components in the
//! section plane give
//!
//! ```text
//! U_T = -w_y  (towards the trailing edge),  U_P = -w_z (down through the blade), U^2 = w_y^2 + w_z^2
//! alpha = theta_tw(r_j) + atan2(w_z, -w_y)     (blade axes already contain the pitch angle; no small angles)
//! theta_tw(r) = twist (r/R - 0.75)
//! f_j = 0.5 rho c U [cl (w_z, -w_y) + cd (w_y, w_z)]    (y, z components; lift normal, drag along w)
//! cl = a alpha,  cd = cd0 + cd2 alpha^2
//! ```
//!
//! `alpha` is reduced modulo `pi` into `[-pi/2, pi/2)`: a section in reverse flow acts as an
//! airfoil flying trailing edge first with the same polar (like a flat plate). There is no stall:
//! the polar is used as given at any angle. With the options of [`crate::airfoil`] (tables, loss
//! factors, compressibility) `(cl, cd, cm)` come from [`Sections::coefficients`] instead, and
//! `cm` adds a moment about blade x.
//!
//! **Blade resultants** about the root reference, blade axes:
//! `F_i = sum_j w_j f_j`, `M_i = sum_j w_j x_j e_x x f_j = sum_j w_j x_j (0, -f_z, f_y)`.
//! `thrust = sum_i F_i . shaft_i`; `torque = -sum_i (M_i + d_i x F_i) . shaft_i` with the hinge arm
//! `d_i = e * (blade x projected on the rotor plane, normalised)` (exact without lag; with a lag
//! angle `delta` the arm direction is off by `delta`, an error of order `e delta tan(beta) T_i`).
//!
//! **Uniform momentum inflow** (Glauert): `lambda_i` solves
//! `g(lambda) = 2 lambda sqrt(mu^2 + (lambda_climb + lambda)^2) - CT(lambda) = 0`, where `CT(lambda)`
//! is the thrust coefficient of the blade loads computed with that inflow. It is solved to
//! convergence (safeguarded Newton, `dCT/dlambda` exact by a dual-number pass, stop when the
//! Newton step is at most `1e-13 max(|lambda|, 1e-3)`) at every output evaluation, from the real
//! parts of the inputs, starting at the inflow of the instance's previous evaluation (which the
//! FMU state holds as the `inflow` output; no inflow before the first). The root is the last point
//! evaluated, so its loads come with the last Newton pass, and an evaluation started at a root
//! returns it unchanged. For directional derivatives one more pass in the generic scalar type at
//! the root gives the explicit input dependence, and the implicit-function theorem
//! (`dlambda = -(dg/du) du / (dg/dlambda)`, the loads moving along their `lambda` derivative from
//! the last pass) the rest, so directional derivatives stay exact.

use fmu_core::Dual64;
use fmu_core::model::Scalar;
use fmu_core::vec3::dot;
use num_dual::Dual2_64;

use crate::airfoil::Sections;
use crate::inflow::{FlightCondition, Inflow};
use crate::layout::{MAX_BLADES, NS_MAX, u};
use crate::peters_he::PetersHe;

mod model;
mod stall;

pub use model::MACH_CLAMPED;
pub use stall::{AeroDynamicStall, DS_MAX_SECTIONS};

/// Which induced-inflow model the FMU runs (`inflow_model` parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InflowModel {
    /// No induced velocity (seed 004).
    None,
    /// Uniform inflow from momentum theory with Glauert's forward-flight form.
    Uniform,
    /// Pitt-Peters 3-state dynamic inflow.
    PittPeters,
    /// Peters-He finite-state dynamic inflow ([`crate::peters_he`]).
    PetersHe,
}

/// The rotor aerodynamics (`modelIdentifier="Aero"`), holding only parameter-derived data.
#[derive(Debug, Clone)]
pub struct Aero {
    /// Active blades.
    nb: usize,
    /// Rotor radius, m.
    radius: f64,
    /// Root-reference radius, m.
    e: f64,
    /// Number of stations per blade.
    n: usize,
    /// Station radii from the shaft axis, m.
    r: [f64; NS_MAX],
    /// Station radii relative to the rotor radius, `r_j / R`.
    r_over_radius: [f64; NS_MAX],
    /// Station positions along blade x from the root reference, m.
    xs: [f64; NS_MAX],
    /// Quadrature weights, m.
    w: [f64; NS_MAX],
    /// `0.5 rho c w_j`: dynamic-pressure factor times quadrature weight, kg/m^2.
    qw: [f64; NS_MAX],
    /// Section twist `theta_tw(r_j)`, rad.
    twist: [f64; NS_MAX],
    /// Lift slope, 1/rad.
    lift_slope: f64,
    /// Drag polar constant term.
    cd0: f64,
    /// Drag polar quadratic term, 1/rad^2.
    cd2: f64,
    /// Inflow model.
    inflow: InflowModel,
    /// Nominal rotor speed, rad/s.
    omega: f64,
    /// `Omega R`, m/s.
    tip_speed: f64,
    /// `rho pi R^2 (Omega R)^2`, N.
    thrust_scale: f64,
    /// Shaft axis in body axes (unit).
    shaft: [f64; 3],
    /// Hub reference axes in body axes: `x_h` (body x projected on the rotor plane; azimuth 0
    /// is along `-x_h`) and `y_h = x_h x shaft` (azimuth 90 deg).
    hub_axes: [[f64; 3]; 2],
    /// Initial Pitt-Peters states.
    lambda_start: [f64; 3],
    /// Initial Peters-He states, in declared order (all zero: from `lambda_start[0]`).
    peters_he_start: [f64; crate::peters_he::N_DECLARED],
    /// Integrator tolerance.
    tolerance: f64,
    /// Airfoil tables, loss factors, compressibility ([`crate::airfoil`]); `None`: the linear
    /// polar above.
    sections: Option<Sections>,
    /// The Peters-He model (with `inflow_model = 3`).
    peters_he: Option<Box<PetersHe>>,
    /// `R / z`, rotor radius over the hub's height above the ground (0: no ground effect).
    radius_over_height: f64,
}

/// The aerodynamic loads of the rotor for one inflow.
#[derive(Debug, Clone, Copy)]
pub struct RotorLoads<D> {
    /// Per blade: force on the blade, blade axes, N (zero for inactive blades).
    pub force: [[D; 3]; MAX_BLADES],
    /// Per blade: moment about the root reference, blade axes, N m.
    pub moment: [[D; 3]; MAX_BLADES],
    /// Sum of the forces along the shaft axis, N.
    pub thrust: D,
    /// Torque about the shaft axis, positive opposing the rotation, N m.
    pub torque: D,
    /// `sum dT r sin(psi)` over all sections, N m.
    pub moment_s: D,
    /// `sum dT r cos(psi)` over all sections, N m.
    pub moment_c: D,
    /// A section's Mach number was outside its airfoil table's Mach range and clamped to it.
    pub mach_clamped: bool,
}

/// The section coefficients of the blade-element loop where they do not come from the linear
/// polar: a model with states (dynamic stall, [`crate::dynamic_stall`]).
pub(crate) trait SectionPolar<D> {
    /// `[cl, cd, c cm]` (`cm` about the pitch axis times the chord, m) at station `j` of blade
    /// `b` with angle of attack `alpha` (rad), squared section speed `u2` (m^2/s^2) and pitch
    /// rate (rad/s, relative to the frame turning with the shaft at `Omega`); `None`: the linear
    /// polar, no moment.
    fn coefficients(&mut self, b: usize, j: usize, alpha: D, u2: D, pitch_rate: D) -> Option<[D; 3]>;
}

/// The linear polar everywhere.
impl<D> SectionPolar<D> for () {
    fn coefficients(&mut self, _: usize, _: usize, _: D, _: D, _: D) -> Option<[D; 3]> {
        None
    }
}

/// What the section loop asks of an inflow model: the induced inflow ratio `v_i / (Omega R)`
/// (down through the disk) at each station of a blade, and (for the models forced by the load
/// distribution) each section's thrust.
pub trait DiskInflow<D> {
    /// What the model keeps per blade (its azimuth terms).
    type Blade;
    /// The data of a blade at the azimuth with `(sin psi, cos psi)`.
    fn blade(&mut self, sin_psi: D, cos_psi: D) -> Self::Blade;
    /// Inflow ratio at station `j`, at radius `r_over_radius` times `R`.
    fn at(&self, blade: &Self::Blade, j: usize, r_over_radius: f64) -> D;
    /// The shaft-axis force `dt` (N, quadrature weight included) of station `j`.
    fn section_thrust(&mut self, _blade: &Self::Blade, _j: usize, _dt: D) {}
    /// The blade's stations are done (after its last [`DiskInflow::section_thrust`]).
    fn end_blade(&mut self, _blade: &Self::Blade) {}
}

/// The linear first-harmonic inflow `l0 + (r/R) (lc cos psi + ls sin psi)`.
impl<D: Scalar> DiskInflow<D> for &Inflow<D> {
    type Blade = D;

    fn blade(&mut self, sin_psi: D, cos_psi: D) -> D {
        self.lc * cos_psi + self.ls * sin_psi
    }

    fn at(&self, harmonic: &D, _j: usize, r_over_radius: f64) -> D {
        self.l0 + *harmonic * r_over_radius
    }
}

/// Hub quantities from the hub velocity (generic, for the uniform inflow).
#[derive(Debug, Clone, Copy)]
struct HubFlow<D> {
    /// `mu^2`.
    mu2: D,
    /// `lambda_climb`.
    lambda_climb: D,
}

const PI: f64 = std::f64::consts::PI;

/// `atan2(y, x)` whose first derivative stays finite wherever `(x, y) != (0, 0)` (num-dual's
/// `atan2` differentiates `atan(y / x)`, which fails at `x = 0`): the value from `f64::atan2`,
/// the first-order part from `(x dy - y dx) / (x^2 + y^2)`; `norm2` is the real part of
/// `x^2 + y^2`, as the caller has it.
///
/// With second derivatives (`D::NDERIV >= 2`, the Halley pass of the uniform inflow) the
/// derivative parts are those of `atan(w)`, `w = (x_r y - y_r x) / (x_r x + y_r y)`, the angle from
/// `(x_r, y_r)` to `(x, y)`: `w` has a zero real part, so `atan(w) = w` to second order.
pub fn atan2<D: Scalar>(y: D, x: D, norm2: f64) -> D {
    let (yr, xr) = (y.re(), x.re());
    if D::NDERIV >= 2 {
        return D::from(yr.atan2(xr)) + (y * xr - x * yr) / (x * xr + y * yr);
    }
    D::from(yr.atan2(xr)) + (y * xr - x * yr) * (1.0 / norm2)
}

/// `alpha` reduced modulo `pi` into `[-pi/2, pi/2)`; without a division and `floor` when it is
/// in that range already (`0 <= alpha + pi/2 < pi` gives `floor((alpha + pi/2) / pi) = 0`).
pub fn wrap_half_pi<D: Scalar>(alpha: D) -> D {
    let shifted = alpha.re() + 0.5 * PI;
    if (0.0..PI).contains(&shifted) {
        return alpha;
    }
    let turns = (shifted / PI).floor();
    if turns == 0.0 { alpha } else { alpha - turns * PI }
}

impl Aero {
    /// The inflow model in use.
    pub fn inflow_model(&self) -> InflowModel {
        self.inflow
    }

    /// Spanwise stations: radii from the shaft axis (m) and quadrature weights (m).
    pub fn stations(&self) -> (&[f64], &[f64]) {
        (&self.r[..self.n], &self.w[..self.n])
    }

    /// `mu^2` and `lambda_climb` from the hub velocity.
    fn hub_flow<D: Scalar>(&self, us: &[D]) -> HubFlow<D> {
        let v = crate::wind::air_velocity(u::View(us).hub_vel(), u::View(us).wind());
        let n = self.shaft;
        let vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
        let v_in = [v[0] - vn * n[0], v[1] - vn * n[1], v[2] - vn * n[2]];
        let inv = 1.0 / self.tip_speed;
        HubFlow { mu2: dot(v_in, v_in) * (inv * inv), lambda_climb: vn * inv }
    }

    /// Advance ratio, climb inflow and wake azimuth, for the Pitt-Peters rates.
    fn flight_condition<D: Scalar>(&self, us: &[D]) -> FlightCondition<D> {
        let v = crate::wind::air_velocity(u::View(us).hub_vel(), u::View(us).wind());
        flight_condition(self.shaft, self.hub_axes, self.tip_speed, v)
    }

    /// Blade-element loads of all active blades for the given inflow (see the module docs).
    pub fn loads<D: Scalar>(&self, us: &[D], inflow: &Inflow<D>) -> RotorLoads<D> {
        self.loads_with(us, inflow)
    }

    /// Blade-element loads of all active blades for any inflow distribution: the section loop
    /// asks `inflow` for the inflow ratio at each station and tells it each section's thrust.
    pub fn loads_with<D: Scalar, I: DiskInflow<D>>(&self, us: &[D], inflow: I) -> RotorLoads<D> {
        self.loads_with_polar(us, inflow, &mut ())
    }

    /// [`Aero::loads_with`] with the section coefficients from `polar` where it gives them.
    pub(crate) fn loads_with_polar<D: Scalar, I: DiskInflow<D>>(
        &self,
        us: &[D],
        mut inflow: I,
        polar: &mut impl SectionPolar<D>,
    ) -> RotorLoads<D> {
        let zero = D::from(0.0);
        let mut out = RotorLoads::zero();
        let (a, cd0, cd2) = (self.lift_slope, self.cd0, self.cd2);
        for b in 0..self.nb {
            let blade = u::View(us).blade(b);
            let (om, s) = (blade.omega(), unit_shaft(blade.shaft()));
            let wind = crate::wind::in_blade_axes(u::View(us).wind(), self.shaft, self.hub_axes, blade.azimuth(), s);
            let vel = crate::wind::air_velocity(blade.vel(), wind);
            let (sin_psi, cos_psi) = blade.azimuth().sin_cos();
            let along = inflow.blade(sin_psi, cos_psi);
            let shaft_yz = if self.sections.is_some() { section_shaft(s) } else { [zero; 2] };
            // The blade's pitch rate relative to the frame turning with the shaft at Omega.
            let pitch_rate = om[0] - s[0] * self.omega;
            let (mut fy, mut fz, mut mx, mut my, mut mz, mut dt_r) = (zero, zero, zero, zero, zero, zero);
            for j in 0..self.n {
                let xj = self.xs[j];
                let nu = inflow.at(&along, j, self.r_over_radius[j]) * self.tip_speed;
                let wy = -(vel[1] + om[2] * xj) - nu * s[1];
                let wz = -(vel[2] - om[1] * xj) - nu * s[2];
                let u2 = wy * wy + wz * wz;
                if u2.re() <= 0.0 {
                    // No flow over the section: no load (and |w| w has zero derivative here).
                    continue;
                }
                let (q, cl, cd) = if let Some(sections) = &self.sections {
                    let (q, cl, cd, pitching, clamped) = self.section_model(sections, j, [wy, wz], u2, shaft_yz);
                    out.mach_clamped |= clamped;
                    mx += pitching;
                    (q, cl, cd)
                } else {
                    let alpha = wrap_half_pi(atan2(wz, -wy, u2.re()) + self.twist[j]);
                    let q = u2.sqrt() * self.qw[j];
                    match polar.coefficients(b, j, alpha, u2, pitch_rate) {
                        Some([cl, cd, chord_cm]) => {
                            mx += q * u2.sqrt() * chord_cm;
                            (q, cl, cd)
                        }
                        None => (q, alpha * a, alpha * alpha * cd2 + cd0),
                    }
                };
                let f_y = q * (cl * wz + cd * wy);
                let f_z = q * (cd * wz - cl * wy);
                fy += f_y;
                fz += f_z;
                my -= f_z * xj;
                mz += f_y * xj;
                let dt = f_y * s[1] + f_z * s[2];
                dt_r += dt * self.r[j];
                inflow.section_thrust(&along, j, dt);
            }
            inflow.end_blade(&along);
            let force = [zero, fy, fz];
            let moment = [mx, my, mz];
            out.force[b] = force;
            out.moment[b] = moment;
            out.thrust += dot(force, s);
            out.moment_s += dt_r * sin_psi;
            out.moment_c += dt_r * cos_psi;
            // Hinge arm d = e * (e_x - s_x s) / |e_x - s_x s|; (d x F) . s = F . (s x d).
            let in_plane2 = -(s[0] * s[0]) + 1.0;
            let arm_moment = if self.e > 0.0 && in_plane2.re() > 1e-12 {
                let scale = in_plane2.sqrt().recip() * self.e;
                let d = [in_plane2 * scale, -(s[0] * s[1]) * scale, -(s[0] * s[2]) * scale];
                let s_x_d = [s[1] * d[2] - s[2] * d[1], s[2] * d[0] - s[0] * d[2], s[0] * d[1] - s[1] * d[0]];
                dot(force, s_x_d)
            } else {
                zero
            };
            out.torque -= dot(moment, s) + arm_moment;
        }
        out
    }

    /// Station `j` with the section model ([`crate::airfoil`]): the dynamic-pressure factor `q`
    /// (`0.5 rho c U w_j`), `cl`, `cd` and the pitching moment about the pitch axis (blade x,
    /// nose up positive, N m), from the air velocity `(w_y, w_z)` relative to the section (blade
    /// axes), `u2 = w_y^2 + w_z^2 > 0` and the shaft axis projected on the blade y-z plane and
    /// normalised ([`section_shaft`]); and whether the table clamped the Mach number.
    fn section_model<D: Scalar>(
        &self,
        sections: &Sections,
        j: usize,
        w: [D; 2],
        u2: D,
        shaft: [D; 2],
    ) -> (D, D, D, D, bool) {
        let speed = u2.sqrt();
        let alpha = atan2(w[1], -w[0], u2.re()) + self.twist[j];
        // Inflow angle to the rotor plane, in the section plane: sin phi = w . s / (U |s|), with
        // `shaft` the unit projection of the shaft on the section plane (zero if there is none:
        // no loss factor then).
        let sin_phi = (w[0] * shaft[0] + w[1] * shaft[1]) / speed;
        let sin_phi_abs = if sin_phi.re() < 0.0 { -sin_phi } else { sin_phi };
        let ((cl, cd, cm), clamped) = sections.coefficients_checked(j, alpha, speed, sin_phi_abs);
        let q = speed * self.qw[j];
        let pitching = if sections.has_moment() { q * speed * cm * sections.chord } else { D::from(0.0) };
        (q, cl, cd, pitching, clamped)
    }

    /// The uniform momentum inflow and the loads with it (see the module docs), exact in their
    /// first derivative. `start` is the first guess for the inflow ratio.
    fn uniform<D: Scalar>(&self, us: &[D], hub: &HubFlow<D>, start: f64) -> (D, RotorLoads<D>) {
        let mut u_re = [Dual64::from(0.0); u::N];
        for (d, v) in u_re.iter_mut().zip(us) {
            *d = Dual64::from(v.re());
        }
        let root = self.solve_uniform(&u_re, hub.mu2.re(), hub.lambda_climb.re(), start);
        let lambda = root.lambda;
        if D::NDERIV == 0 {
            // Values only: the loads of the last Newton pass are the loads at the root.
            return (D::from(lambda), root.loads.map(|v| D::from(v.re)));
        }
        let loads = self.loads(us, &Inflow::uniform(D::from(lambda)));
        if root.slope.is_nan() || root.slope <= 0.0 {
            // Degenerate (no flow at all): the inflow is zero and has no derivative.
            return (D::from(lambda), loads);
        }
        // Implicit-function theorem at the root: dlambda = -(dg/du) du / (dg/dlambda), with the
        // first-order part of g carried in D (its value, the residual, stays out: the root is
        // the point the loads were evaluated at).
        let ct = loads.thrust * (1.0 / self.thrust_scale);
        let total = hub.lambda_climb + lambda;
        let s2 = hub.mu2 + total * total;
        let s = if s2.re() > 0.0 { s2.sqrt() } else { D::from(0.0) };
        let g = s * (2.0 * lambda) - ct;
        let dlambda = (g - g.re()) * (-1.0 / root.slope);
        // The loads follow the inflow: d(loads) = (d loads / d lambda) dlambda on top of the
        // explicit dependence on the inputs.
        let loads = loads.zip(&root.loads, |l, along| l + dlambda * along.eps);
        (D::from(lambda) + dlambda, loads)
    }

    /// Safeguarded Newton for `g(lambda) = 2 lambda sqrt(mu^2 + (lambda_c + lambda)^2) - CT(lambda)`
    /// from `start`, until the Newton step is at most `1e-13 max(|lambda|, 1e-3)`. The root
    /// returned is the last point evaluated (not moved by that last step, so that a solve started
    /// at a root returns it unchanged), with the loads there along `lambda`. With an airfoil
    /// table the first pass is of second order and its step Halley's (see docs/models.md).
    fn solve_uniform(&self, u_re: &[Dual64], mu2: f64, lambda_climb: f64, start: f64) -> UniformRoot {
        if self.sections.as_ref().is_some_and(Sections::has_table) {
            self.newton_uniform(u_re, mu2, lambda_climb, start, |lambda| self.loads_second_order(u_re, lambda))
        } else {
            let first = |lambda| (self.loads(u_re, &Inflow::uniform(Dual64::new(lambda, 1.0))), None);
            self.newton_uniform(u_re, mu2, lambda_climb, start, first)
        }
    }

    /// [`Aero::solve_uniform`] with the first pass `first_pass` (loads along the inflow ratio and,
    /// if it has it, `d2 thrust / d lambda2`).
    #[inline(always)]
    fn newton_uniform(
        &self,
        u_re: &[Dual64],
        mu2: f64,
        lambda_climb: f64,
        start: f64,
        first_pass: impl Fn(f64) -> (RotorLoads<Dual64>, Option<f64>),
    ) -> UniformRoot {
        const MAX_ITERATIONS: usize = 100;
        let inv = 1.0 / self.thrust_scale;
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut lambda = if start.is_finite() { start } else { 0.0 };
        let mut root = UniformRoot { lambda, slope: 0.0, loads: RotorLoads::zero() };
        for iteration in 0..MAX_ITERATIONS {
            // The section model's first pass also gives d2 CT / d lambda2 for a Halley step.
            let (loads, d2ct) = if iteration == 0 {
                first_pass(lambda)
            } else {
                (self.loads(u_re, &Inflow::uniform(Dual64::new(lambda, 1.0))), None)
            };
            let (ct, dct) = (loads.thrust.re * inv, loads.thrust.eps * inv);
            let total = lambda_climb + lambda;
            let s = (mu2 + total * total).sqrt();
            let g = 2.0 * lambda * s - ct;
            let slope = 2.0 * s + if s > 0.0 { 2.0 * lambda * total / s } else { 0.0 } - dct;
            root = UniformRoot { lambda, slope, loads };
            if g == 0.0 {
                break;
            }
            let tolerance = 1e-13 * lambda.abs().max(1e-3);
            let newton = lambda - g / slope;
            if slope > 0.0 && (newton - lambda).abs() <= tolerance {
                break;
            }
            // Halley: the Newton step divided by 1 - g g'' / (2 g'^2), when that stays near 1.
            let newton = match d2ct {
                Some(d2ct) if s > 0.0 && slope > 0.0 => {
                    let curvature = 4.0 * total / s + 2.0 * lambda * mu2 / (s * s * s) - d2ct * inv;
                    let factor = 1.0 - g * curvature / (2.0 * slope * slope);
                    if (0.5..2.0).contains(&factor) { lambda - g / slope / factor } else { newton }
                }
                _ => newton,
            };
            if g < 0.0 {
                lo = lo.max(lambda);
            } else {
                hi = hi.min(lambda);
            }
            let next = if slope > 0.0 && newton > lo && newton < hi {
                newton
            } else if lo.is_finite() && hi.is_finite() {
                if hi - lo <= tolerance {
                    break;
                }
                0.5 * (lo + hi)
            } else {
                // No bracket yet and Newton unusable: march outwards, doubling.
                let step = lambda.abs().max(0.05);
                if g < 0.0 { lambda + step } else { lambda - step }
            };
            lambda = next;
        }
        root
    }
}

impl Aero {
    /// One blade-element pass at the uniform inflow `lambda` in second-order dual numbers along
    /// it: the loads with their first derivative, and `d2 thrust / d lambda2` (N).
    fn loads_second_order(&self, u_re: &[Dual64], lambda: f64) -> (RotorLoads<Dual64>, Option<f64>) {
        let mut u2 = [Dual2_64::from(0.0); u::N];
        for (d, v) in u2.iter_mut().zip(u_re) {
            *d = Dual2_64::from(v.re);
        }
        let loads = self.loads(&u2, &Inflow::uniform(Dual2_64::new(lambda, 1.0, 0.0)));
        (loads.map(|v| Dual64::new(v.re, v.v1)), Some(loads.thrust.v2))
    }
}

/// A root of the uniform-inflow equation: the inflow ratio, `dg/dlambda` there, and the loads
/// there with their derivative along the inflow ratio (the `eps` parts).
struct UniformRoot {
    lambda: f64,
    slope: f64,
    loads: RotorLoads<Dual64>,
}

impl<D: Scalar> RotorLoads<D> {
    /// All zero.
    fn zero() -> Self {
        let zero = D::from(0.0);
        RotorLoads {
            force: [[zero; 3]; MAX_BLADES],
            moment: [[zero; 3]; MAX_BLADES],
            thrust: zero,
            torque: zero,
            moment_s: zero,
            moment_c: zero,
            mach_clamped: false,
        }
    }

    /// `f` applied to every entry.
    fn map<E: Scalar>(&self, f: impl Fn(D) -> E) -> RotorLoads<E> {
        RotorLoads {
            force: self.force.map(|v| v.map(&f)),
            moment: self.moment.map(|v| v.map(&f)),
            thrust: f(self.thrust),
            torque: f(self.torque),
            moment_s: f(self.moment_s),
            moment_c: f(self.moment_c),
            mach_clamped: self.mach_clamped,
        }
    }

    /// `f` applied to the corresponding entries of `self` and `other`.
    fn zip<E: Copy>(&self, other: &RotorLoads<E>, f: impl Fn(D, E) -> D) -> RotorLoads<D> {
        let mut out = *self;
        for b in 0..MAX_BLADES {
            for k in 0..3 {
                out.force[b][k] = f(self.force[b][k], other.force[b][k]);
                out.moment[b][k] = f(self.moment[b][k], other.moment[b][k]);
            }
        }
        out.thrust = f(self.thrust, other.thrust);
        out.torque = f(self.torque, other.torque);
        out.moment_s = f(self.moment_s, other.moment_s);
        out.moment_c = f(self.moment_c, other.moment_c);
        out
    }
}

/// Advance ratio, climb inflow ratio and wake azimuth for the hub velocity `v` (body axes), the
/// unit shaft axis `n`, the hub reference axes and the tip speed.
///
/// The in-plane speed `|v_in|` is not differentiable at zero (hover): there the wake azimuth is
/// undefined (taken as 0) and the derivatives of `mu` and the wake are taken as zero.
pub fn flight_condition<D: Scalar>(
    n: [f64; 3],
    hub_axes: [[f64; 3]; 2],
    tip_speed: f64,
    v: [D; 3],
) -> FlightCondition<D> {
    let along = |a: [D; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let vn = along(v, n);
    let v_in = [v[0] - vn * n[0], v[1] - vn * n[1], v[2] - vn * n[2]];
    let speed2 = dot(v_in, v_in);
    // The wake goes downstream, along -v_in; azimuth psi has the arm -cos(psi) x_h + sin(psi) y_h.
    let (speed, wake) = if speed2.re() > 0.0 {
        let speed = speed2.sqrt();
        let [xh, yh] = hub_axes;
        (speed, (along(v_in, xh) / speed, -along(v_in, yh) / speed))
    } else {
        (D::from(0.0), (D::from(1.0), D::from(0.0)))
    };
    let inv = 1.0 / tip_speed;
    FlightCondition { mu: speed * inv, lambda_climb: vn * inv, wake }
}

/// The hub reference axes `[x_h, y_h]` for a unit shaft axis `n` (body axes): `x_h` is body x
/// projected on the rotor plane (body z if the shaft is along body x), `y_h = x_h x n`.
pub fn hub_axes(n: [f64; 3]) -> [[f64; 3]; 2] {
    let project = |v: [f64; 3]| {
        let d = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
        [v[0] - d * n[0], v[1] - d * n[1], v[2] - d * n[2]]
    };
    let mut xh = project([1.0, 0.0, 0.0]);
    let mut norm = (xh[0] * xh[0] + xh[1] * xh[1] + xh[2] * xh[2]).sqrt();
    if norm < 1e-6 {
        xh = project([0.0, 0.0, 1.0]);
        norm = (xh[0] * xh[0] + xh[1] * xh[1] + xh[2] * xh[2]).sqrt();
    }
    let xh = xh.map(|c| c / norm);
    let yh = [xh[1] * n[2] - xh[2] * n[1], xh[2] * n[0] - xh[0] * n[2], xh[0] * n[1] - xh[1] * n[0]];
    [xh, yh]
}

/// The unit shaft axis `s` (blade axes) projected on the blade y-z plane (the section plane) and
/// normalised; zero if the shaft lies along the span.
fn section_shaft<D: Scalar>(s: [D; 3]) -> [D; 2] {
    let n2 = s[1] * s[1] + s[2] * s[2];
    if n2.re() > 1e-24 {
        let inv = n2.sqrt().recip();
        [s[1] * inv, s[2] * inv]
    } else {
        [D::from(0.0); 2]
    }
}

/// The shaft input normalised; `(0, 0, 1)` if it is zero (an unconnected input).
fn unit_shaft<D: Scalar>(s: [D; 3]) -> [D; 3] {
    let n2 = dot(s, s);
    if n2.re() > 0.0 {
        let inv = n2.sqrt().recip();
        [s[0] * inv, s[1] * inv, s[2] * inv]
    } else {
        [D::from(0.0), D::from(0.0), D::from(1.0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The azimuth convention: 0 over the tail, 90 deg on the right for a rotor turning
    /// anticlockwise seen from above; the wake goes downstream.
    #[test]
    fn wake_azimuth_and_flight_condition_follow_the_convention() {
        let up = [0.0, 0.0, -1.0];
        let axes = hub_axes(up);
        assert_eq!(axes, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        let cases = [
            ([50.0, 0.0, 0.0], 0.0),        // forward flight: wake aft, psi_w = 0
            ([0.0, 50.0, 0.0], 1.5 * PI),   // flying right: wake to the left
            ([-50.0, 0.0, 0.0], PI),        // rearwards: wake forward
            ([0.0, -50.0, 0.0], 0.5 * PI),  // flying left: wake to the right
            ([30.0, 30.0, 0.0], 1.75 * PI), // forward-right
        ];
        for (v, psi_w) in cases {
            let f = flight_condition(up, axes, 200.0, v);
            assert!((f.wake.0 - f64::cos(psi_w)).abs() < 1e-12 && (f.wake.1 - f64::sin(psi_w)).abs() < 1e-12, "{v:?}");
        }
        // Climb along the shaft (body -z) and advance ratio.
        let f = flight_condition(up, axes, 200.0, [40.0_f64, 0.0, -10.0]);
        assert!((f.mu - 0.2).abs() < 1e-15 && (f.lambda_climb - 0.05).abs() < 1e-15);
        // A shaft tilted forward by 5 deg: the forward speed has a component through the disk.
        let tilt = 5.0_f64.to_radians();
        let n = [tilt.sin(), 0.0, -tilt.cos()];
        let f = flight_condition(n, hub_axes(n), 200.0, [40.0, 0.0, 0.0]);
        assert!((f.lambda_climb - 40.0 * tilt.sin() / 200.0).abs() < 1e-15);
        assert!((f.mu - 40.0 * tilt.cos() / 200.0).abs() < 1e-15 && (f.wake.0 - 1.0).abs() < 1e-15);
    }
    /// Parameter values: the declared start values with `overrides` on top.
    struct Starts(Vec<fmu_core::Variable>, Vec<(&'static str, f64)>);

    impl Starts {
        fn kind(&self, vr: u32) -> (&str, fmu_core::Kind) {
            let v = self.0.iter().find(|v| v.vr == vr).unwrap();
            (v.name.as_str(), v.kind)
        }
        fn given(&self, name: &str) -> Option<f64> {
            self.1.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
        }
    }

    impl fmu_core::Parameters for Starts {
        fn real(&self, vr: u32) -> f64 {
            match self.kind(vr) {
                (name, fmu_core::Kind::Real { start, .. }) => self.given(name).unwrap_or(start),
                _ => unreachable!(),
            }
        }
        fn integer(&self, vr: u32) -> i32 {
            match self.kind(vr) {
                (name, fmu_core::Kind::Integer { start, .. }) => self.given(name).map_or(start, |v| v as i32),
                _ => unreachable!(),
            }
        }
        fn boolean(&self, vr: u32) -> bool {
            match self.kind(vr) {
                (_, fmu_core::Kind::Boolean { start }) => start,
                _ => unreachable!(),
            }
        }
        fn string(&self, _vr: u32) -> &str {
            ""
        }
    }

    /// The section model's uniform inflow (a Halley first step from a second-order pass, then
    /// Newton): its loads are those of a plain first-order pass at its root (values bit for bit,
    /// derivatives to 1e-12), from starts near and far from the root, in hover and forward flight;
    /// the second derivative of the thrust along the inflow equals central differences of the
    /// first.
    #[test]
    fn the_uniform_inflow_with_tables_and_tip_loss_equals_a_plain_pass_at_its_root() {
        use fmu_core::Model;
        let variables = crate::layout::TABLES.variables();
        let params = Starts(
            variables.clone(),
            vec![("nb", 4.0), ("n_sections", 20.0), ("inflow_model", 1.0), ("airfoil", 1.0), ("tip_loss", 2.0)],
        );
        let aero = Aero::configure(&params).unwrap();
        let inputs: Vec<&str> =
            variables.iter().filter(|v| v.causality == fmu_core::Causality::Input).map(|v| v.name.as_str()).collect();
        let (omega, pitch) = (aero.omega, 0.14_f64);
        let mut steps_taken = 0;
        for (forward, azimuth) in [(0.0, 0.0), (10.0, 0.0), (10.0, 0.1), (40.0, 0.3)] {
            let mut us = [Dual64::from(0.0); u::N];
            let mut set = |name: String, v: f64| us[inputs.iter().position(|&n| n == name).unwrap()] = Dual64::from(v);
            for b in 0..aero.nb {
                let psi: f64 = azimuth + b as f64 * 0.5 * PI;
                let (s, c) = pitch.sin_cos();
                set(format!("blade[{}].vel.y", b + 1), omega * aero.e + forward * psi.sin());
                set(format!("blade[{}].omega.y", b + 1), -omega * s);
                set(format!("blade[{}].omega.z", b + 1), omega * c);
                set(format!("blade[{}].azimuth", b + 1), psi);
                set(format!("blade[{}].shaft.y", b + 1), -s);
                set(format!("blade[{}].shaft.z", b + 1), -c);
            }
            set("hub.vel.x".into(), forward);
            let hub = aero.hub_flow(&us);
            let cold = aero.solve_uniform(&us, hub.mu2.re, hub.lambda_climb.re, 0.0);
            for start in [0.0, cold.lambda * (1.0 + 1e-4), cold.lambda * (1.0 - 3e-7), cold.lambda] {
                let root = aero.solve_uniform(&us, hub.mu2.re, hub.lambda_climb.re, start);
                let plain = aero.loads(&us, &Inflow::uniform(Dual64::new(root.lambda, 1.0)));
                assert!(plain.thrust.re > 1e4, "a lifting rotor: {} N", plain.thrust.re);
                let pairs = [(plain.thrust, root.loads.thrust), (plain.torque, root.loads.torque)];
                let blades = (0..aero.nb).flat_map(|b| (0..3).map(move |k| (b, k)));
                for (p, r) in pairs.into_iter().chain(blades.map(|(b, k)| (plain.force[b][k], root.loads.force[b][k])))
                {
                    assert_eq!(p.re, r.re, "{forward} m/s from {start}");
                    assert!((p.eps - r.eps).abs() <= 1e-12 * plain.thrust.eps.abs(), "{} vs {}", p.eps, r.eps);
                }
                assert!((root.lambda - cold.lambda).abs() <= 1e-13 * cold.lambda, "{} vs {}", root.lambda, cold.lambda);
            }
            let (h, lambda) = (1e-6, cold.lambda);
            let (_, d2) = aero.loads_second_order(&us, lambda);
            let slope = |l: f64| aero.loads(&us, &Inflow::uniform(Dual64::new(l, 1.0))).thrust.eps;
            let central = (slope(lambda + h) - slope(lambda - h)) / (2.0 * h);
            steps_taken += 1;
            assert!((d2.unwrap() - central).abs() <= 1e-5 * central.abs(), "{:?} vs {central}", d2);
        }
        assert_eq!(steps_taken, 4);
    }
}
