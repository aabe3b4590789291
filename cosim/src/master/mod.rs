//! The master algorithm: steps the FMUs of a resolved [`System`] and makes their coupling
//! consistent at every communication point (DESIGN.md section 4).
//!
//! - The coupling is planned first ([`CouplingPlan`]), from the model descriptions alone: what
//!   the master does not support fails before any FMU is loaded.
//! - The connected outputs form the feedthrough graph ([`graph`]); its strongly connected
//!   components are the algebraic loops, solved in topological order.
//! - Initialization mode: every FMU may be set and read repeatedly, so loops get full Newton
//!   (Jacobians from `fmi2GetDirectionalDerivative`, finite differences where an FMU has none).
//! - Stepping, FMUs that declare get-after-set (our vendor annotation): Newton at every
//!   communication point, reading the exact outputs after each `fmi2SetReal`, from the loop's
//!   last solution. By default (`master.jacobian = "reuse"`) the factorised Newton matrix is kept
//!   across iterations and points (chord Newton) and recomputed when an iteration reduces the
//!   residual by less than [`CONTRACTION`]; the convergence test is on the true residual.
//!   Their outputs without direct feedthrough (dependencies naming no input) are read alone,
//!   once per step, before their other outputs (`unit::StateOnly`): a rotor need not evaluate
//!   everything with the old pitch to give the controls its azimuth.
//! - Stepping, standard FMUs: FMI 2.0 forbids `fmi2GetReal` after `fmi2SetReal` without a step,
//!   so their outputs are read once after `fmi2DoStep` together with `dg/du` (directional
//!   derivatives are allowed then) and enter the loop as the linear model
//!   `y = y_pred + D (u - u_old)`: exact for loops linear in the coupling variables. Without
//!   directional derivatives, `D = 0`, which is a one-step delay; a warning says so.
//! - A failed step (`fmi2Discard`) or a failed loop solve rolls back with FMU state and retries
//!   with half the step where every FMU can get and set its state, down to `min_step`;
//!   otherwise the run stops with an error that names the loop and its residual.
//! - `jacobi` and `gauss-seidel` are the classic explicit schemes, kept for comparison.
//! - Integer, Enumeration and Boolean variables (module `discrete`) are recorded and passed
//!   along their connections (and Integer to Real) once per communication point, right after the
//!   step and before the Real coupling is solved, outside the Newton iteration; String variables
//!   are not recorded.

mod build;
mod coupling;
mod discrete;
mod error;
mod fmu_cache;
pub mod graph;
pub mod linalg;
mod linearize;
pub mod newton;
mod parallel;
mod plan;
mod results;
mod snapshot;
mod unit;

use std::sync::Arc;

use crate::import::{FmuLogger, Instance};
use crate::system::{Algorithm, Signal, System};
use coupling::{LoopSolver, Node};
pub use error::{MAX_COMMUNICATION_POINTS, MasterError, check_communication_points};
pub use fmu_cache::FmuCache;
pub use newton::CONTRACTION;
use parallel::{Task, Units};
pub use plan::CouplingPlan;
use unit::{Phase, Unit};

pub use results::{Results, RunSummary, write_csv_header, write_csv_row};
pub use snapshot::MasterState;

/// Initial room reserved for recorded rows; beyond it the results grow as the run goes.
const RESULT_ROWS_RESERVED: usize = 1 << 12;

/// Per-run figures.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Communication points solved (including retried sub-steps).
    pub communication_points: usize,
    /// Newton iterations summed over loops, per communication point: sum and maximum.
    pub newton_iterations_total: usize,
    /// Largest Newton iteration count at one communication point.
    pub newton_iterations_max: usize,
    /// Largest final loop residual (max-norm).
    pub max_residual: f64,
    /// Steps rolled back and retried with half the size.
    pub rollbacks: usize,
    /// Loop Newton matrices computed (from directional derivatives) and factorised.
    pub jacobian_updates: usize,
}

/// A system ready to run: FMUs instantiated, graph analysed.
pub struct Master {
    /// Boxed, so that stepping hands them to worker threads by pointer ([`parallel`]).
    #[allow(clippy::vec_box, reason = "a unit is handed to a worker thread as its box")]
    units: Vec<Box<Unit>>,
    nodes: Vec<Node>,
    components: Vec<graph::Component>,
    loops: Vec<LoopSolver>,
    /// Component index -> loop index.
    loop_of_component: Vec<Option<usize>>,
    externals: Vec<(usize, usize, Signal)>,
    /// Recorded values: (unit, output position) or a driven input (unit, input position).
    recorded: Vec<Recorded>,
    recorded_names: Vec<String>,
    system: System,
    /// Unit indices in Gauss-Seidel order.
    gauss_seidel_order: Vec<usize>,
    can_roll_back: bool,
    time: f64,
    /// Starts of the last two completed steps, the last first (for input extrapolation).
    step_starts: [Option<f64>; 2],
    /// While the first step is redone: its size, over which the inputs' forward slopes to
    /// `Unit::in_next` are taken.
    forward_slopes_over: Option<f64>,
    stats: Stats,
    warnings: Vec<String>,
    /// Why [`Master::run`] ended before the stop time (an FMU terminated the simulation).
    stop_reason: Option<String>,
    /// Integer, Enumeration and Boolean variables, exchanged at communication points.
    discrete: discrete::Discrete,
    /// [`Master::run_into`] records every this many communication points (and the last).
    record_every: usize,
    /// Worker threads for units that do not depend on each other.
    pool: parallel::Pool,
}

#[derive(Clone, Copy)]
enum Recorded {
    Output(usize, usize),
    Input(usize, usize),
    /// A discrete variable's slot in [`discrete::Discrete`].
    Discrete(usize),
}

impl Master {
    /// Instantiates every instance of `system` from the FMUs in `fmus` (opening any not yet
    /// open) and prepares the coupling. FMU messages go to `logger`.
    pub fn new(system: System, fmus: &mut FmuCache, logger: Arc<dyn FmuLogger>) -> Result<Master, MasterError> {
        Self::with_interface(system, fmus, logger, false)
    }

    /// As [`Master::new`], with every instance instantiated as Model Exchange (its states
    /// visible) for [`Master::linearize`]: [`Master::initialize`] then solves the coupling at
    /// the start as for a run. Not for stepping: `fmi2DoStep` is not a Model Exchange function.
    pub fn new_model_exchange(
        system: System,
        fmus: &mut FmuCache,
        logger: Arc<dyn FmuLogger>,
    ) -> Result<Master, MasterError> {
        Self::with_interface(system, fmus, logger, true)
    }

    fn with_interface(
        system: System,
        fmus: &mut FmuCache,
        logger: Arc<dyn FmuLogger>,
        model_exchange: bool,
    ) -> Result<Master, MasterError> {
        check_communication_points(&system.experiment)?;
        // From the model descriptions alone: what is not supported fails before any FMU loads.
        let plan = CouplingPlan::new(&system)?;
        let mut slaves = Vec::new();
        for inst in &system.instances {
            let setup = |message: String| MasterError::Setup { instance: inst.name.clone(), message };
            let slave = if model_exchange {
                // Linearisation reads states: in this process (isolated instances step only).
                fmus.open(&inst.path)
                    .and_then(|fmu| fmu.instantiate_model_exchange(&inst.name, logger.clone()))
                    .map(Instance::InProcess)
            } else {
                fmus.instantiate(inst, logger.clone())
            };
            slaves.push(slave.map_err(|e| setup(e.to_string()))?);
        }
        Self::build(system, plan, slaves)
    }

    /// The algebraic loops found, each as its `instance.variable` members.
    pub fn loops(&self) -> Vec<Vec<String>> {
        self.loops
            .iter()
            .map(|l| {
                l.nodes
                    .iter()
                    .map(|&p| self.units[self.nodes[p].unit].out_names[self.nodes[p].output].clone())
                    .collect()
            })
            .collect()
    }

    /// The components of the feedthrough graph in solution order, as `instance.variable` lists,
    /// with a flag for loops.
    pub fn components(&self) -> Vec<(Vec<String>, bool)> {
        self.components
            .iter()
            .map(|c| {
                let names = c
                    .nodes
                    .iter()
                    .map(|&p| self.units[self.nodes[p].unit].out_names[self.nodes[p].output].clone())
                    .collect();
                (names, c.is_loop)
            })
            .collect()
    }

    /// Warnings issued so far (also printed when they arise).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Names of the recorded variables, in column order.
    pub fn recorded_names(&self) -> &[String] {
        &self.recorded_names
    }

    /// Current communication point, s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Figures so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Why the last [`Master::run`] ended before the stop time, if it did (an FMU terminated the
    /// simulation); `None` after a run to the stop time.
    pub fn stop_reason(&self) -> Option<&str> {
        self.stop_reason.as_deref()
    }

    /// The run figures after [`Master::run`], given the wall-clock time it took.
    pub fn summary(&self, wall_seconds: f64) -> RunSummary {
        let exp = self.system.experiment;
        let points = self.stats.communication_points;
        RunSummary {
            steps: exp.steps(),
            communication_points: points,
            simulated_seconds: self.time - exp.start,
            wall_seconds,
            newton_iterations_mean: if points > 0 {
                self.stats.newton_iterations_total as f64 / points as f64
            } else {
                0.0
            },
            newton_iterations_max: self.stats.newton_iterations_max,
            max_residual: self.stats.max_residual,
            jacobian_updates: self.stats.jacobian_updates,
            rollbacks: self.stats.rollbacks,
            loops: self.loops(),
            warnings: self.warnings.clone(),
            stop_reason: self.stop_reason.clone(),
        }
    }

    fn warn(&mut self, message: String) {
        eprintln!("warning: {message}");
        self.warnings.push(message);
    }

    /// Initialization: setup, initialization mode with every loop solved by full Newton, exit.
    pub fn initialize(&mut self) -> Result<(), MasterError> {
        let exp = self.system.experiment;
        for unit in &mut self.units {
            unit.slave.setup_experiment(None, exp.start, Some(exp.stop))?;
        }
        self.time = exp.start;
        // Inputs start at their FMU start values until the coupling sets them; read nothing yet.
        for unit in &mut self.units {
            unit.slave.enter_initialization_mode()?;
        }
        for unit in &mut self.units {
            if !unit.in_vrs.is_empty() {
                unit.slave.get_real(&unit.in_vrs, &mut unit.in_values)?;
            }
        }
        self.discrete.exchange(&mut self.units)?;
        self.solve_coupling(Phase::Initialization)?;
        for unit in &mut self.units {
            unit.flush()?;
            unit.slave.exit_initialization_mode()?;
            unit.in_old.copy_from_slice(&unit.in_values);
        }
        if self.can_roll_back && self.system.master.algorithm == Algorithm::Newton {
            for unit in &mut self.units {
                unit.state = Some(unit.slave.get_fmu_state()?);
            }
        }
        for unit in &mut self.units {
            unit.read_outputs()?;
        }
        self.check_finite()?;
        Ok(())
    }

    /// Sets the external input signals at the current time.
    fn apply_signals(&mut self) {
        for (u, j, signal) in &self.externals {
            let value = signal.value(self.time);
            self.units[*u].set_input(*j, value);
        }
    }

    fn check_finite(&self) -> Result<(), MasterError> {
        for unit in &self.units {
            for (k, &y) in unit.out_pred.iter().enumerate() {
                if !y.is_finite() {
                    return Err(MasterError::NonFinite {
                        variable: unit.out_names[k].clone(),
                        value: y,
                        time: self.time,
                    });
                }
            }
        }
        Ok(())
    }

    /// Advances all FMUs from the current communication point by `h` and makes the coupling
    /// consistent at the new one; on failure with rollback available, retries as two halves.
    pub fn step(&mut self, h: f64) -> Result<(), MasterError> {
        match self.system.master.algorithm {
            Algorithm::Jacobi => self.step_jacobi(h),
            Algorithm::GaussSeidel => self.step_gauss_seidel(h),
            Algorithm::Newton => self.step_newton(h),
        }
    }

    fn save(&mut self) -> Result<(), MasterError> {
        self.for_units(Task::Save, Units::All)
    }

    fn restore(&mut self, t: f64) -> Result<(), MasterError> {
        for unit in &mut self.units {
            if let Some(state) = unit.state.as_ref() {
                unit.slave.set_fmu_state(state)?;
            }
            for (now, saved) in
                [&mut unit.in_values, &mut unit.in_old, &mut unit.in_older].into_iter().zip(&unit.in_saved)
            {
                now.copy_from_slice(saved);
            }
            // The restored FMU holds the inputs it had when saved.
            unit.discard_pending();
            unit.outputs_changed();
        }
        self.time = t;
        Ok(())
    }

    fn step_newton(&mut self, h: f64) -> Result<(), MasterError> {
        let t = self.time;
        // Only a first step whose inputs some FMU extrapolates gains from being redone.
        let redo = self.step_starts[0].is_none()
            && self.can_roll_back
            && self.system.master.extrapolate_inputs
            && self.units.iter().any(|u| u.can_interpolate && !u.in_vrs.is_empty());
        if self.can_roll_back {
            self.save()?;
        }
        match self.attempt(t, h) {
            Ok(()) if redo => self.redo_first_step(t, h),
            Ok(()) => Ok(()),
            Err(e) => {
                let retry = self.can_roll_back && h / 2.0 >= self.system.master.min_step;
                let recoverable = matches!(e, MasterError::LoopFailed { .. } | MasterError::StepDiscarded { .. });
                if !(retry && recoverable) {
                    return Err(match e {
                        MasterError::StepDiscarded { instance, time, step, .. } => MasterError::StepDiscarded {
                            instance,
                            time,
                            step,
                            hint: if self.can_roll_back {
                                format!(
                                    " and halving down to min_step = {} s did not help",
                                    self.system.master.min_step
                                )
                            } else {
                                ": rollback is off or not every FMU can get and set its state, so the step cannot be retried"
                                    .into()
                            },
                        },
                        other => other,
                    });
                }
                self.restore(t)?;
                self.stats.rollbacks += 1;
                self.step_newton(h / 2.0)?;
                self.step_newton(t + h - self.time)
            }
        }
    }

    /// The first step has no input history to extrapolate from, so it ran on held inputs (a
    /// local error of second order instead of third or fourth): it is redone once, from the
    /// saved states, with the slopes towards the consistent inputs it found at its end.
    fn redo_first_step(&mut self, t: f64, h: f64) -> Result<(), MasterError> {
        for unit in &mut self.units {
            unit.in_next.copy_from_slice(&unit.in_values);
        }
        self.restore(t)?;
        self.step_starts = [None; 2];
        self.forward_slopes_over = Some(h);
        let result = self.attempt(t, h);
        self.forward_slopes_over = None;
        result
    }

    /// One coupled step without retry.
    fn attempt(&mut self, t: f64, h: f64) -> Result<(), MasterError> {
        self.do_steps(t, h)?;
        self.time = t + h;
        self.read_predictions()?;
        self.discrete.exchange(&mut self.units)?;
        let iterations = self.solve_coupling(Phase::Stepping)?;
        // Outputs of get-after-set FMUs not read during the coupling (recorded ones, say).
        self.for_units(Task::Read(Phase::Stepping), Units::All)?;
        self.check_finite()?;
        self.step_starts = [Some(t), self.step_starts[0]];
        self.stats.communication_points += 1;
        self.stats.newton_iterations_total += iterations;
        self.stats.newton_iterations_max = self.stats.newton_iterations_max.max(iterations);
        Ok(())
    }

    /// Steps every unit with the inputs now set (extrapolated if asked and supported).
    fn do_steps(&mut self, t: f64, h: f64) -> Result<(), MasterError> {
        let extrapolate = self.system.master.extrapolate_inputs;
        if extrapolate {
            for u in 0..self.units.len() {
                self.input_derivatives(u, t);
            }
        }
        self.for_units(Task::Step { t, h, extrapolate }, Units::All)
    }

    fn step_unit(&mut self, u: usize, t: f64, h: f64, extrapolate: bool) -> Result<(), MasterError> {
        if extrapolate {
            self.input_derivatives(u, t);
        }
        self.units[u].step(t, h, extrapolate)
    }

    /// Fills `derivative_values` of unit `u` for a step from `t` when it extrapolates its inputs.
    fn input_derivatives(&mut self, u: usize, t: f64) {
        let unit = &mut self.units[u];
        if !unit.extrapolates(true) {
            return;
        }
        let n_in = unit.in_vrs.len();
        let quadratic = self.system.master.extrapolation_order == 2;
        // Derivatives at t of the polynomial through the inputs at the last two (linear) or
        // three (quadratic) communication points, by divided differences.
        let h1 = self.step_starts[0].map_or(0.0, |t1| t - t1);
        let h0 = match self.step_starts {
            [Some(t1), Some(t0)] if quadratic => t1 - t0,
            _ => 0.0,
        };
        let (first, second) = unit.derivative_values.split_at_mut(n_in);
        for j in 0..n_in {
            let s1 = match self.forward_slopes_over {
                Some(h) => (unit.in_next[j] - unit.in_values[j]) / h,
                None if h1 > 0.0 => (unit.in_values[j] - unit.in_old[j]) / h1,
                None => 0.0,
            };
            first[j] = s1;
            if quadratic {
                let curvature =
                    if h0 > 0.0 { (s1 - (unit.in_old[j] - unit.in_older[j]) / h0) / (h0 + h1) } else { 0.0 };
                first[j] += curvature * h1;
                second[j] = 2.0 * curvature;
            }
        }
        // External signals are known functions of time: use their own derivatives (a step
        // then stays a step instead of becoming a one-step ramp).
        for (external_unit, j, signal) in &self.externals {
            if *external_unit == u {
                first[*j] = signal.derivative(t);
                if quadratic {
                    second[*j] = signal.second_derivative(t);
                }
            }
        }
    }

    /// Reads the outputs of standard FMUs right after their step and linearises them.
    /// Get-after-set FMUs are read when the coupling needs their outputs, at the new inputs.
    fn read_predictions(&mut self) -> Result<(), MasterError> {
        self.for_units(Task::Predict, Units::All)?;
        self.check_finite()
    }

    /// Jacobi: every FMU steps with the inputs of the last point; then all outputs are
    /// passed on. Loops see a one-step delay.
    fn step_jacobi(&mut self, h: f64) -> Result<(), MasterError> {
        let t = self.time;
        self.do_steps(t, h)?;
        self.time = t + h;
        self.step_starts = [Some(t), self.step_starts[0]];
        for unit in &mut self.units {
            unit.read_outputs()?;
        }
        self.check_finite()?;
        for p in 0..self.nodes.len() {
            self.nodes[p].value = self.units[self.nodes[p].unit].out_pred[self.nodes[p].output];
            self.propagate(p);
        }
        self.discrete.exchange(&mut self.units)?;
        self.apply_signals();
        self.stats.communication_points += 1;
        Ok(())
    }

    /// Gauss-Seidel: FMUs step one after another in topological order, each with the newest
    /// outputs of those stepped before it. Backward edges of loops see a one-step delay.
    fn step_gauss_seidel(&mut self, h: f64) -> Result<(), MasterError> {
        let t = self.time;
        for n in 0..self.gauss_seidel_order.len() {
            let u = self.gauss_seidel_order[n];
            self.step_unit(u, t, h, self.system.master.extrapolate_inputs)?;
            self.units[u].read_outputs()?;
            for p in 0..self.nodes.len() {
                if self.nodes[p].unit == u {
                    self.nodes[p].value = self.units[u].out_pred[self.nodes[p].output];
                    self.propagate(p);
                }
            }
        }
        self.time = t + h;
        self.step_starts = [Some(t), self.step_starts[0]];
        self.check_finite()?;
        self.discrete.exchange(&mut self.units)?;
        self.apply_signals();
        self.stats.communication_points += 1;
        Ok(())
    }

    /// Writes the recorded variables at the current communication point into `row` (one value
    /// per [`Master::recorded_names`]).
    pub fn record(&mut self, row: &mut [f64]) -> Result<(), MasterError> {
        for unit in &mut self.units {
            // Get-after-set FMUs: read the outputs again if inputs changed since the last read.
            if unit.get_after_set && !unit.out_fresh {
                unit.read_outputs()?;
            }
        }
        for (value, r) in row.iter_mut().zip(&self.recorded) {
            *value = match *r {
                Recorded::Output(u, k) => self.units[u].output(k, Phase::Stepping)?,
                Recorded::Input(u, j) => self.units[u].in_values[j],
                Recorded::Discrete(slot) => self.discrete.value(slot),
            };
        }
        Ok(())
    }

    /// Replaces the signal of external input `k` (the `k`-th entry of the system's `inputs`, patterns
    /// expanded). Before [`Master::initialize`] it is used from the start; afterwards it applies
    /// from the next coupling solved: [`Master::resolve_coupling`] or the next step.
    pub fn set_external_signal(&mut self, k: usize, signal: Signal) {
        self.externals[k].2 = signal;
    }

    /// Solves the coupling again at the current communication point, after external signals
    /// changed there ([`Master::set_external_signal`]). Newton only: the explicit schemes
    /// (`jacobi`, `gauss-seidel`) take new inputs at the next step.
    pub fn resolve_coupling(&mut self) -> Result<(), MasterError> {
        if self.system.master.algorithm != Algorithm::Newton {
            return Ok(());
        }
        self.solve_coupling(Phase::Stepping)?;
        for unit in &mut self.units {
            if unit.get_after_set && !unit.out_fresh {
                unit.read_outputs()?;
            }
        }
        self.check_finite()
    }

    /// Makes [`Master::run`] and [`Master::run_into`] record only every `n`-th communication
    /// point (and the last one): for long runs whose every point is not needed. `n` ≥ 1.
    pub fn set_record_every(&mut self, n: usize) {
        self.record_every = n.max(1);
    }

    /// Terminates every FMU (`fmi2Terminate`), as the end of [`Master::run`] does.
    pub fn terminate(&mut self) -> Result<(), MasterError> {
        for unit in &mut self.units {
            unit.slave.terminate()?;
        }
        Ok(())
    }

    /// Runs the experiment: initialization, then macro steps to the stop time, recording at
    /// every communication point. `progress` is called with the time after each step.
    ///
    /// An FMU that terminates the simulation (see [`MasterError::Terminated`]) ends the run
    /// cleanly at the last completed communication point: the results up to it are returned,
    /// every FMU is terminated, and [`Master::stop_reason`] says why.
    pub fn run(&mut self, mut progress: impl FnMut(f64)) -> Result<Results, MasterError> {
        let mut results = Results::new(self.recorded_names.clone(), 0);
        let mut first = true;
        self.run_into(&mut results, |t, _| {
            if !std::mem::take(&mut first) {
                progress(t);
            }
        })?;
        Ok(results)
    }

    /// [`Master::run`] into `results` (emptied first), calling `on_row` with each recorded row
    /// right after it is appended, the initial one included. When the run fails, `results` keeps
    /// the rows recorded before the failure. The run also stops, with
    /// [`MasterError::Interrupted`], when SIGINT or SIGTERM set the flag of
    /// [`crate::import::process::interrupt_requested`] (checked before every step).
    pub fn run_into(&mut self, results: &mut Results, mut on_row: impl FnMut(f64, &[f64])) -> Result<(), MasterError> {
        let exp = self.system.experiment;
        check_communication_points(&exp)?;
        self.stop_reason = None;
        let n_steps = exp.steps();
        *results = Results::new(self.recorded_names.clone(), n_steps.min(RESULT_ROWS_RESERVED) + 1);
        self.initialize()?;
        let mut row = vec![0.0; self.recorded.len()];
        self.record(&mut row)?;
        results.push(self.time, &row);
        on_row(self.time, &row);
        let mut recorded_at = self.time;
        for n in 1..=n_steps {
            if let Some(signal) = crate::import::process::interrupt_requested() {
                let signal = crate::import::process::signal_name(signal);
                return Err(MasterError::Interrupted { signal, time: self.time });
            }
            let target = if n == n_steps { exp.stop } else { exp.start + n as f64 * exp.step };
            match self.step(target - self.time) {
                Ok(()) => {}
                Err(e @ MasterError::Terminated { .. }) => {
                    let reason = e.to_string();
                    eprintln!("{reason}; the run ends at t = {} s, the last communication point", self.time);
                    self.stop_reason = Some(reason);
                    break;
                }
                Err(e) => return Err(e),
            }
            if n % self.record_every == 0 || n == n_steps {
                self.record(&mut row)?;
                results.push(self.time, &row);
                on_row(self.time, &row);
                recorded_at = self.time;
            }
        }
        // A run ended early by an FMU keeps its last point.
        if recorded_at != self.time {
            self.record(&mut row)?;
            results.push(self.time, &row);
            on_row(self.time, &row);
        }
        self.terminate()
    }
}
