//! The flight control system between the pilot's controls and the Controls FMU: gearings,
//! first-order actuators, a stability augmentation system (SAS) and three autopilot holds.
//!
//! **Channels** `k` = collective, longitudinal cyclic, lateral cyclic, pedal. The command to the
//! Controls FMU (its inputs `collective`, `lon_cyclic`, `lat_cyclic`, `pedal`, rad) is
//!
//! ```text
//! c_k = offset.k + gear.k * stick.k + aug_k
//! output_k = c_k                                     (actuator.tau = 0)
//! output_k = a_k,  a_k' = (c_k - a_k) / actuator.tau (actuator.tau > 0)
//! ```
//!
//! `aug_k` is the sum of the active loops' commands (sign conventions: those of the Controls
//! FMU's inputs, collective up, stick forward, stick right and more tail rotor collective
//! positive; a positive pedal yaws the nose left on a helicopter whose main rotor turns
//! anticlockwise seen from above, as the examples'):
//!
//! ```text
//! SAS (washout W(s) = tau_w s / (tau_w s + 1), W = 1 for tau_w = 0; states l = low-passed rate):
//!   p_w = p - l_p,  l_p' = (p - l_p) / tau_w        (same for q, r)
//!   aug_lat += -K_p p_w      aug_lon += +K_q q_w      aug_pedal += +K_r r_w
//! hover hold (heading frame: e_f, e_r the position error ahead and to the right):
//!   e_f =  cos(psi) (cmd.x - x) + sin(psi) (cmd.y - y)
//!   e_r = -sin(psi) (cmd.x - x) + cos(psi) (cmd.y - y)
//!   theta_ref = cmd.theta - K_vel (K_pos e_f - u)    phi_ref = cmd.phi + K_vel (K_pos e_r - v)
//!   aug_collective += -K_w (K_z (cmd.z - z) - w)
//! attitude hold (integral states i, rad of control):
//!   e_phi = phi_ref - phi,  aug_lat += K_phi e_phi + i_phi,  i_phi' = Ki_phi e_phi
//!   e_theta = theta_ref - theta,  aug_lon += -(K_theta e_theta + i_theta),  i_theta' = Ki_theta e_theta
//! heading hold (e_psi wrapped to (-pi, pi]):
//!   e_psi = cmd.psi - psi,  aug_pedal += -(K e_psi + i_psi),  i_psi' = Ki e_psi
//! ```
//!
//! (without the hover hold `phi_ref = cmd.phi`, `theta_ref = cmd.theta`). The hover hold takes
//! the body velocities `u`, `v` for the heading-frame ground speeds, which holds for small roll and
//! pitch. A configuration has only the states of its active parts (no loop on and
//! `actuator.tau = 0`: none, and the outputs are the gearings alone).

use fmu_core::ActiveStates;
use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use crate::layout::{u, vr, x, y};

/// Channel positions in the command arrays.
const COLLECTIVE: usize = 0;
/// Longitudinal cyclic.
const LON: usize = 1;
/// Lateral cyclic.
const LAT: usize = 2;
/// Pedal.
const PEDAL: usize = 3;

/// Stability augmentation: body-rate gains and the washout time constant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sas {
    /// Rate gains `(K_p, K_q, K_r)`, rad of control per rad/s.
    pub gains: [f64; 3],
    /// Washout time constant, s (0 = none).
    pub washout_tau: f64,
}

/// A proportional-integral loop's gains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pi {
    /// Proportional gain, rad of control per rad.
    pub kp: f64,
    /// Integral gain, 1/s (0 = no integral state).
    pub ki: f64,
}

/// The hover hold's gains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HoverHold {
    /// Horizontal position gain, 1/s.
    pub k_pos: f64,
    /// Horizontal velocity gain, rad per m/s.
    pub k_vel: f64,
    /// Height gain, 1/s.
    pub k_z: f64,
    /// Vertical velocity gain, rad per m/s.
    pub k_w: f64,
}

/// The switchable loops; `None` when off.
#[derive(Debug, Clone, Copy, Default)]
struct Loops {
    /// The SAS.
    sas: Option<Sas>,
    /// Roll and pitch attitude holds.
    attitude: Option<[Pi; 2]>,
    /// Heading hold.
    heading: Option<Pi>,
    /// Hover hold.
    hover: Option<HoverHold>,
}

/// The flight control system (`modelIdentifier="FCS"`).
#[derive(Debug, Clone)]
pub struct Fcs {
    /// Gearings, rad per unit travel.
    gear: [f64; 4],
    /// Commands at zero travel, rad.
    offset: [f64; 4],
    /// Actuator time constant, s (0 = none).
    actuator_tau: f64,
    /// The loops that are on.
    loops: Loops,
    /// The states of this configuration: their positions in the declared states [`x`].
    active: ActiveStates,
    /// Integrator tolerance.
    tolerance: f64,
}

/// The loops' commands and the derivatives of all declared states (zero where inactive).
struct Laws<D> {
    /// `aug_k`, rad.
    aug: [D; 4],
    /// `c_k` (before the actuator), rad.
    command: [D; 4],
    /// Derivatives of the declared states.
    dx: [D; x::N],
}

impl Fcs {
    /// Reads the optional loops; an error names the parameter.
    fn read_loops(p: &Reader) -> Result<Loops, ParameterError> {
        let sas = p.boolean(vr::SAS).then_some(()).map(|()| -> Result<Sas, ParameterError> {
            Ok(Sas { gains: p.vector(vr::SAS_GAIN)?, washout_tau: p.real(vr::WASHOUT_TAU)? })
        });
        let attitude = p.boolean(vr::ATTITUDE_HOLD).then_some(()).map(|()| -> Result<[Pi; 2], ParameterError> {
            let (kp, ki): ([f64; 2], [f64; 2]) = (p.vector(vr::ATTITUDE_KP)?, p.vector(vr::ATTITUDE_KI)?);
            Ok([Pi { kp: kp[0], ki: ki[0] }, Pi { kp: kp[1], ki: ki[1] }])
        });
        let heading = p.boolean(vr::HEADING_HOLD).then_some(()).map(|()| -> Result<Pi, ParameterError> {
            Ok(Pi { kp: p.real(vr::HEADING_KP)?, ki: p.real(vr::HEADING_KI)? })
        });
        let hover = p.boolean(vr::HOVER_HOLD).then_some(()).map(|()| -> Result<HoverHold, ParameterError> {
            Ok(HoverHold {
                k_pos: p.real(vr::HOVER_K_POS)?,
                k_vel: p.real(vr::HOVER_K_VEL)?,
                k_z: p.real(vr::HOVER_K_Z)?,
                k_w: p.real(vr::HOVER_K_W)?,
            })
        });
        let loops = Loops {
            sas: sas.transpose()?,
            attitude: attitude.transpose()?,
            heading: heading.transpose()?,
            hover: hover.transpose()?,
        };
        if loops.hover.is_some() && loops.attitude.is_none() {
            return Err("hover_hold needs attitude_hold: the hover hold commands the attitude hold's references".into());
        }
        Ok(loops)
    }

    /// The declared states a configuration with these actuators and loops integrates, in order.
    fn active_states(actuator_tau: f64, loops: &Loops) -> ActiveStates {
        let mut slots = Vec::new();
        if actuator_tau > 0.0 {
            slots.extend(x::ACTUATOR..x::ACTUATOR + 4);
        }
        if loops.sas.is_some_and(|s| s.washout_tau > 0.0) {
            slots.extend(x::WASHOUT..x::WASHOUT + 3);
        }
        let integrals = [loops.attitude.map(|a| a[0]), loops.attitude.map(|a| a[1]), loops.heading];
        for (k, pi) in integrals.iter().enumerate() {
            if pi.is_some_and(|pi| pi.ki != 0.0) {
                slots.push(x::INTEGRAL + k);
            }
        }
        ActiveStates::new(slots)
    }

    /// The active states spread onto the declared ones (inactive states zero).
    fn spread<D: Scalar>(&self, xs: &[D]) -> [D; x::N] {
        self.active.spread(xs, D::from(0.0))
    }

    /// The SAS's commands, and its washout states' derivatives into `dx`.
    fn sas_commands<D: Scalar>(sas: &Sas, rates: [D; 3], full: &[D; x::N], dx: &mut [D; x::N]) -> [D; 3] {
        let low_passed = x::View(full).washout();
        let mut dx = x::ViewMut(dx);
        let washed: [D; 3] = std::array::from_fn(|k| {
            if sas.washout_tau > 0.0 {
                let w = rates[k] - low_passed[k];
                dx.washout()[k] = w * (1.0 / sas.washout_tau);
                w
            } else {
                rates[k]
            }
        });
        let [kp, kq, kr] = sas.gains;
        [washed[0] * (-kp), washed[1] * kq, washed[2] * kr]
    }

    /// The hover hold's attitude references `(d phi_ref, d theta_ref)` and collective command.
    fn hover_commands<D: Scalar>(hover: &HoverHold, us: &[D]) -> (D, D, D) {
        let u = u::View(us);
        let (cmd, pos, vel) = (u.cmd(), u.position(), u.velocity());
        let (s, c) = u.attitude()[2].sin_cos();
        let (dx, dy) = (cmd[3] - pos[0], cmd[4] - pos[1]);
        let (e_fwd, e_right) = (c * dx + s * dy, c * dy - s * dx);
        let d_theta = (e_fwd * hover.k_pos - vel[0]) * (-hover.k_vel);
        let d_phi = (e_right * hover.k_pos - vel[1]) * hover.k_vel;
        let collective = ((cmd[5] - pos[2]) * hover.k_z - vel[2]) * (-hover.k_w);
        (d_phi, d_theta, collective)
    }

    /// A PI loop's command `K e + i` for the error `e`, with the integral state `integral.{k}`
    /// (0 roll, 1 pitch, 2 heading); its derivative into `dx`.
    fn pi_command<D: Scalar>(pi: &Pi, error: D, k: usize, full: &[D; x::N], dx: &mut [D; x::N]) -> D {
        x::ViewMut(dx).integral()[k] = error * pi.ki;
        error * pi.kp + x::View(full).integral()[k]
    }

    /// Every loop's command and every state's derivative.
    fn laws<D: Scalar>(&self, xs: &[D], us: &[D]) -> Laws<D> {
        let full = self.spread(xs);
        let zero = D::from(0.0);
        let mut dx = [zero; x::N];
        let mut aug = [zero; 4];
        let u = u::View(us);
        let (att, cmd) = (u.attitude(), u.cmd());
        if let Some(sas) = &self.loops.sas {
            let [lat, lon, pedal] = Self::sas_commands(sas, u.rates(), &full, &mut dx);
            (aug[LAT], aug[LON], aug[PEDAL]) = (lat, lon, pedal);
        }
        let (mut phi_ref, mut theta_ref) = (cmd[0], cmd[1]);
        if let Some(hover) = &self.loops.hover {
            let (d_phi, d_theta, collective) = Self::hover_commands(hover, us);
            (phi_ref, theta_ref) = (phi_ref + d_phi, theta_ref + d_theta);
            aug[COLLECTIVE] += collective;
        }
        if let Some([roll, pitch]) = &self.loops.attitude {
            aug[LAT] += Self::pi_command(roll, phi_ref - att[0], 0, &full, &mut dx);
            aug[LON] -= Self::pi_command(pitch, theta_ref - att[1], 1, &full, &mut dx);
        }
        if let Some(heading) = &self.loops.heading {
            let error = cmd[2] - att[2];
            let turns = (error.re() / std::f64::consts::TAU).round();
            let wrapped = error - turns * std::f64::consts::TAU;
            aug[PEDAL] -= Self::pi_command(heading, wrapped, 2, &full, &mut dx);
        }
        let stick = u.stick();
        let command: [D; 4] = std::array::from_fn(|k| stick[k] * self.gear[k] + self.offset[k] + aug[k]);
        if self.actuator_tau > 0.0 {
            let position = x::View(&full).actuator();
            *x::ViewMut(&mut dx).actuator() =
                std::array::from_fn(|k| (command[k] - position[k]) * (1.0 / self.actuator_tau));
        }
        Laws { aug, command, dx }
    }
}

impl Model for Fcs {
    const INFO: ModelInfo = ModelInfo {
        model_name: "FCS",
        model_identifier: "FCS",
        description: "Flight control system: stick and pedal gearings to the Controls FMU's inputs, first-order \
                      actuators, stability augmentation (rate damping with washout), roll and pitch attitude hold, \
                      heading hold and hover hold, each switchable",
        default_stop_time: 10.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    fmu_core::no_work!();

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let loops = Self::read_loops(&p)?;
        let actuator_tau = p.real(vr::ACTUATOR_TAU)?;
        Ok(Fcs {
            gear: p.vector(vr::GEAR)?,
            offset: p.vector(vr::OFFSET)?,
            actuator_tau,
            active: Self::active_states(actuator_tau, &loops),
            loops,
            tolerance: p.real(vr::TOLERANCE)?,
        })
    }

    fn n_states(&self) -> usize {
        self.active.len()
    }

    fn state_indices(&self) -> Vec<usize> {
        self.active.slots().to_vec()
    }

    /// Actuators start at the offsets (zero stick travel), filters and integrals at zero.
    fn initial_state(&self, xs: &mut [f64]) {
        for (value, &slot) in xs.iter_mut().zip(self.active.slots()) {
            *value = if (x::ACTUATOR..x::ACTUATOR + 4).contains(&slot) { self.offset[slot - x::ACTUATOR] } else { 0.0 };
        }
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        self.active.gather(&self.laws(xs, us).dx, dx);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        let laws = self.laws(xs, us);
        let full = self.spread(xs);
        let mut y = y::ViewMut(ys);
        *y.command() = if self.actuator_tau > 0.0 { x::View(&full).actuator() } else { laws.command };
        *y.augmentation() = laws.aug;
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
