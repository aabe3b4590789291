//! The Aero FMU: the parameters checked into an [`Aero`], and its [`Model`] impl.

use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, finite, non_negative, positive};

use super::{Aero, InflowModel, PI, hub_axes};
use crate::inflow::{Inflow, pitt_peters_rates};
use crate::layout::{MAX_BLADES, NS_MAX, vr, x, y};
use crate::quadrature::{self, Rule};

impl Aero {
    /// Builds the model from parameter values, validating them (errors name the parameter).
    pub fn from_parameters(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let nb = params.integer(vr::NB);
        if !(1..=MAX_BLADES as i32).contains(&nb) {
            return Err(format!("parameter 'nb' must be in 1..={MAX_BLADES} (got {nb})").into());
        }
        let radius = positive(params, vr::RADIUS, "R", "m")?;
        let e = non_negative(params, vr::E, "e", "")?;
        if e >= radius {
            return Err(format!("parameter 'e' ({e} m) must be smaller than R ({radius} m)").into());
        }
        let r_root = finite(params, vr::R_ROOT, "r_root")?;
        if !(r_root >= e && r_root < radius) {
            return Err(
                format!("parameter 'r_root' ({r_root} m) must satisfy e ({e} m) <= r_root < R ({radius} m)").into()
            );
        }
        let chord = positive(params, vr::CHORD, "chord", "m")?;
        let twist = finite(params, vr::TWIST, "twist")?;
        let lift_slope = non_negative(params, vr::LIFT_SLOPE, "a", "")?;
        let cd0 = non_negative(params, vr::CD0, "cd0", "")?;
        let cd2 = non_negative(params, vr::CD2, "cd2", "")?;
        let rho = positive(params, vr::RHO, "rho", "kg/m^3")?;
        let n = params.integer(vr::N_SECTIONS);
        if !(1..=NS_MAX as i32).contains(&n) {
            return Err(format!("parameter 'n_sections' must be in 1..={NS_MAX} (got {n})").into());
        }
        let n = n as usize;
        let inflow = match params.integer(vr::INFLOW_MODEL) {
            0 => InflowModel::None,
            1 => InflowModel::Uniform,
            2 => InflowModel::PittPeters,
            m => return Err(format!("parameter 'inflow_model' must be 0, 1 or 2 (got {m})").into()),
        };
        let omega = positive(params, vr::OMEGA, "Omega", "rad/s")?;
        let mut shaft = [0.0; 3];
        for (k, c) in ["nx", "ny", "nz"].iter().enumerate() {
            shaft[k] = finite(params, vr::SHAFT + k as u32, &format!("shaft.{c}"))?;
        }
        let norm = (shaft[0] * shaft[0] + shaft[1] * shaft[1] + shaft[2] * shaft[2]).sqrt();
        if norm < 1e-9 {
            return Err("parameters 'shaft.nx/ny/nz' must not be the zero vector".into());
        }
        shaft = shaft.map(|c| c / norm);
        let code = params.integer(vr::QUADRATURE);
        let rule = Rule::from_code(code)
            .ok_or_else(|| format!("parameter 'quadrature' must be 0 (midpoint) or 1 (Gauss-Legendre) (got {code})"))?;
        let mut lambda_start = [0.0; 3];
        for (k, name) in ["lambda0_start", "lambda_s_start", "lambda_c_start"].iter().enumerate() {
            lambda_start[k] = finite(params, vr::LAMBDA_START + k as u32, name)?;
        }
        let tolerance = finite(params, vr::TOLERANCE, "tolerance")?;
        if !(tolerance > 0.0 && tolerance < 1.0) {
            return Err(format!("parameter 'tolerance' must be in (0, 1) (got {tolerance})").into());
        }

        let (r, w) = quadrature::stations(rule, n, r_root, radius);
        let (mut xs, mut qw, mut tw, mut r_over_radius) = ([0.0; NS_MAX], [0.0; NS_MAX], [0.0; NS_MAX], [0.0; NS_MAX]);
        for j in 0..n {
            r_over_radius[j] = r[j] / radius;
            xs[j] = r[j] - e;
            qw[j] = 0.5 * rho * chord * w[j];
            tw[j] = twist * (r[j] / radius - 0.75);
        }
        let tip_speed = omega * radius;
        Ok(Aero {
            nb: nb as usize,
            radius,
            e,
            n,
            r,
            r_over_radius,
            xs,
            w,
            qw,
            twist: tw,
            lift_slope,
            cd0,
            cd2,
            inflow,
            omega,
            tip_speed,
            thrust_scale: rho * PI * radius * radius * tip_speed * tip_speed,
            shaft,
            hub_axes: hub_axes(shaft),
            lambda_start,
            tolerance,
        })
    }
}

impl Model for Aero {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Aero",
        model_identifier: "Aero",
        description: "Quasi-steady blade-element lifting-line rotor aerodynamics (seed 004 eqs. 23-35 without small \
                      angles): per-blade loads at the blade root reference from the blade kinematics, with no, \
                      uniform-momentum (Glauert) or Pitt-Peters dynamic inflow",
        default_stop_time: 1.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    type Work<D: Scalar> = ();

    fn work<D: Scalar>(&self) {}

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        Self::from_parameters(params)
    }

    fn n_states(&self) -> usize {
        if self.inflow == InflowModel::PittPeters { x::N_PITT_PETERS } else { 0 }
    }

    fn initial_state(&self, xs: &mut [f64]) {
        if self.inflow == InflowModel::PittPeters {
            xs.copy_from_slice(&self.lambda_start);
        }
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        if self.inflow != InflowModel::PittPeters {
            return;
        }
        let x = x::View(xs);
        let lambda = [x.lambda0(), x.lambda_s(), x.lambda_c()];
        let inflow = Inflow { l0: lambda[0], ls: lambda[1], lc: lambda[2] };
        let loads = self.loads(us, &inflow);
        let moment_scale = self.thrust_scale * self.radius;
        let c = [
            loads.thrust * (1.0 / self.thrust_scale),
            loads.moment_s * (1.0 / moment_scale),
            loads.moment_c * (1.0 / moment_scale),
        ];
        let rates = pitt_peters_rates(lambda, c, &self.flight_condition(us), self.omega);
        let mut dx = x::ViewMut(dx);
        (*dx.lambda0(), *dx.lambda_s(), *dx.lambda_c()) = (rates[0], rates[1], rates[2]);
    }

    fn outputs<D: Scalar>(&self, work: &mut (), t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        // The uniform inflow iteration starts from no inflow.
        self.outputs_warm(work, t, xs, us, &[0.0; y::N], ys);
    }

    /// With uniform inflow, the inflow iteration starts from the previous evaluation's inflow.
    fn outputs_warm<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], y_prev: &[f64], ys: &mut [D]) {
        let zero = D::from(0.0);
        ys.iter_mut().for_each(|v| *v = zero);
        let hub = self.hub_flow(us);
        let (inflow, loads) = match self.inflow {
            InflowModel::None => (Inflow::zero(), self.loads(us, &Inflow::zero())),
            InflowModel::Uniform => {
                let (lambda, loads) = self.uniform(us, &hub, y::View(y_prev).inflow());
                (Inflow::uniform(lambda), loads)
            }
            InflowModel::PittPeters => {
                let x = x::View(xs);
                let inflow = Inflow { l0: x.lambda0(), ls: x.lambda_s(), lc: x.lambda_c() };
                (inflow, self.loads(us, &inflow))
            }
        };
        let mut y = y::ViewMut(ys);
        for b in 0..self.nb {
            let mut blade = y.blade(b);
            *blade.force() = loads.force[b];
            *blade.moment() = loads.moment[b];
        }
        *y.thrust() = loads.thrust;
        *y.torque() = loads.torque;
        *y.power() = loads.torque * self.omega;
        *y.ct() = loads.thrust * (1.0 / self.thrust_scale);
        *y.inflow() = inflow.l0;
        *y.inflow_s() = inflow.ls;
        *y.inflow_c() = inflow.lc;
        // |v_in| has no derivative at v_in = 0; report zero there.
        *y.mu() = if hub.mu2.re() > 0.0 { hub.mu2.sqrt() } else { zero };
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
