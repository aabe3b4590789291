//! [`SystemSlave`]: the FMI 2.0 Co-Simulation slave of a system FMU, a [`Master`] behind the
//! `fmi2*` functions. This file holds the slave, its opening, its inner run and the helpers of
//! its calls; `fmi.rs` the calls themselves.

mod fmi;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fmu_core::instance::Logger;
use fmu_core::{CoSimulation, FmiError, FmiResult, Status};

use super::{INTERFACE_FILE, Interface, OuterCausality, OuterType, SYSTEM_FILE};
use cosim::import::FmuLogger;
use cosim::master::{FmuCache, Master, MasterError, MasterState};
use cosim::system::{ExternalInput, Signal, System, SystemContext, SystemDescription, SystemError};

/// Where the outer FMU is in the FMI 2.0 Co-Simulation state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Instantiated,
    Initialization,
    Stepping,
    /// An FMU ended the simulation (`fmi2Terminated`): only status queries and termination.
    Ended,
    Terminated,
    /// A call failed with `fmi2Error`: only freeing and resetting.
    Failed,
}

/// Messages of the inner FMUs, collected while the master runs and passed to the importer's
/// logger afterwards (the importer's logger is not `Send`, the master's logger must be).
#[derive(Default)]
struct InnerMessages {
    debug: bool,
    messages: Mutex<Vec<(Status, String, String)>>,
}

impl FmuLogger for InnerMessages {
    fn log(&self, instance: &str, status: Status, category: &str, message: &str) {
        // Inner FMUs and the importer's logger share the status codes (`fmi2-types`).
        let status = if status == Status::Pending { Status::Ok } else { status };
        if status != Status::Ok || self.debug {
            let mut messages = self.messages.lock().unwrap_or_else(|e| e.into_inner());
            messages.push((status, category.to_string(), format!("[{instance}] {message}")));
        }
    }

    fn debug_logging(&self) -> bool {
        self.debug
    }
}

/// A system FMU's slave: the outer variables' values and, from the end of initialization mode,
/// the master that runs the inner FMUs.
pub struct SystemSlave {
    logger: Logger,
    debug_logging: bool,
    interface: Interface,
    description: SystemDescription,
    phase: Phase,
    /// Values of the outer parameters and inputs (outputs: unused), by outer variable.
    values: Vec<f64>,
    start_time: f64,
    stop_time: Option<f64>,
    fmus: FmuCache,
    inner_messages: Arc<InnerMessages>,
    run: Option<Run>,
    /// Outer inputs set since the coupling was last solved.
    inputs_changed: bool,
    /// Parameters or inputs set in initialization mode since the master was built.
    rebuild: bool,
    /// First and second time derivatives of each outer input for the next step
    /// (`fmi2SetRealInputDerivatives`), zero after every step.
    input_derivatives: Vec<[f64; 2]>,
    /// Some input derivative was set since the last step (no scan of the list otherwise).
    input_derivatives_set: bool,
    last_successful_time: f64,
    /// The warning that inputs set between grid points wait for the next one was given.
    warned_input_between_grid_points: bool,
}

/// The running system.
///
/// The master stays on the system's own grid `start + n * step` whatever the importer's
/// communication step: a communication point between two grid points is reached by stepping the
/// master on to the next grid point (look-ahead) and interpolating the outputs linearly between
/// the two grid points. So every importer samples the one trajectory of `orchestrator run`.
struct Run {
    master: Master,
    /// For each outer variable: its external input (inputs), its recorded column (outputs).
    slot: Vec<Option<usize>>,
    /// The outer outputs at [`Run::time`] (recorded values; stale while inputs changed).
    row: Vec<f64>,
    /// The outer communication point, s: the master's time, or before it inside [`Run::segment`].
    time: f64,
    /// While [`Run::time`] lies between grid points: the recorded values at both of them.
    segment: Option<Segment>,
    /// A segment no longer in use, kept for its buffers (not part of the state).
    spare: Option<Segment>,
    /// Communication points of the system grid `start + n * step` passed so far.
    grid_index: usize,
    experiment: cosim::system::Experiment,
}

/// The master's last step when the outer communication point fell inside it: the recorded
/// values at its start and at its end (the master's time), as that step computed them.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Segment {
    /// Start of the step, s.
    start: f64,
    /// Recorded values at `start`.
    left: Vec<f64>,
    /// Recorded values at the end of the step.
    right: Vec<f64>,
}

/// `fmi2GetFMUstate` of a system FMU: the master's state (every inner FMU's state and the
/// coupling's memory) and the outer variables.
pub struct SystemState {
    master: MasterState,
    outer: OuterState,
}

/// The outer part of [`SystemState`], serialised as JSON before the master's bytes.
#[derive(serde::Serialize, serde::Deserialize)]
struct OuterState {
    values: Vec<f64>,
    row: Vec<f64>,
    time: f64,
    segment: Option<Segment>,
    grid_index: usize,
    ended: bool,
    last_successful_time: f64,
    inputs_changed: bool,
}

impl Run {
    /// Largest distance, s, at which a time counts as the same communication point (importers
    /// round: libcosim counts whole nanoseconds, ecos adds steps).
    fn tolerance(&self) -> f64 {
        1e-9 * self.experiment.step
    }

    /// Whether the outer communication point is the master's (not inside a look-ahead step).
    fn on_grid(&self) -> bool {
        self.segment.is_none()
    }

    /// Steps to `t + h` (see [`Run`]): the master steps on its grid, up to the first grid point
    /// at or after `t + h` (the stop time ends the grid, as in `orchestrator run`), and the
    /// outputs are recorded there or interpolated. `Err(Ok(message))`: bad arguments;
    /// `Err(Err(e))`: the master failed.
    fn advance(&mut self, t: f64, h: f64, stop_time: Option<f64>) -> Result<(), Result<String, MasterError>> {
        let (exp, tolerance, now) = (self.experiment, self.tolerance(), self.time);
        if h.is_nan() || h <= 0.0 || h.is_infinite() || (t - now).abs() > tolerance.max(1e-12 * now.abs()) {
            return Err(Ok(format!("step from t = {t} s with h = {h} s, but the system is at t = {now} s")));
        }
        let end = t + h;
        if let Some(stop) = stop_time.filter(|&s| end > s + tolerance) {
            return Err(Ok(format!("step from t = {t} s with h = {h} s ends after the stop time {stop} s")));
        }
        while self.master.time() < end - tolerance {
            let time = self.master.time();
            let next_grid = exp.start + (self.grid_index + 1) as f64 * exp.step;
            let target = stop_time.filter(|&s| next_grid >= s - tolerance).unwrap_or(next_grid);
            let look_ahead = target > end + tolerance;
            // The segment's buffers are reused from one look-ahead step to the next (kept in
            // `spare` while no step looks ahead).
            let mut segment = self.segment.take();
            if !look_ahead && segment.is_some() {
                self.spare = segment.take();
            }
            if look_ahead {
                let n = self.row.len();
                let spare = &mut self.spare;
                let s = segment.get_or_insert_with(|| {
                    spare.take().unwrap_or_else(|| Segment { start: time, left: vec![0.0; n], right: vec![0.0; n] })
                });
                s.start = time;
                self.master.record(&mut s.left).map_err(Err)?;
            }
            self.master.step(target - time).map_err(Err)?;
            self.grid_index += 1;
            if let Some(s) = segment.as_mut() {
                self.master.record(&mut s.right).map_err(Err)?;
            }
            self.segment = segment;
        }
        if self.master.time() <= end + tolerance {
            if let Some(s) = self.segment.take() {
                self.spare = Some(s);
            }
            self.time = self.master.time();
            return self.master.record(&mut self.row).map_err(Err);
        }
        let segment = self.segment.as_ref().expect("the master is ahead only after a look-ahead step");
        let weight = (end - segment.start) / (self.master.time() - segment.start);
        for ((y, left), right) in self.row.iter_mut().zip(&segment.left).zip(&segment.right) {
            *y = left + weight * (right - left);
        }
        self.time = end;
        Ok(())
    }
}

fn error(function: &'static str, message: impl Into<String>) -> FmiError {
    FmiError { status: Status::Error, function, message: message.into() }
}

/// Why [`SystemSlave::open`] cannot open a system FMU's resources.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// `container.json` cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// `container.json`.
        path: PathBuf,
        /// The reason.
        source: std::io::Error,
    },
    /// `container.json` is not a valid interface.
    #[error("{}: {source}", path.display())]
    Interface {
        /// `container.json`.
        path: PathBuf,
        /// The reason.
        source: serde_json::Error,
    },
    /// The instantiation's GUID is not the one `container.json` was exported with.
    #[error(
        "GUID '{guid}' does not match '{found}' of {}: the modelDescription.xml belongs to another export",
        path.display()
    )]
    Guid {
        /// The GUID the importer passed.
        guid: String,
        /// The GUID in `container.json`.
        found: String,
        /// `container.json`.
        path: PathBuf,
    },
    /// `system.json` is not a valid system description.
    #[error(transparent)]
    System(#[from] SystemError),
}

impl SystemSlave {
    /// Reads `container.json` and `system.json` from the unpacked `resources` folder.
    pub fn open(resources: &Path, guid: &str, logger: Logger) -> Result<SystemSlave, OpenError> {
        let path = resources.join(INTERFACE_FILE);
        let text = std::fs::read_to_string(&path).map_err(|source| OpenError::Read { path: path.clone(), source })?;
        let interface: Interface =
            serde_json::from_str(&text).map_err(|source| OpenError::Interface { path: path.clone(), source })?;
        if interface.guid != guid {
            return Err(OpenError::Guid { guid: guid.to_string(), found: interface.guid, path });
        }
        let description = SystemDescription::from_file(resources.join(SYSTEM_FILE), &SystemContext::default())?;
        let values: Vec<f64> = interface.variables.iter().map(|v| v.start.unwrap_or(0.0)).collect();
        let input_derivatives = vec![[0.0; 2]; values.len()];
        Ok(SystemSlave {
            logger,
            debug_logging: false,
            start_time: description.experiment.start,
            stop_time: None,
            interface,
            description,
            phase: Phase::Instantiated,
            values,
            fmus: FmuCache::default(),
            inner_messages: Arc::new(InnerMessages::default()),
            run: None,
            inputs_changed: false,
            rebuild: true,
            input_derivatives,
            input_derivatives_set: false,
            last_successful_time: 0.0,
            warned_input_between_grid_points: false,
        })
    }

    fn log(&mut self, status: Status, message: &str) {
        if status != Status::Ok || self.debug_logging {
            (self.logger)(status, status.category(), message);
        }
    }

    /// Passes the inner FMUs' messages on to the importer.
    fn forward_inner_messages(&mut self) {
        let messages = std::mem::take(&mut *self.inner_messages.messages.lock().unwrap_or_else(|e| e.into_inner()));
        for (status, category, message) in messages {
            (self.logger)(status, &category, &message);
        }
    }

    /// Checks the phase, runs `body`, forwards inner messages and records a failure.
    fn guarded<T>(
        &mut self,
        function: &'static str,
        allowed: &[Phase],
        body: impl FnOnce(&mut Self) -> FmiResult<T>,
    ) -> FmiResult<T> {
        let result = if allowed.contains(&self.phase) {
            body(self)
        } else {
            Err(error(function, format!("illegal call sequence: not allowed in state {:?}", self.phase)))
        };
        self.forward_inner_messages();
        if let Err(e) = &result {
            self.fail(e);
        }
        result
    }

    /// A master error as the outer FMU's error: which inner instance, which time.
    fn master_error(&mut self, function: &'static str, e: MasterError) -> FmiError {
        if let MasterError::Terminated { time, .. } = e {
            self.phase = Phase::Ended;
            self.last_successful_time = time;
            return FmiError { status: Status::Discard, function, message: e.to_string() };
        }
        error(function, e.to_string())
    }

    /// The outer variable with value reference `vr`, checked against type and causalities.
    fn variable(
        &self,
        function: &'static str,
        vr: u32,
        var_type: OuterType,
        causalities: &[OuterCausality],
    ) -> FmiResult<usize> {
        let k = (vr as usize).checked_sub(1).filter(|&k| k < self.interface.variables.len());
        let Some(k) = k else { return Err(error(function, format!("unknown value reference {vr}"))) };
        let v = &self.interface.variables[k];
        if v.var_type != var_type {
            return Err(error(
                function,
                format!("'{}' (value reference {vr}) is {:?}, not {var_type:?}", v.name, v.var_type),
            ));
        }
        if !causalities.contains(&v.causality) {
            return Err(error(function, format!("'{}' is {:?}: it cannot be set now", v.name, v.causality)));
        }
        Ok(k)
    }

    fn set(&mut self, function: &'static str, var_type: OuterType, vrs: &[u32], values: &[f64]) -> FmiResult<()> {
        const ALL: &[Phase] = &[Phase::Instantiated, Phase::Initialization, Phase::Stepping];
        self.guarded(function, ALL, |me| {
            let settable: &[OuterCausality] = match me.phase {
                Phase::Stepping => &[OuterCausality::Input],
                _ => &[OuterCausality::Parameter, OuterCausality::Input],
            };
            if vrs.len() != values.len() {
                return Err(error(function, "value reference and value arrays differ in length"));
            }
            for (&vr, &value) in vrs.iter().zip(values) {
                let k = me.variable(function, vr, var_type, settable)?;
                if !value.is_finite() {
                    return Err(error(function, format!("'{}' = {value}: not finite", me.interface.variables[k].name)));
                }
                if me.phase == Phase::Stepping && me.values[k] == value {
                    // Importers set every input at every step: an unchanged value changes nothing.
                    continue;
                }
                me.values[k] = value;
                if me.phase == Phase::Stepping {
                    let run = me.run.as_mut().expect("stepping has a run");
                    let input = run.slot[k].expect("inputs have an external slot");
                    run.master.set_external_signal(input, Signal::Constant(value));
                    me.inputs_changed = true;
                    if !run.on_grid() {
                        me.warn_input_between_grid_points(k);
                    }
                } else {
                    me.rebuild = true;
                }
            }
            Ok(())
        })
    }

    /// Warns, once per instance, that input `k` set between two grid points takes effect at the
    /// next one: the system samples its inputs on its own grid, as `orchestrator run` does.
    fn warn_input_between_grid_points(&mut self, k: usize) {
        if std::mem::replace(&mut self.warned_input_between_grid_points, true) {
            return;
        }
        let run = self.run.as_ref().expect("stepping has a run");
        let message = format!(
            "input '{}' set at t = {} s, between the system's grid points (step {} s): it takes effect at \
             the next grid point, t = {} s (inputs are sampled on the system's grid; step at the system's \
             step or a multiple of it for inputs at exact times). Not repeated for this instance.",
            self.interface.variables[k].name,
            run.time,
            run.experiment.step,
            run.master.time()
        );
        self.log(Status::Warning, &message);
    }

    /// Integer and Boolean reads: parameters and inputs only (outputs are Real), `put(position,
    /// value)` for each value reference.
    fn get_held(
        &mut self,
        function: &'static str,
        var_type: OuterType,
        vrs: &[u32],
        mut put: impl FnMut(usize, f64),
    ) -> FmiResult<()> {
        const HELD: &[OuterCausality] = &[OuterCausality::Parameter, OuterCausality::Input];
        for (position, &vr) in vrs.iter().enumerate() {
            let k = self.variable(function, vr, var_type, HELD).inspect_err(|e| self.fail(e))?;
            put(position, self.values[k]);
        }
        Ok(())
    }

    /// Builds the master with the current parameter and input values and initializes it.
    fn build(&mut self, function: &'static str) -> FmiResult<()> {
        let mut description = self.description.clone();
        for (v, value) in self.interface.variables.iter().zip(&self.values) {
            if v.causality != OuterCausality::Parameter {
                continue;
            }
            let text = match v.var_type {
                OuterType::Real => format!("{value:?}"),
                OuterType::Integer => format!("{}", *value as i64),
                OuterType::Boolean => (*value != 0.0).to_string(),
            };
            description.set_value(&format!("{}={text}", v.name)).map_err(|e| error(function, e.to_string()))?;
        }
        description.experiment.start = self.start_time;
        description.experiment.stop = self.stop_time.unwrap_or(self.start_time + 1e8 * description.experiment.step);
        let fmus = &mut self.fmus;
        let mut system =
            description.resolve(|path| fmus.description(path)).map_err(|e| error(function, e.to_string()))?;
        let slot = self.outer_slots(function, &mut system)?;
        let experiment = system.experiment;
        let logger: Arc<dyn FmuLogger> = self.inner_messages.clone();
        let mut master = Master::new(system, &mut self.fmus, logger).map_err(|e| self.master_error(function, e))?;
        master.initialize().map_err(|e| self.master_error(function, e))?;
        let mut row = vec![0.0; master.recorded_names().len()];
        master.record(&mut row).map_err(|e| self.master_error(function, e))?;
        let time = master.time();
        self.run = Some(Run { master, slot, row, time, segment: None, spare: None, grid_index: 0, experiment });
        self.rebuild = false;
        self.inputs_changed = false;
        self.last_successful_time = self.start_time;
        Ok(())
    }

    /// Points the outer inputs at external inputs of `system` (adding those that have none)
    /// with the outer values as constants, and the outputs at recorded columns.
    fn outer_slots(&self, function: &'static str, system: &mut System) -> FmiResult<Vec<Option<usize>>> {
        let recorded: Vec<String> = system.outputs.iter().map(|&r| system.name(r)).collect();
        let mut slot = Vec::with_capacity(self.values.len());
        for (v, &value) in self.interface.variables.iter().zip(&self.values) {
            slot.push(match v.causality {
                OuterCausality::Parameter => None,
                OuterCausality::Input => {
                    let to = system
                        .var_ref(&v.name)
                        .ok_or_else(|| error(function, format!("'{}' is not a variable of the system", v.name)))?;
                    let signal = Signal::Constant(value);
                    Some(match system.inputs.iter().position(|e| e.to == to) {
                        Some(k) => {
                            system.inputs[k].signal = signal;
                            k
                        }
                        None => {
                            system.inputs.push(ExternalInput { to, signal });
                            system.inputs.len() - 1
                        }
                    })
                }
                OuterCausality::Output => Some(
                    recorded
                        .iter()
                        .position(|n| *n == v.name)
                        .ok_or_else(|| error(function, format!("'{}' is not recorded by the system", v.name)))?,
                ),
            });
        }
        Ok(slot)
    }

    /// Solves the coupling again after inputs changed. On a grid point the recorded row follows;
    /// between grid points the master is at the next one, where the inputs take effect, and the
    /// outputs at the communication point keep their values (the inputs are sampled on the grid).
    fn refresh(&mut self, function: &'static str) -> FmiResult<()> {
        if self.phase == Phase::Initialization && (self.rebuild || self.run.is_none()) {
            return self.build(function);
        }
        if self.inputs_changed {
            let run = self.run.as_mut().expect("stepping has a run");
            let mut result = run.master.resolve_coupling();
            if run.on_grid() {
                result = result.and_then(|()| run.master.record(&mut run.row));
            }
            result.map_err(|e| self.master_error(function, e))?;
            self.inputs_changed = false;
        }
        Ok(())
    }
}
