//! One communication step of a [`Master`] with the Newton coupling: rollback and retry with
//! half the step, the redone first step, and the input extrapolation over a step.

use super::ids::UnitId;
use super::parallel::{Task, Units};
use super::unit::Phase;
use super::{Master, MasterError};
use crate::system::Algorithm;

impl Master {
    /// Advances all FMUs from the current communication point by `h` and makes the coupling
    /// consistent at the new one; on failure with rollback available, retries as two halves.
    pub fn step(&mut self, h: f64) -> Result<(), MasterError> {
        match self.system.master.algorithm {
            Algorithm::Jacobi => self.step_jacobi(h),
            Algorithm::GaussSeidel => self.step_gauss_seidel(h),
            Algorithm::Newton => self.step_newton(h),
        }
    }

    /// An error naming the first output (as last read or predicted) that is NaN or infinite.
    pub(super) fn check_finite(&self) -> Result<(), MasterError> {
        for unit in &self.units {
            for (k, &y) in unit.out_pred.iter().enumerate() {
                if !y.is_finite() {
                    return Err(MasterError::NonFinite {
                        variable: unit.plan.out_names[k].clone(),
                        value: y,
                        time: self.time,
                    });
                }
            }
        }
        Ok(())
    }

    /// Saves every unit's FMU state and inputs for a rollback of the coming step.
    fn save(&mut self) -> Result<(), MasterError> {
        self.for_units(Task::Save, Units::All)
    }

    /// Rolls every unit back to its saved FMU state and inputs, at communication point `t`, s.
    fn restore(&mut self, t: f64) -> Result<(), MasterError> {
        for unit in &mut self.units {
            if let Some(state) = unit.state.as_ref() {
                unit.slave.set_fmu_state(state)?;
            }
            for (now, saved) in
                [&mut unit.in_values, &mut unit.in_old, &mut unit.in_older].into_iter().zip(&unit.in_saved)
            {
                now.copy_from_slice(saved);
            }
            // The restored FMU holds the inputs it had when saved.
            unit.discard_pending();
            unit.outputs_changed();
        }
        self.time = t;
        Ok(())
    }

    /// A Newton-coupled step of `h`, s; a recoverable failure is retried as two halves where
    /// rollback is possible, down to `min_step`.
    fn step_newton(&mut self, h: f64) -> Result<(), MasterError> {
        let t = self.time;
        // Only a first step whose inputs some FMU extrapolates gains from being redone.
        let redo = self.step_starts[0].is_none()
            && self.plan.can_roll_back
            && self.system.master.extrapolate_inputs
            && self.units.iter().any(|u| u.plan.can_interpolate && !u.plan.in_vrs.is_empty());
        if self.plan.can_roll_back {
            self.save()?;
        }
        match self.attempt(t, h) {
            Ok(()) if redo => self.redo_first_step(t, h),
            Ok(()) => Ok(()),
            Err(e) => {
                let retry = self.plan.can_roll_back && h / 2.0 >= self.system.master.min_step;
                let recoverable = matches!(e, MasterError::LoopFailed { .. } | MasterError::StepDiscarded { .. });
                if !(retry && recoverable) {
                    return Err(match e {
                        MasterError::StepDiscarded { instance, time, step, .. } => MasterError::StepDiscarded {
                            instance,
                            time,
                            step,
                            hint: if self.plan.can_roll_back {
                                format!(
                                    " and halving down to min_step = {} s did not help",
                                    self.system.master.min_step
                                )
                            } else {
                                ": rollback is off or not every FMU can get and set its state, so the step cannot be retried"
                                    .into()
                            },
                        },
                        other => other,
                    });
                }
                self.restore(t)?;
                self.stats.rollbacks += 1;
                self.step_newton(h / 2.0)?;
                self.step_newton(t + h - self.time)
            }
        }
    }

    /// The first step has no input history to extrapolate from, so it ran on held inputs (a
    /// local error of second order instead of third or fourth): it is redone once, from the
    /// saved states, with the slopes towards the consistent inputs it found at its end.
    fn redo_first_step(&mut self, t: f64, h: f64) -> Result<(), MasterError> {
        for unit in &mut self.units {
            unit.in_next.copy_from_slice(&unit.in_values);
        }
        self.restore(t)?;
        self.step_starts = [None; 2];
        self.forward_slopes_over = Some(h);
        let result = self.attempt(t, h);
        self.forward_slopes_over = None;
        result
    }

    /// One coupled step without retry.
    fn attempt(&mut self, t: f64, h: f64) -> Result<(), MasterError> {
        self.do_steps(t, h)?;
        self.time = self.land(t + h);
        self.read_predictions()?;
        self.discrete.exchange(&self.plan.discrete, &mut self.units)?;
        let iterations = self.solve_coupling(Phase::Stepping)?;
        // Outputs of get-after-set FMUs not read during the coupling (recorded ones, say).
        self.for_units(Task::Read(Phase::Stepping), Units::All)?;
        self.check_finite()?;
        self.step_starts = [Some(t), self.step_starts[0]];
        self.stats.communication_points += 1;
        self.stats.newton_iterations_total += iterations;
        self.stats.newton_iterations_max = self.stats.newton_iterations_max.max(iterations);
        Ok(())
    }

    /// `t`, or the breakpoint being landed on (`Master::landing`) when `t` is within rounding
    /// of it (`t + h` need not be exactly the breakpoint `t` and `h` were taken from).
    pub(super) fn land(&self, t: f64) -> f64 {
        match self.landing {
            Some(end) if (t - end).abs() <= 8.0 * f64::EPSILON * end.abs().max(self.system.experiment.step) => end,
            _ => t,
        }
    }

    /// Steps every unit with the inputs now set (extrapolated if asked and supported).
    pub(super) fn do_steps(&mut self, t: f64, h: f64) -> Result<(), MasterError> {
        let extrapolate = self.system.master.extrapolate_inputs;
        if extrapolate {
            for u in (0..self.units.len()).map(UnitId) {
                self.input_derivatives(u, t);
            }
        }
        self.for_units(Task::Step { t, h, extrapolate }, Units::All)
    }

    /// Reads the outputs of standard FMUs right after their step and linearises them.
    /// Get-after-set FMUs are read when the coupling needs their outputs, at the new inputs.
    fn read_predictions(&mut self) -> Result<(), MasterError> {
        self.for_units(Task::Predict, Units::All)?;
        self.check_finite()
    }

    /// Fills `derivative_values` of unit `u` for a step from `t` when it extrapolates its inputs.
    pub(super) fn input_derivatives(&mut self, u: UnitId, t: f64) {
        let unit = &mut self.units[u];
        if !unit.extrapolates(true) {
            return;
        }
        let n_in = unit.plan.in_vrs.len();
        let quadratic = self.system.master.extrapolation_order == 2;
        // Derivatives at t of the polynomial through the inputs at the last two (linear) or
        // three (quadratic) communication points, by divided differences.
        let h1 = self.step_starts[0].map_or(0.0, |t1| t - t1);
        let h0 = match self.step_starts {
            [Some(t1), Some(t0)] if quadratic => t1 - t0,
            _ => 0.0,
        };
        let (first, second) = unit.derivative_values.split_at_mut(n_in);
        for j in 0..n_in {
            let s1 = match self.forward_slopes_over {
                Some(h) => (unit.in_next[j] - unit.in_values[j]) / h,
                None if h1 > 0.0 => (unit.in_values[j] - unit.in_old[j]) / h1,
                None => 0.0,
            };
            first[j] = s1;
            if quadratic {
                let curvature =
                    if h0 > 0.0 { (s1 - (unit.in_old[j] - unit.in_older[j]) / h0) / (h0 + h1) } else { 0.0 };
                first[j] += curvature * h1;
                second[j] = 2.0 * curvature;
            }
        }
        // External signals are known functions of time: use their own derivatives (a step
        // then stays a step instead of becoming a one-step ramp).
        for (to, signal) in self.plan.externals.iter().zip(&self.signals) {
            if to.unit == u {
                first[to.input] = signal.derivative(t);
                if quadratic {
                    second[to.input] = signal.second_derivative(t);
                }
            }
        }
    }
}
