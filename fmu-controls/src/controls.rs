//! Pilot controls to blade pitch: swashplate mixing, first-order actuators, and the pitch angle,
//! rate and acceleration of every blade for the rotor's driven pitch joints.
//!
//! **Mixing** (commanded swashplate coordinates from the pilot inputs):
//!
//! ```text
//! theta0_cmd  = gain.collective * collective
//! c = -gain.lat * lat_cyclic,   s = -gain.lon * lon_cyclic
//! theta1c_cmd = c cos(phase) + s sin(phase)          (so that the cyclic pitch is
//! theta1s_cmd = s cos(phase) - c sin(phase)           c cos(psi + phase) + s sin(psi + phase))
//! tail_cmd    = tail.offset + gain.pedal * pedal
//! ```
//!
//! Sign conventions (azimuth 0 over the tail, increasing with the rotation, as the Rotor and Aero
//! FMUs): in hover the flapping lags the pitch by about 90 deg (`beta1c ~ -theta1s`,
//! `beta1s ~ theta1c` with `beta = beta0 + beta1c cos psi + beta1s sin psi`): the blade flaps
//! highest a quarter turn after its pitch peaks. So stick forward (`lon_cyclic > 0`,
//! `theta1s < 0`: least pitch at psi = 90 deg, lowest flap over the nose) tilts the disk forward,
//! and stick right (`lat_cyclic > 0`, `theta1c < 0`: least pitch over the tail, lowest flap at
//! psi = 90 deg, which is on the right for a rotor turning anticlockwise seen from above) tilts it
//! to the right. A non-zero `phase` compensates the smaller phase lag of a rotor with hinge
//! offset.
//!
//! **Actuators**: with `tau > 0` the swashplate coordinates `q = (theta0, theta1c, theta1s,
//! tail)` are states, `q' = (q_cmd - q) / tau`; with `tau = 0`, `q = q_cmd` and `q' = 0`. The
//! pilot inputs are held over a step, so their rates are taken as zero: `q'' = -q' / tau`.
//!
//! **Blade pitch**, `psi_i = azimuth + 2 pi (i - 1) / nb`, `W = azimuth_rate` (its rate taken
//! as zero):
//!
//! ```text
//! theta_i   = theta0 + theta1c cos psi_i + theta1s sin psi_i
//! theta_i'  = theta0' + theta1c' cos + theta1s' sin + W (-theta1c sin + theta1s cos)
//! theta_i'' = theta0'' + theta1c'' cos + theta1s'' sin + 2 W (-theta1c' sin + theta1s' cos)
//!             - W^2 (theta1c cos + theta1s sin)
//! ```

use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use crate::layout::{u, vr, x, y};

/// Pilot controls, swashplate mixing and actuators (`modelIdentifier="Controls"`).
#[derive(Debug, Clone)]
pub struct Controls {
    /// Active blades.
    nb: usize,
    /// Actuator time constant, s (0 = ideal).
    tau: f64,
    /// Gains: collective, lon, lat, pedal.
    gains: [f64; 4],
    /// `(cos(phase), sin(phase))`.
    phase: (f64, f64),
    /// Tail collective at zero pedal, rad.
    tail_offset: f64,
    /// Initial actuator positions (swashplate coordinates), rad.
    x0: [f64; x::N],
    /// Integrator tolerance.
    tolerance: f64,
}

impl Controls {
    /// Commanded swashplate coordinates `(theta0, theta1c, theta1s, tail)` for the pilot inputs
    /// `(collective, lon_cyclic, lat_cyclic, pedal)`.
    pub fn command<D: Scalar>(&self, pilot: [D; 4]) -> [D; 4] {
        let [g_col, g_lon, g_lat, g_ped] = self.gains;
        let (cp, sp) = self.phase;
        let c = pilot[2] * (-g_lat);
        let s = pilot[1] * (-g_lon);
        [pilot[0] * g_col, c * cp + s * sp, s * cp - c * sp, pilot[3] * g_ped + self.tail_offset]
    }

    /// Swashplate coordinates and their first and second time derivatives.
    fn swashplate<D: Scalar>(&self, xs: &[D], us: &[D]) -> ([D; 4], [D; 4], [D; 4]) {
        let u = u::View(us);
        let cmd = self.command([u.collective(), u.lon_cyclic(), u.lat_cyclic(), u.pedal()]);
        let zero = D::from(0.0);
        if self.tau > 0.0 {
            let state = x::View(xs);
            let q = [state.theta0(), state.theta1c(), state.theta1s(), state.tail()];
            let inv = 1.0 / self.tau;
            let rate: [D; 4] = std::array::from_fn(|k| (cmd[k] - q[k]) * inv);
            let acc: [D; 4] = std::array::from_fn(|k| rate[k] * (-inv));
            (q, rate, acc)
        } else {
            (cmd, [zero; 4], [zero; 4])
        }
    }
}

impl Model for Controls {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Controls",
        model_identifier: "Controls",
        description: "Pilot controls to blade pitch: swashplate mixing (collective, cyclic with phase, tail \
                      collective), first-order actuators, per-blade pitch angle, rate and acceleration from the rotor \
                      azimuth",
        default_stop_time: 1.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    fmu_core::no_work!();

    /// Builds the model from parameter values, validating them (errors name the parameter).
    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let nb = p.integer(vr::NB)?;
        let tau = p.real(vr::TAU)?;
        let gains = p.vector(vr::GAINS)?;
        let phase = p.real(vr::PHASE)?;
        let tail_offset = p.real(vr::TAIL_OFFSET)?;
        let initial = p.vector(vr::INITIAL)?;
        let tolerance = p.real(vr::TOLERANCE)?;
        let mut me = Controls {
            nb: nb as usize,
            tau,
            gains,
            phase: (phase.cos(), phase.sin()),
            tail_offset,
            x0: [0.0; x::N],
            tolerance,
        };
        me.x0 = me.command(initial);
        Ok(me)
    }

    fn n_states(&self) -> usize {
        if self.tau > 0.0 { x::N } else { 0 }
    }

    fn initial_state(&self, xs: &mut [f64]) {
        if self.tau > 0.0 {
            xs.copy_from_slice(&self.x0);
        }
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        if self.tau > 0.0 {
            let (_, rate, _) = self.swashplate(xs, us);
            dx.copy_from_slice(&rate);
        }
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        let zero = D::from(0.0);
        ys.iter_mut().for_each(|v| *v = zero);
        let (position, rate, acc) = self.swashplate(xs, us);
        // The swashplate coordinates and their derivatives are laid out as the states.
        let (q, dq, ddq) = (x::View(&position), x::View(&rate), x::View(&acc));
        let (u, mut y) = (u::View(us), y::ViewMut(ys));
        let w = u.azimuth_rate();
        for b in 0..self.nb {
            let psi = u.azimuth() + 2.0 * std::f64::consts::PI * b as f64 / self.nb as f64;
            let (s, c) = psi.sin_cos();
            let mut blade = y.blade(b);
            // Cyclic part and its azimuthal derivative.
            let cyc = q.theta1c() * c + q.theta1s() * s;
            let cyc_psi = q.theta1s() * c - q.theta1c() * s;
            let dcyc_psi = dq.theta1s() * c - dq.theta1c() * s;
            *blade.pitch() = q.theta0() + cyc;
            *blade.pitch_rate() = dq.theta0() + dq.theta1c() * c + dq.theta1s() * s + w * cyc_psi;
            *blade.pitch_acc() =
                ddq.theta0() + ddq.theta1c() * c + ddq.theta1s() * s + w * dcyc_psi * 2.0 - w * w * cyc;
        }
        *y.swashplate() = position;
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
