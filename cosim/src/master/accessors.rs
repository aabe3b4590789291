//! What a [`Master`] reports: its loops and components, warnings, recorded names, time,
//! figures and run summary.

use super::{Master, RunSummary, Stats};

impl Master {
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
            delayed_loops: self.loops.iter().filter(|l| l.warned_delay).map(|l| l.members.clone()).collect(),
            stop_reason: self.stop_reason.clone(),
        }
    }

    /// Prints `message` as a warning and keeps it for [`Master::warnings`].
    pub(super) fn warn(&mut self, message: String) {
        eprintln!("warning: {message}");
        self.warnings.push(message);
    }
}
