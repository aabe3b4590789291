//! The coupled outputs made consistent at one instant `(t, x)`: connected outputs in dependency
//! order, algebraic loops by Newton with exact Jacobians (forward-mode AD through each model's
//! output equations), exactly as the orchestrator's master does at a communication point, but
//! on the models themselves and at every right-hand-side evaluation.
//!
//! Evaluation is scheduled by **level**: a component's level is one more than the highest level
//! of the components it depends on. Components of one level are independent of each other, so
//! each model's outputs are evaluated at most once per level (plus the Newton iterations of its
//! loops), not once per connected output.

mod edges;

use std::rc::Rc;

use cosim::master::graph::{self, Component};

use crate::registry::DynModel;
use cosim::master::newton::{self, LoopBuffers, LoopProblem, SolveError};
use edges::{FeedthroughEdges, levels_of};
use fmu_core::Dual64;

/// One model instance with its inputs, outputs and AD buffers.
pub(crate) struct Unit {
    pub name: String,
    pub model: Rc<dyn DynModel>,
    /// Position of this model's states in the global state vector.
    pub x_offset: usize,
    pub n_x: usize,
    /// All real inputs, in the model's `u` order.
    pub u: Vec<f64>,
    /// All real outputs, in the model's `y` order.
    pub y: Vec<f64>,
    /// Output names, `instance.variable`, in `y` order.
    pub y_names: Vec<String>,
    /// For each output, the `u` positions it depends on directly.
    pub feedthrough: Vec<Vec<usize>>,
    /// `y` is stale: the time, the state or an input changed since it was computed.
    pub dirty: bool,
    x_dual: Vec<Dual64>,
    u_dual: Vec<Dual64>,
    y_dual: Vec<Dual64>,
}

impl Unit {
    pub fn new(name: String, model: Rc<dyn DynModel>, x_offset: usize, u: Vec<f64>, y_names: Vec<String>) -> Self {
        let n_x = model.n_states();
        let (n_u, n_y) = (u.len(), y_names.len());
        Unit {
            name,
            model,
            x_offset,
            n_x,
            u,
            y: vec![0.0; n_y],
            y_names,
            feedthrough: Vec::new(),
            dirty: true,
            x_dual: vec![Dual64::from(0.0); n_x],
            u_dual: vec![Dual64::from(0.0); n_u],
            y_dual: vec![Dual64::from(0.0); n_y],
        }
    }

    /// Recomputes the outputs if stale; returns whether it did.
    fn refresh(&mut self, t: f64, x: &[f64]) -> bool {
        if !self.dirty {
            return false;
        }
        let xs = &x[self.x_offset..self.x_offset + self.n_x];
        self.model.outputs(t, xs, &self.u, &mut self.y);
        self.dirty = false;
        true
    }

    fn set_input(&mut self, j: usize, value: f64) {
        if self.u[j] != value {
            self.u[j] = value;
            self.dirty = true;
        }
    }

    /// `dy/du_j` for all outputs (in `y_dual[..].eps`), by one forward-mode pass.
    fn jacobian_column(&mut self, t: f64, x: &[f64], j: usize) {
        let xs = &x[self.x_offset..self.x_offset + self.n_x];
        for (d, &v) in self.x_dual.iter_mut().zip(xs) {
            *d = Dual64::from(v);
        }
        for (k, (d, &v)) in self.u_dual.iter_mut().zip(&self.u).enumerate() {
            *d = Dual64::new(v, if k == j { 1.0 } else { 0.0 });
        }
        self.model.outputs_dual(Dual64::from(t), &self.x_dual, &self.u_dual, &mut self.y_dual);
    }
}

/// A connected output: a node of the feedthrough graph.
pub(crate) struct Node {
    pub unit: usize,
    pub output: usize,
    /// Inputs it drives: (unit, input position).
    pub targets: Vec<(usize, usize)>,
}

/// One loop input whose Jacobian column is needed: unit, input position, the loop-local index of
/// the node driving it, and the loop rows (local index, output position) of that unit that
/// depend on it.
struct LoopInput {
    unit: usize,
    input: usize,
    source: usize,
    rows: Vec<(usize, usize)>,
}

/// An algebraic loop with its Newton buffers.
struct Loop {
    nodes: Vec<usize>,
    inputs: Vec<LoopInput>,
    /// Units whose outputs are loop nodes.
    units: Vec<usize>,
    /// The Newton solver's unknowns and matrix, kept between instants.
    newton: LoopBuffers,
    /// `newton.z` holds the last converged solution (a warm start for the next instant).
    warm: bool,
    members: String,
}

/// Why a loop could not be solved at an instant.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopFailure {
    /// The loop's variables, `instance.variable`.
    pub members: String,
    /// Time, s.
    pub time: f64,
    /// Diverged, iteration limit, singular matrix, non-finite values.
    pub reason: String,
    /// Residual max-norm at the end.
    pub residual: f64,
    /// Newton iterations made.
    pub iterations: usize,
}

impl std::fmt::Display for LoopFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "algebraic loop {{{}}} did not converge at t = {} s: {} (residual max-norm {:e} after {} Newton iterations)",
            self.members, self.time, self.reason, self.residual, self.iterations
        )
    }
}

/// When the Newton matrix `I - dg/dz` of a loop is recomputed (always exactly, by AD): the
/// master's policy type, default chord Newton.
pub use cosim::master::newton::{CONTRACTION, MatrixUpdate as JacobianUpdate};

/// Work counters of the coupling.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CouplingCounters {
    /// Model output evaluations over `f64`.
    pub output_evaluations: usize,
    /// Forward-mode AD passes (one Jacobian column each).
    pub jacobian_columns: usize,
    /// Newton matrices computed and factorised.
    pub jacobian_updates: usize,
    /// Loop solves.
    pub loop_solves: usize,
    /// Newton iterations summed over all loop solves.
    pub newton_iterations: usize,
    /// Largest Newton iteration count of one loop solve.
    pub newton_iterations_max: usize,
    /// Largest final residual (max-norm) of a converged loop.
    pub max_residual: f64,
    /// Loop solves that failed (the integrator then retried with a smaller step).
    pub loop_failures: usize,
}

/// Components of one level: acyclic nodes, then loops.
struct Level {
    acyclic: Vec<usize>,
    loops: Vec<usize>,
}

/// The coupling structure and its work buffers.
pub(crate) struct Coupling {
    pub units: Vec<Unit>,
    pub nodes: Vec<Node>,
    components: Vec<Component>,
    levels: Vec<Level>,
    loops: Vec<Loop>,
    /// Scratch: values of the acyclic nodes of a level.
    values: Vec<f64>,
    pub tolerance: f64,
    pub max_iterations: usize,
    pub jacobian: JacobianUpdate,
    pub counters: CouplingCounters,
}

impl Coupling {
    /// Builds the feedthrough graph of `nodes` over `units` (whose `feedthrough` is filled),
    /// its components, levels and loops.
    pub fn new(
        units: Vec<Unit>,
        nodes: Vec<Node>,
        tolerance: f64,
        max_iterations: usize,
        jacobian: JacobianUpdate,
    ) -> Self {
        let edges = FeedthroughEdges::new(&units, &nodes);
        let components = graph::components_in_order(nodes.len(), &edges.edges);
        let level_of = levels_of(&components, &edges.edges, nodes.len());
        let n_levels = level_of.iter().max().map_or(0, |m| m + 1);
        let mut levels: Vec<Level> = (0..n_levels).map(|_| Level { acyclic: Vec::new(), loops: Vec::new() }).collect();
        let mut loops = Vec::new();
        for (c, comp) in components.iter().enumerate() {
            let level = &mut levels[level_of[c]];
            if comp.is_loop {
                level.loops.push(loops.len());
                loops.push(edges.loop_of(comp, &units, &nodes));
            } else {
                level.acyclic.push(comp.nodes[0]);
            }
        }
        let n_nodes = nodes.len();
        Coupling {
            units,
            nodes,
            components,
            levels,
            loops,
            values: vec![0.0; n_nodes],
            tolerance,
            max_iterations,
            jacobian,
            counters: CouplingCounters::default(),
        }
    }

    /// The algebraic loops, each as its `instance.variable` members.
    pub fn loops(&self) -> Vec<Vec<String>> {
        self.loops.iter().map(|l| l.nodes.iter().map(|&p| self.node_name(p)).collect()).collect()
    }

    /// Components in solution order with a loop flag.
    pub fn components(&self) -> Vec<(Vec<String>, bool)> {
        self.components.iter().map(|c| (c.nodes.iter().map(|&p| self.node_name(p)).collect(), c.is_loop)).collect()
    }

    /// Number of evaluation levels.
    pub fn n_levels(&self) -> usize {
        self.levels.len()
    }

    fn node_name(&self, p: usize) -> String {
        self.units[self.nodes[p].unit].y_names[self.nodes[p].output].clone()
    }

    /// Forgets warm starts (a new run).
    pub fn reset(&mut self) {
        for l in &mut self.loops {
            l.warm = false;
            l.newton.forget_matrix();
        }
        for u in &mut self.units {
            u.dirty = true;
        }
    }

    fn refresh(&mut self, unit: usize, t: f64, x: &[f64]) {
        if self.units[unit].refresh(t, x) {
            self.counters.output_evaluations += 1;
        }
    }

    /// Current value of node `p`'s output (evaluating its model if stale).
    fn output(&mut self, p: usize, t: f64, x: &[f64]) -> f64 {
        let (u, k) = (self.nodes[p].unit, self.nodes[p].output);
        self.refresh(u, t, x);
        self.units[u].y[k]
    }

    fn propagate(&mut self, p: usize, value: f64) {
        for &(v, j) in &self.nodes[p].targets {
            self.units[v].set_input(j, value);
        }
    }

    /// Makes every connected input consistent at `(t, x)`. The caller has set the external
    /// inputs. Every unit's outputs are marked stale first (time and state are new).
    pub fn solve(&mut self, t: f64, x: &[f64]) -> Result<(), LoopFailure> {
        for u in &mut self.units {
            u.dirty = true;
        }
        for level in 0..self.levels.len() {
            // Acyclic nodes of one level do not depend on each other: read all, then pass on.
            for n in 0..self.levels[level].acyclic.len() {
                let p = self.levels[level].acyclic[n];
                self.values[p] = self.output(p, t, x);
            }
            for n in 0..self.levels[level].acyclic.len() {
                let p = self.levels[level].acyclic[n];
                self.propagate(p, self.values[p]);
            }
            for n in 0..self.levels[level].loops.len() {
                let l = self.levels[level].loops[n];
                self.solve_loop(l, t, x)?;
            }
        }
        Ok(())
    }

    /// Brings every unit's outputs up to date with its inputs (for recording).
    pub fn refresh_all(&mut self, t: f64, x: &[f64]) {
        for u in 0..self.units.len() {
            self.refresh(u, t, x);
        }
    }

    /// Newton on `r(z) = z - g(z)` over the loop's outputs `z`, with `dg/dz` exact by AD
    /// ([`newton::solve`], the master's solver).
    fn solve_loop(&mut self, l: usize, t: f64, x: &[f64]) -> Result<(), LoopFailure> {
        let m = self.loops[l].nodes.len();
        self.counters.loop_solves += 1;
        if !self.loops[l].warm {
            // Cold start: the outputs at the inputs as they are.
            for i in 0..m {
                let p = self.loops[l].nodes[i];
                self.loops[l].newton.z[i] = self.output(p, t, x);
            }
        }
        let settings =
            newton::Settings { tolerance: self.tolerance, max_iterations: self.max_iterations, matrix: self.jacobian };
        let Loop { nodes: loop_nodes, inputs, units: loop_units, newton, warm, members } = &mut self.loops[l];
        let mut problem = ReferenceLoop {
            t,
            x,
            loop_nodes,
            loop_units,
            inputs,
            nodes: &self.nodes,
            units: &mut self.units,
            counters: &mut self.counters,
        };
        let solved = newton::solve(&mut problem, newton, &settings);
        let c = &mut self.counters;
        match solved {
            Ok(done) => {
                *warm = true;
                c.jacobian_updates += done.matrix_updates;
                c.newton_iterations += done.iterations;
                c.newton_iterations_max = c.newton_iterations_max.max(done.iterations);
                c.max_residual = c.max_residual.max(done.residual);
                Ok(())
            }
            Err(SolveError::Problem(never)) => match never {},
            Err(SolveError::Unsolved(u)) => {
                *warm = false;
                c.jacobian_updates += u.matrix_updates;
                c.loop_failures += 1;
                Err(LoopFailure {
                    members: members.clone(),
                    time: t,
                    reason: u.failure.to_string(),
                    residual: u.residual,
                    iterations: u.iterations,
                })
            }
        }
    }
}

/// One loop at one instant `(t, x)`, as the Newton solver sees it: `g(z)` evaluates the models
/// whose outputs are loop nodes; the Newton matrix comes from forward-mode AD columns.
struct ReferenceLoop<'a> {
    t: f64,
    x: &'a [f64],
    loop_nodes: &'a [usize],
    loop_units: &'a [usize],
    inputs: &'a [LoopInput],
    nodes: &'a [Node],
    units: &'a mut [Unit],
    counters: &'a mut CouplingCounters,
}

impl LoopProblem for ReferenceLoop<'_> {
    type Error = std::convert::Infallible;

    fn evaluate(&mut self, z: &[f64], g: &mut [f64]) -> Result<(), Self::Error> {
        for (&p, &value) in self.loop_nodes.iter().zip(z) {
            for &(v, j) in &self.nodes[p].targets {
                self.units[v].set_input(j, value);
            }
        }
        for &u in self.loop_units {
            if self.units[u].refresh(self.t, self.x) {
                self.counters.output_evaluations += 1;
            }
        }
        for (&p, g) in self.loop_nodes.iter().zip(g) {
            *g = self.units[self.nodes[p].unit].y[self.nodes[p].output];
        }
        Ok(())
    }

    fn newton_matrix(&mut self, a: &mut [f64]) -> Result<(), Self::Error> {
        let m = self.loop_nodes.len();
        a.iter_mut().for_each(|v| *v = 0.0);
        for i in 0..m {
            a[i * m + i] = 1.0;
        }
        for input in self.inputs {
            let unit = &mut self.units[input.unit];
            unit.jacobian_column(self.t, self.x, input.input);
            self.counters.jacobian_columns += 1;
            for &(i, k) in &input.rows {
                a[i * m + input.source] -= unit.y_dual[k].eps;
            }
        }
        Ok(())
    }
}
