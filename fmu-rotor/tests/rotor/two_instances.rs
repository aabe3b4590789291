//! One FMU serves main and tail rotor: a 4-blade main rotor and a 2-blade tail rotor (other
//! shaft axis, speed, geometry and blade data) live in one process, stepped interleaved, and
//! each follows exactly (bit for bit) the trajectory it has when run alone.

use crate::common::{Sim, TAIL_ROTOR_SHAFT, Val, b, i, loaded_main_rotor, r};

/// A Bo105-class tail rotor: 2 blades, R 0.95 m, 233 rad/s, shaft along body +y (thrust to the
/// right), blades teetering-like (flap free, lag locked).
fn tail_rotor() -> Vec<(&'static str, Val)> {
    let rotor = [
        ("nb", i(2)),
        ("Omega", r(233.0)),
        ("R", r(0.95)),
        ("e", r(0.05)),
        ("blade.m", r(1.8)),
        ("blade.S", r(0.72)),
        ("blade.I", r(0.36)),
        ("k_lag", r(0.0)),
        ("c_lag", r(0.0)),
        ("lock_lag", b(true)),
        ("blade.beta0", r(0.02)),
        ("hub.acc.z", r(-9.80665)),
        ("blade[1].pitch", r(0.15)),
        ("blade[2].pitch", r(0.1)),
        ("blade[1].F.z", r(150.0)),
    ];
    [&rotor[..], &TAIL_ROTOR_SHAFT].concat()
}

const OUTPUTS: [&str; 9] = [
    "hub.F.x",
    "hub.F.y",
    "hub.F.z",
    "hub.M.x",
    "hub.M.z",
    "blade[1].flap",
    "blade[2].flap_rate",
    "shaft.torque",
    "blade[1].vel.y",
];

fn record(sim: &mut Sim) -> Vec<f64> {
    OUTPUTS.iter().map(|n| sim.get(n)).collect()
}

#[test]
fn main_and_tail_rotor_instances_are_independent() {
    let h = 0.002;
    let steps = 100;
    let alone = |params: &[(&str, Val)]| {
        let mut sim = Sim::new(params);
        let mut out = vec![record(&mut sim)];
        for _ in 0..steps {
            sim.step(h);
            out.push(record(&mut sim));
        }
        out
    };
    let main_alone = alone(&loaded_main_rotor());
    let tail_alone = alone(&tail_rotor());

    let mut main = Sim::new(&loaded_main_rotor());
    let mut tail = Sim::new(&tail_rotor());
    let (mut main_together, mut tail_together) = (vec![record(&mut main)], vec![record(&mut tail)]);
    for _ in 0..steps {
        main.step(h);
        tail.step(h);
        main_together.push(record(&mut main));
        tail_together.push(record(&mut tail));
    }
    let same = |a: &Vec<Vec<f64>>, b: &Vec<Vec<f64>>| {
        a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| x.to_bits() == y.to_bits())
    };
    assert!(same(&main_alone, &main_together), "the main rotor differs when the tail rotor runs beside it");
    assert!(same(&tail_alone, &tail_together), "the tail rotor differs when the main rotor runs beside it");
    // And they are really different rotors: the tail rotor's thrust is along body y.
    let (m, t) = (main_together.last().unwrap(), tail_together.last().unwrap());
    assert!(m[2].abs() > 10.0 * m[1].abs(), "main rotor hub force {m:?}");
    assert!(t[1].abs() > 0.0 && m[0] != t[0]);
    eprintln!(
        "two instances: main (4 blades) and tail (2 blades, shaft along y) interleaved over {steps} steps equal their \
         single-instance runs bit for bit; final hub.F main {:?} N, tail {:?} N",
        &m[0..3],
        &t[0..3]
    );
}
