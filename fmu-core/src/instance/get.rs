//! `fmi2GetReal`, `fmi2GetInteger`, `fmi2GetBoolean` and `fmi2GetString`; outputs evaluated
//! lazily (and, for outputs without feedthrough, from the model's state-only shortcut), state
//! derivatives on demand.

use std::ffi::c_char;

use super::lookup::Discrete;
use super::{GET, Instance, S, error};
use crate::catalog::Slot;
use crate::model::Model;
use crate::status::FmiResult;
use crate::variable::Causality;

impl<M: Model> Instance<M> {
    /// `fmi2GetString`: pointers to the stored NUL-terminated values, valid until the next call
    /// that sets a String or restores an FMU state (FMI 2.0 section 2.1.7 asks for the next call).
    pub fn get_string(&mut self, vrs: &[u32], values: &mut [*const c_char]) -> FmiResult<()> {
        const F: &str = "fmi2GetString";
        self.guarded(F, GET, |me| {
            Self::check_lengths(F, vrs.len(), values.len())?;
            for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                let (_, s) = me.string_slot(F, vr)?;
                *out = me.s.strings[s].as_ptr();
            }
            Ok(())
        })
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
        self.flush_warnings();
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
        self.get_discrete("fmi2GetInteger", vrs, values)
    }

    /// `fmi2GetBoolean`.
    pub fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> FmiResult<()> {
        self.get_discrete("fmi2GetBoolean", vrs, values)
    }

    fn get_discrete<T: Discrete>(&mut self, function: &'static str, vrs: &[u32], values: &mut [T]) -> FmiResult<()> {
        self.guarded(function, GET, |me| {
            Self::check_lengths(function, vrs.len(), values.len())?;
            for (&vr, out) in vrs.iter().zip(values.iter_mut()) {
                let (_, s) = me.discrete_slot::<T>(function, vr)?;
                *out = T::values(&mut me.s)[s];
            }
            Ok(())
        })
    }

    /// The state derivative at the current time, state and inputs into `dx`; an error if it is
    /// not finite.
    pub(super) fn evaluate_derivatives(&mut self, function: &'static str) -> FmiResult<()> {
        let c = self.model.as_mut().expect("configured by the caller");
        c.model.derivatives(&mut c.work, self.s.time, &self.s.x, &self.s.reals[self.catalog.inputs()], &mut self.dx);
        self.flush_warnings();
        if let Some(k) = self.dx.iter().position(|v| !v.is_finite()) {
            let name = self
                .declared_of_state
                .get(k)
                .map_or_else(|| format!("state {k}"), |&d| self.catalog.states[d].name.clone());
            return Err(error(function, format!("derivative of '{name}' is {} at t = {} s", self.dx[k], self.s.time)));
        }
        Ok(())
    }
}
