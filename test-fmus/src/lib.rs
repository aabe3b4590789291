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

pub mod convergence;
pub mod fixtures;
pub mod table1;
pub mod two_mass;

use fmu_core::{Model, ModelInfo, Parameters, Scalar, StateVariable, Variable};

/// The two states of a mass, position then velocity, declared for Model Exchange.
fn position_and_velocity(x: &str, v: &str, what: &str) -> Vec<StateVariable> {
    vec![
        StateVariable::new(x, "m", "m/s", format!("Position of the {what}, m"), 1.0),
        StateVariable::new(v, "m/s", "m/s2", format!("Velocity of the {what}, m/s"), 1.0),
    ]
}

fn check_positive(name: &str, v: f64) -> Result<f64, String> {
    if v > 0.0 && v.is_finite() { Ok(v) } else { Err(format!("{name} = {v} must be positive")) }
}

fn check_non_negative(name: &str, v: f64) -> Result<f64, String> {
    if v >= 0.0 && v.is_finite() { Ok(v) } else { Err(format!("{name} = {v} must not be negative")) }
}

/// Value references of [`Body`].
pub mod body_vr {
    /// Mass, kg.
    pub const M: u32 = 0;
    /// Spring to the wall, N/m.
    pub const K: u32 = 1;
    /// Damper to the wall, N.s/m.
    pub const C: u32 = 2;
    /// Initial position, m.
    pub const X0: u32 = 3;
    /// Initial velocity, m/s.
    pub const V0: u32 = 4;
    /// Integrator tolerance.
    pub const TOLERANCE: u32 = 5;
    /// Input force, N.
    pub const F: u32 = 10;
    /// Output position, m.
    pub const X: u32 = 20;
    /// Output velocity, m/s.
    pub const V: u32 = 21;
    /// Output acceleration, m/s^2 (feedthrough from F).
    pub const A: u32 = 22;
}

/// A mass on a spring-damper to the wall, driven by an external force.
pub struct Body {
    m: f64,
    k: f64,
    c: f64,
    x0: f64,
    v0: f64,
    tolerance: f64,
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

    type Work<D: Scalar> = ();

    fn work<D: Scalar>(&self) {}

    fn variables() -> Vec<Variable> {
        use body_vr::*;
        vec![
            Variable::real_parameter("m", M, "kg", 1.0).describe("Mass, kg"),
            Variable::real_parameter("k", K, "N/m", 4.0).describe("Spring stiffness to the wall, N/m"),
            Variable::real_parameter("c", C, "N.s/m", 0.0).describe("Damping to the wall, N.s/m"),
            Variable::real_parameter("x0", X0, "m", 1.0).describe("Initial position, m"),
            Variable::real_parameter("v0", V0, "m/s", 0.0).describe("Initial velocity, m/s"),
            Variable::real_parameter("tolerance", TOLERANCE, "", 1e-10).describe("Integrator tolerance"),
            Variable::real_input("F", F, "N", 0.0).describe("External force on the mass, N"),
            Variable::real_output("x", X, "m").describe("Position, m"),
            Variable::real_output("v", V, "m/s").describe("Velocity, m/s"),
            Variable::real_output("a", A, "m/s2").describe("Acceleration, m/s^2").depends_on([F]),
        ]
    }

    fn configure(p: &dyn Parameters) -> Result<Self, fmu_core::params::ParameterError> {
        use body_vr::*;
        Ok(Body {
            m: check_positive("m", p.real(M))?,
            k: check_non_negative("k", p.real(K))?,
            c: check_non_negative("c", p.real(C))?,
            x0: p.real(X0),
            v0: p.real(V0),
            tolerance: check_positive("tolerance", p.real(TOLERANCE))?,
        })
    }

    fn state_variables() -> Vec<StateVariable> {
        position_and_velocity("x", "v", "body")
    }

    fn n_states(&self) -> usize {
        2
    }

    fn initial_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&[self.x0, self.v0]);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = self.acceleration(x[0], x[1], u[0]);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        y[0] = x[0];
        y[1] = x[1];
        y[2] = self.acceleration(x[0], x[1], u[0]);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}

/// Value references of [`Load`].
pub mod load_vr {
    /// Mass rigidly attached to the body, kg.
    pub const M_R: u32 = 0;
    /// Second mass, kg.
    pub const M2: u32 = 1;
    /// Spring between the masses, N/m.
    pub const K2: u32 = 2;
    /// Damper between the masses, N.s/m.
    pub const C2: u32 = 3;
    /// Initial position of the second mass, m.
    pub const X0: u32 = 4;
    /// Initial velocity of the second mass, m/s.
    pub const V0: u32 = 5;
    /// Integrator tolerance.
    pub const TOLERANCE: u32 = 6;
    /// Body position input, m.
    pub const X1: u32 = 10;
    /// Body velocity input, m/s.
    pub const V1: u32 = 11;
    /// Body acceleration input, m/s^2.
    pub const A1: u32 = 12;
    /// Force on the body, N (feedthrough from x1, v1, a1).
    pub const F: u32 = 20;
    /// Second mass position, m.
    pub const X2: u32 = 21;
    /// Second mass velocity, m/s.
    pub const V2: u32 = 22;
}

/// What hangs on the body: a rigidly attached mass and a second mass on a spring-damper.
pub struct Load {
    m_r: f64,
    m2: f64,
    k2: f64,
    c2: f64,
    x0: f64,
    v0: f64,
    tolerance: f64,
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

    type Work<D: Scalar> = ();

    fn work<D: Scalar>(&self) {}

    fn variables() -> Vec<Variable> {
        use load_vr::*;
        vec![
            Variable::real_parameter("m_r", M_R, "kg", 1.5).describe("Mass rigidly attached to the body, kg"),
            Variable::real_parameter("m2", M2, "kg", 0.5).describe("Second, spring-mounted mass, kg"),
            Variable::real_parameter("k2", K2, "N/m", 2.0).describe("Spring between body and second mass, N/m"),
            Variable::real_parameter("c2", C2, "N.s/m", 0.1).describe("Damper between body and second mass, N.s/m"),
            Variable::real_parameter("x0", X0, "m", 0.0).describe("Initial position of the second mass, m"),
            Variable::real_parameter("v0", V0, "m/s", 0.0).describe("Initial velocity of the second mass, m/s"),
            Variable::real_parameter("tolerance", TOLERANCE, "", 1e-10).describe("Integrator tolerance"),
            Variable::real_input("x1", X1, "m", 0.0).describe("Body position, m"),
            Variable::real_input("v1", V1, "m/s", 0.0).describe("Body velocity, m/s"),
            Variable::real_input("a1", A1, "m/s2", 0.0).describe("Body acceleration, m/s^2"),
            Variable::real_output("F", F, "N").describe("Force on the body, N").depends_on([X1, V1, A1]),
            Variable::real_output("x2", X2, "m").describe("Second mass position, m"),
            Variable::real_output("v2", V2, "m/s").describe("Second mass velocity, m/s"),
        ]
    }

    fn configure(p: &dyn Parameters) -> Result<Self, fmu_core::params::ParameterError> {
        use load_vr::*;
        Ok(Load {
            m_r: check_non_negative("m_r", p.real(M_R))?,
            m2: check_positive("m2", p.real(M2))?,
            k2: check_non_negative("k2", p.real(K2))?,
            c2: check_non_negative("c2", p.real(C2))?,
            x0: p.real(X0),
            v0: p.real(V0),
            tolerance: check_positive("tolerance", p.real(TOLERANCE))?,
        })
    }

    fn state_variables() -> Vec<StateVariable> {
        position_and_velocity("x2", "v2", "second mass")
    }

    fn n_states(&self) -> usize {
        2
    }

    fn initial_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&[self.x0, self.v0]);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = -self.link_force(u[0], u[1], x[0], x[1]) * (1.0 / self.m2);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        y[0] = self.link_force(u[0], u[1], x[0], x[1]) - u[2] * self.m_r;
        y[1] = x[0];
        y[2] = x[1];
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
