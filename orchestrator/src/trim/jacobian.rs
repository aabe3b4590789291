//! The trim Jacobian `dh/dc`: forward differences of trials, the linearised system, and
//! Broyden's rank-one update.

use cosim::master::Master;
use cosim::master::linalg;
use rotorcraft::Rotors;

use super::trial::Trial;
use super::{FlightCondition, JacobianMethod, RESIDUAL_NAMES, RotorStates, TrimError, Trimmer};

/// Finite-difference increment of every unknown, rad.
pub(super) const FD_STEP: f64 = 1e-3;

impl Trimmer<'_> {
    /// Forward-difference Jacobian at `x`. The unperturbed and the six perturbed trials all start
    /// from `from`'s end state, so that what is left of a rotor transient is the same in each and
    /// cancels in the differences.
    fn difference(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        from: &Trial,
    ) -> Result<[[f64; 6]; 6], TrimError> {
        let settle = self.spec.settle_revolutions;
        let base = self.trial(condition, x, &from.end_state, settle)?;
        let mut jacobian = [[0.0; 6]; 6];
        for k in 0..6 {
            let mut xk = *x;
            xk[k] += FD_STEP;
            let perturbed = self.trial(condition, &xk, &from.end_state, settle)?;
            for (row, (p, b)) in jacobian.iter_mut().zip(perturbed.residual.iter().zip(&base.residual)) {
                row[k] = (p - b) / FD_STEP;
            }
        }
        Ok(jacobian)
    }

    /// The Jacobian for the next Newton step at `x` (where `current` is the trial): `jacobian`
    /// when there is one and `method` updates it, else from the linearised system or differenced.
    pub(super) fn jacobian_at(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        current: &Trial,
        jacobian: Option<[[f64; 6]; 6]>,
        method: JacobianMethod,
    ) -> Result<[[f64; 6]; 6], TrimError> {
        Ok(match (jacobian, method) {
            (Some(j), JacobianMethod::Broyden | JacobianMethod::Linearized) => j,
            (None, JacobianMethod::Linearized) => match self.linearized(condition, x, &current.end_state) {
                Ok(j) => j,
                Err(e) => {
                    self.logger.log(
                        "trim",
                        cosim::import::Status::Warning,
                        "logStatusWarning",
                        &format!(
                            "the trim Jacobian cannot come from the linearised system ({e}); differencing instead"
                        ),
                    );
                    self.difference(condition, x, current)?
                }
            },
            _ => self.difference(condition, x, current)?,
        })
    }

    /// The Jacobian `dh/dc` from the linearised trial system at `x` (airframe held, rotor
    /// started on `warm`): with the airframe states `a` held and the others `s` (rotor in
    /// multiblade coordinates, inflow, actuators) at their quasi-steady response
    /// `0 = A_ss ds + A_sa da + B_s du`, the residual changes by
    /// `dh = C_hs ds + C_ha da + D_h du`. A control moves `u`; an attitude angle moves the held
    /// airframe state `a` (attitude quaternion, body-axis velocity and rates of the steady
    /// motion), taken from the airframe's own initial state at `phi, theta +- 1e-4` rad.
    fn linearized(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
    ) -> Result<[[f64; 6]; 6], TrimError> {
        let airframe = self.spec.airframe.clone();
        let (full, rotors) = {
            let mut start = self.linearization_start(condition, x, warm)?;
            (start.linearize(&self.spec.controls)?, Rotors::read(&mut start)?)
        };
        let lin = full
            .without_states(&full.inert_states())
            .transformed(&rotors)
            .map_err(|e| TrimError::Linearization(e.to_string()))?;
        let held: Vec<usize> =
            (0..lin.state_names.len()).filter(|&i| lin.state_names[i].starts_with(&format!("{airframe}."))).collect();
        let free: Vec<usize> = (0..lin.state_names.len()).filter(|i| !held.contains(i)).collect();
        let rows: Vec<usize> = RESIDUAL_NAMES
            .iter()
            .map(|r| {
                let name = format!("{airframe}.{r}");
                lin.output_names.iter().position(|o| *o == name).ok_or(TrimError::Missing(format!("no output {name}")))
            })
            .collect::<Result<_, _>>()?;
        let held_names: Vec<&str> = held.iter().map(|&i| lin.state_names[i].as_str()).collect();
        let d_held = self.held_state_change(condition, x, warm, &held_names, &full.state_names)?;
        // `A_ss`, row-major, factored once by the master's LU for the six right-hand sides.
        let n = free.len();
        let a = &lin.a;
        let mut a_ss: Vec<f64> = free.iter().flat_map(|&r| free.iter().map(move |&c| a[(r, c)])).collect();
        let mut pivots = vec![0; n];
        linalg::factor(n, &mut a_ss, &mut pivots)
            .map_err(|_| TrimError::Linearization("the rotor's quasi-steady response is singular".into()))?;
        let mut jacobian = [[0.0; 6]; 6];
        for k in 0..6 {
            // Forcing of the free states and the direct change of the residual.
            let (forcing, direct): (Vec<f64>, Vec<f64>) = if k < 4 {
                (free.iter().map(|&i| lin.b[(i, k)]).collect(), rows.iter().map(|&r| lin.d[(r, k)]).collect())
            } else {
                let da = &d_held[k - 4];
                let force = |i: usize| held.iter().zip(da).map(|(&j, d)| lin.a[(i, j)] * d).sum::<f64>();
                let direct = |r: usize| held.iter().zip(da).map(|(&j, d)| lin.c[(r, j)] * d).sum::<f64>();
                (free.iter().map(|&i| force(i)).collect(), rows.iter().map(|&r| direct(r)).collect())
            };
            // `A_ss ds = -forcing`.
            let mut ds: Vec<f64> = forcing.iter().map(|f| -f).collect();
            linalg::solve_factored(n, &a_ss, &pivots, &mut ds);
            for (row, (&r, d)) in rows.iter().zip(direct).enumerate() {
                jacobian[row][k] = d + free.iter().zip(ds.iter()).map(|(&i, s)| lin.c[(r, i)] * s).sum::<f64>();
            }
        }
        if jacobian.iter().flatten().any(|v| !v.is_finite()) {
            return Err(TrimError::Linearization("non-finite entries".into()));
        }
        Ok(jacobian)
    }

    /// The trial system at `x`, its Model Exchange instances initialised.
    fn linearization_start(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
    ) -> Result<Master, TrimError> {
        let d = self.trial_description(condition, x, warm, 1);
        let fmus = &mut *self.fmus;
        let system = d.resolve(|path| fmus.description(path)).map_err(TrimError::TrialSystem)?;
        let mut master = Master::new_model_exchange(system, fmus, self.logger.clone())?;
        master.initialize()?;
        Ok(master)
    }

    /// Held-state change per attitude angle (`phi`, `theta`) of the states `held` (named as in
    /// `state_names`, the full linear model's), from the airframe's initial state at `x`.
    fn held_state_change(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
        held: &[&str],
        state_names: &[String],
    ) -> Result<[Vec<f64>; 2], TrimError> {
        let mut d_held = [vec![0.0; held.len()], vec![0.0; held.len()]];
        const ANGLE_STEP: f64 = 1e-4;
        for (k, column) in d_held.iter_mut().enumerate() {
            let (mut plus, mut minus) = (*x, *x);
            plus[4 + k] += ANGLE_STEP;
            minus[4 + k] -= ANGLE_STEP;
            let mut initial_state = |x: &[f64; 6]| -> Result<Vec<f64>, TrimError> {
                Ok(self.linearization_start(condition, x, warm)?.read_states()?)
            };
            let (xp, xm) = (initial_state(&plus)?, initial_state(&minus)?);
            for (c, name) in column.iter_mut().zip(held) {
                let at =
                    state_names.iter().position(|s| s == name).ok_or(TrimError::Missing(format!("state {name}")))?;
                *c = (xp[at] - xm[at]) / (2.0 * ANGLE_STEP);
            }
        }
        Ok(d_held)
    }
}

/// Broyden's ("good") rank-one update: `J += (dh - J dx) dx^T / (dx . dx)`.
pub(super) fn broyden_update(jacobian: &mut [[f64; 6]; 6], dx: &[f64; 6], before: &[f64; 6], after: &[f64; 6]) {
    let dx_dx: f64 = dx.iter().map(|d| d * d).sum();
    if dx_dx == 0.0 {
        return;
    }
    for (row, (a, b)) in jacobian.iter_mut().zip(after.iter().zip(before)) {
        let predicted: f64 = row.iter().zip(dx).map(|(j, d)| j * d).sum();
        let correction = (a - b - predicted) / dx_dx;
        for (j, d) in row.iter_mut().zip(dx) {
            *j += correction * d;
        }
    }
}
