//! Running a [`Master`]: initialization, recording, external signals, and the run loop to the
//! stop time ([`Master::run`], [`Master::run_into`]).

use super::unit::Phase;
use super::{Master, MasterError, Recorded, Results, check_communication_points};
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
