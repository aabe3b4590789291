//! The Newton driver: trials, Jacobian, steps and the confirmation of a converged trim.

use std::time::Instant;

use cosim::master::linalg::solve_in_place;

use super::jacobian::{FD_STEP, broyden_update};
use super::trial::{Trial, airframe_parameters};
use super::{FlightCondition, JacobianMethod, Trim, TrimError, TrimProgress, TrimStart, Trimmer, max_abs};

/// Largest change of any unknown in one Newton step, rad.
const MAX_STEP: f64 = 0.15;

/// Largest change of a main-rotor blade state over the averaged revolution (rad) at which a
/// trial's residual is used as it is; above it, the trial is continued revolution by revolution.
const PERIODIC_ENOUGH: f64 = 1e-3;

/// Revolutions added at most to one trial by [`PERIODIC_ENOUGH`].
const MAX_EXTRA_SETTLING: u32 = 4;

/// Settling revolutions of the trial that confirms a converged trim (at least the system's
/// `settle_revolutions`: the FMUs other than the rotors restart in every trial, e.g. a dynamic
/// inflow, and need them).
const CONFIRM_REVOLUTIONS: u32 = 4;

/// Extra settling revolutions of the first (cold) trial.
const COLD_START_REVOLUTIONS: u32 = 3;

/// A trim Jacobian `dh/dc`.
type Jacobian = [[f64; 6]; 6];

impl Trimmer<'_> {
    /// Trims the system for `condition` from `start`.
    pub fn trim(
        &mut self,
        condition: FlightCondition,
        start: TrimStart,
        method: JacobianMethod,
        mut progress: impl FnMut(TrimProgress),
    ) -> Result<Trim, TrimError> {
        let started = Instant::now();
        let (trials0, revolutions0) = (self.trials, self.revolutions);
        let tolerance = self.spec.tolerance;
        let mut x = start.unknowns;
        let cold = start.rotor_states.is_none();
        let warm = start.rotor_states.unwrap_or_default();
        let settle = self.spec.settle_revolutions + if cold { COLD_START_REVOLUTIONS } else { 0 };
        let mut current = self.trial(condition, &x, &warm, settle)?;
        let mut iteration = 0;
        let mut history = vec![max_abs(&current.residual)];
        let report = |s: &Self, iteration, residual| TrimProgress {
            iteration,
            trials: s.trials - trials0,
            revolutions: s.revolutions - revolutions0,
            residual,
        };
        progress(report(self, 0, history[0]));
        let mut jacobian = start.jacobian;
        let mut converged = false;
        loop {
            if max_abs(&current.residual) < tolerance {
                // Confirm on a settled rotor: the same controls, CONFIRM_REVOLUTIONS more.
                let confirm = CONFIRM_REVOLUTIONS.max(self.spec.settle_revolutions);
                current = self.trial(condition, &x, &current.end_state, confirm)?;
                history.push(max_abs(&current.residual));
                progress(report(self, iteration, max_abs(&current.residual)));
                converged = max_abs(&current.residual) < tolerance;
            }
            if converged || iteration >= self.spec.max_iterations {
                break;
            }
            iteration += 1;
            let j = self.jacobian_at(condition, &x, &current, jacobian, method)?;
            let (next_x, next, updated) = self.step(condition, &x, &current, j, method)?;
            jacobian = Some(updated);
            x = next_x;
            current = next;
            history.push(max_abs(&current.residual));
            progress(report(self, iteration, max_abs(&current.residual)));
        }
        let controls = self.spec.controls.iter().cloned().zip(x).collect();
        let (velocity, rates) = condition.body_motion(x[4], x[5]);
        let airframe = (self.spec.airframe.clone(), airframe_parameters(&x, velocity, rates));
        Ok(Trim {
            condition,
            converged,
            tolerance,
            controls,
            attitude: [x[4], x[5]],
            velocity,
            rates,
            residual: current.residual,
            periodicity: current.periodicity,
            iterations: iteration,
            trials: self.trials - trials0,
            revolutions: self.revolutions - revolutions0,
            history,
            wall_seconds: started.elapsed().as_secs_f64(),
            jacobian,
            rotor_states: current.end_state,
            airframe,
        })
    }

    /// One Newton step from `x` (where `current` is the trial) with Jacobian `j`: the next
    /// unknowns, their trial, and the Jacobian updated by the step (unless differenced).
    fn step(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        current: &Trial,
        j: Jacobian,
        method: JacobianMethod,
    ) -> Result<([f64; 6], Trial, Jacobian), TrimError> {
        let dx = newton_step(&j, &current.residual)?;
        let next_x: [f64; 6] = std::array::from_fn(|k| x[k] + dx[k]);
        let mut next = self.trial(condition, &next_x, &current.end_state, self.spec.settle_revolutions)?;
        // A large step leaves a rotor transient that spoils the averaged residual: let it
        // decay, one revolution at a time, until the rotor is close to periodic.
        let mut extra = 0;
        while next.periodicity > PERIODIC_ENOUGH && extra < MAX_EXTRA_SETTLING {
            next = self.trial(condition, &next_x, &next.end_state, 0)?;
            extra += 1;
        }
        let mut updated = j;
        // Steps below the difference increment carry more trial-to-trial noise than slope.
        if method != JacobianMethod::FiniteDifference && max_abs(&dx) >= FD_STEP {
            broyden_update(&mut updated, &dx, &current.residual, &next.residual);
        }
        Ok((next_x, next, updated))
    }
}

/// Newton step `-J^-1 h`, scaled down so that no unknown moves by more than [`MAX_STEP`].
fn newton_step(jacobian: &[[f64; 6]; 6], residual: &[f64; 6]) -> Result<[f64; 6], TrimError> {
    let mut a: Vec<f64> = jacobian.iter().flatten().copied().collect();
    let mut b: Vec<f64> = residual.iter().map(|r| -r).collect();
    let mut pivots = [0; 6];
    solve_in_place(6, &mut a, &mut b, &mut pivots).map_err(TrimError::SingularJacobian)?;
    let largest = max_abs(&b);
    let scale = if largest > MAX_STEP { MAX_STEP / largest } else { 1.0 };
    Ok(std::array::from_fn(|k| b[k] * scale))
}
