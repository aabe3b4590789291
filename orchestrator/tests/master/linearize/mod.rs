//! The linearised coupled system (`Master::linearize`, `orchestrator linearize`) against closed
//! forms: the two-mass oscillator whose force/acceleration coupling is an algebraic loop (the
//! loop eliminated exactly gives the monolithic `A`), the swashplate actuators (`A`, `B`, `C`
//! from the mixing law), and a clear refusal of an FMU that hides its states; in `rotor`, an
//! isolated articulated rotor in vacuum (lag and flap roots) and the rotor and helicopter modes
//! against runs of the nonlinear co-simulation; in `bounce`, collective bounce on the ground (the
//! pilot-gain root locus and the ground frequency response against the co-simulation).

mod bounce;
mod ground_resonance;
mod lateral_rpc;
mod peters_he;
mod rotor;

use crate::common;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

use cosim::linear::StateNames;
use cosim::master::{FmuCache, Master, Results};
use nalgebra::{Complex, DMatrix, Matrix4};
use rotorcraft::{RotorNaming, Rotors};
use test_fmus::{Body, Load};

const M: f64 = 1.0;
const K: f64 = 4.0;
const C: f64 = 0.3;
const M_R: f64 = 1.5;
const M2: f64 = 0.5;
const K2: f64 = 2.0;
const C2: f64 = 0.1;

fn two_mass_json(body_fmu: &str) -> String {
    format!(
        r#"{{
  "fmus": {{
    "body": {{ "path": "{body_fmu}", "parameters": {{ "m": {M}, "k": {K}, "c": {C}, "x0": 0.1 }} }},
    "load": {{ "path": "TwoMassLoad.fmu", "parameters": {{ "m_r": {M_R}, "m2": {M2}, "k2": {K2}, "c2": {C2} }} }}
  }},
  "connections": ["body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F"],
  "experiment": {{ "start": 0.0, "stop": 1.0, "step": 0.01 }},
  "outputs": ["body.x", "body.a", "load.F"]
}}"#
    )
}

/// The monolithic two-mass system `(m + m_r) x1'' = -k x1 - c v1 + k2 (x2 - x1) + c2 (v2 - v1)`,
/// `m2 x2'' = -k2 (x2 - x1) - c2 (v2 - v1)`, states `[x1, v1, x2, v2]`.
#[rustfmt::skip]
fn monolithic_a() -> Matrix4<f64> {
    let mt = M + M_R;
    Matrix4::new(
        0.0, 1.0, 0.0, 0.0,
        (-K - K2) / mt, (-C - C2) / mt, K2 / mt, C2 / mt,
        0.0, 0.0, 0.0, 1.0,
        K2 / M2, C2 / M2, -K2 / M2, -C2 / M2,
    )
}

fn sorted(mut values: Vec<Complex<f64>>) -> Vec<Complex<f64>> {
    values.sort_by(|p, q| p.im.total_cmp(&q.im).then(p.re.total_cmp(&q.re)));
    values
}

#[test]
fn two_mass_loop_is_eliminated_exactly() {
    let dir = test_fmus::two_mass::packaged();
    let system = common::system(&two_mass_json("TwoMassBody.fmu"), dir.path());
    let mut master = Master::new_model_exchange(system, &mut FmuCache::default(), common::logger()).unwrap();
    master.initialize().unwrap();
    let lin = master.linearize(&[]).unwrap();
    assert_eq!(lin.state_names, ["body.state.x", "body.state.v", "load.state.x2", "load.state.v2"]);
    assert_eq!(lin.x0, [0.1, 0.0, 0.0, 0.0]);
    let a = monolithic_a();
    for r in 0..4 {
        for c in 0..4 {
            assert!((lin.a[(r, c)] - a[(r, c)]).abs() < 1e-12, "A[{r}][{c}] = {} vs {}", lin.a[(r, c)], a[(r, c)]);
        }
    }
    // x' = A x at the operating point.
    let expected_dx0 = a * nalgebra::Vector4::new(0.1, 0.0, 0.0, 0.0);
    for (got, want) in lin.dx0.iter().zip(expected_dx0.iter()) {
        assert!((got - want).abs() < 1e-12);
    }
    // Outputs: x1; a1 = x1''; F = k2 (x2 - x1) + c2 (v2 - v1) - m_r a1.
    assert_eq!(lin.output_names, ["body.x", "body.a", "load.F"]);
    let link = [-K2, -C2, K2, C2];
    for c in 0..4 {
        let want = [if c == 0 { 1.0 } else { 0.0 }, a[(1, c)], link[c] - M_R * a[(1, c)]];
        for (r, w) in want.iter().enumerate() {
            assert!((lin.c[(r, c)] - w).abs() < 1e-12, "C[{r}][{c}] = {} vs {w}", lin.c[(r, c)]);
        }
    }
    assert_eq!((lin.b.ncols(), lin.d.ncols()), (0, 0));
    // Eigenvalues: those of the monolithic matrix (nalgebra's Schur of the closed form).
    let got = sorted(lin.modes(&StateNames).unwrap().iter().map(|m| m.eigenvalue).collect());
    let want = sorted(DMatrix::from_iterator(4, 4, a.iter().copied()).complex_eigenvalues().iter().copied().collect());
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).norm() < 1e-10, "{got:?} vs {want:?}");
    }
}

#[test]
fn an_fmu_without_model_exchange_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    common::package_test_fmu::<Load>(dir.path());
    // TwoMassBody with its <ModelExchange> element taken out: Co-Simulation only.
    let library = test_fmus::fixtures::library_dir().join("libTwoMassBody.so");
    let xml = fmu_core::model_description::<Body>();
    let cs_only: String = xml.lines().filter(|l| !l.contains("<ModelExchange")).collect::<Vec<_>>().join("\n");
    let path = dir.path().join("BodyCS.fmu");
    fmu_tooling::write_fmu(&path, &cs_only, "TwoMassBody", &library, &[]).unwrap();
    let system = common::system(&two_mass_json("BodyCS.fmu"), dir.path());
    let Err(err) = Master::new_model_exchange(system, &mut FmuCache::default(), common::logger()) else {
        panic!("a Co-Simulation-only FMU was instantiated as Model Exchange");
    };
    let err = err.to_string();
    assert!(err.contains("body") && err.contains("Co-Simulation only") && err.contains("hides its states"), "{err}");
    assert!(err.contains("needs the FMU exported for Model Exchange"), "says what is needed: {err}");
}

/// Controls alone with first-order actuators: `theta' = (cmd - theta) / tau` with the mixing
/// `theta0 = g_col col`, `theta1c = c cos(phase) + s sin(phase)`, `theta1s = s cos(phase) -
/// c sin(phase)` (`c = -g_lat lat`, `s = -g_lon lon`), and the blade pitch
/// `theta0 + theta1c cos(psi_b) + theta1s sin(psi_b)` at the held azimuth.
#[test]
fn actuator_model_matches_the_mixing_law() {
    let (tau, g_col, g_lon, g_lat, phase, psi) = (0.05, 1.1, 0.9, 0.8, 0.3_f64, 0.4_f64);
    let json = format!(
        r#"{{
  "fmus": {{ "controls": {{ "model": "Controls", "parameters": {{
      "nb": 4, "tau": {tau}, "gain.collective": {g_col}, "gain.lon": {g_lon}, "gain.lat": {g_lat}, "phase": {phase} }} }} }},
  "connections": [],
  "inputs": [
    {{ "to": "controls.collective", "signal": {{ "constant": 0.1 }} }},
    {{ "to": "controls.lon_cyclic", "signal": {{ "constant": 0.02 }} }},
    {{ "to": "controls.lat_cyclic", "signal": {{ "constant": -0.01 }} }},
    {{ "to": "controls.pedal", "signal": {{ "constant": 0.05 }} }},
    {{ "to": "controls.azimuth", "signal": {{ "constant": {psi} }} }}
  ],
  "experiment": {{ "start": 0.0, "stop": 1.0, "step": 0.01 }},
  "outputs": ["controls.blade[2].pitch"]
}}"#
    );
    let dir = tempfile::tempdir().unwrap();
    let mut description =
        cosim::system::SystemDescription::from_str(&json, dir.path(), &fmu_catalog::context()).unwrap();
    description.use_fmus_in(&common::fmu_dir()).unwrap();
    let system = common::resolve(&description);
    let mut master = Master::new_model_exchange(system, &mut FmuCache::default(), common::logger()).unwrap();
    master.initialize().unwrap();
    let inputs = ["controls.collective", "controls.lon_cyclic", "controls.lat_cyclic"].map(String::from);
    let lin = master.linearize(&inputs).unwrap();
    let states: Vec<&str> = lin.state_names.iter().map(String::as_str).collect();
    assert_eq!(
        states,
        ["controls.state.theta0", "controls.state.theta1c", "controls.state.theta1s", "controls.state.tail_collective"]
    );
    assert_eq!(lin.a, DMatrix::from_diagonal_element(4, 4, -1.0 / tau));
    let (cp, sp) = (phase.cos(), phase.sin());
    #[rustfmt::skip]
    let b = DMatrix::from_row_slice(4, 3, &[
        g_col, 0.0, 0.0,
        0.0, -g_lon * sp, -g_lat * cp,
        0.0, -g_lon * cp, g_lat * sp,
        0.0, 0.0, 0.0,
    ]) / tau;
    assert!((&lin.b - &b).abs().max() < 1e-12, "B = {} vs {b}", lin.b);
    // Blade 2 is a quarter turn ahead of blade 1.
    let psi_b = psi + std::f64::consts::FRAC_PI_2;
    let c = DMatrix::from_row_slice(1, 4, &[1.0, psi_b.cos(), psi_b.sin(), 0.0]);
    assert!((&lin.c - &c).abs().max() < 1e-12, "C = {} vs {c}", lin.c);
    assert!(lin.d.iter().all(|&v| v == 0.0), "no feedthrough with actuators");
    // Frequency response collective -> pitch: the first-order lag g_col / (1 + i omega tau).
    let omegas = [0.0, 1.0 / tau, 50.0];
    for (omega, g) in omegas.iter().zip(lin.frequency_response(0, 0, &omegas)) {
        let want = Complex::new(g_col, 0.0) / Complex::new(1.0, omega * tau);
        assert!((g.unwrap() - want).norm() < 1e-12 * g_col, "omega {omega}: {g:?} vs {want}");
    }
    let err = master.linearize(&["controls.blade[1].pitch".to_string()]).unwrap_err().to_string();
    assert!(err.contains("not an input the system drives") && err.contains("controls.collective"), "{err}");
}

/// Our four FMUs packaged with `providesDirectionalDerivative="false"` in their Model Exchange
/// element are linearised by central differences: the hovering helicopter's `A` against the one
/// from the exact directional derivatives (forward-mode AD) of the same FMUs. (The libraries
/// export `fmi2GetDirectionalDerivative` all the same; FMI 2.0 says not to call it then.)
/// `Master::linearize_skipping` (the Floquet path's linearisations after the first) leaves out
/// the columns of the states a full linearisation found inert, and so gives the same model once
/// they are removed: the helicopter of `examples/helicopter.json` (its Rotor declares 8 blades, 4
/// used), bit for bit.
#[test]
fn skipping_the_inert_states_gives_the_same_model_without_them() {
    let description =
        common::description_from_json(&rotor::read_json(&test_fmus::fixtures::example_path("helicopter.json")));
    let mut master =
        Master::new_model_exchange(common::resolve(&description), &mut FmuCache::default(), common::logger()).unwrap();
    master.initialize().unwrap();
    let full = master.linearize(&[]).unwrap();
    let inert = full.inert_states();
    assert!(inert.len() > 10, "{inert:?}");
    let skipped = master.linearize_skipping(&[], &inert).unwrap();
    let (full, skipped) = (full.without_states(&inert), skipped.without_states(&inert));
    assert_eq!(full.state_names, skipped.state_names);
    assert_eq!((&full.a, &full.b, &full.c, &full.d), (&skipped.a, &skipped.b, &skipped.c, &skipped.d));
    assert_eq!((&full.x0, &full.dx0), (&skipped.x0, &skipped.dx0));
}

#[test]
fn differenced_jacobians_of_fmus_without_directional_derivatives_match_the_exact_ones() {
    let dir = tempfile::tempdir().unwrap();
    let library_dir = test_fmus::fixtures::library_dir();
    for fmu in fmu_catalog::our_fmus() {
        let xml = (fmu.model_description)().replacen(
            r#"canSerializeFMUstate="true" providesDirectionalDerivative="true"/>"#,
            r#"canSerializeFMUstate="true" providesDirectionalDerivative="false"/>"#,
            1,
        );
        assert!(xml.contains(r#"providesDirectionalDerivative="false""#), "{}", fmu.identifier);
        let library = library_dir.join(format!("lib{}.so", fmu.identifier));
        let path = dir.path().join(format!("{}.fmu", fmu.identifier));
        fmu_tooling::write_fmu(&path, &xml, fmu.identifier, &library, &[]).unwrap();
    }
    let text = std::fs::read_to_string(test_fmus::fixtures::example_path("helicopter.json")).unwrap();
    let linearize = |fmu_dir: &Path| {
        let mut description = rotorcraft::system_from_str(&text, dir.path(), &fmu_catalog::context()).unwrap();
        description.use_fmus_in(fmu_dir).unwrap();
        let mut master =
            Master::new_model_exchange(common::resolve(&description), &mut FmuCache::default(), common::logger())
                .unwrap();
        master.initialize().unwrap();
        let lin = master.linearize(&[]).unwrap();
        lin.without_states(&lin.inert_states())
    };
    let exact = linearize(&common::fmu_dir());
    let differenced = linearize(dir.path());
    assert_eq!(exact.state_names, differenced.state_names);
    let error = |a: &DMatrix<f64>, b: &DMatrix<f64>| (a - b).amax() / a.amax();
    let (ea, eb, ec) =
        (error(&exact.a, &differenced.a), error(&exact.b, &differenced.b), error(&exact.c, &differenced.c));
    eprintln!("differenced against exact, largest error over largest entry: A {ea:.2e}, B {eb:.2e}, C {ec:.2e}");
    assert!(ea < 1e-6 && eb < 1e-6 && ec < 1e-6, "A {ea:.2e}, B {eb:.2e}, C {ec:.2e}");
    // Differenced, not the FMUs' directional derivatives (which the flag says not to call).
    assert!(ea > 0.0, "the directional derivatives were called");
}
