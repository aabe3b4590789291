//! The quick-xml event loop behind [`ModelDescription::parse`].

use std::collections::{HashMap, HashSet};

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use fmi2_types::model_description as schema;

use super::checks::{check_aliases, check_known, check_start};
use super::document;
use super::xml::{Attrs, Lines, at, attrs, is_c_identifier, line_column};
use super::*;

/// The vendor annotation tool name of this project.
const OUR_TOOL: &str = "rotorcraft-fmi";

/// A `ScalarVariable` whose type element has not been seen yet.
struct PendingVariable {
    line: usize,
    name: String,
    value_reference: u32,
    causality: Causality,
    variability: Option<Variability>,
    initial: Option<Initial>,
    description: Option<String>,
    typed: Option<TypeElement>,
}

/// The type element of a `ScalarVariable`.
struct TypeElement {
    var_type: VarType,
    start: Option<String>,
    unit: Option<String>,
    declared_type: Option<String>,
    /// `derivative` of a Real: the 1-based index of the state this is the derivative of.
    derivative: Option<usize>,
    /// The element in the schema's types, when the document is built.
    document: Option<schema::VariableType>,
}

/// An `Outputs/Unknown` with 1-based indices, checked at the end.
struct PendingUnknown {
    line: usize,
    index: usize,
    dependencies: Option<Vec<usize>>,
}

#[derive(Default)]
struct Builder {
    fmi_version: Option<String>,
    model_name: String,
    guid: String,
    description: Option<String>,
    generation_tool: Option<String>,
    co_simulation: Option<CoSimulation>,
    model_exchange: bool,
    model_exchange_element: Option<ModelExchange>,
    /// (line, 1-based index) of each `ModelStructure/Derivatives/Unknown`.
    derivative_unknowns: Vec<(usize, usize)>,
    default_experiment: DefaultExperiment,
    get_after_set: bool,
    in_our_tool: bool,
    simple_type: Option<String>,
    type_units: HashMap<String, String>,
    variables: Vec<ScalarVariable>,
    variable_lines: Vec<usize>,
    pending: Option<PendingVariable>,
    unknowns: Vec<PendingUnknown>,
    /// (line, variable, 1-based index of its state) for each Real with a `derivative`.
    derivative_of: Vec<(usize, usize, usize)>,
    /// The whole document in the schema's types, when asked for (only the checks and the
    /// importer's view otherwise).
    document: Option<schema::ModelDescription>,
}

/// The importer's view of `xml` and, if `with_document`, the whole document in the schema's
/// types; the checks and errors are the same either way.
pub(super) fn parse(
    xml: &str,
    with_document: bool,
) -> Result<(ModelDescription, Option<schema::ModelDescription>), DescriptionError> {
    let mut reader = Reader::from_str(xml);
    let xml_error = |reader: &Reader<&[u8]>, e: &dyn std::fmt::Display| {
        let (line, column) = line_column(xml, reader.error_position() as usize);
        DescriptionError::Xml { line, column, message: e.to_string() }
    };
    let mut stack: Vec<String> = Vec::new();
    let mut builder = Builder { document: with_document.then(Default::default), ..Builder::default() };
    let mut seen_root = false;
    let mut lines = Lines::new(xml);
    loop {
        let start = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| xml_error(&reader, &e))?;
        match event {
            Event::Start(e) | Event::Empty(e) if stack.is_empty() && seen_root => {
                let (line, column) = line_column(xml, start);
                let name = e.name().as_ref().to_string();
                return Err(DescriptionError::Xml {
                    line,
                    column,
                    message: format!("second root element <{name}> after the document element"),
                });
            }
            Event::Start(e) => {
                builder.element(&stack, &e, attrs(xml, &mut lines, &reader, start, &e)?)?;
                seen_root = true;
                stack.push(e.local_name().as_ref().to_string());
            }
            Event::Empty(e) => {
                let depth = stack.len();
                builder.element(&stack, &e, attrs(xml, &mut lines, &reader, start, &e)?)?;
                seen_root = true;
                builder.end(&stack, depth, e.local_name().as_ref())?;
            }
            Event::End(_) => {
                let name = stack.pop().unwrap_or_default();
                builder.end(&stack, stack.len(), &name)?;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        let (line, column) = line_column(xml, xml.len());
        return Err(DescriptionError::Xml {
            line,
            column,
            message: format!("unexpected end of document: <{}> is not closed", open),
        });
    }
    if !seen_root {
        return Err(DescriptionError::NotAModelDescription { root: String::new() });
    }
    builder.finish()
}

impl Builder {
    /// An element opens (or an empty element appears) below the open elements `stack`.
    fn element(&mut self, stack: &[String], e: &BytesStart, a: Attrs) -> Result<(), DescriptionError> {
        let name = e.local_name();
        let name = name.as_ref();
        if stack.is_empty() {
            return self.root(name, &a);
        }
        if let Some(doc) = &mut self.document {
            document::element(doc, stack, name, &a);
        }
        const ROOT: &str = "fmiModelDescription";
        if at(stack, &[ROOT]) {
            self.root_child(name, &a)?;
        } else if at(stack, &[ROOT, "ModelVariables"]) && name == "ScalarVariable" {
            self.scalar_variable(&a)?;
        } else if at(stack, &[ROOT, "ModelVariables", "ScalarVariable"]) {
            if let Some(var_type) = VarType::parse(name) {
                self.type_element(var_type, &a)?;
            }
        } else if at(stack, &[ROOT, "TypeDefinitions"]) && name == "SimpleType" {
            self.simple_type = a.get("name").map(str::to_string);
        } else if at(stack, &[ROOT, "TypeDefinitions", "SimpleType"]) && name == "Real" {
            if let (Some(type_name), Some(unit)) = (&self.simple_type, a.get("unit")) {
                self.type_units.insert(type_name.clone(), unit.to_string());
            }
        } else if at(stack, &[ROOT, "VendorAnnotations"]) && name == "Tool" {
            self.in_our_tool = a.get("name") == Some(OUR_TOOL);
        } else if at(stack, &[ROOT, "VendorAnnotations", "Tool"]) && self.in_our_tool && name == "Coupling" {
            self.get_after_set = a.boolean("getAfterSet")?;
        } else if at(stack, &[ROOT, "ModelStructure", "Outputs"]) && name == "Unknown" {
            self.unknown(&a)?;
        } else if at(stack, &[ROOT, "ModelStructure", "Derivatives"]) && name == "Unknown" {
            let index = a.unsigned("index")?.ok_or_else(|| a.invalid("<Unknown> without index".into()))?;
            self.derivative_unknowns.push((a.line, index as usize));
        }
        Ok(())
    }

    /// A child of the document element: the interface types and the default experiment.
    fn root_child(&mut self, name: &str, a: &Attrs) -> Result<(), DescriptionError> {
        if let Some(doc) = &mut self.document {
            document::root_child(doc, name, a);
        }
        match name {
            "CoSimulation" => {
                let model_identifier = a.required("modelIdentifier")?.to_string();
                let can_handle_variable_communication_step_size = a.flag("canHandleVariableCommunicationStepSize")?;
                let can_interpolate_inputs = a.flag("canInterpolateInputs")?;
                let max_output_derivative_order = a.unsigned("maxOutputDerivativeOrder")?;
                let can_get_and_set_fmu_state = a.flag("canGetAndSetFMUstate")?;
                let can_serialize_fmu_state = a.flag("canSerializeFMUstate")?;
                let provides_directional_derivative = a.flag("providesDirectionalDerivative")?;
                let can_be_instantiated_only_once_per_process = a.flag("canBeInstantiatedOnlyOncePerProcess")?;
                let needs_execution_tool = a.flag("needsExecutionTool")?;
                if !is_c_identifier(&model_identifier) {
                    // It names the binary: anything else could point outside binaries/.
                    return Err(a.invalid(format!(
                        "<CoSimulation> modelIdentifier \"{model_identifier}\" is not a C identifier, as FMI 2.0 requires"
                    )));
                }
                self.co_simulation = Some(CoSimulation {
                    model_identifier,
                    needs_execution_tool,
                    can_handle_variable_communication_step_size,
                    can_interpolate_inputs,
                    max_output_derivative_order,
                    can_be_instantiated_only_once_per_process,
                    can_get_and_set_fmu_state,
                    can_serialize_fmu_state,
                    provides_directional_derivative,
                });
            }
            "ModelExchange" => {
                self.model_exchange = true;
                let model_identifier = a.required("modelIdentifier")?.to_string();
                let provides_directional_derivative = a.flag("providesDirectionalDerivative")?;
                // The flags the importer does not use are read leniently, as before.
                self.model_exchange_element = Some(ModelExchange {
                    model_identifier,
                    provides_directional_derivative,
                    ..document::model_exchange_flags(a)
                });
            }
            "DefaultExperiment" => {
                self.default_experiment = DefaultExperiment {
                    start_time: a.real("startTime")?,
                    stop_time: a.real("stopTime")?,
                    tolerance: a.real("tolerance")?,
                    step_size: a.real("stepSize")?,
                };
            }
            _ => {}
        }
        Ok(())
    }

    /// The type element (`Real`, `Integer`, ...) of the open `ScalarVariable`: its start value
    /// checked against the type, its unit, declared type and derivative.
    fn type_element(&mut self, var_type: VarType, a: &Attrs) -> Result<(), DescriptionError> {
        let pending = self.pending.as_mut().expect("a ScalarVariable is open");
        if pending.typed.is_some() {
            return Err(a.invalid(format!("ScalarVariable '{}' has two type elements", pending.name)));
        }
        let unit = if var_type == VarType::Real { a.get("unit").map(str::to_string) } else { None };
        let start = a.get("start").map(str::to_string);
        if let Some(start) = &start {
            check_start(var_type, start).map_err(|expected| {
                a.invalid(format!(
                    "ScalarVariable '{}' has start=\"{start}\" on its {var_type:?} element, not {expected}",
                    pending.name
                ))
            })?;
        }
        let derivative = if var_type == VarType::Real { a.unsigned("derivative")?.map(|d| d as usize) } else { None };
        pending.typed = Some(TypeElement {
            var_type,
            start,
            unit,
            declared_type: a.get("declaredType").map(str::to_string),
            derivative,
            document: self.document.is_some().then(|| document::variable_type(var_type, a)),
        });
        Ok(())
    }

    /// The document element: name and version are checked before anything else.
    fn root(&mut self, name: &str, a: &Attrs) -> Result<(), DescriptionError> {
        if name != "fmiModelDescription" {
            return Err(DescriptionError::NotAModelDescription { root: name.to_string() });
        }
        let version = a.get("fmiVersion").map(str::trim).unwrap_or_default();
        if version != "2.0" {
            let version = if version.is_empty() { "(no fmiVersion attribute)" } else { version };
            return Err(DescriptionError::UnsupportedVersion { version: version.to_string() });
        }
        self.fmi_version = Some(version.to_string());
        self.model_name = a.required("modelName")?.to_string();
        self.guid = a.required("guid")?.to_string();
        if self.guid.contains('\0') {
            return Err(a.invalid("<fmiModelDescription> guid contains a NUL character".into()));
        }
        self.description = a.get("description").map(str::to_string);
        self.generation_tool = a.get("generationTool").map(str::to_string);
        if let Some(doc) = &mut self.document {
            document::root(doc, a);
        }
        Ok(())
    }

    fn scalar_variable(&mut self, a: &Attrs) -> Result<(), DescriptionError> {
        let name = a.required("name")?.to_string();
        let value_reference = a
            .unsigned("valueReference")
            .map_err(|_| {
                a.invalid(format!(
                    "ScalarVariable '{name}' has valueReference=\"{}\", not an unsigned 32-bit integer",
                    a.get("valueReference").unwrap_or_default()
                ))
            })?
            .ok_or_else(|| a.invalid(format!("ScalarVariable '{name}' has no valueReference attribute")))?;
        let causality = match a.get("causality") {
            None => Causality::Local,
            Some(s) => Causality::from_attribute(s)
                .ok_or_else(|| a.invalid(format!("ScalarVariable '{name}' has unknown causality \"{s}\"")))?,
        };
        let variability = match a.get("variability") {
            None => None,
            Some(s) => Some(
                Variability::from_attribute(s)
                    .ok_or_else(|| a.invalid(format!("ScalarVariable '{name}' has unknown variability \"{s}\"")))?,
            ),
        };
        let initial = match a.get("initial") {
            None => None,
            Some(s) => Some(
                Initial::from_attribute(s)
                    .ok_or_else(|| a.invalid(format!("ScalarVariable '{name}' has unknown initial \"{s}\"")))?,
            ),
        };
        self.pending = Some(PendingVariable {
            line: a.line,
            name,
            value_reference,
            causality,
            variability,
            initial,
            description: a.get("description").map(str::to_string),
            typed: None,
        });
        Ok(())
    }

    fn unknown(&mut self, a: &Attrs) -> Result<(), DescriptionError> {
        let index =
            a.unsigned("index")?.ok_or_else(|| a.invalid("<Unknown> in <Outputs> has no index attribute".into()))?
                as usize;
        let dependencies = match a.get("dependencies") {
            None => None,
            Some(list) => Some(
                list.split_ascii_whitespace()
                    .map(|d| {
                        d.parse::<usize>().map_err(|_| {
                            a.invalid(format!(
                                "<Unknown index=\"{index}\"> has dependency \"{d}\", not a variable index"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        self.unknowns.push(PendingUnknown { line: a.line, index, dependencies });
        Ok(())
    }

    /// The element `name` at depth `depth` closes.
    fn end(&mut self, stack: &[String], depth: usize, name: &str) -> Result<(), DescriptionError> {
        let parent_is = |path: &[&str]| depth == path.len() && at(&stack[..depth], path);
        if name == "ScalarVariable" && parent_is(&["fmiModelDescription", "ModelVariables"]) {
            let Some(p) = self.pending.take() else { return Ok(()) };
            let Some(TypeElement { var_type, start, unit, declared_type, derivative, document }) = p.typed else {
                return Err(DescriptionError::Invalid {
                    line: p.line,
                    message: format!(
                        "ScalarVariable '{}' has no type element (Real, Integer, Boolean, String or Enumeration)",
                        p.name
                    ),
                });
            };
            let unit = unit.or_else(|| {
                (var_type == VarType::Real)
                    .then(|| declared_type.and_then(|t| self.type_units.get(&t).cloned()))
                    .flatten()
            });
            let default_variability =
                if var_type == VarType::Real { Variability::Continuous } else { Variability::Discrete };
            self.variable_lines.push(p.line);
            if let Some(state) = derivative {
                self.derivative_of.push((p.line, self.variables.len(), state));
            }
            let variability = p.variability.unwrap_or(default_variability);
            if let (Some(doc), Some(value)) = (&mut self.document, document) {
                doc.model_variables.push(schema::ScalarVariable {
                    name: p.name.clone(),
                    value_reference: p.value_reference,
                    description: p.description.clone(),
                    causality: p.causality,
                    variability,
                    initial: p.initial,
                    value,
                });
            }
            self.variables.push(ScalarVariable {
                name: p.name,
                value_reference: p.value_reference,
                causality: p.causality,
                variability,
                initial: p.initial,
                var_type,
                start,
                unit,
                description: p.description,
            });
        } else if name == "Tool" && parent_is(&["fmiModelDescription", "VendorAnnotations"]) {
            self.in_our_tool = false;
        } else if name == "SimpleType" && parent_is(&["fmiModelDescription", "TypeDefinitions"]) {
            self.simple_type = None;
        }
        Ok(())
    }

    fn finish(self) -> Result<(ModelDescription, Option<schema::ModelDescription>), DescriptionError> {
        let Some(fmi_version) = self.fmi_version else {
            return Err(DescriptionError::NotAModelDescription { root: String::new() });
        };
        let Some(co_simulation) = self.co_simulation else {
            return Err(DescriptionError::NotCoSimulation { model_exchange: self.model_exchange });
        };
        let n = self.variables.len();
        check_unique_names(&self.variables, &self.variable_lines)?;
        let check = |line: usize, i: usize, what: &str| {
            if (1..=n).contains(&i) {
                Ok(i - 1)
            } else {
                Err(DescriptionError::Invalid {
                    line,
                    message: format!("{what} {i} is not a ScalarVariable index (1..={n})"),
                })
            }
        };
        check_aliases(&self.variables, &self.variable_lines)?;
        // Continuous-time states: the variables some Real declares itself the derivative of.
        let mut states = HashSet::new();
        for &(line, _, state) in &self.derivative_of {
            states.insert(check(line, state, "derivative")?);
        }
        let mut outputs = Vec::with_capacity(self.unknowns.len());
        for u in self.unknowns {
            let variable = check(u.line, u.index, "<Outputs> <Unknown> index")?;
            let dependencies = match u.dependencies {
                None => None,
                Some(deps) => Some(
                    deps.into_iter()
                        .map(|d| {
                            let d = check(u.line, d, &format!("dependency of output {}", u.index))?;
                            check_known(&self.variables, &states, u.line, variable, d)?;
                            Ok(d)
                        })
                        .collect::<Result<Vec<_>, DescriptionError>>()?,
                ),
            };
            outputs.push(OutputDependency { variable, dependencies });
        }
        // Model Exchange state vector: each Derivatives unknown is a Real with a `derivative`.
        let mut continuous_states = Vec::with_capacity(self.derivative_unknowns.len());
        for &(line, index) in &self.derivative_unknowns {
            let derivative = check(line, index, "<Derivatives> <Unknown> index")?;
            let Some(&(_, _, state)) = self.derivative_of.iter().find(|(_, v, _)| *v == derivative) else {
                return Err(DescriptionError::Invalid {
                    line,
                    message: format!(
                        "<Derivatives> lists '{}', which has no derivative attribute",
                        self.variables[derivative].name
                    ),
                });
            };
            continuous_states.push(ContinuousState { state: check(line, state, "derivative")?, derivative });
        }
        let mut document = self.document;
        if let Some(doc) = &mut document {
            doc.co_simulation = Some(co_simulation.clone());
            doc.model_exchange = self.model_exchange_element.clone();
        }
        let view = ModelDescription {
            model_exchange: self.model_exchange_element,
            continuous_states,
            fmi_version,
            model_name: self.model_name,
            guid: self.guid,
            description: self.description,
            generation_tool: self.generation_tool,
            co_simulation,
            default_experiment: self.default_experiment,
            get_after_set: self.get_after_set,
            variables: self.variables,
            outputs,
        };
        Ok((view, document))
    }
}

/// Refuses two variables of one name.
fn check_unique_names(variables: &[ScalarVariable], lines: &[usize]) -> Result<(), DescriptionError> {
    let mut names = HashSet::with_capacity(variables.len());
    for (v, &line) in variables.iter().zip(lines) {
        if !names.insert(v.name.as_str()) {
            return Err(DescriptionError::Invalid {
                line,
                message: format!("two ScalarVariables are named '{}'", v.name),
            });
        }
    }
    Ok(())
}
