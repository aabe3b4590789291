//! The explicit coupling schemes `jacobi` and `gauss-seidel`, kept for comparison: loops see a
//! one-step delay.

use super::ids::{NodeId, UnitId};
use super::{Master, MasterError};

impl Master {
    /// Jacobi: every FMU steps with the inputs of the last point; then all outputs are
    /// passed on. Loops see a one-step delay.
    pub(super) fn step_jacobi(&mut self, h: f64) -> Result<(), MasterError> {
        let t = self.time;
        self.do_steps(t, h)?;
        self.time = self.land(t + h);
        self.step_starts = [Some(t), self.step_starts[0]];
        for unit in &mut self.units {
            unit.read_outputs()?;
        }
        self.check_finite()?;
        for p in (0..self.plan.nodes.len()).map(NodeId) {
            let source = self.plan.nodes[p].source;
            self.node_values[p] = self.units[source.unit].out_pred[source.output];
            self.propagate(p);
        }
        self.discrete.exchange(&self.plan.discrete, &mut self.units)?;
        self.apply_signals();
        self.stats.communication_points += 1;
        Ok(())
    }

    /// Gauss-Seidel: FMUs step one after another in topological order, each with the newest
    /// outputs of those stepped before it. Backward edges of loops see a one-step delay.
    pub(super) fn step_gauss_seidel(&mut self, h: f64) -> Result<(), MasterError> {
        let t = self.time;
        for n in 0..self.plan.gauss_seidel_order.len() {
            let u = self.plan.gauss_seidel_order[n];
            self.step_unit(u, t, h, self.system.master.extrapolate_inputs)?;
            self.units[u].read_outputs()?;
            for p in (0..self.plan.nodes.len()).map(NodeId) {
                let source = self.plan.nodes[p].source;
                if source.unit == u {
                    self.node_values[p] = self.units[u].out_pred[source.output];
                    self.propagate(p);
                }
            }
        }
        self.time = self.land(t + h);
        self.step_starts = [Some(t), self.step_starts[0]];
        self.check_finite()?;
        self.discrete.exchange(&self.plan.discrete, &mut self.units)?;
        self.apply_signals();
        self.stats.communication_points += 1;
        Ok(())
    }

    /// Steps unit `u` alone from `t` by `h`, s, with its input derivatives if it extrapolates.
    fn step_unit(&mut self, u: UnitId, t: f64, h: f64, extrapolate: bool) -> Result<(), MasterError> {
        if extrapolate {
            self.input_derivatives(u, t);
        }
        self.units[u].step(t, h, extrapolate)
    }

    /// Sets the external input signals at the current time.
    pub(super) fn apply_signals(&mut self) {
        for (to, signal) in self.plan.externals.iter().zip(&self.signals) {
            let value = signal.value(self.time);
            self.units[to.unit].set_input(to.input, value);
        }
    }
}
