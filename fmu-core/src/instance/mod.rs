//! One FMU instance behind a safe API: the FMI 2.0 Co-Simulation and Model Exchange state
//! machines, variable storage, lazy output evaluation, the integrator, directional derivatives
//! and FMU state.
//!
//! The C boundary ([`crate::abi`]) only converts pointers to slices and calls these methods, so
//! tests and in-process harnesses exercise exactly the code an importer does.
//!
//! This file holds [`Instance`], its construction, the lifecycle states and which calls each
//! allows; the FMI functions are in the sibling files by concept: `lifecycle` (setup,
//! initialization, reset, configuration from the parameters), `lookup` (value references
//! resolved), `set` and `get` (variable values, lazy outputs), `cosim` (stepping, input and output
//! derivatives), `model_exchange`, `derivatives` (directional derivatives) and `state` (FMU state
//! save, restore and serialisation).

mod cosim;
mod derivatives;
mod get;
mod lifecycle;
mod lookup;
mod model_exchange;
mod set;
mod state;
mod warnings;

use std::path::PathBuf;
use std::sync::Arc;

use num_dual::Dual64;

use crate::catalog::Catalog;
use crate::description;
use crate::model::Model;
use crate::ode::Dopri5;
use crate::status::{FmiError, FmiResult, Status};
pub use warnings::{Cause, Warnings};

pub use cosim::MAX_INPUT_DERIVATIVE_ORDER;
pub use model_exchange::EventInfo;
pub use state::FmuState;

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
/// Every state.
const FMU_STATE: Allowed = Allowed(GET.0 | S::Instantiated.bit());
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
    /// The one-time warnings logged ([`warnings`]).
    logged: warnings::Logged,
    /// The unzipped `resources` folder, from `fmuResourceLocation` (see [`Parameters::resources`]).
    ///
    /// [`Parameters::resources`]: crate::model::Parameters::resources
    resources: Option<PathBuf>,
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
        let s = FmuState::initial(&catalog);
        let n_declared = catalog.states.len();
        Instance {
            name: name.to_string(),
            model_exchange: false,
            declared_of_state: Vec::new(),
            state_of_declared: vec![None; n_declared],
            catalog,
            logger,
            debug_logging: false,
            logged: warnings::Logged::default(),
            resources: None,
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

    /// A new Model Exchange instance (`fmuType = fmi2ModelExchange`); `Err` if the model offers
    /// Co-Simulation only ([`Model::offers_model_exchange`]).
    pub fn model_exchange(name: &str, logger: Logger) -> Result<Self, String> {
        let mut instance = Self::with_logger(name, logger);
        if !M::offers_model_exchange() {
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

    /// Sets the `resources` folder the model's [`Parameters::resources`] returns (at
    /// `fmi2Instantiate`, from its `fmuResourceLocation`).
    ///
    /// [`Parameters::resources`]: crate::model::Parameters::resources
    pub fn set_resources(&mut self, folder: Option<PathBuf>) {
        self.resources = folder;
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

    /// Continuous state vector (for tests and in-process harnesses).
    pub fn continuous_state(&self) -> &[f64] {
        &self.s.x
    }
}
