//! The importer's view derived from parsed documents (the parser's own checks and errors are
//! tested in `fmi2-types`' `model_description/parse/tests.rs`).

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
/// An input force, a stiffness and an output position, with the spellings of a third-party
/// tool (`+2`, `0`) that the view shows as the schema's writer spells them.
const VARS: &str = r#"
    <ScalarVariable name="u" valueReference="1" causality="input"><Real unit="N" start="0"/></ScalarVariable>
    <ScalarVariable name="k" valueReference="2" causality="parameter" variability="fixed"><Real unit="N/m" start="+2"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="3" causality="output"><Real unit="m"/></ScalarVariable>"#;

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
    let k = md.variable("k").unwrap();
    assert_eq!((k.start.as_deref(), k.unit.as_deref()), (Some("2.0"), Some("N/m")));
    assert_eq!(md.variable("u").unwrap().start.as_deref(), Some("0.0"));
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
    assert_eq!(cs.can_handle_variable_communication_step_size, Some(true));
    assert_eq!((cs.can_interpolate_inputs, cs.can_get_and_set_fmu_state), (Some(true), Some(true)));
    assert_eq!((cs.can_serialize_fmu_state, cs.provides_directional_derivative), (Some(false), Some(true)));
    assert_eq!(cs.can_be_instantiated_only_once_per_process, Some(true));
    assert_eq!(cs.needs_execution_tool, Some(false));
    assert_eq!(cs.max_output_derivative_order, Some(2));
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
    assert_eq!((n.var_type, n.initial, n.variability), (VarType::Integer, Some(Initial::Exact), Variability::Fixed));
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
    assert_eq!(ModelDescription::parse(&doc(ROOT, extra, VARS, "")).unwrap().co_simulation.model_identifier, "M_cs");
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
    assert_eq!(me.provides_directional_derivative, Some(true));
}
