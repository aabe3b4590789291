//! System descriptions resolved against two fake model descriptions shaped like the Fuselage
//! and a rotor: a full valid system, defaults, patterns, and every error with its field path.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// A fresh directory holding `Fuselage.fmu`, `Rotor.fmu` (empty placeholders) and `gust.csv`,
/// removed on drop.
struct Dir(PathBuf);

impl Dir {
    fn new() -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "system-resolve-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).unwrap();
        let path = path.canonicalize().unwrap();
        std::fs::write(path.join("Fuselage.fmu"), b"").unwrap();
        std::fs::write(path.join("Rotor.fmu"), b"").unwrap();
        std::fs::write(path.join("gust.csv"), "time,Fx,Fz\n0,0,0\n1,5,-10\n3,5,30\n").unwrap();
        Self(path)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
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
    SystemDescription::from_str(json, &dir.0)?.resolve(descriptions)
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
    let description = SystemDescription::from_file(&file).unwrap();
    assert_eq!(description.base_dir, dir.0.join("systems"));
    let system = description.resolve(descriptions).unwrap();
    assert_eq!(system.instances[1].path, dir.0.join("Rotor.fmu"));
    assert_eq!(system.inputs[2].signal.value(1.0), -10.0);
}

// ---------------------------------------------------------------- errors while parsing

#[test]
fn json_syntax_error_has_line_and_column() {
    let e = error("{\n  \"fmus\": {\n    \"a\": { \"path\": \"x.fmu\", }\n  }\n}", "fmus.a");
    assert!(e.starts_with("fmus.a: JSON syntax error at line 3, column "), "{e}");
    assert!(e.contains("trailing comma"), "{e}");
    let e = SystemDescription::from_str("{\"fmus\": ", ".").unwrap_err();
    assert!(e.message.starts_with("JSON syntax error at line 1, column "), "{e}");
    assert!(e.message.contains("EOF"), "{e}");
}

#[test]
fn unknown_fields_are_refused_where_they_are() {
    let e = error(&with(r#""conections": []"#), "conections");
    assert!(e.starts_with("conections: unknown field 'conections', expected one of 'fmus', "), "{e}");
    assert!(e.ends_with("(line 2, column 69)"), "{e}");
    let e = error(&with(r#""master": { "tolerence": 1e-6 }"#), "master.tolerence");
    assert!(e.contains("unknown field 'tolerence', expected one of 'algorithm', 'tolerance'"), "{e}");
    let e = error(
        r#"{"fmus": {"rotor": {"path": "Rotor.fmu", "parameter": {}}}, "experiment": {"stop": 1, "step": 1}}"#,
        "fmus.rotor.parameter",
    );
    assert!(e.contains("unknown field 'parameter', expected one of 'path', 'model', 'parameters'"), "{e}");
    let e = error(
        &with(r#""connections": ["rotor.hub.F.x -> fuselage.hub.F.x", {"form": "rotor.hub.F.y"}]"#),
        "connections[1].form",
    );
    assert!(e.contains("unknown field 'form', expected 'from' or 'to'"), "{e}");
    let e = error(
        &with(r#""inputs": [{"to": "fuselage.ext.F.x", "signal": {"step": {"tme": 1, "after": 2}}}]"#),
        "inputs[0].signal.step.tme",
    );
    assert!(e.contains("unknown field 'tme', expected one of 'time', 'before', 'after'"), "{e}");
    let e = error(&with(r#""inputs": [{"to": "fuselage.ext.F.x", "signal": {"ramp": 1}}]"#), "inputs[0].signal.ramp");
    assert!(e.contains("unknown variant 'ramp', expected one of 'constant', 'step', 'sine', 'table'"), "{e}");
    let e = error(&with(r#""master": { "algorithm": "gauss_seidel" }"#), "master.algorithm");
    assert!(e.contains("unknown variant 'gauss_seidel', expected one of 'newton', 'jacobi', 'gauss-seidel'"), "{e}");
}

#[test]
fn missing_fields_and_wrong_types() {
    // Model names are checked against the catalog of our FMUs, installed as the binary does.
    fmu_catalog::install();
    let e = error(r#"{"fmus": {"rotor": {"path": "Rotor.fmu"}}}"#, "");
    assert!(e.starts_with("missing field 'experiment'"), "{e}");
    let e = error(r#"{"fmus": {"rotor": {}}, "experiment": {"stop": 1, "step": 1}}"#, "fmus.rotor");
    assert!(e.starts_with("fmus.rotor: missing 'path' (a .fmu file) or 'model' (one of our FMUs"), "{e}");
    let e = error(
        r#"{"fmus": {"rotor": {"path": "Rotor.fmu", "model": "Rotor"}}, "experiment": {"stop": 1, "step": 1}}"#,
        "fmus.rotor",
    );
    assert!(e.contains("either 'path' (a .fmu file) or 'model' (one of our FMUs), not both"), "{e}");
    let e =
        error(r#"{"fmus": {"rotor": {"model": "Rotr"}}, "experiment": {"stop": 1, "step": 1}}"#, "fmus.rotor.model");
    assert!(
        e.contains("'Rotr' is not one of our FMUs (Fuselage, Rotor, Aero, Controls) (did you mean 'Rotor'?)"),
        "{e}"
    );
    let e = error(&with(r#""connections": [{"from": "rotor.hub.F.x"}]"#), "connections[0]");
    assert!(e.starts_with("connections[0]: missing field 'to'"), "{e}");
    let e = error(
        r#"{"fmus": {"rotor": {"path": "Rotor.fmu"}}, "experiment": {"stop": 1, "step": "0.01"}}"#,
        "experiment.step",
    );
    assert!(e.starts_with("experiment.step: invalid type: string \"0.01\", expected f64"), "{e}");
    let e = error(&with(r#""master": {"max_iterations": -1}"#), "master.max_iterations");
    assert!(e.contains("invalid value: integer '-1', expected u32"), "{e}");
    let e = error(
        r#"{"fmus": {"f": {"path": "Fuselage.fmu", "parameters": {"mass": "heavy"}}}, "experiment": {"stop": 1, "step": 1}}"#,
        "fmus.f.parameters.mass",
    );
    assert!(e.contains("invalid type: string \"heavy\", expected a number or a boolean"), "{e}");
    let e = error(&with(r#""connections": [42]"#), "connections[0]");
    assert!(e.contains("expected a connection \"instance.output -> instance.input\" or {"), "{e}");
}

#[test]
fn malformed_string_connections() {
    let e = error(&with(r#""connections": ["rotor.hub.F.x => fuselage.hub.F.x"]"#), "connections[0]");
    assert!(e.starts_with("connections[0]: 'rotor.hub.F.x => fuselage.hub.F.x' is not a connection"), "{e}");
    error(&with(r#""connections": ["rotor.hub.F.x -> "]"#), "connections[0]");
    error(&with(r#""connections": ["a.b -> c.d -> e.f"]"#), "connections[0]");
}

#[test]
fn duplicate_and_bad_instance_names() {
    let e = error(
        r#"{"fmus": {"rotor": {"path": "Rotor.fmu"}, "rotor": {"path": "Rotor.fmu"}}, "experiment": {"stop": 1, "step": 1}}"#,
        "fmus.rotor",
    );
    assert!(e.starts_with("fmus.rotor: duplicate key 'rotor'"), "{e}");
    let e = error(
        r#"{"fmus": {"main.rotor": {"path": "Rotor.fmu"}}, "experiment": {"stop": 1, "step": 1}}"#,
        "fmus.main.rotor",
    );
    assert_eq!(
        e,
        "fmus.main.rotor: 'main.rotor' is not an instance name: use letters, digits and '_', not starting with a digit (no dots)"
    );
    let e = error(r#"{"fmus": {}, "experiment": {"stop": 1, "step": 1}}"#, "fmus");
    assert_eq!(e, "fmus: no FMUs: name at least one instance");
    let e = error(
        r#"{"fmus": {"f": {"path": "Fuselage.fmu", "parameters": {"mass": 1, "mass": 2}}}, "experiment": {"stop": 1, "step": 1}}"#,
        "fmus.f.parameters.mass",
    );
    assert!(e.contains("duplicate key 'mass'"), "{e}");
}

#[test]
fn bad_experiment_and_master_numbers() {
    let exp = |e: &str| format!(r#"{{"fmus": {{"rotor": {{"path": "Rotor.fmu"}}}}, "experiment": {e}}}"#);
    assert_eq!(
        error(&exp(r#"{"stop": 1, "step": 0}"#), "experiment.step"),
        "experiment.step: must be a finite number greater than 0, got 0"
    );
    assert_eq!(
        error(&exp(r#"{"stop": 1, "step": -0.1}"#), "experiment.step"),
        "experiment.step: must be a finite number greater than 0, got -0.1"
    );
    assert_eq!(
        error(&exp(r#"{"start": 2, "stop": 2, "step": 0.1}"#), "experiment.stop"),
        "experiment.stop: must be a finite number greater than experiment.start (2), got 2"
    );
    assert_eq!(
        error(&with(r#""master": {"min_step": 0.1}"#), "master.min_step"),
        "master.min_step: must be greater than 0 and at most experiment.step (0.01), got 0.1"
    );
    assert_eq!(
        error(&with(r#""master": {"threads": 0}"#), "master.threads"),
        "master.threads: must be at least 1, got 0"
    );
    assert_eq!(
        error(&with(r#""master": {"tolerance": 0}"#), "master.tolerance"),
        "master.tolerance: must be a finite number greater than 0, got 0"
    );
    assert_eq!(
        error(&with(r#""master": {"max_iterations": 0}"#), "master.max_iterations"),
        "master.max_iterations: must be at least 1, got 0"
    );
    assert_eq!(
        error(
            &with(r#""master": {"extrapolate_inputs": true, "extrapolation_order": 3}"#),
            "master.extrapolation_order"
        ),
        "master.extrapolation_order: must be 1 (linear) or 2 (quadratic), got 3"
    );
    assert_eq!(
        error(&with(r#""master": {"extrapolation_order": 2}"#), "master.extrapolation_order"),
        "master.extrapolation_order: 2 applies to extrapolated inputs: set extrapolate_inputs to true as well"
    );
    let e = error(&exp(r#"{"stop": 1e999, "step": 1}"#), "experiment.stop");
    assert!(e.contains("JSON syntax error") && e.contains("number out of range"), "{e}");
}

// ---------------------------------------------------------------- errors while resolving

#[test]
fn missing_fmu_file_and_failing_import() {
    let dir = Dir::new();
    let json = r#"{"fmus": {"fuselage": {"path": "Fuselage.fmu"}, "rotor": {"path": "sub/../missing/Rotor.fmu"}},
                  "experiment": {"stop": 1, "step": 1}}"#;
    let e = resolve_in(&dir, json).unwrap_err();
    let expected = format!("fmus.rotor.path: file not found: {} (", dir.0.join("missing/Rotor.fmu").display());
    assert!(e.to_string().starts_with(&expected), "{e}");
    assert!(e.to_string().contains("orchestrator package"), "says how to get our FMUs: {e}");
    dir.write("Other.fmu", "");
    let e = resolve_in(&dir, &json.replace("sub/../missing/Rotor.fmu", "Other.fmu")).unwrap_err();
    assert_eq!(e.to_string(), format!("fmus.rotor.path: not an FMU: {}", dir.0.join("Other.fmu").display()));
}

#[test]
fn unknown_instances_and_variables_suggest_names() {
    let e = error(&with(r#""connections": ["rotr.hub.F.x -> fuselage.hub.F.x"]"#), "connections[0].from");
    assert_eq!(e, "connections[0].from: unknown instance 'rotr' in 'rotr.hub.F.x' (did you mean 'rotor'?)");
    let e = error(
        &with(
            r#""connections": ["rotor.hub.F.x -> fuselage.hub.F.x", "rotor.hub.F.y -> fuselage.hub.F.y",
                               {"from": "rotor.hub.F.z", "to": "fuselage.hub.F.q"}]"#,
        ),
        "connections[2].to",
    );
    assert_eq!(e, "connections[2].to: unknown variable 'hub.F.q' in instance 'fuselage' (did you mean 'hub.F.x'?)");
    let e = error(&with(r#""connections": ["rotor.hub.F.* -> fuselage.hub.G.*"]"#), "connections[0].to");
    assert_eq!(
        e,
        "connections[0].to: unknown variable 'hub.G.x' in instance 'fuselage', the target of 'rotor.hub.F.x' matched \
         by 'rotor.hub.F.*' (did you mean 'hub.F.x'?)"
    );
    let e = error(&with(r#""connections": ["rotor.azimuth -> fuselage.completely_unrelated"]"#), "connections[0].to");
    assert_eq!(e, "connections[0].to: unknown variable 'completely_unrelated' in instance 'fuselage'");
    let e = error(&with(r#""outputs": ["fuselage.x", "rotor.azimut"]"#), "outputs[1]");
    assert_eq!(e, "outputs[1]: unknown variable 'azimut' in instance 'rotor' (did you mean 'azimuth'?)");
    let e = error(&with(r#""inputs": [{"to": "fuselage.ext.F.w", "signal": {"constant": 1}}]"#), "inputs[0].to");
    assert_eq!(e, "inputs[0].to: unknown variable 'ext.F.w' in instance 'fuselage' (did you mean 'ext.F.x'?)");
    let e = error(&with(r#""outputs": ["heli"]"#), "outputs[0]");
    assert_eq!(e, "outputs[0]: 'heli' is not a variable reference 'instance.variable'");
}

#[test]
fn causality_mismatches_say_what_the_variable_is() {
    let e = error(&with(r#""connections": ["fuselage.hub.F.x -> rotor.hub.acc.x"]"#), "connections[0].from");
    assert_eq!(e, "connections[0].from: 'fuselage.hub.F.x' is an input, not an output");
    let e = error(&with(r#""connections": ["rotor.nb -> fuselage.mode"]"#), "connections[0].from");
    assert_eq!(e, "connections[0].from: 'rotor.nb' is a parameter, not an output");
    let e = error(&with(r#""connections": ["rotor.hub.F.x -> fuselage.x"]"#), "connections[0].to");
    assert_eq!(e, "connections[0].to: 'fuselage.x' is an output, not an input");
    let e = error(&with(r#""connections": ["rotor.hub.F.* -> fuselage.hub.acc.*"]"#), "connections[0].to");
    assert_eq!(
        e,
        "connections[0].to: 'fuselage.hub.acc.x' is an output, not an input, the target of 'rotor.hub.F.x' matched by \
         'rotor.hub.F.*'"
    );
}

#[test]
fn type_mismatch_names_both_types() {
    let e = error(&with(r#""connections": ["rotor.flag -> fuselage.mode"]"#), "connections[0]");
    assert_eq!(e, "connections[0]: type mismatch: 'rotor.flag' is Boolean but 'fuselage.mode' is Integer");
}

#[test]
fn inputs_driven_twice_name_both_places() {
    let e = error(
        &with(r#""connections": ["rotor.hub.F.* -> fuselage.hub.F.*", "rotor.azimuth -> fuselage.hub.F.y"]"#),
        "connections[1].to",
    );
    assert_eq!(
        e,
        "connections[1].to: input 'fuselage.hub.F.y' is driven twice: by connections[0] (from 'rotor.hub.F.y') and by \
         connections[1] (from 'rotor.azimuth')"
    );
    let e = error(
        &with(
            r#""connections": ["rotor.hub.F.* -> fuselage.hub.F.*"],
               "inputs": [{"to": "fuselage.ext.F.x", "signal": {"constant": 1}}, {"to": "fuselage.hub.F.z", "signal": {"constant": 1}}]"#,
        ),
        "inputs[1].to",
    );
    assert_eq!(
        e,
        "inputs[1].to: input 'fuselage.hub.F.z' is driven twice: by connections[0] (from 'rotor.hub.F.z') and by inputs[1]"
    );
    let e = error(
        &with(
            r#""inputs": [{"to": "fuselage.ext.F.*", "signal": {"constant": 1}}, {"to": "fuselage.ext.F.y", "signal": {"constant": 2}}]"#,
        ),
        "inputs[1].to",
    );
    assert_eq!(e, "inputs[1].to: input 'fuselage.ext.F.y' is driven twice: by inputs[0] and by inputs[1]");
}

#[test]
fn patterns_that_match_nothing_or_disagree() {
    let e = error(&with(r#""connections": ["rotor.hub.M.* -> fuselage.hub.M.*"]"#), "connections[0].from");
    assert_eq!(e, "connections[0].from: pattern 'rotor.hub.M.*' matches no output of instance 'rotor'");
    let e = error(&with(r#""connections": ["rotor.hub.acc.* -> fuselage.hub.F.*"]"#), "connections[0].from");
    assert_eq!(
        e,
        "connections[0].from: pattern 'rotor.hub.acc.*' matches no output of instance 'rotor'; it matches only \
         'hub.acc.x' (an input), 'hub.acc.y' (an input), 'hub.acc.z' (an input)"
    );
    let e = error(&with(r#""connections": ["rotor.hub.F.* -> fuselage.hub.F.x"]"#), "connections[0].to");
    assert_eq!(
        e,
        "connections[0].to: 'fuselage.hub.F.x' has 0 '*' but 'from' 'rotor.hub.F.*' has 1; both sides need the same number"
    );
    let e = error(&with(r#""connections": ["rotor.*.F.* -> fuselage.*.F.*"]"#), "connections[0].from");
    assert_eq!(e, "connections[0].from: 'rotor.*.F.*' has 2 '*'; a pattern may have at most one");
    let e = error(&with(r#""connections": ["rot*.hub.F.x -> fuselage.hub.F.x"]"#), "connections[0].from");
    assert!(e.contains("'rot*' is not an instance name"), "{e}");
    let e = error(&with(r#""outputs": ["fuselage.nothing.*"]"#), "outputs[0]");
    assert_eq!(e, "outputs[0]: pattern 'fuselage.nothing.*' matches no output or input of instance 'fuselage'");
    let e = error(&with(r#""inputs": [{"to": "fuselage.hub.acc.*", "signal": {"constant": 1}}]"#), "inputs[0].to");
    assert_eq!(
        e,
        "inputs[0].to: pattern 'fuselage.hub.acc.*' matches no input of instance 'fuselage'; it matches only 'hub.acc.x' \
         (an output), 'hub.acc.y' (an output), 'hub.acc.z' (an output)"
    );
}

#[test]
fn external_inputs_drive_real_inputs_only() {
    let e = error(&with(r#""inputs": [{"to": "fuselage.x", "signal": {"constant": 1}}]"#), "inputs[0].to");
    assert_eq!(e, "inputs[0].to: 'fuselage.x' is an output, not an input; external signals drive inputs only");
    let e = error(&with(r#""inputs": [{"to": "fuselage.mode", "signal": {"constant": 1}}]"#), "inputs[0].to");
    assert_eq!(e, "inputs[0].to: 'fuselage.mode' is Integer; external signals drive Real inputs only");
}

#[test]
fn bad_parameters() {
    let p = |params: &str| {
        format!(
            r#"{{"fmus": {{"fuselage": {{"path": "Fuselage.fmu", "parameters": {{{params}}}}}}}, "experiment": {{"stop": 1, "step": 1}}}}"#
        )
    };
    assert_eq!(
        error(&p(r#""mas": 2100"#), "fmus.fuselage.parameters.mas"),
        "fmus.fuselage.parameters.mas: unknown variable 'mas' in instance 'fuselage' (did you mean 'mass'?)"
    );
    assert_eq!(
        error(&p(r#""mass": true"#), "fmus.fuselage.parameters.mass"),
        "fmus.fuselage.parameters.mass: 'mass' is Real and needs a finite number, got true"
    );
    assert_eq!(
        error(&p(r#""euler_sequence": 321.5"#), "fmus.fuselage.parameters.euler_sequence"),
        "fmus.fuselage.parameters.euler_sequence: 'euler_sequence' is Integer and needs an integral number, got 321.5"
    );
    assert_eq!(
        error(&p(r#""euler_sequence": 1e10"#), "fmus.fuselage.parameters.euler_sequence"),
        "fmus.fuselage.parameters.euler_sequence: 'euler_sequence' is Integer and needs an integer in the 32-bit range, \
         got 10000000000"
    );
    assert_eq!(
        error(&p(r#""euler_sequence": false"#), "fmus.fuselage.parameters.euler_sequence"),
        "fmus.fuselage.parameters.euler_sequence: 'euler_sequence' is Integer and needs an integral number, got false"
    );
    assert_eq!(
        error(&p(r#""strict_inertia": 1"#), "fmus.fuselage.parameters.strict_inertia"),
        "fmus.fuselage.parameters.strict_inertia: 'strict_inertia' is Boolean and needs true or false, got 1"
    );
    assert_eq!(
        error(&p(r#""x": 1"#), "fmus.fuselage.parameters.x"),
        "fmus.fuselage.parameters.x: 'x' is an output; only parameters and the start values of inputs can be set"
    );
    assert_eq!(
        error(&p(r#""drag": 1"#), "fmus.fuselage.parameters.drag"),
        "fmus.fuselage.parameters.drag: 'drag' is a local variable; only parameters and the start values of inputs can \
         be set"
    );
}

#[test]
fn table_errors_name_the_csv_file_and_line() {
    let dir = Dir::new();
    let json = |csv: &str, column: &str| {
        with(&format!(
            r#""inputs": [{{"to": "fuselage.ext.F.z", "signal": {{"table": {{"csv": "{csv}", "column": "{column}"}}}}}}]"#
        ))
    };
    let e = resolve_in(&dir, &json("nope.csv", "Fz")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("inputs[0].signal.table.csv: file not found: {}", dir.0.join("nope.csv").display())
    );
    let bad = dir.write("bad.csv", "time,Fz\n0,1\n1,2\n1,3\n");
    let e = resolve_in(&dir, &json("bad.csv", "Fz")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "inputs[0].signal.table: {}, line 4: time 1 is not greater than the previous time 1 (line 3); times must be \
             strictly increasing",
            bad.display()
        )
    );
    let e = resolve_in(&dir, &json("gust.csv", "Fy")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "inputs[0].signal.table: {}, line 1: no column 'Fy' in the header (did you mean 'Fx'?) (value columns: Fx, Fz)",
            dir.0.join("gust.csv").display()
        )
    );
}

#[test]
fn from_file_errors() {
    let dir = Dir::new();
    let e = SystemDescription::from_file(dir.0.join("none.json")).unwrap_err();
    assert_eq!(e.path, "");
    assert_eq!(e.to_string(), format!("system description not found: {}", dir.0.join("none.json").display()));
    let file = dir.write("bad.json", "{\n  \"fmus\": {\n    \"rotor\": { \"path\": \"Rotor.fmu\" }\n  },\n  \"experiment\": { \"stop\": 1, \"step\": 1 },\n  \"outputs\": [\"rotor.azimuth\",, ]\n}\n");
    let e = SystemDescription::from_file(&file).unwrap_err();
    assert_eq!(e.path, "outputs");
    assert!(e.message.starts_with("JSON syntax error at line 6, column 31: "), "{e}");
}
