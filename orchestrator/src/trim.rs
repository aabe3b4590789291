//! Trim: the pilot controls and airframe attitude for a steady flight condition.
//!
//! A steady condition (hover, level flight at speed `V`, a level coordinated turn at rate
//! `psi_dot`) fixes the airframe's body-axis velocity and rates as functions of its attitude
//! `(phi, theta)` at zero heading: `v_b = R^T (V, 0, 0)`, `omega_b = R^T (0, 0, psi_dot)`. The
//! unknowns are `c = (collective, lon_cyclic, lat_cyclic, pedal, phi, theta)`, the residual
//! `h(c)` the airframe's six body-axis accelerations (`free.*` of the Fuselage: `du/dt .. dr/dt`
//! with every DOF free) averaged over one revolution of the main rotor in periodic steady state.
//!
//! A **trial** `h(c)` is one co-simulation of the whole system through the Newton master: the
//! airframe held on the steady motion (`dof_mask = 0`, so the rotor sees exactly the trimmed
//! hub motion), `settle_revolutions` revolutions to let the rotor settle, then one revolution
//! averaged with a Hann window (see `revolution_window`: exact for the main rotor's harmonics,
//! and it keeps a tail rotor turning at an incommensurate speed from leaking into the mean). Trials are warm-started: each begins on the rotor state (azimuth, per-blade lag,
//! flap and rates) where the previous accepted trial ended, so the rotor starts on, or close to,
//! its periodic orbit and one settling revolution suffices.
//!
//! Trials are the expensive part (the seed's point: finite-difference gradients around whole
//! simulations are the bottleneck). The solver is Newton with **Broyden** rank-one updates of the
//! Jacobian `dh/dc`: the Jacobian is differenced once (seven trials, or none when a Jacobian from a
//! neighbouring condition is supplied), then every iteration costs one trial. The
//! [`JacobianMethod::FiniteDifference`] variant re-differences at every iteration, the reference
//! the trim benchmark measures against. [`JacobianMethod::Linearized`] takes the first Jacobian
//! from the linearised system instead of differencing it (no trial at all), then updates it as
//! Broyden does.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

use nalgebra::DVector;

use cosim::import::{FmuLogger, ImportError};
use cosim::master::linalg::{Singular, solve_in_place};
use cosim::master::{FmuCache, Master, MasterError};
use cosim::system::{Experiment, SignalSpec, SystemDescription, SystemError, TrimSpec};

/// Why a trim could not be set up, or a trial or step of it failed.
#[derive(Debug, thiserror::Error)]
pub enum TrimError {
    /// The `trim` section does not describe a trim of this system (the message names the field).
    #[error("{0}")]
    Spec(String),
    /// A trial's system description could not be resolved against its FMUs.
    #[error("trial system: {0}")]
    TrialSystem(SystemError),
    /// An FMU could not be opened.
    #[error(transparent)]
    Import(#[from] ImportError),
    /// The master failed outside a trial's run (instantiation, initialisation, linearisation).
    #[error(transparent)]
    Master(Box<MasterError>),
    /// A trial's run failed.
    #[error("trim trial at {unknowns:?}: {error}")]
    Trial {
        /// The unknowns of the trial.
        unknowns: [f64; 6],
        /// What the master reported.
        error: Box<MasterError>,
    },
    /// A trial ended with a NaN or infinite residual.
    #[error("trim trial at {unknowns:?} gave a non-finite residual {residual:?}")]
    NonFiniteResidual {
        /// The unknowns of the trial.
        unknowns: [f64; 6],
        /// The residual, m/s^2 and rad/s^2.
        residual: [f64; 6],
    },
    /// The Newton step cannot be solved.
    #[error("the trim Jacobian is singular ({0}): a control has no effect on the residual")]
    SingularJacobian(Singular),
    /// The linearised trial system gives no Jacobian.
    #[error("{0}")]
    Linearization(String),
    /// A recorded column or a JSON entry the trim needs is missing.
    #[error("{0}")]
    Missing(String),
}

impl From<MasterError> for TrimError {
    fn from(error: MasterError) -> TrimError {
        TrimError::Master(Box::new(error))
    }
}

/// Names of the residual components, the Fuselage's `free.*` outputs.
pub const RESIDUAL_NAMES: [&str; 6] =
    ["free.u_dot", "free.v_dot", "free.w_dot", "free.p_dot", "free.q_dot", "free.r_dot"];

/// Names of the unknowns after the four controls.
const ATTITUDE_NAMES: [&str; 2] = ["phi", "theta"];

/// Finite-difference increment of every unknown, rad.
const FD_STEP: f64 = 1e-3;

/// Largest change of any unknown in one Newton step, rad.
const MAX_STEP: f64 = 0.15;

/// Largest change of a main-rotor blade state over the averaged revolution (rad) at which a
/// trial's residual is used as it is; above it, the trial is continued revolution by revolution.
const PERIODIC_ENOUGH: f64 = 1e-3;

/// Revolutions added at most to one trial by [`PERIODIC_ENOUGH`].
const MAX_EXTRA_SETTLING: u32 = 4;

/// Settling revolutions of the trial that confirms a converged trim.
const CONFIRM_REVOLUTIONS: u32 = 4;

/// Extra settling revolutions of the first (cold) trial.
const COLD_START_REVOLUTIONS: u32 = 3;

/// A steady flight condition, heading north at the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlightCondition {
    /// Airspeed along the horizontal flight path (still air, level flight), m/s.
    pub speed: f64,
    /// Turn rate about the NED z axis, rad/s (positive: turning right).
    pub turn_rate: f64,
}

impl FlightCondition {
    /// Hover.
    pub fn hover() -> Self {
        Self { speed: 0.0, turn_rate: 0.0 }
    }

    /// Body-axis velocity (m/s) and angular velocity (rad/s) at attitude `phi`, `theta` (rad).
    pub fn body_motion(&self, phi: f64, theta: f64) -> ([f64; 3], [f64; 3]) {
        let (sp, cp) = phi.sin_cos();
        let (st, ct) = theta.sin_cos();
        let v = self.speed;
        let r = self.turn_rate;
        ([v * ct, v * st * sp, v * st * cp], [-r * st, r * sp * ct, r * cp * ct])
    }

    fn describe(&self) -> String {
        if self.turn_rate != 0.0 {
            format!("level turn at {} m/s, {:.3} deg/s", self.speed, self.turn_rate.to_degrees())
        } else if self.speed != 0.0 {
            format!("level flight at {} m/s", self.speed)
        } else {
            "hover".into()
        }
    }
}

/// How the trim Jacobian is kept up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JacobianMethod {
    /// Differenced once (unless supplied), then Broyden rank-one updates: one trial per
    /// iteration.
    Broyden,
    /// Differenced at every iteration: seven trials per iteration.
    FiniteDifference,
    /// From the linearised system at the start (exact directional derivatives of the FMUs as
    /// Model Exchange, rotor states in multiblade coordinates at their quasi-steady response,
    /// no simulation), then Broyden rank-one updates. Falls back to differencing when the
    /// system cannot be linearised (an FMU without Model Exchange).
    Linearized,
}

/// The rotor state a trial starts from: per rotor, its parameter assignments (`psi0`,
/// `blade[i].dlag0`, ...).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RotorStates(Vec<(String, Vec<(String, f64)>)>);

/// Where a trim starts and what it may reuse.
#[derive(Debug, Clone)]
pub struct TrimStart {
    /// Unknowns `(collective, lon_cyclic, lat_cyclic, pedal, phi, theta)`, rad.
    pub unknowns: [f64; 6],
    /// Rotor state to start the first trial from (`None`: the system's own initial state, with
    /// extra settling revolutions).
    pub rotor_states: Option<RotorStates>,
    /// Jacobian `dh/dc` to start from (`None`: differenced at the start).
    pub jacobian: Option<[[f64; 6]; 6]>,
}

/// Progress of a trim, reported after every trial.
#[derive(Debug, Clone, Copy)]
pub struct TrimProgress {
    /// Newton iteration.
    pub iteration: u32,
    /// Trials so far.
    pub trials: u32,
    /// Simulated main-rotor revolutions so far.
    pub revolutions: u32,
    /// Largest component of the current residual.
    pub residual: f64,
}

/// A trimmed (or not converged) flight condition.
#[derive(Debug, Clone)]
pub struct Trim {
    /// The requested condition.
    pub condition: FlightCondition,
    /// Whether every residual component is below the tolerance.
    pub converged: bool,
    /// The tolerance, m/s^2 and rad/s^2.
    pub tolerance: f64,
    /// Control input references and their trimmed values, rad.
    pub controls: Vec<(String, f64)>,
    /// Roll and pitch attitude, rad.
    pub attitude: [f64; 2],
    /// Body-axis velocity, m/s.
    pub velocity: [f64; 3],
    /// Body-axis angular velocity, rad/s.
    pub rates: [f64; 3],
    /// Revolution-averaged free accelerations at the trim, in [`RESIDUAL_NAMES`] order.
    pub residual: [f64; 6],
    /// Largest change of a main-rotor blade state over the averaged revolution (angles in rad,
    /// rates divided by the rotor speed): the distance from periodic steady state.
    pub periodicity: f64,
    /// Newton iterations.
    pub iterations: u32,
    /// Trials (co-simulations) run.
    pub trials: u32,
    /// Simulated main-rotor revolutions over all trials.
    pub revolutions: u32,
    /// Largest residual component after each iteration (the first entry: the start).
    pub history: Vec<f64>,
    /// Wall time, s.
    pub wall_seconds: f64,
    /// Jacobian `dh/dc` at the end, for a neighbouring condition (`None` when the start was
    /// already trimmed and none was needed).
    pub jacobian: Option<[[f64; 6]; 6]>,
    /// Rotor state at the end of the last trial: a run from the trim starts there.
    pub rotor_states: RotorStates,
    /// Parameter assignments of the airframe (attitude, velocity, rates).
    airframe: (String, Vec<(String, f64)>),
}

/// One co-simulated trial.
struct Trial {
    residual: [f64; 6],
    periodicity: f64,
    end_state: RotorStates,
}

/// Runs trials of one system.
pub struct Trimmer<'a> {
    base: SystemDescription,
    spec: TrimSpec,
    fmus: &'a mut FmuCache,
    logger: Arc<dyn FmuLogger>,
    /// Main-rotor revolution, s.
    period: f64,
    /// Communication steps per revolution.
    steps_per_revolution: usize,
    /// Per rotor: instance, blade count, `blade.beta0`, `blade.zeta0`.
    rotors: Vec<(String, usize, f64, f64)>,
    trials: u32,
    revolutions: u32,
}

impl<'a> Trimmer<'a> {
    /// Checks the `trim` section of `description` against its FMUs.
    pub fn new(
        description: &SystemDescription,
        fmus: &'a mut FmuCache,
        logger: Arc<dyn FmuLogger>,
    ) -> Result<Self, TrimError> {
        let spec = description.trim.clone().ok_or(TrimError::Spec(
            "the system has no 'trim' section (airframe, controls, rotors): see the system description format".into(),
        ))?;
        let instance = |name: &str, field: &str| -> Result<(), TrimError> {
            if description.fmus.iter().any(|(n, _)| n == name) {
                Ok(())
            } else {
                Err(TrimError::Spec(format!("trim.{field}: no instance '{name}' in fmus")))
            }
        };
        instance(&spec.airframe, "airframe")?;
        if spec.controls.len() != 4 {
            return Err(TrimError::Spec(format!(
                "trim.controls: name the 4 pilot inputs (collective, lon_cyclic, lat_cyclic, pedal), got {}",
                spec.controls.len()
            )));
        }
        for (k, control) in spec.controls.iter().enumerate() {
            match description.inputs.iter().find(|i| &i.to == control) {
                Some(input) if matches!(input.signal, SignalSpec::Constant(_)) => {}
                Some(_) => {
                    return Err(TrimError::Spec(format!(
                        "trim.controls[{k}]: the input '{control}' must be a constant signal"
                    )));
                }
                None => {
                    return Err(TrimError::Spec(format!(
                        "trim.controls[{k}]: '{control}' is not the 'to' of an entry of inputs"
                    )));
                }
            }
        }
        if spec.rotors.is_empty() {
            return Err(TrimError::Spec("trim.rotors: name at least the main rotor instance".into()));
        }
        if !(spec.tolerance > 0.0 && spec.tolerance.is_finite()) {
            return Err(TrimError::Spec(format!("trim.tolerance must be > 0, got {}", spec.tolerance)));
        }
        let mut rotors = Vec::new();
        for (k, name) in spec.rotors.iter().enumerate() {
            instance(name, &format!("rotors[{k}]"))?;
            let mut number = |parameter: &str| -> Result<f64, TrimError> {
                parameter_value(description, fmus, name, parameter)
                    .map_err(|e| TrimError::Spec(format!("trim.rotors[{k}]: instance '{name}': {e}")))
            };
            rotors.push((name.clone(), number("nb")? as usize, number("blade.beta0")?, number("blade.zeta0")?));
        }
        let omega = parameter_value(description, fmus, &spec.rotors[0], "Omega")
            .map_err(|e| TrimError::Spec(format!("trim.rotors[0]: {e}")))?;
        if !(omega.abs() > 0.0 && omega.is_finite()) {
            return Err(TrimError::Spec(format!(
                "trim.rotors[0]: the rotor speed Omega must be non-zero, got {omega}"
            )));
        }
        let period = 2.0 * std::f64::consts::PI / omega.abs();
        let steps_per_revolution = (period / description.experiment.step).round().max(8.0) as usize;
        Ok(Self {
            base: description.clone(),
            spec,
            fmus,
            logger,
            period,
            steps_per_revolution,
            rotors,
            trials: 0,
            revolutions: 0,
        })
    }

    /// The starting point written in the system: its control constants and airframe attitude.
    pub fn start_from_system(&self) -> TrimStart {
        let mut unknowns = [0.0; 6];
        for (u, control) in unknowns.iter_mut().zip(&self.spec.controls) {
            if let Some(SignalSpec::Constant(v)) = self.base.inputs.iter().find(|i| &i.to == control).map(|i| &i.signal)
            {
                *u = *v;
            }
        }
        for (k, name) in ["phi0", "theta0"].iter().enumerate() {
            unknowns[4 + k] = self.base.number_parameter(&self.spec.airframe, name).unwrap_or(0.0);
        }
        TrimStart { unknowns, rotor_states: None, jacobian: None }
    }

    /// Main-rotor revolution, s.
    pub fn period(&self) -> f64 {
        self.period
    }

    /// Trims the system for `condition` from `start`.
    pub fn trim(
        &mut self,
        condition: FlightCondition,
        start: TrimStart,
        method: JacobianMethod,
        mut progress: impl FnMut(TrimProgress),
    ) -> Result<Trim, TrimError> {
        let started = Instant::now();
        let (trials0, revolutions0) = (self.trials, self.revolutions);
        let tolerance = self.spec.tolerance;
        let mut x = start.unknowns;
        let cold = start.rotor_states.is_none();
        let warm = start.rotor_states.unwrap_or_default();
        let settle = self.spec.settle_revolutions + if cold { COLD_START_REVOLUTIONS } else { 0 };
        let mut current = self.trial(condition, &x, &warm, settle)?;
        let mut iteration = 0;
        let mut history = vec![max_abs(&current.residual)];
        let report = |s: &Self, iteration, residual| TrimProgress {
            iteration,
            trials: s.trials - trials0,
            revolutions: s.revolutions - revolutions0,
            residual,
        };
        progress(report(self, 0, history[0]));
        let mut jacobian = start.jacobian;
        let mut converged = false;
        loop {
            if max_abs(&current.residual) < tolerance {
                // Confirm on a settled rotor: the same controls, CONFIRM_REVOLUTIONS more.
                current = self.trial(condition, &x, &current.end_state, CONFIRM_REVOLUTIONS)?;
                history.push(max_abs(&current.residual));
                progress(report(self, iteration, max_abs(&current.residual)));
                converged = max_abs(&current.residual) < tolerance;
            }
            if converged || iteration >= self.spec.max_iterations {
                break;
            }
            iteration += 1;
            let j =
                match (jacobian, method) {
                    (Some(j), JacobianMethod::Broyden | JacobianMethod::Linearized) => j,
                    (None, JacobianMethod::Linearized) => match self.linearized(condition, &x, &current.end_state) {
                        Ok(j) => j,
                        Err(e) => {
                            self.logger.log("trim", cosim::import::Status::Warning, "logStatusWarning", &format!(
                            "the trim Jacobian cannot come from the linearised system ({e}); differencing instead"
                        ));
                            self.difference(condition, &x, &current)?
                        }
                    },
                    _ => self.difference(condition, &x, &current)?,
                };
            let dx = newton_step(&j, &current.residual)?;
            let next_x: [f64; 6] = std::array::from_fn(|k| x[k] + dx[k]);
            let mut next = self.trial(condition, &next_x, &current.end_state, self.spec.settle_revolutions)?;
            // A large step leaves a rotor transient that spoils the averaged residual: let it
            // decay, one revolution at a time, until the rotor is close to periodic.
            let mut extra = 0;
            while next.periodicity > PERIODIC_ENOUGH && extra < MAX_EXTRA_SETTLING {
                next = self.trial(condition, &next_x, &next.end_state, 0)?;
                extra += 1;
            }
            let mut updated = j;
            // Steps below the difference increment carry more trial-to-trial noise than slope.
            if method != JacobianMethod::FiniteDifference && max_abs(&dx) >= FD_STEP {
                broyden_update(&mut updated, &dx, &current.residual, &next.residual);
            }
            jacobian = Some(updated);
            x = next_x;
            current = next;
            history.push(max_abs(&current.residual));
            progress(report(self, iteration, max_abs(&current.residual)));
        }
        let controls = self.spec.controls.iter().cloned().zip(x).collect();
        let (velocity, rates) = condition.body_motion(x[4], x[5]);
        let airframe = (self.spec.airframe.clone(), airframe_parameters(&x, velocity, rates));
        Ok(Trim {
            condition,
            converged,
            tolerance,
            controls,
            attitude: [x[4], x[5]],
            velocity,
            rates,
            residual: current.residual,
            periodicity: current.periodicity,
            iterations: iteration,
            trials: self.trials - trials0,
            revolutions: self.revolutions - revolutions0,
            history,
            wall_seconds: started.elapsed().as_secs_f64(),
            jacobian,
            rotor_states: current.end_state,
            airframe,
        })
    }

    /// Forward-difference Jacobian at `x`. The unperturbed and the six perturbed trials all start
    /// from `from`'s end state, so that what is left of a rotor transient is the same in each and
    /// cancels in the differences.
    fn difference(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        from: &Trial,
    ) -> Result<[[f64; 6]; 6], TrimError> {
        let settle = self.spec.settle_revolutions;
        let base = self.trial(condition, x, &from.end_state, settle)?;
        let mut jacobian = [[0.0; 6]; 6];
        for k in 0..6 {
            let mut xk = *x;
            xk[k] += FD_STEP;
            let perturbed = self.trial(condition, &xk, &from.end_state, settle)?;
            for (row, (p, b)) in jacobian.iter_mut().zip(perturbed.residual.iter().zip(&base.residual)) {
                row[k] = (p - b) / FD_STEP;
            }
        }
        Ok(jacobian)
    }

    /// The Jacobian `dh/dc` from the linearised trial system at `x` (airframe held, rotor
    /// started on `warm`): with the airframe states `a` held and the others `s` (rotor in
    /// multiblade coordinates, inflow, actuators) at their quasi-steady response
    /// `0 = A_ss ds + A_sa da + B_s du`, the residual changes by
    /// `dh = C_hs ds + C_ha da + D_h du`. A control moves `u`; an attitude angle moves the held
    /// airframe state `a` (attitude quaternion, body-axis velocity and rates of the steady
    /// motion), taken from the airframe's own initial state at `phi, theta +- 1e-4` rad.
    fn linearized(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
    ) -> Result<[[f64; 6]; 6], TrimError> {
        let airframe = self.spec.airframe.clone();
        // The trial system at `x`, its Model Exchange instances initialised.
        let start = |me: &mut Self, x: &[f64; 6]| -> Result<Master, TrimError> {
            let d = me.trial_description(condition, x, warm, 1);
            let fmus = &mut *me.fmus;
            let system =
                d.resolve(|path| fmus.description(path).map_err(|e| e.to_string())).map_err(TrimError::TrialSystem)?;
            let mut master = Master::new_model_exchange(system, fmus, me.logger.clone())?;
            master.initialize()?;
            Ok(master)
        };
        let full = start(self, x)?.linearize(&self.spec.controls)?;
        let lin = full
            .without_states(&full.inert_states())
            .multiblade()
            .map_err(|e| TrimError::Linearization(e.to_string()))?;
        let held: Vec<usize> =
            (0..lin.state_names.len()).filter(|&i| lin.state_names[i].starts_with(&format!("{airframe}."))).collect();
        let free: Vec<usize> = (0..lin.state_names.len()).filter(|i| !held.contains(i)).collect();
        let rows: Vec<usize> = RESIDUAL_NAMES
            .iter()
            .map(|r| {
                let name = format!("{airframe}.{r}");
                lin.output_names.iter().position(|o| *o == name).ok_or(TrimError::Missing(format!("no output {name}")))
            })
            .collect::<Result<_, _>>()?;
        // Held-state change per attitude angle, from the airframe's initial state.
        let mut d_held = [vec![0.0; held.len()], vec![0.0; held.len()]];
        const ANGLE_STEP: f64 = 1e-4;
        for (k, column) in d_held.iter_mut().enumerate() {
            let (mut plus, mut minus) = (*x, *x);
            plus[4 + k] += ANGLE_STEP;
            minus[4 + k] -= ANGLE_STEP;
            let mut initial_state =
                |x: &[f64; 6]| -> Result<Vec<f64>, TrimError> { Ok(start(self, x)?.read_states()?) };
            let (xp, xm) = (initial_state(&plus)?, initial_state(&minus)?);
            for (c, &i) in column.iter_mut().zip(&held) {
                let name = &lin.state_names[i];
                let at = full
                    .state_names
                    .iter()
                    .position(|s| s == name)
                    .ok_or(TrimError::Missing(format!("state {name}")))?;
                *c = (xp[at] - xm[at]) / (2.0 * ANGLE_STEP);
            }
        }
        let a_ss = lin.a.select_rows(&free).select_columns(&free);
        let lu = a_ss.lu();
        let mut jacobian = [[0.0; 6]; 6];
        for k in 0..6 {
            // Forcing of the free states and the direct change of the residual.
            let (forcing, direct): (DVector<f64>, Vec<f64>) = if k < 4 {
                (
                    DVector::from_iterator(free.len(), free.iter().map(|&i| lin.b[(i, k)])),
                    rows.iter().map(|&r| lin.d[(r, k)]).collect(),
                )
            } else {
                let da = &d_held[k - 4];
                let force = |i: usize| held.iter().zip(da).map(|(&j, d)| lin.a[(i, j)] * d).sum::<f64>();
                let direct = |r: usize| held.iter().zip(da).map(|(&j, d)| lin.c[(r, j)] * d).sum::<f64>();
                (
                    DVector::from_iterator(free.len(), free.iter().map(|&i| force(i))),
                    rows.iter().map(|&r| direct(r)).collect(),
                )
            };
            let ds = lu
                .solve(&(-forcing))
                .ok_or(TrimError::Linearization("the rotor's quasi-steady response is singular".into()))?;
            for (row, (&r, d)) in rows.iter().zip(direct).enumerate() {
                jacobian[row][k] = d + free.iter().zip(ds.iter()).map(|(&i, s)| lin.c[(r, i)] * s).sum::<f64>();
            }
        }
        if jacobian.iter().flatten().any(|v| !v.is_finite()) {
            return Err(TrimError::Linearization("non-finite entries".into()));
        }
        Ok(jacobian)
    }

    /// The system of a trial at `x`: controls and steady airframe motion set, airframe held
    /// (`dof_mask = 0`), rotors started on `warm`, `revolutions` revolutions.
    fn trial_description(
        &self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
        revolutions: u32,
    ) -> SystemDescription {
        let n = self.steps_per_revolution;
        let mut d = self.base.clone();
        for (control, value) in self.spec.controls.iter().zip(x) {
            for input in d.inputs.iter_mut().filter(|i| &i.to == control) {
                input.signal = SignalSpec::Constant(*value);
            }
        }
        let (velocity, rates) = condition.body_motion(x[4], x[5]);
        let airframe = self.spec.airframe.clone();
        for (name, value) in airframe_parameters(x, velocity, rates) {
            d.set_number_parameter(&airframe, &name, value);
        }
        d.set_number_parameter(&airframe, "dof_mask", 0.0);
        for (instance, assignments) in &warm.0 {
            for (name, value) in assignments {
                d.set_number_parameter(instance, name, *value);
            }
        }
        d.experiment = Experiment { start: 0.0, stop: revolutions as f64 * self.period, step: self.period / n as f64 };
        let mut outputs: Vec<String> = RESIDUAL_NAMES.iter().map(|r| format!("{airframe}.{r}")).collect();
        for (rotor, nb, _, _) in &self.rotors {
            outputs.push(format!("{rotor}.azimuth"));
            for i in 1..=*nb {
                outputs.extend(BLADE_STATES.iter().map(|s| format!("{rotor}.blade[{i}].{s}")));
            }
        }
        d.outputs = Some(outputs);
        d
    }

    /// One trial: the system held on the steady motion at `x`, started on `warm`, run
    /// `settle + 1` revolutions; the residual is averaged over the last.
    fn trial(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
        settle: u32,
    ) -> Result<Trial, TrimError> {
        let n = self.steps_per_revolution;
        let revolutions = settle + 1;
        let airframe = self.spec.airframe.clone();
        let d = self.trial_description(condition, x, warm, revolutions);
        let fmus = &mut *self.fmus;
        let system =
            d.resolve(|path| fmus.description(path).map_err(|e| e.to_string())).map_err(TrimError::TrialSystem)?;
        let mut master = Master::new(system, fmus, self.logger.clone())?;
        let results = master.run(|_| {}).map_err(|error| TrimError::Trial { unknowns: *x, error: Box::new(error) })?;
        self.trials += 1;
        self.revolutions += revolutions;

        let column = |name: String| {
            results.column(&name).ok_or_else(|| TrimError::Missing(format!("no recorded column '{name}'")))
        };
        let last = results.time.len() - 1;
        let window = revolution_window(n);
        let mut residual = [0.0; 6];
        for (r, name) in residual.iter_mut().zip(RESIDUAL_NAMES) {
            let values = column(format!("{airframe}.{name}"))?;
            *r = values[last - n..last].iter().zip(&window).map(|(v, w)| v * w).sum::<f64>();
        }
        if residual.iter().any(|r| !r.is_finite()) {
            return Err(TrimError::NonFiniteResidual { unknowns: *x, residual });
        }
        let mut periodicity = 0.0f64;
        let mut end_state = Vec::new();
        for (k, (rotor, nb, beta0, zeta0)) in self.rotors.iter().enumerate() {
            let azimuth = column(format!("{rotor}.azimuth"))?[last];
            let mut assignments = vec![("psi0".to_string(), azimuth.rem_euclid(2.0 * std::f64::consts::PI))];
            for i in 1..=*nb {
                for (s, initial) in BLADE_STATES.iter().zip(BLADE_INITIAL) {
                    let values = column(format!("{rotor}.blade[{i}].{s}"))?;
                    let offset = match *s {
                        "lag" => *zeta0,
                        "flap" => *beta0,
                        _ => 0.0,
                    };
                    assignments.push((format!("blade[{i}].{initial}"), values[last] - offset));
                    if k == 0 {
                        let scale = if s.ends_with("rate") { self.period / (2.0 * std::f64::consts::PI) } else { 1.0 };
                        periodicity = periodicity.max((values[last] - values[last - n]).abs() * scale);
                    }
                }
            }
            end_state.push((rotor.clone(), assignments));
        }
        Ok(Trial { residual, periodicity, end_state: RotorStates(end_state) })
    }
}

/// Rotor outputs carried from trial to trial, and the parameters they start the next one with.
const BLADE_STATES: [&str; 4] = ["lag", "flap", "lag_rate", "flap_rate"];
const BLADE_INITIAL: [&str; 4] = ["dlag0", "dflap0", "lag_rate0", "flap_rate0"];

impl Trim {
    /// A start for a neighbouring condition (the next speed of a sweep, say): these unknowns,
    /// the rotor state at the end and the Jacobian.
    pub fn continuation(&self) -> TrimStart {
        let mut unknowns = [0.0; 6];
        for (u, (_, v)) in unknowns.iter_mut().zip(&self.controls) {
            *u = *v;
        }
        unknowns[4..].copy_from_slice(&self.attitude);
        TrimStart { unknowns, rotor_states: Some(self.rotor_states.clone()), jacobian: self.jacobian }
    }

    /// Every parameter assignment that starts a run on the trim: airframe attitude, velocity and
    /// rates; rotor azimuth and blade states.
    fn parameter_assignments(&self) -> Vec<(String, String, f64)> {
        let mut all: Vec<(String, String, f64)> =
            self.airframe.1.iter().map(|(n, v)| (self.airframe.0.clone(), n.clone(), *v)).collect();
        for (rotor, assignments) in &self.rotor_states.0 {
            all.extend(assignments.iter().map(|(n, v)| (rotor.clone(), n.clone(), *v)));
        }
        all
    }

    /// Sets `description` up to start on the trim: parameters, and constant control inputs.
    pub fn apply(&self, description: &mut SystemDescription) {
        for (instance, name, value) in self.parameter_assignments() {
            description.set_number_parameter(&instance, &name, value);
        }
        for (control, value) in &self.controls {
            for input in description.inputs.iter_mut().filter(|i| &i.to == control) {
                input.signal = SignalSpec::Constant(*value);
            }
        }
    }

    /// The same as [`Trim::apply`] on the JSON text of a system description, keeping everything
    /// else as written: key order, and paths relative where they were (rewritten from
    /// `from_dir`, the input's folder, to `to_dir`, the output's, when the two differ).
    /// Assignments that the JSON already holds with the same value are left alone.
    pub fn apply_json(&self, json: &mut Value, from_dir: &Path, to_dir: &Path) -> Result<(), TrimError> {
        let missing = |what: String| TrimError::Missing(what);
        let fmus = json
            .get_mut("fmus")
            .and_then(Value::as_object_mut)
            .ok_or_else(|| missing("the JSON has no 'fmus' object".into()))?;
        for (_, fmu) in fmus.iter_mut() {
            rebase(fmu.get_mut("path"), from_dir, to_dir);
        }
        for (instance, name, value) in self.parameter_assignments() {
            let fmu = fmus.get_mut(&instance).ok_or_else(|| missing(format!("no instance '{instance}'")))?;
            let object = fmu.as_object_mut().ok_or_else(|| missing(format!("fmus.{instance} is not an object")))?;
            let parameters = object.entry("parameters").or_insert_with(|| json!({}));
            let parameters = parameters
                .as_object_mut()
                .ok_or_else(|| missing(format!("fmus.{instance}.parameters is not an object")))?;
            if parameters.get(&name).and_then(Value::as_f64) != Some(value) {
                parameters.insert(name, json!(value));
            }
        }
        if let Some(inputs) = json.get_mut("inputs").and_then(Value::as_array_mut) {
            for input in inputs {
                if let Some(table) = input.pointer_mut("/signal/table") {
                    rebase(table.get_mut("csv"), from_dir, to_dir);
                }
                let to = input.get("to").and_then(Value::as_str).unwrap_or_default().to_string();
                if let Some((_, value)) = self.controls.iter().find(|(c, _)| *c == to)
                    && input.pointer("/signal/constant").and_then(Value::as_f64) != Some(*value)
                {
                    input["signal"] = json!({ "constant": value });
                }
            }
        }
        Ok(())
    }

    /// The trim figures as JSON (the `--summary-json` of `orchestrator trim`).
    pub fn to_json(&self) -> Value {
        let named = |names: &[&str], values: &[f64]| -> Value {
            names.iter().zip(values).map(|(n, v)| (n.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into()
        };
        json!({
            "condition": {
                "description": self.condition.describe(),
                "speed_m_per_s": self.condition.speed,
                "turn_rate_rad_per_s": self.condition.turn_rate,
            },
            "converged": self.converged,
            "tolerance": self.tolerance,
            "iterations": self.iterations,
            "trials": self.trials,
            "revolutions": self.revolutions,
            "wall_seconds": self.wall_seconds,
            "residual": named(&RESIDUAL_NAMES, &self.residual),
            "residual_max": max_abs(&self.residual),
            "residual_history": self.history,
            "periodicity": self.periodicity,
            "controls_rad": self.controls.iter().map(|(n, v)| (n.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "attitude_rad": named(&ATTITUDE_NAMES, &self.attitude),
            "body_velocity_m_per_s": named(&["u", "v", "w"], &self.velocity),
            "body_rates_rad_per_s": named(&["p", "q", "r"], &self.rates),
        })
    }

    /// A short human-readable report.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "trim ({}): {} in {} iterations, {} trials, {} rotor revolutions, {:.2} s wall\n",
            self.condition.describe(),
            if self.converged { "converged" } else { "NOT converged" },
            self.iterations,
            self.trials,
            self.revolutions,
            self.wall_seconds
        );
        for (name, value) in &self.controls {
            s += &format!("  {name:<24} {value:>10.6} rad ({:>8.4} deg)\n", value.to_degrees());
        }
        for (name, value) in ATTITUDE_NAMES.iter().zip(&self.attitude) {
            s += &format!("  {name:<24} {value:>10.6} rad ({:>8.4} deg)\n", value.to_degrees());
        }
        s += &format!(
            "  residual (max {:.2e}, tolerance {:.1e}): {}\n",
            max_abs(&self.residual),
            self.tolerance,
            RESIDUAL_NAMES
                .iter()
                .zip(&self.residual)
                .map(|(n, v)| format!("{n} {v:.2e}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        s += &format!(
            "  largest residual at the start, then after each iteration and confirmation: {}\n",
            self.history.iter().map(|r| format!("{r:.2e}")).collect::<Vec<_>>().join(" ")
        );
        s += &format!("  periodicity of the main rotor over the last revolution: {:.2e} rad", self.periodicity);
        s
    }
}

/// Airframe parameters for attitude `x[4..6]` and the steady motion.
fn airframe_parameters(x: &[f64; 6], velocity: [f64; 3], rates: [f64; 3]) -> Vec<(String, f64)> {
    let mut p = vec![("phi0".to_string(), x[4]), ("theta0".to_string(), x[5]), ("psi0".to_string(), 0.0)];
    for (name, v) in ["u0", "v0", "w0"].iter().zip(velocity) {
        p.push((name.to_string(), v));
    }
    for (name, v) in ["p0", "q0", "r0"].iter().zip(rates) {
        p.push((name.to_string(), v));
    }
    p
}

/// How far a run's start is from trim: the airframe's `free.*` accelerations (columns
/// `<airframe>.free.*` of `results`) averaged as a trim averages them, over the first main-rotor
/// revolution of the run. `None` when the run is shorter than one revolution.
pub fn start_residual(
    description: &SystemDescription,
    fmus: &mut FmuCache,
    results: &cosim::master::Results,
) -> Result<Option<[f64; 6]>, TrimError> {
    let spec = description.trim.as_ref().ok_or(TrimError::Spec("the system has no 'trim' section".into()))?;
    let rotor = spec.rotors.first().ok_or(TrimError::Spec("trim.rotors is empty".into()))?;
    let omega = parameter_value(description, fmus, rotor, "Omega")?;
    let n = (2.0 * std::f64::consts::PI / omega.abs() / description.experiment.step).round() as usize;
    if n < 8 || results.time.len() <= n {
        return Ok(None);
    }
    let window = revolution_window(n);
    let mut residual = [0.0; 6];
    for (r, name) in residual.iter_mut().zip(RESIDUAL_NAMES) {
        let values = results
            .column(&format!("{}.{name}", spec.airframe))
            .ok_or_else(|| TrimError::Missing(format!("'{}.{name}' is not recorded", spec.airframe)))?;
        *r = values[..n].iter().zip(&window).map(|(v, w)| v * w).sum();
    }
    Ok(Some(residual))
}

/// Averaging weights over one revolution of `n` samples: the periodic Hann window
/// `(1 - cos(2 pi k / n)) / n`. It returns the mean exactly and removes every harmonic of 2/rev
/// and above exactly (a main rotor's loads in periodic steady state hold only multiples of nb/rev),
/// and it suppresses loads at frequencies incommensurate with the revolution (a tail rotor's)
/// by its sidelobes, falling with the cube of the frequency: about 3e-4 of the amplitude at 10/rev,
/// where a plain revolution mean would leave 3e-2.
fn revolution_window(n: usize) -> Vec<f64> {
    (0..n).map(|k| (1.0 - (2.0 * std::f64::consts::PI * k as f64 / n as f64).cos()) / n as f64).collect()
}

/// Newton step `-J^-1 h`, scaled down so that no unknown moves by more than [`MAX_STEP`].
fn newton_step(jacobian: &[[f64; 6]; 6], residual: &[f64; 6]) -> Result<[f64; 6], TrimError> {
    let mut a: Vec<f64> = jacobian.iter().flatten().copied().collect();
    let mut b: Vec<f64> = residual.iter().map(|r| -r).collect();
    let mut pivots = [0; 6];
    solve_in_place(6, &mut a, &mut b, &mut pivots).map_err(TrimError::SingularJacobian)?;
    let largest = max_abs(&b);
    let scale = if largest > MAX_STEP { MAX_STEP / largest } else { 1.0 };
    Ok(std::array::from_fn(|k| b[k] * scale))
}

/// Broyden's ("good") rank-one update: `J += (dh - J dx) dx^T / (dx . dx)`.
fn broyden_update(jacobian: &mut [[f64; 6]; 6], dx: &[f64; 6], before: &[f64; 6], after: &[f64; 6]) {
    let dx_dx: f64 = dx.iter().map(|d| d * d).sum();
    if dx_dx == 0.0 {
        return;
    }
    for (row, (a, b)) in jacobian.iter_mut().zip(after.iter().zip(before)) {
        let predicted: f64 = row.iter().zip(dx).map(|(j, d)| j * d).sum();
        let correction = (a - b - predicted) / dx_dx;
        for (j, d) in row.iter_mut().zip(dx) {
            *j += correction * d;
        }
    }
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// The value of parameter `name` of `instance`: as written, or the FMU's start value.
fn parameter_value(d: &SystemDescription, fmus: &mut FmuCache, instance: &str, name: &str) -> Result<f64, TrimError> {
    if let Some(v) = d.number_parameter(instance, name) {
        return Ok(v);
    }
    let path = d.fmu_file(instance).map_err(|e| TrimError::Spec(e.to_string()))?;
    let fmu = fmus.open(&path)?;
    let variable = fmu
        .model_description()
        .variable(name)
        .ok_or_else(|| TrimError::Spec(format!("the FMU has no parameter '{name}' (is it our Rotor.fmu?)")))?;
    variable
        .start
        .as_deref()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| TrimError::Spec(format!("parameter '{name}' has no numeric start value")))
}

/// Rewrites a relative path string written for `from_dir` so that it names the same file from
/// `to_dir` (relative again where the two folders share a root); absolute paths are kept.
fn rebase(path: Option<&mut Value>, from_dir: &Path, to_dir: &Path) {
    if let Some(Value::String(p)) = path
        && Path::new(p.as_str()).is_relative()
        && from_dir != to_dir
    {
        let target = normalize(&from_dir.join(p.as_str()));
        *p = relative_path(&target, &normalize(to_dir)).display().to_string();
    }
}

/// `path` with `.` and `..` removed lexically.
fn normalize(path: &Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `target` relative to the folder `base` (both absolute and normalized).
fn relative_path(target: &Path, base: &Path) -> std::path::PathBuf {
    let (t, b): (Vec<_>, Vec<_>) = (target.components().collect(), base.components().collect());
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = std::path::PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    out
}
