//! The elements and attributes an importer does not use, read leniently: a value that is not
//! valid FMI is left out (`None`) rather than refused, so the importer accepts what it accepted
//! before the parser read them.

use super::super as schema;
use super::xml::{Attrs, at};
use super::{ROOT, VarType};

/// `true`/`1`, `false`/`0`, else `None`.
fn flag(a: &Attrs, name: &str) -> Option<bool> {
    match a.get(name).map(str::trim) {
        Some("true" | "1") => Some(true),
        Some("false" | "0") => Some(false),
        _ => None,
    }
}

/// An xs:double, `INF`, `-INF` or `NaN`, else `None`.
fn real(a: &Attrs, name: &str) -> Option<f64> {
    schema::xs_double(a.get(name)?)
}

/// An xs:int (a leading `+` allowed), else `None`.
fn integer(a: &Attrs, name: &str) -> Option<i32> {
    let text = a.get(name)?.trim();
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

/// An unsigned number, else `None`.
fn unsigned<T: std::str::FromStr>(a: &Attrs, name: &str) -> Option<T> {
    a.get(name)?.trim().parse().ok()
}

fn text(a: &Attrs, name: &str) -> Option<String> {
    a.get(name).map(str::to_string)
}

/// The attributes of the document element.
pub(super) fn root(doc: &mut schema::ModelDescription, a: &Attrs) {
    doc.model_name = a.get("modelName").unwrap_or_default().to_string();
    doc.guid = a.get("guid").unwrap_or_default().to_string();
    doc.description = text(a, "description");
    doc.author = text(a, "author");
    doc.version = text(a, "version");
    doc.license = text(a, "license");
    doc.generation_tool = text(a, "generationTool");
    doc.variable_naming_convention =
        a.get("variableNamingConvention").and_then(schema::VariableNamingConvention::from_attribute);
    doc.number_of_event_indicators = unsigned(a, "numberOfEventIndicators");
}

/// The flags of the `ModelExchange` element that the importer does not check, read leniently
/// (a value that is not a boolean is left out).
pub(super) fn model_exchange_flags(a: &Attrs) -> schema::ModelExchange {
    schema::ModelExchange {
        model_identifier: String::new(),
        needs_execution_tool: flag(a, "needsExecutionTool"),
        completed_integrator_step_not_needed: flag(a, "completedIntegratorStepNotNeeded"),
        can_be_instantiated_only_once_per_process: flag(a, "canBeInstantiatedOnlyOncePerProcess"),
        can_get_and_set_fmu_state: flag(a, "canGetAndSetFMUstate"),
        can_serialize_fmu_state: flag(a, "canSerializeFMUstate"),
        provides_directional_derivative: flag(a, "providesDirectionalDerivative"),
    }
}

/// Unit and type definitions, log categories, vendor annotations (other than our `Coupling`) and
/// the initial unknowns: element `name` below the open elements `stack`.
pub(super) fn element(doc: &mut schema::ModelDescription, stack: &[String], name: &str, a: &Attrs) {
    if at(stack, &[ROOT, "UnitDefinitions"]) && name == "Unit" {
        let name = text(a, "name").unwrap_or_default();
        doc.unit_definitions.push(schema::Unit { name, base_unit: None, display_units: Vec::new() });
    } else if at(stack, &[ROOT, "UnitDefinitions", "Unit"]) {
        unit_child(doc, name, a);
    } else if at(stack, &[ROOT, "TypeDefinitions"]) && name == "SimpleType" {
        let name = text(a, "name").unwrap_or_default();
        // The type element that follows says which kind; until then none has items.
        let kind = schema::SimpleTypeKind::Enumeration(Vec::new());
        doc.type_definitions.push(schema::SimpleType { name, description: text(a, "description"), kind });
    } else if at(stack, &[ROOT, "TypeDefinitions", "SimpleType"]) {
        simple_type_kind(doc, name, a);
    } else if at(stack, &[ROOT, "TypeDefinitions", "SimpleType", "Enumeration"]) && name == "Item" {
        if let Some(schema::SimpleType { kind: schema::SimpleTypeKind::Enumeration(items), .. }) =
            doc.type_definitions.last_mut()
            && let Some(value) = integer(a, "value")
        {
            let item_name = text(a, "name").unwrap_or_default();
            items.push(schema::EnumerationItem { name: item_name, value, description: text(a, "description") });
        }
    } else if at(stack, &[ROOT, "LogCategories"]) && name == "Category" {
        let name = text(a, "name").unwrap_or_default();
        doc.log_categories.push(schema::Category { name, description: text(a, "description") });
    } else if at(stack, &[ROOT, "VendorAnnotations"]) && name == "Tool" {
        doc.vendor_annotations.push(schema::Tool { name: text(a, "name").unwrap_or_default(), coupling: None });
    } else if at(stack, &[ROOT, "VendorAnnotations", "Tool"]) && name == "Coupling" {
        if let Some(tool) = doc.vendor_annotations.last_mut() {
            let get_after_set = flag(a, "getAfterSet").unwrap_or(false);
            tool.coupling = Some(schema::Coupling { get_after_set, description: text(a, "description") });
        }
    } else if at(stack, &[ROOT, "ModelStructure", "InitialUnknowns"])
        && name == "Unknown"
        && let Some(index) = unsigned(a, "index")
    {
        doc.model_structure.initial_unknowns.push(unknown(index, a));
    }
}

fn unit_child(doc: &mut schema::ModelDescription, name: &str, a: &Attrs) {
    let Some(unit) = doc.unit_definitions.last_mut() else { return };
    match name {
        "BaseUnit" => {
            // Read leniently: a value that is not of its type is left out.
            let mut base = schema::BaseUnit::default();
            for (name, text) in a.iter() {
                let _ = base.set_attribute(name, text);
            }
            unit.base_unit = Some(base);
        }
        "DisplayUnit" => unit.display_units.push(schema::DisplayUnit {
            name: text(a, "name").unwrap_or_default(),
            factor: real(a, "factor"),
            offset: real(a, "offset"),
        }),
        _ => {}
    }
}

fn simple_type_kind(doc: &mut schema::ModelDescription, name: &str, a: &Attrs) {
    let Some(simple_type) = doc.type_definitions.last_mut() else { return };
    simple_type.kind = match name {
        "Real" => schema::SimpleTypeKind::Real { unit: text(a, "unit"), display_unit: text(a, "displayUnit") },
        "Integer" => schema::SimpleTypeKind::Integer,
        "Boolean" => schema::SimpleTypeKind::Boolean,
        "String" => schema::SimpleTypeKind::String,
        "Enumeration" => schema::SimpleTypeKind::Enumeration(Vec::new()),
        _ => return,
    };
}

/// An `Unknown` at `index` (read by the caller), its `dependencies` and `dependenciesKind`
/// read leniently.
pub(super) fn unknown(index: usize, a: &Attrs) -> schema::Unknown {
    let dependencies =
        a.get("dependencies").map(|list| list.split_ascii_whitespace().filter_map(|d| d.parse().ok()).collect());
    let dependencies_kind = a
        .get("dependenciesKind")
        .map(|list| list.split_ascii_whitespace().filter_map(schema::DependencyKind::from_attribute).collect());
    schema::Unknown { index, dependencies, dependencies_kind }
}

/// The type element `var_type` of a `ScalarVariable` with its attributes.
pub(super) fn variable_type(var_type: VarType, a: &Attrs) -> schema::VariableType {
    let declared_type = text(a, "declaredType");
    let integer_attributes = || schema::IntegerAttributes {
        declared_type: declared_type.clone(),
        min: integer(a, "min"),
        max: integer(a, "max"),
        start: integer(a, "start"),
    };
    match var_type {
        VarType::Real => schema::VariableType::Real(schema::RealAttributes {
            declared_type: declared_type.clone(),
            unit: text(a, "unit"),
            display_unit: text(a, "displayUnit"),
            min: real(a, "min"),
            max: real(a, "max"),
            nominal: real(a, "nominal"),
            start: real(a, "start"),
            derivative: unsigned(a, "derivative"),
        }),
        VarType::Integer => schema::VariableType::Integer(integer_attributes()),
        VarType::Enumeration => schema::VariableType::Enumeration(integer_attributes()),
        VarType::Boolean => schema::VariableType::Boolean { declared_type, start: flag(a, "start") },
        VarType::String => schema::VariableType::String { declared_type, start: text(a, "start") },
    }
}
