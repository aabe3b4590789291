//! The explicit coupling schemes `jacobi` and `gauss-seidel`, kept for comparison: loops see a
//! one-step delay.

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
    pub(super) fn step_gauss_seidel(&mut self, h: f64) -> Result<(), MasterError> {
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
        self.time = self.land(t + h);
        self.step_starts = [Some(t), self.step_starts[0]];
        self.check_finite()?;
        self.discrete.exchange(&mut self.units)?;
        self.apply_signals();
        self.stats.communication_points += 1;
        Ok(())
    }

    /// Steps unit `u` alone from `t` by `h`, s, with its input derivatives if it extrapolates.
    fn step_unit(&mut self, u: usize, t: f64, h: f64, extrapolate: bool) -> Result<(), MasterError> {
        if extrapolate {
            self.input_derivatives(u, t);
        }
        self.units[u].step(t, h, extrapolate)
    }

    /// Sets the external input signals at the current time.
    pub(super) fn apply_signals(&mut self) {
        for (u, j, signal) in &self.externals {
            let value = signal.value(self.time);
            self.units[*u].set_input(*j, value);
        }
    }
}
