//! The Atmosphere through its FMI interface: still ISA sea-level air by default, the frames of
//! the turbulence and of the air-relative velocity against rotations written out here, exact
//! directional derivatives and declared dependencies, FMU state round trips, and a clear error
//! for inconsistent parameters.

use fmu_atmosphere::Atmosphere;
use fmu_atmosphere::turbulence::{Scales, Spectrum, Turbulence};
use fmu_core::verify::{Sim, Val, check_directional_derivatives, check_fmu_state_round_trip, i, r};

#[test]
fn defaults_give_still_sea_level_air() {
    let mut sim = Sim::<Atmosphere>::new(&[]);
    sim.step(0.5);
    // ICAO Doc 7488 sea-level values.
    let [t, p, rho, a] = sim.get_names(["temperature", "pressure", "density", "speed_of_sound"]);
    assert_eq!((t, p), (288.15, 101_325.0));
    assert!((rho - 1.2250).abs() < 5e-5 && (a - 340.294).abs() < 5e-4, "{rho} {a}");
    for prefix in ["wind", "wind.steady", "wind.gust", "wind.turbulence"] {
        assert_eq!(sim.get3(prefix), [0.0; 3], "{prefix}");
    }
    assert_eq!(sim.get("airspeed"), 0.0);
}

/// `C^T`-free NED-to-body rotation, 3-2-1, as the product of three elementary rotations.
fn ned_to_body(phi: f64, theta: f64, psi: f64, v: [f64; 3]) -> [f64; 3] {
    let rz = |a: f64, v: [f64; 3]| [a.cos() * v[0] + a.sin() * v[1], -a.sin() * v[0] + a.cos() * v[1], v[2]];
    let ry = |a: f64, v: [f64; 3]| [a.cos() * v[0] - a.sin() * v[2], v[1], a.sin() * v[0] + a.cos() * v[2]];
    let rx = |a: f64, v: [f64; 3]| [v[0], a.cos() * v[1] + a.sin() * v[2], -a.sin() * v[1] + a.cos() * v[2]];
    rx(phi, ry(theta, rz(psi, v)))
}

fn turbulent(track: f64) -> Vec<(&'static str, Val)> {
    vec![
        ("turbulence.model", i(2)),
        ("turbulence.scales", i(1)),
        ("turbulence.w20", r(15.0)),
        ("turbulence.seed", i(5)),
        ("turbulence.n", i(50)),
        ("track", r(track)),
        ("wind.speed", r(6.0)),
        ("wind.from", r(0.4)),
        ("wind.shear_exponent", r(1.0 / 7.0)),
        ("gust.shape", i(2)),
        ("gust.amplitude.z", r(4.0)),
        ("gust.start", r(10.0)),
        ("isa.dT", r(-12.0)),
        ("field_elevation", r(500.0)),
    ]
}

#[test]
fn turbulence_and_air_velocity_frames() {
    let track = 0.9_f64;
    let mut sim = Sim::<Atmosphere>::new(&turbulent(track));
    let inputs = [("x", 35.0), ("y", -12.0), ("z", -60.0), ("u", 30.0), ("v", 2.0), ("w", -1.0)];
    let euler = [0.2, -0.1, 2.5];
    for (name, v) in inputs {
        sim.set(name, v);
    }
    for (name, v) in ["phi", "theta", "psi"].iter().zip(euler) {
        sim.set(name, v);
    }
    sim.step(0.7);
    let t = sim.time();
    // The air mass moves with the 6 m/s wind from 0.4 rad; s is the track coordinate in it.
    let w_ref = [-6.0 * 0.4f64.cos(), -6.0 * 0.4f64.sin()];
    let s = (35.0 - w_ref[0] * t) * track.cos() + (-12.0 - w_ref[1] * t) * track.sin();
    let field = Turbulence::new(Spectrum::VonKarman, Scales::LowAltitude { w20: 15.0 }, 50, (1.0, 1.0e6), 5);
    let [tu, tv, tw] = field.velocity(s, 60.0);
    let expected = [tu * track.cos() - tv * track.sin(), tu * track.sin() + tv * track.cos(), tw];
    let turbulence = sim.get3("wind.turbulence");
    for c in 0..3 {
        assert!((turbulence[c] - expected[c]).abs() < 1e-12, "{turbulence:?} vs {expected:?}");
    }
    let wind = sim.get3("wind");
    let body = ned_to_body(euler[0], euler[1], euler[2], wind);
    let air = [sim.get("air.u"), sim.get("air.v"), sim.get("air.w")];
    let expected_air = [30.0 - body[0], 2.0 - body[1], -1.0 - body[2]];
    for c in 0..3 {
        assert!((air[c] - expected_air[c]).abs() < 1e-12, "{air:?} vs {expected_air:?}");
    }
    let airspeed = sim.get("airspeed");
    assert!((airspeed - expected_air.iter().map(|v| v * v).sum::<f64>().sqrt()).abs() < 1e-12);
    assert!((sim.get("mach") - airspeed / sim.get("speed_of_sound")).abs() < 1e-15);
    assert_eq!(sim.get("altitude"), 560.0);
}

#[test]
fn directional_derivatives_and_fmu_state() {
    let mut sim = Sim::<Atmosphere>::new(&turbulent(0.3));
    for (name, v) in [("x", 20.0), ("y", 5.0), ("z", -40.0), ("u", 25.0), ("w", 1.0), ("phi", 0.1), ("psi", 1.0)] {
        sim.set(name, v);
    }
    sim.step(1.0);
    let report = check_directional_derivatives(&mut sim.inst, |_, v| 1e-4 * v.abs().max(1.0), 1e-6).unwrap();
    report.assert_clean("Atmosphere");
    assert!(check_fmu_state_round_trip(&mut sim.inst, 5, 0.1) > 0);
}

#[test]
fn inconsistent_wavelengths_are_refused_with_their_names() {
    let err =
        Sim::<Atmosphere>::try_new(&[("turbulence.wavelength_min", r(10.0)), ("turbulence.wavelength_max", r(5.0))])
            .err()
            .expect("refused");
    assert!(err.contains("turbulence.wavelength_min") && err.contains("turbulence.wavelength_max"), "{err}");
    let err = Sim::<Atmosphere>::try_new(&[("gust.length", r(0.0))]).err().expect("refused");
    assert!(err.contains("gust.length"), "{err}");
}
