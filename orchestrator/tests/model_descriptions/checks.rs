//! Model descriptions the parser used to accept silently: start values that do not fit their type,
//! variables sharing a value reference, output dependencies on variables FMI 2.0 does not allow
//! there; and `orchestrator inspect` printing each cause of an error once. The table in
//! `docs/importer-robustness.md` lists the cases.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use cosim::import::{DescriptionError, ModelDescription};

/// A Co-Simulation description with `variables` and `structure` (the ModelStructure body).
fn doc(variables: &str, structure: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="m" guid="{{g}}">
  <CoSimulation modelIdentifier="m"/>
  <ModelVariables>
{variables}
  </ModelVariables>
  <ModelStructure>{structure}</ModelStructure>
</fmiModelDescription>
"#
    )
}

fn invalid(xml: &str) -> String {
    match ModelDescription::parse(xml) {
        Err(e @ DescriptionError::Invalid { .. }) => e.to_string(),
        other => panic!("expected an Invalid error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// (a) Typed start values.

#[test]
fn start_values_must_fit_their_type() {
    for (element, start, expected) in [
        ("Real", "abc", "not a real number"),
        ("Real", "1,5", "not a real number"),
        ("Real", "inf", "not a real number"),
        ("Integer", "2.5", "not a 32-bit integer"),
        ("Integer", "3000000000", "not a 32-bit integer"),
        ("Enumeration declaredType=\"E\"", "one", "not a 32-bit integer"),
        ("Boolean", "yes", "not a boolean"),
        ("Boolean", "True", "not a boolean"),
    ] {
        let variables = format!(
            r#"    <ScalarVariable name="ok" valueReference="0"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="bad" valueReference="1" causality="parameter" variability="fixed"><{element} start="{start}"/></ScalarVariable>"#
        );
        let message = invalid(&doc(&variables, ""));
        assert!(message.contains(&format!("ScalarVariable 'bad' has start=\"{start}\"")), "{message}");
        assert!(message.contains(expected), "{element} {start}: {message}");
        assert!(message.starts_with("modelDescription.xml line 6:"), "the variable's line: {message}");
    }

    // The XML Schema forms are accepted, surrounding blanks included.
    let variables = r#"
    <ScalarVariable name="a" valueReference="0"><Real start="-1.5e3"/></ScalarVariable>
    <ScalarVariable name="b" valueReference="1"><Real start="INF"/></ScalarVariable>
    <ScalarVariable name="c" valueReference="2"><Real start=" .5 "/></ScalarVariable>
    <ScalarVariable name="d" valueReference="3"><Real start="NaN"/></ScalarVariable>
    <ScalarVariable name="e" valueReference="0"><Integer start="+3"/></ScalarVariable>
    <ScalarVariable name="f" valueReference="1"><Integer start="-2147483648"/></ScalarVariable>
    <ScalarVariable name="g" valueReference="0"><Boolean start="true"/></ScalarVariable>
    <ScalarVariable name="h" valueReference="1"><Boolean start="0"/></ScalarVariable>
    <ScalarVariable name="i" valueReference="0"><String start="anything at all"/></ScalarVariable>"#;
    let md = ModelDescription::parse(&doc(variables, "")).unwrap();
    assert_eq!(md.variables.len(), 9);
}

// ---------------------------------------------------------------------------------------------
// (b) Variables sharing a value reference.

#[test]
fn shared_value_references_are_aliases_within_a_base_type() {
    // Value references are unique per base type (FMI 2.0 section 2.2.7): a Real, an Integer, a
    // Boolean and a String numbered 0 are four different variables, as tools that number each
    // type from 0 write them; no warning.
    let variables = r#"
    <ScalarVariable name="x" valueReference="0" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="n" valueReference="0" causality="input"><Integer start="0"/></ScalarVariable>
    <ScalarVariable name="b" valueReference="0" causality="input"><Boolean start="false"/></ScalarVariable>
    <ScalarVariable name="s" valueReference="0" causality="input"><String start=""/></ScalarVariable>"#;
    let md = ModelDescription::parse(&doc(variables, "")).unwrap();
    assert!(md.alias_warnings().is_empty(), "{:?}", md.alias_warnings());

    // Aliases with one unit (or none stated), read-only aliases of a settable variable: accepted,
    // no warning (`y` and its alias `y_alias` are the common case).
    let variables = r#"
    <ScalarVariable name="u" valueReference="1" causality="input"><Real unit="m" start="0"/></ScalarVariable>
    <ScalarVariable name="u_seen" valueReference="1" causality="output"><Real unit="m"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="2" causality="output"><Real unit="m"/></ScalarVariable>
    <ScalarVariable name="y_alias" valueReference="2"><Real/></ScalarVariable>
    <ScalarVariable name="k" valueReference="3" causality="output"><Integer/></ScalarVariable>
    <ScalarVariable name="k_enum" valueReference="3" causality="output"><Enumeration declaredType="E"/></ScalarVariable>"#;
    let md = ModelDescription::parse(&doc(variables, "")).unwrap();
    assert!(md.alias_warnings().is_empty(), "{:?}", md.alias_warnings());

    // Two Reals with one value reference and different units: refused, naming both.
    let variables = r#"
    <ScalarVariable name="length" valueReference="4" causality="output"><Real unit="m"/></ScalarVariable>
    <ScalarVariable name="duration" valueReference="4" causality="output"><Real unit="s"/></ScalarVariable>"#;
    let message = invalid(&doc(variables, ""));
    assert!(
        message.contains("ScalarVariables 'length' (unit m) and 'duration' (unit s) share valueReference 4"),
        "{message}"
    );

    // Setting one changes the other: warned (two inputs; a parameter aliasing a constant).
    let variables = r#"
    <ScalarVariable name="u1" valueReference="5" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="u2" valueReference="5" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="p" valueReference="6" causality="parameter" variability="fixed"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="c" valueReference="6" variability="constant"><Real start="1"/></ScalarVariable>"#;
    let md = ModelDescription::parse(&doc(variables, "")).unwrap();
    assert_eq!(
        md.alias_warnings(),
        [
            "'u1' (input), 'u2' (input) share valueReference 5: setting one sets the others (u1, u2 can all be set)",
            "'p' (parameter), 'c' (local) share valueReference 6: setting 'p' changes 'c', declared constant",
        ]
    );
    let text = cosim::import::inspect::describe(&md);
    assert!(text.contains("Warning: 'u1' (input), 'u2' (input) share valueReference 5"), "{text}");
}

// ---------------------------------------------------------------------------------------------
// (c) Output dependencies.

const DEPENDENCY_VARIABLES: &str = r#"
    <ScalarVariable name="u" valueReference="0" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="x" valueReference="1" initial="exact"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="der(x)" valueReference="2"><Real derivative="2"/></ScalarVariable>
    <ScalarVariable name="k" valueReference="3" causality="parameter" variability="fixed"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="4" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="w" valueReference="5"><Real/></ScalarVariable>
    <ScalarVariable name="t" valueReference="6" causality="independent"><Real/></ScalarVariable>
    <ScalarVariable name="z" valueReference="7" causality="output"><Real/></ScalarVariable>"#;

#[test]
fn dependencies_are_inputs_states_or_the_independent_variable() {
    // Input u (1), state x (2, the variable der(x) is the derivative of), time (7): allowed.
    let allowed = r#"<Outputs><Unknown index="5" dependencies="1 2 7"/><Unknown index="8" dependencies=""/></Outputs>
      <Derivatives><Unknown index="3"/></Derivatives>"#;
    let md = ModelDescription::parse(&doc(DEPENDENCY_VARIABLES, allowed)).unwrap();
    assert_eq!(md.output_dependency(4).unwrap().dependencies, Some(vec![0, 1, 6]));
    assert_eq!(md.feedthrough_inputs(4), vec![0], "feedthrough is through inputs only");

    for (deps, named, what) in [
        ("1 4", "dependency 4 ('k')", "a variable of causality parameter that is not a continuous-time state"),
        ("5", "dependency 5 ('y')", "the output itself"),
        ("8", "dependency 8 ('z')", "a variable of causality output"),
        ("6", "dependency 6 ('w')", "a variable of causality local that is not a continuous-time state"),
        ("3", "dependency 3 ('der(x)')", "a variable of causality local"),
    ] {
        let structure = format!(r#"<Outputs><Unknown index="5" dependencies="{deps}"/></Outputs>"#);
        let message = invalid(&doc(DEPENDENCY_VARIABLES, &structure));
        assert!(
            message.contains(&format!("output 'y' lists dependency {}", &named["dependency ".len()..])),
            "{message}"
        );
        assert!(message.contains(what), "{deps}: {message}");
        assert!(message.contains("FMI 2.0 allows only inputs, continuous-time states and the independent variable"));
    }
}

// ---------------------------------------------------------------------------------------------
// (d) `inspect` prints each cause once.

fn inspect(fmu: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_orchestrator")).arg("inspect").arg(fmu).output().unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn zip(path: PathBuf, entries: &[(&str, &str)]) -> PathBuf {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for (name, content) in entries {
        zip.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(content.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    path
}

#[test]
fn inspect_prints_each_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let not_zip = dir.path().join("not-a-zip.fmu");
    std::fs::write(&not_zip, "hello").unwrap();
    let broken = doc("<b>", "");
    let bad_start = doc(r#"<ScalarVariable name="a" valueReference="0"><Real start="abc"/></ScalarVariable>"#, "");
    let cases = [
        (dir.path().join("missing.fmu"), "No such file or directory"),
        (not_zip, "Could not find EOCD"),
        (zip(dir.path().join("escape.fmu"), &[("../evil.txt", "x")]), "../evil.txt"),
        (zip(dir.path().join("no-description.fmu"), &[("other.txt", "x")]), "has no modelDescription.xml"),
        (zip(dir.path().join("bad-start.fmu"), &[("modelDescription.xml", &bad_start)]), "not a real number"),
        (zip(dir.path().join("not-xml.fmu"), &[("modelDescription.xml", &broken)]), "not well-formed XML"),
    ];
    for (fmu, cause) in cases {
        let stderr = inspect(&fmu);
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{stderr}");
        assert!(lines[0].starts_with("error: "), "{stderr}");
        assert_eq!(stderr.matches(cause).count(), 1, "'{cause}' once: {stderr}");
        // No part of the message repeats: each ": "-separated piece appears once.
        for piece in lines[0].split(": ").filter(|p| p.len() > 12) {
            assert_eq!(stderr.matches(piece).count(), 1, "'{piece}' repeated: {stderr}");
        }
    }
}
