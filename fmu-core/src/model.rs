//! The safe model trait that every FMU crate implements.
//!
//! A model is `x' = f(t, x, u)`, `y = g(t, x, u)` with parameters `p`. The FMI layer owns the
//! values of all variables, the continuous state `x`, the clock and the integrator; the model owns
//! only data derived from its parameters, and is not changed by an evaluation: what an evaluation
//! writes (buffers, caches kept between calls) lives in its [`Model::Work`], which the caller owns
//! and passes in. Inputs `u` are the model's real inputs in declaration order, outputs `y` its
//! real outputs in declaration order.

use num_dual::DualNum;

use std::path::Path;

use crate::declare::Tables;
use crate::params::ParameterError;
use crate::variable::Variable;

/// Scalar type the output equations are written over: `f64` for values, `num_dual::Dual64` for
/// exact directional derivatives.
pub trait Scalar: DualNum<Primitive = f64> + Copy {}
impl<T: DualNum<Primitive = f64> + Copy> Scalar for T {}

/// Static facts about a model that end up in `modelDescription.xml`.
#[derive(Debug, Clone, Copy)]
pub struct ModelInfo {
    /// `modelName` attribute.
    pub model_name: &'static str,
    /// `modelIdentifier`: the shared library is `binaries/linux64/<modelIdentifier>.so`.
    pub model_identifier: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// `DefaultExperiment` stop time, s.
    pub default_stop_time: f64,
    /// `DefaultExperiment` communication step size, s.
    pub default_step_size: f64,
}

/// Read access to the current parameter values, by value reference.
pub trait Parameters {
    /// A real variable's value. Panics on an unknown value reference: a model bug, caught at the
    /// C boundary.
    fn real(&self, vr: u32) -> f64;
    /// An integer variable's value.
    fn integer(&self, vr: u32) -> i32;
    /// A boolean variable's value.
    fn boolean(&self, vr: u32) -> bool;
    /// A String variable's value. Default: a model bug (the model declares no String
    /// parameters), caught at the C boundary.
    fn string(&self, vr: u32) -> &str {
        panic!("model asked for String value reference {vr}, which it does not declare")
    }
    /// The FMU's unzipped `resources` folder, when the importer gave a `file:` URI of it
    /// (`fmuResourceLocation`). Default: none.
    fn resources(&self) -> Option<&Path> {
        None
    }
}

/// A continuous state as `modelDescription.xml` declares it for Model Exchange: the state
/// variable `name` and its derivative `der(name)`, both local Reals.
#[derive(Debug, Clone, PartialEq)]
pub struct StateVariable {
    /// Name, `state.` followed by what the state is (`state.blade[1].flap`).
    pub name: String,
    /// Unit of the state ([`crate::units`] symbol, `""` for dimensionless).
    pub unit: &'static str,
    /// Unit of its time derivative.
    pub derivative_unit: &'static str,
    /// What the state is, with frame and sign convention.
    pub description: String,
    /// `nominal`: the state's typical magnitude, for the importer's error control.
    pub nominal: f64,
}

impl StateVariable {
    /// The state `state.{name}`.
    pub fn new(
        name: &str,
        unit: &'static str,
        derivative_unit: &'static str,
        description: impl Into<String>,
        nominal: f64,
    ) -> Self {
        StateVariable { name: format!("state.{name}"), unit, derivative_unit, description: description.into(), nominal }
    }
}

/// A model that `fmu-core` can export as an FMI 2.0 FMU: Co-Simulation always, Model Exchange
/// as well when it offers it ([`Model::offers_model_exchange`]).
pub trait Model: Sized + 'static {
    /// Static description.
    const INFO: ModelInfo;

    /// The model's declaration tables ([`crate::declare!`]), from which [`Model::variables`] and
    /// [`Model::state_variables`] are made. A model that writes those two itself keeps the
    /// default, [`Tables::NONE`].
    const TABLES: Tables = Tables::NONE;

    /// Every variable of the model, each declared once. Value references must be unique.
    /// Default: those of [`Model::TABLES`].
    fn variables() -> Vec<Variable> {
        Self::TABLES.variables()
    }

    /// Builds the model's working data from the parameter values. An `Err` names the bad
    /// parameter and is reported to the importer.
    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError>;

    /// The memory of the evaluations with scalar type `D`: working buffers and whatever the
    /// model keeps between calls (the rotor's kinematics of its last evaluation). Made once per
    /// instance and scalar type by [`Model::work`] and handed to every evaluation, so that an
    /// evaluation allocates nothing and the model needs no interior mutability. `()` for a model
    /// that needs none.
    type Work<D: Scalar>;

    /// A new [`Model::Work`] for this configuration.
    fn work<D: Scalar>(&self) -> Self::Work<D>;

    /// Number of continuous states.
    fn n_states(&self) -> usize;

    /// Writes the initial state (from the parameters used in [`Model::configure`]).
    fn initial_state(&self, x: &mut [f64]);

    /// State derivative `x' = f(t, x, u)`, generic so that the same code gives the exact
    /// Jacobians of Model Exchange's directional derivatives.
    fn derivatives<D: Scalar>(&self, work: &mut Self::Work<D>, t: D, x: &[D], u: &[D], dx: &mut [D]);

    /// The continuous states the FMU declares for Model Exchange, the most any parameter set
    /// needs (a rotor's, for its largest number of blades). Empty: the FMU is Co-Simulation
    /// only. Default: those of [`Model::TABLES`].
    fn state_variables() -> Vec<StateVariable> {
        Self::TABLES.states()
    }

    /// The declared states (positions in [`Model::state_variables`]) that output `output` (its
    /// position in `y`) may depend on, for the `dependencies` of `modelDescription.xml`'s
    /// `<Outputs>`; `None` (the default): every state. A model with many states whose outputs
    /// each depend on a part of them (a rotor's blades) opts in to keep its description short;
    /// the list must contain every state the output depends on.
    fn output_state_dependencies(output: usize) -> Option<Vec<usize>> {
        let _ = output;
        None
    }

    /// Whether the FMU offers Model Exchange beside Co-Simulation. Default: when it declares
    /// states ([`Model::state_variables`]); a [`StatelessModel`](crate::StatelessModel) offers it
    /// with none (FMI 2.0 allows Model Exchange without states: the importer only sets time and
    /// inputs and reads the outputs).
    fn offers_model_exchange() -> bool {
        !Self::state_variables().is_empty()
    }

    /// For each of this configuration's states (in `x` order), its position in
    /// [`Model::state_variables`]; the declared states not listed stay at zero with zero
    /// derivative. Default: the first [`Model::n_states`].
    fn state_indices(&self) -> Vec<usize> {
        (0..self.n_states()).collect()
    }

    /// Outputs `y = g(t, x, u)`, generic so that the same code gives exact derivatives.
    fn outputs<D: Scalar>(&self, work: &mut Self::Work<D>, t: D, x: &[D], u: &[D], y: &mut [D]);

    /// Outputs `y = g(t, x, u)` given `y_prev`, the output values of the instance's previous
    /// evaluation (their start values before the first). For models whose output equations are
    /// solved iteratively: `y_prev` is a starting point, which the instance keeps in its FMU
    /// state, so that a restored state evaluates bit for bit as the original did. The result
    /// may depend on `y_prev` only within the iteration's tolerance, and must be a function of
    /// the arguments. The FMI layer always calls this; default: [`Model::outputs`].
    fn outputs_warm<D: Scalar>(&self, work: &mut Self::Work<D>, t: D, x: &[D], u: &[D], y_prev: &[f64], y: &mut [D]) {
        let _ = y_prev;
        self.outputs(work, t, x, u, y);
    }

    /// The outputs without direct feedthrough (declared without [`Variable::depends_on`]: they
    /// depend on `t` and `x` only), written into their positions of `y`; the other entries are
    /// to be left alone. A cheap shortcut for an importer that reads only those outputs before
    /// it sets the inputs (a master that needs a rotor's azimuth to compute its pitch): when the
    /// outputs are out of date, `fmi2GetReal` of such outputs alone calls this instead of the full
    /// [`Model::outputs_warm`], keeps nothing of it (the stored outputs stay out of date) and
    /// returns the values from `y`. They must be, bit for bit, the values the full evaluation
    /// gives, and every output without feedthrough must be written. Returns false (the default)
    /// when the model has no such shortcut: the full evaluation is used.
    ///
    /// [`Variable::depends_on`]: crate::variable::Variable::depends_on
    fn state_outputs(&self, t: f64, x: &[f64], y: &mut [f64]) -> bool {
        let _ = (t, x, y);
        false
    }

    /// Relative and absolute tolerance of the error-controlled integrator inside `fmi2DoStep`.
    fn tolerances(&self) -> (f64, f64);

    /// The model's own integrator for `fmi2DoStep`, in place of the Dormand-Prince: advances
    /// `x` from `t` to `t + h` under the inputs `inputs` (held or extrapolated over the step).
    /// `Some(Err(reason))` rejects the step (the instance restores `x` and returns `Discard`).
    /// Default: `None`, the Dormand-Prince with [`Model::tolerances`].
    fn step(
        &self,
        work: &mut Self::Work<f64>,
        t: f64,
        h: f64,
        x: &mut [f64],
        inputs: &InputPath,
    ) -> Option<Result<(), String>> {
        let _ = (work, t, h, x, inputs);
        None
    }

    /// Projects the state back onto its manifold after each accepted integrator step (for
    /// example, renormalises a quaternion). Default: nothing.
    fn project_state(&self, _x: &mut [f64]) {}

    /// The one-time warnings kept in `work`, which the instance logs after each evaluation
    /// ([`Warnings`](crate::Warnings)). Default: none.
    fn warnings<D: Scalar>(work: &mut Self::Work<D>) -> Option<&mut crate::Warnings> {
        let _ = work;
        None
    }
}

/// The inputs over a communication step as `fmi2DoStep` sees them: the values set at the step's
/// start `t` and their first and second time derivatives (zero unless the importer set them).
#[derive(Debug, Clone, Copy)]
pub struct InputPath<'a> {
    /// The step's start time, s.
    pub t: f64,
    /// Input values at `t`.
    pub values: &'a [f64],
    /// Their first derivatives.
    pub rates: &'a [f64],
    /// Their second derivatives.
    pub accelerations: &'a [f64],
}

impl InputPath<'_> {
    /// The inputs at time `tau`: `u + u' dt + u'' dt^2 / 2`, `dt = tau - t`, into `u`.
    pub fn at(&self, tau: f64, u: &mut [f64]) {
        let dt = tau - self.t;
        for (k, value) in u.iter_mut().enumerate() {
            *value = self.values[k] + dt * (self.rates[k] + 0.5 * dt * self.accelerations[k]);
        }
    }
}

/// Inside `impl Model for ...`, the [`Model::Work`] of a model that keeps nothing between
/// evaluations: `type Work<D> = ()` and its `work`.
#[macro_export]
macro_rules! no_work {
    () => {
        type Work<D: $crate::Scalar> = ();

        fn work<D: $crate::Scalar>(&self) {}
    };
}
