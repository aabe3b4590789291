//! One connection of the description expanded and checked (patterns, causalities, types, units),
//! and a parameter's value checked against its variable.

use crate::import::model_description::{Causality, ScalarVariable, VarType};

use super::super::description::{ConnectionSpec, ParameterSpec, SystemDescription};
use super::super::error::SystemError;
use super::super::names::Pattern;
use super::resolver::{Drivers, Resolver, causality_name, connectable, type_name};
use super::{Connection, ParameterValue, VarRef};

/// Expands and checks connection `i`, appending to `connections`.
pub(super) fn resolve_connection(
    resolver: &Resolver,
    drivers: &mut Drivers,
    connections: &mut Vec<Connection>,
    i: usize,
    spec: &ConnectionSpec,
    description: &SystemDescription,
) -> Result<(), SystemError> {
    let (from_field, to_field) = (format!("connections[{i}].from"), format!("connections[{i}].to"));
    let from = description.reference(&spec.from, &from_field)?;
    let to = description.reference(&spec.to, &to_field)?;
    let (from_instance, to_instance) =
        (resolver.instance(from.instance, &from_field)?, resolver.instance(to.instance, &to_field)?);
    let (from_pattern, to_pattern) = (Pattern::new(from.variable), Pattern::new(to.variable));
    let sources: Vec<(VarRef, &str)> = match from_pattern {
        Pattern::Exact(name) => {
            let r = resolver.lookup(from_instance, name, Causality::Output, &from_field, "")?;
            let variable = resolver.variable(r);
            if variable.causality != Causality::Output {
                return Err(SystemError::new(
                    &from_field,
                    format!("'{}' is {}, not an output", spec.from, causality_name(variable.causality)),
                ));
            }
            vec![(r, "")]
        }
        pattern => {
            let found = resolver.matches(from_instance, pattern, Causality::Output);
            if found.is_empty() {
                return Err(SystemError::new(
                    &from_field,
                    resolver.no_match(from_instance, pattern, &spec.from, "output"),
                ));
            }
            found
        }
    };
    let wildcard = matches!(from_pattern, Pattern::Wildcard { .. });
    for (from, captured) in sources {
        let context = if wildcard {
            format!(", the target of '{}' matched by '{}'", resolver.name(from), spec.from)
        } else {
            String::new()
        };
        let to = resolver.lookup(to_instance, &to_pattern.fill(captured), Causality::Input, &to_field, &context)?;
        let (source, target) = (resolver.variable(from), resolver.variable(to));
        if target.causality != Causality::Input {
            return Err(SystemError::new(
                &to_field,
                format!("'{}' is {}, not an input{context}", resolver.name(to), causality_name(target.causality)),
            ));
        }
        if !connectable(source.var_type, target.var_type) {
            return Err(SystemError::new(
                format!("connections[{i}]"),
                format!(
                    "type mismatch: '{}' is {} but '{}' is {}",
                    resolver.name(from),
                    type_name(source.var_type),
                    resolver.name(to),
                    type_name(target.var_type)
                ),
            ));
        }
        drivers.claim(resolver, to, format!("connections[{i}] (from '{}')", resolver.name(from)), &to_field)?;
        connections.push(Connection { from, to });
    }
    Ok(())
}

/// `value` as the type of `variable`, which must be a parameter or an input.
pub(super) fn parameter_value(variable: &ScalarVariable, value: &ParameterSpec) -> Result<ParameterValue, String> {
    if !matches!(variable.causality, Causality::Parameter | Causality::Input) {
        return Err(format!(
            "'{}' is {}; only parameters and the start values of inputs can be set",
            variable.name,
            causality_name(variable.causality)
        ));
    }
    if variable.variability == crate::import::model_description::Variability::Constant {
        return Err(format!("'{}' is a constant and cannot be set", variable.name));
    }
    let shown = match value {
        ParameterSpec::Number(x) => x.to_string(),
        ParameterSpec::Boolean(b) => b.to_string(),
        ParameterSpec::Text(text) => format!("{text:?}"),
    };
    let wrong = |expected: &str| {
        format!("'{}' is {} and needs {expected}, got {shown}", variable.name, type_name(variable.var_type))
    };
    match (variable.var_type, value) {
        (VarType::String, ParameterSpec::Text(text)) if text.contains('\0') => {
            Err(format!("'{}' is a String and cannot hold a NUL character", variable.name))
        }
        (VarType::String, ParameterSpec::Text(text)) => Ok(ParameterValue::String(text.clone())),
        (VarType::String, _) => Err(format!("{} (text in double quotes: \"{shown}\")", wrong("a string"))),
        (VarType::Real, &ParameterSpec::Number(x)) if x.is_finite() => Ok(ParameterValue::Real(x)),
        (VarType::Real, _) => Err(wrong("a finite number")),
        (VarType::Integer | VarType::Enumeration, &ParameterSpec::Number(x))
            if x.fract() == 0.0 && x >= f64::from(i32::MIN) && x <= f64::from(i32::MAX) =>
        {
            Ok(ParameterValue::Integer(x as i32))
        }
        (VarType::Integer | VarType::Enumeration, &ParameterSpec::Number(x)) if x.fract() == 0.0 => {
            Err(wrong("an integer in the 32-bit range"))
        }
        (VarType::Integer | VarType::Enumeration, _) => Err(wrong("an integral number")),
        (VarType::Boolean, &ParameterSpec::Boolean(b)) => Ok(ParameterValue::Boolean(b)),
        (VarType::Boolean, _) => Err(wrong("true or false")),
    }
}
