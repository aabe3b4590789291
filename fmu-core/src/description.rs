//! `modelDescription.xml` and the GUID, generated from a model's variable declarations.

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use crate::catalog::{Catalog, DERIVATIVE_VR_BASE, STATE_VR_BASE};
use crate::model::{Model, ModelInfo};
use crate::units;
use crate::variable::{Causality, Enumeration, Kind, Variability, Variable};

/// Name of the tool in `generationTool` and in our vendor annotation.
pub const TOOL_NAME: &str = "rotorcraft-fmi";
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
        let body = render::<M>(&catalog, "@GUID@");
        let guid = guid_of(&body);
        let xml = body.replace("@GUID@", &guid);
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

/// The GUID of model `M`: a hash of its model description, so any change of the interface
/// changes it.
pub fn guid<M: Model>() -> Arc<str> {
    generated::<M>().guid
}

/// A GUID for a model description: the 128-bit FNV-1a of its text (with a placeholder where the
/// GUID goes), formatted as a braced UUID.
pub fn guid_of(text: &str) -> String {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for b in text.bytes() {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    let hex = format!("{h:032x}");
    format!("{{{}-{}-{}-{}-{}}}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// Shortest text that reads back as the same `f64`.
pub fn real(v: f64) -> String {
    format!("{v:?}")
}

fn render<M: Model>(catalog: &Catalog, guid: &str) -> String {
    let mut x = String::new();
    root_and_interfaces(&mut x, &M::INFO, catalog, guid);
    unit_definitions(&mut x, catalog);
    type_definitions(&mut x, catalog);
    categories_experiment_annotations(&mut x, &M::INFO);
    x.push_str("  <ModelVariables>\n");
    for (i, v) in catalog.variables.iter().enumerate() {
        scalar_variable(&mut x, i + 1, v);
    }
    states_and_derivatives(&mut x, catalog);
    x.push_str("  </ModelVariables>\n");
    model_structure(&mut x, catalog);
    x.push_str("</fmiModelDescription>\n");
    x
}

/// XML-escaped text: `<`, `>`, `&`, `'`, `"` and carriage return as entities (the bytes
/// `quick_xml::escape::escape` gives).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    out
}

/// Short name of [`escape`] for the writer below.
fn e(s: &str) -> String {
    escape(s)
}

/// The XML declaration, `<fmiModelDescription ...>` and the Model Exchange (when the model has
/// states) and Co-Simulation elements.
fn root_and_interfaces(x: &mut String, info: &ModelInfo, catalog: &Catalog, guid: &str) {
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"{}\" guid=\"{guid}\" description=\"{}\" \
         author=\"{AUTHOR}\" version=\"{version}\" license=\"{LICENSE}\" generationTool=\"{TOOL_NAME} {version}\" \
         variableNamingConvention=\"flat\" numberOfEventIndicators=\"0\">",
        e(info.model_name),
        e(info.description),
        version = env!("CARGO_PKG_VERSION"),
    );
    if !catalog.states.is_empty() {
        let _ = writeln!(
            x,
            "  <ModelExchange modelIdentifier=\"{}\" completedIntegratorStepNotNeeded=\"true\" \
             canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"true\"/>",
            e(info.model_identifier)
        );
    }
    let _ = writeln!(
        x,
        "  <CoSimulation modelIdentifier=\"{}\" canHandleVariableCommunicationStepSize=\"true\" \
         canInterpolateInputs=\"true\" maxOutputDerivativeOrder=\"1\" canGetAndSetFMUstate=\"true\" \
         canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"true\"/>",
        e(info.model_identifier)
    );
}

/// `<UnitDefinitions>`: the units of the variables and states, in first-use order.
fn unit_definitions(x: &mut String, catalog: &Catalog) {
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
    if used.is_empty() {
        return;
    }
    x.push_str("  <UnitDefinitions>\n");
    for u in used {
        let b = units::base_unit(u).expect("units are checked by the catalog");
        let mut attrs = String::new();
        for (name, exp) in [("kg", b.kg), ("m", b.m), ("s", b.s), ("K", b.k), ("rad", b.rad)] {
            if exp != 0 {
                let _ = write!(attrs, " {name}=\"{exp}\"");
            }
        }
        let displays: String = units::display_units(u)
            .iter()
            .map(|(name, factor)| format!("<DisplayUnit name=\"{}\" factor=\"{}\"/>", e(name), real(*factor)))
            .collect();
        let _ = writeln!(x, "    <Unit name=\"{}\"><BaseUnit{attrs}/>{displays}</Unit>", e(u));
    }
    x.push_str("  </UnitDefinitions>\n");
}

/// `<TypeDefinitions>`: the enumeration types, in first-use order.
fn type_definitions(x: &mut String, catalog: &Catalog) {
    let mut enumerations: Vec<&Enumeration> = Vec::new();
    for v in &catalog.variables {
        if let Some(t) = v.enumeration
            && !enumerations.iter().any(|u| u.name == t.name)
        {
            enumerations.push(t);
        }
    }
    if enumerations.is_empty() {
        return;
    }
    x.push_str("  <TypeDefinitions>\n");
    for t in enumerations {
        let _ = writeln!(
            x,
            "    <SimpleType name=\"{}\" description=\"{}\">\n      <Enumeration>",
            e(t.name),
            e(t.description)
        );
        for (name, value, description) in t.items {
            let _ = writeln!(
                x,
                "        <Item name=\"{}\" value=\"{value}\" description=\"{}\"/>",
                e(name),
                e(description)
            );
        }
        x.push_str("      </Enumeration>\n    </SimpleType>\n");
    }
    x.push_str("  </TypeDefinitions>\n");
}

/// `<LogCategories>`, `<DefaultExperiment>` and our `<VendorAnnotations>`.
fn categories_experiment_annotations(x: &mut String, info: &ModelInfo) {
    x.push_str("  <LogCategories>\n");
    for (name, description) in LOG_CATEGORIES {
        let _ = writeln!(x, "    <Category name=\"{name}\" description=\"{}\"/>", e(description));
    }
    x.push_str("  </LogCategories>\n");
    let _ = writeln!(
        x,
        "  <DefaultExperiment startTime=\"0.0\" stopTime=\"{}\" stepSize=\"{}\"/>",
        real(info.default_stop_time),
        real(info.default_step_size)
    );
    let _ = writeln!(
        x,
        "  <VendorAnnotations>\n    <Tool name=\"{TOOL_NAME}\">\n      \
         <Coupling getAfterSet=\"true\" description=\"Outputs are recomputed whenever inputs change, \
         so fmi2GetReal after fmi2SetReal between steps returns consistent outputs (Newton coupling).\"/>\n    \
         </Tool>\n  </VendorAnnotations>"
    );
}

/// The `<ScalarVariable>` of variable `v`, at 1-based `index`.
fn scalar_variable(x: &mut String, index: usize, v: &Variable) {
    let causality = match v.causality {
        Causality::Parameter => "parameter",
        Causality::Input => "input",
        Causality::Output => "output",
    };
    let variability = match v.variability {
        Variability::Fixed => "fixed",
        Variability::Tunable => "tunable",
        Variability::Discrete => "discrete",
        Variability::Continuous => "continuous",
    };
    let initial = if v.causality == Causality::Parameter { " initial=\"exact\"" } else { "" };
    let _ = writeln!(
        x,
        "    <!-- index {index} -->\n    <ScalarVariable name=\"{}\" valueReference=\"{}\" causality=\"{causality}\" \
         variability=\"{variability}\"{initial} description=\"{}\">",
        e(&v.name),
        v.vr,
        e(&v.description)
    );
    let has_start = v.causality != Causality::Output;
    match v.kind {
        Kind::Real { unit, start } => {
            let display = units::display_unit(unit, v.display_unit)
                .map(|d| format!(" displayUnit=\"{}\"", e(d)))
                .unwrap_or_default();
            let unit = if unit.is_empty() { String::new() } else { format!(" unit=\"{}\"", e(unit)) };
            let (min, max) = v.range;
            let min = min.map(|m| format!(" min=\"{}\"", real(m))).unwrap_or_default();
            let max = max.map(|m| format!(" max=\"{}\"", real(m))).unwrap_or_default();
            let start = if has_start { format!(" start=\"{}\"", real(start)) } else { String::new() };
            let _ = writeln!(x, "      <Real{unit}{display}{min}{max}{start}/>");
        }
        Kind::Integer { start, min, max } => match v.enumeration {
            Some(t) => {
                let _ = writeln!(x, "      <Enumeration declaredType=\"{}\" start=\"{start}\"/>", e(t.name));
            }
            None => {
                let _ = writeln!(x, "      <Integer min=\"{min}\" max=\"{max}\" start=\"{start}\"/>");
            }
        },
        Kind::Boolean { start } => {
            let _ = writeln!(x, "      <Boolean start=\"{start}\"/>");
        }
    }
    x.push_str("    </ScalarVariable>\n");
}

/// The continuous states, then their derivatives (Model Exchange), after the model variables.
fn states_and_derivatives(x: &mut String, catalog: &Catalog) {
    let first_state = catalog.variables.len() + 1;
    let n_states = catalog.states.len();
    for (i, s) in catalog.states.iter().enumerate() {
        let unit = if s.unit.is_empty() { String::new() } else { format!(" unit=\"{}\"", e(s.unit)) };
        let display =
            units::display_unit(s.unit, None).map(|d| format!(" displayUnit=\"{}\"", e(d))).unwrap_or_default();
        let _ = writeln!(
            x,
            "    <!-- index {} -->\n    <ScalarVariable name=\"{}\" valueReference=\"{}\" causality=\"local\" \
             variability=\"continuous\" initial=\"calculated\" description=\"{}\">\n      \
             <Real{unit}{display} nominal=\"{}\"/>\n    </ScalarVariable>",
            first_state + i,
            e(&s.name),
            STATE_VR_BASE + i as u32,
            e(&s.description),
            real(s.nominal)
        );
    }
    for (i, s) in catalog.states.iter().enumerate() {
        let unit =
            if s.derivative_unit.is_empty() { String::new() } else { format!(" unit=\"{}\"", e(s.derivative_unit)) };
        let _ = writeln!(
            x,
            "    <!-- index {} -->\n    <ScalarVariable name=\"der({})\" valueReference=\"{}\" causality=\"local\" \
             variability=\"continuous\" initial=\"calculated\" description=\"Time derivative of {}\">\n      \
             <Real{unit} derivative=\"{}\"/>\n    </ScalarVariable>",
            first_state + n_states + i,
            e(&s.name),
            DERIVATIVE_VR_BASE + i as u32,
            e(&s.name),
            first_state + i
        );
    }
}

/// `<ModelStructure>`: outputs with their dependencies (the inputs they declare and,
/// conservatively, every state), derivatives, initial unknowns.
fn model_structure(x: &mut String, catalog: &Catalog) {
    let first_state = catalog.variables.len() + 1;
    let n_states = catalog.states.len();
    let indices = |causality: Causality| -> Vec<usize> {
        catalog.variables.iter().enumerate().filter(|(_, v)| v.causality == causality).map(|(i, _)| i + 1).collect()
    };
    let (output_indices, input_indices) = (indices(Causality::Output), indices(Causality::Input));
    x.push_str("  <ModelStructure>\n");
    let state_indices: Vec<String> = (first_state..first_state + n_states).map(|i| i.to_string()).collect();
    if !output_indices.is_empty() {
        x.push_str("    <Outputs>\n");
        for (k, index) in output_indices.iter().enumerate() {
            let deps: Vec<String> = catalog.feedthrough[k]
                .iter()
                .map(|&p| input_indices[p].to_string())
                .chain(state_indices.iter().cloned())
                .collect();
            let _ = writeln!(x, "      <Unknown index=\"{index}\" dependencies=\"{}\"/>", deps.join(" "));
        }
        x.push_str("    </Outputs>\n");
    }
    if n_states > 0 {
        x.push_str("    <Derivatives>\n");
        for i in 0..n_states {
            let _ = writeln!(x, "      <Unknown index=\"{}\"/>", first_state + n_states + i);
        }
        x.push_str("    </Derivatives>\n");
    }
    if !output_indices.is_empty() || n_states > 0 {
        x.push_str("    <InitialUnknowns>\n");
        for index in output_indices.iter().copied().chain(first_state..first_state + 2 * n_states) {
            let _ = writeln!(x, "      <Unknown index=\"{index}\"/>");
        }
        x.push_str("    </InitialUnknowns>\n");
    }
    x.push_str("  </ModelStructure>\n");
}

#[cfg(test)]
mod tests {
    use super::escape;

    /// The writer's escaping gives the bytes of quick-xml's, which wrote our descriptions before.
    #[test]
    fn escape_matches_quick_xml() {
        for text in ["plain", "a < b > c & 'd' \"e\"", "line\r\nnext\ttab", "ΔT [°C] <&>", ""] {
            assert_eq!(escape(text), quick_xml::escape::escape(text));
        }
    }
}
