//! Test FMUs for the orchestrator: a two-mass oscillator split across two FMUs so that the
//! force/acceleration coupling forms an algebraic loop, like the rotor hub loads and the airframe
//! hub acceleration.
//!
//! ```text
//!  wall --k,c-- [ body m ] ==rigid== [ attached mass m_r ]      (Load, feedthrough a1 -> F)
//!                   |
//!                   +--k2,c2-- [ second mass m2 ]               (Load's own states x2, v2)
//! ```
//!
//! `Body` integrates `m x1'' = -k x1 - c v1 + F` and outputs `a = x1''` with direct feedthrough
//! from `F`. `Load` takes the body's kinematics and returns the force on it,
//! `F = k2 (x2 - x1) + c2 (v2 - v1) - m_r a1`, with direct feedthrough from `a1`. The monolithic
//! system is `(m + m_r) x1'' = -k x1 - c v1 + k2 (x2 - x1) + c2 (v2 - v1)`,
//! `m2 x2'' = -k2 (x2 - x1) - c2 (v2 - v1)`. With `m_r > m`, explicit Jacobi coupling with a
//! one-step delay on `F` amplifies by `-m_r / m` per step and diverges.
#![warn(missing_docs)]

pub mod c81;
pub mod convergence;
pub mod fixtures;
pub mod table1;
pub mod text;
pub mod two_mass;

use fmu_core::declare::Tables;
use fmu_core::params::ParameterError;
use fmu_core::{Model, ModelInfo, Parameters, Scalar};

fn check_positive(name: &str, v: f64) -> Result<f64, String> {
    if v > 0.0 && v.is_finite() { Ok(v) } else { Err(format!("{name} = {v} must be positive")) }
}

fn check_non_negative(name: &str, v: f64) -> Result<f64, String> {
    if v >= 0.0 && v.is_finite() { Ok(v) } else { Err(format!("{name} = {v} must not be negative")) }
}

/// The state of one mass, position then velocity, from where it starts, and the tolerance of
/// its integrator: what [`Body`] and [`Load`] integrate alike.
struct MassState {
    x0: f64,
    v0: f64,
    tolerance: f64,
}

impl MassState {
    /// Reads the initial position and velocity and the tolerance from their value references.
    fn read(p: &dyn Parameters, [x0, v0, tolerance]: [u32; 3]) -> Result<Self, ParameterError> {
        Ok(MassState { x0: p.real(x0), v0: p.real(v0), tolerance: check_positive("tolerance", p.real(tolerance))? })
    }

    /// Writes `[x0, v0]`.
    fn initial_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&[self.x0, self.v0]);
    }

    /// `[x, v]' = [v, a]`.
    fn derivatives<D: Scalar>(x: &[D], acceleration: D, dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = acceleration;
    }
}

/// The declarations of [`Body`]: value references are the positions of the parameters, `10 +`
/// the input index and `20 +` the output index.
pub mod body {
    /// Value references of the parameters, and the bases of the input and output references.
    pub mod vr {
        fmu_core::declare! { u32;
            M = real("m", "kg", "Mass, kg").start(1.0);
            K = real("k", "N/m", "Spring stiffness to the wall, N/m").start(4.0);
            C = real("c", "N.s/m", "Damping to the wall, N.s/m");
            X0 = real("x0", "m", "Initial position, m").start(1.0);
            V0 = real("v0", "m/s", "Initial velocity, m/s");
            TOLERANCE = real("tolerance", "", "Integrator tolerance").start(1e-10);
        }
        fmu_core::value_references!(10, 20);
    }

    /// Indices into the input vector `u`.
    pub mod u {
        fmu_core::declare! { usize;
            F = real("F", "N", "External force on the mass, N");
            N;
        }
    }

    /// Indices into the output vector `y`.
    pub mod y {
        fmu_core::declare! { usize;
            X = real("x", "m", "Position, m");
            V = real("v", "m/s", "Velocity, m/s");
            A = real("a", "m/s2", "Acceleration, m/s^2").deps(|_| vec![super::u::F]);
            N;
        }
    }

    /// The states `x`.
    pub mod x {
        fmu_core::declare! { usize;
            X = state("x", "m", "m/s", 1.0, "Position of the body, m");
            V = state("v", "m/s", "m/s2", 1.0, "Velocity of the body, m/s");
            N;
        }
    }

    /// The tables of [`crate::Body`].
    pub const TABLES: fmu_core::declare::Tables = fmu_core::declare::Tables {
        parameters: vr::TABLE,
        inputs: (vr::INPUT_BASE, u::TABLE),
        outputs: (vr::OUTPUT_BASE, y::TABLE),
        states: x::TABLE,
    };
}

/// A mass on a spring-damper to the wall, driven by an external force.
pub struct Body {
    m: f64,
    k: f64,
    c: f64,
    state: MassState,
}

impl Body {
    fn acceleration<D: Scalar>(&self, x: D, v: D, f: D) -> D {
        (f - x * self.k - v * self.c) / self.m
    }
}

impl Model for Body {
    const INFO: ModelInfo = ModelInfo {
        model_name: "TwoMassBody",
        model_identifier: "TwoMassBody",
        description: "Test FMU: mass on a spring-damper with a force input and an acceleration output (feedthrough)",
        default_stop_time: 10.0,
        default_step_size: 0.01,
    };

    const TABLES: Tables = body::TABLES;

    fmu_core::no_work!();

    fn configure(p: &dyn Parameters) -> Result<Self, ParameterError> {
        use body::vr::*;
        Ok(Body {
            m: check_positive("m", p.real(M))?,
            k: check_non_negative("k", p.real(K))?,
            c: check_non_negative("c", p.real(C))?,
            state: MassState::read(p, [X0, V0, TOLERANCE])?,
        })
    }

    fn n_states(&self) -> usize {
        body::x::N
    }

    fn initial_state(&self, x: &mut [f64]) {
        self.state.initial_state(x);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], dx: &mut [D]) {
        MassState::derivatives(x, self.acceleration(x[0], x[1], u[body::u::F]), dx);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        use body::y::*;
        (y[X], y[V]) = (x[0], x[1]);
        y[A] = self.acceleration(x[0], x[1], u[body::u::F]);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.state.tolerance, self.state.tolerance)
    }
}

/// The declarations of [`Load`]: value references are the positions of the parameters, `10 +`
/// the input index and `20 +` the output index.
pub mod load {
    /// Value references of the parameters, and the bases of the input and output references.
    pub mod vr {
        fmu_core::declare! { u32;
            M_R = real("m_r", "kg", "Mass rigidly attached to the body, kg").start(1.5);
            M2 = real("m2", "kg", "Second, spring-mounted mass, kg").start(0.5);
            K2 = real("k2", "N/m", "Spring between body and second mass, N/m").start(2.0);
            C2 = real("c2", "N.s/m", "Damper between body and second mass, N.s/m").start(0.1);
            X0 = real("x0", "m", "Initial position of the second mass, m");
            V0 = real("v0", "m/s", "Initial velocity of the second mass, m/s");
            TOLERANCE = real("tolerance", "", "Integrator tolerance").start(1e-10);
        }
        fmu_core::value_references!(10, 20);
    }

    /// Indices into the input vector `u`: the body's kinematics.
    pub mod u {
        fmu_core::declare! { usize;
            X1 = real("x1", "m", "Body position, m");
            V1 = real("v1", "m/s", "Body velocity, m/s");
            A1 = real("a1", "m/s2", "Body acceleration, m/s^2");
            N;
        }
    }

    /// Indices into the output vector `y`.
    pub mod y {
        fmu_core::declare! { usize;
            F = real("F", "N", "Force on the body, N").deps(|_| vec![super::u::X1, super::u::V1, super::u::A1]);
            X2 = real("x2", "m", "Second mass position, m");
            V2 = real("v2", "m/s", "Second mass velocity, m/s");
            N;
        }
    }

    /// The states `x`: the second mass.
    pub mod x {
        fmu_core::declare! { usize;
            X2 = state("x2", "m", "m/s", 1.0, "Position of the second mass, m");
            V2 = state("v2", "m/s", "m/s2", 1.0, "Velocity of the second mass, m/s");
            N;
        }
    }

    /// The tables of [`crate::Load`].
    pub const TABLES: fmu_core::declare::Tables = fmu_core::declare::Tables {
        parameters: vr::TABLE,
        inputs: (vr::INPUT_BASE, u::TABLE),
        outputs: (vr::OUTPUT_BASE, y::TABLE),
        states: x::TABLE,
    };
}

/// What hangs on the body: a rigidly attached mass and a second mass on a spring-damper.
pub struct Load {
    m_r: f64,
    m2: f64,
    k2: f64,
    c2: f64,
    state: MassState,
}

impl Load {
    /// Spring-damper force on the body from the second mass, N.
    fn link_force<D: Scalar>(&self, x1: D, v1: D, x2: D, v2: D) -> D {
        (x2 - x1) * self.k2 + (v2 - v1) * self.c2
    }
}

impl Model for Load {
    const INFO: ModelInfo = ModelInfo {
        model_name: "TwoMassLoad",
        model_identifier: "TwoMassLoad",
        description: "Test FMU: rigid and spring-mounted masses on a body; force output with feedthrough from the body acceleration",
        default_stop_time: 10.0,
        default_step_size: 0.01,
    };

    const TABLES: Tables = load::TABLES;

    fmu_core::no_work!();

    fn configure(p: &dyn Parameters) -> Result<Self, ParameterError> {
        use load::vr::*;
        Ok(Load {
            m_r: check_non_negative("m_r", p.real(M_R))?,
            m2: check_positive("m2", p.real(M2))?,
            k2: check_non_negative("k2", p.real(K2))?,
            c2: check_non_negative("c2", p.real(C2))?,
            state: MassState::read(p, [X0, V0, TOLERANCE])?,
        })
    }

    fn n_states(&self) -> usize {
        load::x::N
    }

    fn initial_state(&self, x: &mut [f64]) {
        self.state.initial_state(x);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], dx: &mut [D]) {
        let force = self.link_force(u[load::u::X1], u[load::u::V1], x[0], x[1]);
        MassState::derivatives(x, -force * (1.0 / self.m2), dx);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        use load::{u, y};
        y[y::F] = self.link_force(u[u::X1], u[u::V1], x[0], x[1]) - u[u::A1] * self.m_r;
        (y[y::X2], y[y::V2]) = (x[0], x[1]);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.state.tolerance, self.state.tolerance)
    }
}
