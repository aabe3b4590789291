//! Writes a system FMU: the outer interface chosen by patterns, its `modelDescription.xml`, and
//! the archive with the system and its FMUs as resources.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::{INTERFACE_FILE, Interface, OuterCausality, OuterType, OuterVariable, SYSTEM_FILE};
use cosim::import::model_description::{Causality, Initial, ScalarVariable, VarType, Variability};
use cosim::system::{OWN_FIELDS, ParameterValue, System, VarRef, name_matches};
use fmi2_types::model_description as schema;

/// What the outer FMU exposes: patterns `instance.variable` with `*` (empty: the default).
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// Inner Real inputs to expose; default: those the system's `inputs` drive.
    pub inputs: Vec<String>,
    /// Values to expose as outputs; default: the system's recorded Real `outputs`.
    pub outputs: Vec<String>,
    /// Inner parameters to expose; default: none.
    pub parameters: Vec<String>,
    /// `modelIdentifier`; default: the JSON file's name made a C identifier.
    pub model_identifier: Option<String>,
}

/// What [`export`] wrote.
#[derive(Debug, Clone)]
pub struct ExportReport {
    /// The `modelIdentifier`.
    pub model_identifier: String,
    /// Inner FMU files embedded.
    pub fmus: usize,
    /// Outer parameters, inputs and outputs.
    pub counts: [usize; 3],
    /// Recorded outputs not exposed because they are not Real.
    pub skipped_outputs: Vec<String>,
}

fn identifier_from(stem: &str) -> String {
    let mut id: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert(0, '_');
    }
    id
}

fn is_c_identifier(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with(|c: char| c.is_ascii_digit())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every variable of `system` as `(reference, name)` in instance and model-description order.
fn all_variables(system: &System) -> impl Iterator<Item = (VarRef, String)> + '_ {
    system.instances.iter().enumerate().flat_map(|(instance, spec)| {
        spec.description
            .variables
            .iter()
            .enumerate()
            .map(move |(variable, v)| (VarRef { instance, variable }, format!("{}.{}", spec.name, v.name)))
    })
}

/// The variables whose names match one of `patterns` and pass `keep`, in system order;
/// each pattern must match at least one.
fn select(
    system: &System,
    patterns: &[String],
    what: &str,
    keep: impl Fn(VarRef, &ScalarVariable) -> bool,
) -> Result<Vec<VarRef>> {
    let candidates: Vec<(VarRef, String)> =
        all_variables(system).filter(|(r, _)| keep(*r, system.variable(*r))).collect();
    for pattern in patterns {
        if !candidates.iter().any(|(_, name)| name_matches(pattern, name)) {
            bail!("--{what} '{pattern}' matches no {what} the system FMU can expose");
        }
    }
    Ok(candidates
        .into_iter()
        .filter(|(_, name)| patterns.iter().any(|p| name_matches(p, name)))
        .map(|(r, _)| r)
        .collect())
}

fn outer_type(var_type: VarType) -> Option<OuterType> {
    match var_type {
        VarType::Real => Some(OuterType::Real),
        VarType::Integer | VarType::Enumeration => Some(OuterType::Integer),
        VarType::Boolean => Some(OuterType::Boolean),
        VarType::String => None,
    }
}

/// The start value written for an inner variable: its `start` attribute read as a number.
fn inner_start(v: &ScalarVariable) -> Option<f64> {
    let text = v.start.as_deref()?;
    match text {
        "true" => Some(1.0),
        "false" => Some(0.0),
        _ => text.parse().ok(),
    }
}

/// The outer variables, each with the inner variable it stands for.
type Chosen = Vec<(VarRef, OuterVariable)>;

/// Chooses the outer variables of `system`; also returns the recorded outputs left out.
fn interface(system: &System, options: &ExportOptions) -> Result<(Chosen, Vec<String>)> {
    let driven_by_connection = |r: VarRef| system.connections.iter().any(|c| c.to == r);
    let mut chosen = Vec::new();

    let parameters = select(system, &options.parameters, "parameter", |_, v| {
        v.causality == Causality::Parameter && outer_type(v.var_type).is_some()
    })?;
    for r in parameters {
        let v = system.variable(r);
        let written = system.instances[r.instance].parameters.iter().find(|(k, _)| *k == r.variable);
        let start = match written.map(|(_, value)| value) {
            Some(&ParameterValue::Real(x)) => Some(x),
            Some(&ParameterValue::Integer(i)) => Some(f64::from(i)),
            Some(&ParameterValue::Boolean(b)) => Some(f64::from(u8::from(b))),
            // Not an outer variable type: filtered by `outer_type` above.
            Some(ParameterValue::String(_)) => None,
            None => inner_start(v),
        };
        let var_type = outer_type(v.var_type).expect("filtered");
        chosen.push((r, OuterVariable { name: system.name(r), causality: OuterCausality::Parameter, var_type, start }));
    }

    let inputs = if options.inputs.is_empty() {
        let mut refs: Vec<VarRef> = Vec::new();
        for e in &system.inputs {
            if !refs.contains(&e.to) {
                refs.push(e.to);
            }
        }
        refs
    } else {
        select(system, &options.inputs, "input", |r, v| {
            v.causality == Causality::Input && v.var_type == VarType::Real && !driven_by_connection(r)
        })?
    };
    for r in inputs {
        let signal = system.inputs.iter().find(|e| e.to == r).map(|e| e.signal.value(system.experiment.start));
        let start = signal.or_else(|| inner_start(system.variable(r)));
        chosen.push((
            r,
            OuterVariable { name: system.name(r), causality: OuterCausality::Input, var_type: OuterType::Real, start },
        ));
    }

    let mut skipped = Vec::new();
    let outputs = if options.outputs.is_empty() {
        system.outputs.clone()
    } else {
        select(system, &options.outputs, "output", |r, v| {
            v.causality == Causality::Output || system.outputs.contains(&r)
        })?
    };
    for r in outputs {
        if system.variable(r).var_type != VarType::Real {
            skipped.push(system.name(r));
            continue;
        }
        let name = system.name(r);
        chosen.push((
            r,
            OuterVariable { name, causality: OuterCausality::Output, var_type: OuterType::Real, start: None },
        ));
    }
    if !chosen.iter().any(|(_, v)| v.causality == OuterCausality::Output) {
        bail!("the system FMU would have no outputs: name some with --output, or record Real outputs in the system");
    }
    Ok((chosen, skipped))
}

/// The model description of the system FMU, its GUID left to
/// [`schema::ModelDescription::into_xml_with_content_guid`].
fn model_description(
    model_name: &str,
    model_identifier: &str,
    system: &System,
    chosen: &[(VarRef, OuterVariable)],
    units: &BTreeMap<String, schema::BaseUnit>,
) -> schema::ModelDescription {
    let instances: Vec<&str> = system.instances.iter().map(|i| i.name.as_str()).collect();
    let mut md = schema::ModelDescription::new(model_name, "");
    md.description = Some(format!(
        "The coupled system {model_name} ({}) with its algebraic loops solved by the rotorcraft-fmi Newton master",
        instances.join(", ")
    ));
    md.generation_tool =
        Some(format!("{} orchestrator {}", fmu_core::description::TOOL_NAME, env!("CARGO_PKG_VERSION")));
    md.variable_naming_convention = Some(schema::VariableNamingConvention::Flat);
    md.number_of_event_indicators = Some(0);
    md.co_simulation = Some(co_simulation(model_identifier, system));
    let used: Vec<&str> = chosen.iter().filter_map(|(r, _)| system.variable(*r).unit.as_deref()).collect();
    md.unit_definitions = units
        .iter()
        .filter(|(name, _)| used.contains(&name.as_str()))
        .map(|(name, base)| schema::Unit {
            name: name.clone(),
            base_unit: Some(base.clone()),
            display_units: Vec::new(),
        })
        .collect();
    md.log_categories = fmu_core::description::log_categories();
    let exp = system.experiment;
    md.default_experiment = Some(schema::DefaultExperiment {
        start_time: Some(exp.start),
        stop_time: Some(exp.stop),
        tolerance: None,
        step_size: Some(exp.step),
    });
    md.vendor_annotations = vec![schema::Tool {
        name: fmu_core::description::TOOL_NAME.to_string(),
        coupling: Some(schema::Coupling {
            get_after_set: true,
            description: Some(
                "Inputs set between steps are applied at once: fmi2GetReal after fmi2SetReal solves the inner \
                 coupling again and returns consistent outputs."
                    .to_string(),
            ),
        }),
    }];
    md.model_variables =
        chosen.iter().enumerate().map(|(k, (r, v))| scalar_variable(k as u32 + 1, system, *r, v, units)).collect();
    // No `dependencies`: through the algebraic loops an output may depend on every input.
    let outputs: Vec<schema::Unknown> = chosen
        .iter()
        .enumerate()
        .filter(|(_, (_, v))| v.causality == OuterCausality::Output)
        .map(|(k, _)| schema::Unknown::at(k + 1))
        .collect();
    md.model_structure.initial_unknowns = outputs.clone();
    md.model_structure.outputs = outputs;
    md
}

/// The `CoSimulation` element: the capabilities every inner FMU shares.
fn co_simulation(model_identifier: &str, system: &System) -> schema::CoSimulation {
    // FMU state: composed of the inner FMUs' states, so only where every one provides it.
    let every = |f: fn(&schema::CoSimulation) -> Option<bool>| {
        system.instances.iter().all(|i| f(&i.description.co_simulation) == Some(true))
    };
    let get_and_set = every(|c| c.can_get_and_set_fmu_state);
    // Input derivatives reach the inner FMUs only through the master's input extrapolation.
    let interpolate = system.master.extrapolate_inputs && every(|c| c.can_interpolate_inputs);
    let serialize = get_and_set && every(|c| c.can_serialize_fmu_state);
    schema::CoSimulation {
        model_identifier: model_identifier.to_string(),
        can_handle_variable_communication_step_size: Some(true),
        can_interpolate_inputs: Some(interpolate),
        max_output_derivative_order: Some(0),
        can_get_and_set_fmu_state: Some(get_and_set),
        can_serialize_fmu_state: Some(serialize),
        provides_directional_derivative: Some(false),
        ..Default::default()
    }
}

/// The `ScalarVariable` of outer variable `v` (standing for inner variable `r`), value reference
/// `vr`: its type (`Real`, `Integer` or `Boolean`) with its start value (not for outputs) and, for
/// a Real, the unit of the inner variable where defined.
fn scalar_variable(
    vr: u32,
    system: &System,
    r: VarRef,
    v: &OuterVariable,
    units: &BTreeMap<String, schema::BaseUnit>,
) -> schema::ScalarVariable {
    let inner = system.variable(r);
    let (causality, variability, initial) = match v.causality {
        OuterCausality::Parameter => (Causality::Parameter, Variability::Fixed, Some(Initial::Exact)),
        OuterCausality::Input => (Causality::Input, Variability::Continuous, None),
        OuterCausality::Output => (Causality::Output, Variability::Continuous, None),
    };
    let instance = &system.instances[r.instance].name;
    let description = match inner.description.as_deref() {
        Some(d) => format!("{instance}: {d}"),
        None => format!("{instance}: {}", inner.name),
    };
    let start = v.start.filter(|_| v.causality != OuterCausality::Output);
    let value = match v.var_type {
        OuterType::Real => schema::VariableType::Real(schema::RealAttributes {
            unit: inner.unit.clone().filter(|u| units.contains_key(u)),
            start,
            ..Default::default()
        }),
        OuterType::Integer => schema::VariableType::Integer(schema::IntegerAttributes {
            start: start.map(|s| s as i32),
            ..Default::default()
        }),
        OuterType::Boolean => schema::VariableType::Boolean { declared_type: None, start: start.map(|s| s != 0.0) },
    };
    schema::ScalarVariable {
        name: v.name.clone(),
        value_reference: vr,
        description: Some(description),
        causality,
        variability,
        initial,
        value,
    }
}

/// Writes the system of `json_path` (resolved as `system`) as the system FMU `out`, whose binary
/// is `library` (`libRotorcraftSystem.so`).
pub fn export(
    json_path: &Path,
    system: &System,
    library: &Path,
    options: &ExportOptions,
    out: &Path,
) -> Result<ExportReport> {
    let stem = json_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "system".into());
    let model_identifier = options.model_identifier.clone().unwrap_or_else(|| identifier_from(&stem));
    if !is_c_identifier(&model_identifier) {
        bail!(
            "model identifier '{model_identifier}' is not a C identifier (letters, digits, '_', not starting with a digit)"
        );
    }
    let (chosen, skipped_outputs) = interface(system, options)?;

    // The system description as written, with FMUs and tables pointing into the archive.
    let text = std::fs::read_to_string(json_path).with_context(|| format!("cannot read {}", json_path.display()))?;
    let mut raw: Value = serde_json::from_str(&text).with_context(|| format!("{}", json_path.display()))?;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let embedded = embed_fmus(json_path, system, &mut raw, &mut files)?;
    embed_tables(json_path.parent().unwrap_or(Path::new(".")), &mut raw, &mut files)?;
    let outputs: Vec<Value> = chosen
        .iter()
        .filter(|(_, v)| v.causality == OuterCausality::Output)
        .map(|(_, v)| Value::String(v.name.clone()))
        .collect();
    let object = raw.as_object_mut().context("the system description is not a JSON object")?;
    object.insert("outputs".into(), outputs.into());
    // Only cosim's own fields: the slave reads it in a context that declares no application
    // sections. (Removed one by one, as `trim` was, so the stored bytes keep their key order.)
    let sections: Vec<String> = object.keys().filter(|k| !OWN_FIELDS.contains(&k.as_str())).cloned().collect();
    for key in sections {
        object.remove(&key);
    }

    let units = unit_definitions(&embedded)?;
    let (xml, guid) = model_description(&stem, &model_identifier, system, &chosen, &units).into_xml_with_content_guid();
    let counts = [OuterCausality::Parameter, OuterCausality::Input, OuterCausality::Output]
        .map(|c| chosen.iter().filter(|(_, v)| v.causality == c).count());
    let interface = Interface { guid, variables: chosen.into_iter().map(|(_, v)| v).collect() };
    files.push((format!("resources/{SYSTEM_FILE}"), serde_json::to_vec_pretty(&raw)?));
    files.push((format!("resources/{INTERFACE_FILE}"), serde_json::to_vec_pretty(&interface)?));
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), b.as_slice())).collect();
    fmu_tooling::write_fmu(out, &xml, &model_identifier, library, &refs)
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(ExportReport { model_identifier, fmus: embedded.len(), counts, skipped_outputs })
}

/// Adds every FMU of `system` once to `files` (as `resources/fmus/<stem>.fmu`, numbered where
/// stems clash) and points its entry in `raw` (the system description as written) at it;
/// returns each FMU file with its name in the archive's resources.
fn embed_fmus(
    json_path: &Path,
    system: &System,
    raw: &mut Value,
    files: &mut Vec<(String, Vec<u8>)>,
) -> Result<Vec<(PathBuf, String)>> {
    let embedded: Vec<(PathBuf, String)> =
        system.fmu_file_names().into_iter().map(|(path, name)| (path, format!("fmus/{name}"))).collect();
    let mut read = vec![false; embedded.len()];
    for instance in &system.instances {
        let k = embedded.iter().position(|(p, _)| *p == instance.path).expect("every FMU file is named");
        let archive_name = embedded[k].1.clone();
        if !read[k] {
            let bytes =
                std::fs::read(&instance.path).with_context(|| format!("cannot read {}", instance.path.display()))?;
            files.push((format!("resources/{archive_name}"), bytes));
            read[k] = true;
        }
        let fmu = raw
            .get_mut("fmus")
            .and_then(|f| f.get_mut(&instance.name))
            .and_then(Value::as_object_mut)
            .with_context(|| format!("{}: fmus.{} is not an object", json_path.display(), instance.name))?;
        fmu.remove("model");
        fmu.insert("path".into(), Value::String(archive_name));
    }
    Ok(embedded)
}

/// Adds the CSV tables of the external input signals of `raw` to `files` (as
/// `resources/tables/<k>-<file>`, read from `base`, the JSON file's folder) and points `raw` at them.
fn embed_tables(base: &Path, raw: &mut Value, files: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    if let Some(inputs) = raw.get_mut("inputs").and_then(Value::as_array_mut) {
        for (k, input) in inputs.iter_mut().enumerate() {
            let Some(csv) = input.pointer_mut("/signal/table/csv") else { continue };
            let Some(path) = csv.as_str().map(|p| base.join(p)) else { continue };
            let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let name = format!("tables/{k}-{file}");
            files.push((
                format!("resources/{name}"),
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?,
            ));
            *csv = Value::String(name);
        }
    }
    Ok(())
}

/// The unit definitions of the `embedded` FMUs, the first of each name kept.
fn unit_definitions(embedded: &[(PathBuf, String)]) -> Result<BTreeMap<String, schema::BaseUnit>> {
    let mut units = BTreeMap::new();
    for (path, _) in embedded {
        for (name, attributes) in cosim::ssp::unit_definitions(path).map_err(anyhow::Error::msg)? {
            if let std::collections::btree_map::Entry::Vacant(entry) = units.entry(name) {
                let base =
                    base_unit(&attributes).with_context(|| format!("{}: unit '{}'", path.display(), entry.key()))?;
                entry.insert(base);
            }
        }
    }
    Ok(units)
}

/// The `BaseUnit` of its attributes as read (name, text); attributes FMI 2.0 does not define are
/// left out.
fn base_unit(attributes: &[(String, String)]) -> Result<schema::BaseUnit> {
    let mut base = schema::BaseUnit::default();
    for (name, text) in attributes {
        base.set_attribute(name, text).map_err(anyhow::Error::msg)?;
    }
    Ok(base)
}
