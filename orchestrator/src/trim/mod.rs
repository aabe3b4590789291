//! Trim: the pilot controls and airframe attitude for a steady flight condition.
//!
//! A steady condition (hover, level flight at speed `V`, a level coordinated turn at rate
//! `psi_dot`) fixes the airframe's body-axis velocity and rates as functions of its attitude
//! `(phi, theta)` at zero heading: `v_b = R^T (V, 0, 0)`, `omega_b = R^T (0, 0, psi_dot)`. The
//! unknowns are `c = (collective, lon_cyclic, lat_cyclic, pedal, phi, theta)`, the residual
//! `h(c)` the airframe's six body-axis accelerations (`free.*` of the Fuselage: `du/dt .. dr/dt`
//! with every DOF free) averaged over one revolution of the main rotor in periodic steady state.
//!
//! A **trial** `h(c)` is one co-simulation of the whole system through the Newton master: the
//! airframe held on the steady motion (`dof_mask = 0`, so the rotor sees exactly the trimmed
//! hub motion), `settle_revolutions` revolutions to let the rotor settle, then one revolution
//! averaged with a Hann window (see `revolution_window`: exact for the main rotor's harmonics,
//! and it keeps a tail rotor turning at an incommensurate speed from leaking into the mean). Trials are warm-started: each begins on the rotor state (azimuth, per-blade lag,
//! flap and rates) where the previous accepted trial ended, so the rotor starts on, or close to,
//! its periodic orbit and one settling revolution suffices.
//!
//! Trials are the expensive part (the seed's point: finite-difference gradients around whole
//! simulations are the bottleneck). The solver is Newton with **Broyden** rank-one updates of the
//! Jacobian `dh/dc`: the Jacobian is differenced once (seven trials, or none when a Jacobian from a
//! neighbouring condition is supplied), then every iteration costs one trial. The
//! [`JacobianMethod::FiniteDifference`] variant re-differences at every iteration, the reference
//! the trim benchmark measures against. [`JacobianMethod::Linearized`] takes the first Jacobian
//! from the linearised system instead of differencing it (no trial at all), then updates it as
//! Broyden does.

mod condition;
mod jacobian;
mod json;
mod newton;
mod result;
mod trial;
mod trimmer;

use cosim::import::ImportError;
use cosim::master::MasterError;
use cosim::master::linalg::Singular;
use cosim::system::SystemError;

pub use condition::{FlightCondition, JacobianMethod, RotorStates, TrimProgress, TrimStart};
pub use result::Trim;
pub use trial::start_residual;
pub use trimmer::Trimmer;

/// The warning about `instance`, an FMU that does not compute its outputs in initialization mode
/// ([`cosim::master::Master::uninitialized_outputs`]), with its `consequence` for the caller.
pub fn uninitialized_outputs_warning(instance: &str, consequence: &str) -> String {
    format!(
        "instance '{instance}': its connected outputs are all 0 after initialization and not after its first step, \
         so it probably does not compute them in initialization mode; {consequence}. Unless they are meant to \
         start at 0, the FMU must compute its outputs from its inputs in initialization mode (FMI 2.0: outputs \
         are initial=\"calculated\" by default)"
    )
}

/// Why a trim could not be set up, or a trial or step of it failed.
#[derive(Debug, thiserror::Error)]
pub enum TrimError {
    /// The `trim` section does not describe a trim of this system (the message names the field).
    #[error("{0}")]
    Spec(String),
    /// A trial's system description could not be resolved against its FMUs.
    #[error("trial system: {0}")]
    TrialSystem(SystemError),
    /// An FMU could not be opened.
    #[error(transparent)]
    Import(#[from] ImportError),
    /// The master failed outside a trial's run (instantiation, initialisation, linearisation).
    #[error(transparent)]
    Master(Box<MasterError>),
    /// A trial's run failed.
    #[error("trim trial at {unknowns:?}: {error}")]
    Trial {
        /// The unknowns of the trial.
        unknowns: [f64; 6],
        /// What the master reported.
        error: Box<MasterError>,
    },
    /// A trial ended with a NaN or infinite residual.
    #[error("trim trial at {unknowns:?} gave a non-finite residual {residual:?}")]
    NonFiniteResidual {
        /// The unknowns of the trial.
        unknowns: [f64; 6],
        /// The residual, m/s^2 and rad/s^2.
        residual: [f64; 6],
    },
    /// The Newton step cannot be solved.
    #[error("the trim Jacobian is singular ({0}): a control has no effect on the residual")]
    SingularJacobian(Singular),
    /// The linearised trial system gives no Jacobian.
    #[error("{0}")]
    Linearization(String),
    /// A recorded column or a JSON entry the trim needs is missing.
    #[error("{0}")]
    Missing(String),
}

impl From<MasterError> for TrimError {
    fn from(error: MasterError) -> TrimError {
        TrimError::Master(Box::new(error))
    }
}

/// Names of the residual components, the Fuselage's `free.*` outputs.
pub const RESIDUAL_NAMES: [&str; 6] =
    ["free.u_dot", "free.v_dot", "free.w_dot", "free.p_dot", "free.q_dot", "free.r_dot"];

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}
