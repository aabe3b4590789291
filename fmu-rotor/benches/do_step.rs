//! Cost of one `fmi2DoStep` of the 4-blade main rotor (flap and lag free, driven shaft, default
//! tolerance) at a 5-degree azimuth step `h = 5 deg / Omega`, through `fmu_core::Instance<Rotor>`
//! (the code path of the exported C ABI minus the pointer checks); plus the pieces: one state
//! derivative (block-diagonal and dense mass-matrix solve), one output evaluation (from scratch,
//! and with the kinematics of the last one reused), and the directional derivatives of the hub
//! loads with respect to the hub acceleration.
//!
//! Run with `cargo bench -p fmu-rotor --bench do_step`.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use fmu_core::Instance;
use fmu_core::model::{Model, Parameters};
use fmu_core::variable::Kind;
use fmu_rotor::Rotor;
use fmu_rotor::layout::u;

const OMEGA: f64 = 29.0;

/// A hovering-like state: collective pitch, blade lift, gravity, flap and lag free.
fn instance() -> Instance<Rotor> {
    let mut inst = Instance::<Rotor>::new("bench");
    let mut set = |name: &str, v: f64| {
        let vr = inst.vr(name).unwrap();
        inst.set_real(&[vr], &[v]).unwrap();
    };
    set("hub.acc.z", -9.80665);
    set("blade.beta0", 0.05);
    for i in 1..=4 {
        set(&format!("blade[{i}].pitch"), 0.12);
        set(&format!("blade[{i}].F.z"), 12000.0);
        set(&format!("blade[{i}].F.y"), -600.0);
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst
}

/// Default parameter values by value reference (what `configure` sees in an unchanged instance).
struct Defaults(Vec<fmu_core::Variable>);

impl Parameters for Defaults {
    fn real(&self, vr: u32) -> f64 {
        match self.0.iter().find(|v| v.vr == vr).unwrap().kind {
            Kind::Real { start, .. } => start,
            _ => unreachable!(),
        }
    }
    fn integer(&self, vr: u32) -> i32 {
        match self.0.iter().find(|v| v.vr == vr).unwrap().kind {
            Kind::Integer { start, .. } => start,
            _ => unreachable!(),
        }
    }
    fn boolean(&self, vr: u32) -> bool {
        match self.0.iter().find(|v| v.vr == vr).unwrap().kind {
            Kind::Boolean { start } => start,
            _ => unreachable!(),
        }
    }
}

/// Value references of the named variables.
fn vrs(inst: &Instance<Rotor>, names: &[&str]) -> Vec<u32> {
    names.iter().map(|n| inst.vr(n).unwrap()).collect()
}

/// The hub loads' value references.
fn hub_loads(inst: &Instance<Rotor>) -> Vec<u32> {
    vrs(inst, &["hub.F.x", "hub.F.y", "hub.F.z", "hub.M.x", "hub.M.y", "hub.M.z"])
}

/// `fmi2DoStep` alone and followed by reading the hub loads, continuing from time `t` (advanced
/// by every step).
fn bench_steps(group: &mut BenchmarkGroup<WallTime>, inst: &mut Instance<Rotor>, t: &mut f64, h: f64) {
    group.bench_function("do_step_4_blades_5deg", |b| {
        b.iter(|| {
            inst.do_step(black_box(*t), h).unwrap();
            *t += h;
        })
    });

    let hub_loads = hub_loads(inst);
    let mut loads = [0.0; 6];
    group.bench_function("do_step_and_get_hub_loads", |b| {
        b.iter(|| {
            inst.do_step(black_box(*t), h).unwrap();
            *t += h;
            inst.get_real(&hub_loads, &mut loads).unwrap();
        })
    });
}

/// The columns of the hub loads' Jacobian with respect to the hub acceleration.
fn bench_directional_derivatives(group: &mut BenchmarkGroup<WallTime>, inst: &mut Instance<Rotor>) {
    let hub_loads = hub_loads(inst);
    let acc = vrs(inst, &["hub.acc.x", "hub.acc.y", "hub.acc.z"]);
    let mut column = [0.0; 6];
    group.bench_function("directional_derivatives_hub_loads_by_hub_acc", |b| {
        b.iter(|| {
            for &k in &acc {
                inst.get_directional_derivative(&hub_loads, &[k], &[1.0], &mut column).unwrap();
            }
        })
    });
}

/// The inputs of [`instance`] as the model's `u`: hub acceleration, blade pitch and lift.
fn hover_inputs() -> Vec<f64> {
    let mut us = vec![0.0; u::N];
    us[u::HUB_ACC + 2] = -9.80665;
    for i in 0..4 {
        us[u::blade(i) + u::PITCH] = 0.12;
        us[u::blade(i) + u::FORCE + 2] = 12000.0;
    }
    us
}

/// The model's equations directly, at state `x`: derivatives with the block-diagonal and the
/// dense mass-matrix solve, outputs from scratch and with cached kinematics, state outputs.
fn bench_equations(group: &mut BenchmarkGroup<WallTime>, x: &[f64], t: f64, h: f64) {
    let defaults = Defaults(Rotor::variables());
    let block = Rotor::from_parameters(&defaults).unwrap();
    let dense = Rotor::from_parameters(&defaults).unwrap().with_dense_solve();
    let us = hover_inputs();
    let mut dx = vec![0.0; x.len()];
    // Alternating between two times (two shaft angles) defeats the kinematics cache: each
    // evaluation is one from scratch, as in the integrator's stages.
    let times = [t, t + h];
    let mut k = 0;
    let mut next_time = || {
        k ^= 1;
        black_box(times[k])
    };
    let (mut work, mut dense_work) = (block.work::<f64>(), dense.work::<f64>());
    group.bench_function("derivatives_block_solve", |b| {
        b.iter(|| block.derivatives(&mut work, next_time(), x, &us, &mut dx))
    });
    group.bench_function("derivatives_dense_solve", |b| {
        b.iter(|| dense.derivatives(&mut dense_work, next_time(), x, &us, &mut dx))
    });
    let mut ys = vec![0.0; fmu_rotor::layout::y::N];
    group.bench_function("outputs_f64", |b| b.iter(|| block.outputs(&mut work, next_time(), x, &us, &mut ys)));
    // The outputs without feedthrough alone (azimuth, shaft rate, blade angles and rates), as
    // fmi2GetReal evaluates them when a master reads just those after a step.
    group.bench_function("state_outputs", |b| b.iter(|| block.state_outputs(next_time(), x, &mut ys)));
    // Only the hub acceleration changes, as in the iterations of the airframe loop: the
    // kinematics of the last evaluation are reused.
    let mut us2 = us.clone();
    us2[u::HUB_ACC] = 0.5;
    let inputs = [us, us2];
    group.bench_function("outputs_f64_cached_kinematics", |b| {
        b.iter(|| {
            k ^= 1;
            block.outputs(&mut work, black_box(t), x, &inputs[k], &mut ys)
        })
    });
}

fn do_step(c: &mut Criterion) {
    let h = 5f64.to_radians() / OMEGA;
    let mut group = c.benchmark_group("rotor");

    let mut inst = instance();
    // Settle into periodic motion first.
    let mut t = 0.0;
    for _ in 0..200 {
        inst.do_step(t, h).unwrap();
        t += h;
    }
    bench_steps(&mut group, &mut inst, &mut t, h);
    bench_directional_derivatives(&mut group, &mut inst);
    let x = inst.continuous_state().to_vec();
    bench_equations(&mut group, &x, t, h);
    group.finish();
}

criterion_group!(benches, do_step);
criterion_main!(benches);
