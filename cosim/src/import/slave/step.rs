//! [`Slave`]'s stepping (`fmi2DoStep` and the status after a discarded step), the derivatives
//! (directional, input and output) and the Model Exchange calls.

use super::super::error::CallError;
use super::super::ffi::{self, FMI2_FALSE, FMI2_LAST_SUCCESSFUL_TIME, FMI2_TERMINATED, Fmi2Boolean, Fmi2Status};
use super::{Slave, StepResult};
use crate::import::Status;

impl Slave {
    /// `fmi2DoStep` from communication point `t` over `h`. `fmi2Discard` is not an error: it is
    /// [`StepResult::Terminated`] when the FMU then reports `fmi2Terminated` (see
    /// [`Slave::terminated`]), else [`StepResult::Discarded`]. No allocation.
    pub fn do_step(&mut self, t: f64, h: f64, no_set_fmu_state_prior: bool) -> Result<StepResult, CallError> {
        const F: &str = "fmi2DoStep";
        self.time = t;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; scalar arguments only.
        let code = unsafe { (self.functions.do_step)(self.c(), t, h, no_set_fmu_state_prior as Fmi2Boolean) };
        if code == Status::Discard as Fmi2Status {
            drop(mark);
            return Ok(if self.terminated() { StepResult::Terminated } else { StepResult::Discarded });
        }
        self.check(F, mark, code)?;
        self.time = t + h;
        Ok(StepResult::Complete)
    }

    /// `fmi2GetDirectionalDerivative`: `dv_unknown = (d unknown / d known) dv_known`. Both
    /// length pairs are checked. No allocation.
    pub fn get_directional_derivative(
        &mut self,
        unknown: &[u32],
        known: &[u32],
        dv_known: &[f64],
        dv_unknown: &mut [f64],
    ) -> Result<(), CallError> {
        const F: &str = "fmi2GetDirectionalDerivative";
        let Some(f) = self.functions.get_directional_derivative else {
            return Err(self.unsupported(F, "providesDirectionalDerivative"));
        };
        CallError::directional_lengths(&self.name, (unknown, known), (dv_known.len(), dv_unknown.len()))?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `unknown`/`dv_unknown` have `unknown.len()` elements and
        // `known`/`dv_known` have `known.len()` (both checked above).
        let code = unsafe {
            f(
                self.c(),
                unknown.as_ptr(),
                unknown.len(),
                known.as_ptr(),
                known.len(),
                dv_known.as_ptr(),
                dv_unknown.as_mut_ptr(),
            )
        };
        self.check(F, mark, code)
    }

    /// `fmi2SetRealInputDerivatives` (`canInterpolateInputs`).
    pub fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), CallError> {
        const F: &str = "fmi2SetRealInputDerivatives";
        let Some(f) = self.functions.set_real_input_derivatives else {
            return Err(self.unsupported(F, "canInterpolateInputs"));
        };
        CallError::derivative_lengths(&self.name, F, vrs, orders, values.len())?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; the three arrays have `vrs.len()` elements (checked).
        let code = unsafe { f(self.c(), vrs.as_ptr(), vrs.len(), orders.as_ptr(), values.as_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2GetRealOutputDerivatives` (`maxOutputDerivativeOrder` >= 1).
    pub fn get_real_output_derivatives(
        &mut self,
        vrs: &[u32],
        orders: &[i32],
        values: &mut [f64],
    ) -> Result<(), CallError> {
        const F: &str = "fmi2GetRealOutputDerivatives";
        let Some(f) = self.functions.get_real_output_derivatives else {
            return Err(self.unsupported(F, "maxOutputDerivativeOrder >= 1"));
        };
        CallError::derivative_lengths(&self.name, F, vrs, orders, values.len())?;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; the three arrays have `vrs.len()` elements (checked).
        let code = unsafe { f(self.c(), vrs.as_ptr(), vrs.len(), orders.as_ptr(), values.as_mut_ptr()) };
        self.check(F, mark, code)
    }

    /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`: the time up to which a discarded step
    /// succeeded.
    pub fn last_successful_time(&mut self) -> Result<f64, CallError> {
        const F: &str = "fmi2GetRealStatus";
        let Some(f) = self.functions.get_real_status else {
            return Err(self.not_exported(F));
        };
        let mut value = f64::NAN;
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `value` is a writable fmi2Real.
        let code = unsafe { f(self.c(), FMI2_LAST_SUCCESSFUL_TIME, &mut value) };
        self.check(F, mark, code)?;
        Ok(value)
    }

    /// `fmi2GetBooleanStatus(fmi2Terminated)`: whether the FMU wants the simulation to end (asked
    /// after a discarded step). A binary without the function, a call that does not return
    /// `fmi2OK`/`fmi2Warning`, or an instance poisoned by `fmi2Fatal` count as "not terminated".
    pub fn terminated(&mut self) -> bool {
        const F: &str = "fmi2GetBooleanStatus";
        let Some(f) = self.functions.get_boolean_status else {
            return false;
        };
        let Ok(mark) = self.begin(F) else {
            return false;
        };
        let mut value: Fmi2Boolean = FMI2_FALSE;
        // SAFETY: FMI 2.0 signature; `value` is a writable fmi2Boolean.
        let code = unsafe { f(self.c(), FMI2_TERMINATED, &mut value) };
        self.check(F, mark, code).is_ok() && value != FMI2_FALSE
    }

    /// `fmi2GetContinuousStates` (a Model Exchange instance). No allocation.
    pub fn get_continuous_states(&mut self, x: &mut [f64]) -> Result<(), CallError> {
        self.real_array("fmi2GetContinuousStates", self.functions.get_continuous_states, x)
    }

    /// `fmi2GetDerivatives` (a Model Exchange instance). No allocation.
    pub fn get_derivatives(&mut self, dx: &mut [f64]) -> Result<(), CallError> {
        self.real_array("fmi2GetDerivatives", self.functions.get_derivatives, dx)
    }

    /// `fmi2SetContinuousStates` (a Model Exchange instance).
    pub fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), CallError> {
        const F: &str = "fmi2SetContinuousStates";
        let Some(f) = self.functions.set_continuous_states else { return Err(self.unsupported(F, "<ModelExchange>")) };
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; `x` holds `x.len()` values for the call.
        let code = unsafe { f(self.c(), x.as_ptr(), x.len()) };
        self.check(F, mark, code)
    }

    /// `fmi2SetTime` (a Model Exchange instance).
    pub fn set_time(&mut self, t: f64) -> Result<(), CallError> {
        const F: &str = "fmi2SetTime";
        let Some(f) = self.functions.set_time else { return Err(self.unsupported(F, "<ModelExchange>")) };
        let mark = self.begin(F)?;
        // SAFETY: FMI 2.0 signature; plain values.
        let code = unsafe { f(self.c(), t) };
        self.time = t;
        self.check(F, mark, code)
    }

    fn real_array(
        &mut self,
        function: &'static str,
        f: Option<ffi::GetRealArrayFn>,
        values: &mut [f64],
    ) -> Result<(), CallError> {
        let Some(f) = f else { return Err(self.unsupported(function, "<ModelExchange>")) };
        let mark = self.begin(function)?;
        // SAFETY: FMI 2.0 signature; `values` is writable for `values.len()` elements.
        let code = unsafe { f(self.c(), values.as_mut_ptr(), values.len()) };
        self.check(function, mark, code)
    }
}
