//! The parts of an FMI 2.0 `modelDescription.xml` the orchestrator uses.
//!
//! Parsed with `quick-xml` from any FMU, ours or third-party. Anything that is not FMI 2.0
//! Co-Simulation is refused with a clear error.

/// FMI 2.0 causality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Causality {
    /// `parameter`
    Parameter,
    /// `calculatedParameter`
    CalculatedParameter,
    /// `input`
    Input,
    /// `output`
    Output,
    /// `local` (the FMI default)
    Local,
    /// `independent`
    Independent,
}

/// FMI 2.0 variability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variability {
    /// `constant`
    Constant,
    /// `fixed`
    Fixed,
    /// `tunable`
    Tunable,
    /// `discrete`
    Discrete,
    /// `continuous` (the FMI default)
    Continuous,
}

/// FMI 2.0 `initial` attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initial {
    /// `exact`
    Exact,
    /// `approx`
    Approx,
    /// `calculated`
    Calculated,
}

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

/// Co-Simulation capability flags (all default to false / 0 when absent).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CoSimulation {
    /// `modelIdentifier`: the binary is `binaries/linux64/<modelIdentifier>.so`.
    pub model_identifier: String,
    /// `canHandleVariableCommunicationStepSize`
    pub can_handle_variable_step_size: bool,
    /// `canInterpolateInputs`
    pub can_interpolate_inputs: bool,
    /// `maxOutputDerivativeOrder`
    pub max_output_derivative_order: u32,
    /// `canGetAndSetFMUstate`
    pub can_get_and_set_fmu_state: bool,
    /// `canSerializeFMUstate`
    pub can_serialize_fmu_state: bool,
    /// `providesDirectionalDerivative`
    pub provides_directional_derivative: bool,
    /// `canBeInstantiatedOnlyOncePerProcess`
    pub can_be_instantiated_only_once_per_process: bool,
    /// `needsExecutionTool`
    pub needs_execution_tool: bool,
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

/// `DefaultExperiment`, each field optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DefaultExperiment {
    /// `startTime`, s
    pub start_time: Option<f64>,
    /// `stopTime`, s
    pub stop_time: Option<f64>,
    /// `tolerance`
    pub tolerance: Option<f64>,
    /// `stepSize`, s
    pub step_size: Option<f64>,
}

/// The model description of an FMI 2.0 Co-Simulation FMU.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelDescription {
    /// The `ModelExchange` element, if the FMU offers Model Exchange too.
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
    /// The `CoSimulation` element.
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

/// The capabilities of the `ModelExchange` element that the linearisation uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelExchange {
    /// `modelIdentifier`
    pub model_identifier: String,
    /// `providesDirectionalDerivative`
    pub provides_directional_derivative: bool,
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

impl Causality {
    /// The attribute value as written in `modelDescription.xml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Causality::Parameter => "parameter",
            Causality::CalculatedParameter => "calculatedParameter",
            Causality::Input => "input",
            Causality::Output => "output",
            Causality::Local => "local",
            Causality::Independent => "independent",
        }
    }

    fn parse(s: &str) -> Option<Causality> {
        Some(match s {
            "parameter" => Causality::Parameter,
            "calculatedParameter" => Causality::CalculatedParameter,
            "input" => Causality::Input,
            "output" => Causality::Output,
            "local" => Causality::Local,
            "independent" => Causality::Independent,
            _ => return None,
        })
    }
}

impl Variability {
    /// The attribute value as written in `modelDescription.xml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variability::Constant => "constant",
            Variability::Fixed => "fixed",
            Variability::Tunable => "tunable",
            Variability::Discrete => "discrete",
            Variability::Continuous => "continuous",
        }
    }

    fn parse(s: &str) -> Option<Variability> {
        Some(match s {
            "constant" => Variability::Constant,
            "fixed" => Variability::Fixed,
            "tunable" => Variability::Tunable,
            "discrete" => Variability::Discrete,
            "continuous" => Variability::Continuous,
            _ => return None,
        })
    }
}

impl Initial {
    /// The attribute value as written in `modelDescription.xml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Initial::Exact => "exact",
            Initial::Approx => "approx",
            Initial::Calculated => "calculated",
        }
    }

    fn parse(s: &str) -> Option<Initial> {
        Some(match s {
            "exact" => Initial::Exact,
            "approx" => Initial::Approx,
            "calculated" => Initial::Calculated,
            _ => return None,
        })
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
        parse::parse(xml)
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
            let key = (parse::base_type(v.var_type), v.value_reference);
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

mod parse {
    //! The quick-xml event loop behind [`ModelDescription::parse`].

    use std::collections::{HashMap, HashSet};

    use quick_xml::XmlVersion;
    use quick_xml::events::{BytesStart, Event};
    use quick_xml::reader::Reader;

    use super::*;

    /// The vendor annotation tool name of this project.
    const OUR_TOOL: &str = "rotorcraft-fmi";

    /// Line and character column (both 1-based) of a byte offset.
    fn line_column(xml: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(xml.len());
        while !xml.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &xml[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// Line numbers of increasing byte offsets, counted incrementally (the parser asks for every
    /// element's line; counting from the start each time would be quadratic in the file size).
    struct Lines<'a> {
        xml: &'a [u8],
        offset: usize,
        line: usize,
    }

    impl<'a> Lines<'a> {
        fn new(xml: &'a str) -> Self {
            Lines { xml: xml.as_bytes(), offset: 0, line: 1 }
        }

        /// 1-based line of byte `offset`.
        fn at(&mut self, offset: usize) -> usize {
            let offset = offset.min(self.xml.len());
            if offset < self.offset {
                (self.offset, self.line) = (0, 1);
            }
            self.line += self.xml[self.offset..offset].iter().filter(|&&b| b == b'\n').count();
            self.offset = offset;
            self.line
        }
    }

    /// Attributes of one element, unescaped.
    struct Attrs {
        element: String,
        list: Vec<(String, String)>,
        line: usize,
    }

    impl Attrs {
        fn get(&self, name: &str) -> Option<&str> {
            self.list.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_ref())
        }

        fn invalid(&self, message: String) -> DescriptionError {
            DescriptionError::Invalid { line: self.line, message }
        }

        fn required(&self, name: &str) -> Result<&str, DescriptionError> {
            self.get(name).ok_or_else(|| self.invalid(format!("<{}> has no {name} attribute", self.element)))
        }

        fn boolean(&self, name: &str) -> Result<bool, DescriptionError> {
            match self.get(name).map(str::trim) {
                None | Some("false") | Some("0") => Ok(false),
                Some("true") | Some("1") => Ok(true),
                Some(other) => Err(self.invalid(format!(
                    "<{}> attribute {name}=\"{other}\" is not a boolean (true, false, 1 or 0)",
                    self.element
                ))),
            }
        }

        fn real(&self, name: &str) -> Result<Option<f64>, DescriptionError> {
            self.get(name)
                .map(|s| {
                    s.trim().parse::<f64>().map_err(|_| {
                        self.invalid(format!("<{}> attribute {name}=\"{s}\" is not a number", self.element))
                    })
                })
                .transpose()
        }

        fn unsigned(&self, name: &str) -> Result<Option<u32>, DescriptionError> {
            self.get(name)
                .map(|s| {
                    s.trim().parse::<u32>().map_err(|_| {
                        self.invalid(format!(
                            "<{}> attribute {name}=\"{s}\" is not an unsigned 32-bit integer",
                            self.element
                        ))
                    })
                })
                .transpose()
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
    }

    /// Checks a `start` attribute against the type of its element (XML Schema lexical forms, as
    /// FMI 2.0's schema declares them: xs:double, xs:int, xs:boolean); on error, what was
    /// expected.
    fn check_start(var_type: VarType, text: &str) -> Result<(), &'static str> {
        let text = text.trim();
        let ok = match var_type {
            VarType::Real => matches!(text, "INF" | "-INF" | "NaN") || parse_real(text).is_some(),
            VarType::Integer | VarType::Enumeration => text.strip_prefix('+').unwrap_or(text).parse::<i32>().is_ok(),
            VarType::Boolean => matches!(text, "true" | "false" | "1" | "0"),
            VarType::String => true,
        };
        if ok {
            return Ok(());
        }
        Err(match var_type {
            VarType::Real => "a real number",
            VarType::Integer | VarType::Enumeration => "a 32-bit integer",
            _ => "a boolean (true, false, 1 or 0)",
        })
    }

    /// An xs:double in decimal or exponent notation (Rust's own parser also takes `inf` and
    /// `nan` spelled in other ways, which XML Schema does not).
    fn parse_real(text: &str) -> Option<f64> {
        let digits = text.trim_start_matches(['+', '-']);
        if !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return None;
        }
        text.parse().ok()
    }

    /// Variables sharing a value reference. FMI 2.0 (section 2.2.7) makes value references
    /// unique per base type only: fmi2Get/SetReal, ...Integer (Integer and Enumeration),
    /// ...Boolean and ...String each have their own, so a Real and an Integer with the same number
    /// are two different variables. Within one base type, variables with the same value reference
    /// are aliases, "identical values": allowed, except two Reals with different `unit`s, which
    /// cannot both describe one number (refused, naming both).
    fn check_aliases(variables: &[ScalarVariable], lines: &[usize]) -> Result<(), DescriptionError> {
        let mut first: HashMap<(u8, u32), usize> = HashMap::new();
        for (k, v) in variables.iter().enumerate() {
            let Some(&a) = first.get(&(base_type(v.var_type), v.value_reference)) else {
                first.insert((base_type(v.var_type), v.value_reference), k);
                continue;
            };
            let other = &variables[a];
            if let (Some(u1), Some(u2)) = (&other.unit, &v.unit)
                && u1 != u2
            {
                return Err(DescriptionError::Invalid {
                    line: lines[k],
                    message: format!(
                        "ScalarVariables '{}' (unit {u1}) and '{}' (unit {u2}) share valueReference {}, so they are \
                         one value, but their units differ",
                        other.name, v.name, v.value_reference
                    ),
                });
            }
        }
        Ok(())
    }

    /// Refuses dependency `known` of output `output` unless FMI 2.0 allows it: for `Outputs`
    /// (section 2.2.8) the knowns are inputs, continuous-time states and the independent variable;
    /// never the output itself, a parameter, a constant, another output or a local variable.
    fn check_known(
        variables: &[ScalarVariable],
        states: &HashSet<usize>,
        line: usize,
        output: usize,
        known: usize,
    ) -> Result<(), DescriptionError> {
        let v = &variables[known];
        let allowed = known != output
            && (matches!(v.causality, Causality::Input | Causality::Independent) || states.contains(&known));
        if allowed {
            return Ok(());
        }
        let what = if known == output {
            "the output itself".to_string()
        } else {
            format!("a variable of causality {} that is not a continuous-time state", v.causality.as_str())
        };
        Err(DescriptionError::Invalid {
            line,
            message: format!(
                "output '{}' lists dependency {} ('{}'), {what}; FMI 2.0 allows only inputs, continuous-time states \
                 and the independent variable",
                variables[output].name,
                known + 1,
                v.name
            ),
        })
    }

    /// The fmi2Get/Set family of a type (Integer and Enumeration share one).
    pub(super) fn base_type(t: VarType) -> u8 {
        match t {
            VarType::Real => 0,
            VarType::Integer | VarType::Enumeration => 1,
            VarType::Boolean => 2,
            VarType::String => 3,
        }
    }

    pub(super) fn parse(xml: &str) -> Result<ModelDescription, DescriptionError> {
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

    /// Reads the attributes of `e`, mapping attribute syntax errors to [`DescriptionError::Xml`].
    fn attrs(
        xml: &str,
        lines: &mut Lines,
        reader: &Reader<&[u8]>,
        start: usize,
        e: &BytesStart,
    ) -> Result<Attrs, DescriptionError> {
        let line = lines.at(start);
        let element = e.local_name().as_ref().to_string();
        let mut list = Vec::new();
        for attr in e.attributes() {
            let attr = attr.map_err(|err| {
                let (line, column) = line_column(xml, start);
                DescriptionError::Xml { line, column, message: format!("in <{element}>: {err}") }
            })?;
            let value = attr.normalized_value(XmlVersion::Implicit1_0).map_err(|err| {
                let (line, column) = line_column(xml, reader.buffer_position() as usize);
                DescriptionError::Xml { line, column, message: format!("in <{element}>: {err}") }
            })?;
            list.push((attr.key.local_name().as_ref().to_string(), value.into_owned()));
        }
        Ok(Attrs { element, list, line })
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: what FMI 2.0 requires of `modelIdentifier`.
    fn is_c_identifier(s: &str) -> bool {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    }

    /// Whether the open elements are exactly `path` (local names).
    fn at(stack: &[String], path: &[&str]) -> bool {
        stack.len() == path.len() && stack.iter().zip(path).all(|(a, b)| a == b)
    }

    impl Builder {
        /// An element opens (or an empty element appears) below the open elements `stack`.
        fn element(&mut self, stack: &[String], e: &BytesStart, a: Attrs) -> Result<(), DescriptionError> {
            let name = e.local_name();
            let name = name.as_ref();
            if stack.is_empty() {
                return self.root(name, &a);
            }
            const ROOT: &str = "fmiModelDescription";
            if at(stack, &[ROOT]) {
                match name {
                    "CoSimulation" => {
                        self.co_simulation = Some(CoSimulation {
                            model_identifier: a.required("modelIdentifier")?.to_string(),
                            can_handle_variable_step_size: a.boolean("canHandleVariableCommunicationStepSize")?,
                            can_interpolate_inputs: a.boolean("canInterpolateInputs")?,
                            max_output_derivative_order: a.unsigned("maxOutputDerivativeOrder")?.unwrap_or(0),
                            can_get_and_set_fmu_state: a.boolean("canGetAndSetFMUstate")?,
                            can_serialize_fmu_state: a.boolean("canSerializeFMUstate")?,
                            provides_directional_derivative: a.boolean("providesDirectionalDerivative")?,
                            can_be_instantiated_only_once_per_process: a
                                .boolean("canBeInstantiatedOnlyOncePerProcess")?,
                            needs_execution_tool: a.boolean("needsExecutionTool")?,
                        });
                        let id = a.required("modelIdentifier")?;
                        if !is_c_identifier(id) {
                            // It names the binary: anything else could point outside binaries/.
                            return Err(a.invalid(format!(
                                "<CoSimulation> modelIdentifier \"{id}\" is not a C identifier, as FMI 2.0 requires"
                            )));
                        }
                    }
                    "ModelExchange" => {
                        self.model_exchange = true;
                        self.model_exchange_element = Some(ModelExchange {
                            model_identifier: a.required("modelIdentifier")?.to_string(),
                            provides_directional_derivative: a.boolean("providesDirectionalDerivative")?,
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
            } else if at(stack, &[ROOT, "ModelVariables"]) && name == "ScalarVariable" {
                self.scalar_variable(&a)?;
            } else if at(stack, &[ROOT, "ModelVariables", "ScalarVariable"]) {
                if let Some(var_type) = VarType::parse(name) {
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
                    let derivative =
                        if var_type == VarType::Real { a.unsigned("derivative")?.map(|d| d as usize) } else { None };
                    pending.typed = Some(TypeElement {
                        var_type,
                        start,
                        unit,
                        declared_type: a.get("declaredType").map(str::to_string),
                        derivative,
                    });
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
                Some(s) => Causality::parse(s)
                    .ok_or_else(|| a.invalid(format!("ScalarVariable '{name}' has unknown causality \"{s}\"")))?,
            };
            let variability = match a.get("variability") {
                None => None,
                Some(s) => Some(
                    Variability::parse(s)
                        .ok_or_else(|| a.invalid(format!("ScalarVariable '{name}' has unknown variability \"{s}\"")))?,
                ),
            };
            let initial = match a.get("initial") {
                None => None,
                Some(s) => Some(
                    Initial::parse(s)
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
                let Some(TypeElement { var_type, start, unit, declared_type, derivative }) = p.typed else {
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
                self.variables.push(ScalarVariable {
                    name: p.name,
                    value_reference: p.value_reference,
                    causality: p.causality,
                    variability: p.variability.unwrap_or(default_variability),
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

        fn finish(self) -> Result<ModelDescription, DescriptionError> {
            let Some(fmi_version) = self.fmi_version else {
                return Err(DescriptionError::NotAModelDescription { root: String::new() });
            };
            let Some(co_simulation) = self.co_simulation else {
                return Err(DescriptionError::NotCoSimulation { model_exchange: self.model_exchange });
            };
            let n = self.variables.len();
            let mut names = HashSet::with_capacity(n);
            for (v, &line) in self.variables.iter().zip(&self.variable_lines) {
                if !names.insert(v.name.as_str()) {
                    return Err(DescriptionError::Invalid {
                        line,
                        message: format!("two ScalarVariables are named '{}'", v.name),
                    });
                }
            }
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
            Ok(ModelDescription {
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
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small valid FMI 2.0 CS description with `extra` inserted before `ModelVariables`.
    fn doc(root_attrs: &str, extra: &str, variables: &str, structure: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription {root_attrs}>
  {extra}
  <ModelVariables>
{variables}
  </ModelVariables>
  <ModelStructure>
{structure}
  </ModelStructure>
</fmiModelDescription>
"#
        )
    }

    const ROOT: &str = r#"fmiVersion="2.0" modelName="M" guid="{1}" generationTool="test""#;
    const CS: &str = r#"<CoSimulation modelIdentifier="M"/>"#;
    const VARS: &str = r#"
    <ScalarVariable name="u" valueReference="1" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="k" valueReference="2" causality="parameter" variability="fixed"><Real start="2"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="3" causality="output"><Real/></ScalarVariable>"#;

    #[test]
    fn minimal_document_with_defaults() {
        let md = ModelDescription::parse(&doc(ROOT, CS, VARS, "")).unwrap();
        assert_eq!(md.fmi_version, "2.0");
        assert_eq!(md.model_name, "M");
        assert_eq!(md.guid, "{1}");
        assert_eq!(md.generation_tool.as_deref(), Some("test"));
        assert_eq!(md.co_simulation, CoSimulation { model_identifier: "M".into(), ..CoSimulation::default() });
        assert_eq!(md.default_experiment, DefaultExperiment::default());
        assert!(!md.get_after_set);
        assert!(md.outputs.is_empty());
        let y = md.variable("y").unwrap();
        assert_eq!(y.causality, Causality::Output);
        assert_eq!(y.variability, Variability::Continuous, "FMI default for a Real");
        assert_eq!(y.initial, None);
        assert_eq!(y.start, None);
        assert_eq!(md.variable("k").unwrap().variability, Variability::Fixed);
        assert_eq!(md.index_of("k"), Some(1));
    }

    #[test]
    fn attributes_flags_experiment_and_vendor_annotation() {
        let extra = r#"
  <CoSimulation modelIdentifier="Fuselage" canHandleVariableCommunicationStepSize="true" canInterpolateInputs="1"
      maxOutputDerivativeOrder="2" canGetAndSetFMUstate="true" canSerializeFMUstate="false"
      providesDirectionalDerivative="true" canBeInstantiatedOnlyOncePerProcess="true" needsExecutionTool="0"/>
  <TypeDefinitions>
    <SimpleType name="Force"><Real quantity="Force" unit="N"/></SimpleType>
  </TypeDefinitions>
  <DefaultExperiment startTime="0.5" stopTime="10" tolerance="1e-6" stepSize="0.01"/>
  <VendorAnnotations>
    <Tool name="other"><Coupling getAfterSet="false"/></Tool>
    <Tool name="rotorcraft-fmi">
      <Coupling getAfterSet="true" description="a &amp; b"/>
    </Tool>
  </VendorAnnotations>"#;
        let vars = r#"
    <ScalarVariable name="F" valueReference="7" causality="input" description="load &lt;N&gt;"><Real declaredType="Force" start="1.5"/></ScalarVariable>
    <ScalarVariable name="n" valueReference="8" causality="parameter" variability="fixed" initial="exact"><Integer start="3"/></ScalarVariable>
    <ScalarVariable name="on" valueReference="9"><Boolean start="true"/></ScalarVariable>
    <ScalarVariable name="s" valueReference="10" causality="parameter" variability="fixed"><String start="x"/></ScalarVariable>
    <ScalarVariable name="e" valueReference="11" causality="output"><Enumeration declaredType="E"/></ScalarVariable>
    <ScalarVariable name="a" valueReference="12" causality="output" initial="calculated"><Real unit="m/s2"/></ScalarVariable>"#;
        let md = ModelDescription::parse(&doc(ROOT, extra, vars, "")).unwrap();
        let cs = &md.co_simulation;
        assert_eq!(cs.model_identifier, "Fuselage");
        assert!(cs.can_handle_variable_step_size && cs.can_interpolate_inputs && cs.can_get_and_set_fmu_state);
        assert!(!cs.can_serialize_fmu_state && cs.provides_directional_derivative);
        assert!(cs.can_be_instantiated_only_once_per_process && !cs.needs_execution_tool);
        assert_eq!(cs.max_output_derivative_order, 2);
        assert_eq!(
            md.default_experiment,
            DefaultExperiment {
                start_time: Some(0.5),
                stop_time: Some(10.0),
                tolerance: Some(1e-6),
                step_size: Some(0.01)
            }
        );
        assert!(md.get_after_set, "only the rotorcraft-fmi tool counts");
        let f = md.variable("F").unwrap();
        assert_eq!(f.unit.as_deref(), Some("N"), "unit inherited from the declared type");
        assert_eq!(f.start.as_deref(), Some("1.5"));
        assert_eq!(f.description.as_deref(), Some("load <N>"));
        let n = md.variable("n").unwrap();
        assert_eq!(
            (n.var_type, n.initial, n.variability),
            (VarType::Integer, Some(Initial::Exact), Variability::Fixed)
        );
        let on = md.variable("on").unwrap();
        assert_eq!(
            (on.var_type, on.causality, on.variability),
            (VarType::Boolean, Causality::Local, Variability::Discrete)
        );
        assert_eq!(md.variable("s").unwrap().var_type, VarType::String);
        assert_eq!(md.variable("e").unwrap().var_type, VarType::Enumeration);
        assert_eq!(md.variable("a").unwrap().unit.as_deref(), Some("m/s2"));
    }

    #[test]
    fn get_after_set_false_when_annotation_says_so() {
        let extra = r#"<CoSimulation modelIdentifier="M"/>
  <VendorAnnotations><Tool name="rotorcraft-fmi"><Coupling getAfterSet="false"/></Tool></VendorAnnotations>"#;
        assert!(!ModelDescription::parse(&doc(ROOT, extra, VARS, "")).unwrap().get_after_set);
    }

    #[test]
    fn output_dependencies_are_zero_based_and_absent_means_none() {
        let structure = r#"
    <Outputs>
      <Unknown index="3" dependencies="1"/>
      <Unknown index="2" dependencies=""/>
      <Unknown index="1"/>
    </Outputs>
    <InitialUnknowns><Unknown index="3"/></InitialUnknowns>"#;
        let md = ModelDescription::parse(&doc(ROOT, CS, VARS, structure)).unwrap();
        assert_eq!(
            md.outputs,
            vec![
                OutputDependency { variable: 2, dependencies: Some(vec![0]) },
                OutputDependency { variable: 1, dependencies: Some(vec![]) },
                OutputDependency { variable: 0, dependencies: None },
            ]
        );
        // A parameter in the list is refused since FMI 2.0 forbids it (tests/description_checks.rs).
        assert_eq!(md.feedthrough_inputs(2), vec![0]);
        assert_eq!(md.feedthrough_inputs(0), vec![0], "absent: all inputs");
    }

    #[test]
    fn dependency_out_of_range_is_refused() {
        let structure = r#"<Outputs><Unknown index="3" dependencies="1 4"/></Outputs>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, VARS, structure)).unwrap_err();
        let DescriptionError::Invalid { line, message } = &err else { panic!("{err:?}") };
        assert!(message.contains("dependency of output 3 4 is not a ScalarVariable index (1..=3)"), "{message}");
        assert_eq!(*line, 11);
        let structure = r#"<Outputs><Unknown index="0"/></Outputs>"#;
        assert!(matches!(
            ModelDescription::parse(&doc(ROOT, CS, VARS, structure)),
            Err(DescriptionError::Invalid { .. })
        ));
        let structure = r#"<Outputs><Unknown index="3" dependencies="1 x"/></Outputs>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, VARS, structure)).unwrap_err();
        assert!(err.to_string().contains("dependency \"x\""), "{err}");
    }

    #[test]
    fn fmi3_is_refused() {
        let root = r#"fmiVersion="3.0" modelName="M" instantiationToken="{1}""#;
        let err = ModelDescription::parse(&doc(root, CS, "", "")).unwrap_err();
        assert_eq!(err, DescriptionError::UnsupportedVersion { version: "3.0".into() });
        assert_eq!(err.to_string(), "modelDescription.xml is FMI 3.0, only FMI 2.0 is supported");
        let err = ModelDescription::parse(&doc(r#"fmiVersion="1.0" modelName="M" guid="g""#, "", "", "")).unwrap_err();
        assert_eq!(err, DescriptionError::UnsupportedVersion { version: "1.0".into() });
        let err = ModelDescription::parse(&doc(r#"modelName="M" guid="g""#, CS, "", "")).unwrap_err();
        assert!(matches!(err, DescriptionError::UnsupportedVersion { .. }), "{err:?}");
    }

    #[test]
    fn model_exchange_only_is_refused() {
        let err = ModelDescription::parse(&doc(ROOT, r#"<ModelExchange modelIdentifier="M"/>"#, VARS, "")).unwrap_err();
        assert_eq!(err, DescriptionError::NotCoSimulation { model_exchange: true });
        assert!(err.to_string().contains("is Model Exchange only"), "{err}");
        let err = ModelDescription::parse(&doc(ROOT, "", VARS, "")).unwrap_err();
        assert_eq!(err, DescriptionError::NotCoSimulation { model_exchange: false });
    }

    #[test]
    fn both_interfaces_is_accepted() {
        let extra = r#"<ModelExchange modelIdentifier="M_me"/><CoSimulation modelIdentifier="M_cs"/>"#;
        assert_eq!(
            ModelDescription::parse(&doc(ROOT, extra, VARS, "")).unwrap().co_simulation.model_identifier,
            "M_cs"
        );
    }

    #[test]
    fn missing_attributes_name_element_and_line() {
        let err = ModelDescription::parse(&doc(r#"fmiVersion="2.0" modelName="M""#, CS, VARS, "")).unwrap_err();
        assert_eq!(
            err,
            DescriptionError::Invalid { line: 2, message: "<fmiModelDescription> has no guid attribute".into() }
        );
        let err = ModelDescription::parse(&doc(ROOT, "<CoSimulation/>", VARS, "")).unwrap_err();
        assert_eq!(
            err,
            DescriptionError::Invalid { line: 3, message: "<CoSimulation> has no modelIdentifier attribute".into() }
        );
        let vars = r#"<ScalarVariable name="x" causality="input"><Real/></ScalarVariable>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, vars, "")).unwrap_err();
        assert_eq!(err.to_string(), "modelDescription.xml line 5: ScalarVariable 'x' has no valueReference attribute");
        let vars = r#"<ScalarVariable valueReference="1"><Real/></ScalarVariable>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, vars, "")).unwrap_err();
        assert!(err.to_string().contains("<ScalarVariable> has no name attribute"), "{err}");
        let vars = r#"<ScalarVariable name="x" valueReference="1"/>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, vars, "")).unwrap_err();
        assert!(err.to_string().contains("ScalarVariable 'x' has no type element"), "{err}");
    }

    #[test]
    fn model_identifier_must_be_a_c_identifier() {
        for bad in ["../../evil", "a b", "", "1abc", "x/y", "x.so"] {
            let cs = format!(r#"<CoSimulation modelIdentifier="{bad}"/>"#);
            let err = ModelDescription::parse(&doc(ROOT, &cs, VARS, "")).unwrap_err();
            assert!(err.to_string().contains("is not a C identifier"), "{bad}: {err}");
        }
        let cs = r#"<CoSimulation modelIdentifier="_Ok_9"/>"#;
        assert_eq!(ModelDescription::parse(&doc(ROOT, cs, VARS, "")).unwrap().co_simulation.model_identifier, "_Ok_9");
    }

    #[test]
    fn invalid_values_are_named() {
        let vars = r#"<ScalarVariable name="x" valueReference="-1"><Real/></ScalarVariable>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, vars, "")).unwrap_err();
        assert!(err.to_string().contains("'x' has valueReference=\"-1\""), "{err}");
        let vars = r#"<ScalarVariable name="x" valueReference="1" causality="sideways"><Real/></ScalarVariable>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, vars, "")).unwrap_err();
        assert!(err.to_string().contains("unknown causality \"sideways\""), "{err}");
        let cs = r#"<CoSimulation modelIdentifier="M" canGetAndSetFMUstate="yes"/>"#;
        let err = ModelDescription::parse(&doc(ROOT, cs, VARS, "")).unwrap_err();
        assert!(err.to_string().contains("canGetAndSetFMUstate=\"yes\" is not a boolean"), "{err}");
        let de = r#"<CoSimulation modelIdentifier="M"/><DefaultExperiment stopTime="ten"/>"#;
        let err = ModelDescription::parse(&doc(ROOT, de, VARS, "")).unwrap_err();
        assert!(err.to_string().contains("stopTime=\"ten\" is not a number"), "{err}");
        let vars = r#"<ScalarVariable name="x" valueReference="1"><Real/></ScalarVariable>
    <ScalarVariable name="x" valueReference="2"><Real/></ScalarVariable>"#;
        let err = ModelDescription::parse(&doc(ROOT, CS, vars, "")).unwrap_err();
        assert_eq!(err, DescriptionError::Invalid { line: 6, message: "two ScalarVariables are named 'x'".into() });
    }

    #[test]
    fn malformed_xml_reports_line_and_column() {
        // Mismatched end tag on line 5.
        let xml = doc(ROOT, CS, r#"    <ScalarVariable name="x" valueReference="1"><Real/></ScalarVariabl>"#, "");
        let err = ModelDescription::parse(&xml).unwrap_err();
        let DescriptionError::Xml { line, column, message } = &err else { panic!("{err:?}") };
        assert_eq!(*line, 5, "{err}");
        assert!(*column > 1, "{err}");
        assert!(message.contains("ScalarVariabl"), "{message}");
        assert!(err.to_string().starts_with("modelDescription.xml is not well-formed XML: line 5, column"), "{err}");

        // Unclosed document.
        let err = ModelDescription::parse("<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"g\">\n<CoSimulation modelIdentifier=\"M\"/>\n")
            .unwrap_err();
        assert!(matches!(err, DescriptionError::Xml { line: 3, .. }), "{err:?}");
        assert!(err.to_string().contains("<fmiModelDescription> is not closed"), "{err}");

        // Broken attribute syntax.
        let err = ModelDescription::parse("<fmiModelDescription fmiVersion=\"2.0 modelName=\"M\">").unwrap_err();
        assert!(matches!(err, DescriptionError::Xml { line: 1, .. }), "{err:?}");

        // Not XML at all.
        let err = ModelDescription::parse("\u{1}garbage <<<").unwrap_err();
        assert!(matches!(err, DescriptionError::Xml { .. } | DescriptionError::NotAModelDescription { .. }), "{err:?}");
        assert!(matches!(ModelDescription::parse(""), Err(DescriptionError::NotAModelDescription { .. })));
    }

    #[test]
    fn wrong_root_and_encoding() {
        let err = ModelDescription::parse("<html><body/></html>").unwrap_err();
        assert_eq!(err, DescriptionError::NotAModelDescription { root: "html".into() });
        let err = ModelDescription::from_bytes(b"<fmiModelDescription \xff/>").unwrap_err();
        assert_eq!(err, DescriptionError::NotUtf8 { offset: 21 });
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), doc(ROOT, CS, VARS, "").as_bytes()].concat();
        assert_eq!(ModelDescription::from_bytes(&with_bom).unwrap().model_name, "M");
    }

    #[test]
    fn the_committed_fuselage_description_parses() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../modelDescription/Fuselage.xml");
        let md = ModelDescription::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        assert!(md.get_after_set);
        assert_eq!(md.co_simulation.model_identifier, "Fuselage");
        let acc_z = md.index_of("hub.acc.z").unwrap();
        let f_z = md.index_of("hub.F.z").unwrap();
        let deps = md.output_dependency(acc_z).unwrap().dependencies.as_ref().unwrap();
        assert!(deps.contains(&f_z));
        // Position depends on the states only: the 13 declared for Model Exchange.
        let states: Vec<usize> = md.continuous_states.iter().map(|s| s.state).collect();
        assert_eq!(states.len(), 13);
        assert_eq!(md.variables[states[0]].name, "state.position.x");
        assert_eq!(md.variables[md.continuous_states[0].derivative].name, "der(state.position.x)");
        assert_eq!(md.output_dependency(md.index_of("z").unwrap()).unwrap().dependencies, Some(states));
        assert!(md.feedthrough_inputs(md.index_of("z").unwrap()).is_empty());
        let me = md.model_exchange.as_ref().expect("<ModelExchange>");
        assert_eq!(me.model_identifier, "Fuselage");
        assert!(me.provides_directional_derivative);
    }
}
