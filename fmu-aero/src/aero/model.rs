//! The Aero FMU: the parameters checked into an [`Aero`], and its [`Model`] impl.

use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use super::{Aero, InflowModel, PI, hub_axes};
use crate::inflow::{Inflow, pitt_peters_rates};
use crate::layout::{NS_MAX, vr, x, y};
use crate::quadrature::{self, Rule};

/// The parameter values after their checks (SI).
struct Params {
    nb: usize,
    radius: f64,
    e: f64,
    r_root: f64,
    chord: f64,
    twist: f64,
    lift_slope: f64,
    cd0: f64,
    cd2: f64,
    rho: f64,
    n: usize,
    inflow: InflowModel,
    omega: f64,
    /// Unit shaft axis.
    shaft: [f64; 3],
    rule: Rule,
    lambda_start: [f64; 3],
    tolerance: f64,
}

impl Params {
    /// Reads and checks the parameters (errors name the parameter).
    fn read(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let nb = p.integer(vr::NB)?;
        let radius = p.real(vr::RADIUS)?;
        let e = p.real(vr::E)?;
        if e >= radius {
            return Err(format!("parameter 'e' ({e} m) must be smaller than R ({radius} m)").into());
        }
        let r_root = p.real(vr::R_ROOT)?;
        if !(r_root >= e && r_root < radius) {
            return Err(
                format!("parameter 'r_root' ({r_root} m) must satisfy e ({e} m) <= r_root < R ({radius} m)").into()
            );
        }
        let (chord, twist) = (p.real(vr::CHORD)?, p.real(vr::TWIST)?);
        let (lift_slope, cd0, cd2) = (p.real(vr::LIFT_SLOPE)?, p.real(vr::CD0)?, p.real(vr::CD2)?);
        let rho = p.real(vr::RHO)?;
        let n = p.integer(vr::N_SECTIONS)? as usize;
        let inflow = match p.integer(vr::INFLOW_MODEL)? {
            0 => InflowModel::None,
            1 => InflowModel::Uniform,
            2 => InflowModel::PittPeters,
            m => return Err(format!("parameter 'inflow_model' must be 0, 1 or 2 (got {m})").into()),
        };
        let omega = p.real(vr::OMEGA)?;
        let shaft = p.vector::<3>(vr::SHAFT)?;
        let norm = (shaft[0] * shaft[0] + shaft[1] * shaft[1] + shaft[2] * shaft[2]).sqrt();
        if norm < 1e-9 {
            return Err("parameters 'shaft.nx/ny/nz' must not be the zero vector".into());
        }
        let code = p.integer(vr::QUADRATURE)?;
        let rule = Rule::from_code(code)
            .ok_or_else(|| format!("parameter 'quadrature' must be 0 (midpoint) or 1 (Gauss-Legendre) (got {code})"))?;
        let lambda_start = p.vector(vr::LAMBDA_START)?;
        let tolerance = p.real(vr::TOLERANCE)?;
        let (nb, shaft) = (nb as usize, shaft.map(|c| c / norm));
        Ok(Params {
            nb,
            radius,
            e,
            r_root,
            chord,
            twist,
            lift_slope,
            cd0,
            cd2,
            rho,
            n,
            inflow,
            omega,
            shaft,
            rule,
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

    fmu_core::no_work!();

    /// Builds the model from parameter values, validating them (errors name the parameter).
    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Params::read(params)?;
        let (radius, n) = (p.radius, p.n);
        let (r, w) = quadrature::stations(p.rule, n, p.r_root, radius);
        let (mut xs, mut qw, mut tw, mut r_over_radius) = ([0.0; NS_MAX], [0.0; NS_MAX], [0.0; NS_MAX], [0.0; NS_MAX]);
        for j in 0..n {
            r_over_radius[j] = r[j] / radius;
            xs[j] = r[j] - p.e;
            qw[j] = 0.5 * p.rho * p.chord * w[j];
            tw[j] = p.twist * (r[j] / radius - 0.75);
        }
        let tip_speed = p.omega * radius;
        Ok(Aero {
            nb: p.nb,
            radius,
            e: p.e,
            n,
            r,
            r_over_radius,
            xs,
            w,
            qw,
            twist: tw,
            lift_slope: p.lift_slope,
            cd0: p.cd0,
            cd2: p.cd2,
            inflow: p.inflow,
            omega: p.omega,
            tip_speed,
            thrust_scale: p.rho * PI * radius * radius * tip_speed * tip_speed,
            shaft: p.shaft,
            hub_axes: hub_axes(p.shaft),
            lambda_start: p.lambda_start,
            tolerance: p.tolerance,
        })
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
