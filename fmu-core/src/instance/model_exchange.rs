//! Model Exchange: time and continuous states set by the importer, derivatives, nominals, and
//! the event functions of models that have no events.

use super::Allowed;
use super::{Instance, ME_CONTINUOUS, ME_EVENT, ME_NOMINALS, ME_READ, ME_TIME, S, error};
use crate::model::Model;
use crate::status::FmiResult;

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

impl<M: Model> Instance<M> {
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
}
