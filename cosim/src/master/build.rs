//! Building a [`Master`] from a [`CouplingPlan`] and the instantiated FMUs: the per-run data
//! (input and output buffers, loop solvers, discrete values) and the parameters set before
//! initialization. Everything that can be rejected was rejected when the plan was built.

use super::coupling::{ColumnScratch, LoopSolver, Node};
use super::discrete::Discrete;
use super::newton::LoopBuffers;
use super::plan::{CouplingPlan, LoopPlan, UnitPlan};
use super::unit::{StateOnly, Unit};
use super::{Master, MasterError, Stats, parallel};
use crate::import::Instance;
use crate::system::{ParameterValue, System};

impl Master {
    /// The master of `system` as `plan` couples it, driving `slaves` (one per instance, in the
    /// order of `system.instances`, just instantiated).
    pub(super) fn build(system: System, plan: CouplingPlan, slaves: Vec<Instance>) -> Result<Master, MasterError> {
        let orders = usize::from(system.master.extrapolation_order);
        let units = plan.units.into_iter().zip(slaves).map(|(u, slave)| Box::new(unit(u, slave, orders))).collect();
        let nodes = plan
            .nodes
            .into_iter()
            .map(|n| Node { unit: n.unit, output: n.output, targets: n.targets, value: 0.0 })
            .collect();
        let externals =
            plan.externals.iter().zip(&system.inputs).map(|(&(u, j), e)| (u, j, e.signal.clone())).collect();
        let system_threads = system.master.threads;
        let mut master = Master {
            units,
            nodes,
            components: plan.components,
            loops: plan.loops.into_iter().map(loop_solver).collect(),
            loop_of_component: plan.loop_of_component,
            externals,
            recorded: plan.recorded,
            recorded_names: plan.recorded_names,
            time: system.experiment.start,
            step_starts: [None; 2],
            forward_slopes_over: None,
            landing: None,
            system,
            gauss_seidel_order: plan.gauss_seidel_order,
            can_roll_back: plan.can_roll_back,
            stats: Stats::default(),
            warnings: Vec::new(),
            stop_reason: None,
            uninitialized_outputs: Vec::new(),
            record_every: 1,
            discrete: Discrete::new(plan.discrete),
            pool: parallel::Pool::new(system_threads),
        };
        for note in plan.notes {
            master.warn(note);
        }
        master.apply_parameters(&plan.parameters)?;
        Ok(master)
    }

    /// Sets the plan's parameter values, per unit (in the `Instantiated` state).
    fn apply_parameters(&mut self, parameters: &[Vec<(u32, ParameterValue)>]) -> Result<(), MasterError> {
        for (unit, values) in self.units.iter_mut().zip(parameters) {
            for &(vr, value) in values {
                let vr = [vr];
                match value {
                    ParameterValue::Real(x) => unit.slave.set_real(&vr, &[x])?,
                    ParameterValue::Integer(i) => unit.slave.set_integer(&vr, &[i])?,
                    ParameterValue::Boolean(b) => unit.slave.set_boolean(&vr, &[b])?,
                }
            }
        }
        Ok(())
    }
}

/// A unit driving `slave` as `plan` says, its input derivatives up to order `orders`.
fn unit(plan: UnitPlan, slave: Instance, orders: usize) -> Unit {
    let n_in = plan.in_vrs.len();
    let n_out = plan.out_vrs.len();
    Unit {
        name: plan.name,
        slave,
        get_after_set: plan.get_after_set,
        provides_dd: plan.provides_dd,
        can_interpolate: plan.can_interpolate,
        derivative_vrs: plan.in_vrs.repeat(orders),
        derivative_orders: (1..=orders as i32).flat_map(|order| std::iter::repeat_n(order, n_in)).collect(),
        derivative_values: vec![0.0; n_in * orders],
        in_vrs: plan.in_vrs,
        in_values: vec![f64::NAN; n_in],
        in_old: vec![0.0; n_in],
        in_older: vec![0.0; n_in],
        in_next: vec![0.0; n_in],
        in_saved: std::array::from_fn(|_| vec![0.0; n_in]),
        pending: vec![false; n_in],
        pending_list: Vec::with_capacity(n_in),
        set_vrs: Vec::with_capacity(n_in),
        set_values: Vec::with_capacity(n_in),
        state_only: StateOnly::new(plan.state_only, &plan.out_vrs),
        out_vrs: plan.out_vrs,
        out_names: plan.out_names,
        out_pred: vec![0.0; n_out],
        out_fresh: false,
        feed_by_input: plan.feed_by_input,
        feed_by_output: plan.feed_by_output,
        d: vec![0.0; n_out * n_in],
        dd_vrs: Vec::with_capacity(n_out),
        dd_values: Vec::with_capacity(n_out),
        state: None,
    }
}

/// The Newton solver of loop `plan`, with its buffers.
fn loop_solver(plan: LoopPlan) -> LoopSolver {
    let m = plan.nodes.len();
    LoopSolver {
        nodes: plan.nodes,
        inputs: plan.inputs,
        newton: LoopBuffers::new(m),
        scratch: ColumnScratch {
            rows: Vec::with_capacity(m),
            slope: Vec::with_capacity(m),
            base: Vec::with_capacity(m),
            unknown_vrs: Vec::with_capacity(m),
        },
        members: plan.members,
        units: plan.units,
        warned_delay: false,
        warm: false,
    }
}
