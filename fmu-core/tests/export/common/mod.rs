//! Test models shared by the integration tests of `fmu-core`.
//!
//! * [`MassSpringDamper`]: `m x'' = -n k x - c x' + F`, the model most tests run. It has one input,
//!   real, integer and boolean parameters, two outputs without feedthrough (`x`, `v`) and one with
//!   direct feedthrough from `F` (`a`), so every path of the FMI layer is exercised.
//!   It declares its states, so it is also a Model Exchange FMU.
//! * [`Decay`]: `y' = -y / tau`, a second model type with a different GUID and storage layout,
//!   whose `outputs` panics on request (to test panic containment at the C boundary), and
//!   Co-Simulation only.
#![allow(dead_code)] // each test crate uses a different subset

use std::cell::RefCell;
use std::rc::Rc;

use fmu_core::{Instance, Model, ModelInfo, Parameters, Scalar, StateVariable, Status, Variable};

/// Value references of [`MassSpringDamper`].
pub mod vr {
    /// Input: external force `F`, N.
    pub const F: u32 = 0;
    /// Parameter: mass `m`, kg.
    pub const M: u32 = 1;
    /// Parameter: stiffness of one spring `k`, N/m.
    pub const K: u32 = 2;
    /// Tunable parameter: damping coefficient `c`, N.s/m.
    pub const C: u32 = 3;
    /// Parameter: initial position, m.
    pub const X0: u32 = 4;
    /// Parameter: initial velocity, m/s.
    pub const V0: u32 = 5;
    /// Parameter: relative and absolute integrator tolerance.
    pub const TOL: u32 = 6;
    /// Integer parameter: number of identical springs in parallel, in [1, 8].
    pub const SPRINGS: u32 = 7;
    /// Boolean parameter: damping enabled.
    pub const DAMPING: u32 = 8;
    /// Output: position, m.
    pub const X: u32 = 10;
    /// Output: velocity, m/s.
    pub const V: u32 = 11;
    /// Output: acceleration, m/s2 (direct feedthrough from `F`).
    pub const A: u32 = 12;
}

/// Default parameter values of [`MassSpringDamper`] (an underdamped oscillator: natural
/// frequency 2 rad/s, damping ratio 0.05).
pub mod defaults {
    pub const M: f64 = 2.0;
    pub const K: f64 = 8.0;
    pub const C: f64 = 0.4;
    pub const X0: f64 = 0.5;
    pub const V0: f64 = -0.3;
    pub const TOL: f64 = 1e-10;
}

/// A mass on `springs` identical linear springs with an optional linear damper and an external
/// force: `m x'' = -springs k x - c x' + F` (the `c` term only if `damping` is true).
///
/// States `[x, v]`; outputs `[x, v, a]` with `a = (F - springs k x - c v) / m`.
#[derive(Debug, Clone)]
pub struct MassSpringDamper {
    m: f64,
    /// Effective stiffness `springs * k`, N/m.
    k: f64,
    /// Effective damping (0 when damping is disabled), N.s/m.
    c: f64,
    x0: f64,
    v0: f64,
    tol: f64,
}

impl MassSpringDamper {
    /// Acceleration, written once for the derivative and the (generic) output equations.
    fn acceleration<D: Scalar>(&self, x: D, v: D, f: D) -> D {
        (f - x * self.k - v * self.c) / self.m
    }
}

impl Model for MassSpringDamper {
    const INFO: ModelInfo = ModelInfo {
        model_name: "MassSpringDamper",
        model_identifier: "MassSpringDamper",
        description: "Test model: mass-spring-damper with an external force",
        default_stop_time: 10.0,
        default_step_size: 0.01,
    };

    type Work<D: Scalar> = ();

    fn work<D: Scalar>(&self) {}

    fn variables() -> Vec<Variable> {
        use defaults as d;
        vec![
            Variable::real_input("F", vr::F, "N", 0.0).describe("External force along x"),
            Variable::real_parameter("m", vr::M, "kg", d::M).describe("Mass"),
            Variable::real_parameter("k", vr::K, "N/m", d::K).describe("Stiffness of one spring, N/m"),
            Variable::real_parameter("c", vr::C, "N.s/m", d::C).describe("Damping coefficient, N.s/m").tunable(),
            Variable::real_parameter("x0", vr::X0, "m", d::X0).describe("Initial position"),
            Variable::real_parameter("v0", vr::V0, "m/s", d::V0).describe("Initial velocity"),
            Variable::real_parameter("tolerance", vr::TOL, "", d::TOL).describe("Integrator tolerance"),
            Variable::integer_parameter("springs", vr::SPRINGS, 1, 1, 8).describe("Springs in parallel"),
            Variable::boolean_parameter("damping", vr::DAMPING, true).describe("Damper enabled"),
            Variable::real_output("x", vr::X, "m").describe("Position"),
            Variable::real_output("v", vr::V, "m/s").describe("Velocity"),
            Variable::real_output("a", vr::A, "m/s2").describe("Acceleration").depends_on([vr::F]),
        ]
    }

    fn configure(p: &dyn Parameters) -> Result<Self, fmu_core::params::ParameterError> {
        let m = p.real(vr::M);
        if m.is_nan() || m <= 0.0 {
            return Err(format!("m = {m} kg must be positive").into());
        }
        let (k, c) = (p.real(vr::K), p.real(vr::C));
        if k < 0.0 || c < 0.0 {
            return Err(format!("k = {k} and c = {c} must not be negative").into());
        }
        let tol = p.real(vr::TOL);
        if !(tol > 0.0 && tol < 0.1) {
            return Err(format!("tolerance = {tol} must be in (0, 0.1)").into());
        }
        Ok(MassSpringDamper {
            m,
            k: f64::from(p.integer(vr::SPRINGS)) * k,
            c: if p.boolean(vr::DAMPING) { c } else { 0.0 },
            x0: p.real(vr::X0),
            v0: p.real(vr::V0),
            tol,
        })
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

    fn state_variables() -> Vec<StateVariable> {
        vec![
            StateVariable::new("x", "m", "m/s", "Position", 1.0),
            StateVariable::new("v", "m/s", "m/s2", "Velocity", 1.0),
        ]
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        y[0] = x[0];
        y[1] = x[1];
        y[2] = self.acceleration(x[0], x[1], u[0]);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tol, self.tol)
    }
}

/// Value references of [`Decay`].
pub mod decay_vr {
    /// Parameter: time constant, s.
    pub const TAU: u32 = 1;
    /// Boolean parameter: make `outputs` panic.
    pub const PANIC: u32 = 2;
    /// Output: the decaying quantity.
    pub const Y: u32 = 3;
}

/// `y' = -y / tau`, `y(0) = 1`; a second model type. With `panic_in_outputs` set, its output
/// equation panics, standing in for a model bug.
#[derive(Debug, Clone)]
pub struct Decay {
    tau: f64,
    panic: bool,
}

impl Model for Decay {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Decay",
        model_identifier: "Decay",
        description: "Test model: exponential decay that can panic",
        default_stop_time: 1.0,
        default_step_size: 0.1,
    };

    type Work<D: Scalar> = ();

    fn work<D: Scalar>(&self) {}

    fn variables() -> Vec<Variable> {
        vec![
            Variable::real_parameter("tau", decay_vr::TAU, "s", 1.0),
            Variable::boolean_parameter("panic_in_outputs", decay_vr::PANIC, false),
            Variable::real_output("y", decay_vr::Y, ""),
        ]
    }

    fn configure(p: &dyn Parameters) -> Result<Self, fmu_core::params::ParameterError> {
        Ok(Decay { tau: p.real(decay_vr::TAU), panic: p.boolean(decay_vr::PANIC) })
    }

    fn n_states(&self) -> usize {
        1
    }

    fn initial_state(&self, x: &mut [f64]) {
        x[0] = 1.0;
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], _u: &[D], dx: &mut [D]) {
        dx[0] = -x[0] * (1.0 / self.tau);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], _u: &[D], y: &mut [D]) {
        if self.panic {
            panic!("Decay::outputs panics on request (panic_in_outputs = true)");
        }
        y[0] = x[0];
    }

    fn tolerances(&self) -> (f64, f64) {
        (1e-8, 1e-8)
    }
}

/// Messages an instance logged, as `"{status:?} {category}: {message}"`.
pub type Log = Rc<RefCell<Vec<String>>>;

/// A fresh instance (state `Instantiated`) whose log messages are recorded.
pub fn recorded<M: Model>() -> (Instance<M>, Log) {
    let log: Log = Rc::default();
    let sink = log.clone();
    let logger = Box::new(move |status: Status, category: &str, message: &str| {
        sink.borrow_mut().push(format!("{status:?} {category}: {message}"));
    });
    (Instance::with_logger("test", logger), log)
}

/// A [`MassSpringDamper`] instance with the given real parameters, initialized at `t = 0`
/// (state `StepComplete`).
pub fn initialized(params: &[(u32, f64)]) -> (Instance<MassSpringDamper>, Log) {
    let (mut inst, log) = recorded::<MassSpringDamper>();
    inst.setup_experiment(0.0, None).unwrap();
    let (vrs, values): (Vec<u32>, Vec<f64>) = params.iter().copied().unzip();
    inst.set_real(&vrs, &values).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    (inst, log)
}

/// One real value.
pub fn get<M: Model>(inst: &mut Instance<M>, vr: u32) -> f64 {
    let mut v = [0.0];
    inst.get_real(&[vr], &mut v).unwrap();
    v[0]
}

/// Several real values.
pub fn get_all<M: Model>(inst: &mut Instance<M>, vrs: &[u32]) -> Vec<f64> {
    let mut v = vec![0.0; vrs.len()];
    inst.get_real(vrs, &mut v).unwrap();
    v
}

/// Relative difference `|a - b| / max(|b|, floor)`.
pub fn rel(a: f64, b: f64, floor: f64) -> f64 {
    (a - b).abs() / b.abs().max(floor)
}
