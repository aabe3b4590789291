//! `fmi2GetDirectionalDerivative`: exact partial derivatives by forward-mode automatic
//! differentiation of the model's equations.

use num_dual::Dual64;

use super::{GET, Instance, error};
use crate::model::Model;
use crate::status::FmiResult;

/// A Real that `fmi2GetDirectionalDerivative` accepts, resolved to its position.
#[derive(Clone, Copy)]
enum RealRole {
    /// Input at this position in `u`.
    Input(usize),
    /// Output at this position in `y`.
    Output(usize),
    /// Declared continuous state (position in [`Catalog::states`](crate::catalog::Catalog::states)).
    State(usize),
    /// Derivative of the declared state at this position.
    Derivative(usize),
}

impl<M: Model> Instance<M> {
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
}
