//! Why a run stops, and the limit on the number of communication points.

#[cfg(doc)]
use super::{Master, RunSummary};
use crate::import::CallError;

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum MasterError {
    /// Opening or instantiating an FMU failed.
    #[error("{instance}: {message}")]
    Setup {
        /// Instance name.
        instance: String,
        /// What went wrong.
        message: String,
    },
    /// An FMI call failed.
    #[error(transparent)]
    Call(#[from] CallError),
    /// An algebraic loop could not be solved.
    #[error(
        "algebraic loop {{{members}}} did not converge at t = {time} s: {reason} (residual max-norm {residual:e} after {iterations} Newton iterations)"
    )]
    LoopFailed {
        /// The loop's variables, `instance.variable`.
        members: String,
        /// Communication point, s.
        time: f64,
        /// Why: diverged, iteration limit, singular matrix, non-finite values.
        reason: String,
        /// Residual max-norm at the end.
        residual: f64,
        /// Iterations made.
        iterations: usize,
    },
    /// An FMU could not complete a step and the step could not be retried smaller.
    #[error("{instance}: fmi2DoStep from t = {time} s with h = {step} s was discarded{hint}")]
    StepDiscarded {
        /// Instance name.
        instance: String,
        /// Step start, s.
        time: f64,
        /// Step size, s.
        step: f64,
        /// Why no retry was possible.
        hint: String,
    },
    /// An FMU returned a NaN or infinite output.
    #[error("{variable} is {value} at t = {time} s")]
    NonFinite {
        /// `instance.variable`.
        variable: String,
        /// The value.
        value: f64,
        /// Time, s.
        time: f64,
    },
    /// The system uses something the master does not support.
    #[error("{0}")]
    Unsupported(String),
    /// An FMU ended the simulation itself: `fmi2DoStep` returned `fmi2Discard` and
    /// `fmi2GetBooleanStatus(fmi2Terminated)` is true (FMI 2.0 section 4.2.3). [`Master::run`]
    /// turns this into a clean end of the run (see [`RunSummary::stop_reason`]); only
    /// [`Master::step`] returns it.
    #[error("instance '{instance}' terminated the simulation at t = {time} s")]
    Terminated {
        /// Instance name.
        instance: String,
        /// Its last successful time (`fmi2LastSuccessfulTime`; the step's start if it does not
        /// say), s.
        time: f64,
    },
    /// The master's [`super::Interrupt`] asked the run to stop (in the orchestrator: SIGINT or
    /// SIGTERM, [`crate::import::process::install_interrupt_flag`]); [`Master::run`] asks before
    /// every step.
    #[error("interrupted by {signal} at t = {time} s")]
    Interrupted {
        /// What asked for the stop: `SIGINT` or `SIGTERM` in the orchestrator.
        signal: &'static str,
        /// The last communication point completed, s.
        time: f64,
    },
    /// The experiment has more communication points than [`MAX_COMMUNICATION_POINTS`].
    #[error(
        "experiment: (stop - start) / step = ({stop:?} - {start:?}) / {step:?} = {points:e} communication points, more \
         than the limit of {limit:e}; use a larger step or a shorter interval"
    )]
    TooManyPoints {
        /// `experiment.start`, s.
        start: f64,
        /// `experiment.stop`, s.
        stop: f64,
        /// `experiment.step`, s.
        step: f64,
        /// `(stop - start) / step`.
        points: f64,
        /// [`MAX_COMMUNICATION_POINTS`].
        limit: f64,
    },
}

/// Most communication points (macro steps) a run may have: 10^9. More is refused up front by
/// [`Master::new`] and [`Master::run`], before any work or allocation, so a mistyped step
/// (`stop / step = 1e13`, `1e300 / 1e-300`) is an error instead of an allocation failure or a
/// run that never ends. Results are recorded as the run goes (no allocation for all points in
/// advance), so memory grows only with the points actually reached.
pub const MAX_COMMUNICATION_POINTS: f64 = 1e9;

/// Refuses an experiment with more than [`MAX_COMMUNICATION_POINTS`] (or a non-finite count).
pub fn check_communication_points(experiment: &crate::system::Experiment) -> Result<(), MasterError> {
    let (start, stop, step) = (experiment.start, experiment.stop, experiment.step);
    let points = (stop - start) / step;
    // Written so that NaN fails too.
    if points <= MAX_COMMUNICATION_POINTS {
        Ok(())
    } else {
        Err(MasterError::TooManyPoints { start, stop, step, points, limit: MAX_COMMUNICATION_POINTS })
    }
}
