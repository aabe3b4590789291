//! Cost of the 4-blade elastic rotor with the shipped blade table (8 elements per blade, default
//! parameters, hover-like inputs: collective pitch 0.12 rad, blade loads, gravity), through
//! `fmu_core::Instance<RotorElastic>`: one state derivative (Model Exchange), one output
//! evaluation, and one `fmi2DoStep` of 1 ms (Co-Simulation, the internal Dormand-Prince); then
//! with 10 elements per blade one `fmi2DoStep` of 1 ms by the Dormand-Prince and by the implicit
//! midpoint (`integrator = 1`) and by BDF2 (`integrator = 2`), steps of 1 ms; and with the elastic
//! Bo105 example's rotor settings one state derivative, and its communication step with the
//! implicit midpoint.
//!
//! Run with `cargo bench -p fmu-rotor-elastic --bench step`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use fmu_core::Instance;
use fmu_rotor_elastic::RotorElastic;

/// Sets the hover-like inputs and initialises `inst`.
fn initialise(inst: &mut Instance<RotorElastic>) {
    initialise_with(inst, &[], &[]);
}

/// [`initialise`] with the integer parameters `integers` and the real ones `reals` set first.
fn initialise_with(inst: &mut Instance<RotorElastic>, integers: &[(&str, i32)], reals: &[(&str, f64)]) {
    for &(name, value) in integers {
        let vr = inst.vr(name).unwrap();
        inst.set_integer(&[vr], &[value]).unwrap();
    }
    for &(name, value) in reals {
        let vr = inst.vr(name).unwrap();
        inst.set_real(&[vr], &[value]).unwrap();
    }
    inst.set_resources(Some(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/blades"))));
    let mut set = |name: &str, v: f64| {
        let vr = inst.vr(name).unwrap();
        inst.set_real(&[vr], &[v]).unwrap();
    };
    set("hub.acc.z", -9.80665);
    for i in 1..=4 {
        set(&format!("blade[{i}].pitch"), 0.12);
        set(&format!("blade[{i}].F.z"), 1300.0);
        set(&format!("blade[{i}].F.y"), -60.0);
        set(&format!("blade[{i}].M.y"), -3000.0);
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
}

/// Benches one state derivative (Model Exchange) as `name` with the parameters of
/// [`initialise_with`]; returns the instance, in continuous-time mode.
fn bench_derivatives(
    c: &mut Criterion,
    name: &str,
    integers: &[(&str, i32)],
    reals: &[(&str, f64)],
) -> Instance<RotorElastic> {
    let logger = Box::new(|_, _: &str, _: &str| {});
    let mut me = Instance::<RotorElastic>::model_exchange("bench-me", logger).unwrap();
    initialise_with(&mut me, integers, reals);
    me.enter_continuous_time_mode().unwrap();
    let mut dx = vec![0.0; <RotorElastic as fmu_core::Model>::state_variables().len()];
    c.bench_function(name, |b| {
        b.iter(|| {
            me.set_time(black_box(0.01)).unwrap();
            me.get_derivatives(&mut dx).unwrap();
        })
    });
    me
}

fn bench(c: &mut Criterion) {
    let mut me = bench_derivatives(c, "rotor_elastic_derivatives", &[], &[]);
    let hub_force = me.vr("hub.F.z").unwrap();
    let mut y = [0.0];
    c.bench_function("rotor_elastic_outputs", |b| {
        b.iter(|| {
            me.set_time(black_box(0.02)).unwrap();
            me.get_real(&[hub_force], &mut y).unwrap();
        })
    });
    let mut cs = Instance::<RotorElastic>::new("bench-cs");
    initialise(&mut cs);
    let mut t = 0.0;
    c.bench_function("rotor_elastic_do_step_1ms", |b| {
        b.iter(|| {
            cs.do_step(t, 1e-3).unwrap();
            t += 1e-3;
        })
    });
    for (name, integrator) in [
        ("rotor_elastic_do_step_1ms_10_elements", 0),
        ("rotor_elastic_implicit_do_step_1ms_10_elements", 1),
        ("rotor_elastic_bdf2_do_step_1ms_10_elements", 2),
    ] {
        let mut cs = Instance::<RotorElastic>::new("bench-cs");
        initialise_with(&mut cs, &[("n_elements", 10), ("integrator", integrator)], &[]);
        let mut t = 0.0;
        c.bench_function(name, |b| {
            b.iter(|| {
                cs.do_step(t, 1e-3).unwrap();
                t += 1e-3;
            })
        });
    }
    bench_bo105_like(c);
}

/// The elastic Bo105 example's rotor settings (`examples/bo105-elastic.json` with
/// `n_elements = 10`, `integrator = 1`: tolerance 1e-4, structural damping 5e-3 s): one state
/// derivative (Model Exchange: the four blades' `BladeDynamics::derivatives` with the damping's
/// closed form), and its communication step, 1.9654609 ms, with the implicit midpoint at the
/// default `implicit_step` (two steps per communication step) and at `implicit_step` = the
/// communication step.
fn bench_bo105_like(c: &mut Criterion) {
    const STEP: f64 = 0.0019654609;
    let name = "rotor_elastic_bo105_like_derivatives_10_elements";
    bench_derivatives(c, name, &[("n_elements", 10)], &[("structural_damping", 5e-3)]);
    for (name, implicit_step) in [
        ("rotor_elastic_implicit_bo105_like_do_step_10_elements", 1e-3),
        ("rotor_elastic_implicit_bo105_like_one_step_10_elements", STEP),
    ] {
        let mut cs = Instance::<RotorElastic>::new("bench-cs");
        let reals = [("tolerance", 1e-4), ("structural_damping", 5e-3), ("implicit_step", implicit_step)];
        initialise_with(&mut cs, &[("n_elements", 10), ("integrator", 1)], &reals);
        let mut t = 0.0;
        c.bench_function(name, |b| {
            b.iter(|| {
                cs.do_step(t, STEP).unwrap();
                t += STEP;
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
