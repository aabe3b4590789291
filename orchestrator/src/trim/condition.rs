//! The inputs of a trim: the flight condition, the Jacobian method, where it starts and the
//! progress it reports.

/// A steady flight condition, heading north at the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlightCondition {
    /// Airspeed along the horizontal flight path (still air, level flight), m/s.
    pub speed: f64,
    /// Turn rate about the NED z axis, rad/s (positive: turning right).
    pub turn_rate: f64,
}

impl FlightCondition {
    /// Hover.
    pub fn hover() -> Self {
        Self { speed: 0.0, turn_rate: 0.0 }
    }

    /// Body-axis velocity (m/s) and angular velocity (rad/s) at attitude `phi`, `theta` (rad).
    pub fn body_motion(&self, phi: f64, theta: f64) -> ([f64; 3], [f64; 3]) {
        let (sp, cp) = phi.sin_cos();
        let (st, ct) = theta.sin_cos();
        let v = self.speed;
        let r = self.turn_rate;
        ([v * ct, v * st * sp, v * st * cp], [-r * st, r * sp * ct, r * cp * ct])
    }

    pub(super) fn describe(&self) -> String {
        if self.turn_rate != 0.0 {
            format!("level turn at {} m/s, {:.3} deg/s", self.speed, self.turn_rate.to_degrees())
        } else if self.speed != 0.0 {
            format!("level flight at {} m/s", self.speed)
        } else {
            "hover".into()
        }
    }
}

/// How the trim Jacobian is kept up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JacobianMethod {
    /// Differenced once (unless supplied), then Broyden rank-one updates: one trial per
    /// iteration.
    Broyden,
    /// Differenced at every iteration: seven trials per iteration.
    FiniteDifference,
    /// From the linearised system at the start (exact directional derivatives of the FMUs as
    /// Model Exchange, rotor states in multiblade coordinates at their quasi-steady response,
    /// no simulation), then Broyden rank-one updates. Falls back to differencing when the
    /// system cannot be linearised (an FMU without Model Exchange).
    Linearized,
}

/// The rotor state a trial starts from: per rotor, its parameter assignments (`psi0`,
/// `blade[i].dlag0`, ...).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RotorStates(pub(super) Vec<(String, Vec<(String, f64)>)>);

/// Where a trim starts and what it may reuse.
#[derive(Debug, Clone)]
pub struct TrimStart {
    /// Unknowns `(collective, lon_cyclic, lat_cyclic, pedal, phi, theta)`, rad.
    pub unknowns: [f64; 6],
    /// Rotor state to start the first trial from (`None`: the system's own initial state, with
    /// extra settling revolutions).
    pub rotor_states: Option<RotorStates>,
    /// Jacobian `dh/dc` to start from (`None`: differenced at the start).
    pub jacobian: Option<[[f64; 6]; 6]>,
}

/// Progress of a trim, reported after every trial.
#[derive(Debug, Clone, Copy)]
pub struct TrimProgress {
    /// Newton iteration.
    pub iteration: u32,
    /// Trials so far.
    pub trials: u32,
    /// Simulated main-rotor revolutions so far.
    pub revolutions: u32,
    /// Largest component of the current residual.
    pub residual: f64,
}
