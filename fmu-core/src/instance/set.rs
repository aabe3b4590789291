//! `fmi2SetReal`, `fmi2SetInteger`, `fmi2SetBoolean` and `fmi2SetString`: every value checked
//! before any is written; tunable parameters set between steps committed at once.

use std::ffi::CString;

use super::lookup::Discrete;
use super::{Instance, S, SET, error};
use crate::model::Model;
use crate::status::FmiResult;
use crate::variable::{Causality, Variability};

/// The parameter values a tunable change may have to roll back: reals, integers, booleans and
/// strings.
type ParameterValues = (Vec<f64>, Vec<i32>, Vec<bool>, Vec<CString>);

impl<M: Model> Instance<M> {
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
    fn snapshot_if_tunable(&self, sets_parameter: bool) -> Option<ParameterValues> {
        (sets_parameter && matches!(self.s.state, S::StepComplete | S::EventMode))
            .then(|| (self.s.reals.clone(), self.s.integers.clone(), self.s.booleans.clone(), self.s.strings.clone()))
    }

    /// Tunable parameters set between steps take effect, and are checked by the model, at once;
    /// values the model refuses are rolled back and reported by the setter itself.
    fn commit_tunable(&mut self, function: &'static str, before: Option<ParameterValues>) -> FmiResult<()> {
        let Some((reals, integers, booleans, strings)) = before else { return Ok(()) };
        if let Err(e) = self.ensure_configured(function) {
            self.s.reals = reals;
            self.s.integers = integers;
            self.s.booleans = booleans;
            self.s.strings = strings;
            self.params_dirty = false;
            return Err(e);
        }
        Ok(())
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
        self.set_discrete(F, vrs, values, |me, i, s, v| {
            let (min, max) = me.catalog.integer_range[s];
            if v < min || v > max {
                let name = &me.catalog.variables[i].name;
                return Err(error(F, format!("value {v} for '{name}' is outside [{min}, {max}]")));
            }
            Ok(())
        })
    }

    /// `fmi2SetBoolean`.
    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> FmiResult<()> {
        self.set_discrete("fmi2SetBoolean", vrs, values, |_, _, _, _| Ok(()))
    }

    /// Sets Integer or Boolean values: every one checked, by type, by `check` (given the
    /// variable, its index among `T`'s values and the value) and for settability, before any
    /// is written.
    fn set_discrete<T: Discrete>(
        &mut self,
        function: &'static str,
        vrs: &[u32],
        values: &[T],
        check: impl Fn(&Self, usize, usize, T) -> FmiResult<()>,
    ) -> FmiResult<()> {
        self.guarded(function, SET, |me| {
            Self::check_lengths(function, vrs.len(), values.len())?;
            let mut sets_parameter = false;
            for (&vr, &v) in vrs.iter().zip(values) {
                let (i, s) = me.discrete_slot::<T>(function, vr)?;
                check(me, i, s, v)?;
                me.check_settable(function, i)?;
                sets_parameter |= me.catalog.causality[i] == Causality::Parameter;
            }
            let before = me.snapshot_if_tunable(sets_parameter);
            for (&vr, &v) in vrs.iter().zip(values) {
                let (i, s) = me.discrete_slot::<T>(function, vr)?;
                let stored = &mut T::values(&mut me.s)[s];
                if *stored != v {
                    *stored = v;
                    me.mark_set(i);
                }
            }
            me.commit_tunable(function, before)
        })
    }

    /// `fmi2SetString`: every value reference checked to be a settable String and every value
    /// free of NUL before any is written.
    pub fn set_string(&mut self, vrs: &[u32], values: &[&str]) -> FmiResult<()> {
        const F: &str = "fmi2SetString";
        self.guarded(F, SET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            let mut sets_parameter = false;
            let mut checked = Vec::with_capacity(values.len());
            for (&vr, &v) in vrs.iter().zip(values) {
                let (i, s) = me.string_slot(F, vr)?;
                me.check_settable(F, i)?;
                let value = CString::new(v).map_err(|_| {
                    error(F, format!("value for '{}' holds a NUL character", me.catalog.variables[i].name))
                })?;
                sets_parameter |= me.catalog.causality[i] == Causality::Parameter;
                checked.push((i, s, value));
            }
            let before = me.snapshot_if_tunable(sets_parameter);
            for (i, s, value) in checked {
                if me.s.strings[s] != value {
                    me.s.strings[s] = value;
                    me.mark_set(i);
                }
            }
            me.commit_tunable(F, before)
        })
    }
}
