//! The FMI 2.0 model description (`modelDescription.xml`) as types, and the one writer of its
//! text ([`ModelDescription::to_xml`]).
//!
//! The types hold every element and attribute our FMUs and the system FMU write: model
//! information, the Model Exchange and Co-Simulation capabilities, unit and type definitions, log
//! categories, the default experiment, our vendor annotation, the scalar variables and the model
//! structure. Indices inside the document (`derivative`, `ModelStructure` `index` and
//! `dependencies`) are kept as written: 1-based.
//!
//! The writer needs no XML library (an FMU's own library writes its description to check its GUID)
//! and writes attributes in a fixed order, so equal types give equal bytes. The parser
//! ([`ModelDescription::parse`], quick-xml) is behind the `parse` feature, so an FMU's library,
//! which depends on this crate without it, links no XML reader.

mod guid;
#[cfg(feature = "parse")]
mod parse;
mod units;
mod write;

pub use guid::guid_of;
#[cfg(feature = "parse")]
pub use parse::DescriptionError;
pub use units::xs_double;
pub use write::{escape, real_text};

/// The tool name of our vendor annotation (`<Tool name="rotorcraft-fmi"><Coupling .../>`) and of
/// our FMUs' `generationTool`.
pub const TOOL_NAME: &str = "rotorcraft-fmi";

/// `fmiModelDescription`: the whole document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelDescription {
    /// `modelName`
    pub model_name: String,
    /// `guid`
    pub guid: String,
    /// `description`
    pub description: Option<String>,
    /// `author`
    pub author: Option<String>,
    /// `version`
    pub version: Option<String>,
    /// `license`
    pub license: Option<String>,
    /// `generationTool`
    pub generation_tool: Option<String>,
    /// `variableNamingConvention`
    pub variable_naming_convention: Option<VariableNamingConvention>,
    /// `numberOfEventIndicators`
    pub number_of_event_indicators: Option<u32>,
    /// The `ModelExchange` element.
    pub model_exchange: Option<ModelExchange>,
    /// The `CoSimulation` element.
    pub co_simulation: Option<CoSimulation>,
    /// `UnitDefinitions` (no element when empty).
    pub unit_definitions: Vec<Unit>,
    /// `TypeDefinitions` (no element when empty).
    pub type_definitions: Vec<SimpleType>,
    /// `LogCategories` (no element when empty).
    pub log_categories: Vec<Category>,
    /// `DefaultExperiment`
    pub default_experiment: Option<DefaultExperiment>,
    /// `VendorAnnotations` (no element when empty).
    pub vendor_annotations: Vec<Tool>,
    /// `ModelVariables`, in document order (the `index` of the model structure is the position
    /// here plus one).
    pub model_variables: Vec<ScalarVariable>,
    /// `ModelStructure`
    pub model_structure: ModelStructure,
}

/// `variableNamingConvention`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableNamingConvention {
    /// `flat`
    Flat,
    /// `structured`
    Structured,
}

/// The `ModelExchange` element; a flag absent in the document is `None` (FMI: false).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelExchange {
    /// `modelIdentifier`
    pub model_identifier: String,
    /// `needsExecutionTool`
    pub needs_execution_tool: Option<bool>,
    /// `completedIntegratorStepNotNeeded`
    pub completed_integrator_step_not_needed: Option<bool>,
    /// `canBeInstantiatedOnlyOncePerProcess`
    pub can_be_instantiated_only_once_per_process: Option<bool>,
    /// `canGetAndSetFMUstate`
    pub can_get_and_set_fmu_state: Option<bool>,
    /// `canSerializeFMUstate`
    pub can_serialize_fmu_state: Option<bool>,
    /// `providesDirectionalDerivative`
    pub provides_directional_derivative: Option<bool>,
}

/// The `CoSimulation` element; a flag absent in the document is `None` (FMI: false, order 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoSimulation {
    /// `modelIdentifier`: the binary is `binaries/<platform>/<modelIdentifier>.so`.
    pub model_identifier: String,
    /// `needsExecutionTool`
    pub needs_execution_tool: Option<bool>,
    /// `canHandleVariableCommunicationStepSize`
    pub can_handle_variable_communication_step_size: Option<bool>,
    /// `canInterpolateInputs`
    pub can_interpolate_inputs: Option<bool>,
    /// `maxOutputDerivativeOrder`
    pub max_output_derivative_order: Option<u32>,
    /// `canBeInstantiatedOnlyOncePerProcess`
    pub can_be_instantiated_only_once_per_process: Option<bool>,
    /// `canGetAndSetFMUstate`
    pub can_get_and_set_fmu_state: Option<bool>,
    /// `canSerializeFMUstate`
    pub can_serialize_fmu_state: Option<bool>,
    /// `providesDirectionalDerivative`
    pub provides_directional_derivative: Option<bool>,
}

/// One `Unit` of `UnitDefinitions`.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// `name`, e.g. `m/s2`
    pub name: String,
    /// `BaseUnit`, if given.
    pub base_unit: Option<BaseUnit>,
    /// The `DisplayUnit`s.
    pub display_units: Vec<DisplayUnit>,
}

/// `BaseUnit`: the SI exponents (absent: 0), `factor` and `offset` of a unit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BaseUnit {
    /// `kg`
    pub kg: Option<i32>,
    /// `m`
    pub m: Option<i32>,
    /// `s`
    pub s: Option<i32>,
    /// `A`
    pub a: Option<i32>,
    /// `K`
    pub k: Option<i32>,
    /// `mol`
    pub mol: Option<i32>,
    /// `cd`
    pub cd: Option<i32>,
    /// `rad`
    pub rad: Option<i32>,
    /// `factor`
    pub factor: Option<f64>,
    /// `offset`
    pub offset: Option<f64>,
}

/// `DisplayUnit`: shown value = `factor` * value + `offset`.
#[derive(Debug, Clone, PartialEq)]
pub struct DisplayUnit {
    /// `name`, e.g. `deg`
    pub name: String,
    /// `factor`
    pub factor: Option<f64>,
    /// `offset`
    pub offset: Option<f64>,
}

/// One `SimpleType` of `TypeDefinitions`.
#[derive(Debug, Clone, PartialEq)]
pub struct SimpleType {
    /// `name`
    pub name: String,
    /// `description`
    pub description: Option<String>,
    /// The type element.
    pub kind: SimpleTypeKind,
}

/// The type element of a [`SimpleType`].
#[derive(Debug, Clone, PartialEq)]
pub enum SimpleTypeKind {
    /// `Real`, with its `unit` and `displayUnit`.
    Real {
        /// `unit`
        unit: Option<String>,
        /// `displayUnit`
        display_unit: Option<String>,
    },
    /// `Integer`
    Integer,
    /// `Boolean`
    Boolean,
    /// `String`
    String,
    /// `Enumeration` with its items.
    Enumeration(Vec<EnumerationItem>),
}

/// One `Item` of an `Enumeration` type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumerationItem {
    /// `name`
    pub name: String,
    /// `value`
    pub value: i32,
    /// `description`
    pub description: Option<String>,
}

/// One `Category` of `LogCategories`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    /// `name`
    pub name: String,
    /// `description`
    pub description: Option<String>,
}

/// `DefaultExperiment`, each attribute optional.
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

/// One `Tool` of `VendorAnnotations`: its name and, for ours (`rotorcraft-fmi`), the coupling
/// annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// `name`
    pub name: String,
    /// Our `<Coupling getAfterSet=".." description=".."/>`, if present.
    pub coupling: Option<Coupling>,
}

/// Our vendor annotation: whether outputs are consistent after `fmi2SetReal` without a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coupling {
    /// `getAfterSet`
    pub get_after_set: bool,
    /// `description`
    pub description: Option<String>,
}

/// One `ScalarVariable`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarVariable {
    /// `name`
    pub name: String,
    /// `valueReference`
    pub value_reference: u32,
    /// `description`
    pub description: Option<String>,
    /// `causality`
    pub causality: Causality,
    /// `variability`
    pub variability: Variability,
    /// `initial`
    pub initial: Option<Initial>,
    /// The type element with its attributes.
    pub value: VariableType,
}

/// The type element of a [`ScalarVariable`].
#[derive(Debug, Clone, PartialEq)]
pub enum VariableType {
    /// `Real`
    Real(RealAttributes),
    /// `Integer`
    Integer(IntegerAttributes),
    /// `Boolean`
    Boolean {
        /// `declaredType`
        declared_type: Option<String>,
        /// `start`
        start: Option<bool>,
    },
    /// `String`
    String {
        /// `declaredType`
        declared_type: Option<String>,
        /// `start`
        start: Option<String>,
    },
    /// `Enumeration` (its `declaredType` is required)
    Enumeration(IntegerAttributes),
}

/// The attributes of a `Real` type element.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RealAttributes {
    /// `declaredType`
    pub declared_type: Option<String>,
    /// `unit`
    pub unit: Option<String>,
    /// `displayUnit`
    pub display_unit: Option<String>,
    /// `min`
    pub min: Option<f64>,
    /// `max`
    pub max: Option<f64>,
    /// `nominal`
    pub nominal: Option<f64>,
    /// `start`
    pub start: Option<f64>,
    /// `derivative`: the 1-based index of the variable this is the derivative of.
    pub derivative: Option<usize>,
}

/// The attributes of an `Integer` or `Enumeration` type element.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntegerAttributes {
    /// `declaredType`
    pub declared_type: Option<String>,
    /// `min`
    pub min: Option<i32>,
    /// `max`
    pub max: Option<i32>,
    /// `start`
    pub start: Option<i32>,
}

/// `ModelStructure`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelStructure {
    /// `Outputs`
    pub outputs: Vec<Unknown>,
    /// `Derivatives`
    pub derivatives: Vec<Unknown>,
    /// `InitialUnknowns`
    pub initial_unknowns: Vec<Unknown>,
}

/// One `Unknown` of the model structure.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unknown {
    /// `index`: 1-based, into `ModelVariables`.
    pub index: usize,
    /// `dependencies` (1-based indices); `None` when absent (FMI: depends on every known).
    pub dependencies: Option<Vec<usize>>,
    /// `dependenciesKind`, one per dependency.
    pub dependencies_kind: Option<Vec<DependencyKind>>,
}

/// One entry of `dependenciesKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DependencyKind {
    /// `dependent`
    Dependent,
    /// `constant`
    Constant,
    /// `fixed`
    Fixed,
    /// `tunable`
    Tunable,
    /// `discrete`
    Discrete,
}

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

/// An enumeration written as one attribute value: its text both ways.
macro_rules! attribute_enum {
    ($ty:ident { $($variant:ident => $text:literal),* $(,)? }) => {
        impl $ty {
            /// The attribute value as written in `modelDescription.xml`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text,)*
                }
            }

            /// The value of attribute text `s`, `None` if it is not one of the FMI 2.0 values.
            pub fn from_attribute(s: &str) -> Option<$ty> {
                match s {
                    $($text => Some($ty::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

attribute_enum!(Causality {
    Parameter => "parameter",
    CalculatedParameter => "calculatedParameter",
    Input => "input",
    Output => "output",
    Local => "local",
    Independent => "independent",
});
attribute_enum!(Variability {
    Constant => "constant",
    Fixed => "fixed",
    Tunable => "tunable",
    Discrete => "discrete",
    Continuous => "continuous",
});
attribute_enum!(Initial { Exact => "exact", Approx => "approx", Calculated => "calculated" });
attribute_enum!(VariableNamingConvention { Flat => "flat", Structured => "structured" });
attribute_enum!(DependencyKind {
    Dependent => "dependent",
    Constant => "constant",
    Fixed => "fixed",
    Tunable => "tunable",
    Discrete => "discrete",
});

impl ModelDescription {
    /// A description with the required attributes and nothing else.
    pub fn new(model_name: &str, guid: &str) -> ModelDescription {
        ModelDescription { model_name: model_name.to_string(), guid: guid.to_string(), ..Default::default() }
    }
}

/// The name of a [`ScalarVariable`]'s type element, without its attributes.
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
    /// `Enumeration` (set and got as an Integer)
    Enumeration,
}

attribute_enum!(VarType {
    Real => "Real",
    Integer => "Integer",
    Boolean => "Boolean",
    String => "String",
    Enumeration => "Enumeration",
});

impl VarType {
    /// The fmi2Get/Set family of the type (0 Real, 1 Integer and Enumeration, 2 Boolean,
    /// 3 String): value references are unique within a family only (FMI 2.0 section 2.2.7).
    pub fn family(self) -> u8 {
        match self {
            VarType::Real => 0,
            VarType::Integer | VarType::Enumeration => 1,
            VarType::Boolean => 2,
            VarType::String => 3,
        }
    }
}

impl VariableType {
    /// The name of the type element.
    pub fn var_type(&self) -> VarType {
        match self {
            VariableType::Real(_) => VarType::Real,
            VariableType::Integer(_) => VarType::Integer,
            VariableType::Boolean { .. } => VarType::Boolean,
            VariableType::String { .. } => VarType::String,
            VariableType::Enumeration(_) => VarType::Enumeration,
        }
    }

    /// The `start` attribute as the writer spells it, if any.
    pub fn start_text(&self) -> Option<String> {
        match self {
            VariableType::Real(r) => r.start.map(real_text),
            VariableType::Integer(i) | VariableType::Enumeration(i) => i.start.map(|s| s.to_string()),
            VariableType::Boolean { start, .. } => start.map(|s| s.to_string()),
            VariableType::String { start, .. } => start.clone(),
        }
    }
}

impl ModelDescription {
    /// The unit of variable `v`: its Real element's `unit`, else the `unit` of the Real type it
    /// declares (`declaredType`, the last `SimpleType` of that name); `None` for the other types.
    pub fn unit_of<'a>(&'a self, v: &'a ScalarVariable) -> Option<&'a str> {
        let VariableType::Real(r) = &v.value else { return None };
        if let Some(unit) = &r.unit {
            return Some(unit);
        }
        let declared = r.declared_type.as_deref()?;
        self.type_definitions.iter().rev().find(|t| t.name == declared).and_then(|t| match &t.kind {
            SimpleTypeKind::Real { unit, .. } => unit.as_deref(),
            _ => None,
        })
    }

    /// Whether our vendor annotation ([`TOOL_NAME`]) says outputs are consistent after
    /// `fmi2SetReal` without a step (the last `Coupling` of our tools; absent: false).
    pub fn get_after_set(&self) -> bool {
        let ours = self.vendor_annotations.iter().rev().filter(|t| t.name == TOOL_NAME);
        ours.filter_map(|t| t.coupling.as_ref()).next().is_some_and(|c| c.get_after_set)
    }
}

impl Unknown {
    /// An unknown at 1-based `index` with no `dependencies` attribute.
    pub fn at(index: usize) -> Unknown {
        Unknown { index, ..Unknown::default() }
    }
}
