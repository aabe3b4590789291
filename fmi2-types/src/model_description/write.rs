//! The writer: [`ModelDescription`] to `modelDescription.xml` text, two-space indented, one
//! element per line (a `Unit` with its base and display units on one), each `ScalarVariable`
//! after an `<!-- index N -->` comment, attributes in the order of the FMI 2.0 schema except
//! a variable's `description`, written last.

use std::fmt::Write as _;

use super::*;

/// XML-escaped text: `<`, `>`, `&`, `'`, `"` and carriage return as entities (the bytes
/// `quick_xml::escape::escape` gives).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    out
}

/// Real `v` as the shortest text that reads back as the same `f64`; `INF`, `-INF` and `NaN` as
/// XML Schema spells them.
pub fn real_text(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-INF" } else { "INF" }.to_string()
    } else {
        format!("{v:?}")
    }
}

/// The attributes of one element, each ` name="value"`, appended as they are given.
#[derive(Default)]
struct Attributes(String);

impl Attributes {
    /// Text `value`, escaped.
    fn text(mut self, name: &str, value: Option<&str>) -> Self {
        if let Some(value) = value {
            let _ = write!(self.0, " {name}=\"{}\"", escape(value));
        }
        self
    }

    /// `value` as Rust displays it (integers, `true`/`false`).
    fn display(mut self, name: &str, value: Option<impl std::fmt::Display>) -> Self {
        if let Some(value) = value {
            let _ = write!(self.0, " {name}=\"{value}\"");
        }
        self
    }

    /// Real `value` as the shortest text that reads back as the same `f64` (`INF`, `-INF`, `NaN`
    /// as XML Schema spells them).
    fn real(mut self, name: &str, value: Option<f64>) -> Self {
        if let Some(v) = value {
            let _ = write!(self.0, " {name}=\"{}\"", real_text(v));
        }
        self
    }

    /// The four flags that end both `ModelExchange` and `CoSimulation`, in the schema's order:
    /// `[canBeInstantiatedOnlyOncePerProcess, canGetAndSetFMUstate]`,
    /// `[canSerializeFMUstate, providesDirectionalDerivative]`.
    fn common_flags(self, [once, get_set]: [Option<bool>; 2], [serialize, derivative]: [Option<bool>; 2]) -> Self {
        self.display("canBeInstantiatedOnlyOncePerProcess", once)
            .display("canGetAndSetFMUstate", get_set)
            .display("canSerializeFMUstate", serialize)
            .display("providesDirectionalDerivative", derivative)
    }

    /// Indices separated by spaces.
    fn list<T>(mut self, name: &str, values: Option<&[T]>, item: impl Fn(&T) -> String) -> Self {
        if let Some(values) = values {
            let items: Vec<String> = values.iter().map(item).collect();
            let _ = write!(self.0, " {name}=\"{}\"", items.join(" "));
        }
        self
    }
}

impl ModelDescription {
    /// The `modelDescription.xml` text of this description.
    pub fn to_xml(&self) -> String {
        let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.write_root(&mut x);
        self.write_interfaces(&mut x);
        write_units(&mut x, &self.unit_definitions);
        write_types(&mut x, &self.type_definitions);
        self.write_categories_experiment_annotations(&mut x);
        x.push_str("  <ModelVariables>\n");
        for (k, v) in self.model_variables.iter().enumerate() {
            write_variable(&mut x, k + 1, v);
        }
        x.push_str("  </ModelVariables>\n");
        write_structure(&mut x, &self.model_structure);
        x.push_str("</fmiModelDescription>\n");
        x
    }

    fn write_root(&self, x: &mut String) {
        let a = Attributes::default()
            .text("fmiVersion", Some("2.0"))
            .text("modelName", Some(&self.model_name))
            .text("guid", Some(&self.guid))
            .text("description", self.description.as_deref())
            .text("author", self.author.as_deref())
            .text("version", self.version.as_deref())
            .text("license", self.license.as_deref())
            .text("generationTool", self.generation_tool.as_deref())
            .text("variableNamingConvention", self.variable_naming_convention.map(|c| c.as_str()))
            .display("numberOfEventIndicators", self.number_of_event_indicators);
        let _ = writeln!(x, "<fmiModelDescription{}>", a.0);
    }

    fn write_interfaces(&self, x: &mut String) {
        if let Some(me) = &self.model_exchange {
            let a = Attributes::default()
                .text("modelIdentifier", Some(&me.model_identifier))
                .display("needsExecutionTool", me.needs_execution_tool)
                .display("completedIntegratorStepNotNeeded", me.completed_integrator_step_not_needed);
            let flags = [me.can_be_instantiated_only_once_per_process, me.can_get_and_set_fmu_state];
            let a = a.common_flags(flags, [me.can_serialize_fmu_state, me.provides_directional_derivative]);
            let _ = writeln!(x, "  <ModelExchange{}/>", a.0);
        }
        if let Some(cs) = &self.co_simulation {
            let a = Attributes::default()
                .text("modelIdentifier", Some(&cs.model_identifier))
                .display("needsExecutionTool", cs.needs_execution_tool)
                .display("canHandleVariableCommunicationStepSize", cs.can_handle_variable_communication_step_size)
                .display("canInterpolateInputs", cs.can_interpolate_inputs)
                .display("maxOutputDerivativeOrder", cs.max_output_derivative_order);
            let flags = [cs.can_be_instantiated_only_once_per_process, cs.can_get_and_set_fmu_state];
            let a = a.common_flags(flags, [cs.can_serialize_fmu_state, cs.provides_directional_derivative]);
            let _ = writeln!(x, "  <CoSimulation{}/>", a.0);
        }
    }

    fn write_categories_experiment_annotations(&self, x: &mut String) {
        write_list(x, "LogCategories", &self.log_categories, |x, c| {
            let a = Attributes::default().text("name", Some(&c.name)).text("description", c.description.as_deref());
            let _ = writeln!(x, "    <Category{}/>", a.0);
        });
        if let Some(e) = &self.default_experiment {
            let a = Attributes::default()
                .real("startTime", e.start_time)
                .real("stopTime", e.stop_time)
                .real("tolerance", e.tolerance)
                .real("stepSize", e.step_size);
            let _ = writeln!(x, "  <DefaultExperiment{}/>", a.0);
        }
        write_list(x, "VendorAnnotations", &self.vendor_annotations, |x, tool| {
            let name = Attributes::default().text("name", Some(&tool.name));
            match &tool.coupling {
                Some(c) => {
                    let a = Attributes::default()
                        .display("getAfterSet", Some(c.get_after_set))
                        .text("description", c.description.as_deref());
                    let _ = writeln!(x, "    <Tool{}>\n      <Coupling{}/>\n    </Tool>", name.0, a.0);
                }
                None => {
                    let _ = writeln!(x, "    <Tool{}/>", name.0);
                }
            }
        });
    }
}

/// `UnitDefinitions`, one `Unit` a line.
fn write_units(x: &mut String, units: &[Unit]) {
    write_list(x, "UnitDefinitions", units, |x, u| {
        let _ = write!(x, "    <Unit{}>", Attributes::default().text("name", Some(&u.name)).0);
        if let Some(b) = &u.base_unit {
            let exponents = b.exponents().into_iter().fold(Attributes::default(), |a, (name, e)| a.display(name, e));
            let a = exponents.real("factor", b.factor).real("offset", b.offset);
            let _ = write!(x, "<BaseUnit{}/>", a.0);
        }
        for d in &u.display_units {
            let a = Attributes::default().text("name", Some(&d.name)).real("factor", d.factor).real("offset", d.offset);
            let _ = write!(x, "<DisplayUnit{}/>", a.0);
        }
        x.push_str("</Unit>\n");
    });
}

/// `<name>`, each of `items` written by `item`, `</name>`: a child list of the document element,
/// left out when there are no items.
fn write_list<T>(x: &mut String, name: &str, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(x, "  <{name}>");
    for i in items {
        item(x, i);
    }
    let _ = writeln!(x, "  </{name}>");
}

/// `TypeDefinitions`.
fn write_types(x: &mut String, types: &[SimpleType]) {
    write_list(x, "TypeDefinitions", types, |x, t| {
        let a = Attributes::default().text("name", Some(&t.name)).text("description", t.description.as_deref());
        let _ = writeln!(x, "    <SimpleType{}>", a.0);
        match &t.kind {
            SimpleTypeKind::Real { unit, display_unit } => {
                let a =
                    Attributes::default().text("unit", unit.as_deref()).text("displayUnit", display_unit.as_deref());
                let _ = writeln!(x, "      <Real{}/>", a.0);
            }
            SimpleTypeKind::Integer => x.push_str("      <Integer/>\n"),
            SimpleTypeKind::Boolean => x.push_str("      <Boolean/>\n"),
            SimpleTypeKind::String => x.push_str("      <String/>\n"),
            SimpleTypeKind::Enumeration(items) => {
                x.push_str("      <Enumeration>\n");
                for item in items {
                    let a = Attributes::default()
                        .text("name", Some(&item.name))
                        .display("value", Some(item.value))
                        .text("description", item.description.as_deref());
                    let _ = writeln!(x, "        <Item{}/>", a.0);
                }
                x.push_str("      </Enumeration>\n");
            }
        }
        x.push_str("    </SimpleType>\n");
    });
}

/// One `ScalarVariable` at 1-based `index`, after its index comment.
fn write_variable(x: &mut String, index: usize, v: &ScalarVariable) {
    let a = Attributes::default()
        .text("name", Some(&v.name))
        .display("valueReference", Some(v.value_reference))
        .text("causality", Some(v.causality.as_str()))
        .text("variability", Some(v.variability.as_str()))
        .text("initial", v.initial.map(Initial::as_str))
        .text("description", v.description.as_deref());
    let _ = writeln!(x, "    <!-- index {index} -->\n    <ScalarVariable{}>", a.0);
    let (element, a) = match &v.value {
        VariableType::Real(r) => (
            "Real",
            Attributes::default()
                .text("declaredType", r.declared_type.as_deref())
                .text("unit", r.unit.as_deref())
                .text("displayUnit", r.display_unit.as_deref())
                .real("min", r.min)
                .real("max", r.max)
                .real("nominal", r.nominal)
                .real("start", r.start)
                .display("derivative", r.derivative),
        ),
        VariableType::Integer(i) => ("Integer", integer_attributes(i)),
        VariableType::Enumeration(i) => ("Enumeration", integer_attributes(i)),
        VariableType::Boolean { declared_type, start } => {
            ("Boolean", Attributes::default().text("declaredType", declared_type.as_deref()).display("start", *start))
        }
        VariableType::String { declared_type, start } => (
            "String",
            Attributes::default().text("declaredType", declared_type.as_deref()).text("start", start.as_deref()),
        ),
    };
    let _ = writeln!(x, "      <{element}{}/>\n    </ScalarVariable>", a.0);
}

fn integer_attributes(i: &IntegerAttributes) -> Attributes {
    Attributes::default()
        .text("declaredType", i.declared_type.as_deref())
        .display("min", i.min)
        .display("max", i.max)
        .display("start", i.start)
}

/// `ModelStructure` (always written, its lists only when not empty).
fn write_structure(x: &mut String, s: &ModelStructure) {
    x.push_str("  <ModelStructure>\n");
    for (element, unknowns) in
        [("Outputs", &s.outputs), ("Derivatives", &s.derivatives), ("InitialUnknowns", &s.initial_unknowns)]
    {
        if unknowns.is_empty() {
            continue;
        }
        let _ = writeln!(x, "    <{element}>");
        for u in unknowns {
            let a = Attributes::default()
                .display("index", Some(u.index))
                .list("dependencies", u.dependencies.as_deref(), |d| d.to_string())
                .list("dependenciesKind", u.dependencies_kind.as_deref(), |k| k.as_str().to_string());
            let _ = writeln!(x, "      <Unknown{}/>", a.0);
        }
        let _ = writeln!(x, "    </{element}>");
    }
    x.push_str("  </ModelStructure>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The writer's escaping gives the bytes of quick-xml's, which wrote our descriptions before.
    #[test]
    fn escape_matches_quick_xml() {
        for text in ["plain", "a < b > c & 'd' \"e\"", "line\r\nnext\ttab", "ΔT [°C] <&>", ""] {
            assert_eq!(escape(text), quick_xml::escape::escape(text));
        }
    }

    /// Reals that are not finite are spelled as XML Schema's xs:double spells them.
    #[test]
    fn infinite_and_nan_reals_are_xml_schema_doubles() {
        let a = Attributes::default()
            .real("min", Some(f64::NEG_INFINITY))
            .real("max", Some(f64::INFINITY))
            .real("nominal", Some(f64::NAN))
            .real("start", Some(0.5));
        assert_eq!(a.0, r#" min="-INF" max="INF" nominal="NaN" start="0.5""#);
    }
}
