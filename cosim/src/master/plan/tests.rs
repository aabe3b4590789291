//! The plan against small systems of test FMUs: solution order, recording, and what it rejects.

use std::sync::Arc;

use super::*;
use crate::import::FacadeLogger;
use crate::master::ids::{InputId, LoopId, NodeId, OutputId, OutputRef, SlotId, UnitId};
use crate::master::{FmuCache, Master};
use crate::system::SystemDescription;

/// One model, instantiated as `a`, `b` and `c`: `y` depends on `u` and `w`, `z` on nothing.
const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="M" guid="{1}">
  <CoSimulation modelIdentifier="M"/>
  <ModelVariables>
<ScalarVariable name="u" valueReference="1" causality="input"><Real start="0"/></ScalarVariable>
<ScalarVariable name="w" valueReference="2" causality="input"><Real start="0"/></ScalarVariable>
<ScalarVariable name="y" valueReference="3" causality="output"><Real/></ScalarVariable>
<ScalarVariable name="z" valueReference="4" causality="output"><Real/></ScalarVariable>
<ScalarVariable name="flag" valueReference="5" causality="output"><Boolean/></ScalarVariable>
<ScalarVariable name="s" valueReference="6" causality="output"><String/></ScalarVariable>
<ScalarVariable name="s_in" valueReference="7" causality="input"><String start=""/></ScalarVariable>
<ScalarVariable name="n" valueReference="8" causality="output"><Integer/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
<Outputs>
  <Unknown index="3" dependencies="1 2"/>
  <Unknown index="4" dependencies=""/>
  <Unknown index="5" dependencies=""/>
  <Unknown index="6" dependencies=""/>
  <Unknown index="8" dependencies=""/>
</Outputs>
  </ModelStructure>
</fmiModelDescription>
"#;

/// The system of three instances of [`MODEL`] with `connections` and `outputs` (JSON
/// arrays), resolved against the description alone: the `.fmu` files are empty, not archives.
fn system(dir: &std::path::Path, connections: &str, outputs: &str) -> System {
    for name in ["a", "b", "c"] {
        std::fs::write(dir.join(format!("{name}.fmu")), b"").unwrap();
    }
    let json = format!(
        r#"{{ "fmus": {{ "a": {{ "path": "a.fmu" }}, "b": {{ "path": "b.fmu" }}, "c": {{ "path": "c.fmu" }} }},
             "connections": {connections},
             "experiment": {{ "stop": 1.0, "step": 0.1 }},
             "outputs": {outputs} }}"#
    );
    let description = SystemDescription::from_str(&json, dir, &Default::default()).unwrap();
    description.resolve(|_| ModelDescription::parse(MODEL).map_err(|e| e.to_string())).unwrap()
}

fn unsupported(result: Result<CouplingPlan, MasterError>) -> String {
    match result {
        Err(MasterError::Unsupported(message)) => message,
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("accepted"),
    }
}

const LOOP: &str = r#"["c.z -> a.w", "a.y -> b.u", "b.y -> a.u", "b.y -> c.u"]"#;

#[test]
fn two_unit_loop_in_solution_order() {
    let dir = tempfile::tempdir().unwrap();
    let plan = CouplingPlan::new(&system(dir.path(), LOOP, "[]")).unwrap();
    assert_eq!(plan.loops(), vec![vec!["a.y".to_string(), "b.y".to_string()]]);
    let components = plan.components();
    assert_eq!(components, vec![(vec!["c.z".to_string()], false), (vec!["a.y".into(), "b.y".into()], true)]);
    assert_eq!(plan.loops[0].members, "a.y, b.y");
    assert_eq!(plan.loops[0].units, vec![UnitId(0), UnitId(1)]);
    // The loop's inputs: a.u driven by b.y (local 1), b.u by a.y (local 0); not c.u.
    let mut inputs = plan.loops[0].inputs.clone();
    inputs.sort_unstable();
    let input =
        |unit, input, driver| LoopInput { input: InputRef { unit: UnitId(unit), input: InputId(input) }, driver };
    assert_eq!(inputs, vec![input(0, 1, 1), input(1, 0, 0)]);
    assert_eq!(plan.gauss_seidel_order, vec![UnitId(2), UnitId(0), UnitId(1)]);
    // c.z (the first node) alone, then the loop.
    assert_eq!(plan.order, vec![Solve::Output(NodeId(0)), Solve::Loop(LoopId(0))]);
}

#[test]
fn recording_resolves_outputs_inputs_and_discrete_variables() {
    let dir = tempfile::tempdir().unwrap();
    let outputs = r#"["c.y", "a.u", "a.flag", "a.s", "b.n"]"#;
    let plan = CouplingPlan::new(&system(dir.path(), LOOP, outputs)).unwrap();
    assert_eq!(plan.recorded_names(), ["c.y", "a.u", "a.flag", "b.n"]);
    assert!(matches!(
        plan.recorded[..],
        [
            Recorded::Output(OutputRef { unit: UnitId(2), output: OutputId(1) }),
            Recorded::Input(InputRef { unit: UnitId(0), input: InputId(1) }),
            Recorded::Discrete(SlotId(0)),
            Recorded::Discrete(SlotId(1))
        ]
    ));
    assert_eq!(plan.units[2].out_names, ["c.z", "c.y"]);
    assert!(plan.warnings().contains(&"a.s: String variables are not recorded".to_string()));
    let message = unsupported(CouplingPlan::new(&system(dir.path(), LOOP, r#"["c.w"]"#)));
    assert_eq!(message, "c.w: only outputs and connected or driven inputs can be recorded");
}

#[test]
fn unsupported_connections_are_rejected_by_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    // String to String passes the system's resolution; the plan refuses it.
    let message = unsupported(CouplingPlan::new(&system(dir.path(), r#"["a.s -> b.s_in"]"#, "[]")));
    assert_eq!(
        message,
        "connection a.s -> b.s_in: String to String is not supported (Real, Integer/Enumeration and Boolean \
         connect to their own kind, Integer also to Real; String not at all)"
    );
    // Boolean to Real (which resolution refuses too), in a system built by hand.
    let mut sys = system(dir.path(), "[]", "[]");
    let r = |instance, name| VarRef { instance, variable: sys.instances[instance].description.index_of(name).unwrap() };
    let (from, to) = (r(0, "flag"), r(2, "w"));
    sys.connections.push(Connection { from, to });
    let message = unsupported(CouplingPlan::new(&sys));
    assert_eq!(
        message,
        "connection a.flag -> c.w: Boolean to Real is not supported (Real, Integer/Enumeration and Boolean \
         connect to their own kind, Integer also to Real; String not at all)"
    );
}

#[test]
fn master_rejects_before_touching_any_fmu() {
    let dir = tempfile::tempdir().unwrap();
    // The `.fmu` files are empty: opening any of them would fail with `MasterError::Setup`.
    let sys = system(dir.path(), r#"["a.s -> b.s_in"]"#, "[]");
    let logger = Arc::new(FacadeLogger::new(false));
    let mut fmus = FmuCache::default();
    for result in
        [Master::new(sys.clone(), &mut fmus, logger.clone()), Master::new_model_exchange(sys, &mut fmus, logger)]
    {
        match result {
            Err(MasterError::Unsupported(message)) => assert!(message.contains("String to String"), "{message}"),
            Err(e) => panic!("another error: {e}"),
            Ok(_) => panic!("accepted"),
        }
    }
    // A supported system gets as far as opening the (empty) archives.
    let sys = system(dir.path(), LOOP, "[]");
    let result = Master::new(sys, &mut fmus, Arc::new(FacadeLogger::new(false)));
    assert!(matches!(result, Err(MasterError::Setup { .. })), "the archives are opened after the plan");
}
