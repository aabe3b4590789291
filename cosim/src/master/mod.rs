//! The master algorithm: steps the FMUs of a resolved [`System`] and makes their coupling
//! consistent at every communication point (DESIGN.md section 4).
//!
//! - The coupling is planned first ([`CouplingPlan`]), from the model descriptions alone: what
//!   the master does not support fails before any FMU is loaded.
//! - The connected outputs form the feedthrough graph ([`graph`]); its strongly connected
//!   components are the algebraic loops, solved in topological order.
//! - Initialization mode: every FMU may be set and read repeatedly, so loops get full Newton
//!   (Jacobians from `fmi2GetDirectionalDerivative`, finite differences where an FMU has none).
//! - Stepping, FMUs that declare get-after-set (our vendor annotation): Newton at every
//!   communication point, reading the exact outputs after each `fmi2SetReal`, from the loop's
//!   last solution. By default (`master.jacobian = "reuse"`) the factorised Newton matrix is kept
//!   across iterations and points (chord Newton) and recomputed when an iteration reduces the
//!   residual by less than [`CONTRACTION`]; the convergence test is on the true residual.
//!   Their outputs without direct feedthrough (dependencies naming no input) are read alone,
//!   once per step, before their other outputs (`unit::StateOnly`): a plant need not evaluate
//!   everything with its old input to give a controller its state.
//! - Stepping, standard FMUs: FMI 2.0 forbids `fmi2GetReal` after `fmi2SetReal` without a step,
//!   so their outputs are read once after `fmi2DoStep` together with `dg/du` (directional
//!   derivatives are allowed then) and enter the loop as the linear model
//!   `y = y_pred + D (u - u_old)`: exact for loops linear in the coupling variables. Without
//!   directional derivatives, `D = 0`, which is a one-step delay; a warning says so.
//! - A failed step (`fmi2Discard`) or a failed loop solve rolls back with FMU state and retries
//!   with half the step where every FMU can get and set its state, down to `min_step`;
//!   otherwise the run stops with an error that names the loop and its residual.
//! - `jacobi` and `gauss-seidel` are the classic explicit schemes, kept for comparison.
//! - Integer, Enumeration and Boolean variables (module `discrete`) are recorded and passed
//!   along their connections (and Integer to Real) once per communication point, right after the
//!   step and before the Real coupling is solved, outside the Newton iteration; String variables
//!   are not recorded.

mod accessors;
mod build;
mod coupling;
mod discrete;
mod error;
mod explicit;
mod fmu_cache;
pub mod graph;
mod ids;
mod interrupt;
pub mod linalg;
mod linearize;
pub mod newton;
mod parallel;
mod plan;
mod results;
mod run;
mod snapshot;
mod step;
mod step_hook;
mod unit;

use std::sync::Arc;

use crate::import::{FmuLogger, Instance};
use crate::system::{Signal, System};
use coupling::LoopSolver;
pub use error::{MAX_COMMUNICATION_POINTS, MasterError, check_communication_points};
pub use fmu_cache::FmuCache;
use ids::{InputRef, OutputRef, SlotId};
pub use interrupt::Interrupt;
pub use newton::CONTRACTION;
pub use plan::CouplingPlan;
use unit::{Phase, Unit};

pub use results::{Results, RunSummary, write_csv_header, write_csv_row};
pub use snapshot::MasterState;
pub use step_hook::StepHook;

/// Per-run figures.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Macro steps taken: communication intervals of the experiment's grid completed (one cut
    /// short by an FMU that terminated the simulation counts when it advanced the time).
    pub steps: usize,
    /// Communication points solved (including retried sub-steps and signal breakpoints).
    pub communication_points: usize,
    /// Newton iterations summed over loops, per communication point: sum and maximum.
    pub newton_iterations_total: usize,
    /// Largest Newton iteration count at one communication point.
    pub newton_iterations_max: usize,
    /// Largest final loop residual (max-norm).
    pub max_residual: f64,
    /// Steps rolled back and retried with half the size.
    pub rollbacks: usize,
    /// Loop Newton matrices computed (from directional derivatives) and factorised.
    pub jacobian_updates: usize,
}

/// A system ready to run: FMUs instantiated, graph analysed. The [`CouplingPlan`] whole, and
/// beside it the run data: the units' buffers and instances, node values, loop solvers,
/// signals, time and figures.
pub struct Master {
    /// What the master does, fixed before any FMU was loaded.
    plan: CouplingPlan,
    /// Per unit ([`ids::UnitId`]), run data of `plan.units`. Boxed, so that stepping hands
    /// them to worker threads by pointer ([`parallel`]).
    #[allow(clippy::vec_box, reason = "a unit is handed to a worker thread as its box")]
    units: Vec<Box<Unit>>,
    /// Per node of `plan.nodes` ([`ids::NodeId`]): the output's value in the coupling.
    node_values: Vec<f64>,
    /// Per loop of `plan.loops` ([`ids::LoopId`]): its Newton solver.
    loops: Vec<LoopSolver>,
    /// Per external input of `plan.externals`: its signal (replaced by
    /// [`Master::set_external_signal`]).
    signals: Vec<Signal>,
    system: System,
    time: f64,
    /// Starts of the last two completed steps, the last first (for input extrapolation).
    step_starts: [Option<f64>; 2],
    /// While the first step is redone: its size, over which the inputs' forward slopes to
    /// `Unit::in_next` are taken.
    forward_slopes_over: Option<f64>,
    /// While a step ends on a breakpoint of an external signal: that time, s. A step ending
    /// within rounding of it ends exactly there, so that the signal has switched.
    landing: Option<f64>,
    stats: Stats,
    warnings: Vec<String>,
    /// Why [`Master::run`] ended before the stop time (an FMU terminated the simulation).
    stop_reason: Option<String>,
    /// Instances found by the last [`Master::run_with`] not to compute their outputs in
    /// initialization mode ([`Master::uninitialized_outputs`]).
    uninitialized_outputs: Vec<String>,
    /// The values of the Integer, Enumeration and Boolean variables of `plan.discrete`,
    /// exchanged at communication points.
    discrete: discrete::Discrete,
    /// [`Master::run_into`] records every this many communication points (and the last).
    record_every: usize,
    /// Worker threads for units that do not depend on each other.
    pool: parallel::Pool,
    /// Asked before every step of [`Master::run_with`] ([`Master::set_interrupt`]).
    interrupt: Interrupt,
    /// Called around every step of [`Master::run_with`] ([`Master::set_step_hook`]).
    step_hook: Option<Box<dyn StepHook>>,
}

/// A recorded variable.
#[derive(Clone, Copy, Debug)]
enum Recorded {
    Output(OutputRef),
    Input(InputRef),
    /// A discrete variable's slot in [`discrete::Discrete`].
    Discrete(SlotId),
}

impl Master {
    /// Instantiates every instance of `system` from the FMUs in `fmus` (opening any not yet
    /// open) and prepares the coupling. FMU messages go to `logger`.
    pub fn new(system: System, fmus: &mut FmuCache, logger: Arc<dyn FmuLogger>) -> Result<Master, MasterError> {
        Self::with_interface(system, fmus, logger, false)
    }

    /// As [`Master::new`], with every instance instantiated as Model Exchange (its states
    /// visible) for [`Master::linearize`]: [`Master::initialize`] then solves the coupling at
    /// the start as for a run. Not for stepping: `fmi2DoStep` is not a Model Exchange function.
    pub fn new_model_exchange(
        system: System,
        fmus: &mut FmuCache,
        logger: Arc<dyn FmuLogger>,
    ) -> Result<Master, MasterError> {
        Self::with_interface(system, fmus, logger, true)
    }

    fn with_interface(
        system: System,
        fmus: &mut FmuCache,
        logger: Arc<dyn FmuLogger>,
        model_exchange: bool,
    ) -> Result<Master, MasterError> {
        check_communication_points(&system.experiment)?;
        // From the model descriptions alone: what is not supported fails before any FMU loads.
        let plan = CouplingPlan::new(&system)?;
        let mut slaves = Vec::new();
        for inst in &system.instances {
            let setup = |message: String| MasterError::Setup { instance: inst.name.clone(), message };
            let slave = if model_exchange {
                // Linearisation reads states: in this process (isolated instances step only).
                fmus.open(&inst.path)
                    .and_then(|fmu| fmu.instantiate_model_exchange(&inst.name, logger.clone()))
                    .map(Instance::InProcess)
            } else {
                fmus.instantiate(inst, logger.clone())
            };
            slaves.push(slave.map_err(|e| setup(e.to_string()))?);
        }
        Self::build(system, plan, slaves)
    }
}
