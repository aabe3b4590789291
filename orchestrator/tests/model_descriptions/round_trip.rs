//! The one model-description schema (`fmi2_types::model_description`): what its writer writes,
//! its parser (the importer's) reads back into equal types. Our FMUs' descriptions, every one of
//! the catalog and the Rust test FMUs: types → text → types, equal, and the text is what the FMU
//! serves. Third-party descriptions (the C test FMU's, one with every element and attribute the
//! schema holds): text → types → text → types, equal. (The system FMU's: `cli` `system_fmu`;
//! PythonFMU's, the gain test FMU and the third-party aerodynamics example
//! `examples/third-party-aero`: `pythonfmu` `import`; a document built in code with every field:
//! `fmi2-types`' `every_field_written_parses_back_equal`.)

use cosim::import::model_description::schema::ModelDescription;
use fmu_catalog::{ModelVisitor, visit_our_models};

use crate::import_support::parse_write_parse;

struct WriteThenParse(Vec<&'static str>);

impl ModelVisitor for WriteThenParse {
    fn visit<M: fmu_core::Model>(&mut self) {
        let id = M::INFO.model_identifier;
        let written = fmu_core::description::description_document::<M>();
        let text = written.to_xml();
        assert_eq!(text, *fmu_core::description::model_description::<M>(), "{id}: the FMU serves the written text");
        let parsed = ModelDescription::parse(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(parsed, written, "{id}");
        self.0.push(id);
    }
}

#[test]
fn our_descriptions_parse_back_into_the_written_types() {
    let mut visitor = WriteThenParse(Vec::new());
    visit_our_models(&mut visitor);
    assert_eq!(visitor.0, fmu_catalog::our_models());
}

#[test]
fn the_rust_test_fmu_descriptions_parse_back_into_the_written_types() {
    let mut visitor = WriteThenParse(Vec::new());
    visitor.visit::<test_fmus::Body>();
    visitor.visit::<test_fmus::Load>();
    visitor.visit::<test_fmus::text::TextParameters>();
    assert_eq!(visitor.0, ["TwoMassBody", "TwoMassLoad", "TextParameters"]);
}

#[test]
fn the_c_test_fmu_description_round_trips() {
    let document = parse_write_parse(include_str!("../../../test-fmus/c/VanDerPol.xml"));
    assert_eq!(document.model_name, "VanDerPol");
}

/// Every element and attribute the schema holds, in a third-party tool's layout (attributes in
/// other orders, elements on one line, defaults left out).
const EVERYTHING: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="All &amp; &lt;more&gt;" guid="{all}" description="d" author="a"
  version="3" license="L" generationTool="hand" variableNamingConvention="structured" numberOfEventIndicators="2">
  <ModelExchange modelIdentifier="All" needsExecutionTool="false" completedIntegratorStepNotNeeded="1"
    canBeInstantiatedOnlyOncePerProcess="true" canGetAndSetFMUstate="false" canSerializeFMUstate="0"
    providesDirectionalDerivative="true"/>
  <CoSimulation modelIdentifier="All" needsExecutionTool="true" canHandleVariableCommunicationStepSize="true"
    canInterpolateInputs="false" maxOutputDerivativeOrder="2" canBeInstantiatedOnlyOncePerProcess="false"
    canGetAndSetFMUstate="true" canSerializeFMUstate="true" providesDirectionalDerivative="false"/>
  <UnitDefinitions>
    <Unit name="degC"><BaseUnit K="1" offset="273.15"/><DisplayUnit name="degF" factor="1.8" offset="32"/></Unit>
    <Unit name="N"><BaseUnit kg="1" m="1" s="-2"/></Unit>
    <Unit name="mol/s"><BaseUnit mol="1" s="-1" A="0" cd="0" factor="1e3"/></Unit>
  </UnitDefinitions>
  <TypeDefinitions>
    <SimpleType name="Temperature"><Real unit="degC" displayUnit="degF"/></SimpleType>
    <SimpleType name="Count" description="c"><Integer/></SimpleType>
    <SimpleType name="Flag"><Boolean/></SimpleType>
    <SimpleType name="Text"><String/></SimpleType>
    <SimpleType name="Mode"><Enumeration><Item name="off" value="0"/><Item name="on" value="1" description="running"/></Enumeration></SimpleType>
  </TypeDefinitions>
  <LogCategories><Category name="logAll"/><Category name="logSome" description="s"/></LogCategories>
  <DefaultExperiment startTime="1" stopTime="2.5" tolerance="1e-6" stepSize="0.125"/>
  <VendorAnnotations><Tool name="other"/><Tool name="rotorcraft-fmi"><Coupling getAfterSet="false"/></Tool></VendorAnnotations>
  <ModelVariables>
    <ScalarVariable name="T" valueReference="1" causality="input" description="in"><Real declaredType="Temperature" start="20" min="-INF" max="1e4" nominal="300"/></ScalarVariable>
    <ScalarVariable valueReference="2" name="x" causality="local" variability="continuous" initial="exact"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="der(x)" valueReference="3" causality="local"><Real derivative="2"/></ScalarVariable>
    <ScalarVariable name="n" valueReference="1" causality="parameter" variability="fixed" initial="exact"><Integer min="-3" max="+7" start="+2"/></ScalarVariable>
    <ScalarVariable name="mode" valueReference="2" causality="parameter" variability="tunable"><Enumeration declaredType="Mode" start="1"/></ScalarVariable>
    <ScalarVariable name="on" valueReference="1" causality="input"><Boolean declaredType="Flag" start="1"/></ScalarVariable>
    <ScalarVariable name="label" valueReference="1" causality="parameter" variability="fixed" initial="exact"><String start="a &quot;b&quot;"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="4" causality="output" variability="continuous"><Real unit="N"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs><Unknown index="8" dependencies="1 2" dependenciesKind="dependent fixed"/></Outputs>
    <Derivatives><Unknown index="3" dependencies="2"/></Derivatives>
    <InitialUnknowns><Unknown index="8" dependencies="1 4" dependenciesKind="dependent dependent"/><Unknown index="3"/></InitialUnknowns>
  </ModelStructure>
</fmiModelDescription>
"#;

#[test]
fn every_element_round_trips() {
    use cosim::import::model_description::schema::{SimpleTypeKind, VariableType};
    let document = parse_write_parse(EVERYTHING);
    // What was read, against the document above.
    assert_eq!(document.model_name, "All & <more>");
    assert_eq!(document.unit_definitions[0].base_unit.as_ref().unwrap().offset, Some(273.15));
    assert_eq!(document.unit_definitions[2].base_unit.as_ref().unwrap().factor, Some(1000.0));
    assert!(matches!(&document.type_definitions[4].kind, SimpleTypeKind::Enumeration(items) if items.len() == 2));
    assert_eq!(document.co_simulation.as_ref().unwrap().max_output_derivative_order, Some(2));
    assert_eq!(document.model_exchange.as_ref().unwrap().completed_integrator_step_not_needed, Some(true));
    let VariableType::Real(t) = &document.model_variables[0].value else { panic!("T is a Real") };
    assert_eq!((t.min, t.max, t.start), (Some(f64::NEG_INFINITY), Some(1e4), Some(20.0)));
    let VariableType::Integer(n) = &document.model_variables[3].value else { panic!("n is an Integer") };
    assert_eq!((n.min, n.max, n.start), (Some(-3), Some(7), Some(2)));
    let VariableType::String { start, .. } = &document.model_variables[6].value else { panic!("label") };
    assert_eq!(start.as_deref(), Some("a \"b\""));
    assert_eq!(document.model_structure.initial_unknowns[0].dependencies, Some(vec![1, 4]));
    assert!(document.vendor_annotations[1].coupling.as_ref().is_some_and(|c| !c.get_after_set));
}
