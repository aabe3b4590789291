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

use fmu_core::declare::Tables;
use fmu_core::params::ParameterError;
use fmu_core::{Instance, Model, ModelInfo, Parameters, Scalar, Status, Variable};

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

/// The declarations of [`MassSpringDamper`]: the input, output and state tables of the test FMU
/// `TwoMassBody` ([`test_fmus::body`]), the same mass on a spring and a damper driven by a force
/// (input `F`; outputs `x`, `v` and `a`, which depends on `F`; states `x`, `v`). The value
/// references are [`vr`]'s: the parameters' positions (from 1), the input index (the force, 0)
/// and `10 +` the output index.
pub mod msd {
    pub use test_fmus::body::{u, x, y};
}

/// Value references of [`MassSpringDamper`].
pub mod vr {
    use super::defaults as d;
    use super::msd::{u, y};

    fmu_core::declare! { u32;
        /// Parameter: mass `m`, kg.
        M @ 1 = real("m", "kg", "Mass").start(d::M);
        /// Parameter: stiffness of one spring `k`, N/m.
        K = real("k", "N/m", "Stiffness of one spring, N/m").start(d::K);
        /// Tunable parameter: damping coefficient `c`, N.s/m.
        C = real("c", "N.s/m", "Damping coefficient, N.s/m").start(d::C);
        /// Parameter: initial position, m.
        X0 = real("x0", "m", "Initial position").start(d::X0);
        /// Parameter: initial velocity, m/s.
        V0 = real("v0", "m/s", "Initial velocity").start(d::V0);
        /// Parameter: relative and absolute integrator tolerance.
        TOL = real("tolerance", "", "Integrator tolerance").start(d::TOL);
        /// Integer parameter: number of identical springs in parallel, in [1, 8].
        SPRINGS = integer("springs", 1, 1, 8, "Springs in parallel");
        /// Boolean parameter: damping enabled.
        DAMPING = boolean("damping", true, "Damper enabled");
    }
    fmu_core::value_references!(0, 10);

    /// Input: external force `F`, N.
    pub const F: u32 = input(u::F);
    /// Output: position, m.
    pub const X: u32 = output(y::X);
    /// Output: velocity, m/s.
    pub const V: u32 = output(y::V);
    /// Output: acceleration, m/s2 (direct feedthrough from `F`).
    pub const A: u32 = output(y::A);
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

    const TABLES: Tables = Tables {
        parameters: vr::TABLE,
        inputs: (vr::INPUT_BASE, msd::u::TABLE),
        outputs: (vr::OUTPUT_BASE, msd::y::TABLE),
        states: msd::x::TABLE,
    };

    fmu_core::no_work!();

    /// The declared variables, with `c` tunable (declaration rows have no tunable parameter:
    /// none of our models has one).
    fn variables() -> Vec<Variable> {
        let tunable = |v: Variable| if v.vr == vr::C { v.tunable() } else { v };
        Self::TABLES.variables().into_iter().map(tunable).collect()
    }

    fn configure(p: &dyn Parameters) -> Result<Self, ParameterError> {
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
        msd::x::N
    }

    fn initial_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&[self.x0, self.v0]);
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], dx: &mut [D]) {
        dx[msd::x::X] = x[msd::x::V];
        dx[msd::x::V] = self.acceleration(x[msd::x::X], x[msd::x::V], u[msd::u::F]);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        use msd::y::{A, V, X};
        (y[X], y[V]) = (x[msd::x::X], x[msd::x::V]);
        y[A] = self.acceleration(x[msd::x::X], x[msd::x::V], u[msd::u::F]);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tol, self.tol)
    }
}

/// Value references of [`Decay`]: the parameters by position (from 1), the output `3 +` its
/// index.
pub mod decay_vr {
    fmu_core::declare! { u32;
        /// Parameter: time constant, s.
        TAU @ 1 = real("tau", "s", "").start(1.0);
        /// Boolean parameter: make `outputs` panic.
        PANIC = boolean("panic_in_outputs", false, "");
    }
    fmu_core::value_references!(3, 3);

    /// The output table: the decaying quantity.
    pub mod y {
        fmu_core::declare! { usize;
            Y = real("y", "", "");
            N;
        }
    }

    /// Output: the decaying quantity.
    pub const Y: u32 = output(y::Y);
}

/// `y' = -y / tau`, `y(0) = 1`; a second model type. With `panic_in_outputs` set, its output
/// equation panics, standing in for a model bug. It declares no states: Co-Simulation only.
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

    const TABLES: Tables = Tables {
        parameters: decay_vr::TABLE,
        inputs: (decay_vr::INPUT_BASE, &[]),
        outputs: (decay_vr::OUTPUT_BASE, decay_vr::y::TABLE),
        states: &[],
    };

    fmu_core::no_work!();

    fn configure(p: &dyn Parameters) -> Result<Self, ParameterError> {
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
        y[decay_vr::y::Y] = x[0];
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
