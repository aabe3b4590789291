//! The helper for a model without continuous states: its outputs are a function of time, inputs
//! and parameters alone, `y = g(t, u)` (an atmosphere, a mixing law). It writes its parameters
//! (its [`Tables`]) and its output function; [`StatelessModel`] supplies the rest of [`Model`].

use crate::declare::Tables;
use crate::model::{Model, ModelInfo, Parameters, Scalar};
use crate::params::ParameterError;

/// A model without continuous states and without memory between evaluations. Implement this
/// instead of [`Model`]: every such type is a [`Model`] with no states (no derivatives, no
/// initial state), no [`Model::Work`] and no integrator, so `fmi2DoStep` only advances the clock
/// and the outputs are evaluated from the inputs when read. It offers Co-Simulation and Model
/// Exchange (with zero states and no event indicators).
pub trait StatelessModel: Sized + 'static {
    /// Static description ([`Model::INFO`]).
    const INFO: ModelInfo;

    /// The model's declaration tables ([`crate::declare!`]; its state table is empty).
    const TABLES: Tables;

    /// Builds the model from the parameter values ([`Model::configure`]).
    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError>;

    /// Outputs `y = g(t, u)`, generic so that the same code gives exact derivatives.
    fn outputs<D: Scalar>(&self, t: D, u: &[D], y: &mut [D]);
}

impl<M: StatelessModel> Model for M {
    const INFO: ModelInfo = <M as StatelessModel>::INFO;
    const TABLES: Tables = <M as StatelessModel>::TABLES;

    crate::no_work!();

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        <M as StatelessModel>::configure(params)
    }

    fn n_states(&self) -> usize {
        0
    }

    fn initial_state(&self, _x: &mut [f64]) {}

    fn offers_model_exchange() -> bool {
        true
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, _x: &[D], _u: &[D], _dx: &mut [D]) {}

    fn outputs<D: Scalar>(&self, _work: &mut (), t: D, _x: &[D], u: &[D], y: &mut [D]) {
        <M as StatelessModel>::outputs(self, t, u, y);
    }

    /// Not used: without states there is nothing to integrate.
    fn tolerances(&self) -> (f64, f64) {
        (1e-6, 1e-6)
    }
}
