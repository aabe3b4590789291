//! The coupling at one communication point: the connected outputs (nodes of the feedthrough
//! graph) in solution order, each algebraic loop solved by [`super::newton::solve`] with the
//! master's [`LoopProblem`] (FMI calls, directional derivatives).

use super::ids::{LoopId, NodeId};
use super::newton::{self, LoopBuffers, LoopProblem, MatrixUpdate, SolveError};
use super::parallel::{Pool, Task, Units};
use super::plan::{LoopPlan, Node, Solve};
use super::unit::{Phase, Unit};
use super::{Master, MasterError};
use crate::system::JacobianUpdate;

/// The run data of one algebraic loop ([`LoopPlan`]): the Newton solver's buffers.
pub(super) struct LoopSolver {
    pub(super) newton: LoopBuffers,
    pub(super) scratch: ColumnScratch,
    pub(super) warned_delay: bool,
    /// The loop's nodes hold its last converged solution (a warm start for the next point).
    pub(super) warm: bool,
}

/// Jacobian-column scratch of a loop: loop rows, their slopes, finite-difference base values.
#[derive(Default)]
pub(super) struct ColumnScratch {
    pub(super) rows: Vec<usize>,
    pub(super) slope: Vec<f64>,
    pub(super) base: Vec<f64>,
    pub(super) unknown_vrs: Vec<u32>,
}

/// One loop at one communication point, as the Newton solver sees it: `g(z)` sets the loop's
/// inputs from `z` and reads the outputs; the Newton matrix comes from directional derivatives.
struct MasterLoop<'a> {
    phase: Phase,
    plan: &'a LoopPlan,
    nodes: &'a [Node],
    scratch: &'a mut ColumnScratch,
    node_values: &'a mut [f64],
    #[allow(clippy::vec_box, reason = "a unit is handed to a worker thread as its box")]
    units: &'a mut Vec<Box<Unit>>,
    pool: &'a mut Pool,
}

/// Sets the inputs that node `p` of `nodes` drives to its value.
pub(super) fn propagate(nodes: &[Node], node_values: &[f64], units: &mut [Box<Unit>], p: NodeId) {
    let value = node_values[p];
    for target in &nodes[p].targets {
        units[target.unit].set_input(target.input, value);
    }
}

impl LoopProblem for MasterLoop<'_> {
    type Error = MasterError;

    fn evaluate(&mut self, z: &[f64], g: &mut [f64]) -> Result<(), MasterError> {
        for (&p, &value) in self.plan.nodes.iter().zip(z) {
            self.node_values[p] = value;
            propagate(self.nodes, self.node_values, self.units, p);
        }
        // Every loop input is set: the units evaluate their outputs, in parallel where it pays.
        self.pool.for_units(Task::Read(self.phase), Some(&self.plan.units), self.units)?;
        for (&p, g) in self.plan.nodes.iter().zip(g) {
            let source = self.nodes[p].source;
            *g = self.units[source.unit].output(source.output, self.phase)?;
        }
        Ok(())
    }

    fn newton_matrix(&mut self, a: &mut [f64]) -> Result<(), MasterError> {
        let m = self.plan.nodes.len();
        a.iter_mut().for_each(|x| *x = 0.0);
        for i in 0..m {
            a[i * m + i] = 1.0;
        }
        let scratch = &mut *self.scratch;
        for input in &self.plan.inputs {
            let (j, column) = (input.input.input, input.driver);
            // Loop outputs of the input's unit that depend on it.
            let unit = &mut self.units[input.input.unit];
            scratch.unknown_vrs.clear();
            scratch.rows.clear();
            for (i, &p) in self.plan.nodes.iter().enumerate() {
                let source = self.nodes[p].source;
                if source.unit == input.input.unit && unit.plan.feed_by_output[source.output].contains(&j) {
                    if unit.exact(self.phase) {
                        scratch.unknown_vrs.push(unit.plan.out_vrs[source.output]);
                        scratch.rows.push(i);
                    } else {
                        // Standard FMU: the slope of its linear model.
                        a[i * m + column] -= unit.d[unit.d_index(source.output, j)];
                    }
                }
            }
            let rows = scratch.rows.len();
            if rows == 0 {
                continue;
            }
            scratch.slope.resize(rows, 0.0);
            unit.flush()?;
            let input_vr = [unit.plan.in_vrs[j]];
            if unit.plan.provides_dd {
                unit.slave.get_directional_derivative(&scratch.unknown_vrs, &input_vr, &[1.0], &mut scratch.slope)?;
            } else {
                // Finite differences: allowed because outputs may be read after a set here.
                let u0 = unit.in_values[j];
                let delta = 1e-7 * (1.0 + u0.abs());
                scratch.base.resize(rows, 0.0);
                unit.slave.get_real(&scratch.unknown_vrs, &mut scratch.base)?;
                unit.slave.set_real(&input_vr, &[u0 + delta])?;
                unit.slave.get_real(&scratch.unknown_vrs, &mut scratch.slope)?;
                unit.slave.set_real(&input_vr, &[u0])?;
                for (s, b) in scratch.slope.iter_mut().zip(&scratch.base) {
                    *s = (*s - b) / delta;
                }
            }
            for n in 0..rows {
                a[scratch.rows[n] * m + column] -= scratch.slope[n];
            }
        }
        Ok(())
    }
}

impl Master {
    /// Makes inputs and outputs consistent at the current communication point.
    pub(super) fn solve_coupling(&mut self, phase: Phase) -> Result<usize, MasterError> {
        self.apply_signals();
        let mut iterations = 0;
        for c in 0..self.plan.order.len() {
            match self.plan.order[c] {
                Solve::Loop(l) => iterations += self.solve_loop(l, phase)?,
                Solve::Output(p) => {
                    let source = self.plan.nodes[p].source;
                    self.node_values[p] = self.units[source.unit].output(source.output, phase)?;
                    self.propagate(p);
                }
            }
        }
        Ok(iterations)
    }

    /// Sets the inputs that node `p` drives to its value.
    pub(super) fn propagate(&mut self, p: NodeId) {
        propagate(&self.plan.nodes, &self.node_values, &mut self.units, p);
    }

    /// Newton on `r(z) = z - g(z)` over the loop's outputs `z` ([`newton::solve`]).
    fn solve_loop(&mut self, l: LoopId, phase: Phase) -> Result<usize, MasterError> {
        if phase == Phase::Stepping && self.loops[l].warm {
            // Start from the last solution (the loop inputs as they are now): its residual is
            // the first evaluation, where the outputs at the current inputs would cost one more.
            // (Extrapolating the last three solutions in time saved only 5 % of the iterations
            // of examples/helicopter.json.)
            for (z, &p) in self.loops[l].newton.z.iter_mut().zip(&self.plan.loops[l].nodes) {
                *z = self.node_values[p];
            }
        } else {
            // Start from the outputs as they are now.
            self.for_units(Task::Read(phase), Units::Loop(l))?;
            for (z, &p) in self.loops[l].newton.z.iter_mut().zip(&self.plan.loops[l].nodes) {
                let source = self.plan.nodes[p].source;
                *z = self.units[source.unit].output(source.output, phase)?;
            }
        }
        if phase == Phase::Stepping && !self.loops[l].warned_delay && !self.loop_has_jacobian(l) {
            self.loops[l].warned_delay = true;
            let members = self.plan.loops[l].members.clone();
            self.warn(format!(
                "loop {{{members}}}: an FMU without get-after-set provides no directional derivatives; \
                 it is coupled with a one-step delay"
            ));
        }
        let settings = newton::Settings {
            tolerance: self.system.master.tolerance,
            max_iterations: self.system.master.max_iterations as usize,
            matrix: if phase == Phase::Initialization || self.system.master.jacobian == JacobianUpdate::EveryIteration {
                MatrixUpdate::EveryIteration
            } else {
                MatrixUpdate::WhenSlow
            },
        };
        let LoopSolver { newton, scratch, warm, .. } = &mut self.loops[l];
        let mut problem = MasterLoop {
            phase,
            plan: &self.plan.loops[l],
            nodes: &self.plan.nodes,
            scratch,
            node_values: &mut self.node_values,
            units: &mut self.units,
            pool: &mut self.pool,
        };
        match newton::solve(&mut problem, newton, &settings) {
            Ok(c) => {
                *warm = true;
                self.stats.max_residual = self.stats.max_residual.max(c.residual);
                self.stats.jacobian_updates += c.matrix_updates;
                Ok(c.iterations)
            }
            Err(SolveError::Problem(e)) => Err(e),
            Err(SolveError::Unsolved(u)) => {
                *warm = false;
                self.stats.jacobian_updates += u.matrix_updates;
                Err(MasterError::LoopFailed {
                    members: self.plan.loops[l].members.clone(),
                    time: self.time,
                    reason: u.failure.to_string(),
                    residual: u.residual,
                    iterations: u.iterations,
                })
            }
        }
    }

    /// True when every FMU in the loop contributes a Jacobian in the stepping phase.
    pub(super) fn loop_has_jacobian(&self, l: LoopId) -> bool {
        self.plan.loops[l].inputs.iter().all(|input| {
            let unit = &self.plan.units[input.input.unit];
            unit.provides_dd || unit.get_after_set
        })
    }
}
