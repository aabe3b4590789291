//! Cost of one output evaluation of the Atmosphere (ISA, wind, gust, 200 cosines x 3 turbulence
//! components) through `fmu_core::Instance<Atmosphere>` (the code path
//! of the exported C ABI minus the pointer checks), with the Dryden and the von Karman spectra
//! and low-altitude scales (amplitudes recomputed at each height) or given scales (amplitudes
//! computed once), and of the turbulence field alone.
//!
//! Run with `cargo bench -p fmu-atmosphere --bench turbulence`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fmu_atmosphere::Atmosphere;
use fmu_atmosphere::turbulence::{Scales, Spectrum, Turbulence};
use fmu_core::Instance;
use fmu_core::verify::vr;

/// An initialised instance with turbulence `model` (1 Dryden, 2 von Karman) and its inputs set.
fn instance(model: i32, scales: i32) -> Instance<Atmosphere> {
    let mut inst = Instance::<Atmosphere>::new("bench");
    inst.set_integer(&[vr::<Atmosphere>("turbulence.model")], &[model]).unwrap();
    inst.set_integer(&[vr::<Atmosphere>("turbulence.scales")], &[scales]).unwrap();
    inst.set_real(&[vr::<Atmosphere>("wind.speed")], &[8.0]).unwrap();
    inst.set_real(&[vr::<Atmosphere>("gust.amplitude.z")], &[3.0]).unwrap();
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    for (name, v) in [("z", -60.0), ("u", 30.0), ("theta", 0.05), ("psi", 0.3)] {
        inst.set_real(&[vr::<Atmosphere>(name)], &[v]).unwrap();
    }
    inst
}

fn bench(c: &mut Criterion) {
    let outputs: Vec<u32> =
        ["wind.x", "wind.y", "wind.z", "air.u", "airspeed", "density"].map(vr::<Atmosphere>).to_vec();
    let x = vr::<Atmosphere>("x");
    for (name, model, scales) in [
        ("dryden, low-altitude scales", 1, 1),
        ("von_karman, low-altitude scales", 2, 1),
        ("von_karman, given scales", 2, 2),
    ] {
        let mut inst = instance(model, scales);
        let mut values = vec![0.0; outputs.len()];
        let mut position = 0.0;
        c.bench_function(&format!("atmosphere outputs ({name}, 200 cosines x 3)"), |b| {
            b.iter(|| {
                // A new position each time, so that every call evaluates the outputs.
                position += 0.1;
                inst.set_real(&[x], &[position]).unwrap();
                inst.get_real(&outputs, &mut values).unwrap();
                black_box(&values);
            })
        });
    }
    let field = Turbulence::new(Spectrum::VonKarman, Scales::LowAltitude { w20: 7.72 }, 200, (1.0, 1.0e6), 1);
    c.bench_function("turbulence field alone (von Karman, 200 cosines x 3)", |b| {
        b.iter(|| black_box(field.velocity(black_box(123.4), black_box(60.0))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
