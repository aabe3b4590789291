//! [`MonolithicSystem`]: a resolved system description turned into one ODE over the
//! concatenated states of all its models, integrated by one Dormand-Prince 5(4) with error
//! control, the coupling made consistent at every right-hand-side evaluation.

use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

use cosim::master::Results;
use cosim::system::{Signal, System, SystemDescription, SystemError};
use fmu_core::ode::{Dopri5, OdeError};

use crate::coupling::{Coupling, CouplingCounters, JacobianUpdate, LoopFailure, Unit};
use crate::registry::{DynModel, Registry};

mod build;
use build::{connection_nodes, external_inputs, instantiate, recorded_columns};

/// Why a system cannot be built or run in-process.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The system description is invalid (or an FMU's model description could not be read).
    #[error(transparent)]
    System(#[from] SystemError),
    /// No in-process model for an FMU.
    #[error(
        "{instance}: no in-process model for modelIdentifier '{identifier}' (the monolithic reference couples only models linked into it: {known})"
    )]
    UnknownModel {
        /// Instance name.
        instance: String,
        /// The FMU's `modelIdentifier`.
        identifier: String,
        /// Identifiers the registry knows, comma-separated.
        known: String,
    },
    /// The FMU was generated from a different interface than the model linked here.
    #[error(
        "{instance}: the FMU's GUID {fmu} differs from this build's {identifier} model ({ours}): re-package the FMUs (`orchestrator package`) so both sides run the same model"
    )]
    GuidMismatch {
        /// Instance name.
        instance: String,
        /// `modelIdentifier`.
        identifier: String,
        /// GUID in the FMU's model description.
        fmu: String,
        /// GUID of the model linked into the harness.
        ours: String,
    },
    /// A parameter value or the model's own parameter check was refused.
    #[error("{instance}: {message}")]
    Configure {
        /// Instance name.
        instance: String,
        /// What went wrong.
        message: String,
    },
    /// The system uses something the harness does not support.
    #[error("{0}")]
    Unsupported(String),
    /// An algebraic loop could not be solved at a recorded instant.
    #[error("{0}")]
    Loop(LoopFailure),
    /// The integrator could not advance.
    #[error("integration from t = {from} s to {to} s failed: {source}{}", loop_failure.as_ref().map(|l| format!("; last loop failure: {l}")).unwrap_or_default())]
    Integration {
        /// Segment start, s.
        from: f64,
        /// Segment end, s.
        to: f64,
        /// The integrator's error.
        source: OdeError,
        /// The last loop failure during the segment, if any (it makes a stage non-finite).
        loop_failure: Option<LoopFailure>,
    },
    /// A recorded value is NaN or infinite.
    #[error("{variable} is {value} at t = {time} s")]
    NonFinite {
        /// `instance.variable`.
        variable: String,
        /// The value.
        value: f64,
        /// Time, s.
        time: f64,
    },
}

/// Integrator and coupling settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Relative tolerance of the Dormand-Prince error control.
    pub rtol: f64,
    /// Absolute tolerance of the Dormand-Prince error control.
    pub atol: f64,
    /// Convergence tolerance of the loop residual, `|z - g(z)| <= tol (1 + |z|)` per component.
    pub newton_tolerance: f64,
    /// Newton iteration limit per loop solve.
    pub max_iterations: usize,
    /// When loop Jacobians are recomputed (default: reused while the residual contracts fast).
    pub jacobian: JacobianUpdate,
}

impl Options {
    /// Defaults for `system`: integrator tolerances `1e-10`, the loop tolerance and iteration
    /// limit of the system's `master` options (as the orchestrator uses them).
    pub fn for_system(system: &System) -> Self {
        Options {
            rtol: 1e-10,
            atol: 1e-10,
            newton_tolerance: system.master.tolerance,
            max_iterations: system.master.max_iterations as usize,
            jacobian: JacobianUpdate::default(),
        }
    }

    /// The same options with integrator tolerances `rtol = atol = tol`.
    pub fn with_tolerance(mut self, tol: f64) -> Self {
        self.rtol = tol;
        self.atol = tol;
        self
    }
}

/// Work and time of the last [`MonolithicSystem::run`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Right-hand-side evaluations (each one a full consistent coupling plus all derivatives).
    pub rhs_evaluations: usize,
    /// Output evaluations, loop solves and Newton iterations of the coupling.
    pub coupling: CouplingCounters,
    /// Simulated interval, s.
    pub simulated_seconds: f64,
    /// Wall-clock time of the run, s.
    pub wall_seconds: f64,
}

impl Stats {
    /// Simulated seconds per wall-clock second.
    pub fn real_time_factor(&self) -> f64 {
        if self.wall_seconds > 0.0 { self.simulated_seconds / self.wall_seconds } else { f64::INFINITY }
    }

    /// One line per figure.
    pub fn to_text(&self) -> String {
        let c = &self.coupling;
        format!(
            "simulated {:.6} s in {:.4} s wall (real-time factor {:.1}); {} right-hand sides, {} output evaluations, \
             {} loop solves, {} Newton iterations (max {} per solve), {} Jacobian updates ({} AD columns), max residual {:.2e}, \
             {} loop failures",
            self.simulated_seconds,
            self.wall_seconds,
            self.real_time_factor(),
            self.rhs_evaluations,
            c.output_evaluations,
            c.loop_solves,
            c.newton_iterations,
            c.newton_iterations_max,
            c.jacobian_updates,
            c.jacobian_columns,
            c.max_residual,
            c.loop_failures,
        )
    }
}

/// A recorded column: an output or an input of a unit.
#[derive(Debug, Clone, Copy)]
enum Recorded {
    Output(usize, usize),
    Input(usize, usize),
}

/// The external signals and how to evaluate them inside an integration segment.
struct Externals {
    /// (unit, input position, signal).
    list: Vec<(usize, usize, Signal)>,
}

impl Externals {
    /// Sets every external input at time `tau` of the segment `[a, b]`. Steps switch only at
    /// segment ends, so inside a segment a step has its value at the midpoint: the stages of
    /// the integrator at `tau = b` see the value before a switch at `b`, not after it.
    fn apply(&self, units: &mut [Unit], tau: f64, segment: Option<(f64, f64)>) {
        for (u, j, signal) in &self.list {
            let t = match (signal, segment) {
                (Signal::Step { .. }, Some((a, b))) => 0.5 * (a + b),
                _ => tau,
            };
            let v = signal.value(t);
            let unit = &mut units[*u];
            if unit.u[*j] != v {
                unit.u[*j] = v;
                unit.dirty = true;
            }
        }
    }

    /// Times inside `(start, stop)` where a signal jumps (steps) or kinks (table points): the
    /// integration is split there so that no step straddles them.
    fn breakpoints(&self, start: f64, stop: f64) -> Vec<f64> {
        let mut times: Vec<f64> = Vec::new();
        for (_, _, s) in &self.list {
            match s {
                Signal::Step { time, .. } => times.push(*time),
                Signal::Table(table) => times.extend_from_slice(table.times()),
                _ => {}
            }
        }
        times.retain(|&t| t > start && t < stop);
        times.sort_by(f64::total_cmp);
        times.dedup();
        times
    }
}

/// The models of a system coupled in-process: one state vector, one integrator, the loop
/// solved at every right-hand-side evaluation. See the crate documentation.
pub struct MonolithicSystem {
    coupling: Coupling,
    externals: Externals,
    recorded: Vec<Recorded>,
    recorded_names: Vec<String>,
    options: Options,
    start: f64,
    stop: f64,
    /// Initial state (all models concatenated).
    x0: Vec<f64>,
    x: Vec<f64>,
    time: f64,
    ode: Dopri5,
    h_internal: f64,
    stats: Stats,
    /// Last loop failure inside the right-hand side (makes the stage non-finite).
    last_failure: Option<LoopFailure>,
    /// Every model with its state slice, for the projection after accepted steps.
    projections: Vec<(Rc<dyn DynModel>, usize, usize)>,
}

/// Reads the model descriptions from the `.fmu` archives (without loading their binaries) and
/// resolves `description`, as the orchestrator does.
pub fn resolve(description: &SystemDescription) -> Result<System, SystemError> {
    description.resolve(cosim::import::read_model_description)
}

/// Loads and resolves a JSON system description file; its `"model"` names are our FMUs
/// ([`fmu_catalog::context`]).
pub fn load(path: impl AsRef<Path>) -> Result<System, SystemError> {
    resolve(&rotorcraft::read_system(path, &fmu_catalog::context())?)
}

impl MonolithicSystem {
    /// Builds the coupled system from a resolved system description with the built-in models
    /// and [`Options::for_system`].
    pub fn from_system(system: &System) -> Result<Self, Error> {
        Self::with_options(system, &Registry::builtin(), Options::for_system(system))
    }

    /// Builds the coupled system with the models of `registry` and explicit options.
    pub fn with_options(system: &System, registry: &Registry, options: Options) -> Result<Self, Error> {
        let mut units = Vec::with_capacity(system.instances.len());
        let mut catalogs = Vec::with_capacity(system.instances.len());
        let mut x0 = Vec::new();
        for inst in &system.instances {
            let (unit, catalog) = instantiate(inst, registry, &mut x0)?;
            units.push(unit);
            catalogs.push(catalog);
        }
        let nodes = connection_nodes(system, &catalogs)?;
        let externals = external_inputs(system, &catalogs)?;
        let (recorded, recorded_names) = recorded_columns(system, &catalogs)?;

        let n = x0.len();
        let exp = system.experiment;
        let projections = units.iter().map(|u| (u.model.clone(), u.x_offset, u.n_x)).collect();
        Ok(MonolithicSystem {
            coupling: Coupling::new(units, nodes, options.newton_tolerance, options.max_iterations, options.jacobian),
            externals: Externals { list: externals },
            recorded,
            recorded_names,
            options,
            start: exp.start,
            stop: exp.stop,
            x: x0.clone(),
            x0,
            time: exp.start,
            ode: Dopri5::new(n),
            h_internal: 0.0,
            stats: Stats::default(),
            last_failure: None,
            projections,
        })
    }

    /// The settings in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Names of the recorded columns (`instance.variable`, as the orchestrator's).
    pub fn recorded_names(&self) -> &[String] {
        &self.recorded_names
    }

    /// The algebraic loops found, each as its `instance.variable` members (same analysis as
    /// the orchestrator's, from the models' declared feedthrough).
    pub fn loops(&self) -> Vec<Vec<String>> {
        self.coupling.loops()
    }

    /// Components of the feedthrough graph in solution order, with a loop flag.
    pub fn components(&self) -> Vec<(Vec<String>, bool)> {
        self.coupling.components()
    }

    /// Number of evaluation levels of the coupling (dependency depth of the connected outputs).
    pub fn levels(&self) -> usize {
        self.coupling.n_levels()
    }

    /// Total number of states, and per instance `(name, offset, count)`.
    pub fn state_layout(&self) -> (usize, Vec<(String, usize, usize)>) {
        (self.x.len(), self.coupling.units.iter().map(|u| (u.name.clone(), u.x_offset, u.n_x)).collect())
    }

    /// The current state (all models concatenated) and time.
    pub fn state(&self) -> (f64, &[f64]) {
        (self.time, &self.x)
    }

    /// Figures of the last run.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Runs from the experiment's start to its stop, recording every `record_step` seconds (the
    /// last interval shortened to end at the stop time, as the orchestrator's communication
    /// grid). Starts from the initial state every time it is called.
    pub fn run(&mut self, record_step: f64) -> Result<Results, Error> {
        if !(record_step > 0.0 && record_step.is_finite()) {
            return Err(Error::Unsupported(format!("record step {record_step} must be positive and finite")));
        }
        let wall = Instant::now();
        self.reset();
        let result = self.run_from_start(record_step);
        self.stats.simulated_seconds = self.time - self.start;
        self.stats.wall_seconds = wall.elapsed().as_secs_f64();
        self.stats.coupling = self.coupling.counters.clone();
        result
    }

    fn run_from_start(&mut self, record_step: f64) -> Result<Results, Error> {
        let n_steps = ((self.stop - self.start) / record_step - 1e-9).ceil().max(0.0) as usize;
        let mut results = Results::new(self.recorded_names.clone(), n_steps + 1);
        let mut row = vec![0.0; self.recorded.len()];
        self.consistent_point(self.start)?;
        self.record(&mut row)?;
        results.push(self.time, &row);
        let breakpoints = self.externals.breakpoints(self.start, self.stop);
        for n in 1..=n_steps {
            let target = if n == n_steps { self.stop } else { self.start + n as f64 * record_step };
            let mut from = self.time;
            // Breakpoints closer than a few ulps to a grid point (0.3 vs 3 x 0.1) are not split
            // off: the sliver would be below the integrator's time resolution.
            let sliver = 1e-12 * target.abs().max(record_step);
            let interval_start = from;
            for &b in breakpoints.iter().filter(|&&b| b > interval_start + sliver && b < target - sliver) {
                self.integrate(from, b)?;
                from = b;
            }
            self.integrate(from, target)?;
            self.consistent_point(target)?;
            self.record(&mut row)?;
            results.push(self.time, &row);
        }
        Ok(results)
    }

    fn reset(&mut self) {
        self.x.copy_from_slice(&self.x0);
        self.time = self.start;
        self.h_internal = 0.0;
        self.stats = Stats::default();
        self.last_failure = None;
        self.coupling.reset();
        self.coupling.counters = CouplingCounters::default();
    }

    /// Makes the coupling consistent at a recorded instant `t` (signals at `t`, switched steps
    /// included) and brings every output up to date.
    fn consistent_point(&mut self, t: f64) -> Result<(), Error> {
        self.time = t;
        self.externals.apply(&mut self.coupling.units, t, None);
        self.coupling.solve(t, &self.x).map_err(Error::Loop)?;
        self.coupling.refresh_all(t, &self.x);
        Ok(())
    }

    /// Integrates the coupled system over one segment `[a, b]` without signal switches inside.
    fn integrate(&mut self, a: f64, b: f64) -> Result<(), Error> {
        self.last_failure = None;
        let MonolithicSystem {
            coupling, externals, ode, x, h_internal, stats, last_failure, options, projections, ..
        } = self;
        let result = ode.integrate(
            |t, x, dx| {
                stats.rhs_evaluations += 1;
                externals.apply(&mut coupling.units, t, Some((a, b)));
                if let Err(failure) = coupling.solve(t, x) {
                    // A non-finite stage makes the integrator retry with a smaller step.
                    *last_failure = Some(failure);
                    dx.iter_mut().for_each(|d| *d = f64::NAN);
                    return;
                }
                for unit in &coupling.units {
                    let (o, n) = (unit.x_offset, unit.n_x);
                    unit.model.derivatives(t, &x[o..o + n], &unit.u, &mut dx[o..o + n]);
                }
            },
            |x| {
                for (model, o, n) in projections.iter() {
                    model.project_state(&mut x[*o..*o + *n]);
                }
            },
            a,
            b,
            x,
            h_internal,
            options.rtol,
            options.atol,
        );
        self.time = b;
        result.map_err(|source| Error::Integration { from: a, to: b, source, loop_failure: self.last_failure.take() })
    }

    /// Writes the recorded values at the current instant.
    fn record(&self, row: &mut [f64]) -> Result<(), Error> {
        for ((value, r), name) in row.iter_mut().zip(&self.recorded).zip(&self.recorded_names) {
            *value = match *r {
                Recorded::Output(u, k) => self.coupling.units[u].y[k],
                Recorded::Input(u, j) => self.coupling.units[u].u[j],
            };
            if !value.is_finite() {
                return Err(Error::NonFinite { variable: name.clone(), value: *value, time: self.time });
            }
        }
        Ok(())
    }
}
