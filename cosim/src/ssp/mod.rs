//! SSP 1.0 (System Structure and Parameterization): a system description as a `.ssp` archive
//! (`SystemStructure.ssd` and the FMUs under `resources/`) that other tools read, and back.
//!
//! Export writes one `ssd:System` with a `ssd:Component` per instance (its connectors typed, with
//! units defined in `ssd:Units` from the FMUs' own unit definitions), every connection with the
//! patterns expanded, the parameters as inline SSV parameter bindings, and the default experiment.
//! What SSP 1.0 cannot carry (the communication step, the master options, external signals, the
//! recorded outputs, the trim section) goes verbatim into a vendor annotation
//! ([`ANNOTATION_TYPE`]), so an export read back runs exactly as its JSON. Import reads SSP written
//! by us or by other tools and names every element it does not support in a warning.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use quick_xml::XmlVersion;
use quick_xml::events::Event;
use quick_xml::reader::Reader;
use serde_json::{Map, Value, json};

use crate::import::model_description::VarType;
use crate::system::{InstanceSpec, ParameterSpec, System, SystemDescription};

/// Name of every component's parameter set. Tools that apply parameter sets by name (ecos:
/// `init(parameter_set=...)`) apply all of them with this one name; others apply inline bindings
/// regardless of the name.
pub const PARAMETER_SET: &str = "initialValues";

/// The `type` of our vendor annotation.
pub const ANNOTATION_TYPE: &str = "org.rotorcraft-fmi.system";

/// What an export wrote and what it could not carry in standard SSP.
#[derive(Debug, Default)]
pub struct ExportReport {
    /// Components written.
    pub components: usize,
    /// Connections written (patterns expanded).
    pub connections: usize,
    /// Parameter bindings written.
    pub parameters: usize,
    /// Parts of the system kept only in our annotation (standard importers do not see them).
    pub annotation_only: Vec<String>,
}

/// Writes `system` (resolved from `description`, read from `json_path`) as the SSP archive `out`.
pub fn export(
    json_path: &Path,
    description: &SystemDescription,
    system: &System,
    out: &Path,
) -> Result<ExportReport, String> {
    let raw: Value = serde_json::from_str(
        &std::fs::read_to_string(json_path).map_err(|e| format!("cannot read {}: {e}", json_path.display()))?,
    )
    .map_err(|e| format!("{}: {e}", json_path.display()))?;
    let mut report = ExportReport::default();
    let resources = resource_names(system);
    // Units used by the connectors, defined from the FMUs' own unit definitions.
    let mut units: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (path, _) in &resources {
        for (name, base) in unit_definitions(path)? {
            units.entry(name).or_insert(base);
        }
    }

    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let name = json_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "system".into());
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
        report.parameters += parameter_bindings(&mut xml, instance, &description.fmus[k].1.parameters)?;
        xml += "      </ssd:Component>\n";
        report.components += 1;
    }
    xml += "    </ssd:Elements>\n";
    report.connections = connections(&mut xml, system);
    xml += "  </ssd:System>\n";
    units_section(&mut xml, &units, &used_units);
    let e = description.experiment;
    xml += &format!("  <ssd:DefaultExperiment startTime=\"{:?}\" stopTime=\"{:?}\"/>\n", e.start, e.stop);
    report.annotation_only = annotation(&mut xml, &raw)?;
    xml += "</ssd:SystemStructureDescription>\n";
    write_archive(out, &xml, &resources)?;
    Ok(report)
}

/// One archive name per distinct FMU file: its file name, numbered when two files share it.
fn resource_names(system: &System) -> Vec<(PathBuf, String)> {
    let mut resources: Vec<(PathBuf, String)> = Vec::new();
    for instance in &system.instances {
        if !resources.iter().any(|(p, _)| *p == instance.path) {
            let stem = instance.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let mut name = format!("{stem}.fmu");
            let mut k = 1;
            while resources.iter().any(|(_, n)| *n == name) {
                k += 1;
                name = format!("{stem}_{k}.fmu");
            }
            resources.push((instance.path.clone(), name));
        }
    }
    resources
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

/// `<ssd:ParameterBindings>` of the parameters `written` in the JSON for `instance`; how many.
fn parameter_bindings(
    xml: &mut String,
    instance: &InstanceSpec,
    written: &[(String, ParameterSpec)],
) -> Result<usize, String> {
    if written.is_empty() {
        return Ok(0);
    }
    *xml += "        <ssd:ParameterBindings>\n          <ssd:ParameterBinding>\n            <ssd:ParameterValues>\n";
    *xml += &format!(
        "              <ssv:ParameterSet version=\"1.0\" name=\"{PARAMETER_SET}\">\n                <ssv:Parameters>\n"
    );
    for (parameter, value) in written {
        let variable = instance.description.variable(parameter).ok_or_else(|| format!("no variable '{parameter}'"))?;
        let value = match (variable.var_type, value) {
            (VarType::Real, ParameterSpec::Number(v)) => format!("<ssv:Real value=\"{v:?}\"/>"),
            (VarType::Integer | VarType::Enumeration, ParameterSpec::Number(v)) => {
                format!("<ssv:Integer value=\"{}\"/>", *v as i64)
            }
            (VarType::Boolean, ParameterSpec::Boolean(b)) => format!("<ssv:Boolean value=\"{b}\"/>"),
            (t, v) => return Err(format!("parameter '{}.{parameter}': {v:?} for a {t:?}", instance.name)),
        };
        *xml += &format!("                  <ssv:Parameter name=\"{}\">{value}</ssv:Parameter>\n", escape(parameter));
    }
    *xml += "                </ssv:Parameters>\n              </ssv:ParameterSet>\n            </ssd:ParameterValues>\n          </ssd:ParameterBinding>\n        </ssd:ParameterBindings>\n";
    Ok(written.len())
}

/// `<ssd:Connections>`, patterns expanded; how many.
fn connections(xml: &mut String, system: &System) -> usize {
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

/// Our `<ssd:Annotations>`: what SSP 1.0 cannot carry, as written in the JSON `raw`; the names
/// of the parts kept only there.
fn annotation(xml: &mut String, raw: &Value) -> Result<Vec<String>, String> {
    let mut ours = Map::new();
    let mut annotation_only = vec!["experiment.step".to_string()];
    ours.insert("experiment".into(), raw.get("experiment").cloned().unwrap_or(json!({})));
    for key in ["master", "inputs", "outputs", "trim"] {
        if let Some(v) = raw.get(key) {
            ours.insert(key.into(), v.clone());
            annotation_only.push(key.to_string());
        }
    }
    let annotation = serde_json::to_string(&Value::Object(ours)).map_err(|e| e.to_string())?;
    *xml += &format!(
        "  <ssd:Annotations>\n    <ssc:Annotation type=\"{ANNOTATION_TYPE}\">\n      <rf:System xmlns:rf=\"https://rotorcraft-fmi.org/ssp\" json=\"{}\"/>\n    </ssc:Annotation>\n  </ssd:Annotations>\n",
        escape(&annotation)
    );
    Ok(annotation_only)
}

/// The archive: `SystemStructure.ssd` and the FMUs under `resources/`.
fn write_archive(out: &Path, xml: &str, resources: &[(PathBuf, String)]) -> Result<(), String> {
    let file = std::fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default();
    let io = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", out.display());
    zip.start_file("SystemStructure.ssd", options).map_err(|e| io(&e))?;
    zip.write_all(xml.as_bytes()).map_err(|e| io(&e))?;
    for (path, name) in resources {
        zip.start_file(format!("resources/{name}"), options).map_err(|e| io(&e))?;
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        zip.write_all(&bytes).map_err(|e| io(&e))?;
    }
    zip.finish().map_err(|e| io(&e))?;
    Ok(())
}

/// A unit's name and the attributes of its `BaseUnit` (SI exponents, factor, offset).
type UnitDefinition = (String, Vec<(String, String)>);

/// The `UnitDefinitions` of the FMU at `path`.
pub(crate) fn unit_definitions(path: &Path) -> Result<Vec<UnitDefinition>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    archive
        .by_name("modelDescription.xml")
        .map_err(|e| format!("{}: {e}", path.display()))?
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let root = parse(&text).map_err(|e| format!("{}: modelDescription.xml: {e}", path.display()))?;
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

/// Reads a `.ssp` archive (or a `.ssd` file beside its FMUs) as a system description; the
/// warnings name what was not understood.
pub fn import(path: &Path) -> Result<(SystemDescription, Vec<String>), String> {
    let is_archive = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ssp"));
    let (ssd, base) = if is_archive {
        let dir = extract(path)?;
        (dir.join("SystemStructure.ssd"), dir)
    } else {
        (path.to_path_buf(), path.parent().map(Path::to_path_buf).unwrap_or_default())
    };
    let text = std::fs::read_to_string(&ssd).map_err(|e| format!("cannot read {}: {e}", ssd.display()))?;
    let root = parse(&text).map_err(|e| format!("{}: {e}", ssd.display()))?;
    if root.name != "SystemStructureDescription" {
        return Err(format!("{}: not an SSP system structure description (root <{}>)", ssd.display(), root.name));
    }
    let mut warnings = Vec::new();
    let system = root.children.iter().find(|c| c.name == "System").ok_or("no <ssd:System>")?;
    let mut fmus = Map::new();
    let mut connections = Vec::new();
    for child in &system.children {
        match child.name.as_str() {
            "Elements" => {
                for element in &child.children {
                    if element.name != "Component" {
                        warnings.push(format!(
                            "element <{}> in ssd:Elements is not supported and was skipped",
                            element.name
                        ));
                        continue;
                    }
                    let name = element.attribute("name").ok_or("a component has no name")?;
                    if let Some(t) = element.attribute("type").filter(|t| *t != "application/x-fmu-sharedlibrary") {
                        warnings.push(format!("component '{name}' of type '{t}' is not an FMU and was skipped"));
                        continue;
                    }
                    let source =
                        element.attribute("source").ok_or_else(|| format!("component '{name}' has no source"))?;
                    let mut parameters = Map::new();
                    for part in &element.children {
                        match part.name.as_str() {
                            "Connectors" | "ElementGeometry" | "Annotations" => {}
                            "ParameterBindings" => {
                                for binding in &part.children {
                                    read_binding(binding, &base, name, &mut parameters, &mut warnings)?;
                                }
                            }
                            other => warnings
                                .push(format!("<{other}> of component '{name}' is not supported and was skipped")),
                        }
                    }
                    fmus.insert(name.to_string(), json!({ "path": base.join(source), "parameters": parameters }));
                }
            }
            "Connections" => {
                for c in &child.children {
                    let get = |a: &str| c.attribute(a).ok_or_else(|| format!("a connection has no {a}"));
                    let (se, sc, ee, ec) =
                        (get("startElement")?, get("startConnector")?, get("endElement")?, get("endConnector")?);
                    connections.push(json!(format!("{se}.{sc} -> {ee}.{ec}")));
                }
            }
            "Connectors" | "ElementGeometry" | "Annotations" => {}
            other => warnings.push(format!("<ssd:{other}> of the system is not supported and was skipped")),
        }
    }
    let experiment = root.children.iter().find(|c| c.name == "DefaultExperiment");
    let number = |a: &str| experiment.and_then(|e| e.attribute(a)).and_then(|v| v.parse::<f64>().ok());
    let ours: Option<Value> = root
        .children
        .iter()
        .filter(|c| c.name == "Annotations")
        .flat_map(|a| &a.children)
        .filter(|a| a.attribute("type") == Some(ANNOTATION_TYPE))
        .flat_map(|a| &a.children)
        .find_map(|s| s.attribute("json"))
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| format!("{}: our annotation: {e}", ssd.display()))?;
    let mut json = Map::new();
    json.insert("fmus".into(), Value::Object(fmus));
    json.insert("connections".into(), Value::Array(connections));
    match ours {
        Some(Value::Object(ours)) => {
            for (k, v) in ours {
                json.insert(k, v);
            }
        }
        _ => {
            let (start, stop) = (number("startTime").unwrap_or(0.0), number("stopTime").unwrap_or(1.0));
            let step = (stop - start) / 1000.0;
            warnings.push(format!(
                "SSP 1.0 has no communication step: using (stop - start) / 1000 = {step} s (override with --step)"
            ));
            json.insert("experiment".into(), json!({ "start": start, "stop": stop, "step": step }));
        }
    }
    let text = serde_json::to_string(&Value::Object(json)).map_err(|e| e.to_string())?;
    let description = SystemDescription::from_str(&text, &base).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((description, warnings))
}

/// One `ssd:ParameterBinding`: inline SSV values or an `.ssv` file beside the SSD.
fn read_binding(
    binding: &Element,
    base: &Path,
    component: &str,
    parameters: &mut Map<String, Value>,
    warnings: &mut Vec<String>,
) -> Result<(), String> {
    let external;
    let set = match binding.attribute("source") {
        Some(source) => {
            let path = base.join(source);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            external = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            &external
        }
        None => binding
            .children
            .iter()
            .find(|c| c.name == "ParameterValues")
            .and_then(|v| v.children.iter().find(|c| c.name == "ParameterSet"))
            .ok_or_else(|| format!("a parameter binding of '{component}' has neither a source nor inline values"))?,
    };
    if binding.children.iter().any(|c| c.name == "ParameterMapping") {
        warnings.push(format!("a parameter mapping of '{component}' is not supported: names were taken as they are"));
    }
    let prefix = binding.attribute("prefix").unwrap_or("");
    for parameter in set.children.iter().filter(|c| c.name == "Parameters").flat_map(|p| &p.children) {
        let name = parameter.attribute("name").ok_or("a parameter has no name")?;
        let name = name.strip_prefix(prefix).unwrap_or(name);
        let Some(value) = parameter.children.first() else { continue };
        let text = value.attribute("value").unwrap_or("");
        let v = match value.name.as_str() {
            "Real" | "Integer" => json!(
                text.parse::<f64>().map_err(|_| format!("parameter '{component}.{name}': '{text}' is not a number"))?
            ),
            "Boolean" => json!(text == "true" || text == "1"),
            other => {
                warnings
                    .push(format!("parameter '{component}.{name}' of type {other} is not supported and was skipped"));
                continue;
            }
        };
        parameters.insert(name.to_string(), v);
    }
    Ok(())
}

/// Extracts a `.ssp` once per content (SHA-256) into a folder under `TMPDIR`, with the
/// importer's safe extraction (no path traversal, limits); later runs reuse it.
fn extract(path: &Path) -> Result<PathBuf, String> {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let hash: String = Sha256::digest(&bytes).iter().take(12).map(|b| format!("{b:02x}")).collect();
    let dir = std::env::temp_dir().join(format!("rotorcraft-ssp-{hash}"));
    if dir.join("SystemStructure.ssd").is_file() {
        return Ok(dir);
    }
    let extracted = crate::import::archive::extract(path, &Default::default()).map_err(|e| e.to_string())?;
    match std::fs::rename(extracted.path(), &dir) {
        Ok(()) => {}
        Err(_) if dir.join("SystemStructure.ssd").is_file() => {} // another run was first
        Err(e) => return Err(format!("cannot keep the extracted {}: {e}", path.display())),
    }
    if !dir.join("SystemStructure.ssd").is_file() {
        return Err(format!("{}: no SystemStructure.ssd in the archive", path.display()));
    }
    Ok(dir)
}

/// An XML element: local name, attributes (local names), children.
#[derive(Debug, Clone, Default)]
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    children: Vec<Element>,
}

impl Element {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Parses `xml` into its root [`Element`] (text content is not kept).
fn parse(xml: &str) -> Result<Element, String> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader.read_event().map_err(|e| format!("XML error at byte {}: {e}", reader.error_position()))?;
        let open = |e: &quick_xml::events::BytesStart| -> Result<Element, String> {
            let mut attributes = Vec::new();
            for a in e.attributes() {
                let a = a.map_err(|e| e.to_string())?;
                let value = a.normalized_value(XmlVersion::Implicit1_0).map_err(|e| e.to_string())?;
                attributes.push((a.key.local_name().as_ref().to_string(), value.into_owned()));
            }
            Ok(Element { name: e.local_name().as_ref().to_string(), attributes, children: Vec::new() })
        };
        match event {
            Event::Start(e) => stack.push(open(&e)?),
            Event::Empty(e) => {
                let element = open(&e)?;
                stack.last_mut().expect("document").children.push(element);
            }
            Event::End(_) => {
                let element = stack.pop().ok_or("unbalanced XML")?;
                stack.last_mut().ok_or("unbalanced XML")?.children.push(element);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let document = stack.pop().filter(|_| stack.is_empty()).ok_or("unexpected end of the document")?;
    document.children.into_iter().next().ok_or_else(|| "empty document".into())
}

/// `text` escaped for an XML attribute value.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}
