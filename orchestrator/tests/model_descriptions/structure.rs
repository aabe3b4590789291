//! The outputs of our committed model descriptions that the master reads alone while stepping:
//! those whose `ModelStructure` dependencies name no input (`ModelDescription::feedthrough_inputs`
//! empty), as the importer's parser reads them.

use cosim::import::model_description::{Causality, ModelDescription};

/// The names of the outputs of the committed `modelDescription/<model>.xml` without direct
/// feedthrough.
fn state_only_outputs(model: &str) -> Vec<String> {
    let path = format!("{}/../modelDescription/{model}.xml", env!("CARGO_MANIFEST_DIR"));
    let md = ModelDescription::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    (0..md.variables.len())
        .filter(|&v| md.variables[v].causality == Causality::Output && md.feedthrough_inputs(v).is_empty())
        .map(|v| md.variables[v].name.clone())
        .collect()
}

#[test]
fn outputs_without_feedthrough_of_our_fmus() {
    let mut expected = vec!["azimuth".to_string(), "shaft.rate".to_string()];
    for i in 1..=8 {
        for q in ["azimuth", "flap", "lag", "flap_rate", "lag_rate"] {
            expected.push(format!("blade[{i}].{q}"));
        }
    }
    assert_eq!(state_only_outputs("Rotor"), expected);
    // The controls' outputs all depend on their inputs; the airframe's kinematics do not.
    assert!(state_only_outputs("Controls").is_empty());
    let fuselage = state_only_outputs("Fuselage");
    assert!(fuselage.iter().any(|n| n == "hub.vel.x") && !fuselage.iter().any(|n| n == "hub.acc.x"));
}
