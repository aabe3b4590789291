//! Running a [`Master`]: initialization, recording, external signals, and the run loop to the
//! stop time ([`Master::run`], [`Master::run_into`]).

use super::unit::Phase;
use super::{Interrupt, Master, MasterError, Recorded, Results, StepHook, check_communication_points};
use crate::import::CallErrorKind;
use crate::system::{Algorithm, Signal};

/// Initial room reserved for recorded rows; beyond it the results grow as the run goes.
const RESULT_ROWS_RESERVED: usize = 1 << 12;

impl Master {
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
            if !unit.plan.in_vrs.is_empty() {
                unit.slave.get_real(&unit.plan.in_vrs, &mut unit.in_values)?;
            }
        }
        self.discrete.exchange(&self.plan.discrete, &mut self.units)?;
        self.solve_coupling(Phase::Initialization)?;
        for unit in &mut self.units {
            unit.flush()?;
            unit.slave.exit_initialization_mode()?;
            unit.in_old.copy_from_slice(&unit.in_values);
        }
        if self.plan.can_roll_back && self.system.master.algorithm == Algorithm::Newton {
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

    /// Writes the recorded variables at the current communication point into `row` (one value
    /// per [`Master::recorded_names`]).
    pub fn record(&mut self, row: &mut [f64]) -> Result<(), MasterError> {
        for unit in &mut self.units {
            // Get-after-set FMUs: read the outputs again if inputs changed since the last read.
            if unit.plan.get_after_set && !unit.out_fresh {
                unit.read_outputs()?;
            }
        }
        for (value, r) in row.iter_mut().zip(&self.plan.recorded) {
            *value = match *r {
                Recorded::Output(y) => self.units[y.unit].output(y.output, Phase::Stepping)?,
                Recorded::Input(u) => self.units[u.unit].in_values[u.input],
                Recorded::Discrete(slot) => self.discrete.value(slot),
            };
        }
        Ok(())
    }

    /// Replaces the signal of external input `k` (the `k`-th entry of the system's `inputs`, patterns
    /// expanded). Before [`Master::initialize`] it is used from the start; afterwards it applies
    /// from the next coupling solved: [`Master::resolve_coupling`] or the next step.
    pub fn set_external_signal(&mut self, k: usize, signal: Signal) {
        self.signals[k] = signal;
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
            if unit.plan.get_after_set && !unit.out_fresh {
                unit.read_outputs()?;
            }
        }
        self.check_finite()
    }

    /// Makes [`Master::run_with`] (and so [`Master::run`] and [`Master::run_into`]) ask
    /// `interrupt` before every step, and end with [`MasterError::Interrupted`] at the last
    /// communication point completed when it asks for a stop. A new master has
    /// [`Interrupt::none`].
    pub fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt;
    }

    /// Makes [`Master::run_with`] (and so [`Master::run`] and [`Master::run_into`]) call `hook`
    /// before and after every macro step of the experiment's grid. A new master has none.
    pub fn set_step_hook(&mut self, hook: Box<dyn StepHook>) {
        self.step_hook = Some(hook);
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
        let mut results = Results::new(self.plan.recorded_names.clone(), 0);
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
    /// the rows recorded before the failure. See [`Master::run_with`].
    pub fn run_into(&mut self, results: &mut Results, mut on_row: impl FnMut(f64, &[f64])) -> Result<(), MasterError> {
        let n_steps = self.system.experiment.steps();
        *results = Results::new(self.plan.recorded_names.clone(), n_steps.min(RESULT_ROWS_RESERVED) + 1);
        self.run_with(|t, row| {
            results.push(t, row);
            on_row(t, row);
        })
    }

    /// Runs the experiment as [`Master::run`] does, handing each recorded row to `on_row` (the
    /// initial one included) without keeping it: the memory of a run whose rows are streamed
    /// to a file stays flat however long it is.
    ///
    /// Each macro step ends on the experiment's grid; a step that a `step` signal switches
    /// inside is cut there when every FMU can vary its step size
    /// (`canHandleVariableCommunicationStepSize`), so the signal switches at its exact time, as
    /// in FMPy. Only grid points are recorded. The run stops, with
    /// [`MasterError::Interrupted`], when the master's [`Interrupt`] asks for it (checked before
    /// every step; see [`Master::set_interrupt`]).
    pub fn run_with(&mut self, mut on_row: impl FnMut(f64, &[f64])) -> Result<(), MasterError> {
        let exp = self.system.experiment;
        check_communication_points(&exp)?;
        self.stop_reason = None;
        self.uninitialized_outputs.clear();
        self.stats.steps = 0;
        let n_steps = exp.steps();
        self.initialize()?;
        let mut row = vec![0.0; self.plan.recorded.len()];
        self.record(&mut row)?;
        on_row(self.time, &row);
        let zero_after_initialization = self.units_with_zero_connected_outputs();
        let mut recorded_at = self.time;
        for n in 1..=n_steps {
            if let Some(signal) = self.interrupt.requested() {
                return Err(MasterError::Interrupted { signal, time: self.time });
            }
            let target = if n == n_steps { exp.stop } else { exp.start + n as f64 * exp.step };
            let start = self.time;
            if let Some(hook) = &mut self.step_hook
                && hook.before_step(start, target, &mut self.signals)
            {
                self.resolve_coupling()?;
            }
            match self.step_to(target) {
                Ok(()) => self.stats.steps += 1,
                Err(MasterError::Terminated { instance, time }) => {
                    self.end_at_termination(start, &instance, time)?;
                    break;
                }
                Err(e) => return Err(interrupted_call(e, &self.interrupt, self.time)),
            }
            if let Some(hook) = &mut self.step_hook {
                hook.after_step(self.time);
            }
            if n == 1 {
                self.uninitialized_outputs = self.nonzero_connected_outputs(&zero_after_initialization);
            }
            if n % self.record_every == 0 || n == n_steps {
                self.record(&mut row)?;
                on_row(self.time, &row);
                recorded_at = self.time;
            }
        }
        // A run ended early by an FMU keeps its last point.
        if recorded_at != self.time {
            self.record(&mut row)?;
            on_row(self.time, &row);
        }
        self.terminate()
    }

    /// Steps from the current communication point to `target`, ending a step on each
    /// breakpoint of an external signal on the way when every FMU can vary its step size.
    fn step_to(&mut self, target: f64) -> Result<(), MasterError> {
        while let Some(breakpoint) = self.next_breakpoint(target) {
            self.landing = Some(breakpoint);
            let result = self.step(breakpoint - self.time);
            self.landing = None;
            result?;
        }
        self.step(target - self.time)
    }

    /// The first time strictly between the current time and `target` (by more than a
    /// billionth of the step) at which an external signal jumps (a `step` signal's switching
    /// time), if every FMU can handle a variable communication step size.
    fn next_breakpoint(&self, target: f64) -> Option<f64> {
        let margin = 1e-9 * self.system.experiment.step;
        let breakpoint = self
            .signals
            .iter()
            .filter_map(|signal| match *signal {
                Signal::Step { time, .. } if time > self.time + margin && time < target - margin => Some(time),
                _ => None,
            })
            .min_by(f64::total_cmp)?;
        let variable_steps = self
            .system
            .instances
            .iter()
            .all(|i| i.description.co_simulation.can_handle_variable_communication_step_size == Some(true));
        variable_steps.then_some(breakpoint)
    }

    /// An FMU (`instance`) terminated the simulation inside the step from `start`, at its last
    /// successful time `time` (FMI 2.0 section 4.2.3): the run ends there, as in FMPy. The
    /// outputs of every FMU are read once more, so that the last recorded row holds the
    /// terminated FMU's values at `time` (the others' at the end of the step they completed).
    fn end_at_termination(&mut self, start: f64, instance: &str, time: f64) -> Result<(), MasterError> {
        let reason = format!("instance '{instance}' terminated the simulation at t = {time} s");
        log::info!("{reason}; the run ends there");
        self.stop_reason = Some(reason);
        if time > start {
            self.time = time;
            self.stats.steps += 1;
            for unit in &mut self.units {
                unit.read_outputs()?;
            }
            self.discrete.read(&self.plan.discrete, &mut self.units)?;
        }
        Ok(())
    }
}

/// A call of an isolated instance killed because SIGINT or SIGTERM asked the run to stop
/// ([`CallErrorKind::Interrupted`]) ends the run as an interrupt at `time`, the last
/// communication point completed (after a line naming the call), when `interrupt` asks for the
/// stop; any other error as it is.
fn interrupted_call(error: MasterError, interrupt: &Interrupt, time: f64) -> MasterError {
    match (&error, interrupt.requested()) {
        (MasterError::Call(call), Some(signal)) if call.kind == CallErrorKind::Interrupted => {
            log::info!("{call}");
            MasterError::Interrupted { signal, time }
        }
        _ => error,
    }
}
