//! `helicopter-gust.json` (the Atmosphere's wind into the Fuselage and both Aero instances):
//! Galilean invariance of the whole chain. The helicopter at rest over the ground in a steady
//! wind `W` and the same helicopter moving at `-W` (body axes, from its attitude) in still air
//! have the same rotor loads at every step, to round-off; the reference is the invariance itself.
//! The lag hinges are locked at zero: the Aero turns the wind into blade axes with the blade's
//! azimuth, which a lag angle shifts (documented in docs/models.md; with the example's lag of
//! about 0.6 deg the thrust differs by 2e-5 of itself).

use crate::common::{example, run_description};
use cosim::master::Results;

/// Runs the example for 1.5 s without its gust and with locked lag hinges, after `settings`.
fn run(settings: &[String]) -> Results {
    let mut description = example("helicopter-gust.json");
    description.experiment.stop = 1.5;
    for s in ["atmosphere.gust.amplitude.z=0", "rotor.lock_lag=true", "rotor.blade.zeta0=0"]
        .iter()
        .map(|s| s.to_string())
        .chain(settings.iter().cloned())
    {
        description.set_value(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    run_description(&description).0
}

fn column(results: &Results, name: &str) -> Vec<f64> {
    results.column(name).unwrap_or_else(|| panic!("{name} not recorded"))
}

#[test]
fn helicopter_in_a_steady_wind_has_the_loads_of_the_opposite_motion_in_still_air() {
    let in_wind = run(&[]);
    // The airframe's velocity relative to the air at the start: minus the wind in body axes.
    let wind_body = ["x", "y", "z"].map(|c| column(&in_wind, &format!("fuselage.wind.body.{c}"))[0]);
    let moving: Vec<String> = ["u0", "v0", "w0"]
        .iter()
        .zip(wind_body)
        .map(|(name, w)| format!("fuselage.{name}={}", -w))
        .chain(["atmosphere.wind.speed=0".to_string()])
        .collect();
    let still_air = run(&moving);
    let largest = |name: &str| column(&still_air, name).iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    // Forces relative to the largest thrust, moments to the largest torque.
    let (force_scale, moment_scale) = (largest("aero.thrust"), largest("aero.torque"));
    let mut worst: f64 = 0.0;
    for (name, scale) in [
        ("aero.thrust", force_scale),
        ("aero.torque", moment_scale),
        ("rotor.hub.F.x", force_scale),
        ("rotor.hub.F.y", force_scale),
        ("rotor.hub.F.z", force_scale),
        ("rotor.hub.M.x", moment_scale),
        ("rotor.hub.M.y", moment_scale),
        ("tail_aero.thrust", force_scale),
    ] {
        let (a, b) = (column(&in_wind, name), column(&still_air, name));
        let error = a.iter().zip(&b).fold(0.0_f64, |m, (x, y)| m.max((x - y).abs())) / scale;
        eprintln!("{name}: worst difference over {} points {error:.2e} of {scale:.1}", a.len());
        worst = worst.max(error);
    }
    assert!(worst < 1e-12, "wind W and motion -W differ by {worst:e}");
}
