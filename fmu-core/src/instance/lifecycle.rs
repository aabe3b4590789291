//! The lifecycle calls (`fmi2SetupExperiment`, initialization mode, `fmi2Terminate`,
//! `fmi2Reset`) and the configuration of the model from its parameters.

use std::ffi::CString;
use std::path::Path;

use num_dual::Dual64;

use super::{Configured, FmuState, INIT, Instance, SETUP, SlaveState, TERMINATE, error};
use crate::catalog::{Catalog, Slot};
use crate::model::{Model, Parameters};
use crate::ode::Dopri5;
use crate::status::{FmiResult, Status};

struct ParamView<'a> {
    catalog: &'a Catalog,
    reals: &'a [f64],
    integers: &'a [i32],
    booleans: &'a [bool],
    strings: &'a [CString],
    resources: Option<&'a Path>,
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
    fn string(&self, vr: u32) -> &str {
        match self.catalog.index_of(vr).map(|i| self.catalog.slots[i]) {
            // Set only from `&str` (checked UTF-8) or the declared start values.
            Some(Slot::String(s)) => self.strings[s].to_str().unwrap_or_default(),
            _ => panic!("model asked for String value reference {vr}, which it does not declare"),
        }
    }
    fn resources(&self) -> Option<&Path> {
        self.resources
    }
}

impl<M: Model> Instance<M> {
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
        self.s = FmuState::initial(&self.catalog);
        self.model = None;
        self.params_dirty = true;
        self.outputs_dirty = true;
        self.log(Status::Ok, "reset");
    }

    /// Configures the model from the parameters if they changed, and (before stepping starts)
    /// sets the initial state from them.
    pub(super) fn ensure_configured(&mut self, function: &'static str) -> FmiResult<()> {
        if !self.params_dirty && self.model.is_some() {
            return Ok(());
        }
        let view = ParamView {
            catalog: &self.catalog,
            reals: &self.s.reals,
            integers: &self.s.integers,
            booleans: &self.s.booleans,
            strings: &self.s.strings,
            resources: self.resources.as_deref(),
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
}
