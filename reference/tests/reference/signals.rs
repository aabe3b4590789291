//! External signals in the reference: a force step between recording points and a table ramp
//! on a single spring-mass (`TwoMassBody`, m = 1 kg, k = 4 N/m, x0 = 1 m), against the closed
//! form. The integration is split at the switch and at the table points, so the error stays at
//! the integrator's tolerance although the input is discontinuous (step) or kinked (table).

use std::path::Path;

use monolithic_reference::MonolithicSystem;
use test_fmus::Body;

const W: f64 = 2.0; // sqrt(k / m)

fn system(dir: &Path, signal: &str) -> cosim::system::System {
    let binary = dir.join("placeholder.so");
    std::fs::write(&binary, b"not a shared library").unwrap();
    fmu_tooling::write_fmu(
        &dir.join("TwoMassBody.fmu"),
        &fmu_core::model_description::<Body>(),
        "TwoMassBody",
        &binary,
        &[],
    )
    .unwrap();
    let json = format!(
        r#"{{ "fmus": {{ "body": {{ "path": "TwoMassBody.fmu", "parameters": {{ "m": 1.0, "k": 4.0, "c": 0.0, "x0": 1.0 }} }} }},
             "inputs": [ {{ "to": "body.F", "signal": {signal} }} ],
             "experiment": {{ "stop": 2.0, "step": 0.1 }}, "outputs": ["body.x", "body.a", "body.F"] }}"#
    );
    crate::common::system(&json, dir)
}

/// Response of `x'' = -W^2 x + f(t)` from `(x, v)` at `t0` over `dt` to a force `f0 + f1 (t - t0)`.
fn advance(x: f64, v: f64, dt: f64, f0: f64, f1: f64) -> (f64, f64) {
    // Particular solution f0/W^2 + f1 (t - t0)/W^2; homogeneous part from the initial values.
    let (xp, vp) = (f0 / (W * W), f1 / (W * W));
    let (a, b) = (x - xp, (v - vp) / W);
    let (c, s) = ((W * dt).cos(), (W * dt).sin());
    (xp + vp * dt + a * c + b * s, vp + W * (-a * s + b * c))
}

#[test]
fn a_step_between_recording_points_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let t0 = 0.25;
    let sys = system(dir.path(), &format!(r#"{{ "step": {{ "time": {t0}, "before": 0.0, "after": 3.0 }} }}"#));
    let mut m = MonolithicSystem::from_system(&sys).unwrap();
    let results = m.run(0.1).unwrap();
    let x = results.column("body.x").unwrap();
    let f = results.column("body.F").unwrap();
    let (x0, v0) = advance(1.0, 0.0, t0, 0.0, 0.0);
    let mut worst: f64 = 0.0;
    for (n, &t) in results.time.iter().enumerate() {
        let exact = if t < t0 { advance(1.0, 0.0, t, 0.0, 0.0).0 } else { advance(x0, v0, t - t0, 3.0, 0.0).0 };
        worst = worst.max((x[n] - exact).abs());
        assert_eq!(f[n], if t < t0 { 0.0 } else { 3.0 });
    }
    eprintln!("force step at {t0} s: max |x error| {worst:.2e}; {}", m.stats().to_text());
    assert!(worst < 1e-9, "{worst:e}");
}

#[test]
fn a_table_ramp_is_followed_between_its_points() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.csv"), "time,F\n0.0,0.0\n0.33,0.0\n0.77,2.0\n").unwrap();
    let sys = system(dir.path(), r#"{ "table": { "csv": "f.csv", "column": "F" } }"#);
    let mut m = MonolithicSystem::from_system(&sys).unwrap();
    let results = m.run(0.1).unwrap();
    let x = results.column("body.x").unwrap();
    let (ta, tb, fb) = (0.33, 0.77, 2.0);
    let slope = fb / (tb - ta);
    let (xa, va) = advance(1.0, 0.0, ta, 0.0, 0.0);
    let (xb, vb) = advance(xa, va, tb - ta, 0.0, slope);
    let mut worst: f64 = 0.0;
    for (n, &t) in results.time.iter().enumerate() {
        let exact = if t <= ta {
            advance(1.0, 0.0, t, 0.0, 0.0).0
        } else if t <= tb {
            advance(xa, va, t - ta, 0.0, slope).0
        } else {
            advance(xb, vb, t - tb, fb, 0.0).0
        };
        worst = worst.max((x[n] - exact).abs());
    }
    eprintln!("table ramp: max |x error| {worst:.2e}");
    assert!(worst < 1e-9, "{worst:e}");
}
