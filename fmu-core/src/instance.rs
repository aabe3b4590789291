//! One FMU instance behind a safe API: the FMI 2.0 Co-Simulation and Model Exchange state
//! machines, variable storage, lazy output evaluation, the integrator, directional derivatives
//! and FMU state.
//!
//! The C boundary ([`crate::abi`]) only converts pointers to slices and calls these methods, so
//! tests and in-process harnesses exercise exactly the code an importer does.

use std::sync::Arc;

use num_dual::Dual64;

use crate::catalog::{Catalog, Slot};
use crate::codec::{Reader, Writer};
use crate::description;
use crate::model::{Model, Parameters};
use crate::ode::Dopri5;
use crate::status::{FmiError, FmiResult, Status};
use crate::variable::{Causality, Variability};

/// Lifecycle states of a co-simulation slave (FMI 2.0 section 4.2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum SlaveState {
    /// After `fmi2Instantiate` or `fmi2Reset`.
    Instantiated = 0,
    /// Between `fmi2EnterInitializationMode` and `fmi2ExitInitializationMode`.
    InitializationMode = 1,
    /// Ready to step (`slaveInitialized`, last step complete).
    StepComplete = 2,
    /// The last `fmi2DoStep` returned `fmi2Discard`.
    StepFailed = 3,
    /// After `fmi2Terminate`.
    Terminated = 4,
    /// After a call returned `fmi2Error`: only getters, `fmi2SetFMUstate`, reset and free.
    Error = 5,
    /// Model Exchange: after `fmi2ExitInitializationMode` or `fmi2EnterEventMode`.
    EventMode = 6,
    /// Model Exchange: the importer integrates the states (`fmi2EnterContinuousTimeMode`).
    ContinuousTimeMode = 7,
}

impl SlaveState {
    fn from_u8(v: u8) -> Option<Self> {
        use SlaveState::*;
        [Instantiated, InitializationMode, StepComplete, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]
            .get(usize::from(v))
            .copied()
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Set of states in which a function may be called.
#[derive(Clone, Copy)]
struct Allowed(u8);

const fn allowed(states: &[SlaveState]) -> Allowed {
    let mut mask = 0;
    let mut i = 0;
    while i < states.len() {
        mask |= states[i].bit();
        i += 1;
    }
    Allowed(mask)
}

use SlaveState as S;
const SETUP: Allowed = allowed(&[S::Instantiated]);
const INIT: Allowed = allowed(&[S::InitializationMode]);
const TERMINATE: Allowed = allowed(&[S::StepComplete, S::StepFailed, S::EventMode, S::ContinuousTimeMode]);
const GET: Allowed = allowed(&[
    S::InitializationMode,
    S::StepComplete,
    S::StepFailed,
    S::Terminated,
    S::Error,
    S::EventMode,
    S::ContinuousTimeMode,
]);
const SET: Allowed =
    allowed(&[S::Instantiated, S::InitializationMode, S::StepComplete, S::EventMode, S::ContinuousTimeMode]);
const FMU_STATE: Allowed = allowed(&[
    S::Instantiated,
    S::InitializationMode,
    S::StepComplete,
    S::StepFailed,
    S::Terminated,
    S::Error,
    S::EventMode,
    S::ContinuousTimeMode,
]);
// Model Exchange (FMI 2.0 section 3.2.3).
const ME_TIME: Allowed = allowed(&[S::EventMode, S::ContinuousTimeMode]);
const ME_READ: Allowed =
    allowed(&[S::InitializationMode, S::EventMode, S::ContinuousTimeMode, S::Terminated, S::Error]);
const ME_NOMINALS: Allowed =
    allowed(&[S::Instantiated, S::InitializationMode, S::EventMode, S::ContinuousTimeMode, S::Terminated, S::Error]);
const ME_EVENT: Allowed = allowed(&[S::EventMode]);
const ME_CONTINUOUS: Allowed = allowed(&[S::ContinuousTimeMode]);
const OUTPUT_DERIVATIVES: Allowed = allowed(&[S::StepComplete, S::StepFailed, S::Terminated, S::Error]);
const STEP: Allowed = allowed(&[S::StepComplete]);
const STATUS: Allowed = allowed(&[S::StepComplete, S::StepFailed, S::Terminated]);
const NONE: Allowed = Allowed(0);

/// Receives log messages: status, category, message.
pub type Logger = Box<dyn FnMut(Status, &str, &str)>;

/// Everything that defines where an instance is: saved by `fmi2GetFMUstate`, restored by
/// `fmi2SetFMUstate`, and (de)serialised byte for byte.
#[derive(Debug, Clone, PartialEq)]
pub struct FmuState {
    state: SlaveState,
    time: f64,
    start_time: f64,
    stop_time: Option<f64>,
    h_internal: f64,
    reals: Vec<f64>,
    integers: Vec<i32>,
    booleans: Vec<bool>,
    x: Vec<f64>,
    /// First then second time derivatives of the inputs (`2 n_u`), for the next step only.
    input_derivatives: Vec<f64>,
}

/// Version 3: the real values in slot order (inputs, outputs, the rest; [`Catalog`]).
const SERIAL_MAGIC: &[u8; 8] = b"RFMUSTv3";

/// Highest input derivative order `fmi2SetRealInputDerivatives` accepts.
pub const MAX_INPUT_DERIVATIVE_ORDER: i32 = 2;

/// What `fmi2NewDiscreteStates` reports (`fmi2EventInfo`): our models have no events, so every
/// flag is false and no time event is scheduled.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EventInfo {
    /// `newDiscreteStatesNeeded`.
    pub new_discrete_states_needed: bool,
    /// `terminateSimulation`.
    pub terminate_simulation: bool,
    /// `nominalsOfContinuousStatesChanged`.
    pub nominals_changed: bool,
    /// `valuesOfContinuousStatesChanged`.
    pub values_changed: bool,
    /// `nextEventTime`, if `nextEventTimeDefined`.
    pub next_event_time: Option<f64>,
}

/// An FMI 2.0 instance of model `M`, Co-Simulation or Model Exchange.
pub struct Instance<M: Model> {
    name: String,
    /// Instantiated as `fmi2ModelExchange`: the importer integrates the states.
    model_exchange: bool,
    /// For each state of the configured model (`x` order), its position among the declared
    /// states ([`Catalog::states`]).
    declared_of_state: Vec<usize>,
    /// For each declared state, its position in `x` if this configuration uses it.
    state_of_declared: Vec<Option<usize>>,
    catalog: Arc<Catalog>,
    logger: Logger,
    debug_logging: bool,
    s: FmuState,
    model: Option<Configured<M>>,
    /// Parameters changed since the model was configured.
    params_dirty: bool,
    /// Inputs or state changed since the outputs were computed.
    outputs_dirty: bool,
    // Preallocated work buffers (`u` and the previous outputs are slices of the stored reals,
    // [`Catalog::inputs`] and [`Catalog::outputs`]).
    u_interp: Vec<f64>,
    y: Vec<f64>,
    /// Scratch for [`Model::state_outputs`]: filled anew by each `fmi2GetReal` that uses it,
    /// never read otherwise (not a cache).
    y_state: Vec<f64>,
    dx: Vec<f64>,
    x_before_step: Vec<f64>,
    ode: Dopri5,
    x_dual: Vec<Dual64>,
    dx_dual: Vec<Dual64>,
    u_dual: Vec<Dual64>,
    y_dual: Vec<Dual64>,
}

/// A model configured from the parameters, with the memory of its evaluations in `f64` (values)
/// and in `Dual64` (directional derivatives).
struct Configured<M: Model> {
    model: M,
    work: M::Work<f64>,
    work_dual: M::Work<Dual64>,
}

/// A Real that `fmi2GetDirectionalDerivative` accepts, resolved to its position.
#[derive(Clone, Copy)]
enum RealRole {
    /// Input at this position in `u`.
    Input(usize),
    /// Output at this position in `y`.
    Output(usize),
    /// Declared continuous state (position in [`Catalog::states`]).
    State(usize),
    /// Derivative of the declared state at this position.
    Derivative(usize),
}

struct ParamView<'a> {
    catalog: &'a Catalog,
    reals: &'a [f64],
    integers: &'a [i32],
    booleans: &'a [bool],
}

impl Parameters for ParamView<'_> {
    fn real(&self, vr: u32) -> f64 {
        match self.catalog.index_of(vr).map(|i| self.catalog.slots[i]) {
            Some(Slot::Real(s)) => self.reals[s],
            _ => panic!("model asked for real value reference {vr}, which it does not declare"),
        }
    }
    fn integer(&self, vr: u32) -> i32 {
        match self.catalog.index_of(vr).map(|i| self.catalog.slots[i]) {
            Some(Slot::Integer(s)) => self.integers[s],
            _ => panic!("model asked for integer value reference {vr}, which it does not declare"),
        }
    }
    fn boolean(&self, vr: u32) -> bool {
        match self.catalog.index_of(vr).map(|i| self.catalog.slots[i]) {
            Some(Slot::Boolean(s)) => self.booleans[s],
            _ => panic!("model asked for boolean value reference {vr}, which it does not declare"),
        }
    }
}

fn err(status: Status, function: &'static str, message: impl Into<String>) -> FmiError {
    FmiError { status, function, message: message.into() }
}

fn error(function: &'static str, message: impl Into<String>) -> FmiError {
    err(Status::Error, function, message)
}

impl<M: Model> Instance<M> {
    /// A new instance in state `Instantiated` whose messages go to `logger`.
    pub fn with_logger(name: &str, logger: Logger) -> Self {
        let catalog = description::catalog::<M>();
        let n_u = catalog.input_slots.len();
        let n_y = catalog.output_slots.len();
        let s = FmuState {
            state: SlaveState::Instantiated,
            time: 0.0,
            start_time: 0.0,
            stop_time: None,
            h_internal: 0.0,
            reals: catalog.real_start.clone(),
            integers: catalog.integer_start.clone(),
            booleans: catalog.boolean_start.clone(),
            x: Vec::new(),
            input_derivatives: vec![0.0; 2 * n_u],
        };
        let n_declared = catalog.states.len();
        Instance {
            name: name.to_string(),
            model_exchange: false,
            declared_of_state: Vec::new(),
            state_of_declared: vec![None; n_declared],
            catalog,
            logger,
            debug_logging: false,
            s,
            model: None,
            params_dirty: true,
            outputs_dirty: true,
            u_interp: vec![0.0; n_u],
            y: vec![0.0; n_y],
            y_state: vec![0.0; n_y],
            dx: Vec::new(),
            x_before_step: Vec::new(),
            ode: Dopri5::new(0),
            x_dual: Vec::new(),
            dx_dual: Vec::new(),
            u_dual: vec![Dual64::from(0.0); n_u],
            y_dual: vec![Dual64::from(0.0); n_y],
        }
    }

    /// A new Model Exchange instance (`fmuType = fmi2ModelExchange`); `Err` if the model declares
    /// no states ([`Model::state_variables`]), so offers Co-Simulation only.
    pub fn model_exchange(name: &str, logger: Logger) -> Result<Self, String> {
        let mut instance = Self::with_logger(name, logger);
        if instance.catalog.states.is_empty() {
            return Err(format!(
                "fmuType fmi2ModelExchange (0) requested, but {} supports only fmi2CoSimulation (1)",
                M::INFO.model_identifier
            ));
        }
        instance.model_exchange = true;
        Ok(instance)
    }

    /// A new instance that prints errors and warnings to standard error.
    pub fn new(name: &str) -> Self {
        let owner = name.to_string();
        Self::with_logger(
            name,
            Box::new(move |status, category, message| {
                if status != Status::Ok {
                    eprintln!("[{owner}] {status:?} {category}: {message}");
                }
            }),
        )
    }

    /// Checks the GUID an importer passed to `fmi2Instantiate` against this model's.
    pub fn check_guid(guid: &str) -> Result<(), String> {
        let ours = description::guid::<M>();
        if guid == &*ours {
            Ok(())
        } else {
            Err(format!(
                "GUID '{guid}' does not match this binary's '{ours}': the modelDescription.xml belongs to another build of {}",
                M::INFO.model_identifier
            ))
        }
    }

    /// The instance name given at instantiation.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Current lifecycle state.
    pub fn slave_state(&self) -> SlaveState {
        self.s.state
    }

    /// Current simulation time, s.
    pub fn time(&self) -> f64 {
        self.s.time
    }

    /// The checked variable table.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Value reference of a variable by name.
    pub fn vr(&self, name: &str) -> Option<u32> {
        self.catalog.vr_of(name)
    }

    /// Writes a message through the logger.
    pub fn log(&mut self, status: Status, message: &str) {
        if status != Status::Ok || self.debug_logging {
            (self.logger)(status, status.category(), message);
        }
    }

    /// Runs `body` if the current state allows `function`; an error is logged and moves the
    /// instance to `Error` (a `Discard` to `StepFailed`).
    fn guarded<T>(
        &mut self,
        function: &'static str,
        allowed: Allowed,
        body: impl FnOnce(&mut Self) -> FmiResult<T>,
    ) -> FmiResult<T> {
        let result = if allowed.0 & self.s.state.bit() == 0 {
            Err(error(function, format!("illegal call sequence: not allowed in state {:?}", self.s.state)))
        } else {
            body(self)
        };
        if let Err(e) = &result {
            self.fail(e);
        }
        result
    }

    /// Logs a failure and moves to the state FMI prescribes for its status.
    pub fn fail(&mut self, e: &FmiError) {
        (self.logger)(e.status, e.status.category(), &e.to_string());
        match e.status {
            Status::Discard => self.s.state = SlaveState::StepFailed,
            Status::Error | Status::Fatal => self.s.state = SlaveState::Error,
            _ => {}
        }
    }

    /// `fmi2SetDebugLogging`: `categories` empty means all.
    pub fn set_debug_logging(&mut self, on: bool, categories: &[&str]) -> FmiResult<()> {
        for c in categories {
            if !description::LOG_CATEGORIES.iter().any(|(name, _)| name == c) {
                let e = error("fmi2SetDebugLogging", format!("unknown log category '{c}'"));
                self.fail(&e);
                return Err(e);
            }
        }
        self.debug_logging = on;
        Ok(())
    }

    /// `fmi2SetupExperiment`. The tolerance is ignored: each model has its own parameter.
    pub fn setup_experiment(&mut self, start_time: f64, stop_time: Option<f64>) -> FmiResult<()> {
        self.guarded("fmi2SetupExperiment", SETUP, |me| {
            if !start_time.is_finite() {
                return Err(error("fmi2SetupExperiment", format!("start time {start_time} is not finite")));
            }
            if let Some(stop) = stop_time
                && (stop.is_nan() || stop < start_time)
            {
                return Err(error(
                    "fmi2SetupExperiment",
                    format!("stop time {stop} is before start time {start_time}"),
                ));
            }
            me.s.start_time = start_time;
            me.s.time = start_time;
            me.s.stop_time = stop_time;
            Ok(())
        })
    }

    /// `fmi2EnterInitializationMode`: configures the model from its parameters.
    pub fn enter_initialization_mode(&mut self) -> FmiResult<()> {
        self.guarded("fmi2EnterInitializationMode", SETUP, |me| {
            me.s.state = SlaveState::InitializationMode;
            me.ensure_configured("fmi2EnterInitializationMode")?;
            me.log(Status::Ok, "entered initialization mode");
            Ok(())
        })
    }

    /// `fmi2ExitInitializationMode`.
    pub fn exit_initialization_mode(&mut self) -> FmiResult<()> {
        self.guarded("fmi2ExitInitializationMode", INIT, |me| {
            me.ensure_configured("fmi2ExitInitializationMode")?;
            me.s.state = if me.model_exchange { SlaveState::EventMode } else { SlaveState::StepComplete };
            me.log(Status::Ok, "initialized");
            Ok(())
        })
    }

    /// `fmi2Terminate`.
    pub fn terminate(&mut self) -> FmiResult<()> {
        self.guarded("fmi2Terminate", TERMINATE, |me| {
            me.s.state = SlaveState::Terminated;
            Ok(())
        })
    }

    /// `fmi2Reset`: back to `Instantiated` with start values.
    pub fn reset(&mut self) {
        let catalog = self.catalog.clone();
        self.s = FmuState {
            state: SlaveState::Instantiated,
            time: 0.0,
            start_time: 0.0,
            stop_time: None,
            h_internal: 0.0,
            reals: catalog.real_start.clone(),
            integers: catalog.integer_start.clone(),
            booleans: catalog.boolean_start.clone(),
            x: Vec::new(),
            input_derivatives: vec![0.0; 2 * catalog.input_slots.len()],
        };
        self.model = None;
        self.params_dirty = true;
        self.outputs_dirty = true;
        self.log(Status::Ok, "reset");
    }

    /// Configures the model from the parameters if they changed, and (before stepping starts)
    /// sets the initial state from them.
    fn ensure_configured(&mut self, function: &'static str) -> FmiResult<()> {
        if !self.params_dirty && self.model.is_some() {
            return Ok(());
        }
        let view = ParamView {
            catalog: &self.catalog,
            reals: &self.s.reals,
            integers: &self.s.integers,
            booleans: &self.s.booleans,
        };
        let model = M::configure(&view).map_err(|m| error(function, format!("invalid parameters: {m}")))?;
        let n = model.n_states();
        if !self.catalog.states.is_empty() {
            let declared = model.state_indices();
            let n_declared = self.catalog.states.len();
            self.state_of_declared.iter_mut().for_each(|p| *p = None);
            if declared.len() != n {
                return Err(error(function, format!("model bug: {} state indices for {n} states", declared.len())));
            }
            for (k, &d) in declared.iter().enumerate() {
                if d >= n_declared || self.state_of_declared[d].is_some() {
                    return Err(error(function, format!("model bug: state {k} maps to declared state {d}")));
                }
                self.state_of_declared[d] = Some(k);
            }
            self.declared_of_state = declared;
        }
        if self.s.state == SlaveState::InitializationMode || self.s.x.len() != n {
            self.s.x.resize(n, 0.0);
            model.initial_state(&mut self.s.x);
        }
        self.dx.resize(n, 0.0);
        self.x_before_step.resize(n, 0.0);
        self.x_dual.resize(n, Dual64::from(0.0));
        self.dx_dual.resize(n, Dual64::from(0.0));
        if self.ode.dim() != n {
            self.ode = Dopri5::new(n);
        }
        let (work, work_dual) = (model.work(), model.work());
        self.model = Some(Configured { model, work, work_dual });
        self.params_dirty = false;
        self.outputs_dirty = true;
        Ok(())
    }

    fn slot(&self, function: &'static str, vr: u32) -> FmiResult<(usize, Slot)> {
        let i = self.catalog.index_of(vr).ok_or_else(|| error(function, format!("unknown value reference {vr}")))?;
        Ok((i, self.catalog.slots[i]))
    }

    /// Checks that variable `i` may be set in the current state.
    fn check_settable(&self, function: &'static str, i: usize) -> FmiResult<()> {
        let v = &self.catalog.variables[i];
        let ok = match (v.causality, v.variability, self.s.state) {
            (Causality::Output, _, _) => false,
            (Causality::Input, _, _) => true,
            (Causality::Parameter, _, S::Instantiated | S::InitializationMode) => true,
            (Causality::Parameter, Variability::Tunable, S::StepComplete | S::EventMode) => true,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(error(
                function,
                format!(
                    "variable '{}' ({:?}, {:?}) cannot be set in state {:?}",
                    v.name, v.causality, v.variability, self.s.state
                ),
            ))
        }
    }

    fn mark_set(&mut self, i: usize) {
        if self.catalog.causality[i] == Causality::Parameter {
            self.params_dirty = true;
        }
        self.outputs_dirty = true;
    }

    /// Parameter values before a setter that sets parameters (`sets_parameter`), if they are
    /// tunable ones set between steps.
    fn snapshot_if_tunable(&self, sets_parameter: bool) -> Option<(Vec<f64>, Vec<i32>, Vec<bool>)> {
        (sets_parameter && matches!(self.s.state, S::StepComplete | S::EventMode))
            .then(|| (self.s.reals.clone(), self.s.integers.clone(), self.s.booleans.clone()))
    }

    /// Tunable parameters set between steps take effect, and are checked by the model, at once;
    /// values the model refuses are rolled back and reported by the setter itself.
    fn commit_tunable(
        &mut self,
        function: &'static str,
        before: Option<(Vec<f64>, Vec<i32>, Vec<bool>)>,
    ) -> FmiResult<()> {
        let Some((reals, integers, booleans)) = before else { return Ok(()) };
        if let Err(e) = self.ensure_configured(function) {
            self.s.reals = reals;
            self.s.integers = integers;
            self.s.booleans = booleans;
            self.params_dirty = false;
            return Err(e);
        }
        Ok(())
    }

    fn check_lengths(function: &'static str, vrs: usize, values: usize) -> FmiResult<()> {
        if vrs == values { Ok(()) } else { Err(error(function, format!("{vrs} value references but {values} values"))) }
    }

    /// `fmi2SetReal`. All values are checked before any is written.
    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> FmiResult<()> {
        const F: &str = "fmi2SetReal";
        self.guarded(F, SET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            let mut sets_parameter = false;
            for (&vr, &v) in vrs.iter().zip(values) {
                let Some((_, causality)) = me.catalog.real(vr) else {
                    return Err(me.not_a_real(F, vr));
                };
                if !v.is_finite() {
                    let (i, _) = me.slot(F, vr)?;
                    let name = &me.catalog.variables[i].name;
                    return Err(error(F, format!("value {v} for '{name}' is not finite")));
                }
                if causality != Causality::Input {
                    let (i, _) = me.slot(F, vr)?;
                    me.check_settable(F, i)?;
                    sets_parameter |= causality == Causality::Parameter;
                }
            }
            let before = me.snapshot_if_tunable(sets_parameter);
            for (&vr, &v) in vrs.iter().zip(values) {
                if let Some((s, causality)) = me.catalog.real(vr)
                    && me.s.reals[s] != v
                {
                    me.s.reals[s] = v;
                    if causality == Causality::Parameter {
                        me.params_dirty = true;
                    }
                    me.outputs_dirty = true;
                }
            }
            me.commit_tunable(F, before)
        })
    }

    /// `fmi2SetInteger`. Values outside the declared range are refused.
    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> FmiResult<()> {
        const F: &str = "fmi2SetInteger";
        self.guarded(F, SET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            let mut sets_parameter = false;
            for (&vr, &v) in vrs.iter().zip(values) {
                let (i, slot) = me.slot(F, vr)?;
                let name = &me.catalog.variables[i].name;
                let Slot::Integer(s) = slot else {
                    return Err(error(F, format!("variable '{name}' (value reference {vr}) is not an Integer")));
                };
                let (min, max) = me.catalog.integer_range[s];
                if v < min || v > max {
                    return Err(error(F, format!("value {v} for '{name}' is outside [{min}, {max}]")));
                }
                me.check_settable(F, i)?;
                sets_parameter |= me.catalog.causality[i] == Causality::Parameter;
            }
            let before = me.snapshot_if_tunable(sets_parameter);
            for (&vr, &v) in vrs.iter().zip(values) {
                let (i, slot) = me.slot(F, vr)?;
                if let Slot::Integer(s) = slot
                    && me.s.integers[s] != v
                {
                    me.s.integers[s] = v;
                    me.mark_set(i);
                }
            }
            me.commit_tunable(F, before)
        })
    }

    /// `fmi2SetBoolean`.
    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> FmiResult<()> {
        const F: &str = "fmi2SetBoolean";
        self.guarded(F, SET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            let mut sets_parameter = false;
            for &vr in vrs {
                let (i, slot) = me.slot(F, vr)?;
                if !matches!(slot, Slot::Boolean(_)) {
                    let name = &me.catalog.variables[i].name;
                    return Err(error(F, format!("variable '{name}' (value reference {vr}) is not a Boolean")));
                }
                me.check_settable(F, i)?;
                sets_parameter |= me.catalog.causality[i] == Causality::Parameter;
            }
            let before = me.snapshot_if_tunable(sets_parameter);
            for (&vr, &v) in vrs.iter().zip(values) {
                let (i, slot) = me.slot(F, vr)?;
                if let Slot::Boolean(s) = slot
                    && me.s.booleans[s] != v
                {
                    me.s.booleans[s] = v;
                    me.mark_set(i);
                }
            }
            me.commit_tunable(F, before)
        })
    }

    /// `fmi2SetString`: our models have no string variables, so any value reference is unknown.
    pub fn set_string(&mut self, vrs: &[u32]) -> FmiResult<()> {
        const F: &str = "fmi2SetString";
        self.guarded(F, SET, |me| match vrs.first() {
            None => Ok(()),
            Some(&vr) => Err(me.not_a_string(F, vr)),
        })
    }

    /// `fmi2GetString`: as [`Instance::set_string`].
    pub fn get_string(&mut self, vrs: &[u32]) -> FmiResult<()> {
        const F: &str = "fmi2GetString";
        self.guarded(F, GET, |me| match vrs.first() {
            None => Ok(()),
            Some(&vr) => Err(me.not_a_string(F, vr)),
        })
    }

    fn not_a_string(&self, function: &'static str, vr: u32) -> FmiError {
        match self.catalog.variable(vr) {
            Some(v) => error(function, format!("variable '{}' (value reference {vr}) is not a String", v.name)),
            None => error(function, format!("unknown value reference {vr}")),
        }
    }

    /// Recomputes the outputs if inputs, parameters or state changed. If one is not finite,
    /// none is stored.
    fn refresh_outputs(&mut self, function: &'static str) -> FmiResult<()> {
        self.ensure_configured(function)?;
        if !self.outputs_dirty {
            return Ok(());
        }
        let c = self.model.as_mut().expect("configured above");
        // The inputs as set, and the outputs of the last evaluation (start values before the
        // first), as stored.
        let (u, y_prev) = (&self.s.reals[self.catalog.inputs()], &self.s.reals[self.catalog.outputs()]);
        c.model.outputs_warm(&mut c.work, self.s.time, &self.s.x, u, y_prev, &mut self.y);
        // All checked without an early exit (which the compiler does not vectorise); which one
        // failed is looked up only on failure.
        if !self.y.iter().fold(true, |finite, v| finite & v.is_finite())
            && let Some(k) = self.y.iter().position(|v| !v.is_finite())
        {
            let name = &self.catalog.variables[self.index_of_real_slot(self.catalog.output_slots[k])].name;
            return Err(error(function, format!("output '{name}' is {} at t = {} s", self.y[k], self.s.time)));
        }
        let outputs = self.catalog.outputs();
        self.s.reals[outputs].copy_from_slice(&self.y);
        self.outputs_dirty = false;
        Ok(())
    }

    /// The value of a declared state or state derivative by value reference (zero for one
    /// this configuration does not use); `vr` was checked to be one.
    #[inline]
    fn state_or_derivative(&self, vr: u32) -> f64 {
        match (self.catalog.state_index(vr), self.catalog.derivative_index(vr)) {
            (Some(d), _) => self.state_of_declared[d].map_or(0.0, |k| self.s.x[k]),
            (_, Some(d)) => self.state_of_declared[d].map_or(0.0, |k| self.dx[k]),
            _ => unreachable!("checked by the caller"),
        }
    }

    /// Whether every output among `vrs` is one without direct feedthrough (stops at the first
    /// that has feedthrough).
    fn only_state_outputs(&self, vrs: &[u32]) -> bool {
        vrs.iter().all(|&vr| match self.catalog.real(vr) {
            Some((s, Causality::Output)) => self.catalog.is_state_only_output(s),
            _ => true,
        })
    }

    /// Position in `y` of the output in real slot `s`.
    fn output_position_of_slot(&self, s: usize) -> usize {
        self.catalog.output_pos[s].expect("an output's slot")
    }

    /// The outputs without feedthrough into [`Instance::y_state`] by [`Model::state_outputs`],
    /// those among `vrs` checked to be finite; false when the model has no such shortcut.
    fn evaluate_state_outputs(&mut self, function: &'static str, vrs: &[u32]) -> FmiResult<bool> {
        let model = &self.model.as_ref().expect("configured by the caller").model;
        // An output the model failed to write shows up as NaN, not as an old value.
        self.y_state.fill(f64::NAN);
        if !model.state_outputs(self.s.time, &self.s.x, &mut self.y_state) {
            return Ok(false);
        }
        for &vr in vrs {
            if let Some((s, Causality::Output)) = self.catalog.real(vr) {
                let v = self.y_state[self.output_position_of_slot(s)];
                if !v.is_finite() {
                    let name = &self.catalog.variables[self.index_of_real_slot(s)].name;
                    return Err(error(function, format!("output '{name}' is {v} at t = {} s", self.s.time)));
                }
            }
        }
        Ok(true)
    }

    fn index_of_real_slot(&self, s: usize) -> usize {
        self.catalog.slots.iter().position(|&x| x == Slot::Real(s)).unwrap_or(0)
    }

    /// `fmi2GetReal`: outputs are computed from the current state and inputs.
    pub fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetReal";
        self.guarded(F, GET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            let (mut need_outputs, mut need_states, mut need_derivatives) = (false, false, false);
            for &vr in vrs {
                match me.catalog.real(vr) {
                    Some((_, causality)) => need_outputs |= causality == Causality::Output,
                    None if me.catalog.state_index(vr).is_some() => need_states = true,
                    None if me.catalog.derivative_index(vr).is_some() => need_derivatives = true,
                    None => return Err(me.not_a_real(F, vr)),
                }
            }
            // Outputs without feedthrough alone, while the outputs are out of date: from the
            // model's state-only shortcut where it has one, without touching the stored outputs.
            let mut from_state = false;
            if need_outputs && me.s.state != S::Error {
                me.ensure_configured(F)?;
                if me.outputs_dirty && me.only_state_outputs(vrs) {
                    from_state = me.evaluate_state_outputs(F, vrs)?;
                }
                if !from_state {
                    me.refresh_outputs(F)?;
                }
            }
            if need_states || need_derivatives {
                me.ensure_configured(F)?;
            }
            if need_derivatives {
                me.evaluate_derivatives(F)?;
            }
            // Every value reference was checked to be a real, state or derivative above.
            if from_state {
                // The outputs from the shortcut's scratch, the rest as stored.
                for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                    *out = match me.catalog.real(vr) {
                        Some((s, Causality::Output)) => me.y_state[me.output_position_of_slot(s)],
                        Some((s, _)) => me.s.reals[s],
                        None => me.state_or_derivative(vr),
                    };
                }
                return Ok(());
            }
            for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                *out = match me.catalog.real(vr) {
                    Some((s, _)) => me.s.reals[s],
                    None => me.state_or_derivative(vr),
                };
            }
            Ok(())
        })
    }

    /// `fmi2GetInteger`.
    pub fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> FmiResult<()> {
        const F: &str = "fmi2GetInteger";
        self.guarded(F, GET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                match me.slot(F, vr)? {
                    (_, Slot::Integer(s)) => *out = me.s.integers[s],
                    (i, _) => {
                        let name = &me.catalog.variables[i].name;
                        return Err(error(F, format!("variable '{name}' (value reference {vr}) is not an Integer")));
                    }
                }
            }
            Ok(())
        })
    }

    /// `fmi2GetBoolean`.
    pub fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> FmiResult<()> {
        const F: &str = "fmi2GetBoolean";
        self.guarded(F, GET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                match me.slot(F, vr)? {
                    (_, Slot::Boolean(s)) => *out = me.s.booleans[s],
                    (i, _) => {
                        let name = &me.catalog.variables[i].name;
                        return Err(error(F, format!("variable '{name}' (value reference {vr}) is not a Boolean")));
                    }
                }
            }
            Ok(())
        })
    }

    /// The role of a directional derivative's known (an input or a continuous state) or
    /// unknown (an output or a state derivative).
    fn derivative_role(&self, function: &'static str, vr: u32, known: bool) -> FmiResult<RealRole> {
        if let Some((s, _)) = self.catalog.real(vr) {
            let role = if known {
                self.catalog.input_pos[s].map(RealRole::Input)
            } else {
                self.catalog.output_pos[s].map(RealRole::Output)
            };
            if let Some(role) = role {
                return Ok(role);
            }
        }
        match (known, self.catalog.state_index(vr), self.catalog.derivative_index(vr)) {
            (true, Some(d), _) => Ok(RealRole::State(d)),
            (false, _, Some(d)) => Ok(RealRole::Derivative(d)),
            _ => {
                let what = if known { "known" } else { "unknown" };
                let expected =
                    if known { "a real input or a continuous state" } else { "a real output or a state derivative" };
                let name = self.real_name(vr).unwrap_or_else(|| format!("value reference {vr}"));
                Err(error(function, format!("{what} '{name}' is not {expected}")))
            }
        }
    }

    /// Name of a model variable, state or derivative by value reference.
    fn real_name(&self, vr: u32) -> Option<String> {
        if let Some(v) = self.catalog.variable(vr) {
            return Some(v.name.clone());
        }
        match (self.catalog.state_index(vr), self.catalog.derivative_index(vr)) {
            (Some(d), _) => Some(self.catalog.states[d].name.clone()),
            (_, Some(d)) => Some(format!("der({})", self.catalog.states[d].name)),
            _ => None,
        }
    }

    /// The state derivative at the current time, state and inputs into `dx`; an error if it is
    /// not finite.
    fn evaluate_derivatives(&mut self, function: &'static str) -> FmiResult<()> {
        let c = self.model.as_mut().expect("configured by the caller");
        c.model.derivatives(&mut c.work, self.s.time, &self.s.x, &self.s.reals[self.catalog.inputs()], &mut self.dx);
        if let Some(k) = self.dx.iter().position(|v| !v.is_finite()) {
            let name = self
                .declared_of_state
                .get(k)
                .map_or_else(|| format!("state {k}"), |&d| self.catalog.states[d].name.clone());
            return Err(error(function, format!("derivative of '{name}' is {} at t = {} s", self.dx[k], self.s.time)));
        }
        Ok(())
    }

    /// Position in `u` of a known and in `y` of an unknown, checked.
    fn io_positions(&self, function: &'static str, unknowns: &[u32], knowns: &[u32]) -> FmiResult<()> {
        for &vr in knowns {
            if let Some((_, Causality::Input)) = self.catalog.real(vr) {
                continue;
            }
            match self.slot(function, vr)? {
                (_, Slot::Real(s)) if self.catalog.input_pos[s].is_some() => {}
                (i, _) => {
                    return Err(error(
                        function,
                        format!(
                            "known '{}' is not a real input (co-simulation knowns are inputs)",
                            self.catalog.variables[i].name
                        ),
                    ));
                }
            }
        }
        for &vr in unknowns {
            if let Some((_, Causality::Output)) = self.catalog.real(vr) {
                continue;
            }
            match self.slot(function, vr)? {
                (_, Slot::Real(s)) if self.catalog.output_pos[s].is_some() => {}
                (i, _) => {
                    return Err(error(
                        function,
                        format!("unknown '{}' is not a real output", self.catalog.variables[i].name),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Position in `u` of an input checked by [`Instance::io_positions`].
    fn input_position(&self, vr: u32) -> usize {
        self.catalog.real(vr).and_then(|(s, _)| self.catalog.input_pos[s]).expect("checked by io_positions")
    }

    /// Position in `y` of an output checked by [`Instance::io_positions`].
    fn output_position(&self, vr: u32) -> usize {
        self.catalog.real(vr).and_then(|(s, _)| self.catalog.output_pos[s]).expect("checked by io_positions")
    }

    /// The error for a value reference that is unknown or not a real.
    fn not_a_real(&self, function: &'static str, vr: u32) -> FmiError {
        if let Some(name) =
            self.catalog.state_index(vr).or(self.catalog.derivative_index(vr)).and_then(|_| self.real_name(vr))
        {
            return error(
                function,
                format!(
                    "'{name}' (value reference {vr}) is a continuous state or derivative: it is not set with {function}"
                ),
            );
        }
        match self.slot(function, vr) {
            Ok((i, _)) => {
                let name = &self.catalog.variables[i].name;
                error(function, format!("variable '{name}' (value reference {vr}) is not a Real"))
            }
            Err(e) => e,
        }
    }

    /// `fmi2GetDirectionalDerivative`: `dv_unknown = (d unknowns / d knowns) dv_known`, exact
    /// by forward-mode automatic differentiation of the model's equations. Knowns are inputs
    /// and continuous states, unknowns outputs and state derivatives (the Model Exchange
    /// Jacobians `A, B, C, D`; a Co-Simulation importer uses the inputs and outputs).
    pub fn get_directional_derivative(
        &mut self,
        unknowns: &[u32],
        knowns: &[u32],
        dv_known: &[f64],
        dv_unknown: &mut [f64],
    ) -> FmiResult<()> {
        const F: &str = "fmi2GetDirectionalDerivative";
        self.guarded(F, GET, |me| {
            Self::check_lengths(F, knowns.len(), dv_known.len())?;
            Self::check_lengths(F, unknowns.len(), dv_unknown.len())?;
            me.ensure_configured(F)?;
            for (d, &u) in me.u_dual.iter_mut().zip(&me.s.reals[me.catalog.inputs()]) {
                *d = Dual64::from(u);
            }
            for (d, &x) in me.x_dual.iter_mut().zip(&me.s.x) {
                *d = Dual64::from(x);
            }
            for (&vr, &dv) in knowns.iter().zip(dv_known) {
                match me.derivative_role(F, vr, true)? {
                    RealRole::Input(p) => me.u_dual[p].eps += dv,
                    RealRole::State(d) => {
                        if let Some(k) = me.state_of_declared[d] {
                            me.x_dual[k].eps += dv;
                        }
                    }
                    RealRole::Output(_) | RealRole::Derivative(_) => unreachable!("knowns are inputs or states"),
                }
            }
            let (mut want_outputs, mut want_derivatives) = (false, false);
            for &vr in unknowns {
                match me.derivative_role(F, vr, false)? {
                    RealRole::Output(_) => want_outputs = true,
                    _ => want_derivatives = true,
                }
            }
            let c = me.model.as_mut().expect("configured above");
            let t = Dual64::from(me.s.time);
            if want_outputs {
                let y_prev = &me.s.reals[me.catalog.outputs()];
                c.model.outputs_warm(&mut c.work_dual, t, &me.x_dual, &me.u_dual, y_prev, &mut me.y_dual);
            }
            if want_derivatives {
                c.model.derivatives(&mut c.work_dual, t, &me.x_dual, &me.u_dual, &mut me.dx_dual);
            }
            for (&vr, out) in unknowns.iter().zip(dv_unknown.iter_mut()) {
                *out = match me.derivative_role(F, vr, false)? {
                    RealRole::Output(p) => me.y_dual[p].eps,
                    RealRole::Derivative(d) => me.state_of_declared[d].map_or(0.0, |k| me.dx_dual[k].eps),
                    RealRole::Input(_) | RealRole::State(_) => unreachable!("unknowns are outputs or derivatives"),
                };
            }
            Ok(())
        })
    }

    /// `fmi2SetRealInputDerivatives`: first and second derivatives (orders 1 and 2), used to
    /// extrapolate the inputs over the next communication step by the polynomial
    /// `u + u' tau + u'' tau^2 / 2`. An order not set is zero.
    pub fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> FmiResult<()> {
        const F: &str = "fmi2SetRealInputDerivatives";
        self.guarded(F, SET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            Self::check_lengths(F, vrs.len(), orders.len())?;
            me.io_positions(F, &[], vrs)?;
            for (&order, &v) in orders.iter().zip(values) {
                if !(1..=MAX_INPUT_DERIVATIVE_ORDER).contains(&order) {
                    return Err(error(
                        F,
                        format!("derivative order {order} is not supported (1 to {MAX_INPUT_DERIVATIVE_ORDER})"),
                    ));
                }
                if !v.is_finite() {
                    return Err(error(F, format!("derivative value {v} is not finite")));
                }
            }
            let n_u = me.catalog.input_slots.len();
            for ((&vr, &order), &v) in vrs.iter().zip(orders).zip(values) {
                let p = me.input_position(vr);
                me.s.input_derivatives[p + (order as usize - 1) * n_u] = v;
            }
            Ok(())
        })
    }

    /// `fmi2GetRealOutputDerivatives`: first time derivatives of outputs, exact by AD along
    /// `(1, x', u')`.
    pub fn get_real_output_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetRealOutputDerivatives";
        self.guarded(F, OUTPUT_DERIVATIVES, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            Self::check_lengths(F, vrs.len(), orders.len())?;
            me.io_positions(F, vrs, &[])?;
            if let Some(&o) = orders.iter().find(|&&o| o != 1) {
                return Err(error(F, format!("derivative order {o} is not supported (maxOutputDerivativeOrder is 1)")));
            }
            me.ensure_configured(F)?;
            let c = me.model.as_mut().expect("configured above");
            let u = &me.s.reals[me.catalog.inputs()];
            c.model.derivatives(&mut c.work, me.s.time, &me.s.x, u, &mut me.dx);
            for (k, d) in me.u_dual.iter_mut().enumerate() {
                *d = Dual64::new(u[k], me.s.input_derivatives[k]);
            }
            for (k, d) in me.x_dual.iter_mut().enumerate() {
                *d = Dual64::new(me.s.x[k], me.dx[k]);
            }
            let y_prev = &me.s.reals[me.catalog.outputs()];
            c.model.outputs_warm(
                &mut c.work_dual,
                Dual64::new(me.s.time, 1.0),
                &me.x_dual,
                &me.u_dual,
                y_prev,
                &mut me.y_dual,
            );
            for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                let p = me.output_position(vr);
                *out = me.y_dual[p].eps;
            }
            Ok(())
        })
    }

    /// `fmi2DoStep`: integrates from `t` to `t + h` with the inputs held (or extrapolated with
    /// their derivatives). On integrator failure the state is left at `t` and `Discard` is
    /// returned.
    pub fn do_step(&mut self, t: f64, h: f64) -> FmiResult<()> {
        const F: &str = "fmi2DoStep";
        self.guarded(F, STEP, |me| {
            if !(h > 0.0 && h.is_finite()) {
                return Err(error(F, format!("communication step size {h} must be positive and finite")));
            }
            let tolerance = 1e-9 * me.s.time.abs().max(h).max(1.0);
            if !t.is_finite() || (t - me.s.time).abs() > tolerance {
                return Err(error(F, format!("communication point {t} s does not match the FMU time {} s", me.s.time)));
            }
            if let Some(stop) = me.s.stop_time
                && t + h > stop + tolerance
            {
                return Err(error(F, format!("step to {} s passes the stop time {stop} s", t + h)));
            }
            me.ensure_configured(F)?;
            me.x_before_step.copy_from_slice(&me.s.x);
            let Configured { model, work, .. } = me.model.as_mut().expect("configured above");
            let (rtol, atol) = model.tolerances();
            let (u, u_interp) = (&me.s.reals[me.catalog.inputs()], &mut me.u_interp);
            let (du, ddu) = me.s.input_derivatives.split_at(u.len());
            let result = me.ode.integrate(
                |tau, x, dx| {
                    let dt = tau - t;
                    for k in 0..u.len() {
                        u_interp[k] = u[k] + dt * (du[k] + 0.5 * dt * ddu[k]);
                    }
                    model.derivatives(work, tau, x, u_interp, dx);
                },
                |x| model.project_state(x),
                t,
                t + h,
                &mut me.s.x,
                &mut me.s.h_internal,
                rtol,
                atol,
            );
            if let Err(e) = result {
                me.s.x.copy_from_slice(&me.x_before_step);
                me.outputs_dirty = true;
                return Err(err(Status::Discard, F, format!("step from {t} s with h = {h} s failed: {e}")));
            }
            // Input derivatives apply to this step only; the inputs keep the values the importer
            // set (a master that caches them stays in sync) until it sets new ones.
            me.s.input_derivatives.iter_mut().for_each(|d| *d = 0.0);
            me.s.time = t + h;
            me.outputs_dirty = true;
            Ok(())
        })
    }

    /// `fmi2CancelStep`: our steps are synchronous, so there is never a step to cancel.
    pub fn cancel_step(&mut self) -> FmiResult<()> {
        self.guarded("fmi2CancelStep", NONE, |_| Ok(()))
    }

    /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`.
    pub fn last_successful_time(&mut self) -> FmiResult<f64> {
        self.guarded("fmi2GetRealStatus", STATUS, |me| Ok(me.s.time))
    }

    /// `fmi2GetBooleanStatus(fmi2Terminated)`: the slave never asks to terminate early.
    pub fn terminated_status(&mut self) -> FmiResult<bool> {
        self.guarded("fmi2GetBooleanStatus", STATUS, |_| Ok(false))
    }

    /// `fmi2GetStatus`, `fmi2GetIntegerStatus`, `fmi2GetStringStatus` and the other status
    /// kinds: they concern asynchronous steps, which our FMUs do not make.
    pub fn unsupported_status(&mut self, function: &'static str, kind: i32) -> FmiResult<()> {
        self.guarded(function, STATUS, |_| {
            Err(error(function, format!("status kind {kind} is not available: steps are synchronous, never pending")))
        })
    }

    /// [`Instance::guarded`] for a Model Exchange function: refused first of all on a
    /// Co-Simulation instance.
    fn me_guarded<T>(
        &mut self,
        function: &'static str,
        allowed: Allowed,
        body: impl FnOnce(&mut Self) -> FmiResult<T>,
    ) -> FmiResult<T> {
        if self.model_exchange {
            return self.guarded(function, allowed, body);
        }
        let e = error(function, "a Model Exchange function, but this instance was instantiated as fmi2CoSimulation");
        self.fail(&e);
        Err(e)
    }

    /// Checks an array of the declared state dimension.
    fn check_state_count(&self, function: &'static str, n: usize) -> FmiResult<()> {
        let declared = self.catalog.states.len();
        if n == declared {
            Ok(())
        } else {
            Err(error(function, format!("{n} values for {declared} continuous states")))
        }
    }

    /// `fmi2SetTime` (Model Exchange).
    pub fn set_time(&mut self, t: f64) -> FmiResult<()> {
        const F: &str = "fmi2SetTime";
        self.me_guarded(F, ME_TIME, |me| {
            if !t.is_finite() {
                return Err(error(F, format!("time {t} is not finite")));
            }
            me.s.time = t;
            me.outputs_dirty = true;
            Ok(())
        })
    }

    /// `fmi2SetContinuousStates` (Model Exchange): all declared states; those this
    /// configuration does not use are ignored.
    pub fn set_continuous_states(&mut self, x: &[f64]) -> FmiResult<()> {
        const F: &str = "fmi2SetContinuousStates";
        self.me_guarded(F, ME_TIME, |me| {
            me.check_state_count(F, x.len())?;
            me.ensure_configured(F)?;
            if let Some(d) = x.iter().position(|v| !v.is_finite()) {
                return Err(error(F, format!("state '{}' = {} is not finite", me.catalog.states[d].name, x[d])));
            }
            for (k, &d) in me.declared_of_state.iter().enumerate() {
                me.s.x[k] = x[d];
            }
            me.outputs_dirty = true;
            Ok(())
        })
    }

    /// `fmi2GetContinuousStates` (Model Exchange): the declared states, zero where unused.
    pub fn get_continuous_states(&mut self, x: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetContinuousStates";
        self.me_guarded(F, ME_READ, |me| {
            me.check_state_count(F, x.len())?;
            me.ensure_configured(F)?;
            me.to_declared(&me.s.x, x);
            Ok(())
        })
    }

    /// `fmi2GetDerivatives` (Model Exchange): zero for the declared states not in use.
    pub fn get_derivatives(&mut self, dx: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetDerivatives";
        self.me_guarded(F, ME_READ, |me| {
            me.check_state_count(F, dx.len())?;
            me.ensure_configured(F)?;
            me.evaluate_derivatives(F)?;
            me.to_declared(&me.dx, dx);
            Ok(())
        })
    }

    /// Spreads `values` (one per state of this configuration) over the declared states,
    /// zero where a declared state is not used.
    fn to_declared(&self, values: &[f64], declared: &mut [f64]) {
        declared.fill(0.0);
        for (&d, &v) in self.declared_of_state.iter().zip(values) {
            declared[d] = v;
        }
    }

    /// `fmi2GetNominalsOfContinuousStates` (Model Exchange).
    pub fn get_nominals_of_continuous_states(&mut self, nominals: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetNominalsOfContinuousStates";
        self.me_guarded(F, ME_NOMINALS, |me| {
            me.check_state_count(F, nominals.len())?;
            for (n, s) in nominals.iter_mut().zip(&me.catalog.states) {
                *n = s.nominal;
            }
            Ok(())
        })
    }

    /// `fmi2GetEventIndicators` (Model Exchange): our models have none.
    pub fn get_event_indicators(&mut self, indicators: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetEventIndicators";
        self.me_guarded(F, ME_READ, |_| {
            if indicators.is_empty() {
                Ok(())
            } else {
                Err(error(F, format!("{} event indicators requested, numberOfEventIndicators is 0", indicators.len())))
            }
        })
    }

    /// `fmi2EnterEventMode` (Model Exchange).
    pub fn enter_event_mode(&mut self) -> FmiResult<()> {
        const F: &str = "fmi2EnterEventMode";
        self.me_guarded(F, ME_TIME, |me| {
            me.s.state = S::EventMode;
            Ok(())
        })
    }

    /// `fmi2NewDiscreteStates` (Model Exchange): no discrete states, no events.
    pub fn new_discrete_states(&mut self) -> FmiResult<EventInfo> {
        const F: &str = "fmi2NewDiscreteStates";
        self.me_guarded(F, ME_EVENT, |_| Ok(EventInfo::default()))
    }

    /// `fmi2EnterContinuousTimeMode` (Model Exchange).
    pub fn enter_continuous_time_mode(&mut self) -> FmiResult<()> {
        const F: &str = "fmi2EnterContinuousTimeMode";
        self.me_guarded(F, ME_EVENT, |me| {
            me.s.state = S::ContinuousTimeMode;
            Ok(())
        })
    }

    /// `fmi2CompletedIntegratorStep` (Model Exchange): `(enterEventMode, terminateSimulation)`,
    /// both false (no step events).
    pub fn completed_integrator_step(&mut self) -> FmiResult<(bool, bool)> {
        const F: &str = "fmi2CompletedIntegratorStep";
        self.me_guarded(F, ME_CONTINUOUS, |_| Ok((false, false)))
    }

    /// `fmi2GetFMUstate`: a copy of everything that determines the continuation.
    pub fn get_fmu_state(&mut self) -> FmiResult<FmuState> {
        self.guarded("fmi2GetFMUstate", FMU_STATE, |me| Ok(me.s.clone()))
    }

    /// `fmi2GetFMUstate` into an existing state object (no allocation when sizes match).
    pub fn get_fmu_state_into(&mut self, target: &mut FmuState) -> FmiResult<()> {
        self.guarded("fmi2GetFMUstate", FMU_STATE, |me| {
            target.clone_from(&me.s);
            Ok(())
        })
    }

    /// `fmi2SetFMUstate`: continues bit-identically from a state of this model.
    pub fn set_fmu_state(&mut self, state: &FmuState) -> FmiResult<()> {
        const F: &str = "fmi2SetFMUstate";
        self.guarded(F, FMU_STATE, |me| {
            me.check_shape(F, state)?;
            me.s.clone_from(state);
            me.params_dirty = true;
            me.outputs_dirty = true;
            if me.s.state != S::Instantiated {
                me.ensure_configured(F)?;
            } else {
                me.model = None;
            }
            Ok(())
        })
    }

    fn check_shape(&self, function: &'static str, st: &FmuState) -> FmiResult<()> {
        let c = &self.catalog;
        if st.reals.len() != c.real_start.len()
            || st.integers.len() != c.integer_start.len()
            || st.booleans.len() != c.boolean_start.len()
            || st.input_derivatives.len() != 2 * c.input_slots.len()
        {
            return Err(error(function, "FMU state belongs to a different model"));
        }
        Ok(())
    }

    /// `fmi2SerializeFMUstate`: a self-describing byte string (magic, GUID, then the values,
    /// little-endian).
    pub fn serialize_fmu_state(&mut self, state: &FmuState) -> FmiResult<Vec<u8>> {
        self.guarded("fmi2SerializeFMUstate", FMU_STATE, |_| Ok(serialize::<M>(state)))
    }

    /// `fmi2DeSerializeFMUstate`: checks the magic, GUID and sizes.
    pub fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> FmiResult<FmuState> {
        const F: &str = "fmi2DeSerializeFMUstate";
        self.guarded(F, FMU_STATE, |me| {
            let st = deserialize::<M>(bytes).map_err(|m| error(F, m))?;
            me.check_shape(F, &st)?;
            Ok(st)
        })
    }

    /// Continuous state vector (for tests and in-process harnesses).
    pub fn continuous_state(&self) -> &[f64] {
        &self.s.x
    }
}

/// A state as bytes: magic, GUID, then the values ([`crate::codec`]).
fn serialize<M: Model>(st: &FmuState) -> Vec<u8> {
    let guid = description::guid::<M>();
    let mut w =
        Writer(Vec::with_capacity(64 + guid.len() + 8 * (st.reals.len() + st.x.len() + st.input_derivatives.len())));
    w.0.extend_from_slice(SERIAL_MAGIC);
    w.bytes(guid.as_bytes());
    w.0.push(st.state as u8);
    for v in [st.time, st.start_time, st.stop_time.unwrap_or(f64::NAN), st.h_internal] {
        w.f64(v);
    }
    for list in [&st.reals, &st.x, &st.input_derivatives] {
        w.f64s(list);
    }
    w.u32(st.integers.len() as u32);
    for v in &st.integers {
        w.0.extend_from_slice(&v.to_le_bytes());
    }
    w.bytes(&st.booleans.iter().map(|&v| u8::from(v)).collect::<Vec<u8>>());
    w.0
}

fn deserialize<M: Model>(bytes: &[u8]) -> Result<FmuState, String> {
    let mut r = Reader(bytes);
    if r.take(8)? != SERIAL_MAGIC {
        return Err("not a serialized FMU state of ours (bad magic)".into());
    }
    let guid = r.bytes()?;
    if guid != description::guid::<M>().as_bytes() {
        return Err(format!("serialized FMU state belongs to another model (GUID {})", String::from_utf8_lossy(guid)));
    }
    let state = SlaveState::from_u8(r.take(1)?[0]).ok_or("serialized FMU state has an invalid slave state")?;
    let (time, start_time, stop, h_internal) = (r.f64()?, r.f64()?, r.f64()?, r.f64()?);
    let reals = r.f64s()?;
    let x = r.f64s()?;
    let input_derivatives = r.f64s()?;
    let n = r.len(4)?;
    let integers = (0..n)
        .map(|_| Ok(i32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes"))))
        .collect::<Result<Vec<_>, String>>()?;
    let booleans = r.bytes()?.iter().map(|&b| b != 0).collect();
    if !r.is_empty() {
        return Err("serialized FMU state has trailing bytes".into());
    }
    Ok(FmuState {
        state,
        time,
        start_time,
        stop_time: (!stop.is_nan()).then_some(stop),
        h_internal,
        reals,
        integers,
        booleans,
        x,
        input_derivatives,
    })
}
