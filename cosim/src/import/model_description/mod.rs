//! The parts of an FMI 2.0 `modelDescription.xml` the orchestrator uses.
//!
//! Parsed with `quick-xml` from any FMU, ours or third-party. Anything that is not FMI 2.0
//! Co-Simulation is refused with a clear error. The same parse also gives the whole document in
//! the types of the one FMI 2.0 schema ([`schema`], [`ModelDescription::parse_document`]), which
//! our FMUs and the system FMU write.

pub use fmi2_types::model_description::{
    self as schema, Causality, CoSimulation, DefaultExperiment, Initial, ModelExchange, Variability,
};

/// Base type of a scalar variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarType {
    /// `Real`
    Real,
    /// `Integer`
    Integer,
    /// `Boolean`
    Boolean,
    /// `String`
    String,
    /// `Enumeration` (handled as an integer)
    Enumeration,
}

/// One `ScalarVariable`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarVariable {
    /// `name`
    pub name: String,
    /// `valueReference`
    pub value_reference: u32,
    /// `causality` (default `local`)
    pub causality: Causality,
    /// `variability` (default `continuous` for a Real; for the other types, where `continuous`
    /// is not allowed, the parser defaults to `discrete` as FMPy does)
    pub variability: Variability,
    /// `initial`, if given
    pub initial: Option<Initial>,
    /// Type element
    pub var_type: VarType,
    /// `start` attribute text of the type element, if any
    pub start: Option<String>,
    /// `unit` of a Real, if any
    pub unit: Option<String>,
    /// `description`, if any
    pub description: Option<String>,
}

/// One `ModelStructure/Outputs/Unknown`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputDependency {
    /// Index into [`ModelDescription::variables`] (0-based; the XML's `index` minus 1).
    pub variable: usize,
    /// Indices (0-based) of the variables this output depends on directly; `None` when the
    /// attribute is absent, which FMI defines as "depends on all inputs".
    pub dependencies: Option<Vec<usize>>,
}

/// The model description of an FMI 2.0 Co-Simulation FMU.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelDescription {
    /// The `ModelExchange` element, if the FMU offers Model Exchange too (its flags as written:
    /// absent is `None`, FMI's false).
    pub model_exchange: Option<ModelExchange>,
    /// The continuous states (Model Exchange), in state-vector order: the order of
    /// `ModelStructure/Derivatives`.
    pub continuous_states: Vec<ContinuousState>,
    /// `fmiVersion` (always "2.0" after parsing succeeded)
    pub fmi_version: String,
    /// `modelName`
    pub model_name: String,
    /// `guid`
    pub guid: String,
    /// `description`, if any
    pub description: Option<String>,
    /// `generationTool`, if any
    pub generation_tool: Option<String>,
    /// The `CoSimulation` element (its flags as written: absent is `None`, FMI's false or 0).
    pub co_simulation: CoSimulation,
    /// `DefaultExperiment`
    pub default_experiment: DefaultExperiment,
    /// True when the FMU declares our vendor annotation
    /// `<Tool name="rotorcraft-fmi"><Coupling getAfterSet="true"/>`: outputs are consistent
    /// after `fmi2SetReal` without a step in between, so full Newton may run between steps.
    pub get_after_set: bool,
    /// `ModelVariables` in document order.
    pub variables: Vec<ScalarVariable>,
    /// `ModelStructure/Outputs`.
    pub outputs: Vec<OutputDependency>,
}

/// One continuous state: the state variable and its derivative (indices into `variables`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContinuousState {
    /// The state variable.
    pub state: usize,
    /// The variable whose `derivative` attribute names it.
    pub derivative: usize,
}

impl ModelDescription {
    /// The variable with this name.
    pub fn variable(&self, name: &str) -> Option<&ScalarVariable> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// Index of the variable with this name.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }
}

impl ScalarVariable {
    /// True for `causality="input"`.
    pub fn is_input(&self) -> bool {
        self.causality == Causality::Input
    }

    /// True for `causality="output"`.
    pub fn is_output(&self) -> bool {
        self.causality == Causality::Output
    }
}

impl VarType {
    /// The type element's name (`Real`, `Integer`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            VarType::Real => "Real",
            VarType::Integer => "Integer",
            VarType::Boolean => "Boolean",
            VarType::String => "String",
            VarType::Enumeration => "Enumeration",
        }
    }

    fn parse(s: &str) -> Option<VarType> {
        Some(match s {
            "Real" => VarType::Real,
            "Integer" => VarType::Integer,
            "Boolean" => VarType::Boolean,
            "String" => VarType::String,
            "Enumeration" => VarType::Enumeration,
            _ => return None,
        })
    }
}

/// Why a `modelDescription.xml` was refused. The messages name the document, so an
/// [`ImportError`](super::ImportError) only has to prefix the archive's path.
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
    /// There is no `CoSimulation` element.
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

    /// Parses a `modelDescription.xml` document.
    ///
    /// Checks that it is FMI 2.0 with a `CoSimulation` element, reads every `ScalarVariable`
    /// with the FMI 2.0 defaults (`causality` local; `variability` continuous for Real and
    /// discrete for the other types, as FMPy does, since continuous is only valid for Real),
    /// `ModelStructure/Outputs` with 0-based indices, `DefaultExperiment` and the
    /// `rotorcraft-fmi` vendor annotation. The unit of a Real whose type element has no `unit`
    /// is taken from its `declaredType` in `TypeDefinitions`.
    pub fn parse(xml: &str) -> Result<ModelDescription, DescriptionError> {
        parse::parse(xml, false).map(|(view, _)| view)
    }

    /// Parses a `modelDescription.xml` document, with the checks of [`ModelDescription::parse`],
    /// into the schema's types: every element and attribute the writer
    /// ([`schema::ModelDescription::to_xml`]) writes, as written (no defaults filled in, indices
    /// 1-based), except that `causality` and `variability` are given their defaults.
    pub fn parse_document(xml: &str) -> Result<schema::ModelDescription, DescriptionError> {
        parse::parse(xml, true).map(|(_, document)| document.expect("the parser was asked for the document"))
    }

    /// The variables with `causality="input"`, with their indices.
    pub fn inputs(&self) -> impl Iterator<Item = (usize, &ScalarVariable)> {
        self.variables.iter().enumerate().filter(|(_, v)| v.is_input())
    }

    /// The `ModelStructure/Outputs` entry of variable `index` (0-based), if it is listed.
    pub fn output_dependency(&self, index: usize) -> Option<&OutputDependency> {
        self.outputs.iter().find(|o| o.variable == index)
    }

    /// Warnings about aliases (variables of one base type sharing a value reference, which the
    /// parser accepts) where setting one changes another unexpectedly: two or more of them can be
    /// set by the importer (inputs and parameters), or one that can be set aliases a `constant`.
    /// Aliases that are read only (outputs, locals, one settable variable and its readable
    /// aliases) are the common case of tools that export `x` and `der(y)` as one value, and are
    /// not reported.
    pub fn alias_warnings(&self) -> Vec<String> {
        let settable = |v: &ScalarVariable| matches!(v.causality, Causality::Input | Causality::Parameter);
        let mut groups: Vec<((u8, u32), Vec<usize>)> = Vec::new();
        for (k, v) in self.variables.iter().enumerate() {
            let key = (checks::base_type(v.var_type), v.value_reference);
            match groups.iter_mut().find(|(g, _)| *g == key) {
                Some((_, members)) => members.push(k),
                None => groups.push((key, vec![k])),
            }
        }
        let mut warnings = Vec::new();
        for (_, members) in groups.iter().filter(|(_, m)| m.len() > 1) {
            let vars: Vec<&ScalarVariable> = members.iter().map(|&k| &self.variables[k]).collect();
            let set: Vec<&str> = vars.iter().filter(|v| settable(v)).map(|v| v.name.as_str()).collect();
            let constant = vars.iter().find(|v| v.variability == Variability::Constant);
            let names = vars.iter().map(|v| format!("'{}' ({})", v.name, v.causality.as_str())).collect::<Vec<_>>();
            let vr = vars[0].value_reference;
            if set.len() > 1 {
                warnings.push(format!(
                    "{} share valueReference {vr}: setting one sets the others ({} can all be set)",
                    names.join(", "),
                    set.join(", ")
                ));
            } else if let (Some(c), false) = (constant, set.is_empty()) {
                warnings.push(format!(
                    "{} share valueReference {vr}: setting '{}' changes '{}', declared constant",
                    names.join(", "),
                    set[0],
                    c.name
                ));
            }
        }
        warnings
    }

    /// The direct-feedthrough inputs of output `index` (0-based indices): the listed
    /// dependencies that are inputs, or every input when the attribute is absent.
    pub fn feedthrough_inputs(&self, index: usize) -> Vec<usize> {
        match self.output_dependency(index).and_then(|o| o.dependencies.as_ref()) {
            Some(deps) => deps.iter().copied().filter(|&d| self.variables[d].is_input()).collect(),
            None => self.inputs().map(|(i, _)| i).collect(),
        }
    }
}

mod checks;
mod document;
mod parse;
#[cfg(test)]
mod tests;
mod xml;
