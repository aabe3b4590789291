//! The same FMU (Fuselage.fmu) run by our orchestrator and by FMPy (a third-party master, from
//! PyPI) with the same fixed communication step gives the same trajectory.

use std::sync::Arc;

use cosim::import::{FacadeLogger, Fmu};
use cosim::master::{FmuCache, Master};
use cosim::system::{SystemContext, SystemDescription};
use rotorcraft_tests::{fmu, simulate_with_fmpy};

const PARAMETERS: &[(&str, f64)] = &[("mass", 1800.0), ("cg.x", 0.05), ("I.xz", -120.0), ("u0", 20.0), ("q0", 0.05)];
const INPUTS: &[(&str, f64)] = &[("hub.F.z", -17000.0), ("hub.F.x", 500.0), ("hub.M.y", -300.0), ("tail.F.y", 40.0)];
const OUTPUTS: &[&str] = &["x", "z", "u", "w", "q", "theta", "psi", "hub.acc.x", "hub.acc.z", "tail.vel.y"];

#[test]
fn orchestrator_and_fmpy_agree_on_a_single_fmu() {
    let (stop, step) = (3.0, 0.02);
    let path = fmu("Fuselage");
    let params: Vec<String> = PARAMETERS.iter().map(|(n, v)| format!("\"{n}\": {v:?}")).collect();
    let inputs: Vec<String> = INPUTS
        .iter()
        .map(|(n, v)| format!("{{ \"to\": \"fuselage.{n}\", \"signal\": {{ \"constant\": {v:?} }} }}"))
        .collect();
    let outputs: Vec<String> = OUTPUTS.iter().map(|n| format!("\"fuselage.{n}\"")).collect();
    let json = format!(
        r#"{{ "fmus": {{ "fuselage": {{ "path": {path:?}, "parameters": {{ {} }} }} }},
             "experiment": {{ "start": 0.0, "stop": {stop}, "step": {step} }},
             "inputs": [ {} ], "outputs": [ {} ] }}"#,
        params.join(", "),
        inputs.join(", "),
        outputs.join(", ")
    );
    let mut fmus = FmuCache::default();
    let system = SystemDescription::from_str(&json, "/", &SystemContext::default())
        .unwrap()
        .resolve(|p| fmus.open(p).map(|f: Arc<Fmu>| f.model_description().clone()).map_err(|e| e.to_string()))
        .unwrap();
    let mut master = Master::new(system, &mut fmus, Arc::new(FacadeLogger::default())).unwrap();
    let ours = master.run(|_| {}).unwrap();

    let start: Vec<(&str, String)> = PARAMETERS.iter().chain(INPUTS).map(|(n, v)| (*n, format!("{v:?}"))).collect();
    let theirs = simulate_with_fmpy(&path, stop, step, &start, OUTPUTS);

    assert_eq!(ours.time.len(), theirs.rows.len(), "number of communication points");
    let mut max_diff: f64 = 0.0;
    for name in OUTPUTS {
        let a = ours.column(&format!("fuselage.{name}")).unwrap();
        let c = theirs.column(name);
        for (r, row) in theirs.rows.iter().enumerate() {
            assert_eq!(ours.time[r], row[theirs.column("time")]);
            let d = (a[r] - row[c]).abs();
            max_diff = max_diff.max(d);
            assert!(
                d <= 1e-12 * row[c].abs().max(1.0),
                "{name} at t = {}: ours {}, FMPy {}",
                ours.time[r],
                a[r],
                row[c]
            );
        }
    }
    eprintln!(
        "orchestrator vs FMPy: {} points x {} outputs, max |difference| {max_diff:e}",
        ours.time.len(),
        OUTPUTS.len()
    );
    // Not a trivial trajectory.
    assert!(ours.column("fuselage.x").unwrap().last().unwrap().abs() > 10.0);
}
