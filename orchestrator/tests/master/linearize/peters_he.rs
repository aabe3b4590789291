//! The Aero FMU's Peters-He inflow states through `orchestrator linearize` (Model Exchange, exact
//! AD Jacobians): an unloaded rotor (no lift, no drag) whose inflow decays from `lambda_m`.

use super::rotor::{orchestrator, read_json};
use super::*;

/// Rotor speed, rad/s, and the initial mean inflow ratio.
const OMEGA: f64 = 29.0;
const LAMBDA: f64 = 0.05;

/// With no loads, in hover, the 3-state Peters-He model (`M = 1, K = 1`) decouples about
/// `alpha_1^0 = lambda / sqrt(3)`: `(2/pi) alpha' = -V_T alpha / L_11` with `V_T = sqrt(3)
/// alpha`, `L_11 = 3/4`, gives the root `-(4 pi / 3) Omega lambda`; the harmonics,
/// `(4/(3 pi)) alpha' = -V alpha / L_22`, `V = 2 lambda`, `L_22 = 5/8`, the double root
/// `-(12 pi / 5) Omega lambda`. The other 33 declared states are removed as inert.
#[test]
fn peters_he_inflow_roots_match_the_closed_forms() {
    let dir = tempfile::tempdir().unwrap();
    let system = dir.path().join("peters_he.json");
    let json = format!(
        r#"{{
  "fmus": {{ "aero": {{ "model": "Aero", "parameters": {{
      "inflow_model": 3, "peters_he_harmonics": 1, "peters_he_radial": 1, "lambda0_start": {LAMBDA},
      "Omega": {OMEGA}, "a": 0.0, "cd0": 0.0, "cd2": 0.0 }} }} }},
  "connections": [],
  "experiment": {{ "start": 0.0, "stop": 1.0, "step": 0.001 }},
  "outputs": ["aero.inflow"]
}}"#
    );
    std::fs::write(&system, json).unwrap();
    let out = dir.path().join("lin.json");
    orchestrator([OsStr::new("linearize"), system.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    let lin = read_json(&out);
    assert_eq!(lin["states"].as_array().unwrap().len(), 3);
    assert_eq!(lin["inert_states_removed"].as_array().unwrap().len(), 36);
    let mut roots: Vec<f64> =
        lin["eigenvalues"].as_array().unwrap().iter().map(|e| e["re"].as_f64().unwrap()).collect();
    roots.sort_by(f64::total_cmp);
    let pi = std::f64::consts::PI;
    let expected =
        [-12.0 * pi / 5.0 * OMEGA * LAMBDA, -12.0 * pi / 5.0 * OMEGA * LAMBDA, -4.0 * pi / 3.0 * OMEGA * LAMBDA];
    eprintln!("Peters-He roots {roots:?}, closed forms {expected:?}");
    for (r, e) in roots.iter().zip(expected) {
        assert!((r - e).abs() < 1e-9 * e.abs(), "{r} vs {e}");
    }
    assert!(lin["eigenvalues"].as_array().unwrap().iter().all(|e| e["im"].as_f64().unwrap() == 0.0));
}
