//! What a [`Master`] reports: its loops and components, warnings, recorded names, time,
//! figures and run summary.

use super::ids::{OutputId, UnitId};
use super::{Master, RunSummary, Stats};

impl Master {
    /// The algebraic loops found, each as its `instance.variable` members.
    pub fn loops(&self) -> Vec<Vec<String>> {
        self.plan.loops()
    }

    /// The components of the feedthrough graph in solution order, as `instance.variable` lists,
    /// with a flag for loops.
    pub fn components(&self) -> Vec<(Vec<String>, bool)> {
        self.plan.components()
    }

    /// Warnings issued so far (also printed when they arise).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Names of the recorded variables, in column order.
    pub fn recorded_names(&self) -> &[String] {
        self.plan.recorded_names()
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

    /// Instances that do not compute their outputs in initialization mode, found by the last
    /// [`Master::run`]: FMUs without get-after-set whose outputs connected to another FMU were
    /// all 0 after initialization and not all 0 after the first step. They compute them in
    /// `fmi2DoStep` only, so the run's first step used 0 for them (for an aerodynamics FMU, a
    /// step without loads). FMI 2.0 wants `calculated` outputs (the default) consistent with
    /// the inputs in initialization mode.
    pub fn uninitialized_outputs(&self) -> &[String] {
        &self.uninitialized_outputs
    }

    /// The run figures after [`Master::run`], given the wall-clock time it took.
    pub fn summary(&self, wall_seconds: f64) -> RunSummary {
        let exp = self.system.experiment;
        let points = self.stats.communication_points;
        RunSummary {
            steps: self.stats.steps,
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
            delayed_loops: (self.plan.loops.iter().zip(&self.loops))
                .filter(|(_, solver)| solver.warned_delay)
                .map(|(l, _)| l.members.clone())
                .collect(),
            stop_reason: self.stop_reason.clone(),
            uninitialized_outputs: self.uninitialized_outputs.clone(),
        }
    }

    /// Units without get-after-set that have outputs connected to another unit, all of them 0
    /// as last read.
    pub(super) fn units_with_zero_connected_outputs(&self) -> Vec<UnitId> {
        (0..self.units.len())
            .map(UnitId)
            .filter(|&u| !self.plan.units[u].get_after_set)
            .filter(|&u| {
                let mut connected = self.connected_outputs(u).peekable();
                connected.peek().is_some() && connected.all(|k| self.units[u].out_pred[k] == 0.0)
            })
            .collect()
    }

    /// The names of those of `units` with an output connected to another unit not 0 as last read.
    pub(super) fn nonzero_connected_outputs(&self, units: &[UnitId]) -> Vec<String> {
        units
            .iter()
            .filter(|&&u| self.connected_outputs(u).any(|k| self.units[u].out_pred[k] != 0.0))
            .map(|&u| self.plan.units[u].name.clone())
            .collect()
    }

    /// The outputs of unit `u` that drive an input of another unit.
    fn connected_outputs(&self, u: UnitId) -> impl Iterator<Item = OutputId> + '_ {
        self.plan
            .nodes
            .iter()
            .filter(move |n| n.source.unit == u && n.targets.iter().any(|target| target.unit != u))
            .map(|n| n.source.output)
    }

    /// Logs `message` as a warning and keeps it for [`Master::warnings`].
    pub(super) fn warn(&mut self, message: String) {
        log::warn!("{message}");
        self.warnings.push(message);
    }
}
