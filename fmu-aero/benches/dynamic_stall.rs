//! Cost of one Leishman-Beddoes section evaluation (`fmu_aero::dynamic_stall`): coefficients and
//! the seven state derivatives, in `f64` and in `Dual64` (one directional derivative), at an
//! attached and at a stalled point (NACA 0012, Mach 0.3, chord 0.27 m).
//!
//! And one 1 ms communication step (`fmi2DoStep` through `fmu_core::Instance`) of a 4-blade rotor
//! with 8 stations and Pitt-Peters inflow, pitched 14 deg, hub forward at 30 m/s: `Aero`
//! against `AeroDynamicStall` with `dynamic_stall = 1` (224 more states).
//!
//! Run with `cargo bench -p fmu-aero --bench dynamic_stall`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fmu_aero::dynamic_stall::{Airfoil, N_STATES, SectionFlow};
use fmu_aero::{Aero, AeroDynamicStall};
use fmu_core::{Dual64, Instance, Model};

fn section(c: &mut Criterion) {
    let airfoil = Airfoil::naca0012(0.3);
    for (name, alpha_deg) in [("attached", 6.0_f64), ("stalled", 20.0)] {
        let alpha = alpha_deg.to_radians();
        let mut x = airfoil.steady_state(alpha);
        if alpha_deg > 15.0 {
            // Leading-edge separation under way: vortex lift building.
            (x[3], x[5], x[6]) = (1.6, 0.2, 3.0);
        }
        let flow = SectionFlow { alpha, alpha_rate: 0.5, speed: 102.0, mach: 0.3, chord: 0.27 };
        c.bench_function(&format!("dynamic_stall_section_f64_{name}"), |b| {
            let mut dx = [0.0; N_STATES];
            b.iter(|| black_box(airfoil.evaluate(black_box(&x), black_box(&flow), &mut dx)).cl + dx[5])
        });
        let xd = x.map(Dual64::from);
        let flow_d = SectionFlow {
            alpha: Dual64::new(alpha, 1.0),
            alpha_rate: Dual64::from(0.5),
            speed: Dual64::from(102.0),
            mach: Dual64::from(0.3),
            chord: 0.27,
        };
        c.bench_function(&format!("dynamic_stall_section_dual_{name}"), |b| {
            let mut dx = [Dual64::from(0.0); N_STATES];
            b.iter(|| black_box(airfoil.evaluate(black_box(&xd), black_box(&flow_d), &mut dx)).cl + dx[5])
        });
    }
}

/// A running rotor instance (see the module docs).
fn rotor<M: Model>(dynamic_stall: i32) -> Instance<M> {
    let (omega, pitch) = (29.0_f64, 14.0_f64.to_radians());
    let mut inst = Instance::<M>::new("bench");
    for (name, v) in [("nb", 4), ("n_sections", 8), ("inflow_model", 2), ("dynamic_stall", dynamic_stall)] {
        let r = inst.vr(name).unwrap();
        inst.set_integer(&[r], &[v]).unwrap();
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let (s, c) = pitch.sin_cos();
    for b in 1..=4 {
        let psi = 0.3 + (b - 1) as f64 * std::f64::consts::FRAC_PI_2;
        for (name, v) in [
            ("vel.y", 30.0 * psi.sin()),
            ("omega.y", omega * s),
            ("omega.z", omega * c),
            ("azimuth", psi),
            ("shaft.y", s),
            ("shaft.z", c),
        ] {
            let r = inst.vr(&format!("blade[{b}].{name}")).unwrap();
            inst.set_real(&[r], &[v]).unwrap();
        }
    }
    let r = inst.vr("hub.vel.x").unwrap();
    inst.set_real(&[r], &[30.0]).unwrap();
    // Past the start transient.
    for n in 0..100 {
        inst.do_step(n as f64 * 1e-3, 1e-3).unwrap();
    }
    inst
}

/// Benchmarks 1 ms steps of `inst` from t = 0.1 s on.
fn steps<M: Model>(c: &mut Criterion, name: &str, mut inst: Instance<M>) {
    let mut t = 0.1;
    c.bench_function(name, |b| {
        b.iter(|| {
            inst.do_step(t, 1e-3).unwrap();
            t += 1e-3;
        })
    });
}

fn step(c: &mut Criterion) {
    steps(c, "aero_step_1ms_pitt_peters_8_stations", rotor::<Aero>(0));
    steps(c, "aero_dynamic_stall_step_1ms_pitt_peters_8_stations", rotor::<AeroDynamicStall>(1));
}

criterion_group!(benches, section, step);
criterion_main!(benches);
