//! The Aero FMU: the parameters checked into an [`Aero`], and its [`Model`] impl.

use fmu_core::Warnings;
use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};
use std::sync::Arc;

use super::{Aero, InflowModel, PI, RotorLoads, hub_axes};
use crate::airfoil::c81::{self, C81Airfoil};
use crate::airfoil::{self, Airfoil, AnalyticAirfoil, SectionGeometry, Sections, TipLoss};
use crate::inflow::{FlightCondition, Inflow, pitt_peters_rates};
use crate::layout::{NS_MAX, vr, x, y};
use crate::peters_he::{Disk, PetersHe, ground_factor};
use crate::quadrature::{self, Rule};

/// The parameter values after their checks (SI).
pub(super) struct Params {
    nb: usize,
    radius: f64,
    e: f64,
    r_root: f64,
    pub(super) chord: f64,
    twist: f64,
    pub(super) lift_slope: f64,
    pub(super) cd0: f64,
    cd2: f64,
    rho: f64,
    pub(super) n: usize,
    pub(super) inflow: InflowModel,
    pub(super) omega: f64,
    /// Unit shaft axis.
    shaft: [f64; 3],
    rule: Rule,
    lambda_start: [f64; 3],
    peters_he_start: [f64; crate::peters_he::N_DECLARED],
    tolerance: f64,
    /// `dynamic_stall = 1`.
    pub(super) dynamic_stall: bool,
    /// Static stall angle of the dynamic-stall model, rad.
    pub(super) alpha_stall: f64,
    /// Speed of sound, m/s.
    pub(super) speed_of_sound: f64,
    options: SectionOptions,
    /// Peters-He truncation: highest harmonic, radial functions per harmonic.
    peters_he: (usize, usize),
    /// Hub height above the ground, m (0: none).
    ground_height: f64,
}

/// The section-model options (parameters `airfoil` to `speed_of_sound`, `airfoil_file`,
/// `airfoil_inboard_file`).
struct SectionOptions {
    airfoil: i32,
    airfoil_inboard: i32,
    airfoil_change: f64,
    /// The table of `airfoil_file` when `airfoil = 2`.
    airfoil_table: Option<Arc<C81Airfoil>>,
    /// The table of `airfoil_inboard_file` when `airfoil_inboard = 2`.
    airfoil_inboard_table: Option<Arc<C81Airfoil>>,
    tip_loss: TipLoss,
    prandtl_glauert: bool,
    speed_of_sound: f64,
}

impl SectionOptions {
    /// Reads the options (the integers are range-checked by their declarations).
    fn read(p: &Reader<'_>) -> Result<Self, ParameterError> {
        let tip_loss = match p.integer(vr::TIP_LOSS)? {
            0 => TipLoss::None,
            1 => TipLoss::Tip,
            _ => TipLoss::TipAndRoot,
        };
        let (airfoil, airfoil_inboard) = (p.integer(vr::AIRFOIL)?, p.integer(vr::AIRFOIL_INBOARD)?);
        Ok(SectionOptions {
            airfoil,
            airfoil_inboard,
            airfoil_change: p.real(vr::AIRFOIL_CHANGE)?,
            airfoil_table: file_table(p, airfoil, vr::AIRFOIL_FILE, "airfoil_file")?,
            airfoil_inboard_table: file_table(p, airfoil_inboard, vr::AIRFOIL_INBOARD_FILE, "airfoil_inboard_file")?,
            tip_loss,
            prandtl_glauert: p.integer(vr::COMPRESSIBILITY)? == 1,
            speed_of_sound: p.real(vr::SPEED_OF_SOUND)?,
        })
    }

    /// The section model, or `None` when every option is off (the linear polar of `Aero::loads`).
    fn sections(&self, p: &Params, r: &[f64]) -> Option<Sections> {
        let inboard_used = self.airfoil_change > 0.0 && r.iter().any(|&rj| rj / p.radius < self.airfoil_change);
        let tables = self.airfoil != 0 || (inboard_used && self.airfoil_inboard != 0);
        if !tables && self.tip_loss == TipLoss::None && !self.prandtl_glauert {
            return None;
        }
        let analytic =
            AnalyticAirfoil { lift_slope: p.lift_slope, cd0: p.cd0, cd2: p.cd2, prandtl_glauert: self.prandtl_glauert };
        let airfoil = |code: i32, file: &Option<Arc<C81Airfoil>>| match (code, file) {
            (0, _) => Airfoil::Analytic(analytic),
            (2, Some(table)) => Airfoil::Table(Arc::clone(table)),
            _ => Airfoil::Table(airfoil::naca0012()),
        };
        let geometry = SectionGeometry {
            r,
            nb: p.nb,
            radius: p.radius,
            r_root: p.r_root,
            chord: p.chord,
            speed_of_sound: self.speed_of_sound,
        };
        let inboard = airfoil(self.airfoil_inboard, &self.airfoil_inboard_table);
        let outboard = airfoil(self.airfoil, &self.airfoil_table);
        Some(Sections::new(geometry, inboard, outboard, self.airfoil_change, self.tip_loss))
    }
}

/// The C81 table the String parameter `file_vr` (named `name`) points to when the airfoil choice
/// `code` is 2 (`file`), else `None`. A missing, unreadable or malformed file is an error naming
/// the parameter, the file and (for a malformed one) the line and column.
fn file_table(p: &Reader<'_>, code: i32, file_vr: u32, name: &str) -> Result<Option<Arc<C81Airfoil>>, ParameterError> {
    if code != 2 {
        return Ok(None);
    }
    let path = p.resource_path(file_vr)?;
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("parameter '{name}': cannot read {}: {e}", path.display()))?;
    let table = c81::parse(&path.display().to_string(), &text).map_err(|e| format!("parameter '{name}': {e}"))?;
    Ok(Some(Arc::new(table)))
}

impl Params {
    /// Reads and checks the parameters (errors name the parameter).
    pub(super) fn read(params: &dyn Parameters) -> Result<Self, ParameterError> {
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
            3 => InflowModel::PetersHe,
            m => return Err(format!("parameter 'inflow_model' must be 0, 1, 2 or 3 (got {m})").into()),
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
        let peters_he_start = p.vector(vr::PETERS_HE_START)?;
        let tolerance = p.real(vr::TOLERANCE)?;
        let dynamic_stall = p.integer(vr::DYNAMIC_STALL)? == 1;
        let (alpha_stall, speed_of_sound) = (p.real(vr::ALPHA_STALL)?, p.real(vr::SPEED_OF_SOUND)?);
        let options = SectionOptions::read(&p)?;
        let peters_he = (p.integer(vr::PETERS_HE_HARMONICS)? as usize, p.integer(vr::PETERS_HE_RADIAL)? as usize);
        let ground_height = read_ground_height(&p, radius, inflow)?;
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
            peters_he_start,
            tolerance,
            dynamic_stall,
            alpha_stall,
            speed_of_sound,
            options,
            peters_he,
            ground_height,
        })
    }
}

/// The `ground_height` parameter: 0 (no ground effect) or at least `R/2` (where the
/// Cheeseman-Bennett image model holds), with a dynamic inflow model.
fn read_ground_height(p: &Reader, radius: f64, inflow: InflowModel) -> Result<f64, ParameterError> {
    let z = p.real(vr::GROUND_HEIGHT)?;
    if z == 0.0 {
        return Ok(0.0);
    }
    if z < 0.5 * radius {
        return Err(format!(
            "parameter 'ground_height' ({z} m) must be 0 (no ground effect) or at least R/2 ({} m)",
            0.5 * radius
        )
        .into());
    }
    if !matches!(inflow, InflowModel::PittPeters | InflowModel::PetersHe) {
        return Err("parameter 'ground_height' needs a dynamic inflow model (inflow_model 2 or 3)".into());
    }
    Ok(z)
}

impl Model for Aero {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Aero",
        model_identifier: "Aero",
        description: "Quasi-steady blade-element lifting-line rotor aerodynamics (seed 004 eqs. 23-35 without small \
                      angles): per-blade loads at the blade root reference from the blade kinematics, with no, \
                      uniform-momentum (Glauert), Pitt-Peters or Peters-He dynamic inflow",
        default_stop_time: 1.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    /// The one-time warnings (a Mach number clamped to a table's range, [`MACH_CLAMPED`]).
    type Work<D: Scalar> = Warnings;

    fn work<D: Scalar>(&self) -> Warnings {
        Warnings::default()
    }

    fn warnings<D: Scalar>(work: &mut Warnings) -> Option<&mut Warnings> {
        Some(work)
    }

    /// Builds the model from parameter values, validating them (errors name the parameter).
    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Params::read(params)?;
        if p.dynamic_stall {
            return Err("parameter 'dynamic_stall' = 1 needs the AeroDynamicStall FMU (the Aero FMU declares no \
                        dynamic-stall states)"
                .into());
        }
        Ok(Aero::from_params(&p))
    }

    fn n_states(&self) -> usize {
        match (self.inflow, &self.peters_he) {
            (InflowModel::PittPeters, _) => x::N_PITT_PETERS,
            (InflowModel::PetersHe, Some(ph)) => ph.n_states(),
            _ => 0,
        }
    }

    fn state_indices(&self) -> Vec<usize> {
        match &self.peters_he {
            Some(ph) => ph.declared().iter().map(|i| x::PETERS_HE + i).collect(),
            None => (0..self.n_states()).collect(),
        }
    }

    fn initial_state(&self, xs: &mut [f64]) {
        if self.inflow == InflowModel::PittPeters {
            xs.copy_from_slice(&self.lambda_start);
        } else if let Some(ph) = &self.peters_he {
            if self.peters_he_start.iter().any(|&v| v != 0.0) {
                for (x, &k) in xs.iter_mut().zip(ph.declared()) {
                    *x = self.peters_he_start[k];
                }
            } else {
                // The uniform part from lambda0_start (lambda_m = sqrt(3) alpha_1^0); the rest zero.
                xs.iter_mut().for_each(|v| *v = 0.0);
                xs[0] = self.lambda_start[0] / 3.0_f64.sqrt();
            }
        }
    }

    fn derivatives<D: Scalar>(&self, work: &mut Warnings, _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        if let Some(ph) = &self.peters_he {
            let flight = self.flight_condition(us);
            let scale = self.ground_scale(&flight, ph.mean_inflow(xs));
            let mut disk = Disk::new(ph, xs, scale);
            let loads = self.loads_with(us, &mut disk);
            warn_if_clamped(&loads, work);
            ph.scale_forcing(&mut disk.forcing, self.thrust_scale);
            ph.rates(xs, &disk.forcing, &flight, self.omega, dx);
        } else if self.inflow == InflowModel::PittPeters {
            let x = x::View(xs);
            let lambda = [x.lambda0(), x.lambda_s(), x.lambda_c()];
            let inflow = self.pitt_peters_inflow(lambda, us);
            let loads = self.loads(us, &inflow);
            warn_if_clamped(&loads, work);
            self.pitt_peters_derivatives(us, lambda, &loads, dx);
        }
    }

    fn outputs<D: Scalar>(&self, work: &mut Warnings, t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        // The uniform inflow iteration starts from no inflow.
        self.outputs_warm(work, t, xs, us, &[0.0; y::N], ys);
    }

    /// With uniform inflow, the inflow iteration starts from the previous evaluation's inflow.
    fn outputs_warm<D: Scalar>(&self, work: &mut Warnings, _t: D, xs: &[D], us: &[D], y_prev: &[f64], ys: &mut [D]) {
        let (inflow, loads) = match self.inflow {
            InflowModel::None => (Inflow::zero(), self.loads(us, &Inflow::zero())),
            InflowModel::Uniform => {
                let (lambda, loads) = self.uniform(us, &self.hub_flow(us), y::View(y_prev).inflow());
                (Inflow::uniform(lambda), loads)
            }
            InflowModel::PittPeters => {
                let x = x::View(xs);
                let inflow = self.pitt_peters_inflow([x.lambda0(), x.lambda_s(), x.lambda_c()], us);
                (inflow, self.loads(us, &inflow))
            }
            InflowModel::PetersHe => self.peters_he_outputs(xs, us),
        };
        warn_if_clamped(&loads, work);
        self.write_outputs(xs, us, &inflow, &loads, ys);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}

/// The warning when a section's Mach number leaves its airfoil table's Mach range.
pub const MACH_CLAMPED: fmu_core::instance::Cause = "a section's Mach number is outside its airfoil table's Mach range: the \
     coefficients at the table's nearest Mach number are used (clamped; logged once per instance)";

/// Raises [`MACH_CLAMPED`] if the loads clamped a Mach number.
fn warn_if_clamped<D>(loads: &RotorLoads<D>, work: &mut Warnings) {
    if loads.mach_clamped {
        work.raise(MACH_CLAMPED);
    }
}

impl Aero {
    /// The model for checked parameters.
    pub(super) fn from_params(p: &Params) -> Aero {
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
        let sections = p.options.sections(p, &r[..n]);
        Aero {
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
            peters_he_start: p.peters_he_start,
            tolerance: p.tolerance,
            sections,
            peters_he: (p.inflow == InflowModel::PetersHe)
                .then(|| Box::new(PetersHe::new(p.peters_he.0, p.peters_he.1, &r_over_radius[..n]))),
            radius_over_height: if p.ground_height > 0.0 { radius / p.ground_height } else { 0.0 },
        }
    }

    /// The Pitt-Peters rates for the inflow states `lambda` and the loads with them.
    pub(super) fn pitt_peters_derivatives<D: Scalar>(
        &self,
        us: &[D],
        lambda: [D; 3],
        loads: &RotorLoads<D>,
        dx: &mut [D],
    ) {
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

    /// Writes every output from the inflow and the loads with it.
    pub(super) fn write_outputs<D: Scalar>(
        &self,
        xs: &[D],
        us: &[D],
        inflow: &Inflow<D>,
        loads: &RotorLoads<D>,
        ys: &mut [D],
    ) {
        let zero = D::from(0.0);
        ys.iter_mut().for_each(|v| *v = zero);
        let hub = self.hub_flow(us);
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
        // The harmonics without the ground-effect factor (which depends on the inputs).
        let (ls, lc) = match (&self.peters_he, self.inflow) {
            (Some(ph), _) => {
                let (c, s) = ph.tip_first_harmonic(xs);
                (s, c)
            }
            (None, InflowModel::PittPeters) => (x::View(xs).lambda_s(), x::View(xs).lambda_c()),
            _ => (inflow.ls, inflow.lc),
        };
        *y.inflow_s() = ls;
        *y.inflow_c() = lc;
        // |v_in| has no derivative at v_in = 0; report zero there.
        *y.mu() = if hub.mu2.re() > 0.0 { hub.mu2.sqrt() } else { zero };
    }
}

impl Aero {
    /// The ground-effect factor on the induced velocity for the mean induced inflow `lambda_i`.
    fn ground_scale<D: Scalar>(&self, flight: &FlightCondition<D>, lambda_i: D) -> D {
        ground_factor(self.radius_over_height, flight.mu, lambda_i)
    }

    /// The Pitt-Peters inflow of the states `lambda`, with the ground effect if any.
    pub(super) fn pitt_peters_inflow<D: Scalar>(&self, lambda: [D; 3], us: &[D]) -> Inflow<D> {
        let [l0, ls, lc] = lambda;
        if self.radius_over_height == 0.0 {
            return Inflow { l0, ls, lc };
        }
        let k = self.ground_scale(&self.flight_condition(us), l0);
        Inflow { l0: l0 * k, ls: ls * k, lc: lc * k }
    }

    /// Peters-He: the uniform inflow (`lambda_m` times the ground factor) and the loads.
    fn peters_he_outputs<D: Scalar>(&self, xs: &[D], us: &[D]) -> (Inflow<D>, super::RotorLoads<D>) {
        let zero = D::from(0.0);
        let Some(ph) = &self.peters_he else {
            return (Inflow::zero(), self.loads(us, &Inflow::zero()));
        };
        let lambda_m = ph.mean_inflow(xs);
        let scale = self.ground_scale(&self.flight_condition(us), lambda_m);
        let mut disk = Disk::new(ph, xs, scale);
        let loads = self.loads_with(us, &mut disk);
        (Inflow { l0: lambda_m * scale, ls: zero, lc: zero }, loads)
    }
}
