//! A loop through an FMU with neither directional derivatives nor get-after-set is coupled with
//! a one-step delay: one warning, and the run summary says so.

use crate::common;

use test_fmus::{Body, Load};

#[test]
fn a_loop_without_jacobian_is_named_in_the_run_summary() {
    let dir = tempfile::tempdir().unwrap();
    common::package_test_fmu::<Body>(dir.path());
    // TwoMassLoad declaring neither directional derivatives nor get-after-set.
    let xml = fmu_core::model_description::<Load>()
        .replace(r#"providesDirectionalDerivative="true""#, r#"providesDirectionalDerivative="false""#)
        .replace(r#"getAfterSet="true""#, r#"getAfterSet="false""#);
    assert!(!xml.contains(r#"providesDirectionalDerivative="true""#) && xml.contains(r#"getAfterSet="false""#));
    let library = test_fmus::fixtures::library_dir().join("libTwoMassLoad.so");
    fmu_tooling::write_fmu(&dir.path().join("LoadPlain.fmu"), &xml, "TwoMassLoad", &library, &[]).unwrap();
    let json = r#"{
  "fmus": {
    "body": { "path": "TwoMassBody.fmu", "parameters": { "m": 1.0, "k": 4.0, "c": 0.3, "x0": 0.1 } },
    "load": { "path": "LoadPlain.fmu", "parameters": { "m_r": 0.5, "m2": 0.5, "k2": 2.0, "c2": 0.1 } }
  },
  "connections": ["body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F"],
  "experiment": { "start": 0.0, "stop": 0.1, "step": 0.01 },
  "outputs": ["body.x"]
}"#;
    let system = common::system(json, dir.path());
    let (_, master) = common::run(system).unwrap();
    let summary = master.summary(1.0);
    let delays = summary.warnings.iter().filter(|w| w.contains("one-step delay")).count();
    assert_eq!(delays, 1, "one warning: {:?}", summary.warnings);
    assert_eq!(summary.delayed_loops.len(), 1, "{:?}", summary.delayed_loops);
    let text = summary.to_text();
    assert!(text.contains("coupled with a one-step delay") && text.contains("load.F"), "{text}");
    assert_eq!(summary.to_json()["delayed_loops"].as_array().unwrap().len(), 1);
}
