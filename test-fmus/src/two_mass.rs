//! The two-mass test case that the orchestrator's and the monolithic reference's tests share:
//! Body m = 1 kg, k = 4 N/m, c = 0; Load: rigid m_r = 1.5 kg, m2 = 0.5 kg on k2 = 2 N/m,
//! c2 = 0.1 N.s/m; x1(0) = 1 m, all else at rest, 5 s. m_r > m makes the delayed (Jacobi) loop
//! amplify by 1.5 per step.

use std::path::Path;

use nalgebra::{Matrix4, Vector4};

use crate::{Body, Load};

/// Body mass, kg.
pub const M: f64 = 1.0;
/// Body spring, N/m.
pub const K: f64 = 4.0;
/// Rigidly attached mass of the Load, kg.
pub const M_R: f64 = 1.5;
/// Second mass of the Load, kg.
pub const M2: f64 = 0.5;
/// Spring between body and second mass, N/m.
pub const K2: f64 = 2.0;
/// Damper between body and second mass, N.s/m.
pub const C2: f64 = 0.1;
/// Initial body position, m.
pub const X0: f64 = 1.0;
/// End of the run, s.
pub const STOP: f64 = 5.0;

/// Exact state `(x1, v1, x2, v2)` of the monolithic system
/// `(m + m_r) x1'' = -k x1 + k2 (x2 - x1) + c2 (v2 - v1)`, `m2 x2'' = -k2 (x2 - x1) - c2 (v2 - v1)`
/// at `t`, by the matrix exponential.
pub fn exact(t: f64) -> Vector4<f64> {
    let mt = M + M_R;
    #[rustfmt::skip]
    let a = Matrix4::new(
        0.0, 1.0, 0.0, 0.0,
        (-K - K2) / mt, -C2 / mt, K2 / mt, C2 / mt,
        0.0, 0.0, 0.0, 1.0,
        K2 / M2, C2 / M2, -K2 / M2, -C2 / M2,
    );
    (a * t).exp() * Vector4::new(X0, 0.0, 0.0, 0.0)
}

/// The system description (JSON; FMUs `TwoMassBody.fmu`, `TwoMassLoad.fmu` beside it) at macro
/// step `step`, with `master` the members of its `"master"` object and `outputs` the members of
/// its `"outputs"` list.
pub fn json(step: f64, master: &str, outputs: &str) -> String {
    format!(
        r#"{{
  "fmus": {{
    "body": {{ "path": "TwoMassBody.fmu", "parameters": {{ "m": {M}, "k": {K}, "c": 0.0, "x0": {X0} }} }},
    "load": {{ "path": "TwoMassLoad.fmu", "parameters": {{ "m_r": {M_R}, "m2": {M2}, "k2": {K2}, "c2": {C2} }} }}
  }},
  "connections": [
    "body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F"
  ],
  "experiment": {{ "start": 0.0, "stop": {STOP}, "step": {step} }},
  "master": {{ {master} }},
  "outputs": [{outputs}]
}}"#
    )
}

/// A temporary directory with `TwoMassBody.fmu` and `TwoMassLoad.fmu` packaged in it.
pub fn packaged() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    package_into(dir.path());
    dir
}

/// Packages `TwoMassBody.fmu` and `TwoMassLoad.fmu` into `dir`.
pub fn package_into(dir: &Path) {
    crate::fixtures::package_test_fmu::<Body>(dir);
    crate::fixtures::package_test_fmu::<Load>(dir);
}
