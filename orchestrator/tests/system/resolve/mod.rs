//! System descriptions resolved against two fake model descriptions shaped like the Fuselage
//! and a rotor: a full valid system, defaults and patterns here; every error with its field
//! path in `errors`.

mod errors;

use std::path::{Path, PathBuf};

use cosim::import::model_description::{
    Causality, CoSimulation, DefaultExperiment, ModelDescription, ScalarVariable, VarType, Variability,
};
use cosim::system::{
    Algorithm, Connection, Experiment, JacobianUpdate, MasterOptions, ParameterValue, Signal, System,
    SystemDescription, SystemError, VarRef,
};

fn var(name: &str, causality: Causality, var_type: VarType) -> ScalarVariable {
    let variability = match causality {
        Causality::Parameter => Variability::Fixed,
        _ => Variability::Continuous,
    };
    ScalarVariable {
        name: name.to_string(),
        value_reference: 0,
        causality,
        variability,
        initial: None,
        var_type,
        start: None,
        unit: None,
        description: None,
    }
}

fn model(name: &str, variables: Vec<ScalarVariable>) -> ModelDescription {
    let variables: Vec<ScalarVariable> =
        variables.into_iter().enumerate().map(|(i, v)| ScalarVariable { value_reference: i as u32, ..v }).collect();
    ModelDescription {
        model_exchange: None,
        continuous_states: Vec::new(),
        fmi_version: "2.0".into(),
        model_name: name.into(),
        guid: format!("{{{name}}}"),
        description: None,
        generation_tool: None,
        co_simulation: CoSimulation { model_identifier: name.into(), ..CoSimulation::default() },
        default_experiment: DefaultExperiment::default(),
        get_after_set: true,
        outputs: Vec::new(),
        variables,
    }
}

/// Fuselage-shaped: parameters 0..=3, inputs 4..=10 and 16, outputs 11..=15.
fn fuselage() -> ModelDescription {
    use Causality::*;
    use VarType::*;
    model(
        "Fuselage",
        vec![
            var("mass", Parameter, Real),              // 0
            var("euler_sequence", Parameter, Integer), // 1
            var("strict_inertia", Parameter, Boolean), // 2
            var("hub.x", Parameter, Real),             // 3
            var("hub.F.x", Input, Real),               // 4
            var("hub.F.y", Input, Real),               // 5
            var("hub.F.z", Input, Real),               // 6
            var("ext.F.x", Input, Real),               // 7
            var("ext.F.y", Input, Real),               // 8
            var("ext.F.z", Input, Real),               // 9
            var("ext.M.x", Input, Real),               // 10
            var("x", Output, Real),                    // 11
            var("z", Output, Real),                    // 12
            var("hub.acc.x", Output, Real),            // 13
            var("hub.acc.y", Output, Real),            // 14
            var("hub.acc.z", Output, Real),            // 15
            var("mode", Input, Integer),               // 16
            var("drag", Local, Real),                  // 17
        ],
    )
}

/// Rotor-shaped: parameters 0..=1, inputs 2..=4, outputs 5..=11.
fn rotor() -> ModelDescription {
    use Causality::*;
    use VarType::*;
    model(
        "Rotor",
        vec![
            var("nb", Parameter, Integer),      // 0
            var("Omega", Parameter, Real),      // 1
            var("hub.acc.x", Input, Real),      // 2
            var("hub.acc.y", Input, Real),      // 3
            var("hub.acc.z", Input, Real),      // 4
            var("hub.F.x", Output, Real),       // 5
            var("hub.F.y", Output, Real),       // 6
            var("hub.F.z", Output, Real),       // 7
            var("azimuth", Output, Real),       // 8
            var("blade[1].flap", Output, Real), // 9
            var("blade[2].flap", Output, Real), // 10
            var("flag", Output, Boolean),       // 11
        ],
    )
}

/// A fresh directory (its canonical path; removed on drop) holding `Fuselage.fmu`, `Rotor.fmu`
/// (empty placeholders) and `gust.csv`.
struct Dir(PathBuf, #[allow(dead_code, reason = "removes the directory on drop")] tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().canonicalize().unwrap();
        std::fs::write(path.join("Fuselage.fmu"), b"").unwrap();
        std::fs::write(path.join("Rotor.fmu"), b"").unwrap();
        std::fs::write(path.join("gust.csv"), "time,Fx,Fz\n0,0,0\n1,5,-10\n3,5,30\n").unwrap();
        Self(path, temp)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

/// Model descriptions by file name, as an importer would return them.
fn descriptions(path: &Path) -> Result<ModelDescription, String> {
    match path.file_name().and_then(|n| n.to_str()) {
        Some("Fuselage.fmu") => Ok(fuselage()),
        Some("Rotor.fmu") => Ok(rotor()),
        _ => Err(format!("not an FMU: {}", path.display())),
    }
}

fn resolve_in(dir: &Dir, json: &str) -> Result<System, SystemError> {
    SystemDescription::from_str(json, &dir.0, &fmu_catalog::context())?.resolve(descriptions)
}

fn resolve(json: &str) -> Result<System, SystemError> {
    resolve_in(&Dir::new(), json)
}

/// The error of resolving `json`, displayed, checking that its path is `path`.
fn error(json: &str, path: &str) -> String {
    let e = resolve(json).expect_err("the description should be refused");
    assert_eq!(e.path, path, "wrong path in: {e}");
    e.to_string()
}

/// A two-FMU system with `rest` (JSON members) added to fmus and experiment.
fn with(rest: &str) -> String {
    let rest = if rest.is_empty() { String::new() } else { format!(", {rest}") };
    format!(
        r#"{{ "fmus": {{ "fuselage": {{ "path": "Fuselage.fmu" }}, "rotor": {{ "path": "Rotor.fmu" }} }},
            "experiment": {{ "stop": 1.0, "step": 0.01 }}{rest} }}"#
    )
}

const FULL: &str = r#"{
  "fmus": {
    "fuselage": { "path": "Fuselage.fmu", "parameters": { "mass": 2100, "euler_sequence": 321, "strict_inertia": false } },
    "rotor":    { "path": "sub/../Rotor.fmu" }
  },
  "connections": [
    { "from": "rotor.hub.F.*", "to": "fuselage.hub.F.*" },
    "fuselage.hub.acc.* -> rotor.hub.acc.*"
  ],
  "experiment": { "start": 0.5, "stop": 10.0, "step": 0.01 },
  "master": { "algorithm": "gauss-seidel", "tolerance": 1e-8, "max_iterations": 5, "extrapolate_inputs": true, "min_step": 1e-6, "jacobian": "every-iteration", "threads": 3 },
  "inputs": [
    { "to": "fuselage.ext.F.x", "signal": { "constant": 100.0 } },
    { "to": "fuselage.ext.F.y", "signal": { "step": { "time": 1.0, "before": 0.0, "after": 50.0 } } },
    { "to": "fuselage.ext.F.z", "signal": { "table": { "csv": "gust.csv", "column": "Fz" } } },
    { "to": "fuselage.ext.M.x", "signal": { "sine": { "amplitude": 1.0, "frequency": 0.5, "phase": 0.0, "offset": 0.0 } } }
  ],
  "outputs": ["fuselage.x", "fuselage.hub.acc.*", "rotor.*"]
}"#;

fn r(instance: usize, variable: usize) -> VarRef {
    VarRef { instance, variable }
}

#[test]
fn full_system_resolves_to_indices() {
    let dir = Dir::new();
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    let system = resolve_in(&dir, FULL).unwrap();

    let names: Vec<&str> = system.instances.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["fuselage", "rotor"], "document order is kept");
    assert_eq!(system.instances[0].path, dir.0.join("Fuselage.fmu"));
    assert_eq!(system.instances[1].path, dir.0.join("Rotor.fmu"), "'sub/..' is resolved");
    assert_eq!(system.instances[0].description, fuselage());
    assert_eq!(
        system.instances[0].parameters,
        [(0, ParameterValue::Real(2100.0)), (1, ParameterValue::Integer(321)), (2, ParameterValue::Boolean(false))]
    );
    assert!(system.instances[1].parameters.is_empty());

    // rotor.hub.F.{x,y,z} (5, 6, 7) -> fuselage.hub.F.{x,y,z} (4, 5, 6), then the accelerations
    // fuselage 13, 14, 15 -> rotor 2, 3, 4.
    let expected: Vec<Connection> = [(5, 4), (6, 5), (7, 6)]
        .map(|(f, t)| Connection { from: r(1, f), to: r(0, t) })
        .into_iter()
        .chain([(13, 2), (14, 3), (15, 4)].map(|(f, t)| Connection { from: r(0, f), to: r(1, t) }))
        .collect();
    assert_eq!(system.connections, expected);
    let names: Vec<String> =
        system.connections.iter().map(|c| format!("{} -> {}", system.name(c.from), system.name(c.to))).collect();
    assert_eq!(names[0], "rotor.hub.F.x -> fuselage.hub.F.x");
    assert_eq!(names[5], "fuselage.hub.acc.z -> rotor.hub.acc.z");

    assert_eq!(system.experiment, Experiment { start: 0.5, stop: 10.0, step: 0.01 });
    assert_eq!(
        system.master,
        MasterOptions {
            algorithm: Algorithm::GaussSeidel,
            tolerance: 1e-8,
            max_iterations: 5,
            extrapolate_inputs: true,
            extrapolation_order: 1,
            min_step: 1e-6,
            rollback: true,
            jacobian: JacobianUpdate::EveryIteration,
            threads: 3
        }
    );

    let targets: Vec<VarRef> = system.inputs.iter().map(|i| i.to).collect();
    assert_eq!(targets, [r(0, 7), r(0, 8), r(0, 9), r(0, 10)]);
    assert_eq!(system.inputs[0].signal, Signal::Constant(100.0));
    assert_eq!(system.inputs[1].signal, Signal::Step { time: 1.0, before: 0.0, after: 50.0 });
    // gust.csv column Fz: (0, 0), (1, -10), (3, 30).
    assert_eq!(system.inputs[2].signal.value(0.5), -5.0);
    assert_eq!(system.inputs[2].signal.value(2.0), 10.0);
    assert_eq!(system.inputs[2].signal.value(7.0), 30.0);
    assert_eq!(system.inputs[3].signal, Signal::Sine { amplitude: 1.0, frequency: 0.5, phase: 0.0, offset: 0.0 });

    // fuselage.x, fuselage.hub.acc.*, then every rotor output in model order.
    let outputs: Vec<VarRef> =
        [(0, 11), (0, 13), (0, 14), (0, 15), (1, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 10), (1, 11)]
            .map(|(i, v)| r(i, v))
            .into();
    assert_eq!(system.outputs, outputs);

    assert_eq!(system.var_ref("rotor.blade[2].flap"), Some(r(1, 10)));
    assert_eq!(system.var_ref("rotor.nothing"), None);
    assert_eq!(system.instance("rotor"), Some(1));
    assert_eq!(system.variable(r(0, 0)).name, "mass");
}

#[test]
fn defaults_fill_master_and_outputs() {
    let system = resolve(&with("")).unwrap();
    assert_eq!(system.experiment, Experiment { start: 0.0, stop: 1.0, step: 0.01 });
    assert_eq!(
        system.master,
        MasterOptions {
            algorithm: Algorithm::Newton,
            tolerance: 1e-10,
            max_iterations: 20,
            extrapolate_inputs: false,
            extrapolation_order: 1,
            min_step: 0.01 / 64.0,
            rollback: true,
            jacobian: JacobianUpdate::Reuse,
            threads: 1
        }
    );
    assert!(system.connections.is_empty() && system.inputs.is_empty());
    let all: Vec<String> = system.outputs.iter().map(|&o| system.name(o)).collect();
    assert_eq!(
        all,
        [
            "fuselage.x",
            "fuselage.z",
            "fuselage.hub.acc.x",
            "fuselage.hub.acc.y",
            "fuselage.hub.acc.z",
            "rotor.hub.F.x",
            "rotor.hub.F.y",
            "rotor.hub.F.z",
            "rotor.azimuth",
            "rotor.blade[1].flap",
            "rotor.blade[2].flap",
            "rotor.flag"
        ]
    );
    let system = resolve(&with(r#""outputs": []"#)).unwrap();
    assert!(system.outputs.is_empty(), "an empty list records nothing");
}

#[test]
fn string_and_object_connections_are_the_same() {
    let a = resolve(&with(r#""connections": ["rotor.hub.F.z->fuselage.hub.F.z"]"#)).unwrap();
    let b = resolve(&with(r#""connections": [{"to": "fuselage.hub.F.z", "from": "rotor.hub.F.z"}]"#)).unwrap();
    assert_eq!(a.connections, [Connection { from: r(1, 7), to: r(0, 6) }]);
    assert_eq!(a.connections, b.connections);
}

#[test]
fn one_fmu_under_two_names() {
    let json = r#"{ "fmus": { "main_rotor": { "path": "Rotor.fmu", "parameters": { "nb": 4 } },
                             "tail_rotor": { "path": "Rotor.fmu", "parameters": { "nb": 2, "Omega": 110.5 } } },
                   "connections": ["main_rotor.hub.F.x -> tail_rotor.hub.acc.x"],
                   "experiment": { "stop": 1, "step": 0.1 } }"#;
    let system = resolve(json).unwrap();
    assert_eq!(system.instances[1].parameters, [(0, ParameterValue::Integer(2)), (1, ParameterValue::Real(110.5))]);
    assert_eq!(system.connections, [Connection { from: r(0, 5), to: r(1, 2) }]);
}

#[test]
fn patterns_in_outputs_and_inputs() {
    let json = with(
        r#""outputs": ["fuselage.x", "fuselage.*", "rotor.blade[*].flap", "fuselage.hub.F.*", "fuselage.drag", "fuselage.x"],
           "inputs": [{ "to": "fuselage.ext.F.*", "signal": { "constant": 2.0 } }]"#,
    );
    let system = resolve(&json).unwrap();
    let names: Vec<String> = system.outputs.iter().map(|&o| system.name(o)).collect();
    assert_eq!(
        names,
        [
            "fuselage.x",
            "fuselage.z",
            "fuselage.hub.acc.x",
            "fuselage.hub.acc.y",
            "fuselage.hub.acc.z",
            "rotor.blade[1].flap",
            "rotor.blade[2].flap",
            "fuselage.hub.F.x",
            "fuselage.hub.F.y",
            "fuselage.hub.F.z",
            "fuselage.drag",
        ],
        "listed order, pattern matches in model order, no duplicates; a pattern without outputs selects inputs"
    );
    let driven: Vec<String> = system.inputs.iter().map(|i| system.name(i.to)).collect();
    assert_eq!(driven, ["fuselage.ext.F.x", "fuselage.ext.F.y", "fuselage.ext.F.z"]);
}

#[test]
fn parameters_may_set_input_start_values() {
    let json = r#"{ "fmus": { "f": { "path": "Fuselage.fmu", "parameters": { "hub.F.z": -5, "mode": 2.0 } } },
                   "experiment": { "stop": 1, "step": 0.1 } }"#;
    let system = resolve(json).unwrap();
    assert_eq!(system.instances[0].parameters, [(6, ParameterValue::Real(-5.0)), (16, ParameterValue::Integer(2))]);
}

#[test]
fn from_file_resolves_paths_relative_to_the_json_file() {
    let dir = Dir::new();
    std::fs::create_dir(dir.0.join("systems")).unwrap();
    let json = FULL
        .replace("\"Fuselage.fmu\"", "\"../Fuselage.fmu\"")
        .replace("sub/../Rotor.fmu", "../Rotor.fmu")
        .replace("gust.csv", "../gust.csv");
    let file = dir.write("systems/heli.json", &json);
    let description = SystemDescription::from_file(&file, &fmu_catalog::context()).unwrap();
    assert_eq!(description.base_dir, dir.0.join("systems"));
    let system = description.resolve(descriptions).unwrap();
    assert_eq!(system.instances[1].path, dir.0.join("Rotor.fmu"));
    assert_eq!(system.inputs[2].signal.value(1.0), -10.0);
}
