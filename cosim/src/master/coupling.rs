//! The coupling at one communication point: the connected outputs (nodes of the feedthrough
//! graph) in solution order, each algebraic loop solved by [`super::newton::solve`] with the
//! master's [`LoopProblem`] (FMI calls, directional derivatives).

use super::newton::{self, LoopBuffers, LoopProblem, MatrixUpdate, SolveError};
use super::parallel::{Pool, Task, Units};
use super::unit::{Phase, Unit};
use super::{Master, MasterError};
use crate::system::JacobianUpdate;

/// A connected output: a node of the feedthrough graph.
pub(super) struct Node {
    pub(super) unit: usize,
    pub(super) output: usize,
    /// Inputs it drives: (unit, input position).
    pub(super) targets: Vec<(usize, usize)>,
    pub(super) value: f64,
}

/// One algebraic loop: its nodes and inputs, and the Newton solver's buffers.
pub(super) struct LoopSolver {
    pub(super) nodes: Vec<usize>,
    /// Per loop input: (unit, input position, loop-local index of the node driving it).
    pub(super) inputs: Vec<(usize, usize, usize)>,
    pub(super) newton: LoopBuffers,
    pub(super) scratch: ColumnScratch,
    pub(super) members: String,
    /// The units owning the loop's outputs, in the order the nodes first name them.
    pub(super) units: Vec<usize>,
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
    loop_nodes: &'a [usize],
    inputs: &'a [(usize, usize, usize)],
    /// The units owning the loop's outputs.
    loop_units: &'a [usize],
    scratch: &'a mut ColumnScratch,
    nodes: &'a mut [Node],
    #[allow(clippy::vec_box, reason = "a unit is handed to a worker thread as its box")]
    units: &'a mut Vec<Box<Unit>>,
    pool: &'a mut Pool,
}

/// Sets the inputs that node `p` drives to its value.
pub(super) fn propagate(nodes: &[Node], units: &mut [Box<Unit>], p: usize) {
    let value = nodes[p].value;
    for &(v, j) in &nodes[p].targets {
        units[v].set_input(j, value);
    }
}

impl LoopProblem for MasterLoop<'_> {
    type Error = MasterError;

    fn evaluate(&mut self, z: &[f64], g: &mut [f64]) -> Result<(), MasterError> {
        for (&p, &value) in self.loop_nodes.iter().zip(z) {
            self.nodes[p].value = value;
            propagate(self.nodes, self.units, p);
        }
        // Every loop input is set: the units evaluate their outputs, in parallel where it pays.
        self.pool.for_units(Task::Read(self.phase), Some(self.loop_units), self.units)?;
        for (&p, g) in self.loop_nodes.iter().zip(g) {
            let (u, k) = (self.nodes[p].unit, self.nodes[p].output);
            *g = self.units[u].output(k, self.phase)?;
        }
        Ok(())
    }

    fn newton_matrix(&mut self, a: &mut [f64]) -> Result<(), MasterError> {
        let m = self.loop_nodes.len();
        a.iter_mut().for_each(|x| *x = 0.0);
        for i in 0..m {
            a[i * m + i] = 1.0;
        }
        let scratch = &mut *self.scratch;
        for &(v, j, source) in self.inputs {
            // Loop outputs of unit v that depend on input j.
            let unit = &mut self.units[v];
            scratch.unknown_vrs.clear();
            scratch.rows.clear();
            let n_in = unit.in_vrs.len();
            for (i, &p) in self.loop_nodes.iter().enumerate() {
                let node = &self.nodes[p];
                if node.unit == v && unit.feed_by_output[node.output].contains(&j) {
                    if unit.exact(self.phase) {
                        scratch.unknown_vrs.push(unit.out_vrs[node.output]);
                        scratch.rows.push(i);
                    } else {
                        // Standard FMU: the slope of its linear model.
                        a[i * m + source] -= unit.d[node.output * n_in + j];
                    }
                }
            }
            let rows = scratch.rows.len();
            if rows == 0 {
                continue;
            }
            scratch.slope.resize(rows, 0.0);
            unit.flush()?;
            if unit.provides_dd {
                unit.slave.get_directional_derivative(
                    &scratch.unknown_vrs,
                    &unit.in_vrs[j..j + 1],
                    &[1.0],
                    &mut scratch.slope,
                )?;
            } else {
                // Finite differences: allowed because outputs may be read after a set here.
                let u0 = unit.in_values[j];
                let delta = 1e-7 * (1.0 + u0.abs());
                scratch.base.resize(rows, 0.0);
                unit.slave.get_real(&scratch.unknown_vrs, &mut scratch.base)?;
                unit.slave.set_real(&unit.in_vrs[j..j + 1], &[u0 + delta])?;
                unit.slave.get_real(&scratch.unknown_vrs, &mut scratch.slope)?;
                unit.slave.set_real(&unit.in_vrs[j..j + 1], &[u0])?;
                for (s, b) in scratch.slope.iter_mut().zip(&scratch.base) {
                    *s = (*s - b) / delta;
                }
            }
            for n in 0..rows {
                a[scratch.rows[n] * m + source] -= scratch.slope[n];
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
        for c in 0..self.components.len() {
            match self.loop_of_component[c] {
                Some(l) => iterations += self.solve_loop(l, phase)?,
                None => {
                    let p = self.components[c].nodes[0];
                    let (u, k) = (self.nodes[p].unit, self.nodes[p].output);
                    let value = self.units[u].output(k, phase)?;
                    self.nodes[p].value = value;
                    self.propagate(p);
                }
            }
        }
        Ok(iterations)
    }

    pub(super) fn propagate(&mut self, p: usize) {
        propagate(&self.nodes, &mut self.units, p);
    }

    /// Newton on `r(z) = z - g(z)` over the loop's outputs `z` ([`newton::solve`]).
    fn solve_loop(&mut self, l: usize, phase: Phase) -> Result<usize, MasterError> {
        let m = self.loops[l].nodes.len();
        if phase == Phase::Stepping && self.loops[l].warm {
            // Start from the last solution (the loop inputs as they are now): its residual is
            // the first evaluation, where the outputs at the current inputs would cost one more.
            // (Extrapolating the last three solutions in time saved only 5 % of the iterations
            // of examples/helicopter.json.)
            for i in 0..m {
                let p = self.loops[l].nodes[i];
                self.loops[l].newton.z[i] = self.nodes[p].value;
            }
        } else {
            // Start from the outputs as they are now.
            self.for_units(Task::Read(phase), Units::Loop(l))?;
            for i in 0..m {
                let p = self.loops[l].nodes[i];
                let (u, k) = (self.nodes[p].unit, self.nodes[p].output);
                self.loops[l].newton.z[i] = self.units[u].output(k, phase)?;
            }
        }
        if phase == Phase::Stepping && !self.loop_has_jacobian(l) && !self.loops[l].warned_delay {
            self.loops[l].warned_delay = true;
            let members = self.loops[l].members.clone();
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
        let LoopSolver { nodes: loop_nodes, inputs, newton, scratch, warm, units: loop_units, .. } = &mut self.loops[l];
        let mut problem = MasterLoop {
            phase,
            loop_nodes,
            inputs,
            loop_units,
            scratch,
            nodes: &mut self.nodes,
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
                    members: self.loops[l].members.clone(),
                    time: self.time,
                    reason: u.failure.to_string(),
                    residual: u.residual,
                    iterations: u.iterations,
                })
            }
        }
    }

    /// True when every FMU in the loop contributes a Jacobian in the stepping phase.
    pub(super) fn loop_has_jacobian(&self, l: usize) -> bool {
        self.loops[l].inputs.iter().all(|&(v, _, _)| self.units[v].provides_dd || self.units[v].get_after_set)
    }
}
