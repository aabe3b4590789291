//! The per-blade kinematics outputs for the aerodynamics (`blade[i].vel`, `blade[i].omega`,
//! `blade[i].shaft`, blade axes) against the test's own explicit hinge-chain kinematics
//! (`tests/rotor/common`) evaluated at the FMU's angle and rate outputs, on a translating, rotating
//! hub with pitch rates, a tilted shaft and separate hinge offsets.

use crate::common::{BladeState, ParamMap, RefRotor, Sim, Val, axpy, col, cross, i, mv, norm, r, tr};

#[test]
fn blade_velocity_angular_velocity_and_shaft_axis_match_explicit_kinematics() {
    let v_p = [32.0, -3.0, 2.0];
    let w = [0.2, -0.15, 0.3];
    let params: Vec<(&str, Val)> = vec![
        ("nb", i(5)),
        ("e_lag", r(0.15)),
        ("blade.beta0", r(0.06)),
        ("blade.zeta0", r(0.02)),
        ("shaft.nx", r(-0.12)),
        ("psi0", r(0.4)),
        ("hub.vel.x", r(v_p[0])),
        ("hub.vel.y", r(v_p[1])),
        ("hub.vel.z", r(v_p[2])),
        ("hub.omega.x", r(w[0])),
        ("hub.omega.y", r(w[1])),
        ("hub.omega.z", r(w[2])),
        ("hub.acc.z", r(-9.81)),
        ("blade[1].pitch", r(0.1)),
        ("blade[2].pitch", r(0.2)),
        ("blade[4].pitch", r(-0.1)),
        ("blade[1].pitch_rate", r(0.8)),
        ("blade[3].pitch_rate", r(-1.1)),
        ("blade[5].pitch_rate", r(0.4)),
    ];
    let map = ParamMap::new(&params);
    let reference = RefRotor::from(&map);
    let mut sim = Sim::new(&params);
    let mut worst: f64 = 0.0;
    for _ in 0..10 {
        sim.step(0.01);
        for k in 1..=5 {
            let get = |sim: &mut Sim, s: &str| sim.get(&format!("blade[{k}].{s}"));
            let s = BladeState {
                azimuth: get(&mut sim, "azimuth"),
                shaft_rate: sim.get("shaft.rate"),
                lag: get(&mut sim, "lag"),
                lag_rate: get(&mut sim, "lag_rate"),
                flap: get(&mut sim, "flap"),
                flap_rate: get(&mut sim, "flap_rate"),
                pitch: map.get(&format!("blade[{k}].pitch")),
                pitch_rate: map.get(&format!("blade[{k}].pitch_rate")),
            };
            let kin = reference.blade(&s);
            let to_blade = tr(&kin.rot);
            let vel = mv(&to_blade, axpy(axpy(v_p, 1.0, cross(w, kin.root)), 1.0, kin.root_vel));
            let omega = mv(&to_blade, axpy(w, 1.0, kin.omega));
            let shaft = mv(&to_blade, col(&reference.hub, 2));
            for (prefix, expected, scale) in
                [("vel", vel, norm(vel)), ("omega", omega, norm(omega)), ("shaft", shaft, 1.0)]
            {
                let got = sim.get3(&format!("blade[{k}].{prefix}"));
                let err = norm(axpy(got, -1.0, expected)) / scale;
                worst = worst.max(err);
                assert!(err < 1e-12, "blade[{k}].{prefix}: {got:?} vs {expected:?}");
            }
        }
    }
    eprintln!("blade kinematics outputs vs explicit kinematics: worst relative error {worst:.3e}");
}
