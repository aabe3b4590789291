//! The voluntary pilot: McRuer's precision model flying a tracking task.
//!
//! On the tracking error `e` (`voluntary.task = 1`: `e = cmd.phi - phi`, rad, to the lateral
//! cyclic; `= 2`: `e = cmd.height + z`, m, the height `-z` against its command, to the collective)
//!
//! ```text
//! voluntary = K P_n(s) (T_lead s + 1) / (T_lag s + 1) e
//! P_1(s) = (1 - a s) / (1 + a s),                    a = tau / 2
//! P_2(s) = (1 - a s + b s^2) / (1 + a s + b s^2),    b = tau^2 / 12
//! ```
//!
//! `P_n` is the `(n, n)` Pade approximant of the time delay `exp(-tau s)`. Realisation, with the
//! delayed error `d` and the lag state `l` (`l' = (d - l) / T_lag`):
//!
//! ```text
//! n = 1:  w' = (e - w) / a,                 d = 2 w - e
//! n = 2:  w1' = w2,  w2' = (e - w1 - a w2) / b,   d = e - 2 a w2
//! voluntary = K (r d + (1 - r) l),   r = T_lead / T_lag
//! ```
//!
//! Both `P_n` and the lead-lag have unit static gain, and all-pass `|P_n(i w)| = 1`.

use fmu_core::Scalar;
use fmu_core::params::{ParameterError, Reader};

use crate::layout::{vr, x};

/// The tracking task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Roll attitude tracking with the lateral cyclic.
    Roll,
    /// Height tracking with the collective.
    Height,
}

/// McRuer's precision model: gain, lead-lag, delay.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Voluntary {
    /// What the pilot tracks.
    pub task: Task,
    /// Gain, rad of control per unit error.
    pub k: f64,
    /// Lead time constant, s.
    pub t_lead: f64,
    /// Lag time constant, s (> 0).
    pub t_lag: f64,
    /// Time delay, s (0 = none).
    pub delay: f64,
    /// Order of the Pade approximant (1 or 2).
    pub pade_order: usize,
}

impl Voluntary {
    /// The voluntary pilot of the parameters, `None` without a task.
    pub(crate) fn read(p: &Reader) -> Result<Option<Self>, ParameterError> {
        let task = match p.integer(vr::VOLUNTARY_TASK)? {
            1 => Task::Roll,
            2 => Task::Height,
            _ => return Ok(None),
        };
        let voluntary = Voluntary {
            task,
            k: p.real(vr::VOLUNTARY_K)?,
            t_lead: p.real(vr::VOLUNTARY_T_LEAD)?,
            t_lag: p.real(vr::VOLUNTARY_T_LAG)?,
            delay: p.real(vr::VOLUNTARY_DELAY)?,
            pade_order: p.integer(vr::VOLUNTARY_PADE_ORDER)? as usize,
        };
        if voluntary.t_lag <= 0.0 {
            return Err("voluntary.task > 0 needs voluntary.T_lag > 0 (the lead-lag must be proper)".into());
        }
        Ok(Some(voluntary))
    }

    /// The declared states this pilot integrates: the Pade states (with a delay), the lag.
    pub(crate) fn slots(&self) -> Vec<usize> {
        let pade = if self.delay > 0.0 { self.pade_order } else { 0 };
        (x::PADE..x::PADE + pade).chain([x::LEAD_LAG]).collect()
    }

    /// The output for the error `e`, the derivatives of the declared states into `dx`.
    pub(crate) fn evaluate<D: Scalar>(&self, e: D, full: &[D; x::N], dx: &mut [D; x::N]) -> D {
        let a = 0.5 * self.delay;
        let (state, mut rate) = (x::View(full), x::ViewMut(dx));
        let [w1, w2] = state.pade();
        let delayed = match (self.delay > 0.0, self.pade_order) {
            (false, _) => e,
            (true, 1) => {
                rate.pade()[0] = (e - w1) * (1.0 / a);
                w1 * 2.0 - e
            }
            (true, _) => {
                let b = self.delay * self.delay / 12.0;
                *rate.pade() = [w2, (e - w1 - w2 * a) * (1.0 / b)];
                e - w2 * (2.0 * a)
            }
        };
        let lag = state.lead_lag();
        *rate.lead_lag() = (delayed - lag) * (1.0 / self.t_lag);
        let r = self.t_lead / self.t_lag;
        (delayed * r + lag * (1.0 - r)) * self.k
    }
}
