//! Prandtl tip and root loss (`tip_loss = 1, 2`) in hover against an independent blade-element
//! momentum script (`fmu-aero/tests/reference/bem_hover.py`, NumPy/SciPy: adaptive quadrature
//! and Brent's method, written apart from the model code): the FMU's `CT` and `CP` within 0.5 %.
//!
//! The script runs with the Python of the test environment (`ROTORCRAFT_PYTHON`, default
//! `target/venv/bin/python`, which `scripts/test.sh` creates with SciPy).

use std::f64::consts::PI;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common::test_rotor::{self, A, CHORD, OMEGA, R, TWIST};
use crate::common::{BladeState, Rotor, Sim, blade_inputs, i, r, rel, set_blade};

const NB: usize = 4;
const R_ROOT: f64 = 1.2;
const CD0: f64 = 0.008;
const CD2: f64 = 0.4;

/// The Python with SciPy.
fn python() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let path =
        std::env::var_os("ROTORCRAFT_PYTHON").map(PathBuf::from).unwrap_or_else(|| root.join("target/venv/bin/python"));
    assert!(
        path.is_file(),
        "{} is missing: run `bash scripts/test.sh` (it creates it) or set ROTORCRAFT_PYTHON",
        path.display()
    );
    path
}

/// Runs the reference script on `params` (JSON) and returns its JSON answer.
fn reference(params: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/bem_hover.py");
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the reference script starts");
    child.stdin.take().unwrap().write_all(params.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "reference script failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The number after `"key": ` in the `model` object of the script's answer.
fn field(json: &str, model: &str, key: &str) -> f64 {
    let part = &json[json.find(&format!("\"{model}\"")).expect("model")..];
    let at = part.find(&format!("\"{key}\": ")).expect("key") + key.len() + 4;
    let end = part[at..].find([',', '}']).unwrap();
    part[at..at + end].trim().parse().unwrap()
}

fn hover(sim: &mut Sim, theta: f64) {
    let rotor = Rotor::hover(OMEGA, 0.0);
    for b in 0..NB {
        let psi = 0.3 + 2.0 * PI * b as f64 / NB as f64;
        set_blade(sim, b + 1, &blade_inputs(&rotor, &BladeState { psi, theta, ..Default::default() }));
    }
}

#[test]
fn tip_and_root_loss_in_hover_match_an_independent_blade_element_momentum_script() {
    let cases: Vec<(i32, f64)> = [1, 2].iter().flat_map(|&m| [4.0, 8.0, 12.0].map(|d: f64| (m, d))).collect();
    let params: Vec<String> = cases
        .iter()
        .map(|&(mode, deg)| {
            format!(
                "{{\"nb\": {NB}, \"R\": {R}, \"r_root\": {R_ROOT}, \"chord\": {CHORD}, \"twist\": {TWIST}, \
                 \"theta75\": {}, \"a\": {A}, \"cd0\": {CD0}, \"cd2\": {CD2}, \"Omega\": {OMEGA}, \"rho\": 1.225, \
                 \"tip_loss\": {mode}}}",
                deg.to_radians()
            )
        })
        .collect();
    let answer = reference(&format!("[{}]", params.join(", ")));
    // One object per case, in order: split the list at the "uniform" keys.
    let results: Vec<&str> = answer.split("{\"uniform\"").skip(1).collect();
    assert_eq!(results.len(), cases.len());
    for (&(mode, deg), json) in cases.iter().zip(&results) {
        let json = format!("{{\"uniform\"{json}");
        let mut params = test_rotor::parameters(NB, [0.0, R_ROOT], [CD0, CD2], 1);
        params.extend([("n_sections", i(64)), ("tip_loss", i(mode))]);
        let mut sim = Sim::new(&params);
        hover(&mut sim, deg.to_radians());
        let ct = sim.get("CT");
        let cp = sim.get("power") / (1.225 * PI * R * R * (OMEGA * R).powi(3));
        let (ct_ref, cp_ref) = (field(&json, "uniform", "ct"), field(&json, "uniform", "cp"));
        let (ct_ann, cp_ann) = (field(&json, "annular", "ct"), field(&json, "annular", "cp"));
        let fm = ct.powf(1.5) / (2.0_f64.sqrt() * cp);
        eprintln!(
            "tip_loss {mode}, {deg:4.1} deg: CT {ct:.6e} vs BEM {ct_ref:.6e} ({:.2e}), CP {cp:.6e} vs {cp_ref:.6e} \
             ({:.2e}), FM {fm:.4}; annular BEMT: CT {ct_ann:.6e} ({:+.2} %), CP {cp_ann:.6e} ({:+.2} %)",
            rel(ct, ct_ref),
            rel(cp, cp_ref),
            100.0 * (ct / ct_ann - 1.0),
            100.0 * (cp / cp_ann - 1.0)
        );
        assert!(rel(ct, ct_ref) < 0.005 && rel(cp, cp_ref) < 0.005, "within 0.5 % at {deg} deg");
    }
}

/// The helicopter's main rotor (`examples/helicopter.json`) in hover, uniform inflow: the figure
/// of merit without options, with tip loss, and with the NACA 0012 table and tip loss (printed
/// for docs/validation.md). Prandtl's factor (< 1) lowers the thrust at every collective.
#[test]
fn main_rotor_figure_of_merit_with_the_options() {
    let (omega, radius, e) = (44.40118, 4.91, 0.6874);
    let cases: [&[(&'static str, crate::common::Val)]; 3] =
        [&[], &[("tip_loss", i(1))], &[("airfoil", i(1)), ("tip_loss", i(1))]];
    let mut thrusts = Vec::new();
    for extra in cases {
        let mut params = vec![
            ("nb", i(4)),
            ("R", r(radius)),
            ("e", r(e)),
            ("r_root", r(e)),
            ("chord", r(0.27)),
            ("twist", r(-0.1396)),
            ("Omega", r(omega)),
        ];
        params.extend_from_slice(extra);
        let mut sim = Sim::new(&params);
        let rotor = Rotor::hover(omega, e);
        let mut row = Vec::new();
        for deg in [6.0_f64, 8.0, 10.0, 12.0] {
            for b in 0..4 {
                let state = BladeState { psi: 0.5 * PI * b as f64, theta: deg.to_radians(), ..Default::default() };
                set_blade(&mut sim, b + 1, &blade_inputs(&rotor, &state));
            }
            let ct = sim.get("CT");
            let cp = sim.get("power") / (1.225 * PI * radius * radius * (omega * radius).powi(3));
            row.push(format!("{deg} deg: CT {ct:.5} FM {:.3}", ct.powf(1.5) / (2.0_f64.sqrt() * cp)));
            thrusts.push(ct);
        }
        let names: Vec<&str> = extra.iter().map(|p| p.0).collect();
        eprintln!("main rotor, options {names:?}: {}", row.join("; "));
    }
    for k in 0..4 {
        assert!(thrusts[4 + k] < thrusts[k], "tip loss lowers the thrust");
    }
}
