//! Cost of one Leishman-Beddoes section evaluation (`fmu_aero::dynamic_stall`): coefficients and
//! the seven state derivatives, in `f64` and in `Dual64` (one directional derivative), at an
//! attached and at a stalled point (NACA 0012, Mach 0.3, chord 0.27 m).
//!
//! Run with `cargo bench -p fmu-aero --bench dynamic_stall`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fmu_aero::dynamic_stall::{Airfoil, N_STATES, SectionFlow};
use fmu_core::Dual64;

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

criterion_group!(benches, section);
criterion_main!(benches);
