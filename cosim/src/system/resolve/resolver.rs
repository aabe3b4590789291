//! The lookups of a resolution: instances and variables by name, patterns expanded, which input
//! is driven by what, and the names of causalities and types for messages.

use std::collections::HashMap;

use crate::import::model_description::{Causality, ScalarVariable, VarType};

use super::super::error::SystemError;
use super::super::names::{Pattern, closest, did_you_mean};
use super::{InstanceSpec, VarRef};

/// Human name of a causality, with its article.
pub(super) fn causality_name(causality: Causality) -> &'static str {
    match causality {
        Causality::Parameter => "a parameter",
        Causality::CalculatedParameter => "a calculated parameter",
        Causality::Input => "an input",
        Causality::Output => "an output",
        Causality::Local => "a local variable",
        Causality::Independent => "the independent variable",
    }
}

/// FMI name of a type.
pub(super) fn type_name(var_type: VarType) -> &'static str {
    match var_type {
        VarType::Real => "Real",
        VarType::Integer => "Integer",
        VarType::Boolean => "Boolean",
        VarType::String => "String",
        VarType::Enumeration => "Enumeration",
    }
}

/// Types that can be connected: equal, or Integer and Enumeration (both exchanged as integers).
pub(super) fn compatible(a: VarType, b: VarType) -> bool {
    let integral = |t| matches!(t, VarType::Integer | VarType::Enumeration);
    a == b || (integral(a) && integral(b))
}

/// Whether an output of type `from` can drive an input of type `to`: [`compatible`] types, or an
/// Integer driving a Real (the master passes its value at each communication point).
pub(super) fn connectable(from: VarType, to: VarType) -> bool {
    compatible(from, to) || (from == VarType::Integer && to == VarType::Real)
}

/// Who drives each input so far, to report double drives naming both places.
#[derive(Default)]
pub(super) struct Drivers(pub(super) HashMap<VarRef, String>);

impl Drivers {
    /// Records that `place` drives `input`, or names the earlier driver.
    pub(super) fn claim(
        &mut self,
        system: &Resolver,
        input: VarRef,
        place: String,
        field: &str,
    ) -> Result<(), SystemError> {
        if let Some(previous) = self.0.get(&input) {
            return Err(SystemError::new(
                field,
                format!("input '{}' is driven twice: by {previous} and by {place}", system.name(input)),
            ));
        }
        self.0.insert(input, place);
        Ok(())
    }
}

/// The instances resolved so far, with name lookups and messages.
pub(super) struct Resolver {
    pub(super) instances: Vec<InstanceSpec>,
}

impl Resolver {
    pub(super) fn instance(&self, name: &str, field: &str) -> Result<usize, SystemError> {
        self.instances
            .iter()
            .position(|i| i.name == name)
            .ok_or_else(|| SystemError::new(field, format!("unknown instance '{name}'")))
    }

    pub(super) fn variable(&self, r: VarRef) -> &ScalarVariable {
        &self.instances[r.instance].description.variables[r.variable]
    }

    pub(super) fn name(&self, r: VarRef) -> String {
        format!("{}.{}", self.instances[r.instance].name, self.variable(r).name)
    }

    /// The variable `name` of `instance`, or an "unknown variable" error at `field` suggesting
    /// the closest name (preferring variables of causality `preferred`); `context` is appended
    /// to the message.
    pub(super) fn lookup(
        &self,
        instance: usize,
        name: &str,
        preferred: Causality,
        field: &str,
        context: &str,
    ) -> Result<VarRef, SystemError> {
        let description = &self.instances[instance].description;
        if let Some(variable) = description.index_of(name) {
            return Ok(VarRef { instance, variable });
        }
        let suggestion =
            closest(name, description.variables.iter().map(|v| (v.name.as_str(), v.causality == preferred)));
        Err(SystemError::new(
            field,
            format!(
                "unknown variable '{name}' in instance '{}'{context}{}",
                self.instances[instance].name,
                did_you_mean(suggestion)
            ),
        ))
    }

    /// Variables of `instance` matched by `pattern` with causality `causality`, with the text
    /// the `*` matched, in model-description order.
    pub(super) fn matches<'a>(
        &'a self,
        instance: usize,
        pattern: Pattern<'_>,
        causality: Causality,
    ) -> Vec<(VarRef, &'a str)> {
        self.instances[instance]
            .description
            .variables
            .iter()
            .enumerate()
            .filter(|(_, v)| v.causality == causality)
            .filter_map(|(variable, v)| pattern.capture(&v.name).map(|c| (VarRef { instance, variable }, c)))
            .collect()
    }

    /// "matches no output of instance 'x'" plus what it does match, for an empty expansion.
    pub(super) fn no_match(&self, instance: usize, pattern: Pattern<'_>, text: &str, wanted: &str) -> String {
        let others: Vec<String> = self.instances[instance]
            .description
            .variables
            .iter()
            .filter(|v| pattern.capture(&v.name).is_some())
            .take(3)
            .map(|v| format!("'{}' ({})", v.name, causality_name(v.causality)))
            .collect();
        let also = if others.is_empty() { String::new() } else { format!("; it matches only {}", others.join(", ")) };
        format!("pattern '{text}' matches no {wanted} of instance '{}'{also}", self.instances[instance].name)
    }
}
