//! The aero interface is swappable: a third-party aerodynamics FMU built here with PythonFMU
//! implements the documented inputs and `blade[i].F/M` outputs, and replaces `Aero.fmu` in a
//! rotor system by editing only the system description. The run completes with a physically
//! sensible thrust: close to the blade-element thrust of the same blade without inflow, computed
//! in closed form here.

mod common;
mod import_support;

use std::path::Path;

use import_support::build_with_pythonfmu;

const NB: usize = 4;
const R: f64 = 7.5;
const E: f64 = 0.3;
const OMEGA: f64 = 29.0;
const CHORD: f64 = 0.5;
const A: f64 = 5.73;
const RHO: f64 = 1.225;
const THETA: f64 = 6.0 * std::f64::consts::PI / 180.0;

/// A minimal lifting line (10 midpoint stations, no inflow, linear lift, no drag), written
/// against the aero interface of the README only.
const SIMPLE_AERO_PY: &str = r#"
import math
from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability, Real


class SimpleAero(Fmi2Slave):
    author = "rotorcraft-fmi tests"
    description = "Third-party aero: 10-station lifting line, no inflow, linear lift"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rho, self.a, self.chord, self.R, self.e = 1.225, 5.73, 0.5, 7.5, 0.3
        for name in ["rho", "a", "chord", "R", "e"]:
            self.register_variable(Real(name, causality=Fmi2Causality.parameter, variability=Fmi2Variability.fixed))
        self.thrust = 0.0
        self.register_variable(Real("thrust", causality=Fmi2Causality.output))
        for i in range(1, 9):
            for part in ["vel", "omega", "shaft"]:
                for c in "xyz":
                    setattr(self, f"b{i}_{part}_{c}", 0.0)
                    self.register_variable(Real(f"blade[{i}].{part}.{c}", causality=Fmi2Causality.input,
                                                getter=self._getter(f"b{i}_{part}_{c}"),
                                                setter=self._setter(f"b{i}_{part}_{c}")))
            for part in ["F", "M"]:
                for c in "xyz":
                    setattr(self, f"b{i}_{part}_{c}", 0.0)
                    self.register_variable(Real(f"blade[{i}].{part}.{c}", causality=Fmi2Causality.output,
                                                getter=self._getter(f"b{i}_{part}_{c}")))

    def _getter(self, attr):
        return lambda: getattr(self, attr)

    def _setter(self, attr):
        return lambda v: setattr(self, attr, v)

    def do_step(self, current_time, step_size):
        n = 10
        dx = (self.R - self.e) / n
        thrust = 0.0
        for i in range(1, 9):
            v = [getattr(self, f"b{i}_vel_{c}") for c in "xyz"]
            w = [getattr(self, f"b{i}_omega_{c}") for c in "xyz"]
            shaft = [getattr(self, f"b{i}_shaft_{c}") for c in "xyz"]
            fy = fz = my = mz = 0.0
            for j in range(n):
                x = (j + 0.5) * dx
                # Section velocity v + omega x (x, 0, 0); air relative to the section is minus it.
                wy = -(v[1] + w[2] * x)
                wz = -(v[2] - w[1] * x)
                u2 = wy * wy + wz * wz
                if u2 == 0.0:
                    continue
                alpha = math.atan2(wz, -wy)
                lift = 0.5 * self.rho * u2 * self.chord * self.a * alpha * dx
                u = math.sqrt(u2)
                dfy, dfz = lift * wz / u, -lift * wy / u
                fy += dfy
                fz += dfz
                my += -x * dfz
                mz += x * dfy
            for c, val in zip("xyz", (0.0, fy, fz)):
                setattr(self, f"b{i}_F_{c}", val)
            for c, val in zip("xyz", (0.0, my, mz)):
                setattr(self, f"b{i}_M_{c}", val)
            thrust += fy * shaft[1] + fz * shaft[2]
        self.thrust = thrust
        return True
"#;

fn system(aero_path: &Path, aero_parameters: &str) -> String {
    let rotor = common::our_fmu("Rotor");
    let mut connections = Vec::new();
    for part in ["vel.x", "vel.y", "vel.z", "omega.x", "omega.y", "omega.z", "shaft.x", "shaft.y", "shaft.z"] {
        connections.push(format!("\"rotor.blade[*].{part} -> aero.blade[*].{part}\""));
    }
    for part in ["F.x", "F.y", "F.z", "M.x", "M.y", "M.z"] {
        connections.push(format!("\"aero.blade[*].{part} -> rotor.blade[*].{part}\""));
    }
    format!(
        r#"{{
      "fmus": {{
        "rotor": {{ "path": {rotor:?}, "parameters": {{ "nb": {NB}, "Omega": {OMEGA}, "R": {R}, "e": {E}, "lock_lag": true }} }},
        "aero": {{ "path": {aero_path:?}, "parameters": {{ {aero_parameters} }} }}
      }},
      "connections": [ {} ],
      "inputs": [ {{ "to": "rotor.blade[*].pitch", "signal": {{ "constant": {THETA} }} }} ],
      "experiment": {{ "stop": 1.0, "step": {} }},
      "outputs": ["aero.thrust", "rotor.blade[1].flap", "rotor.hub.F.z"]
    }}"#,
        connections.join(", "),
        5.0_f64.to_radians() / OMEGA
    )
}

#[test]
fn pythonfmu_aero_replaces_ours_by_editing_the_system_description() {
    let (_dir, python_aero) = build_with_pythonfmu("SimpleAero", SIMPLE_AERO_PY);
    let (theirs, master) = common::run(common::system(&system(&python_aero, ""), Path::new("/"))).unwrap();
    assert!(master.loops().is_empty());
    // The same system with our Aero.fmu, same blade and no inflow, for comparison.
    let ours_params = format!(
        r#""nb": {NB}, "R": {R}, "e": {E}, "r_root": {E}, "chord": {CHORD}, "a": {A}, "rho": {RHO}, "twist": 0.0,
           "cd0": 0.0, "cd2": 0.0, "inflow_model": 0, "Omega": {OMEGA}"#
    );
    let (ours, _) =
        common::run(common::system(&system(&common::our_fmu("Aero"), &ours_params), Path::new("/"))).unwrap();

    // Blade-element thrust without inflow for the coned blade: the flap settles to the coning
    // angle b0; T = nb rho a c / 2 theta Omega^2 int_e^R r^2 dr cos(b0) (lift normal to the
    // coned blade, projected on the shaft).
    let mean_last = |v: Vec<f64>| v[v.len() * 3 / 4..].iter().sum::<f64>() / (v.len() - v.len() * 3 / 4) as f64;
    let coning = mean_last(theirs.column("rotor.blade[1].flap").unwrap());
    let closed_form =
        NB as f64 * 0.5 * RHO * A * CHORD * THETA * OMEGA * OMEGA * (R.powi(3) - E.powi(3)) / 3.0 * coning.cos();
    let thrust_theirs = mean_last(theirs.column("aero.thrust").unwrap());
    let thrust_ours = mean_last(ours.column("aero.thrust").unwrap());
    let hub_fz = mean_last(theirs.column("rotor.hub.F.z").unwrap());
    eprintln!(
        "third-party aero: thrust {thrust_theirs:.0} N (ours {thrust_ours:.0} N, closed form {closed_form:.0} N), \
         coning {coning:.4} rad, hub F.z {hub_fz:.0} N"
    );
    assert!(thrust_theirs > 0.0 && coning > 0.0, "positive pitch lifts and cones the rotor");
    assert!((thrust_theirs / closed_form - 1.0).abs() < 0.03, "{thrust_theirs} vs {closed_form}");
    assert!((thrust_theirs / thrust_ours - 1.0).abs() < 0.03, "{thrust_theirs} vs ours {thrust_ours}");
    // The thrust reaches the airframe: the hub force (body z down) is about minus the thrust.
    assert!((hub_fz / -thrust_theirs - 1.0).abs() < 0.05, "hub F.z {hub_fz} vs thrust {thrust_theirs}");
}
