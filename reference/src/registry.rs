//! The in-process models the harness can couple, found by the FMU's `modelIdentifier`, and the
//! parameter store they are configured from.
//!
//! [`Model::outputs`] is generic over the scalar type, so a model is not object-safe as it is.
//! [`DynModel`] is the dyn-safe face of any [`Model`]: the output equations once for `f64` and
//! once for [`Dual64`] (exact Jacobian columns), everything else forwarded.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fmu_core::catalog::{Catalog, Slot};
use fmu_core::{Dual64, Model, Parameters};

/// A [`Model`] behind a trait object: the same equations, with the generic output function
/// monomorphised for `f64` and `Dual64`.
pub trait DynModel {
    /// Number of continuous states.
    fn n_states(&self) -> usize;
    /// Writes the initial state.
    fn initial_state(&self, x: &mut [f64]);
    /// State derivative `x' = f(t, x, u)`.
    fn derivatives(&self, t: f64, x: &[f64], u: &[f64], dx: &mut [f64]);
    /// Outputs `y = g(t, x, u)`.
    fn outputs(&self, t: f64, x: &[f64], u: &[f64], y: &mut [f64]);
    /// Outputs over dual numbers: a seeded input direction gives an exact column of `dg/du`.
    fn outputs_dual(&self, t: Dual64, x: &[Dual64], u: &[Dual64], y: &mut [Dual64]);
    /// Relative and absolute tolerance the model asks of its integrator.
    fn tolerances(&self) -> (f64, f64);
    /// Projects an accepted state back onto its manifold (quaternion norm and the like).
    fn project_state(&self, x: &mut [f64]);
}

/// A configured [`Model`] with the memory of its evaluations ([`Model::Work`], one per scalar
/// type), as an FMU instance holds them. The harness shares a model between its coupling unit
/// and the integrator's projections (`Rc`), so the memory sits in a `RefCell`: the harness is
/// single-threaded and no evaluation calls another.
struct WithWork<M: Model> {
    model: M,
    work: RefCell<M::Work<f64>>,
    work_dual: RefCell<M::Work<Dual64>>,
}

impl<M: Model> DynModel for WithWork<M> {
    fn n_states(&self) -> usize {
        self.model.n_states()
    }
    fn initial_state(&self, x: &mut [f64]) {
        self.model.initial_state(x)
    }
    fn derivatives(&self, t: f64, x: &[f64], u: &[f64], dx: &mut [f64]) {
        self.model.derivatives(&mut self.work.borrow_mut(), t, x, u, dx)
    }
    fn outputs(&self, t: f64, x: &[f64], u: &[f64], y: &mut [f64]) {
        self.model.outputs(&mut self.work.borrow_mut(), t, x, u, y)
    }
    fn outputs_dual(&self, t: Dual64, x: &[Dual64], u: &[Dual64], y: &mut [Dual64]) {
        self.model.outputs(&mut self.work_dual.borrow_mut(), t, x, u, y)
    }
    fn tolerances(&self) -> (f64, f64) {
        self.model.tolerances()
    }
    fn project_state(&self, x: &mut [f64]) {
        self.model.project_state(x)
    }
}

/// Builds a configured model from parameter values (an `Err` names the bad parameter).
pub type Configure = fn(&dyn Parameters) -> Result<Box<dyn DynModel>, String>;

/// How to build one model type: its identity (the `modelIdentifier` and GUID its FMU carries),
/// its variable table, and its constructor.
#[derive(Clone, Copy)]
pub struct ModelFactory {
    /// `modelIdentifier` of the model's FMU.
    pub identifier: &'static str,
    guid: fn() -> Arc<str>,
    catalog: fn() -> Arc<Catalog>,
    configure: Configure,
}

impl std::fmt::Debug for ModelFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelFactory").field("identifier", &self.identifier).finish_non_exhaustive()
    }
}

fn configure_boxed<M: Model>(params: &dyn Parameters) -> Result<Box<dyn DynModel>, String> {
    let model = M::configure(params).map_err(|e| e.to_string())?;
    let (work, work_dual) = (RefCell::new(model.work()), RefCell::new(model.work()));
    Ok(Box::new(WithWork { model, work, work_dual }))
}

impl ModelFactory {
    /// The factory of model type `M`.
    pub fn of<M: Model>() -> Self {
        ModelFactory {
            identifier: M::INFO.model_identifier,
            guid: fmu_core::guid::<M>,
            catalog: fmu_core::description::catalog::<M>,
            configure: configure_boxed::<M>,
        }
    }

    /// GUID of the model description this build generates (compared with the FMU's).
    pub fn guid(&self) -> Arc<str> {
        (self.guid)()
    }

    /// The model's checked variable table.
    pub fn catalog(&self) -> Arc<Catalog> {
        (self.catalog)()
    }

    /// Builds the model from parameter values, as `fmi2EnterInitializationMode` does.
    pub fn configure(&self, params: &dyn Parameters) -> Result<Box<dyn DynModel>, String> {
        (self.configure)(params)
    }
}

/// The models the harness knows, by `modelIdentifier`.
#[derive(Debug, Clone)]
pub struct Registry {
    factories: Vec<ModelFactory>,
}

impl Default for Registry {
    fn default() -> Self {
        Self::builtin()
    }
}

impl Registry {
    /// Our FMU models, those of [`fmu_catalog::visit_our_models`] (`Fuselage`, `Rotor`, `Aero`,
    /// `Controls`), and the orchestrator's test models (`TwoMassBody`, `TwoMassLoad`).
    pub fn builtin() -> Self {
        let mut r = Registry { factories: Vec::new() };
        fmu_catalog::visit_our_models(&mut r);
        r.register::<test_fmus::Body>();
        r.register::<test_fmus::Load>();
        r
    }

    /// Adds (or replaces) the model with `M`'s identifier.
    pub fn register<M: Model>(&mut self) {
        let f = ModelFactory::of::<M>();
        self.factories.retain(|g| g.identifier != f.identifier);
        self.factories.push(f);
    }

    /// The factory for a `modelIdentifier`.
    pub fn get(&self, identifier: &str) -> Option<&ModelFactory> {
        self.factories.iter().find(|f| f.identifier == identifier)
    }

    /// Known identifiers, in registration order.
    pub fn identifiers(&self) -> Vec<&'static str> {
        self.factories.iter().map(|f| f.identifier).collect()
    }
}

/// [`Registry::register`] for each of our models.
impl fmu_catalog::ModelVisitor for Registry {
    fn visit<M: Model>(&mut self) {
        self.register::<M>();
    }
}

/// Parameter (and input start) values of one model instance, with fmu-core's storage layout:
/// start values from the declarations, overridden by the system description.
#[derive(Debug, Clone)]
pub struct ParameterStore {
    catalog: Arc<Catalog>,
    /// Real values by real slot (parameters and inputs; outputs unused).
    pub reals: Vec<f64>,
    /// Integer values by integer slot.
    pub integers: Vec<i32>,
    /// Boolean values by boolean slot.
    pub booleans: Vec<bool>,
    /// String values by string slot.
    pub strings: Vec<String>,
    /// The folder relative file parameters (tables) are resolved against, as an FMU's
    /// `resources` folder; none by default, like an importer that gives no resource location.
    pub resources: Option<PathBuf>,
}

impl ParameterStore {
    /// The declared start values.
    pub fn new(catalog: Arc<Catalog>) -> Self {
        ParameterStore {
            reals: catalog.real_start.clone(),
            integers: catalog.integer_start.clone(),
            booleans: catalog.boolean_start.clone(),
            strings: catalog.string_start.iter().map(|s| s.to_string()).collect(),
            resources: None,
            catalog,
        }
    }

    fn slot(&self, vr: u32) -> Option<Slot> {
        self.catalog.index_of(vr).map(|i| self.catalog.slots[i])
    }

    /// Sets a real value; an error names the problem.
    pub fn set_real(&mut self, vr: u32, v: f64) -> Result<(), String> {
        match self.slot(vr) {
            Some(Slot::Real(s)) if v.is_finite() => {
                self.reals[s] = v;
                Ok(())
            }
            Some(Slot::Real(_)) => Err(format!("value {v} is not finite")),
            _ => Err(format!("value reference {vr} is not a Real of this model")),
        }
    }

    /// Sets an integer value within its declared range.
    pub fn set_integer(&mut self, vr: u32, v: i32) -> Result<(), String> {
        match self.slot(vr) {
            Some(Slot::Integer(s)) => {
                let (min, max) = self.catalog.integer_range[s];
                if v < min || v > max {
                    return Err(format!("value {v} is outside [{min}, {max}]"));
                }
                self.integers[s] = v;
                Ok(())
            }
            _ => Err(format!("value reference {vr} is not an Integer of this model")),
        }
    }

    /// Sets a boolean value.
    pub fn set_boolean(&mut self, vr: u32, v: bool) -> Result<(), String> {
        match self.slot(vr) {
            Some(Slot::Boolean(s)) => {
                self.booleans[s] = v;
                Ok(())
            }
            _ => Err(format!("value reference {vr} is not a Boolean of this model")),
        }
    }

    /// Sets a String value.
    pub fn set_string(&mut self, vr: u32, v: &str) -> Result<(), String> {
        match self.slot(vr) {
            Some(Slot::String(s)) => {
                self.strings[s] = v.to_string();
                Ok(())
            }
            _ => Err(format!("value reference {vr} is not a String of this model")),
        }
    }

    /// Start values of the real inputs, in the model's `u` order.
    pub fn inputs(&self) -> Vec<f64> {
        self.catalog.input_slots.iter().map(|&s| self.reals[s]).collect()
    }
}

impl Parameters for ParameterStore {
    fn real(&self, vr: u32) -> f64 {
        match self.slot(vr) {
            Some(Slot::Real(s)) => self.reals[s],
            _ => panic!("model asked for real value reference {vr}, which it does not declare"),
        }
    }
    fn integer(&self, vr: u32) -> i32 {
        match self.slot(vr) {
            Some(Slot::Integer(s)) => self.integers[s],
            _ => panic!("model asked for integer value reference {vr}, which it does not declare"),
        }
    }
    fn boolean(&self, vr: u32) -> bool {
        match self.slot(vr) {
            Some(Slot::Boolean(s)) => self.booleans[s],
            _ => panic!("model asked for boolean value reference {vr}, which it does not declare"),
        }
    }
    fn string(&self, vr: u32) -> &str {
        match self.slot(vr) {
            Some(Slot::String(s)) => &self.strings[s],
            _ => panic!("model asked for String value reference {vr}, which it does not declare"),
        }
    }
    fn resources(&self) -> Option<&Path> {
        self.resources.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_registry_knows_all_models_and_configures_from_start_values() {
        let r = Registry::builtin();
        // Our FMUs, in the catalog's order (the four of today among them), then the test models.
        let mut expected = fmu_catalog::our_models();
        assert!(["Fuselage", "Rotor", "Aero", "Controls"].iter().all(|id| expected.contains(id)), "{expected:?}");
        expected.extend(["TwoMassBody", "TwoMassLoad"]);
        assert_eq!(r.identifiers(), expected);
        for id in r.identifiers() {
            let f = r.get(id).unwrap();
            let mut store = ParameterStore::new(f.catalog());
            // RotorElastic's default `blade_file` names its shipped table, relative to the
            // resources folder the FMU archive carries; here the crate's copy stands in for it.
            if id == "RotorElastic" {
                store.resources = Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fmu-rotor-elastic/blades"));
            }
            let model = f.configure(&store).unwrap_or_else(|e| panic!("{id}: {e}"));
            let mut x = vec![0.0; model.n_states()];
            model.initial_state(&mut x);
            assert!(x.iter().all(|v| v.is_finite()), "{id}");
        }
    }

    #[test]
    fn parameter_store_checks_types_and_ranges() {
        let f = ModelFactory::of::<fmu_rotor::Rotor>();
        let cat = f.catalog();
        let mut store = ParameterStore::new(cat.clone());
        let nb = cat.vr_of("nb").unwrap();
        assert!(store.set_integer(nb, 99).is_err());
        assert!(store.set_integer(nb, 3).is_ok());
        assert!(store.set_real(nb, 1.0).is_err());
        assert_eq!(store.integer(nb), 3);
    }
}
