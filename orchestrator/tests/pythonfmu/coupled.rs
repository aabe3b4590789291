//! A third-party FMU, built here with PythonFMU (from PyPI), coupled to our Fuselage.fmu in the
//! orchestrator: a vertical damper `F = -c w` closing the loop through the airframe's vertical
//! velocity. The result is checked against the discrete recurrence derived independently from
//! the physics and the co-simulation protocol.

use crate::common;
use crate::import_support;

use import_support::build_with_pythonfmu;

const DAMPER_PY: &str = r#"
from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability, Real


class Damper(Fmi2Slave):
    author = "rotorcraft-fmi tests"
    description = "Vertical damper: F = -c * w, evaluated in do_step"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.c = 1.0
        self.w = 0.0
        self.F = 0.0
        self.register_variable(Real("c", causality=Fmi2Causality.parameter, variability=Fmi2Variability.fixed))
        self.register_variable(Real("w", causality=Fmi2Causality.input))
        self.register_variable(Real("F", causality=Fmi2Causality.output))

    def do_step(self, current_time, step_size):
        self.F = -self.c * self.w
        return True
"#;

const MASS: f64 = 2100.0;
const G: f64 = 9.80665;
const C: f64 = 4000.0;
const H: f64 = 0.05;
const STOP: f64 = 3.0;

#[test]
fn pythonfmu_damper_on_the_fuselage_matches_the_protocol_recurrence() {
    let (_python_dir, damper) = build_with_pythonfmu("Damper", DAMPER_PY);
    let fuselage = common::our_fmu("Fuselage");
    let json = format!(
        r#"{{
      "fmus": {{
        "fuselage": {{ "path": {fuselage:?}, "parameters": {{ "mass": {MASS}, "g": {G} }} }},
        "damper": {{ "path": {damper:?}, "parameters": {{ "c": {C} }} }}
      }},
      "connections": ["fuselage.w -> damper.w", "damper.F -> fuselage.hub.F.z"],
      "experiment": {{ "stop": {STOP}, "step": {H} }},
      "outputs": ["fuselage.z", "fuselage.w", "damper.F"]
    }}"#
    );
    let (results, master) = common::run(common::system(&json, std::path::Path::new("/"))).unwrap();
    assert!(master.loops().is_empty(), "fuselage.w has no feedthrough: no algebraic loop");

    // The protocol: PythonFMU computes F in do_step from the input set before the step, so the
    // force the fuselage holds over step n is F_n = -c w_{n-1} (F_0 = start value 0). With a
    // constant force over a step the vertical motion is exact: w_{n+1} = w_n + h (g + F_n / m),
    // z_{n+1} = z_n + h w_n + h^2/2 (g + F_n / m).
    let (mut z, mut w, mut f) = (0.0_f64, 0.0_f64, 0.0_f64);
    let (zs, ws, fs) = (
        results.column("fuselage.z").unwrap(),
        results.column("fuselage.w").unwrap(),
        results.column("damper.F").unwrap(),
    );
    let mut worst: f64 = 0.0;
    for n in 0..results.time.len() {
        let scale = 1.0 + z.abs() + w.abs();
        worst = worst.max((zs[n] - z).abs().max((ws[n] - w).abs()) / scale).max((fs[n] - f).abs() / (1.0 + f.abs()));
        let a = G + f / MASS;
        let w_next = w + H * a;
        z += H * w + 0.5 * H * H * a;
        f = -C * w;
        w = w_next;
    }
    eprintln!("PythonFMU damper + Fuselage vs recurrence: worst relative difference {worst:e}");
    assert!(worst < 1e-9, "worst relative difference {worst:e}");
    // Physically: the damper slows the fall towards the terminal velocity m g / c.
    let terminal = MASS * G / C;
    assert!(ws.last().unwrap() < &(1.2 * terminal) && ws.last().unwrap() > &(0.8 * terminal), "w = {ws:?}");
}
