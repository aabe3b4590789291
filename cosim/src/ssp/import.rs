//! Reading SSP: a `.ssp` archive (extracted once per content) or a `.ssd` file beside its FMUs,
//! turned into the JSON of a system description, with a warning for each element not supported.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::xml::{Element, parse};
use super::{ANNOTATION_TYPE, SspError};
use crate::system::{SystemContext, SystemDescription};

/// Reads a `.ssp` archive (or a `.ssd` file beside its FMUs) as a system description read in
/// `context` (its catalog, and the application sections of our annotation it keeps); the
/// warnings name what was not understood.
pub fn import(path: &Path, context: &SystemContext) -> Result<(SystemDescription, Vec<String>), SspError> {
    let is_archive = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ssp"));
    let (ssd, base) = if is_archive {
        let dir = extract(path)?;
        (dir.join("SystemStructure.ssd"), dir)
    } else {
        (path.to_path_buf(), path.parent().map(Path::to_path_buf).unwrap_or_default())
    };
    let text = std::fs::read_to_string(&ssd).map_err(SspError::read(&ssd))?;
    let root = parse(&text).map_err(SspError::invalid(&ssd))?;
    if root.name != "SystemStructureDescription" {
        let reason = format!("not an SSP system structure description (root <{}>)", root.name);
        return Err(SspError::Invalid { path: ssd, reason });
    }
    let mut warnings = Vec::new();
    let system = root.children.iter().find(|c| c.name == "System").ok_or_else(|| missing("no <ssd:System>"))?;
    let mut fmus = Map::new();
    let mut connections = Vec::new();
    for child in &system.children {
        match child.name.as_str() {
            "Elements" => {
                for element in &child.children {
                    component(element, &base, &mut fmus, &mut warnings)?;
                }
            }
            "Connections" => {
                for c in &child.children {
                    let get = |a: &str| c.attribute(a).ok_or_else(|| missing(format!("a connection has no {a}")));
                    let (se, sc, ee, ec) =
                        (get("startElement")?, get("startConnector")?, get("endElement")?, get("endConnector")?);
                    connections.push(json!(format!("{se}.{sc} -> {ee}.{ec}")));
                }
            }
            "Connectors" | "ElementGeometry" | "Annotations" => {}
            other => warnings.push(format!("<ssd:{other}> of the system is not supported and was skipped")),
        }
    }
    let mut json = Map::new();
    json.insert("fmus".into(), Value::Object(fmus));
    json.insert("connections".into(), Value::Array(connections));
    experiment(&root, system, &ssd, &mut json, &mut warnings)?;
    let text = serde_json::to_string(&Value::Object(json))?;
    let description = SystemDescription::from_str(&text, &base, context)
        .map_err(|source| SspError::System { path: path.to_path_buf(), source })?;
    Ok((description, warnings))
}

/// One element of `ssd:Elements`: an FMU component becomes an entry of `fmus` (its source
/// relative to `base`, its parameter bindings); anything else a warning.
fn component(
    element: &Element,
    base: &Path,
    fmus: &mut Map<String, Value>,
    warnings: &mut Vec<String>,
) -> Result<(), SspError> {
    if element.name != "Component" {
        warnings.push(format!("element <{}> in ssd:Elements is not supported and was skipped", element.name));
        return Ok(());
    }
    let name = element.attribute("name").ok_or_else(|| missing("a component has no name"))?;
    if let Some(t) = element.attribute("type").filter(|t| *t != "application/x-fmu-sharedlibrary") {
        warnings.push(format!("component '{name}' of type '{t}' is not an FMU and was skipped"));
        return Ok(());
    }
    let source = element.attribute("source").ok_or_else(|| missing(format!("component '{name}' has no source")))?;
    let mut parameters = Map::new();
    for part in &element.children {
        match part.name.as_str() {
            "Connectors" | "ElementGeometry" | "Annotations" => {}
            "ParameterBindings" => {
                for binding in &part.children {
                    read_binding(binding, base, name, &mut parameters, warnings)?;
                }
            }
            other => warnings.push(format!("<{other}> of component '{name}' is not supported and was skipped")),
        }
    }
    fmus.insert(name.to_string(), json!({ "path": base.join(source), "parameters": parameters }));
    Ok(())
}

/// The experiment and the rest of the JSON: from our annotation when the SSD has it (on the
/// system; exports before OMSimulator was supported wrote it at the top level), else from
/// `ssd:DefaultExperiment` with a communication step of (stop - start) / 1000 (and a warning).
fn experiment(
    root: &Element,
    system: &Element,
    ssd: &Path,
    json: &mut Map<String, Value>,
    warnings: &mut Vec<String>,
) -> Result<(), SspError> {
    let experiment = root.children.iter().find(|c| c.name == "DefaultExperiment");
    let number = |a: &str| experiment.and_then(|e| e.attribute(a)).and_then(|v| v.parse::<f64>().ok());
    let ours: Option<Value> = [system, root]
        .into_iter()
        .flat_map(|e| &e.children)
        .filter(|c| c.name == "Annotations")
        .flat_map(|a| &a.children)
        .filter(|a| a.attribute("type") == Some(ANNOTATION_TYPE))
        .flat_map(|a| &a.children)
        .find_map(|s| s.attribute("json"))
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| SspError::Invalid { path: ssd.to_path_buf(), reason: format!("our annotation: {e}") })?;
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
    Ok(())
}

/// The error of a missing element or attribute.
fn missing(what: impl Into<String>) -> SspError {
    SspError::Missing(what.into())
}

/// One `ssd:ParameterBinding`: inline SSV values or an `.ssv` file beside the SSD.
fn read_binding(
    binding: &Element,
    base: &Path,
    component: &str,
    parameters: &mut Map<String, Value>,
    warnings: &mut Vec<String>,
) -> Result<(), SspError> {
    let external;
    let set = match binding.attribute("source") {
        Some(source) => {
            let path = base.join(source);
            let text = std::fs::read_to_string(&path).map_err(SspError::read(&path))?;
            external = parse(&text).map_err(SspError::invalid(&path))?;
            &external
        }
        None => binding
            .children
            .iter()
            .find(|c| c.name == "ParameterValues")
            .and_then(|v| v.children.iter().find(|c| c.name == "ParameterSet"))
            .ok_or_else(|| {
                missing(format!("a parameter binding of '{component}' has neither a source nor inline values"))
            })?,
    };
    if binding.children.iter().any(|c| c.name == "ParameterMapping") {
        warnings.push(format!("a parameter mapping of '{component}' is not supported: names were taken as they are"));
    }
    let prefix = binding.attribute("prefix").unwrap_or("");
    for parameter in set.children.iter().filter(|c| c.name == "Parameters").flat_map(|p| &p.children) {
        let name = parameter.attribute("name").ok_or_else(|| missing("a parameter has no name"))?;
        let name = name.strip_prefix(prefix).unwrap_or(name);
        let Some(value) = parameter.children.first() else { continue };
        let text = value.attribute("value").unwrap_or("");
        let v = match value.name.as_str() {
            "Real" | "Integer" => json!(text.parse::<f64>().map_err(|_| {
                SspError::Parameter(format!("parameter '{component}.{name}': '{text}' is not a number"))
            })?),
            "Boolean" => json!(text == "true" || text == "1"),
            "String" => json!(text),
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
fn extract(path: &Path) -> Result<PathBuf, SspError> {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(path).map_err(SspError::read(path))?;
    let hash: String = Sha256::digest(&bytes).iter().take(12).map(|b| format!("{b:02x}")).collect();
    let dir = std::env::temp_dir().join(format!("rotorcraft-ssp-{hash}"));
    if dir.join("SystemStructure.ssd").is_file() {
        return Ok(dir);
    }
    let extracted = crate::import::archive::extract(path, &Default::default())?;
    match std::fs::rename(extracted.path(), &dir) {
        Ok(()) => {}
        Err(_) if dir.join("SystemStructure.ssd").is_file() => {} // another run was first
        Err(source) => return Err(SspError::Keep { path: path.to_path_buf(), source }),
    }
    if !dir.join("SystemStructure.ssd").is_file() {
        let reason = "no SystemStructure.ssd in the archive".to_string();
        return Err(SspError::Invalid { path: path.to_path_buf(), reason });
    }
    Ok(dir)
}
