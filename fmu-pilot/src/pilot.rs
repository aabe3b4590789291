//! The pilot between a command signal and the Controls FMU: voluntary commands passed through,
//! plus the involuntary control inputs that cockpit accelerations feed through the pilot's body
//! (biodynamic feedthrough, BDFT).
//!
//! **Inputs of the transfer functions**, the cockpit's acceleration perturbations in g, from the
//! specific force `f` at the pilot's seat (a Fuselage point's `acc`, body axes):
//!
//! ```text
//! n_z = (acc.z - acc_z_ref) / g      downward acceleration (acc_z_ref = -g: at rest, hover)
//! n_y = acc.y / g                    rightward acceleration
//! ```
//!
//! **Biodynamic paths** (`model = 1`), per axis a second-order transfer function with a lead,
//! scaled by the overall `gain`:
//!
//! ```text
//! bdft.collective(s) = gain * H(s; vertical.*) n_z(s)
//! bdft.lat_cyclic(s) = gain * H(s; lateral.*)  n_y(s)
//! H(s; K, omega, zeta, tau) = K omega^2 (1 + tau s) / (s^2 + 2 zeta omega s + omega^2)
//! ```
//!
//! realised in controllable canonical form with the input scaled by `gain K omega^2`, so that the
//! states are the deflection before the lead and its rate, in the outputs' unit:
//!
//! ```text
//! q' = q_dot
//! q_dot' = -omega^2 q - 2 zeta omega q_dot + gain K omega^2 n
//! bdft = q + tau q_dot
//! ```
//!
//! `H` is strictly proper, so the biodynamic parts do not depend on the accelerations directly
//! (no algebraic loop with the Fuselage). **Outputs**: `collective = collective_cmd +
//! bdft.collective`, `lat_cyclic = lat_cyclic_cmd + bdft.lat_cyclic`; with `model = 0` the
//! biodynamic parts are zero and the model has no states.

use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use crate::layout::{G, u, vr, x, y};

/// One biodynamic path: `K omega^2 (1 + tau s) / (s^2 + 2 zeta omega s + omega^2)`, input in g,
/// output in rad.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SecondOrderPath {
    /// Static gain, rad per g.
    pub k: f64,
    /// Natural frequency of the denominator, rad/s.
    pub omega: f64,
    /// Damping ratio of the denominator.
    pub zeta: f64,
    /// Lead time constant of the numerator, s.
    pub tau: f64,
}

impl SecondOrderPath {
    /// Reads the path whose parameters start at `first` (`K`, `omega`, `zeta`, `tau` in this
    /// order); with `active`, `omega` and `zeta` must be positive.
    fn read(p: &Reader, first: u32, active: bool) -> Result<Self, ParameterError> {
        let path = SecondOrderPath {
            k: p.real(first)?,
            omega: p.real(first + 1)?,
            zeta: p.real(first + 2)?,
            tau: p.real(first + 3)?,
        };
        if active && (path.omega <= 0.0 || path.zeta <= 0.0) {
            let axis = if first == vr::VERTICAL_K { "vertical" } else { "lateral" };
            return Err(format!(
                "model = 1 needs {axis}.omega > 0 and {axis}.zeta > 0 (got {} rad/s and {}): set them from the \
                 transfer function's source",
                path.omega, path.zeta
            )
            .into());
        }
        Ok(path)
    }

    /// `(q', q_dot')` for the state `(q, q_dot)` and the input `n` in g, with the overall gain.
    fn derivatives<D: Scalar>(&self, gain: f64, q: D, q_dot: D, n: D) -> (D, D) {
        let w2 = self.omega * self.omega;
        (q_dot, n * (gain * self.k * w2) - q * w2 - q_dot * (2.0 * self.zeta * self.omega))
    }

    /// The path's output `q + tau q_dot`, rad.
    fn output<D: Scalar>(&self, q: D, q_dot: D) -> D {
        q + q_dot * self.tau
    }
}

/// The Pilot (`modelIdentifier="Pilot"`).
#[derive(Debug, Clone)]
pub struct Pilot {
    /// Whether the biodynamic paths are on (`model = 1`).
    active: bool,
    /// Overall gain of both paths.
    gain: f64,
    /// Vertical acceleration to collective.
    vertical: SecondOrderPath,
    /// Lateral acceleration to lateral cyclic.
    lateral: SecondOrderPath,
    /// Body-z specific force of zero vertical input, m/s^2.
    acc_z_ref: f64,
    /// Integrator tolerance.
    tolerance: f64,
}

impl Pilot {
    /// The vertical path.
    pub fn vertical(&self) -> SecondOrderPath {
        self.vertical
    }

    /// The lateral path.
    pub fn lateral(&self) -> SecondOrderPath {
        self.lateral
    }

    /// The transfer functions' inputs `(n_z, n_y)` in g.
    fn accelerations<D: Scalar>(&self, us: &[D]) -> (D, D) {
        let u = u::View(us);
        ((u.acc_z() - self.acc_z_ref) * (1.0 / G), u.acc_y() * (1.0 / G))
    }
}

impl Model for Pilot {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Pilot",
        model_identifier: "Pilot",
        description: "Pilot between a command signal and Controls: voluntary collective and lateral cyclic passed \
                      through, plus the biodynamic feedthrough of cockpit vertical and lateral acceleration \
                      (second-order transfer functions, overall gain)",
        default_stop_time: 10.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    type Work<D: Scalar> = ();

    fn work<D: Scalar>(&self) {}

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let active = p.integer(vr::MODEL)? == 1;
        Ok(Pilot {
            active,
            gain: p.real(vr::GAIN)?,
            vertical: SecondOrderPath::read(&p, vr::VERTICAL_K, active)?,
            lateral: SecondOrderPath::read(&p, vr::LATERAL_K, active)?,
            acc_z_ref: p.real(vr::ACC_Z_REF)?,
            tolerance: p.real(vr::TOLERANCE)?,
        })
    }

    fn n_states(&self) -> usize {
        if self.active { x::N } else { 0 }
    }

    fn initial_state(&self, xs: &mut [f64]) {
        xs.iter_mut().for_each(|v| *v = 0.0);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        if !self.active {
            return;
        }
        let (n_z, n_y) = self.accelerations(us);
        (dx[x::VERTICAL], dx[x::VERTICAL_RATE]) =
            self.vertical.derivatives(self.gain, xs[x::VERTICAL], xs[x::VERTICAL_RATE], n_z);
        (dx[x::LATERAL], dx[x::LATERAL_RATE]) =
            self.lateral.derivatives(self.gain, xs[x::LATERAL], xs[x::LATERAL_RATE], n_y);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        let (bdft_z, bdft_y) = if self.active {
            (
                self.vertical.output(xs[x::VERTICAL], xs[x::VERTICAL_RATE]),
                self.lateral.output(xs[x::LATERAL], xs[x::LATERAL_RATE]),
            )
        } else {
            (D::from(0.0), D::from(0.0))
        };
        let (u, mut y) = (u::View(us), y::ViewMut(ys));
        *y.collective() = u.collective_cmd() + bdft_z;
        *y.lat_cyclic() = u.lat_cyclic_cmd() + bdft_y;
        *y.bdft_collective() = bdft_z;
        *y.bdft_lat_cyclic() = bdft_y;
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
