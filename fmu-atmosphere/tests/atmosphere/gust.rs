//! The discrete gust and the steady wind through the FMU's outputs, against the closed forms of
//! MIL-F-8785C 3.7.2.5 and the power law written out here.

use std::f64::consts::PI;

use fmu_atmosphere::Atmosphere;
use fmu_core::verify::{Sim, i, r};

const AMPLITUDE: [f64; 3] = [3.0, -2.0, 5.0];
const LENGTH: f64 = 40.0;
const START: f64 = 100.0;

/// The gust's fraction of its amplitude at `x` m into it: MIL-F-8785C's ramp, or the full
/// 1-cosine pulse.
fn closed_form(x: f64, pulse: bool) -> f64 {
    let end = if pulse { 2.0 * LENGTH } else { LENGTH };
    if x < 0.0 {
        0.0
    } else if x <= end {
        0.5 * (1.0 - (PI * x / LENGTH).cos())
    } else if pulse {
        0.0
    } else {
        1.0
    }
}

fn gust_sim(shape: i32, track: f64, wind: f64) -> Sim<Atmosphere> {
    Sim::new(&[
        ("gust.shape", i(shape)),
        ("gust.amplitude.x", r(AMPLITUDE[0])),
        ("gust.amplitude.y", r(AMPLITUDE[1])),
        ("gust.amplitude.z", r(AMPLITUDE[2])),
        ("gust.length", r(LENGTH)),
        ("gust.start", r(START)),
        ("track", r(track)),
        ("wind.speed", r(wind)),
        ("wind.from", r(track)),
    ])
}

#[test]
fn gust_shapes_follow_the_closed_form_along_the_track() {
    let track = 0.6_f64;
    for (shape, pulse) in [(1, false), (2, true)] {
        let mut sim = gust_sim(shape, track, 0.0);
        for k in 0..=300 {
            let s = -20.0 + k as f64;
            // A point s along the track, offset sideways (which must not matter).
            sim.set("x", s * track.cos() - 7.0 * track.sin());
            sim.set("y", s * track.sin() + 7.0 * track.cos());
            let gust = sim.get3("wind.gust");
            let f = closed_form(s - START, pulse);
            for c in 0..3 {
                assert!((gust[c] - f * AMPLITUDE[c]).abs() < 1e-12, "shape {shape} at s = {s}: {gust:?}");
            }
        }
    }
}

#[test]
fn hovering_in_wind_meets_the_gust_carried_by_the_air() {
    // Wind 8 m/s from the track direction: the air mass, and the gust in it, passes a hovering
    // aircraft at 8 m/s, so the gust is at 8 t - START into it.
    let mut sim = gust_sim(2, 1.1, 8.0);
    let h = 0.05;
    for _ in 0..600 {
        sim.step(h);
        let t = sim.time();
        let gust = sim.get3("wind.gust");
        let f = closed_form(8.0 * t - START, true);
        assert!((gust[2] - f * AMPLITUDE[2]).abs() < 1e-9, "t = {t}: {gust:?}");
        let total = sim.get3("wind");
        let steady = sim.get3("wind.steady");
        for c in 0..3 {
            assert!((total[c] - steady[c] - gust[c]).abs() < 1e-12);
        }
    }
}

#[test]
fn steady_wind_blows_from_its_direction_with_a_power_law_shear() {
    let from = 2.0_f64;
    let mut sim = Sim::<Atmosphere>::new(&[
        ("wind.speed", r(10.0)),
        ("wind.from", r(from)),
        ("wind.shear_exponent", r(1.0 / 7.0)),
        ("wind.reference_height", r(6.096)),
    ]);
    for height in [0.5, 6.096, 30.0, 300.0] {
        sim.set("z", -height);
        let w = sim.get3("wind.steady");
        let speed = 10.0 * (height / 6.096f64).powf(1.0 / 7.0);
        // Blowing from `from`: the air moves towards from + pi.
        assert!((w[0] + speed * from.cos()).abs() < 1e-12 && (w[1] + speed * from.sin()).abs() < 1e-12);
        assert_eq!(w[2], 0.0);
    }
    sim.set("z", 1.0);
    assert_eq!(sim.get3("wind.steady"), [0.0; 3], "no wind below the ground with a shear");
}
