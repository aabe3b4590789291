//! Building a [`MonolithicSystem`](super::MonolithicSystem) from a resolved system: the models
//! configured from the registry, the connections, external inputs and recorded columns in the
//! models' `u` and `y` positions.

use std::rc::Rc;
use std::sync::Arc;

use cosim::import::model_description::{Causality, ModelDescription};
use cosim::system::{InstanceSpec, ParameterValue, Signal, System, VarRef};
use fmu_core::catalog::{Catalog, Slot};

use super::{Error, Recorded};
use crate::coupling::{Node, Unit};
use crate::registry::{DynModel, ParameterStore, Registry};

/// Position of model-description variable `v` in the model's `u` (input) or `y` (output).
fn io_position(md: &ModelDescription, v: usize, catalog: &Catalog) -> (Option<usize>, Option<usize>) {
    let vr = md.variables[v].value_reference;
    match catalog.index_of(vr).map(|i| catalog.slots[i]) {
        Some(Slot::Real(s)) => (catalog.input_pos[s], catalog.output_pos[s]),
        _ => (None, None),
    }
}

/// Builds the model of `inst` from `registry` with the instance's parameters, appends its
/// initial state to `x0`, and returns its unit (states at its offset in `x0`) and variable table.
pub(super) fn instantiate(
    inst: &InstanceSpec,
    registry: &Registry,
    x0: &mut Vec<f64>,
) -> Result<(Unit, Arc<Catalog>), Error> {
    let md = &inst.description;
    let identifier = &md.co_simulation.model_identifier;
    let factory = registry.get(identifier).ok_or_else(|| Error::UnknownModel {
        instance: inst.name.clone(),
        identifier: identifier.clone(),
        known: registry.identifiers().join(", "),
    })?;
    let ours = factory.guid();
    if md.guid != *ours {
        return Err(Error::GuidMismatch {
            instance: inst.name.clone(),
            identifier: identifier.clone(),
            fmu: md.guid.clone(),
            ours: ours.to_string(),
        });
    }
    let catalog = factory.catalog();
    let store = parameter_store(inst, catalog.clone())?;
    let model = factory
        .configure(&store)
        .map_err(|m| Error::Configure { instance: inst.name.clone(), message: format!("invalid parameters: {m}") })?;
    let offset = x0.len();
    x0.resize(offset + model.n_states(), 0.0);
    model.initial_state(&mut x0[offset..]);
    let y_names = output_names(inst, &catalog);
    let model: Rc<dyn DynModel> = Rc::from(model);
    let mut unit = Unit::new(inst.name.clone(), model, offset, store.inputs(), y_names);
    unit.feedthrough = catalog.feedthrough.clone();
    Ok((unit, catalog))
}

/// The parameter values of `inst` written over the start values of `catalog`.
fn parameter_store(inst: &InstanceSpec, catalog: Arc<Catalog>) -> Result<ParameterStore, Error> {
    let md = &inst.description;
    let mut store = ParameterStore::new(catalog);
    for (v, value) in &inst.parameters {
        let var = &md.variables[*v];
        let vr = var.value_reference;
        let set = match value {
            &ParameterValue::Real(x) => store.set_real(vr, x),
            &ParameterValue::Integer(i) => store.set_integer(vr, i),
            &ParameterValue::Boolean(b) => store.set_boolean(vr, b),
            ParameterValue::String(text) => store.set_string(vr, text),
        };
        set.map_err(|m| Error::Configure { instance: inst.name.clone(), message: format!("{}: {m}", var.name) })?;
    }
    Ok(store)
}

/// `instance.variable` of every Real output of the model, in the order of its `y`.
fn output_names(inst: &InstanceSpec, catalog: &Catalog) -> Vec<String> {
    catalog
        .output_slots
        .iter()
        .map(|&s| {
            let i = catalog.slots.iter().position(|&x| x == Slot::Real(s)).expect("output slot is declared");
            format!("{}.{}", inst.name, catalog.variables[i].name)
        })
        .collect()
}

/// Position of variable `r` of `system` in its model's `u` (input) or `y` (output).
fn position(system: &System, catalogs: &[Arc<Catalog>], r: VarRef) -> (Option<usize>, Option<usize>) {
    io_position(&system.instances[r.instance].description, r.variable, &catalogs[r.instance])
}

/// The connections of `system` as coupling nodes: one per connected output, with its targets.
pub(super) fn connection_nodes(system: &System, catalogs: &[Arc<Catalog>]) -> Result<Vec<Node>, Error> {
    let mut nodes: Vec<Node> = Vec::new();
    for c in &system.connections {
        let (Some(k), Some(j)) = (position(system, catalogs, c.from).1, position(system, catalogs, c.to).0) else {
            return Err(Error::Unsupported(format!(
                "connection {} -> {}: only real outputs to real inputs are supported",
                system.name(c.from),
                system.name(c.to)
            )));
        };
        let p = match nodes.iter().position(|n| n.unit == c.from.instance && n.output == k) {
            Some(p) => p,
            None => {
                nodes.push(Node { unit: c.from.instance, output: k, targets: Vec::new() });
                nodes.len() - 1
            }
        };
        nodes[p].targets.push((c.to.instance, j));
    }
    Ok(nodes)
}

/// The external signals of `system` as (unit, input position, signal).
pub(super) fn external_inputs(
    system: &System,
    catalogs: &[Arc<Catalog>],
) -> Result<Vec<(usize, usize, Signal)>, Error> {
    let mut externals = Vec::new();
    for e in &system.inputs {
        let j = position(system, catalogs, e.to)
            .0
            .ok_or_else(|| Error::Unsupported(format!("{}: external signals drive real inputs", system.name(e.to))))?;
        externals.push((e.to.instance, j, e.signal.clone()));
    }
    Ok(externals)
}

/// The recorded columns of `system` and their names (`instance.variable`).
pub(super) fn recorded_columns(
    system: &System,
    catalogs: &[Arc<Catalog>],
) -> Result<(Vec<Recorded>, Vec<String>), Error> {
    let mut recorded = Vec::new();
    let mut recorded_names = Vec::new();
    for &r in &system.outputs {
        let var = system.variable(r);
        let (input, output) = position(system, catalogs, r);
        recorded.push(match (var.causality, input, output) {
            (Causality::Output, _, Some(k)) => Recorded::Output(r.instance, k),
            (Causality::Input, Some(j), _) => Recorded::Input(r.instance, j),
            _ => {
                return Err(Error::Unsupported(format!(
                    "{}: only real outputs and inputs can be recorded",
                    system.name(r)
                )));
            }
        });
        recorded_names.push(system.name(r));
    }
    Ok((recorded, recorded_names))
}
