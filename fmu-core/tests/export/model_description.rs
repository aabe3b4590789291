//! `modelDescription.xml` generated for the test models: well-formed, and consistent with the
//! variable declarations, the GUID and FMI 2.0 Co-Simulation.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::{Decay, MassSpringDamper, vr};
use fmu_core::{Causality, Kind, Model, Variability};
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

/// One element: its parent path (`"fmiModelDescription/ModelVariables"`), name and attributes.
#[derive(Debug)]
struct Element {
    parent: String,
    name: String,
    attrs: BTreeMap<String, String>,
}

impl Element {
    #[track_caller]
    fn attr(&self, key: &str) -> &str {
        self.attrs.get(key).unwrap_or_else(|| panic!("<{}> has no attribute {key}: {:?}", self.name, self.attrs))
    }
}

/// Parses the whole document (failing on malformed XML or mismatched tags) into its elements in
/// document order.
fn parse(xml: &str) -> Vec<Element> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let element = |stack: &[String], e: &BytesStart| {
        let attrs = e
            .attributes()
            .map(|a| {
                let a = a.expect("well-formed attribute");
                (a.key.0.to_string(), a.normalized_value(XmlVersion::Explicit1_0).unwrap().into_owned())
            })
            .collect();
        Element { parent: stack.join("/"), name: e.name().0.to_string(), attrs }
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => {
                elements.push(element(&stack, &e));
                stack.push(e.name().0.to_string());
            }
            Event::Empty(e) => elements.push(element(&stack, &e)),
            Event::End(e) => assert_eq!(stack.pop().as_deref(), Some(e.name().0)),
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
    elements
}

/// The elements whose parent path is `parent`, in document order.
fn children<'a>(elements: &'a [Element], parent: &str) -> impl Iterator<Item = &'a Element> + use<'a> {
    let parent = parent.to_string();
    elements.iter().filter(move |e| e.parent == parent)
}

const ROOT: &str = "fmiModelDescription";

#[test]
fn root_and_co_simulation_element() {
    let xml = fmu_core::model_description::<MassSpringDamper>();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    let el = parse(&xml);
    let root = &el[0];
    assert_eq!((root.name.as_str(), root.parent.as_str()), (ROOT, ""));
    assert_eq!(root.attr("fmiVersion"), "2.0");
    assert_eq!(root.attr("modelName"), "MassSpringDamper");
    assert_eq!(root.attr("guid"), &*fmu_core::guid::<MassSpringDamper>());
    assert_eq!(root.attr("variableNamingConvention"), "flat");

    // Top-level elements appear in the order of the FMI 2.0 schema.
    let schema = [
        "ModelExchange",
        "CoSimulation",
        "UnitDefinitions",
        "TypeDefinitions",
        "LogCategories",
        "DefaultExperiment",
        "VendorAnnotations",
        "ModelVariables",
        "ModelStructure",
    ];
    let top: Vec<&str> = children(&el, ROOT).map(|e| e.name.as_str()).collect();
    let positions: Vec<usize> =
        top.iter().map(|n| schema.iter().position(|s| s == n).unwrap_or_else(|| panic!("unexpected <{n}>"))).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "order {top:?}");
    // MassSpringDamper declares its states: Model Exchange too, with the same identifier.
    let me: Vec<&Element> = children(&el, ROOT).filter(|e| e.name == "ModelExchange").collect();
    assert_eq!(me.len(), 1);
    assert_eq!(me[0].attr("modelIdentifier"), MassSpringDamper::INFO.model_identifier);
    assert_eq!(me[0].attr("providesDirectionalDerivative"), "true");
    assert_eq!(root.attr("numberOfEventIndicators"), "0");
    // Decay declares none: Co-Simulation only.
    let decay = parse(&fmu_core::model_description::<Decay>());
    assert!(!children(&decay, ROOT).any(|e| e.name == "ModelExchange"), "Decay is Co-Simulation only");

    let cs: Vec<&Element> = children(&el, ROOT).filter(|e| e.name == "CoSimulation").collect();
    assert_eq!(cs.len(), 1);
    let cs = cs[0];
    assert_eq!(cs.attr("modelIdentifier"), MassSpringDamper::INFO.model_identifier);
    for (flag, value) in [
        ("canHandleVariableCommunicationStepSize", "true"),
        ("canInterpolateInputs", "true"),
        ("maxOutputDerivativeOrder", "1"),
        ("canGetAndSetFMUstate", "true"),
        ("canSerializeFMUstate", "true"),
        ("providesDirectionalDerivative", "true"),
    ] {
        assert_eq!(cs.attr(flag), value, "{flag}");
    }

    let de = children(&el, ROOT).find(|e| e.name == "DefaultExperiment").expect("DefaultExperiment");
    assert_eq!(de.attr("stopTime").parse::<f64>().unwrap(), MassSpringDamper::INFO.default_stop_time);
    assert_eq!(de.attr("stepSize").parse::<f64>().unwrap(), MassSpringDamper::INFO.default_step_size);
}

#[test]
fn every_variable_is_declared_with_its_attributes() {
    let el = parse(&fmu_core::model_description::<MassSpringDamper>());
    let scalars: Vec<&Element> = children(&el, &format!("{ROOT}/ModelVariables")).collect();
    let declared = MassSpringDamper::variables();
    let states = MassSpringDamper::state_variables();
    // The model variables, then each state, then each state's derivative.
    assert_eq!(scalars.len(), declared.len() + 2 * states.len());
    for (k, s) in states.iter().enumerate() {
        let state = scalars[declared.len() + k];
        let derivative = scalars[declared.len() + states.len() + k];
        assert_eq!(
            (state.attr("name"), state.attr("causality"), state.attr("variability")),
            (s.name.as_str(), "local", "continuous")
        );
        assert_eq!(derivative.attr("name"), format!("der({})", s.name));
        let real = |n: usize| {
            el.iter().filter(|e| e.parent == format!("{ROOT}/ModelVariables/ScalarVariable")).nth(n).unwrap()
        };
        assert_eq!(real(declared.len() + states.len() + k).attr("derivative"), (declared.len() + k + 1).to_string());
        assert_eq!(real(declared.len() + k).attr("unit"), s.unit);
        assert_eq!(real(declared.len() + states.len() + k).attr("unit"), s.derivative_unit);
    }
    let units: BTreeSet<&str> = children(&el, &format!("{ROOT}/UnitDefinitions")).map(|u| u.attr("name")).collect();
    for (i, (sv, v)) in scalars.iter().zip(&declared).enumerate() {
        assert_eq!(sv.name, "ScalarVariable");
        assert_eq!(sv.attr("name"), v.name, "index {}", i + 1);
        assert_eq!(sv.attr("valueReference").parse::<u32>().unwrap(), v.vr, "{}", v.name);
        let causality = match v.causality {
            Causality::Parameter => "parameter",
            Causality::Input => "input",
            Causality::Output => "output",
        };
        assert_eq!(sv.attr("causality"), causality, "{}", v.name);
        let variability = match v.variability {
            Variability::Fixed => "fixed",
            Variability::Tunable => "tunable",
            Variability::Discrete => "discrete",
            Variability::Continuous => "continuous",
        };
        assert_eq!(sv.attr("variability"), variability, "{}", v.name);
        // The type element is the i-th child of ModelVariables' ScalarVariables, in order.
        let ty = el
            .iter()
            .filter(|e| e.parent == format!("{ROOT}/ModelVariables/ScalarVariable"))
            .nth(i)
            .expect("type element");
        let start = ty.attrs.get("start").map(String::as_str);
        match v.kind {
            Kind::Real { unit, start: s } => {
                assert_eq!(ty.name, "Real");
                assert_eq!(ty.attrs.get("unit").map(String::as_str).unwrap_or(""), unit, "{}", v.name);
                assert!(unit.is_empty() || units.contains(unit), "unit {unit} not defined");
                if v.causality == Causality::Output {
                    assert_eq!(start, None, "outputs are calculated: no start ({})", v.name);
                } else {
                    assert_eq!(start.map(|s| s.parse::<f64>().unwrap()), Some(s), "{}", v.name);
                }
            }
            Kind::Integer { start: s, min, max } => {
                assert_eq!(ty.name, "Integer");
                assert_eq!(start, Some(s.to_string().as_str()));
                assert_eq!((ty.attr("min"), ty.attr("max")), (min.to_string().as_str(), max.to_string().as_str()));
            }
            Kind::Boolean { start: s } => {
                assert_eq!(ty.name, "Boolean");
                assert_eq!(start, Some(if s { "true" } else { "false" }));
            }
            Kind::String { start: s } => {
                assert_eq!(ty.name, "String");
                assert_eq!(start, Some(s));
            }
        }
    }
    // The integer parameter's range as declared.
    let springs = scalars.iter().position(|e| e.attr("name") == "springs").unwrap();
    assert_eq!(declared[springs].kind, Kind::Integer { start: 1, min: 1, max: 8 });
}

#[test]
fn model_structure_lists_outputs_and_feedthrough() {
    let el = parse(&fmu_core::model_description::<MassSpringDamper>());
    let scalars: Vec<&Element> = children(&el, &format!("{ROOT}/ModelVariables")).collect();
    let index_of = |name: &str| 1 + scalars.iter().position(|e| e.attr("name") == name).unwrap();
    let outputs: BTreeMap<usize, &str> = children(&el, &format!("{ROOT}/ModelStructure/Outputs"))
        .map(|u| (u.attr("index").parse().unwrap(), u.attr("dependencies")))
        .collect();
    // Outputs depend on the inputs with direct feedthrough and (conservatively) on every state.
    let states = format!("{} {}", index_of("state.x"), index_of("state.v"));
    let a = format!("{} {states}", index_of("F"));
    let expected: BTreeMap<usize, &str> =
        [(index_of("x"), states.as_str()), (index_of("v"), states.as_str()), (index_of("a"), a.as_str())]
            .into_iter()
            .collect();
    assert_eq!(outputs, expected);
    // Derivatives: der(state.x), der(state.v) in state order.
    let derivatives: Vec<usize> = children(&el, &format!("{ROOT}/ModelStructure/Derivatives"))
        .map(|u| u.attr("index").parse().unwrap())
        .collect();
    assert_eq!(derivatives, [index_of("der(state.x)"), index_of("der(state.v)")]);
    // Every output variable is listed, and nothing else.
    let output_indices: BTreeSet<usize> =
        scalars.iter().enumerate().filter(|(_, e)| e.attr("causality") == "output").map(|(i, _)| i + 1).collect();
    assert_eq!(outputs.keys().copied().collect::<BTreeSet<_>>(), output_indices);
    // InitialUnknowns: all outputs, states and derivatives (all calculated), in index order.
    let initial: Vec<usize> = children(&el, &format!("{ROOT}/ModelStructure/InitialUnknowns"))
        .map(|u| u.attr("index").parse().unwrap())
        .collect();
    let mut expected: Vec<usize> = output_indices.iter().copied().collect();
    expected.extend(["state.x", "state.v", "der(state.x)", "der(state.v)"].map(index_of));
    assert_eq!(initial, expected);
    // The feedthrough in the catalog matches: `a` depends on F by value reference.
    let a = MassSpringDamper::variables().into_iter().find(|v| v.vr == vr::A).unwrap();
    assert_eq!(a.feedthrough, fmu_core::Feedthrough::Inputs(vec![vr::F]));
}

#[test]
fn guid_identifies_the_interface() {
    let (g1, g2) = (fmu_core::guid::<MassSpringDamper>(), fmu_core::guid::<Decay>());
    assert_ne!(g1, g2);
    for g in [&g1, &g2] {
        // Braced 8-4-4-4-12 hexadecimal.
        let inner = g.strip_prefix('{').and_then(|s| s.strip_suffix('}')).expect("braces");
        let groups: Vec<usize> = inner.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{g}");
        assert!(inner.chars().all(|c| c == '-' || c.is_ascii_hexdigit()), "{g}");
    }
    // Stable within the process, and the one the XML carries.
    assert_eq!(fmu_core::guid::<MassSpringDamper>(), g1);
    assert_eq!(fmu_core::model_description::<MassSpringDamper>(), fmu_core::model_description::<MassSpringDamper>());
    let decay = parse(&fmu_core::model_description::<Decay>());
    assert_eq!(decay[0].attr("guid"), &*g2);
    // Decay has no inputs: its output has no dependencies.
    let outputs: Vec<&Element> = children(&decay, &format!("{ROOT}/ModelStructure/Outputs")).collect();
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0].attr("dependencies"), "");
}

/// Display units, bounds and enumerations are checked when the variables are declared: a
/// display unit the unit does not define, a start outside the bounds, an enumeration start that
/// is no item, or a range on an integer are model bugs, refused with the variable's name.
#[test]
fn display_units_ranges_and_enumerations_are_checked() {
    use fmu_core::catalog::Catalog;
    use fmu_core::variable::{Enumeration, Variable};
    static CHOICE: Enumeration =
        Enumeration { name: "T.Choice", description: "a choice", items: &[("a", 1, "first"), ("b", 2, "second")] };
    let ok = vec![
        Variable::real_parameter("speed", 0, "rad/s", 10.0).display_unit("rpm").min(0.0).max(100.0),
        Variable::integer_parameter("choice", 1, 2, 1, 2).enumeration(&CHOICE),
    ];
    assert!(Catalog::new(ok).is_ok());
    for (bad, message) in [
        (Variable::real_parameter("speed", 0, "m/s", 1.0).display_unit("rpm"), "has no display unit 'rpm'"),
        (Variable::real_parameter("mass", 0, "kg", -1.0).min(0.0), "start -1 outside"),
        (Variable::integer_parameter("choice", 0, 3, 1, 3).enumeration(&CHOICE), "must be items of T.Choice"),
        (Variable::integer_parameter("n", 0, 3, 1, 3).min(0.0), "display units and ranges are for reals"),
    ] {
        let Err(error) = Catalog::new(vec![bad]) else { panic!("accepted: {message}") };
        assert!(error.contains(message), "{error}");
    }
    assert_eq!(fmu_core::units::display_unit("rad", None), Some("deg"));
    assert_eq!(fmu_core::units::display_unit("rad/s", Some("rpm")), Some("rpm"));
    assert_eq!(fmu_core::units::display_unit("N", None), None);
    // 1 rad/s is 60 / (2 pi) rpm.
    let rpm = fmu_core::units::display_units("rad/s").iter().find(|(n, _)| *n == "rpm").unwrap().1;
    assert!((rpm - 60.0 / std::f64::consts::TAU).abs() < 1e-15);
}
