//! Every error of resolving a system description, with its field path: while parsing, then
//! against the model descriptions.

use super::*;

// ---------------------------------------------------------------- errors while parsing

#[test]
fn json_syntax_error_has_line_and_column() {
    let e = error("{\n  \"fmus\": {\n    \"a\": { \"path\": \"x.fmu\", }\n  }\n}", "fmus.a");
    assert!(e.starts_with("fmus.a: JSON syntax error at line 3, column "), "{e}");
    assert!(e.contains("trailing comma"), "{e}");
    let e = SystemDescription::from_str("{\"fmus\": ", ".", &fmu_catalog::context()).unwrap_err();
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
    // Model names are checked against the catalog of our FMUs (`resolve_in`), as the binary does.
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
    // The list is the catalog's, every model of ours in its order.
    let ours = fmu_catalog::our_models().join(", ");
    assert!(e.contains(&format!("'Rotr' is not one of our FMUs ({ours}) (did you mean 'Rotor'?)")), "{e}");
    assert!(ours.starts_with("Fuselage, Rotor, Aero, Controls"), "{ours}");
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
    // A JSON string is read (for String parameters), and refused for a Real.
    assert!(e.contains("'mass' is Real and needs a finite number, got \"heavy\""), "{e}");
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
    // (description, field path, the whole message after the path)
    let cases = [
        (exp(r#"{"stop": 1, "step": 0}"#), "experiment.step", "must be a finite number greater than 0, got 0"),
        (exp(r#"{"stop": 1, "step": -0.1}"#), "experiment.step", "must be a finite number greater than 0, got -0.1"),
        (
            exp(r#"{"start": 2, "stop": 2, "step": 0.1}"#),
            "experiment.stop",
            "must be a finite number greater than experiment.start (2), got 2",
        ),
        (
            with(r#""master": {"min_step": 0.1}"#),
            "master.min_step",
            "must be greater than 0 and at most experiment.step (0.01), got 0.1",
        ),
        (with(r#""master": {"threads": 0}"#), "master.threads", "must be at least 1, got 0"),
        (with(r#""master": {"tolerance": 0}"#), "master.tolerance", "must be a finite number greater than 0, got 0"),
        (with(r#""master": {"max_iterations": 0}"#), "master.max_iterations", "must be at least 1, got 0"),
        (
            with(r#""master": {"extrapolate_inputs": true, "extrapolation_order": 3}"#),
            "master.extrapolation_order",
            "must be 1 (linear) or 2 (quadratic), got 3",
        ),
        (
            with(r#""master": {"extrapolation_order": 2}"#),
            "master.extrapolation_order",
            "2 applies to extrapolated inputs: set extrapolate_inputs to true as well",
        ),
    ];
    for (description, path, message) in &cases {
        assert_eq!(error(description, path), format!("{path}: {message}"));
    }
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
    let e = SystemDescription::from_file(dir.0.join("none.json"), &fmu_catalog::context()).unwrap_err();
    assert_eq!(e.path, "");
    assert_eq!(e.to_string(), format!("system description not found: {}", dir.0.join("none.json").display()));
    let file = dir.write("bad.json", "{\n  \"fmus\": {\n    \"rotor\": { \"path\": \"Rotor.fmu\" }\n  },\n  \"experiment\": { \"stop\": 1, \"step\": 1 },\n  \"outputs\": [\"rotor.azimuth\",, ]\n}\n");
    let e = SystemDescription::from_file(&file, &fmu_catalog::context()).unwrap_err();
    assert_eq!(e.path, "outputs");
    assert!(e.message.starts_with("JSON syntax error at line 6, column 31: "), "{e}");
}
