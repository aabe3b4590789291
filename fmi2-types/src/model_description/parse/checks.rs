//! The FMI 2.0 rules the parser checks: `start` values against their type, unique names,
//! aliases, the knowns an output may depend on.

use std::collections::{HashMap, HashSet};

use super::{Causality, DescriptionError, ModelDescription, ScalarVariable, VarType, xs_double};

/// Checks a `start` attribute against the type of its element (XML Schema lexical forms, as
/// FMI 2.0's schema declares them: xs:double, xs:int, xs:boolean); on error, what was
/// expected.
pub(super) fn check_start(var_type: VarType, text: &str) -> Result<(), &'static str> {
    let text = text.trim();
    let ok = match var_type {
        VarType::Real => xs_double(text).is_some(),
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

/// Variables sharing a value reference. FMI 2.0 (section 2.2.7) makes value references
/// unique per base type only: fmi2Get/SetReal, ...Integer (Integer and Enumeration),
/// ...Boolean and ...String each have their own, so a Real and an Integer with the same number
/// are two different variables. Within one base type, variables with the same value reference
/// are aliases, "identical values": allowed, except two Reals with different `unit`s, which
/// cannot both describe one number (refused, naming both).
pub(super) fn check_aliases(doc: &ModelDescription, lines: &[usize]) -> Result<(), DescriptionError> {
    let mut first: HashMap<(u8, u32), usize> = HashMap::new();
    for (k, v) in doc.model_variables.iter().enumerate() {
        let key = (v.value.var_type().family(), v.value_reference);
        let Some(&a) = first.get(&key) else {
            first.insert(key, k);
            continue;
        };
        let other = &doc.model_variables[a];
        if let (Some(u1), Some(u2)) = (doc.unit_of(other), doc.unit_of(v))
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

/// Refuses two variables of one name.
pub(super) fn check_unique_names(variables: &[ScalarVariable], lines: &[usize]) -> Result<(), DescriptionError> {
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

/// Refuses dependency `known` of output `output` unless FMI 2.0 allows it: for `Outputs`
/// (section 2.2.8) the knowns are inputs, continuous-time states and the independent variable;
/// never the output itself, a parameter, a constant, another output or a local variable.
pub(super) fn check_known(
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
