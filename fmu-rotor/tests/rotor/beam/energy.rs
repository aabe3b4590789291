//! Energy of the free beam under the implicit midpoint rule ([`Beam::midpoint_step`]): a
//! cantilever bent in 3D by a large tip force (PL^2/EI about 2) is released at rest and swings
//! freely in vacuum. The reference is the conservation law itself (the energy at release); the
//! midpoint rule's energy error over a fixed time is second order in the step.

use fmu_rotor::beam::{Beam, BeamMotion, NewtonSettings, StepError, TipLoad};

use super::{uniform_cantilever, uniform_section};

/// Largest relative energy error over `duration` seconds with steps of `step`, the largest
/// Newton iteration count of a step and the lowest tip height (m) reached.
fn largest_energy_error(beam: &Beam, released: &BeamMotion, duration: f64, step: f64) -> (f64, usize, f64) {
    let inertia = beam.lumped_inertia();
    let mut motion = released.clone();
    let initial = beam.total_energy(&motion, &inertia);
    let (mut worst, mut most_iterations, mut lowest_tip) = (0.0_f64, 0, f64::INFINITY);
    for _ in 0..(duration / step).round() as usize {
        let iterations = beam.midpoint_step(&mut motion, &inertia, step, 1e-12).expect("midpoint step");
        most_iterations = most_iterations.max(iterations);
        worst = worst.max((beam.total_energy(&motion, &inertia) - initial).abs() / initial);
        lowest_tip = lowest_tip.min(motion.state.positions.last().unwrap()[2]);
    }
    (worst, most_iterations, lowest_tip)
}

#[test]
fn free_vibration_conserves_energy_to_second_order_in_the_step() {
    // EI_flap 1, EI_lag 3, GJ 1, EA = GA = 1e4, m = 1, section inertias 1e-3 (unit length).
    let beam = uniform_cantilever(10, uniform_section(1.0, 3.0, 1.0, 1e4, 1.0, [1e-3, 1e-3]));
    let bent = beam.solve_static(TipLoad::Dead([0.0, 0.5, 2.0]), &NewtonSettings::default()).expect("static solve");
    let released = BeamMotion::at_rest(bent);
    let steps = [0.01, 0.005, 0.0025];
    let results: Vec<(f64, usize, f64)> =
        steps.iter().map(|&h| largest_energy_error(&beam, &released, 1.0, h)).collect();
    for (h, (error, iterations, lowest)) in steps.iter().zip(&results) {
        println!(
            "step {h}: largest relative energy error over 1 s {error:.3e} (Newton iterations per step <= {iterations}, lowest tip height {lowest:.3} m)"
        );
    }
    // Released 0.78 m above the axis, the tip swings through to the other side in this second.
    assert!(results[2].2 < -0.3, "the beam hardly moved: {}", results[2].2);
    let orders: Vec<f64> = results.windows(2).map(|w| (w[0].0 / w[1].0).log2()).collect();
    println!("observed orders: {orders:.2?}");
    for order in &orders {
        assert!((order - 2.0).abs() < 0.3, "order {order}");
    }
    assert!(results[2].0 < 1e-4, "{}", results[2].0);
}

#[test]
fn a_turning_frame_is_refused_by_the_midpoint_step() {
    let mut beam = uniform_cantilever(4, uniform_section(1.0, 3.0, 1.0, 1e4, 1.0, [1e-3, 1e-3]));
    beam.frame_rate = [0.0, 0.0, 2.0];
    let inertia = beam.lumped_inertia();
    let mut motion = BeamMotion::at_rest(beam.undeformed.clone());
    let error = beam.midpoint_step(&mut motion, &inertia, 0.01, 1e-12).unwrap_err();
    assert_eq!(error, StepError::TurningFrame([0.0, 0.0, 2.0]));
    assert!(error.to_string().contains("does not turn"), "{error}");
}
