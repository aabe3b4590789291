//! What the caller runs around every macro step of [`super::Master::run_with`]
//! ([`super::Master::set_step_hook`]): pacing the run to a wall clock, or inputs that arrive while
//! it runs. The master prints nothing and knows no clock; the hook does what it needs.

use crate::system::Signal;

/// Called by [`super::Master::run_with`] around each macro step of the experiment's grid.
pub trait StepHook: Send {
    /// Before the step from the communication point `time` to `target`, s. `signals` are the
    /// external inputs' signals, indexed as for [`super::Master::set_external_signal`] (the
    /// system's `inputs`, patterns expanded). Returns whether it replaced any: the master then
    /// solves the coupling at `time` again ([`super::Master::resolve_coupling`]), so that the
    /// new signals drive this step.
    fn before_step(&mut self, time: f64, target: f64, signals: &mut [Signal]) -> bool;

    /// After the step reached the communication point `time`, s, before it is recorded.
    fn after_step(&mut self, time: f64);
}
