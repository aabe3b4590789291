//! Cost of the geometrically exact beam with 10 elements: a static solve (cantilever, dead tip
//! load PL^2/EI = 2, five load steps, Newton to 1e-12), one Newton iteration (tangent assembly
//! and block-tridiagonal solve), one element's tangent (closed form and the AD oracle), one
//! implicit-midpoint time step of the released bent beam, the linearisation about a rotating
//! equilibrium (fast and AD) and the modal solves (Cholesky reduction and symmetric eigen-solve
//! of the 60 unknowns; with Coriolis, the 120x120 first-order system).
//!
//! Run with `cargo bench -p fmu-rotor --bench beam`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fmu_rotor::beam::{Beam, EngineeringSection, NewtonSettings, SectionProperties, TipLoad};

fn beam() -> Beam {
    let section = SectionProperties::from_engineering(&EngineeringSection {
        ea: 1e6,
        ga_lag: 1e6,
        ga_flap: 1e6,
        gj: 1.0,
        ei_flap: 1.0,
        ei_lag: 3.0,
        mass_per_length: 1.0,
        inertia_flap: 1e-6,
        inertia_lag: 1e-6,
        tension_centre: [0.0; 2],
        shear_centre: [0.0; 2],
        centre_of_mass: [0.0; 2],
    });
    Beam::straight([0.0; 3], 1.0, 10, |_| section.clone(), |_| 0.0)
}

fn bench(c: &mut Criterion) {
    let beam = beam();
    let settings = NewtonSettings { load_steps: 5, ..NewtonSettings::default() };
    c.bench_function("beam_static_10_elements", |b| {
        b.iter(|| black_box(beam.solve_static(TipLoad::Dead([0.0, 0.0, 2.0]), &settings).unwrap()))
    });
    c.bench_function("beam_newton_iteration_10_elements", |b| {
        b.iter(|| {
            let mut state = beam.undeformed.clone();
            black_box(beam.newton_step(&mut state, TipLoad::Dead([0.0, 0.0, 0.1])).unwrap())
        })
    });
    // One element's tangent, closed form against the AD oracle, in a bent configuration.
    let bent = beam.solve_static(TipLoad::Dead([0.0, 1.0, 2.0]), &settings).unwrap();
    let nodes = beam.element_nodes(&bent, 9);
    c.bench_function("beam_element_tangent_closed_form", |b| {
        b.iter(|| black_box(beam.elements[9].strain_energy_derivatives(black_box(&nodes))))
    });
    c.bench_function("beam_element_tangent_ad", |b| {
        b.iter(|| black_box(beam.elements[9].strain_hessian_ad(black_box(&nodes))))
    });
    // One implicit-midpoint step of the released bent beam (Newton to 1e-12).
    let inertia = beam.lumped_inertia();
    let released = fmu_rotor::beam::BeamMotion::at_rest(bent.clone());
    c.bench_function("beam_midpoint_step_10_elements", |b| {
        b.iter(|| {
            let mut motion = released.clone();
            black_box(beam.midpoint_step(&mut motion, &inertia, 1e-3, 1e-12).unwrap())
        })
    });
    let straight = beam.undeformed.clone();
    c.bench_function("beam_modes_10_elements_not_turning", |b| b.iter(|| black_box(beam.modes(&straight, 10))));
    let mut rotating = beam.clone();
    rotating.frame_rate = [0.0, 0.0, 6.0];
    let equilibrium =
        rotating.solve_static(TipLoad::Dead([0.0; 3]), &NewtonSettings { load_steps: 1, ..settings }).unwrap();
    c.bench_function("beam_linearise_10_elements", |b| b.iter(|| black_box(rotating.linearise(&equilibrium))));
    c.bench_function("beam_linearise_ad_10_elements", |b| b.iter(|| black_box(rotating.linearise_ad(&equilibrium))));
    c.bench_function("beam_modes_10_elements", |b| b.iter(|| black_box(rotating.modes(&equilibrium, 10))));
    c.bench_function("beam_gyroscopic_frequencies_10_elements", |b| {
        b.iter(|| black_box(rotating.gyroscopic_frequencies(&equilibrium, 10)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
