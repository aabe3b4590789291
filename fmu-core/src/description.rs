//! `modelDescription.xml` and the GUID, generated from a model's variable declarations.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use fmi2_types::model_description as schema;
pub use fmi2_types::model_description::escape;

use crate::catalog::{Catalog, DERIVATIVE_VR_BASE, STATE_VR_BASE};
use crate::model::{Model, ModelInfo};
use crate::units;
use crate::variable::{Causality, Enumeration, Kind, Variability, Variable};

/// Name of the tool in `generationTool` and in our vendor annotation.
pub const TOOL_NAME: &str = schema::TOOL_NAME;
/// `author` of our model descriptions.
pub const AUTHOR: &str = "rotorcraft-fmi contributors";
/// `license` of our model descriptions (the workspace's licence).
pub const LICENSE: &str = "MIT OR Apache-2.0";

/// Log categories our FMUs declare (and accept in `fmi2SetDebugLogging`).
pub const LOG_CATEGORIES: &[(&str, &str)] = &[
    ("logEvents", "Initialization, steps and state changes"),
    ("logStatusWarning", "Calls that return fmi2Warning"),
    ("logStatusError", "Calls that return fmi2Error, with the reason"),
    ("logStatusFatal", "Calls that return fmi2Fatal"),
];

#[derive(Clone)]
struct Generated {
    catalog: Arc<Catalog>,
    xml: Arc<str>,
    guid: Arc<str>,
}

/// Generated descriptions, one per model type in this process.
fn cache() -> &'static Mutex<HashMap<TypeId, Generated>> {
    static CACHE: OnceLock<Mutex<HashMap<TypeId, Generated>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn generated<M: Model>() -> Generated {
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    let entry = map.entry(TypeId::of::<M>()).or_insert_with(|| {
        let catalog = Catalog::new(M::variables())
            .and_then(|c| c.with_states(M::state_variables()))
            .unwrap_or_else(|e| panic!("model {}: invalid variable declarations: {e}", M::INFO.model_identifier));
        let (xml, guid) = document::<M>(&catalog, "").into_xml_with_content_guid();
        Generated { catalog: Arc::new(catalog), xml: Arc::from(xml), guid: Arc::from(guid) }
    });
    entry.clone()
}

/// The checked variable table of model `M` (built once per process).
pub fn catalog<M: Model>() -> Arc<Catalog> {
    generated::<M>().catalog
}

/// The `modelDescription.xml` of model `M`.
pub fn model_description<M: Model>() -> Arc<str> {
    generated::<M>().xml
}

/// The model description of model `M` in the schema's types: what [`model_description`] writes.
pub fn description_document<M: Model>() -> schema::ModelDescription {
    let generated = generated::<M>();
    document::<M>(&generated.catalog, &generated.guid)
}

/// The GUID of model `M`: a hash of its model description, so any change of the interface
/// changes it.
pub fn guid<M: Model>() -> Arc<str> {
    generated::<M>().guid
}

/// Shortest text that reads back as the same `f64`.
pub fn real(v: f64) -> String {
    format!("{v:?}")
}

/// The model description of model `M` with variables `catalog` and GUID `guid`.
fn document<M: Model>(catalog: &Catalog, guid: &str) -> schema::ModelDescription {
    let info = &M::INFO;
    let version = env!("CARGO_PKG_VERSION");
    let mut md = schema::ModelDescription::new(info.model_name, guid);
    md.description = Some(info.description.to_string());
    md.author = Some(AUTHOR.to_string());
    md.version = Some(version.to_string());
    md.license = Some(LICENSE.to_string());
    md.generation_tool = Some(format!("{TOOL_NAME} {version}"));
    md.variable_naming_convention = Some(schema::VariableNamingConvention::Flat);
    md.number_of_event_indicators = Some(0);
    interfaces::<M>(&mut md, info);
    md.unit_definitions = unit_definitions(catalog);
    md.type_definitions = type_definitions(catalog);
    md.log_categories = log_categories();
    md.default_experiment = Some(schema::DefaultExperiment {
        start_time: Some(0.0),
        stop_time: Some(info.default_stop_time),
        tolerance: None,
        step_size: Some(info.default_step_size),
    });
    md.vendor_annotations = vec![schema::Tool {
        name: TOOL_NAME.to_string(),
        coupling: Some(schema::Coupling {
            get_after_set: true,
            description: Some(
                "Outputs are recomputed whenever inputs change, so fmi2GetReal after fmi2SetReal between steps \
                 returns consistent outputs (Newton coupling)."
                    .to_string(),
            ),
        }),
    }];
    md.model_variables = catalog.variables.iter().map(scalar_variable).collect();
    md.model_variables.extend(states_and_derivatives(catalog));
    md.model_structure = model_structure::<M>(catalog);
    md
}

/// [`LOG_CATEGORIES`] as the schema's categories.
pub fn log_categories() -> Vec<schema::Category> {
    LOG_CATEGORIES
        .iter()
        .map(|(name, description)| schema::Category {
            name: name.to_string(),
            description: Some(description.to_string()),
        })
        .collect()
}

/// The Model Exchange (when the model offers it) and Co-Simulation elements.
fn interfaces<M: Model>(md: &mut schema::ModelDescription, info: &ModelInfo) {
    if M::offers_model_exchange() {
        md.model_exchange = Some(schema::ModelExchange {
            model_identifier: info.model_identifier.to_string(),
            completed_integrator_step_not_needed: Some(true),
            can_get_and_set_fmu_state: Some(true),
            can_serialize_fmu_state: Some(true),
            provides_directional_derivative: Some(true),
            ..Default::default()
        });
    }
    md.co_simulation = Some(schema::CoSimulation {
        model_identifier: info.model_identifier.to_string(),
        can_handle_variable_communication_step_size: Some(true),
        can_interpolate_inputs: Some(true),
        max_output_derivative_order: Some(1),
        can_get_and_set_fmu_state: Some(true),
        can_serialize_fmu_state: Some(true),
        provides_directional_derivative: Some(true),
        ..Default::default()
    });
}

/// The units of the variables and states, in first-use order.
fn unit_definitions(catalog: &Catalog) -> Vec<schema::Unit> {
    let mut used: Vec<&str> = Vec::new();
    let state_units = catalog.states.iter().flat_map(|s| [s.unit, s.derivative_unit]);
    for unit in catalog
        .variables
        .iter()
        .filter_map(|v| match v.kind {
            Kind::Real { unit, .. } => Some(unit),
            _ => None,
        })
        .chain(state_units)
    {
        if !unit.is_empty() && !used.contains(&unit) {
            used.push(unit);
        }
    }
    let exponent = |e: i32| (e != 0).then_some(e);
    used.into_iter()
        .map(|u| {
            let b = units::base_unit(u).expect("units are checked by the catalog");
            schema::Unit {
                name: u.to_string(),
                base_unit: Some(schema::BaseUnit {
                    kg: exponent(b.kg),
                    m: exponent(b.m),
                    s: exponent(b.s),
                    k: exponent(b.k),
                    rad: exponent(b.rad),
                    ..Default::default()
                }),
                display_units: units::display_units(u)
                    .iter()
                    .map(|(name, factor)| schema::DisplayUnit {
                        name: name.to_string(),
                        factor: Some(*factor),
                        offset: None,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The enumeration types, in first-use order.
fn type_definitions(catalog: &Catalog) -> Vec<schema::SimpleType> {
    let mut enumerations: Vec<&Enumeration> = Vec::new();
    for v in &catalog.variables {
        if let Some(t) = v.enumeration
            && !enumerations.iter().any(|u| u.name == t.name)
        {
            enumerations.push(t);
        }
    }
    enumerations
        .into_iter()
        .map(|t| schema::SimpleType {
            name: t.name.to_string(),
            description: Some(t.description.to_string()),
            kind: schema::SimpleTypeKind::Enumeration(
                t.items
                    .iter()
                    .map(|(name, value, description)| schema::EnumerationItem {
                        name: name.to_string(),
                        value: *value,
                        description: Some(description.to_string()),
                    })
                    .collect(),
            ),
        })
        .collect()
}

/// The `ScalarVariable` of variable `v`.
fn scalar_variable(v: &Variable) -> schema::ScalarVariable {
    let causality = match v.causality {
        Causality::Parameter => schema::Causality::Parameter,
        Causality::Input => schema::Causality::Input,
        Causality::Output => schema::Causality::Output,
    };
    let variability = match v.variability {
        Variability::Fixed => schema::Variability::Fixed,
        Variability::Tunable => schema::Variability::Tunable,
        Variability::Discrete => schema::Variability::Discrete,
        Variability::Continuous => schema::Variability::Continuous,
    };
    let has_start = v.causality != Causality::Output;
    let value = match v.kind {
        Kind::Real { unit, start } => schema::VariableType::Real(schema::RealAttributes {
            unit: (!unit.is_empty()).then(|| unit.to_string()),
            display_unit: units::display_unit(unit, v.display_unit).map(str::to_string),
            min: v.range.0,
            max: v.range.1,
            start: has_start.then_some(start),
            ..Default::default()
        }),
        Kind::Integer { start, min, max } => match v.enumeration {
            Some(t) => schema::VariableType::Enumeration(schema::IntegerAttributes {
                declared_type: Some(t.name.to_string()),
                start: Some(start),
                ..Default::default()
            }),
            None => schema::VariableType::Integer(schema::IntegerAttributes {
                declared_type: None,
                min: Some(min),
                max: Some(max),
                start: Some(start),
            }),
        },
        Kind::Boolean { start } => schema::VariableType::Boolean { declared_type: None, start: Some(start) },
        Kind::String { start } => schema::VariableType::String { declared_type: None, start: Some(start.to_string()) },
    };
    schema::ScalarVariable {
        name: v.name.clone(),
        value_reference: v.vr,
        description: Some(v.description.clone()),
        causality,
        variability,
        initial: (v.causality == Causality::Parameter).then_some(schema::Initial::Exact),
        value,
    }
}

/// The continuous states, then their derivatives (Model Exchange), after the model variables.
fn states_and_derivatives(catalog: &Catalog) -> Vec<schema::ScalarVariable> {
    let first_state = catalog.variables.len() + 1;
    let local = |name: String, vr: u32, description: String, value: schema::RealAttributes| schema::ScalarVariable {
        name,
        value_reference: vr,
        description: Some(description),
        causality: schema::Causality::Local,
        variability: schema::Variability::Continuous,
        initial: Some(schema::Initial::Calculated),
        value: schema::VariableType::Real(value),
    };
    let unit = |u: &str| (!u.is_empty()).then(|| u.to_string());
    let states = catalog.states.iter().enumerate().map(|(i, s)| {
        let value = schema::RealAttributes {
            unit: unit(s.unit),
            display_unit: units::display_unit(s.unit, None).map(str::to_string),
            nominal: Some(s.nominal),
            ..Default::default()
        };
        local(s.name.clone(), STATE_VR_BASE + i as u32, s.description.clone(), value)
    });
    let derivatives = catalog.states.iter().enumerate().map(|(i, s)| {
        let value = schema::RealAttributes {
            unit: unit(s.derivative_unit),
            derivative: Some(first_state + i),
            ..Default::default()
        };
        let description = format!("Time derivative of {}", s.name);
        local(format!("der({})", s.name), DERIVATIVE_VR_BASE + i as u32, description, value)
    });
    states.chain(derivatives).collect()
}

/// `<ModelStructure>`: outputs with their dependencies (the inputs they declare and,
/// conservatively, every state or those of [`Model::output_state_dependencies`]), derivatives,
/// initial unknowns.
fn model_structure<M: Model>(catalog: &Catalog) -> schema::ModelStructure {
    let first_state = catalog.variables.len() + 1;
    let n_states = catalog.states.len();
    let indices = |causality: Causality| -> Vec<usize> {
        catalog.variables.iter().enumerate().filter(|(_, v)| v.causality == causality).map(|(i, _)| i + 1).collect()
    };
    let (output_indices, input_indices) = (indices(Causality::Output), indices(Causality::Input));
    let states = first_state..first_state + n_states;
    let outputs = output_indices
        .iter()
        .enumerate()
        .map(|(k, &index)| schema::Unknown {
            index,
            dependencies: Some({
                let output_states = M::output_state_dependencies(k).map_or_else(
                    || states.clone().collect(),
                    |listed| listed.iter().map(|i| first_state + i).collect(),
                );
                catalog.feedthrough[k].iter().map(|&p| input_indices[p]).chain::<Vec<usize>>(output_states).collect()
            }),
            dependencies_kind: None,
        })
        .collect();
    let derivatives = (first_state + n_states..first_state + 2 * n_states).map(schema::Unknown::at).collect();
    let initial_unknowns = output_indices
        .iter()
        .copied()
        .chain(first_state..first_state + 2 * n_states)
        .map(schema::Unknown::at)
        .collect();
    schema::ModelStructure { outputs, derivatives, initial_unknowns }
}
