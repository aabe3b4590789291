//! Building a [`Master`] from a [`CouplingPlan`] and the instantiated FMUs: the per-run data
//! (input and output buffers, loop solvers, discrete values) beside the plan, and the parameters
//! set before initialization. Everything that can be rejected was rejected when the plan was
//! built.

use std::sync::Arc;

use super::coupling::{ColumnScratch, LoopSolver};
use super::discrete::Discrete;
use super::newton::LoopBuffers;
use super::plan::{CouplingPlan, UnitPlan};
use super::unit::{StateOnly, Unit};
use super::{Interrupt, Master, MasterError, Stats, parallel};
use crate::import::Instance;
use crate::system::{ParameterValue, System};

impl Master {
    /// The master of `system` as `plan` couples it, driving `slaves` (one per instance, in the
    /// order of `system.instances`, just instantiated).
    pub(super) fn build(system: System, plan: CouplingPlan, slaves: Vec<Instance>) -> Result<Master, MasterError> {
        let orders = usize::from(system.master.extrapolation_order);
        let units = plan.units.iter().zip(slaves).map(|(u, slave)| Box::new(unit(u, slave, orders))).collect();
        let loops = plan.loops.iter().map(|l| loop_solver(l.nodes.len())).collect();
        let mut master = Master {
            units,
            node_values: vec![0.0; plan.nodes.len()],
            loops,
            signals: system.inputs.iter().map(|e| e.signal.clone()).collect(),
            discrete: Discrete::new(&plan.discrete),
            plan,
            time: system.experiment.start,
            step_starts: [None; 2],
            forward_slopes_over: None,
            landing: None,
            pool: parallel::Pool::new(system.master.threads),
            system,
            stats: Stats::default(),
            warnings: Vec::new(),
            stop_reason: None,
            uninitialized_outputs: Vec::new(),
            record_every: 1,
            interrupt: Interrupt::none(),
            step_hook: None,
        };
        for note in master.plan.notes.clone() {
            master.warn(note);
        }
        master.apply_parameters()?;
        Ok(master)
    }

    /// Sets the plan's parameter values, per unit (in the `Instantiated` state).
    fn apply_parameters(&mut self) -> Result<(), MasterError> {
        for (unit, values) in self.units.iter_mut().zip(&self.plan.parameters) {
            for (vr, value) in values {
                let vr = [*vr];
                match value {
                    ParameterValue::Real(x) => unit.slave.set_real(&vr, &[*x])?,
                    ParameterValue::Integer(i) => unit.slave.set_integer(&vr, &[*i])?,
                    ParameterValue::Boolean(b) => unit.slave.set_boolean(&vr, &[*b])?,
                    ParameterValue::String(text) => unit.slave.set_string(&vr, &[text.as_str()])?,
                }
            }
        }
        Ok(())
    }
}

/// A unit driving `slave` as `plan` says, its input derivatives up to order `orders`.
fn unit(plan: &Arc<UnitPlan>, slave: Instance, orders: usize) -> Unit {
    let n_in = plan.in_vrs.len();
    let n_out = plan.out_vrs.len();
    Unit {
        plan: Arc::clone(plan),
        slave,
        derivative_vrs: plan.in_vrs.repeat(orders),
        derivative_orders: (1..=orders as i32).flat_map(|order| std::iter::repeat_n(order, n_in)).collect(),
        derivative_values: vec![0.0; n_in * orders],
        in_values: vec![f64::NAN; n_in],
        in_old: vec![0.0; n_in],
        in_older: vec![0.0; n_in],
        in_next: vec![0.0; n_in],
        in_saved: std::array::from_fn(|_| vec![0.0; n_in]),
        pending: vec![false; n_in],
        pending_list: Vec::with_capacity(n_in),
        set_vrs: Vec::with_capacity(n_in),
        set_values: Vec::with_capacity(n_in),
        state_only: StateOnly::new(plan.state_only.clone(), &plan.out_vrs),
        out_pred: vec![0.0; n_out],
        out_fresh: false,
        d: vec![0.0; n_out * n_in],
        dd_vrs: Vec::with_capacity(n_out),
        dd_values: Vec::with_capacity(n_out),
        state: None,
    }
}

/// The Newton solver of a loop of `m` unknowns, with its buffers.
fn loop_solver(m: usize) -> LoopSolver {
    LoopSolver {
        newton: LoopBuffers::new(m),
        scratch: ColumnScratch {
            rows: Vec::with_capacity(m),
            slope: Vec::with_capacity(m),
            base: Vec::with_capacity(m),
            unknown_vrs: Vec::with_capacity(m),
        },
        warned_delay: false,
        warm: false,
    }
}
