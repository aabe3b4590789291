//! What the harness refuses, and how it says so: an FMU it has no model for, an FMU generated
//! from another interface than the linked model (GUID), a parameter the model rejects, a
//! parameter outside its range. The FMU archives here carry a placeholder binary: the harness
//! reads only their model descriptions.

use std::path::Path;

use monolithic_reference::{Error, MonolithicSystem};
use test_fmus::{Body, Load};

/// Writes `<identifier>.fmu` with the given model description and a placeholder binary.
fn fmu(dir: &Path, file: &str, identifier: &str, xml: &str) {
    let binary = dir.join("placeholder.so");
    std::fs::write(&binary, b"not a shared library").unwrap();
    fmu_tooling::write_fmu(&dir.join(file), xml, identifier, &binary, &[]).unwrap();
}

fn two_mass_fmus(dir: &Path) {
    fmu(dir, "TwoMassBody.fmu", "TwoMassBody", &fmu_core::model_description::<Body>());
    fmu(dir, "TwoMassLoad.fmu", "TwoMassLoad", &fmu_core::model_description::<Load>());
}

const TWO_MASS: &str = r#"{
  "fmus": { "body": { "path": "TwoMassBody.fmu", "parameters": { "m": 1.0 } }, "load": { "path": "TwoMassLoad.fmu" } },
  "connections": [ "body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F" ],
  "experiment": { "stop": 1.0, "step": 0.1 }
}"#;

fn build(json: &str, dir: &Path) -> Result<MonolithicSystem, Error> {
    MonolithicSystem::from_system(&crate::common::system(json, dir))
}

#[test]
fn a_valid_system_builds_from_description_only_archives() {
    let dir = tempfile::tempdir().unwrap();
    two_mass_fmus(dir.path());
    let mut m = build(TWO_MASS, dir.path()).unwrap();
    assert_eq!(m.state_layout().0, 4);
    let results = m.run(0.1).unwrap();
    assert_eq!(results.time.len(), 11);
    // Without "outputs", every output of every instance, in model-description order.
    assert_eq!(results.names, ["body.x", "body.v", "body.a", "load.F", "load.x2", "load.v2"]);
}

#[test]
fn an_fmu_without_an_in_process_model_is_named() {
    let dir = tempfile::tempdir().unwrap();
    two_mass_fmus(dir.path());
    let xml =
        fmu_core::model_description::<Body>().replace("modelIdentifier=\"TwoMassBody\"", "modelIdentifier=\"Other\"");
    fmu(dir.path(), "TwoMassBody.fmu", "Other", &xml);
    let e = build(TWO_MASS, dir.path()).err().expect("unknown model");
    assert!(
        matches!(&e, Error::UnknownModel { instance, identifier, .. } if instance == "body" && identifier == "Other")
    );
    let text = e.to_string();
    // The models linked in: our FMUs as the catalog lists them, then the two test models.
    let linked = format!("{}, TwoMassBody, TwoMassLoad", fmu_catalog::our_models().join(", "));
    assert!(text.contains(&linked), "{text}");
}

#[test]
fn an_fmu_of_another_interface_is_refused_by_guid() {
    let dir = tempfile::tempdir().unwrap();
    two_mass_fmus(dir.path());
    let xml = fmu_core::model_description::<Load>();
    let guid = fmu_core::guid::<Load>();
    fmu(dir.path(), "TwoMassLoad.fmu", "TwoMassLoad", &xml.replace(&*guid, "{00000000-0000-0000-0000-000000000000}"));
    let e = build(TWO_MASS, dir.path()).err().expect("GUID mismatch");
    assert!(matches!(&e, Error::GuidMismatch { instance, .. } if instance == "load"), "{e}");
    assert!(e.to_string().contains("re-package"), "{e}");
}

#[test]
fn parameters_the_model_rejects_are_reported_with_the_instance() {
    let dir = tempfile::tempdir().unwrap();
    two_mass_fmus(dir.path());
    let json = TWO_MASS.replace("\"m\": 1.0", "\"m\": -1.0");
    let e = build(&json, dir.path()).err().expect("negative mass");
    assert!(
        matches!(&e, Error::Configure { instance, message } if instance == "body" && message.contains("m = -1")),
        "{e}"
    );
}

#[test]
fn integer_parameters_outside_their_range_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    fmu(dir.path(), "Rotor.fmu", "Rotor", &fmu_core::model_description::<fmu_rotor::Rotor>());
    let json = r#"{ "fmus": { "rotor": { "path": "Rotor.fmu", "parameters": { "nb": 12 } } },
                    "experiment": { "stop": 0.1, "step": 0.01 } }"#;
    let e = build(json, dir.path()).err().expect("nb out of range");
    assert!(
        matches!(&e, Error::Configure { instance, message } if instance == "rotor" && message.starts_with("nb: ")),
        "{e}"
    );
}
