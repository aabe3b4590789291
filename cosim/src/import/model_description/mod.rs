//! The importer's view of an FMI 2.0 `modelDescription.xml`, derived in one place
//! ([`ModelDescription::from_document`]) from the document in the types of the one FMI 2.0
//! schema ([`schema`]), which our FMUs and the system FMU write and `fmi2-types` parses (its
//! `parse` feature) with the checks an importer needs. The view fills in what the importer asks
//! for often: 0-based indices, each Real's unit (from its declared type if need be), the
//! continuous states, our vendor annotation; and it refuses what is not Co-Simulation.

pub use fmi2_types::model_description::{
    self as schema, Causality, CoSimulation, DefaultExperiment, DescriptionError, Initial, ModelExchange, VarType,
    Variability,
};

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
    /// `start` of the type element as the schema's writer spells it, if any
    /// ([`schema::VariableType::start_text`])
    pub start: Option<String>,
    /// `unit` of a Real, if any, from its `declaredType` when the element has none
    /// ([`schema::ModelDescription::unit_of`])
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

/// The importer's view of the model description of an FMI 2.0 Co-Simulation FMU.
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

impl ModelDescription {
    /// Parses a `modelDescription.xml` from its bytes (UTF-8, an optional byte-order mark is
    /// skipped) into the importer's view.
    pub fn from_bytes(bytes: &[u8]) -> Result<ModelDescription, DescriptionError> {
        ModelDescription::from_document(schema::ModelDescription::from_bytes(bytes)?)
    }

    /// Parses a `modelDescription.xml` document into the importer's view: the checks of
    /// [`schema::ModelDescription::parse`], then [`ModelDescription::from_document`].
    pub fn parse(xml: &str) -> Result<ModelDescription, DescriptionError> {
        ModelDescription::from_document(schema::ModelDescription::parse(xml)?)
    }

    /// The importer's view of a parsed document: refuses one without a `CoSimulation` element;
    /// indices become 0-based, each Real takes its declared type's unit when it has none, the
    /// continuous states are the `Derivatives` unknowns in order with the variable each is the
    /// derivative of. Indices out of range (a document not from the parser) are left out.
    pub fn from_document(doc: schema::ModelDescription) -> Result<ModelDescription, DescriptionError> {
        let Some(co_simulation) = doc.co_simulation.clone() else {
            return Err(DescriptionError::NotCoSimulation { model_exchange: doc.model_exchange.is_some() });
        };
        let zero_based = |i: usize| i.checked_sub(1).filter(|&i| i < doc.model_variables.len());
        let outputs = doc.model_structure.outputs.iter().filter_map(|u| {
            let dependencies = u.dependencies.as_ref().map(|d| d.iter().filter_map(|&i| zero_based(i)).collect());
            Some(OutputDependency { variable: zero_based(u.index)?, dependencies })
        });
        let continuous_states = doc.model_structure.derivatives.iter().filter_map(|u| {
            let derivative = zero_based(u.index)?;
            let schema::VariableType::Real(real) = &doc.model_variables[derivative].value else { return None };
            Some(ContinuousState { state: zero_based(real.derivative?)?, derivative })
        });
        let variables = doc.model_variables.iter().map(|v| ScalarVariable {
            name: v.name.clone(),
            value_reference: v.value_reference,
            causality: v.causality,
            variability: v.variability,
            initial: v.initial,
            var_type: v.value.var_type(),
            start: v.value.start_text(),
            unit: doc.unit_of(v).map(str::to_string),
            description: v.description.clone(),
        });
        Ok(ModelDescription {
            continuous_states: continuous_states.collect(),
            outputs: outputs.collect(),
            variables: variables.collect(),
            fmi_version: "2.0".to_string(),
            get_after_set: doc.get_after_set(),
            default_experiment: doc.default_experiment.unwrap_or_default(),
            model_exchange: doc.model_exchange,
            model_name: doc.model_name,
            guid: doc.guid,
            description: doc.description,
            generation_tool: doc.generation_tool,
            co_simulation,
        })
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
            let key = (v.var_type.family(), v.value_reference);
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

#[cfg(test)]
mod tests;
