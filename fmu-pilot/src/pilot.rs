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
//! (no algebraic loop with the Fuselage). `model = 2` takes the vertical path's `omega`, `zeta`,
//! `tau` from Mayo's mesomorphic pilot ([`SecondOrderPath::mayo_mesomorphic`]) and has no lateral
//! path. `model = 3` is the lateral arm alone: the lateral path from `lateral.*`, no vertical
//! path (no vertical states); no published lateral arm coefficients were found, so `lateral.*`
//! stay the user's (docs/models.md, Pilot). **Outputs**: `collective = collective_cmd +
//! bdft.collective`, `lat_cyclic = lat_cyclic_cmd + bdft.lat_cyclic`, plus the voluntary
//! pilot's output on the channel of its task ([`crate::voluntary`]); with `model = 0` the
//! biodynamic parts are zero. A configuration has the states of its active parts only.

use fmu_core::ActiveStates;
use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use crate::layout::{G, u, vr, x, y};
use crate::voluntary::{Task, Voluntary};

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
            let (axis, models) = if first == vr::VERTICAL_K { ("vertical", "1") } else { ("lateral", "1 or 3") };
            return Err(format!(
                "model = {models} needs {axis}.omega > 0 and {axis}.zeta > 0 (got {} rad/s and {}): set them from \
                 the transfer function's source",
                path.omega, path.zeta
            )
            .into());
        }
        Ok(path)
    }

    /// Mayo's mesomorphic pilot (15th European Rotorcraft Forum, 1989), as quoted in MBDyn's
    /// test `tests/genel/statespace/mayo_meso`: `(4.02 s + 555.4) / (s^2 + 13.31 s + 555.4)`,
    /// unit static gain, scaled by `k` (the source gives no units).
    pub fn mayo_mesomorphic(k: f64) -> Self {
        let omega = 555.4_f64.sqrt();
        SecondOrderPath { k, omega, zeta: 13.31 / (2.0 * omega), tau: 4.02 / 555.4 }
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
    /// Biodynamic model: 0 none, 1 both paths from the parameters, 2 Mayo's vertical path, 3 the
    /// lateral path alone.
    model: i32,
    /// Overall gain of both paths.
    gain: f64,
    /// Vertical acceleration to collective.
    vertical: SecondOrderPath,
    /// Lateral acceleration to lateral cyclic.
    lateral: SecondOrderPath,
    /// Body-z specific force of zero vertical input, m/s^2.
    acc_z_ref: f64,
    /// The voluntary pilot, with a task.
    voluntary: Option<Voluntary>,
    /// The states of this configuration: their positions in the declared states [`x`].
    active: ActiveStates,
    /// Integrator tolerance.
    tolerance: f64,
}

impl Pilot {
    /// The voluntary pilot, with a task.
    pub fn voluntary(&self) -> Option<Voluntary> {
        self.voluntary
    }

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

    /// The declared states a configuration with this biodynamic model and voluntary pilot
    /// integrates, in order.
    fn active_states(model: i32, voluntary: Option<Voluntary>) -> ActiveStates {
        let bdft = match model {
            1 => x::VERTICAL..x::LATERAL_RATE + 1,
            2 => x::VERTICAL..x::VERTICAL_RATE + 1,
            3 => x::LATERAL..x::LATERAL_RATE + 1,
            _ => 0..0,
        };
        ActiveStates::new(bdft.chain(voluntary.map(|v| v.slots()).unwrap_or_default()).collect())
    }

    /// The outputs `(bdft.collective, bdft.lat_cyclic, voluntary)` and every declared state's
    /// derivative (zero where inactive).
    fn evaluate<D: Scalar>(&self, xs: &[D], us: &[D]) -> ([D; 3], [D; x::N]) {
        let zero = D::from(0.0);
        let full: [D; x::N] = self.active.spread(xs, zero);
        let mut dx = [zero; x::N];
        let (n_z, n_y) = self.accelerations(us);
        let (mut bdft_z, mut bdft_y) = (zero, zero);
        let (state, mut rate) = (x::View(&full), x::ViewMut(&mut dx));
        if self.model == 1 || self.model == 2 {
            let (q, q_dot) = (state.vertical(), state.vertical_rate());
            (*rate.vertical(), *rate.vertical_rate()) = self.vertical.derivatives(self.gain, q, q_dot, n_z);
            bdft_z = self.vertical.output(q, q_dot);
        }
        if self.model == 1 || self.model == 3 {
            let (q, q_dot) = (state.lateral(), state.lateral_rate());
            (*rate.lateral(), *rate.lateral_rate()) = self.lateral.derivatives(self.gain, q, q_dot, n_y);
            bdft_y = self.lateral.output(q, q_dot);
        }
        let voluntary = self.voluntary.map_or(zero, |v| {
            let u = u::View(us);
            let error = match v.task {
                Task::Roll => u.cmd_phi() - u.phi(),
                Task::Height => u.cmd_height() + u.z(),
            };
            v.evaluate(error, &full, &mut dx)
        });
        ([bdft_z, bdft_y, voluntary], dx)
    }
}

impl Model for Pilot {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Pilot",
        model_identifier: "Pilot",
        description: "Pilot between a command signal and Controls: commanded collective and lateral cyclic passed \
                      through, plus the biodynamic feedthrough of cockpit vertical and lateral acceleration \
                      (second-order transfer functions, overall gain; Mayo's mesomorphic pilot) and a voluntary pilot \
                      (McRuer precision model with a Pade delay) tracking a roll attitude or height command",
        default_stop_time: 10.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    fmu_core::no_work!();

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let model = p.integer(vr::MODEL)?;
        let vertical = if model == 2 {
            SecondOrderPath::mayo_mesomorphic(p.real(vr::VERTICAL_K)?)
        } else {
            SecondOrderPath::read(&p, vr::VERTICAL_K, model == 1)?
        };
        let voluntary = Voluntary::read(&p)?;
        Ok(Pilot {
            model,
            gain: p.real(vr::GAIN)?,
            vertical,
            lateral: SecondOrderPath::read(&p, vr::LATERAL_K, model == 1 || model == 3)?,
            acc_z_ref: p.real(vr::ACC_Z_REF)?,
            voluntary,
            active: Self::active_states(model, voluntary),
            tolerance: p.real(vr::TOLERANCE)?,
        })
    }

    fn n_states(&self) -> usize {
        self.active.len()
    }

    /// Every state starts at zero.
    fn initial_state(&self, xs: &mut [f64]) {
        xs.iter_mut().for_each(|v| *v = 0.0);
    }

    fn state_indices(&self) -> Vec<usize> {
        self.active.slots().to_vec()
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        self.active.gather(&self.evaluate(xs, us).1, dx);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        let ([bdft_z, bdft_y, voluntary], _) = self.evaluate(xs, us);
        let (to_collective, to_lat) = match self.voluntary.map(|v| v.task) {
            Some(Task::Height) => (voluntary, D::from(0.0)),
            Some(Task::Roll) => (D::from(0.0), voluntary),
            None => (D::from(0.0), D::from(0.0)),
        };
        let (u, mut y) = (u::View(us), y::ViewMut(ys));
        *y.collective() = u.collective_cmd() + bdft_z + to_collective;
        *y.lat_cyclic() = u.lat_cyclic_cmd() + bdft_y + to_lat;
        *y.bdft_collective() = bdft_z;
        *y.bdft_lat_cyclic() = bdft_y;
        *y.voluntary() = voluntary;
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
