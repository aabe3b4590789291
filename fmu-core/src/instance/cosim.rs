//! Co-Simulation: `fmi2DoStep` and the step status functions, the input derivatives that
//! extrapolate the inputs over a step and the output derivatives.

use num_dual::Dual64;

use super::{Configured, Instance, NONE, OUTPUT_DERIVATIVES, SET, STATUS, STEP, err, error};
use crate::catalog::Slot;
use crate::model::{InputPath, Model};
use crate::status::{FmiResult, Status};
use crate::variable::Causality;

/// Highest input derivative order `fmi2SetRealInputDerivatives` accepts.
pub const MAX_INPUT_DERIVATIVE_ORDER: i32 = 2;

impl<M: Model> Instance<M> {
    /// Checks that every known is a real input and every unknown a real output.
    fn io_positions(&self, function: &'static str, unknowns: &[u32], knowns: &[u32]) -> FmiResult<()> {
        for &vr in knowns {
            self.check_io(function, vr, Causality::Input, &self.catalog.input_pos, |name| {
                format!("known '{name}' is not a real input (co-simulation knowns are inputs)")
            })?;
        }
        for &vr in unknowns {
            self.check_io(function, vr, Causality::Output, &self.catalog.output_pos, |name| {
                format!("unknown '{name}' is not a real output")
            })?;
        }
        Ok(())
    }

    /// Checks that `vr` is a real of `causality` or has a position in `positions`; the error
    /// otherwise is `refusal` of the variable's name.
    fn check_io(
        &self,
        function: &'static str,
        vr: u32,
        causality: Causality,
        positions: &[Option<usize>],
        refusal: impl FnOnce(&str) -> String,
    ) -> FmiResult<()> {
        if self.catalog.real(vr).is_some_and(|(_, c)| c == causality) {
            return Ok(());
        }
        match self.slot(function, vr)? {
            (_, Slot::Real(s)) if positions[s].is_some() => Ok(()),
            (i, _) => Err(error(function, refusal(&self.catalog.variables[i].name))),
        }
    }

    /// Position in `u` of an input checked by [`Instance::io_positions`].
    fn input_position(&self, vr: u32) -> usize {
        self.catalog.real(vr).and_then(|(s, _)| self.catalog.input_pos[s]).expect("checked by io_positions")
    }

    /// Position in `y` of an output checked by [`Instance::io_positions`].
    fn output_position(&self, vr: u32) -> usize {
        self.catalog.real(vr).and_then(|(s, _)| self.catalog.output_pos[s]).expect("checked by io_positions")
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
            let path = InputPath { t, values: u, rates: du, accelerations: &ddu[..u.len()] };
            let result = model.step(work, t, h, &mut me.s.x, &path).unwrap_or_else(|| {
                me.ode
                    .integrate(
                        |tau, x, dx| {
                            path.at(tau, u_interp);
                            model.derivatives(work, tau, x, u_interp, dx);
                        },
                        |x| model.project_state(x),
                        t,
                        t + h,
                        &mut me.s.x,
                        &mut me.s.h_internal,
                        rtol,
                        atol,
                    )
                    .map_err(|e| e.to_string())
            });
            me.flush_warnings();
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
}
