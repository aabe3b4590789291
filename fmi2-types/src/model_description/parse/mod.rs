//! The parser: `modelDescription.xml` text to [`ModelDescription`], with the checks an importer
//! needs (clear errors naming the line, never a panic on hostile input).
//!
//! What an importer uses is read strictly (a value that is not of its type is an error): the
//! document element, `CoSimulation`, `ModelExchange`'s identifier and directional derivatives,
//! `DefaultExperiment`, each `ScalarVariable` with its type element's `start` and `derivative`,
//! our vendor annotation's `getAfterSet`, and the `Outputs` and `Derivatives` unknowns. The
//! other attributes are read leniently (`lenient.rs`): a value that is not of its type is left
//! out.

use std::collections::HashSet;

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use super::*;

mod checks;
mod lenient;
#[cfg(test)]
mod tests;
mod xml;

use checks::{check_aliases, check_known, check_start, check_unique_names};
use xml::{Attrs, Lines, at, attrs, is_c_identifier, line_column};

/// Why a `modelDescription.xml` was refused. The messages name the document, so an importer's
/// error only has to prefix the archive's path.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DescriptionError {
    /// The document is not well-formed XML.
    #[error("modelDescription.xml is not well-formed XML: line {line}, column {column}: {message}")]
    Xml {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column (in characters) of the error.
        column: usize,
        /// What the XML parser found.
        message: String,
    },
    /// The document is not UTF-8 (FMI 2.0 requires UTF-8).
    #[error("modelDescription.xml is not UTF-8 (invalid byte at offset {offset}); FMI 2.0 requires UTF-8")]
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// The root element is not `fmiModelDescription`.
    #[error("modelDescription.xml has root element <{root}>, expected <fmiModelDescription>")]
    NotAModelDescription {
        /// The root element found (empty for a document without elements).
        root: String,
    },
    /// `fmiVersion` is not 2.0.
    #[error("modelDescription.xml is FMI {version}, only FMI 2.0 is supported")]
    UnsupportedVersion {
        /// The `fmiVersion` attribute as written.
        version: String,
    },
    /// There is no `CoSimulation` element (refused by an importer of Co-Simulation FMUs, not by
    /// the parser).
    #[error(
        "modelDescription.xml {}; the orchestrator imports FMI 2.0 Co-Simulation FMUs only",
        not_co_simulation(.model_exchange)
    )]
    NotCoSimulation {
        /// True when a `ModelExchange` element is present.
        model_exchange: bool,
    },
    /// A required attribute or element is missing, or a value is invalid.
    #[error("modelDescription.xml line {line}: {message}")]
    Invalid {
        /// 1-based line of the offending element.
        line: usize,
        /// What is wrong, naming the element, attribute or variable.
        message: String,
    },
}

fn not_co_simulation(model_exchange: &bool) -> &'static str {
    if *model_exchange { "is Model Exchange only (no <CoSimulation> element)" } else { "has no <CoSimulation> element" }
}

impl ModelDescription {
    /// Parses a `modelDescription.xml` from its bytes (UTF-8, an optional byte-order mark is
    /// skipped).
    pub fn from_bytes(bytes: &[u8]) -> Result<ModelDescription, DescriptionError> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let text = std::str::from_utf8(bytes).map_err(|e| DescriptionError::NotUtf8 { offset: e.valid_up_to() })?;
        ModelDescription::parse(text)
    }

    /// Parses a `modelDescription.xml` document into the types the writer writes, as written
    /// (indices 1-based), except that `causality` and `variability` take their FMI 2.0 defaults
    /// when absent (`local`; `continuous` for a Real and `discrete` for the other types, as FMPy
    /// does, since continuous is only valid for Real).
    ///
    /// Checks that it is FMI 2.0, the required attributes, `start` values against their type,
    /// unique variable names, aliases (one value reference within a type family) of one unit,
    /// every index in range, each output's dependencies among the knowns FMI 2.0 allows, and
    /// each `Derivatives` unknown a Real with a `derivative` attribute.
    pub fn parse(xml: &str) -> Result<ModelDescription, DescriptionError> {
        let mut reader = Reader::from_str(xml);
        let xml_error = |reader: &Reader<&[u8]>, e: &dyn std::fmt::Display| {
            let (line, column) = line_column(xml, reader.error_position() as usize);
            DescriptionError::Xml { line, column, message: e.to_string() }
        };
        let mut stack: Vec<String> = Vec::new();
        let mut builder = Builder::default();
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
}

/// A `ScalarVariable` whose type element has not been seen yet.
struct PendingVariable {
    line: usize,
    name: String,
    value_reference: u32,
    causality: Causality,
    variability: Option<Variability>,
    initial: Option<Initial>,
    description: Option<String>,
    value: Option<VariableType>,
}

/// The document as read so far, with the lines the checks at the end name.
#[derive(Default)]
struct Builder {
    doc: ModelDescription,
    /// The line of each of `doc.model_variables`.
    variable_lines: Vec<usize>,
    /// The line of each of `doc.model_structure.outputs`.
    output_lines: Vec<usize>,
    /// The line of each of `doc.model_structure.derivatives`.
    derivative_lines: Vec<usize>,
    /// Whether the open `Tool` is ours ([`TOOL_NAME`]).
    in_our_tool: bool,
    pending: Option<PendingVariable>,
}

const ROOT: &str = "fmiModelDescription";

impl Builder {
    /// An element opens (or an empty element appears) below the open elements `stack`.
    fn element(&mut self, stack: &[String], e: &BytesStart, a: Attrs) -> Result<(), DescriptionError> {
        let name = e.local_name();
        let name = name.as_ref();
        if stack.is_empty() {
            return self.root(name, &a);
        }
        if at(stack, &[ROOT]) {
            self.root_child(name, &a)?;
        } else if at(stack, &[ROOT, "ModelVariables"]) && name == "ScalarVariable" {
            self.scalar_variable(&a)?;
        } else if at(stack, &[ROOT, "ModelVariables", "ScalarVariable"]) {
            if let Some(var_type) = VarType::from_attribute(name) {
                self.type_element(var_type, &a)?;
            }
        } else if at(stack, &[ROOT, "VendorAnnotations"]) && name == "Tool" {
            self.in_our_tool = a.get("name") == Some(TOOL_NAME);
            lenient::element(&mut self.doc, stack, name, &a);
        } else if at(stack, &[ROOT, "VendorAnnotations", "Tool"]) && self.in_our_tool && name == "Coupling" {
            let get_after_set = a.boolean("getAfterSet")?;
            if let Some(tool) = self.doc.vendor_annotations.last_mut() {
                tool.coupling = Some(Coupling { get_after_set, description: a.get("description").map(str::to_string) });
            }
        } else if at(stack, &[ROOT, "ModelStructure", "Outputs"]) && name == "Unknown" {
            self.output(&a)?;
        } else if at(stack, &[ROOT, "ModelStructure", "Derivatives"]) && name == "Unknown" {
            let index = a.unsigned("index")?.ok_or_else(|| a.invalid("<Unknown> without index".into()))?;
            self.derivative_lines.push(a.line);
            self.doc.model_structure.derivatives.push(lenient::unknown(index as usize, &a));
        } else {
            lenient::element(&mut self.doc, stack, name, &a);
        }
        Ok(())
    }

    /// The document element: name and version are checked before anything else.
    fn root(&mut self, name: &str, a: &Attrs) -> Result<(), DescriptionError> {
        if name != ROOT {
            return Err(DescriptionError::NotAModelDescription { root: name.to_string() });
        }
        let version = a.get("fmiVersion").map(str::trim).unwrap_or_default();
        if version != "2.0" {
            let version = if version.is_empty() { "(no fmiVersion attribute)" } else { version };
            return Err(DescriptionError::UnsupportedVersion { version: version.to_string() });
        }
        lenient::root(&mut self.doc, a);
        self.doc.model_name = a.required("modelName")?.to_string();
        self.doc.guid = a.required("guid")?.to_string();
        if self.doc.guid.contains('\0') {
            return Err(a.invalid("<fmiModelDescription> guid contains a NUL character".into()));
        }
        Ok(())
    }

    /// A child of the document element: the interface types and the default experiment.
    fn root_child(&mut self, name: &str, a: &Attrs) -> Result<(), DescriptionError> {
        match name {
            "CoSimulation" => self.doc.co_simulation = Some(co_simulation(a)?),
            "ModelExchange" => {
                let model_identifier = a.required("modelIdentifier")?.to_string();
                let provides_directional_derivative = a.flag("providesDirectionalDerivative")?;
                // The flags an importer does not use are read leniently.
                self.doc.model_exchange = Some(ModelExchange {
                    model_identifier,
                    provides_directional_derivative,
                    ..lenient::model_exchange_flags(a)
                });
            }
            "DefaultExperiment" => {
                self.doc.default_experiment = Some(DefaultExperiment {
                    start_time: a.real("startTime")?,
                    stop_time: a.real("stopTime")?,
                    tolerance: a.real("tolerance")?,
                    step_size: a.real("stepSize")?,
                });
            }
            _ => {}
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
            value: None,
        });
        Ok(())
    }

    /// The type element (`Real`, `Integer`, ...) of the open `ScalarVariable`: its start value
    /// and derivative checked against the type.
    fn type_element(&mut self, var_type: VarType, a: &Attrs) -> Result<(), DescriptionError> {
        let pending = self.pending.as_mut().expect("a ScalarVariable is open");
        if pending.value.is_some() {
            return Err(a.invalid(format!("ScalarVariable '{}' has two type elements", pending.name)));
        }
        if let Some(start) = a.get("start") {
            check_start(var_type, start).map_err(|expected| {
                a.invalid(format!(
                    "ScalarVariable '{}' has start=\"{start}\" on its {var_type:?} element, not {expected}",
                    pending.name
                ))
            })?;
        }
        let mut value = lenient::variable_type(var_type, a);
        if let VariableType::Real(r) = &mut value {
            r.derivative = a.unsigned("derivative")?.map(|d| d as usize);
        }
        pending.value = Some(value);
        Ok(())
    }

    /// An `Outputs` unknown: its index and dependencies must be numbers (checked against the
    /// variables at the end).
    fn output(&mut self, a: &Attrs) -> Result<(), DescriptionError> {
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
        self.output_lines.push(a.line);
        self.doc.model_structure.outputs.push(Unknown { dependencies, ..lenient::unknown(index, a) });
        Ok(())
    }

    /// The element `name` at depth `depth` closes.
    fn end(&mut self, stack: &[String], depth: usize, name: &str) -> Result<(), DescriptionError> {
        let parent_is = |path: &[&str]| depth == path.len() && at(&stack[..depth], path);
        if name == "ScalarVariable" && parent_is(&[ROOT, "ModelVariables"]) {
            let Some(p) = self.pending.take() else { return Ok(()) };
            let Some(value) = p.value else {
                return Err(DescriptionError::Invalid {
                    line: p.line,
                    message: format!(
                        "ScalarVariable '{}' has no type element (Real, Integer, Boolean, String or Enumeration)",
                        p.name
                    ),
                });
            };
            let default_variability =
                if value.var_type() == VarType::Real { Variability::Continuous } else { Variability::Discrete };
            self.variable_lines.push(p.line);
            self.doc.model_variables.push(ScalarVariable {
                name: p.name,
                value_reference: p.value_reference,
                description: p.description,
                causality: p.causality,
                variability: p.variability.unwrap_or(default_variability),
                initial: p.initial,
                value,
            });
        } else if name == "Tool" && parent_is(&[ROOT, "VendorAnnotations"]) {
            self.in_our_tool = false;
        }
        Ok(())
    }

    /// The checks across elements, in document order of what they name.
    fn finish(self) -> Result<ModelDescription, DescriptionError> {
        let doc = &self.doc;
        let variables = &doc.model_variables;
        let n = variables.len();
        check_unique_names(variables, &self.variable_lines)?;
        check_aliases(doc, &self.variable_lines)?;
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
        // Continuous-time states: the variables some Real declares itself the derivative of.
        let mut states = HashSet::new();
        for (v, &line) in variables.iter().zip(&self.variable_lines) {
            if let VariableType::Real(RealAttributes { derivative: Some(state), .. }) = v.value {
                states.insert(check(line, state, "derivative")?);
            }
        }
        for (u, &line) in doc.model_structure.outputs.iter().zip(&self.output_lines) {
            let output = check(line, u.index, "<Outputs> <Unknown> index")?;
            for &d in u.dependencies.iter().flatten() {
                let d = check(line, d, &format!("dependency of output {}", u.index))?;
                check_known(variables, &states, line, output, d)?;
            }
        }
        // Model Exchange state vector: each Derivatives unknown is a Real with a `derivative`.
        for (u, &line) in doc.model_structure.derivatives.iter().zip(&self.derivative_lines) {
            let derivative = &variables[check(line, u.index, "<Derivatives> <Unknown> index")?];
            if !matches!(derivative.value, VariableType::Real(RealAttributes { derivative: Some(_), .. })) {
                return Err(DescriptionError::Invalid {
                    line,
                    message: format!("<Derivatives> lists '{}', which has no derivative attribute", derivative.name),
                });
            }
        }
        Ok(self.doc)
    }
}

/// The `CoSimulation` element, every attribute checked.
fn co_simulation(a: &Attrs) -> Result<CoSimulation, DescriptionError> {
    let model_identifier = a.required("modelIdentifier")?.to_string();
    let cs = CoSimulation {
        can_handle_variable_communication_step_size: a.flag("canHandleVariableCommunicationStepSize")?,
        can_interpolate_inputs: a.flag("canInterpolateInputs")?,
        max_output_derivative_order: a.unsigned("maxOutputDerivativeOrder")?,
        can_get_and_set_fmu_state: a.flag("canGetAndSetFMUstate")?,
        can_serialize_fmu_state: a.flag("canSerializeFMUstate")?,
        provides_directional_derivative: a.flag("providesDirectionalDerivative")?,
        can_be_instantiated_only_once_per_process: a.flag("canBeInstantiatedOnlyOncePerProcess")?,
        needs_execution_tool: a.flag("needsExecutionTool")?,
        model_identifier,
    };
    if !is_c_identifier(&cs.model_identifier) {
        // It names the binary: anything else could point outside binaries/.
        return Err(a.invalid(format!(
            "<CoSimulation> modelIdentifier \"{}\" is not a C identifier, as FMI 2.0 requires",
            cs.model_identifier
        )));
    }
    Ok(cs)
}
