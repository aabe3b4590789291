//! String parameters from a system description's `parameters` reach an FMU through our importer
//! (`fmi2SetString`): `TextParameters.fmu` (`test_fmus::text`) turns a label, a number written as
//! text and a file in its resources into outputs, compared with what they say.

use crate::common;

use test_fmus::text::{RESOURCE_TABLE, package_into};

/// The system description of one `TextParameters.fmu` instance `t` with these parameters.
fn json(parameters: &str) -> String {
    format!(
        r#"{{
      "fmus": {{ "t": {{ "path": "TextParameters.fmu", "parameters": {{ {parameters} }} }} }},
      "experiment": {{ "stop": 1.0, "step": 0.25 }},
      "outputs": ["t.x", "t.label_length", "t.table_value"]
    }}"#
    )
}

#[test]
fn string_parameters_of_a_system_description_set_the_outputs() {
    let dir = tempfile::tempdir().unwrap();
    package_into(dir.path());
    // "S-300 \u{2708}": 7 characters (9 bytes in UTF-8).
    let parameters = format!(r#""label": "S-300 \u2708", "rate": "-1.25", "table_file": "{}""#, RESOURCE_TABLE.0);
    let (results, _) = common::run(common::system(&json(&parameters), dir.path())).unwrap();
    let column = |name: &str| results.column(name).unwrap_or_else(|| panic!("no column {name}"));
    assert_eq!(results.time, [0.0, 0.25, 0.5, 0.75, 1.0]);
    // x' = rate from x(0) = 0: x(t) = rate t (the integrator is exact for a constant rate).
    for (x, t) in column("t.x").iter().zip(&results.time) {
        assert!((x - (-1.25 * t)).abs() < 1e-12, "x({t}) = {x}");
    }
    assert!(column("t.label_length").iter().all(|&n| n == 7.0), "{:?}", column("t.label_length"));
    assert!(column("t.table_value").iter().all(|&v| v == RESOURCE_TABLE.1), "{:?}", column("t.table_value"));
}

#[test]
fn a_string_for_a_number_and_a_number_for_a_string_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    package_into(dir.path());
    for (parameters, field, message) in [
        (r#""rate": 2.5"#, "fmus.t.parameters.rate", "'rate' is String and needs a string, got 2.5"),
        (r#""tolerance": "1e-9""#, "fmus.t.parameters.tolerance", r#"needs a finite number, got "1e-9""#),
    ] {
        let description = rotorcraft::system_from_str(&json(parameters), dir.path(), &fmu_catalog::context()).unwrap();
        let error = description
            .resolve(|path| cosim::import::Fmu::open(path).map(|f| f.model_description().clone()))
            .expect_err(parameters)
            .to_string();
        assert!(error.contains(field) && error.contains(message), "{parameters}: {error}");
    }
}

#[test]
fn a_string_the_model_refuses_stops_the_run_with_its_message() {
    let dir = tempfile::tempdir().unwrap();
    package_into(dir.path());
    let error = common::run(common::system(&json(r#""rate": "fast""#), dir.path())).err().expect("'fast' is no number");
    let text = error.to_string();
    assert!(text.contains("invalid parameters: parameter 'rate' is not a finite number: 'fast'"), "{text}");
}

/// A String parameter with XML's special characters written to an SSP (`<ssv:String>`) and read
/// back is the same text.
#[test]
fn string_parameters_survive_an_ssp_export_and_import() {
    use cosim::system::ParameterSpec;
    let dir = tempfile::tempdir().unwrap();
    package_into(dir.path());
    let label = r#"a & <b> "c" 'd'"#;
    let json_path = dir.path().join("text.json");
    std::fs::write(&json_path, json(&format!(r#""label": {label:?}, "rate": "0.5""#))).unwrap();
    let description = rotorcraft::read_system(&json_path, &fmu_catalog::context()).unwrap();
    let system = common::resolve(&description);
    let ssp = dir.path().join("text.ssp");
    cosim::ssp::export(&json_path, &description, &system, &ssp).unwrap();
    let (imported, _) = cosim::ssp::import(&ssp, &fmu_catalog::context()).unwrap();
    let (_, fmu) = imported.fmus.iter().find(|(name, _)| name == "t").expect("instance t");
    assert_eq!(
        fmu.parameters,
        [
            ("label".to_string(), ParameterSpec::Text(label.into())),
            ("rate".to_string(), ParameterSpec::Text("0.5".into()))
        ]
    );
}
