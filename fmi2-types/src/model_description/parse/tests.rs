//! The parser's checks and errors: each refusal names what is wrong and where.

use super::*;

/// A description with root attributes `root`, `interface` (the `CoSimulation` element or what
/// stands in its place) on line 3 and `variables` from line 5, then `structure`.
fn doc(root: &str, interface: &str, variables: &str, structure: &str) -> String {
    let mut text = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription {root}>\n  {interface}\n");
    text += &format!("  <ModelVariables>\n{variables}\n  </ModelVariables>\n");
    text + &format!("  <ModelStructure>\n{structure}\n  </ModelStructure>\n</fmiModelDescription>\n")
}

fn parse(xml: &str) -> Result<ModelDescription, DescriptionError> {
    ModelDescription::parse(xml)
}

const ROOT: &str = r#"fmiVersion="2.0" modelName="M" guid="{1}" generationTool="test""#;
const CS: &str = r#"<CoSimulation modelIdentifier="M"/>"#;
const VARS: &str = r#"
    <ScalarVariable name="u" valueReference="1" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="k" valueReference="2" causality="parameter" variability="fixed"><Real start="2"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="3" causality="output"><Real/></ScalarVariable>"#;

#[test]
fn dependency_out_of_range_is_refused() {
    let structure = r#"<Outputs><Unknown index="3" dependencies="1 4"/></Outputs>"#;
    let err = parse(&doc(ROOT, CS, VARS, structure)).unwrap_err();
    let DescriptionError::Invalid { line, message } = &err else { panic!("{err:?}") };
    assert!(message.contains("dependency of output 3 4 is not a ScalarVariable index (1..=3)"), "{message}");
    assert_eq!(*line, 11);
    let structure = r#"<Outputs><Unknown index="0"/></Outputs>"#;
    assert!(matches!(parse(&doc(ROOT, CS, VARS, structure)), Err(DescriptionError::Invalid { .. })));
    let structure = r#"<Outputs><Unknown index="3" dependencies="1 x"/></Outputs>"#;
    let err = parse(&doc(ROOT, CS, VARS, structure)).unwrap_err();
    assert!(err.to_string().contains("dependency \"x\""), "{err}");
}

#[test]
fn fmi3_is_refused() {
    let root = r#"fmiVersion="3.0" modelName="M" instantiationToken="{1}""#;
    let err = parse(&doc(root, CS, "", "")).unwrap_err();
    assert_eq!(err, DescriptionError::UnsupportedVersion { version: "3.0".into() });
    assert_eq!(err.to_string(), "modelDescription.xml is FMI 3.0, only FMI 2.0 is supported");
    let err = parse(&doc(r#"fmiVersion="1.0" modelName="M" guid="g""#, "", "", "")).unwrap_err();
    assert_eq!(err, DescriptionError::UnsupportedVersion { version: "1.0".into() });
    let err = parse(&doc(r#"modelName="M" guid="g""#, CS, "", "")).unwrap_err();
    assert!(matches!(err, DescriptionError::UnsupportedVersion { .. }), "{err:?}");
}

#[test]
fn missing_attributes_name_element_and_line() {
    let err = parse(&doc(r#"fmiVersion="2.0" modelName="M""#, CS, VARS, "")).unwrap_err();
    assert_eq!(
        err,
        DescriptionError::Invalid { line: 2, message: "<fmiModelDescription> has no guid attribute".into() }
    );
    let err = parse(&doc(ROOT, "<CoSimulation/>", VARS, "")).unwrap_err();
    assert_eq!(
        err,
        DescriptionError::Invalid { line: 3, message: "<CoSimulation> has no modelIdentifier attribute".into() }
    );
    let vars = r#"<ScalarVariable name="x" causality="input"><Real/></ScalarVariable>"#;
    let err = parse(&doc(ROOT, CS, vars, "")).unwrap_err();
    assert_eq!(err.to_string(), "modelDescription.xml line 5: ScalarVariable 'x' has no valueReference attribute");
    let vars = r#"<ScalarVariable valueReference="1"><Real/></ScalarVariable>"#;
    let err = parse(&doc(ROOT, CS, vars, "")).unwrap_err();
    assert!(err.to_string().contains("<ScalarVariable> has no name attribute"), "{err}");
    let vars = r#"<ScalarVariable name="x" valueReference="1"/>"#;
    let err = parse(&doc(ROOT, CS, vars, "")).unwrap_err();
    assert!(err.to_string().contains("ScalarVariable 'x' has no type element"), "{err}");
}

#[test]
fn model_identifier_must_be_a_c_identifier() {
    for bad in ["../../evil", "a b", "", "1abc", "x/y", "x.so"] {
        let cs = format!(r#"<CoSimulation modelIdentifier="{bad}"/>"#);
        let err = parse(&doc(ROOT, &cs, VARS, "")).unwrap_err();
        assert!(err.to_string().contains("is not a C identifier"), "{bad}: {err}");
    }
    let cs = r#"<CoSimulation modelIdentifier="_Ok_9"/>"#;
    assert_eq!(parse(&doc(ROOT, cs, VARS, "")).unwrap().co_simulation.unwrap().model_identifier, "_Ok_9");
}

#[test]
fn invalid_values_are_named() {
    let vars = r#"<ScalarVariable name="x" valueReference="-1"><Real/></ScalarVariable>"#;
    let err = parse(&doc(ROOT, CS, vars, "")).unwrap_err();
    assert!(err.to_string().contains("'x' has valueReference=\"-1\""), "{err}");
    let vars = r#"<ScalarVariable name="x" valueReference="1" causality="sideways"><Real/></ScalarVariable>"#;
    let err = parse(&doc(ROOT, CS, vars, "")).unwrap_err();
    assert!(err.to_string().contains("unknown causality \"sideways\""), "{err}");
    let cs = r#"<CoSimulation modelIdentifier="M" canGetAndSetFMUstate="yes"/>"#;
    let err = parse(&doc(ROOT, cs, VARS, "")).unwrap_err();
    assert!(err.to_string().contains("canGetAndSetFMUstate=\"yes\" is not a boolean"), "{err}");
    let de = r#"<CoSimulation modelIdentifier="M"/><DefaultExperiment stopTime="ten"/>"#;
    let err = parse(&doc(ROOT, de, VARS, "")).unwrap_err();
    assert!(err.to_string().contains("stopTime=\"ten\" is not a number"), "{err}");
    let vars = r#"<ScalarVariable name="x" valueReference="1"><Real/></ScalarVariable>
    <ScalarVariable name="x" valueReference="2"><Real/></ScalarVariable>"#;
    let err = parse(&doc(ROOT, CS, vars, "")).unwrap_err();
    assert_eq!(err, DescriptionError::Invalid { line: 6, message: "two ScalarVariables are named 'x'".into() });
}

#[test]
fn malformed_xml_reports_line_and_column() {
    // Mismatched end tag on line 5.
    let xml = doc(ROOT, CS, r#"    <ScalarVariable name="x" valueReference="1"><Real/></ScalarVariabl>"#, "");
    let err = parse(&xml).unwrap_err();
    let DescriptionError::Xml { line, column, message } = &err else { panic!("{err:?}") };
    assert_eq!(*line, 5, "{err}");
    assert!(*column > 1, "{err}");
    assert!(message.contains("ScalarVariabl"), "{message}");
    assert!(err.to_string().starts_with("modelDescription.xml is not well-formed XML: line 5, column"), "{err}");

    // Unclosed document.
    let err = parse(
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"g\">\n<CoSimulation modelIdentifier=\"M\"/>\n",
    )
    .unwrap_err();
    assert!(matches!(err, DescriptionError::Xml { line: 3, .. }), "{err:?}");
    assert!(err.to_string().contains("<fmiModelDescription> is not closed"), "{err}");

    // Broken attribute syntax.
    let err = parse("<fmiModelDescription fmiVersion=\"2.0 modelName=\"M\">").unwrap_err();
    assert!(matches!(err, DescriptionError::Xml { line: 1, .. }), "{err:?}");

    // Not XML at all.
    let err = parse("\u{1}garbage <<<").unwrap_err();
    assert!(matches!(err, DescriptionError::Xml { .. } | DescriptionError::NotAModelDescription { .. }), "{err:?}");
    assert!(matches!(parse(""), Err(DescriptionError::NotAModelDescription { .. })));
}

#[test]
fn wrong_root_and_encoding() {
    let err = parse("<html><body/></html>").unwrap_err();
    assert_eq!(err, DescriptionError::NotAModelDescription { root: "html".into() });
    let err = ModelDescription::from_bytes(b"<fmiModelDescription \xff/>").unwrap_err();
    assert_eq!(err, DescriptionError::NotUtf8 { offset: 21 });
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), doc(ROOT, CS, VARS, "").as_bytes()].concat();
    assert_eq!(ModelDescription::from_bytes(&with_bom).unwrap().model_name, "M");
}

/// A document with every element and attribute of the schema set, as a tool would build it.
fn every_field() -> ModelDescription {
    let mut doc = every_field_but_the_variables();
    doc.model_variables = every_kind_of_variable();
    let kinds = vec![DependencyKind::Dependent, DependencyKind::Fixed];
    doc.model_structure = ModelStructure {
        outputs: vec![Unknown { index: 8, dependencies: Some(vec![1, 2]), dependencies_kind: Some(kinds) }],
        derivatives: vec![Unknown { index: 3, dependencies: Some(vec![2]), dependencies_kind: None }],
        initial_unknowns: vec![Unknown::at(8), Unknown::at(3)],
    };
    doc
}

/// The model information, interfaces, units, types, log categories, experiment and annotation.
fn every_field_but_the_variables() -> ModelDescription {
    let mut doc = ModelDescription::new("Every <field> & more", "{guid}");
    doc.description = Some("all of them".into());
    (doc.author, doc.version, doc.license) = (Some("a".into()), Some("1.2".into()), Some("MIT".into()));
    doc.generation_tool = Some("hand".into());
    doc.variable_naming_convention = Some(VariableNamingConvention::Structured);
    doc.number_of_event_indicators = Some(0);
    doc.model_exchange = Some(ModelExchange {
        model_identifier: "Every".into(),
        completed_integrator_step_not_needed: Some(true),
        provides_directional_derivative: Some(false),
        ..ModelExchange::default()
    });
    doc.co_simulation = Some(CoSimulation {
        model_identifier: "Every".into(),
        can_handle_variable_communication_step_size: Some(true),
        max_output_derivative_order: Some(1),
        can_serialize_fmu_state: Some(false),
        ..CoSimulation::default()
    });
    let base_unit = BaseUnit { kg: Some(1), m: Some(1), s: Some(-2), factor: Some(1e3), ..BaseUnit::default() };
    let display = DisplayUnit { name: "lbf".into(), factor: Some(0.224809), offset: Some(-0.5) };
    doc.unit_definitions = vec![Unit { name: "kN".into(), base_unit: Some(base_unit), display_units: vec![display] }];
    let item = |name: &str, value: i32| EnumerationItem { name: name.into(), value, description: Some("d".into()) };
    let simple = |name: &str, kind| SimpleType { name: name.into(), description: None, kind };
    doc.type_definitions = vec![
        simple("Load", SimpleTypeKind::Real { unit: Some("kN".into()), display_unit: Some("lbf".into()) }),
        simple("Mode", SimpleTypeKind::Enumeration(vec![item("off", 0), item("on", 1)])),
        simple("Count", SimpleTypeKind::Integer),
        simple("Flag", SimpleTypeKind::Boolean),
        simple("Text", SimpleTypeKind::String),
    ];
    doc.log_categories = vec![Category { name: "logAll".into(), description: Some("everything".into()) }];
    doc.default_experiment =
        Some(DefaultExperiment { start_time: Some(0.0), stop_time: Some(2.5), tolerance: Some(1e-7), step_size: None });
    let coupling = Coupling { get_after_set: true, description: Some("consistent".into()) };
    doc.vendor_annotations = vec![Tool { name: TOOL_NAME.into(), coupling: Some(coupling) }];
    doc
}

/// A variable of each type: `F` (declared type), the state `x` and `der(x)`, an Integer, an
/// Enumeration, a Boolean, a String and an output `y`; value references shared across types.
fn every_kind_of_variable() -> Vec<ScalarVariable> {
    let real = |start: f64| RealAttributes { start: Some(start), ..RealAttributes::default() };
    let variable =
        |name: &str, value_reference: u32, causality: Causality, variability: Variability, value| ScalarVariable {
            name: name.into(),
            value_reference,
            description: None,
            causality,
            variability,
            initial: None,
            value,
        };
    let load = RealAttributes { declared_type: Some("Load".into()), min: Some(f64::NEG_INFINITY), ..real(1.5) };
    let integer = IntegerAttributes { declared_type: None, min: Some(-3), max: Some(7), start: Some(2) };
    let mode = IntegerAttributes { declared_type: Some("Mode".into()), ..IntegerAttributes::default() };
    let mut variables = vec![
        variable("F", 1, Causality::Input, Variability::Continuous, VariableType::Real(load)),
        variable("x", 2, Causality::Local, Variability::Continuous, VariableType::Real(real(-1e-300))),
        variable(
            "der(x)",
            3,
            Causality::Local,
            Variability::Continuous,
            VariableType::Real(RealAttributes { derivative: Some(2), nominal: Some(4.0), ..RealAttributes::default() }),
        ),
        variable("n", 1, Causality::Parameter, Variability::Fixed, VariableType::Integer(integer)),
        variable("mode", 2, Causality::Parameter, Variability::Tunable, VariableType::Enumeration(mode)),
        variable(
            "on",
            1,
            Causality::Input,
            Variability::Discrete,
            VariableType::Boolean { declared_type: Some("Flag".into()), start: Some(true) },
        ),
        variable(
            "label",
            1,
            Causality::Parameter,
            Variability::Fixed,
            VariableType::String { declared_type: None, start: Some("a \"b\" <c>".into()) },
        ),
        variable("y", 4, Causality::Output, Variability::Continuous, VariableType::Real(RealAttributes::default())),
    ];
    variables[1].initial = Some(Initial::Exact);
    variables[0].description = Some("load on the hub, body x".into());
    variables
}

#[test]
fn every_field_written_parses_back_equal() {
    let doc = every_field();
    let text = doc.to_xml();
    assert_eq!(parse(&text).unwrap(), doc, "{text}");
    assert!(doc.get_after_set());
    assert_eq!(doc.unit_of(&doc.model_variables[0]), Some("kN"), "from the declared type");
    assert_eq!(doc.model_variables[1].value.start_text().as_deref(), Some("-1e-300"));
}
