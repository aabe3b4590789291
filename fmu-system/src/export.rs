//! Writes a system FMU: the outer interface chosen by patterns, its `modelDescription.xml`, and
//! the archive with the system and its FMUs as resources.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use quick_xml::escape::escape;
use serde_json::Value;

use super::{INTERFACE_FILE, Interface, OuterCausality, OuterType, OuterVariable, SYSTEM_FILE};
use cosim::import::model_description::{Causality, ScalarVariable, VarType};
use cosim::system::{ParameterValue, System, VarRef, name_matches};

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
        let start = match written.map(|(_, value)| *value) {
            Some(ParameterValue::Real(x)) => Some(x),
            Some(ParameterValue::Integer(i)) => Some(f64::from(i)),
            Some(ParameterValue::Boolean(b)) => Some(f64::from(u8::from(b))),
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

/// `s` with the XML special characters escaped, for an attribute value.
fn esc(s: &str) -> String {
    escape(s).into_owned()
}

/// `modelDescription.xml` of the system FMU, with `@GUID@` where the GUID goes.
fn model_description(
    model_name: &str,
    model_identifier: &str,
    system: &System,
    chosen: &[(VarRef, OuterVariable)],
    units: &BTreeMap<String, Vec<(String, String)>>,
) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    write_root(&mut x, model_name, system);
    write_co_simulation(&mut x, model_identifier, system);
    write_unit_definitions(&mut x, system, chosen, units);
    write_log_categories_and_experiment(&mut x, system);
    write_model_variables(&mut x, system, chosen, units);
    write_model_structure(&mut x, chosen);
    x
}

/// The opening `fmiModelDescription` element: names, description and generation tool.
fn write_root(x: &mut String, model_name: &str, system: &System) {
    let instances: Vec<&str> = system.instances.iter().map(|i| i.name.as_str()).collect();
    let description = format!(
        "The coupled system {model_name} ({}) with its algebraic loops solved by the rotorcraft-fmi Newton master",
        instances.join(", ")
    );
    let _ = writeln!(
        x,
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"{}\" guid=\"@GUID@\" description=\"{}\" \
         generationTool=\"{} orchestrator {}\" variableNamingConvention=\"flat\" numberOfEventIndicators=\"0\">",
        esc(model_name),
        esc(&description),
        fmu_core::description::TOOL_NAME,
        env!("CARGO_PKG_VERSION")
    );
}

/// The `CoSimulation` element: the capabilities every inner FMU shares.
fn write_co_simulation(x: &mut String, model_identifier: &str, system: &System) {
    // FMU state: composed of the inner FMUs' states, so only where every one provides it.
    let every = |f: fn(&cosim::import::model_description::CoSimulation) -> bool| {
        system.instances.iter().all(|i| f(&i.description.co_simulation))
    };
    let get_and_set = every(|c| c.can_get_and_set_fmu_state);
    // Input derivatives reach the inner FMUs only through the master's input extrapolation.
    let interpolate = system.master.extrapolate_inputs && every(|c| c.can_interpolate_inputs);
    let serialize = get_and_set && every(|c| c.can_serialize_fmu_state);
    let _ = writeln!(
        x,
        "  <CoSimulation modelIdentifier=\"{}\" canHandleVariableCommunicationStepSize=\"true\" \
         canInterpolateInputs=\"{interpolate}\" maxOutputDerivativeOrder=\"0\" canGetAndSetFMUstate=\"{get_and_set}\" \
         canSerializeFMUstate=\"{serialize}\" providesDirectionalDerivative=\"false\"/>",
        esc(model_identifier)
    );
}

/// `UnitDefinitions` of the units the chosen variables use (none: no element).
fn write_unit_definitions(
    x: &mut String,
    system: &System,
    chosen: &[(VarRef, OuterVariable)],
    units: &BTreeMap<String, Vec<(String, String)>>,
) {
    let used: Vec<&str> = chosen.iter().filter_map(|(r, _)| system.variable(*r).unit.as_deref()).collect();
    let defined: Vec<(&String, &Vec<(String, String)>)> =
        units.iter().filter(|(name, _)| used.contains(&name.as_str())).collect();
    if !defined.is_empty() {
        x.push_str("  <UnitDefinitions>\n");
        for (name, base) in defined {
            let attributes: String = base.iter().map(|(k, v)| format!(" {k}=\"{}\"", esc(v))).collect();
            let _ = writeln!(x, "    <Unit name=\"{}\"><BaseUnit{attributes}/></Unit>", esc(name));
        }
        x.push_str("  </UnitDefinitions>\n");
    }
}

/// `LogCategories`, `DefaultExperiment` (the system's, s) and the vendor annotation that
/// declares get-after-set.
fn write_log_categories_and_experiment(x: &mut String, system: &System) {
    x.push_str("  <LogCategories>\n");
    for (name, description) in fmu_core::description::LOG_CATEGORIES {
        let _ = writeln!(x, "    <Category name=\"{name}\" description=\"{}\"/>", esc(description));
    }
    x.push_str("  </LogCategories>\n");
    let exp = system.experiment;
    let _ = writeln!(
        x,
        "  <DefaultExperiment startTime=\"{:?}\" stopTime=\"{:?}\" stepSize=\"{:?}\"/>",
        exp.start, exp.stop, exp.step
    );
    let _ = writeln!(
        x,
        "  <VendorAnnotations>\n    <Tool name=\"{}\">\n      <Coupling getAfterSet=\"true\" description=\"Inputs set \
         between steps are applied at once: fmi2GetReal after fmi2SetReal solves the inner coupling again and returns \
         consistent outputs.\"/>\n    </Tool>\n  </VendorAnnotations>",
        fmu_core::description::TOOL_NAME
    );
}

/// `ModelVariables`: one `ScalarVariable` per chosen variable, value reference = index.
fn write_model_variables(
    x: &mut String,
    system: &System,
    chosen: &[(VarRef, OuterVariable)],
    units: &BTreeMap<String, Vec<(String, String)>>,
) {
    x.push_str("  <ModelVariables>\n");
    for (k, (r, v)) in chosen.iter().enumerate() {
        let inner = system.variable(*r);
        let (causality, variability, initial) = match (v.causality, v.var_type) {
            (OuterCausality::Parameter, _) => ("parameter", "fixed", " initial=\"exact\""),
            (OuterCausality::Input, _) => ("input", "continuous", ""),
            (OuterCausality::Output, _) => ("output", "continuous", ""),
        };
        let instance = &system.instances[r.instance].name;
        let text = match inner.description.as_deref() {
            Some(d) => format!("{instance}: {d}"),
            None => format!("{instance}: {}", inner.name),
        };
        let _ = writeln!(
            x,
            "    <!-- index {} -->\n    <ScalarVariable name=\"{}\" valueReference=\"{}\" causality=\"{causality}\" \
             variability=\"{variability}\"{initial} description=\"{}\">",
            k + 1,
            esc(&v.name),
            k + 1,
            esc(&text)
        );
        let _ = writeln!(x, "      {}\n    </ScalarVariable>", type_element(v, inner, units));
    }
    x.push_str("  </ModelVariables>\n");
}

/// The type element of outer variable `v` (`Real`, `Integer` or `Boolean`) with its start
/// value (not for outputs) and, for a Real, the unit of the `inner` variable where defined.
fn type_element(v: &OuterVariable, inner: &ScalarVariable, units: &BTreeMap<String, Vec<(String, String)>>) -> String {
    let start = v.start.filter(|_| v.causality != OuterCausality::Output);
    match v.var_type {
        OuterType::Real => {
            let unit = inner.unit.as_deref().filter(|u| units.contains_key(*u));
            let unit = unit.map(|u| format!(" unit=\"{}\"", esc(u))).unwrap_or_default();
            let start = start.map(|s| format!(" start=\"{s:?}\"")).unwrap_or_default();
            format!("<Real{unit}{start}/>")
        }
        OuterType::Integer => {
            let start = start.map(|s| format!(" start=\"{}\"", s as i64)).unwrap_or_default();
            format!("<Integer{start}/>")
        }
        OuterType::Boolean => {
            let start = start.map(|s| format!(" start=\"{}\"", s != 0.0)).unwrap_or_default();
            format!("<Boolean{start}/>")
        }
    }
}

/// `ModelStructure`: every output is an output and an initial unknown, and closes the document.
fn write_model_structure(x: &mut String, chosen: &[(VarRef, OuterVariable)]) {
    x.push_str("  <ModelStructure>\n    <Outputs>\n");
    // No `dependencies`: through the algebraic loops an output may depend on every input.
    let outputs: Vec<usize> = chosen
        .iter()
        .enumerate()
        .filter(|(_, (_, v))| v.causality == OuterCausality::Output)
        .map(|(k, _)| k + 1)
        .collect();
    for index in &outputs {
        let _ = writeln!(x, "      <Unknown index=\"{index}\"/>");
    }
    x.push_str("    </Outputs>\n    <InitialUnknowns>\n");
    for index in &outputs {
        let _ = writeln!(x, "      <Unknown index=\"{index}\"/>");
    }
    x.push_str("    </InitialUnknowns>\n  </ModelStructure>\n</fmiModelDescription>\n");
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
    raw.as_object_mut()
        .context("the system description is not a JSON object")?
        .insert("outputs".into(), outputs.into());
    raw.as_object_mut().expect("checked").remove("trim");

    let units = unit_definitions(&embedded)?;
    let body = model_description(&stem, &model_identifier, system, &chosen, &units);
    let guid = fmu_core::description::guid_of(&body);
    let xml = body.replace("@GUID@", &guid);
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
fn unit_definitions(embedded: &[(PathBuf, String)]) -> Result<BTreeMap<String, Vec<(String, String)>>> {
    let mut units = BTreeMap::new();
    for (path, _) in embedded {
        for (name, base) in cosim::ssp::unit_definitions(path).map_err(anyhow::Error::msg)? {
            units.entry(name).or_insert(base);
        }
    }
    Ok(units)
}
