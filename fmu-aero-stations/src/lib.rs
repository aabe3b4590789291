//! Blade-element rotor aerodynamics on the station-level aero interface (`AeroStations`), the
//! variant of the Aero FMU for elastic blades: instead of one rigid blade's kinematics it takes
//! each station's position, inertial velocity and section axes (RotorElastic's outputs with
//! `aero_interface = 1`, `fmu_rotor_elastic::stations`) and returns the aerodynamic line loads at
//! the stations. A variant FMU so that Aero's model description stays byte-identical.
//!
//! **Section loads** (station `j`, all vectors in airframe body axes): the air velocity relative
//! to the section `w = W - v_j - nu_j n` (wind `W`, station velocity `v_j`, unit shaft axis `n`,
//! induced velocity `nu_j` down through the disk), its section-plane components `w_y = w . e_y`,
//! `w_z = w . e_z`, and Aero's section model (`fmu_aero::aero`, the same equations):
//!
//! ```text
//! alpha = theta_tw(r_j) + atan2(w_z, -w_y)   reduced modulo pi into [-pi/2, pi/2)
//! f_j = 0.5 rho c U [cl (w_z e_y - w_y e_z) + cd (w_y e_y + w_z e_z)],  U^2 = w_y^2 + w_z^2
//! cl = a alpha,  cd = cd0 + cd2 alpha^2,  m_j = 0
//! ```
//!
//! The spanwise component of `w` is ignored, as in Aero. Radius and azimuth of a station come
//! from its position `p_j`: `r_j = |p_j - (p_j . n) n|`, `cos psi_j = -p_j . x_h / r_j`,
//! `sin psi_j = p_j . y_h / r_j` (Aero's hub axes, `fmu_aero::aero::hub_axes`).
//!
//! **Rotor totals**, with the station widths `w_j` as quadrature weights: `thrust = sum w_j f_j .
//! n`, `torque = -sum w_j (p_j x f_j) . n`, `power = torque Omega`; the Pitt-Peters forcing
//! `C = (thrust, sum dT_j r_j sin psi_j / R, sum dT_j r_j cos psi_j / R) / (rho pi R^2 (Omega R)^2)`
//! with `dT_j = w_j f_j . n`, and the rates of `fmu_aero::inflow::pitt_peters_rates`. The
//! induced velocity is `nu_j = Omega R (lambda_0 + (r_j/R)(lambda_c cos psi_j + lambda_s sin
//! psi_j))`.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod layout;

use fmu_aero::aero::{atan2, flight_condition, hub_axes, wrap_half_pi};
use fmu_aero::inflow::pitt_peters_rates;
use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};
use fmu_core::vec3::{V3, add, cross, dot, lift3, scale, sub, zero};
use layout::{MAX_STATIONS, u, vr, x, y};

/// The station-level rotor aerodynamics (`modelIdentifier="AeroStations"`).
#[derive(Debug, Clone)]
pub struct AeroStations {
    nb: usize,
    radius: f64,
    /// `0.5 rho c`, kg/m^2.
    half_rho_chord: f64,
    twist: f64,
    lift_slope: f64,
    cd0: f64,
    cd2: f64,
    /// Whether the Pitt-Peters inflow is on.
    pitt_peters: bool,
    omega: f64,
    /// `rho pi R^2 (Omega R)^2`, N.
    thrust_scale: f64,
    /// Unit shaft axis, body axes.
    shaft: [f64; 3],
    /// `[x_h, y_h]`, the hub reference axes (body axes).
    hub_axes: [[f64; 3]; 2],
    lambda_start: [f64; 3],
    tolerance: f64,
}

/// The rotor totals of one evaluation, and the Pitt-Peters forcing.
#[derive(Debug, Clone, Copy)]
pub struct Totals<D> {
    /// Thrust along the shaft axis, N.
    pub thrust: D,
    /// Torque opposing the rotation, N m.
    pub torque: D,
    /// `(CT, C_s, C_c)`.
    pub forcing: [D; 3],
}

impl AeroStations {
    /// Radius (m) and `(sin psi, cos psi)` of a station at `pos` (body axes, from P).
    fn radius_azimuth<D: Scalar>(&self, pos: V3<D>) -> (D, D, D) {
        let n = lift3(self.shaft);
        let arm = sub(pos, scale(n, dot(pos, n)));
        let r2 = dot(arm, arm);
        if r2.re() <= 0.0 {
            return (zero(), zero(), D::from(1.0));
        }
        let r = r2.sqrt();
        let [xh, yh] = self.hub_axes;
        (r, dot(arm, lift3(yh)) / r, -dot(arm, lift3(xh)) / r)
    }

    /// The line force (N/m, body axes) of one station under the air velocity `w` relative to it
    /// (body axes), with section axes `ey`, `ez` at radius `r`.
    fn line_force<D: Scalar>(&self, w: V3<D>, ey: V3<D>, ez: V3<D>, r: D) -> V3<D> {
        let (wy, wz) = (dot(w, ey), dot(w, ez));
        let u2 = wy * wy + wz * wz;
        if u2.re() <= 0.0 {
            return [zero(); 3];
        }
        let alpha = wrap_half_pi(atan2(wz, -wy, u2.re()) + (r / self.radius - 0.75) * self.twist);
        let (cl, cd) = (alpha * self.lift_slope, alpha * alpha * self.cd2 + self.cd0);
        let q = u2.sqrt() * self.half_rho_chord;
        add(scale(ey, q * (cl * wz + cd * wy)), scale(ez, q * (cd * wz - cl * wy)))
    }

    /// The station line forces into `ys` (when given) and the rotor totals, for the inflow state
    /// `lambda` (zero without inflow).
    pub fn evaluate<D: Scalar>(&self, us: &[D], lambda: [D; 3], mut ys: Option<&mut [D]>) -> Totals<D> {
        let view = u::View(us);
        let n: V3<D> = lift3(self.shaft);
        let wind = view.wind();
        let tip_speed = self.omega * self.radius;
        let (mut thrust, mut torque, mut c_s, mut c_c) = (zero::<D>(), zero::<D>(), zero::<D>(), zero::<D>());
        for b in 0..self.nb {
            for k in 0..MAX_STATIONS {
                let station = view.station(b * MAX_STATIONS + k);
                let width = station.width();
                if width.re() <= 0.0 {
                    continue;
                }
                let pos = station.pos();
                let (r, sin_psi, cos_psi) = self.radius_azimuth(pos);
                let ratio = r / self.radius;
                let nu = (lambda[0] + ratio * (lambda[2] * cos_psi + lambda[1] * sin_psi)) * tip_speed;
                let w = sub(sub(wind, station.vel()), scale(n, nu));
                let f = self.line_force(w, station.ey(), station.ez(), r);
                let dt = dot(f, n) * width;
                thrust += dt;
                torque -= dot(cross(pos, f), n) * width;
                c_s += dt * ratio * sin_psi;
                c_c += dt * ratio * cos_psi;
                if let Some(ys) = ys.as_deref_mut() {
                    *y::ViewMut(ys).station(b * MAX_STATIONS + k).f() = f;
                }
            }
        }
        let inv = 1.0 / self.thrust_scale;
        Totals { thrust, torque, forcing: [thrust * inv, c_s * inv, c_c * inv] }
    }

    /// The inflow state in use: `x` with Pitt-Peters, zero without inflow.
    fn lambda<D: Scalar>(&self, xs: &[D]) -> [D; 3] {
        if self.pitt_peters { x::View(xs).lambda() } else { [zero(); 3] }
    }
}

impl Model for AeroStations {
    const INFO: ModelInfo = ModelInfo {
        model_name: "AeroStations",
        model_identifier: "AeroStations",
        description: "Blade-element rotor aerodynamics on the station-level aero interface: section loads at each \
                      station of elastic blades (position, velocity and section axes in; line loads out), \
                      Pitt-Peters dynamic inflow; a variant of Aero for RotorElastic with aero_interface = 1",
        default_stop_time: 1.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = layout::TABLES;

    fmu_core::no_work!();

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let inflow_model = p.integer(vr::INFLOW_MODEL)?;
        if inflow_model == 1 {
            return Err("parameter 'inflow_model' = 1: AeroStations has no uniform momentum inflow (Aero's \
                        quasi-steady solve); use 2 (Pitt-Peters, whose hover steady state is momentum theory) or 0"
                .into());
        }
        let shaft = p.vector(vr::SHAFT)?;
        let norm = dot(shaft, shaft).sqrt();
        if norm.is_nan() || norm <= 0.0 {
            return Err("parameter 'shaft.n': the shaft axis must not be zero".into());
        }
        let shaft = shaft.map(|c| c / norm);
        let (radius, omega, rho) = (p.real(vr::RADIUS)?, p.real(vr::OMEGA)?, p.real(vr::RHO)?);
        Ok(AeroStations {
            nb: p.integer(vr::NB)? as usize,
            radius,
            half_rho_chord: 0.5 * rho * p.real(vr::CHORD)?,
            twist: p.real(vr::TWIST)?,
            lift_slope: p.real(vr::LIFT_SLOPE)?,
            cd0: p.real(vr::CD0)?,
            cd2: p.real(vr::CD2)?,
            pitt_peters: inflow_model == 2,
            omega,
            thrust_scale: rho * std::f64::consts::PI * radius * radius * (omega * radius).powi(2),
            shaft,
            hub_axes: hub_axes(shaft),
            lambda_start: p.vector(vr::LAMBDA_START)?,
            tolerance: p.real(vr::TOLERANCE)?,
        })
    }

    fn n_states(&self) -> usize {
        if self.pitt_peters { x::N } else { 0 }
    }

    fn initial_state(&self, xs: &mut [f64]) {
        xs.copy_from_slice(&self.lambda_start[..xs.len()]);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        if !self.pitt_peters {
            return;
        }
        let lambda = self.lambda(xs);
        let totals = self.evaluate(us, lambda, None);
        let air = fmu_aero::wind::air_velocity(u::View(us).hub_vel(), u::View(us).wind());
        let flight = flight_condition(self.shaft, self.hub_axes, self.omega * self.radius, air);
        dx.copy_from_slice(&pitt_peters_rates(lambda, totals.forcing, &flight, self.omega));
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        ys.iter_mut().for_each(|e| *e = zero());
        let lambda = self.lambda(xs);
        let totals = self.evaluate(us, lambda, Some(ys));
        let mut out = y::ViewMut(ys);
        *out.thrust() = totals.thrust;
        *out.torque() = totals.torque;
        *out.power() = totals.torque * self.omega;
        *out.ct() = totals.forcing[0];
        (*out.inflow(), *out.inflow_s(), *out.inflow_c()) = (lambda[0], lambda[1], lambda[2]);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}

/// The model this crate's FMU exports (`fmu/`, the shared library `libAeroStations.so`).
pub type Fmu = AeroStations;
