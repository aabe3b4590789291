//! Airframe aerodynamics beyond the flat-plate drag: a horizontal stabiliser and a vertical fin as
//! lifting surfaces in the main rotor's wake and the tail rotor's wash (off unless a surface has
//! an area).
//!
//! **Surfaces** (body axes, chord along body x, lift-positive unit normal `n`, orthogonalised
//! against x). With `U` the surface's velocity relative to the local air,
//!
//! ```text
//! U_c = U . x,  U_n = U . n,  |U_2|^2 = U_c^2 + U_n^2     (the spanwise component is ignored)
//! alpha = incidence + atan2(-U_n, U_c),  CL = a clamp(alpha, -alpha_stall, alpha_stall),  CD = cd0
//! F = 0.5 rho S |U_2| [CL (-U_n x + U_c n) - CD (U_c x + U_n n)],   M_O = p x F
//! ```
//!
//! (lift normal to the in-plane relative wind, drag along it; `p` the aerodynamic centre).
//!
//! **Main-rotor wake** (a rigid, skewed, semi-infinite cylinder of radius `R` from the disc at
//! the hub). The wake leaves the disc with the velocity `d = -U_in - (U_n + v_i) n_s` relative to
//! the airframe (`U_in`, `U_n` the in-plane and shaft components of the hub's velocity relative
//! to the air, `v_i = lambda_i Omega R` from the `main_rotor.inflow` input, `n_s` the shaft axis),
//! at the skew angle `chi = atan2(|U_in|, U_n + v_i)` from `-n_s` (`tan chi = mu / (lambda_c +
//! lambda_i)`, the momentum-theory wake skew the Aero's Pitt-Peters model uses). A surface at
//! distance `s` downstream along `d` and `rho` from its axis is in the wake when `s > 0` and
//! `rho < R`; there the air moves with `-K v_i n_s`,
//!
//! ```text
//! K(s) = 1 + s / sqrt(s^2 + R^2)
//! ```
//!
//! the axial velocity on the axis of a semi-infinite vortex cylinder (Biot-Savart) whose far-wake
//! velocity is momentum theory's `2 v_i`: `K = 1` at the disc, `2` far downstream. Outside the
//! wake `K = 0`: the wash switches at the wake boundary (no shear layer).
//!
//! **Tail-rotor wash on the fin**: the fin's air moves with `-eta v_T n_T`,
//! `v_T = sign(T) sqrt(|T| / (2 rho pi R_T^2))` (momentum theory, hover), `T` the `tail_rotor.thrust`
//! input along `n_T`, `eta` = `fin.tail_rotor_factor`.

use fmu_core::model::Scalar;
use fmu_core::params::{ParameterError, Reader};

use crate::layout::{SURFACE_NAMES, vr};
use crate::vec3::{V3, add, cross, dot, lift3, scale, scale_f, sub};

/// Index of the fin in [`SURFACE_NAMES`].
const FIN: usize = 1;

/// One lifting surface.
#[derive(Debug, Clone)]
struct Surface {
    /// Planform area, m^2.
    area: f64,
    /// Aerodynamic centre relative to the reference point, body axes, m.
    position: [f64; 3],
    /// Lift-positive unit normal, orthogonal to body x.
    normal: [f64; 3],
    /// Lift-curve slope, 1/rad.
    lift_slope: f64,
    /// Stall angle, rad.
    alpha_stall: f64,
    /// Drag coefficient.
    cd0: f64,
    /// Incidence, rad.
    incidence: f64,
}

/// The airframe's lifting surfaces and what their air depends on.
#[derive(Debug, Clone)]
pub struct Airframe {
    /// Horizontal stabiliser and fin (`None`: area 0).
    surfaces: [Option<Surface>; 2],
    /// Hub position relative to the reference point, body axes, m.
    hub: [f64; 3],
    /// Main-rotor radius, m.
    radius: f64,
    /// Main-rotor tip speed, m/s.
    tip_speed: f64,
    /// Main-rotor shaft axis, unit, body axes.
    shaft: [f64; 3],
    /// Tail-rotor disc area, m^2.
    tail_disc_area: f64,
    /// Tail-rotor thrust direction, unit, body axes.
    tail_shaft: [f64; 3],
    /// Fraction of the tail rotor's induced velocity at the fin.
    tail_factor: f64,
}

/// The air as the airframe meets it (body axes).
#[derive(Debug, Clone, Copy)]
pub struct Air<D> {
    /// Velocity of the reference point relative to the air, m/s.
    pub velocity: V3<D>,
    /// Angular velocity, rad/s.
    pub rate: V3<D>,
    /// Density, kg/m^3.
    pub density: D,
    /// Main-rotor induced inflow ratio.
    pub inflow: D,
    /// Tail-rotor thrust, N.
    pub tail_thrust: D,
}

/// The lifting surfaces' loads about the reference point and their diagnostics.
#[derive(Debug, Clone, Copy)]
pub struct AirframeLoads<D> {
    /// Force, body axes, N.
    pub force: V3<D>,
    /// Moment about the reference point, body axes, N m.
    pub moment: V3<D>,
    /// Wake skew angle, rad.
    pub skew: D,
    /// Per surface: wash ratio `K` and angle of attack, rad (zero without the surface).
    pub surfaces: [(D, D); 2],
}

/// `atan2(y, x)` with a finite first derivative wherever `(x, y) != (0, 0)`: the value from
/// `f64::atan2`, the first-order part from `(x dy - y dx) / (x^2 + y^2)`.
pub(crate) fn atan2<D: Scalar>(y: D, x: D) -> D {
    let (yr, xr) = (y.re(), x.re());
    let norm2 = xr * xr + yr * yr;
    D::from(yr.atan2(xr)) + (y * xr - x * yr) * (1.0 / norm2)
}

/// The unit vector along `v`, or an error naming `what`.
fn unit(v: [f64; 3], what: &str) -> Result<[f64; 3], ParameterError> {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if n.is_nan() || n <= 1e-9 {
        return Err(ParameterError::Invalid(format!("{what} must be a non-zero vector")));
    }
    Ok(v.map(|c| c / n))
}

impl Airframe {
    /// The airframe aerodynamics of the parameters, `None` when no surface has an area; `hub` is
    /// the hub position, body axes, m.
    pub fn from_parameters(p: &Reader, hub: [f64; 3]) -> Result<Option<Self>, ParameterError> {
        let mut surfaces = [None, None];
        for (s, surface) in surfaces.iter_mut().enumerate() {
            let base = vr::SURFACES + vr::PER_SURFACE * s as u32;
            let area = p.real(base + vr::SURFACE_AREA)?;
            if area == 0.0 {
                continue;
            }
            let name = SURFACE_NAMES[s];
            let normal = p.vector::<3>(base + vr::SURFACE_NORMAL)?;
            // Orthogonal to the chord (body x).
            let normal = unit([0.0, normal[1], normal[2]], &format!("{name}.normal.y/z (the part normal to body x)"))?;
            *surface = Some(Surface {
                area,
                position: p.vector(base + vr::SURFACE_POS)?,
                normal,
                lift_slope: p.real(base + vr::SURFACE_LIFT_SLOPE)?,
                alpha_stall: p.real(base + vr::SURFACE_STALL)?,
                cd0: p.real(base + vr::SURFACE_CD0)?,
                incidence: p.real(base + vr::SURFACE_INCIDENCE)?,
            });
        }
        let tail_factor = p.real(vr::FIN_TAIL_ROTOR_FACTOR)?;
        if tail_factor > 2.0 {
            return Err(ParameterError::Invalid(format!(
                "parameter 'fin.tail_rotor_factor' must be at most 2 (the fully developed slipstream); got {tail_factor}"
            )));
        }
        if surfaces.iter().all(Option::is_none) {
            return Ok(None);
        }
        let tail_radius = p.real(vr::TAIL_ROTOR_RADIUS)?;
        Ok(Some(Airframe {
            surfaces,
            hub,
            radius: p.real(vr::MAIN_ROTOR_RADIUS)?,
            tip_speed: p.real(vr::MAIN_ROTOR_TIP_SPEED)?,
            shaft: unit(p.vector(vr::MAIN_ROTOR_SHAFT)?, "main_rotor.shaft.x/y/z")?,
            tail_disc_area: std::f64::consts::PI * tail_radius * tail_radius,
            tail_shaft: unit(p.vector(vr::TAIL_ROTOR_SHAFT)?, "tail_rotor.shaft.x/y/z")?,
            tail_factor,
        }))
    }

    /// The main rotor's wake skew angle (rad) and wake direction (unit, body axes; zero without
    /// any flow) for the air `air`.
    fn wake<D: Scalar>(&self, air: &Air<D>) -> (D, V3<D>) {
        let n = lift3::<D>(self.shaft);
        let hub_velocity = add(air.velocity, cross(air.rate, lift3(self.hub)));
        let u_n = dot(hub_velocity, n);
        let u_in = sub(hub_velocity, scale(n, u_n));
        let axial = u_n + air.inflow * self.tip_speed;
        let d = sub(scale_f(u_in, -1.0), scale(n, axial));
        let d2 = dot(d, d);
        let in_plane2 = dot(u_in, u_in);
        if d2.re() <= 0.0 {
            return (D::from(0.0), [D::from(0.0); 3]);
        }
        let in_plane = if in_plane2.re() > 0.0 { in_plane2.sqrt() } else { D::from(0.0) };
        let skew = if in_plane.re() == 0.0 && axial.re() == 0.0 { D::from(0.0) } else { atan2(in_plane, axial) };
        (skew, scale(d, d2.sqrt().recip()))
    }

    /// `K` of the module docs for a point at `position` (body axes) and the unit wake direction.
    fn wash_ratio<D: Scalar>(&self, position: [f64; 3], direction: V3<D>) -> D {
        let r = lift3::<D>([position[0] - self.hub[0], position[1] - self.hub[1], position[2] - self.hub[2]]);
        let s = dot(r, direction);
        let perp = sub(r, scale(direction, s));
        let radius2 = self.radius * self.radius;
        if s.re() <= 0.0 || dot(perp, perp).re() >= radius2 {
            return D::from(0.0);
        }
        s / (s * s + radius2).sqrt() + 1.0
    }

    /// The tail rotor's momentum induced velocity, m/s (signed like the thrust).
    fn tail_rotor_velocity<D: Scalar>(&self, air: &Air<D>) -> D {
        let t = air.tail_thrust;
        if t.re() == 0.0 || air.density.re() <= 0.0 {
            return D::from(0.0);
        }
        let v = (t.abs() / (air.density * (2.0 * self.tail_disc_area))).sqrt();
        if t.re() > 0.0 { v } else { -v }
    }

    /// Loads of the lifting surfaces and their diagnostics (see the module docs).
    pub fn loads<D: Scalar>(&self, air: &Air<D>) -> AirframeLoads<D> {
        let zero = D::from(0.0);
        let (skew, direction) = self.wake(air);
        let v_i = air.inflow * self.tip_speed;
        let mut out = AirframeLoads { force: [zero; 3], moment: [zero; 3], skew, surfaces: [(zero, zero); 2] };
        for (s, surface) in self.surfaces.iter().enumerate() {
            let Some(surface) = surface else { continue };
            let k = self.wash_ratio(surface.position, direction);
            let p = lift3::<D>(surface.position);
            // Velocity relative to the local air: the air moves with -K v_i n_s (and the tail rotor's wash).
            let mut u = add(add(air.velocity, cross(air.rate, p)), scale(lift3(self.shaft), k * v_i));
            if s == FIN && self.tail_factor > 0.0 {
                let v_t = self.tail_rotor_velocity(air) * self.tail_factor;
                u = add(u, scale(lift3(self.tail_shaft), v_t));
            }
            let (alpha, force) = surface.force(u, air.density);
            out.force = add(out.force, force);
            out.moment = add(out.moment, cross(p, force));
            out.surfaces[s] = (k, alpha);
        }
        out
    }
}

impl Surface {
    /// Angle of attack (rad) and force (body axes, N) for the velocity `u` relative to the air.
    fn force<D: Scalar>(&self, u: V3<D>, density: D) -> (D, V3<D>) {
        let n = self.normal;
        // n has no body-x component (orthogonalised against the chord).
        let (u_c, u_n) = (u[0], u[1] * n[1] + u[2] * n[2]);
        let speed2 = u_c * u_c + u_n * u_n;
        if speed2.re() <= 0.0 {
            return (D::from(self.incidence), [D::from(0.0); 3]);
        }
        let alpha = atan2(-u_n, u_c) + self.incidence;
        let clamped = if alpha.re() > self.alpha_stall {
            D::from(self.alpha_stall)
        } else if alpha.re() < -self.alpha_stall {
            D::from(-self.alpha_stall)
        } else {
            alpha
        };
        let cl = clamped * self.lift_slope;
        let q = density * speed2.sqrt() * (0.5 * self.area);
        // CL (-U_n x + U_c n) - CD (U_c x + U_n n).
        let fx = -(cl * u_n) - u_c * self.cd0;
        let fn_ = cl * u_c - u_n * self.cd0;
        let force = [q * fx, q * fn_ * n[1], q * fn_ * n[2]];
        (alpha, force)
    }
}
