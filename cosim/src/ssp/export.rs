//! Writing SSP: one `ssd:System` with a component per instance, its connectors, units and
//! parameter bindings (constant external inputs bound as their inputs' start values), the
//! connections, the default experiment, OMSimulator's annotation (its master and step) and ours
//! with what SSP 1.0 cannot carry; then the archive with the FMUs under `resources/`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::xml::{escape, parse};
use super::{ANNOTATION_TYPE, OPENMODELICA_ANNOTATION_TYPE, PARAMETER_SET, SspError};
use crate::import::model_description::VarType;
use crate::system::{ParameterSpec, Signal, System, SystemDescription};

/// The namespace OMSimulator declares for its `oms:` elements (it matches the prefix, not this).
const OMS_NAMESPACE: &str = "https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd";

/// What an export wrote and what it could not carry in standard SSP.
#[derive(Debug, Default)]
pub struct ExportReport {
    /// Components written.
    pub components: usize,
    /// Connections written (patterns expanded).
    pub connections: usize,
    /// Parameter bindings written, the bound inputs included.
    pub parameters: usize,
    /// Constant external inputs written as parameter bindings (start values) of their inputs,
    /// which other tools hold for the whole run.
    pub bound_inputs: usize,
    /// Parts of the system kept only in our annotation (standard importers do not see them),
    /// each external input that is not a constant by name.
    pub annotation_only: Vec<String>,
}

/// Writes `system` (resolved from `description`, read from `json_path`) as the SSP archive `out`.
pub fn export(
    json_path: &Path,
    description: &SystemDescription,
    system: &System,
    out: &Path,
) -> Result<ExportReport, SspError> {
    let raw: Value = serde_json::from_str(&std::fs::read_to_string(json_path).map_err(SspError::read(json_path))?)
        .map_err(SspError::invalid(json_path))?;
    let mut report = ExportReport::default();
    let resources = system.fmu_file_names();
    // Units used by the connectors, defined from the FMUs' own unit definitions.
    let mut units: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (path, _) in &resources {
        for (name, base) in unit_definitions(path)? {
            units.entry(name).or_insert(base);
        }
    }

    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let name = identifier(&json_path.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default());
    xml += &format!(
        "<ssd:SystemStructureDescription xmlns:ssc=\"http://ssp-standard.org/SSP1/SystemStructureCommon\" \
         xmlns:ssd=\"http://ssp-standard.org/SSP1/SystemStructureDescription\" \
         xmlns:ssv=\"http://ssp-standard.org/SSP1/SystemStructureParameterValues\" version=\"1.0\" name=\"{}\" \
         generationTool=\"rotorcraft-fmi orchestrator {}\">\n",
        escape(&name),
        env!("CARGO_PKG_VERSION")
    );
    xml += &format!("  <ssd:System name=\"{}\">\n    <ssd:Elements>\n", escape(&name));
    let mut used_units = std::collections::BTreeSet::new();
    for (k, instance) in system.instances.iter().enumerate() {
        let resource = &resources.iter().find(|(p, _)| *p == instance.path).expect("collected").1;
        xml += &format!(
            "      <ssd:Component name=\"{}\" type=\"application/x-fmu-sharedlibrary\" source=\"resources/{}\">\n",
            escape(&instance.name),
            escape(resource)
        );
        connectors(&mut xml, system, k, &units, &mut used_units);
        let (parameters, inputs) = parameter_bindings(&mut xml, system, k, &description.fmus[k].1.parameters)?;
        report.parameters += parameters + inputs;
        report.bound_inputs += inputs;
        xml += "      </ssd:Component>\n";
        report.components += 1;
    }
    xml += "    </ssd:Elements>\n";
    report.connections = connections(&mut xml, system);
    report.annotation_only = annotations(&mut xml, system, &raw)?;
    xml += "  </ssd:System>\n";
    units_section(&mut xml, &units, &used_units);
    let e = description.experiment;
    // OMSimulator warns ("Wrong/deprecated content") about a default experiment without its
    // annotation; an empty one is enough (its contents would override OMSimulator's defaults).
    xml += &format!(
        "  <ssd:DefaultExperiment startTime=\"{:?}\" stopTime=\"{:?}\">\n    <ssd:Annotations>\n      \
         <ssc:Annotation type=\"{OPENMODELICA_ANNOTATION_TYPE}\"><oms:Annotations xmlns:oms=\"{OMS_NAMESPACE}\"/></ssc:Annotation>\n    \
         </ssd:Annotations>\n  </ssd:DefaultExperiment>\n",
        e.start, e.stop
    );
    xml += "</ssd:SystemStructureDescription>\n";
    write_archive(out, &xml, &resources)?;
    Ok(report)
}

/// `stem` as an identifier (`[A-Za-z][A-Za-z0-9_]*`, what OMSimulator accepts as a system name):
/// other characters become `_`, and `system_` goes before a stem that does not start with a letter.
fn identifier(stem: &str) -> String {
    let name: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if name.starts_with(|c: char| c.is_ascii_alphabetic()) { name } else { format!("system_{name}") }
}

/// `<ssd:Connectors>` of instance `k`: the variables the system touches (connections, inputs,
/// outputs, parameters), with their unit when `units` defines it (collected in `used_units`).
fn connectors(
    xml: &mut String,
    system: &System,
    k: usize,
    units: &BTreeMap<String, Vec<(String, String)>>,
    used_units: &mut std::collections::BTreeSet<String>,
) {
    let instance = &system.instances[k];
    let mut touched: Vec<usize> = Vec::new();
    let mut touch = |v: usize| {
        if !touched.contains(&v) {
            touched.push(v);
        }
    };
    for c in &system.connections {
        for r in [c.from, c.to] {
            if r.instance == k {
                touch(r.variable);
            }
        }
    }
    for r in system.outputs.iter().chain(system.inputs.iter().map(|i| &i.to)) {
        if r.instance == k {
            touch(r.variable);
        }
    }
    for (variable, _) in &instance.parameters {
        touch(*variable);
    }
    touched.sort_unstable();
    if touched.is_empty() {
        return; // SSP 1.0: `ssd:Connectors` holds at least one connector
    }
    *xml += "        <ssd:Connectors>\n";
    for &v in &touched {
        let variable = &instance.description.variables[v];
        let kind = match variable.causality {
            crate::import::model_description::Causality::Input => "input",
            crate::import::model_description::Causality::Output => "output",
            crate::import::model_description::Causality::Parameter => "parameter",
            crate::import::model_description::Causality::CalculatedParameter => "calculatedParameter",
            _ => "output",
        };
        let unit = variable.unit.as_deref().filter(|u| units.contains_key(*u));
        let type_element = match (variable.var_type, unit) {
            (VarType::Real, Some(u)) => {
                used_units.insert(u.to_string());
                format!("<ssc:Real unit=\"{}\"/>", escape(u))
            }
            (VarType::Real, None) => "<ssc:Real/>".into(),
            (VarType::Integer, _) => "<ssc:Integer/>".into(),
            (VarType::Boolean, _) => "<ssc:Boolean/>".into(),
            (VarType::String, _) => "<ssc:String/>".into(),
            (VarType::Enumeration, _) => "<ssc:Integer/>".into(),
        };
        *xml += &format!(
            "          <ssd:Connector name=\"{}\" kind=\"{kind}\">{type_element}</ssd:Connector>\n",
            escape(&variable.name)
        );
    }
    *xml += "        </ssd:Connectors>\n";
}

/// `<ssd:ParameterBindings>` of instance `k`: the parameters `written` in the JSON for it, then
/// the constant external inputs on its inputs as their start values (SSP 1.0 binds "start values
/// of other variables" too), which replace a written start value of the same input; how many
/// parameters and how many inputs.
fn parameter_bindings(
    xml: &mut String,
    system: &System,
    k: usize,
    written: &[(String, ParameterSpec)],
) -> Result<(usize, usize), SspError> {
    let instance = &system.instances[k];
    let constant_inputs: Vec<(&str, f64)> = system
        .inputs
        .iter()
        .filter(|i| i.to.instance == k)
        .filter_map(|i| match i.signal {
            Signal::Constant(v) => Some((system.variable(i.to).name.as_str(), v)),
            _ => None,
        })
        .collect();
    let mut values = Vec::new();
    for (parameter, value) in written.iter().filter(|(p, _)| !constant_inputs.iter().any(|(i, _)| i == p)) {
        let variable = instance
            .description
            .variable(parameter)
            .ok_or_else(|| SspError::Parameter(format!("no variable '{parameter}'")))?;
        let value = match (variable.var_type, value) {
            (VarType::Real, ParameterSpec::Number(v)) => format!("<ssv:Real value=\"{v:?}\"/>"),
            (VarType::Integer | VarType::Enumeration, ParameterSpec::Number(v)) => {
                format!("<ssv:Integer value=\"{}\"/>", *v as i64)
            }
            (VarType::Boolean, ParameterSpec::Boolean(b)) => format!("<ssv:Boolean value=\"{b}\"/>"),
            (VarType::String, ParameterSpec::Text(text)) => format!("<ssv:String value=\"{}\"/>", escape(text)),
            (t, v) => {
                return Err(SspError::Parameter(format!(
                    "parameter '{}.{parameter}': {v:?} for a {t:?}",
                    instance.name
                )));
            }
        };
        values.push((parameter.as_str(), value));
    }
    let parameters = values.len();
    values.extend(constant_inputs.iter().map(|(input, v)| (*input, format!("<ssv:Real value=\"{v:?}\"/>"))));
    if values.is_empty() {
        return Ok((0, 0));
    }
    *xml += "        <ssd:ParameterBindings>\n          <ssd:ParameterBinding>\n            <ssd:ParameterValues>\n";
    *xml += &format!(
        "              <ssv:ParameterSet version=\"1.0\" name=\"{PARAMETER_SET}\">\n                <ssv:Parameters>\n"
    );
    for (name, value) in &values {
        *xml += &format!("                  <ssv:Parameter name=\"{}\">{value}</ssv:Parameter>\n", escape(name));
    }
    *xml += "                </ssv:Parameters>\n              </ssv:ParameterSet>\n            </ssd:ParameterValues>\n          </ssd:ParameterBinding>\n        </ssd:ParameterBindings>\n";
    Ok((parameters, constant_inputs.len()))
}

/// `<ssd:Connections>`, patterns expanded (none without connections: SSP 1.0 requires at least
/// one `ssd:Connection` in it); how many.
fn connections(xml: &mut String, system: &System) -> usize {
    if system.connections.is_empty() {
        return 0;
    }
    *xml += "    <ssd:Connections>\n";
    for c in &system.connections {
        let (from, to) = (system.variable(c.from), system.variable(c.to));
        *xml += &format!(
            "      <ssd:Connection startElement=\"{}\" startConnector=\"{}\" endElement=\"{}\" endConnector=\"{}\"/>\n",
            escape(&system.instances[c.from.instance].name),
            escape(&from.name),
            escape(&system.instances[c.to.instance].name),
            escape(&to.name)
        );
    }
    *xml += "    </ssd:Connections>\n";
    system.connections.len()
}

/// `<ssd:Units>` of the units the connectors use.
fn units_section(
    xml: &mut String,
    units: &BTreeMap<String, Vec<(String, String)>>,
    used_units: &std::collections::BTreeSet<String>,
) {
    if used_units.is_empty() {
        return;
    }
    *xml += "  <ssd:Units>\n";
    for unit in used_units {
        let base = &units[unit];
        let attributes: String = base.iter().map(|(k, v)| format!(" {k}=\"{}\"", escape(v))).collect();
        *xml += &format!("    <ssc:Unit name=\"{}\"><ssc:BaseUnit{attributes}/></ssc:Unit>\n", escape(unit));
    }
    *xml += "  </ssd:Units>\n";
}

/// The system's `<ssd:Annotations>`: first OMSimulator's (which reads only the first annotation
/// and needs its master there, see [`OPENMODELICA_ANNOTATION_TYPE`]), then ours with what SSP 1.0
/// cannot carry, as written in the JSON `raw`; the names of the parts kept only in ours.
fn annotations(xml: &mut String, system: &System, raw: &Value) -> Result<Vec<String>, SspError> {
    // OMSimulator's fixed-step master always solves algebraic loops (KINSOL, `relativeTolerance`
    // its residual tolerance): it has no Jacobi or Gauss-Seidel option to follow `master.algorithm`.
    *xml += &format!(
        "    <ssd:Annotations>\n      <ssc:Annotation type=\"{OPENMODELICA_ANNOTATION_TYPE}\">\n        \
         <oms:Annotations xmlns:oms=\"{OMS_NAMESPACE}\">\n          \
         <oms:SimulationInformation>\n            <oms:FixedStepMaster description=\"oms-ma\" stepSize=\"{:?}\" relativeTolerance=\"{:?}\"/>\n          \
         </oms:SimulationInformation>\n        </oms:Annotations>\n      </ssc:Annotation>\n",
        system.experiment.step, system.master.tolerance
    );
    let mut ours = Map::new();
    let mut annotation_only = vec!["experiment.step".to_string()];
    ours.insert("experiment".into(), raw.get("experiment").cloned().unwrap_or(json!({})));
    // Ours, then the application's sections (any other top-level field), in document order.
    let application = raw
        .as_object()
        .into_iter()
        .flatten()
        .map(|(key, _)| key.as_str())
        .filter(|key| !crate::system::OWN_FIELDS.contains(key));
    for key in ["master", "inputs", "outputs"].into_iter().chain(application) {
        if let Some(v) = raw.get(key) {
            ours.insert(key.into(), v.clone());
            if key != "inputs" {
                annotation_only.push(key.to_string());
            }
        }
    }
    // The signals other than constants, as written (a pattern stays one entry).
    for input in raw.get("inputs").and_then(Value::as_array).into_iter().flatten() {
        let kind = input.get("signal").and_then(Value::as_object).and_then(|s| s.keys().next());
        if let (Some(to), Some(kind)) = (input.get("to").and_then(Value::as_str), kind)
            && kind != "constant"
        {
            annotation_only.push(format!("input {to} ({kind})"));
        }
    }
    let annotation = serde_json::to_string(&Value::Object(ours))?;
    *xml += &format!(
        "      <ssc:Annotation type=\"{ANNOTATION_TYPE}\">\n        <rf:System xmlns:rf=\"https://rotorcraft-fmi.org/ssp\" json=\"{}\"/>\n      </ssc:Annotation>\n    </ssd:Annotations>\n",
        escape(&annotation)
    );
    Ok(annotation_only)
}

/// The archive: `SystemStructure.ssd` and the FMUs under `resources/`.
fn write_archive(out: &Path, xml: &str, resources: &[(PathBuf, String)]) -> Result<(), SspError> {
    let io = |e: &dyn std::fmt::Display| SspError::Write { path: out.to_path_buf(), reason: e.to_string() };
    let file = std::fs::File::create(out).map_err(|e| io(&e))?;
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("SystemStructure.ssd", options).map_err(|e| io(&e))?;
    zip.write_all(xml.as_bytes()).map_err(|e| io(&e))?;
    for (path, name) in resources {
        zip.start_file(format!("resources/{name}"), options).map_err(|e| io(&e))?;
        let bytes = std::fs::read(path).map_err(SspError::read(path))?;
        zip.write_all(&bytes).map_err(|e| io(&e))?;
    }
    zip.finish().map_err(|e| io(&e))?;
    Ok(())
}

/// A unit's name and the attributes of its `BaseUnit` (SI exponents, factor, offset).
type UnitDefinition = (String, Vec<(String, String)>);

/// The `UnitDefinitions` of the FMU at `path`.
pub fn unit_definitions(path: &Path) -> Result<Vec<UnitDefinition>, SspError> {
    let file = std::fs::File::open(path).map_err(SspError::read(path))?;
    let mut archive = zip::ZipArchive::new(file).map_err(SspError::invalid(path))?;
    let mut text = String::new();
    archive
        .by_name("modelDescription.xml")
        .map_err(SspError::invalid(path))?
        .read_to_string(&mut text)
        .map_err(SspError::invalid(path))?;
    let root = parse(&text).map_err(|e| SspError::invalid(path)(format!("modelDescription.xml: {e}")))?;
    let mut units = Vec::new();
    for definitions in root.children.iter().filter(|c| c.name == "UnitDefinitions") {
        for unit in definitions.children.iter().filter(|c| c.name == "Unit") {
            let base =
                unit.children.iter().find(|c| c.name == "BaseUnit").map(|b| b.attributes.clone()).unwrap_or_default();
            if let Some(name) = unit.attribute("name") {
                units.push((name.to_string(), base));
            }
        }
    }
    Ok(units)
}
