//! The closed-form internal force and tangent stiffness
//! ([`Element::strain_energy_derivatives`], and the force alone, [`Element::strain_energy_gradient`]) against the exact AD gradient and Hessian of the
//! strain energy ([`Element::strain_hessian_ad`]), and the force's rate along a random motion
//! ([`Element::strain_energy_gradient_rate`]) against the AD Hessian's
//! `H z' + (0, w_1 x g_psi1 / 2, 0, w_2 x g_psi2 / 2)`, on random configurations: large relative
//! rotations (up to 3 rad), arbitrary node rotations and stretches, a fully coupled section
//! (tension and shear centres off the reference line) and initial curvature; and the small-angle
//! branch of the coefficient functions on both sides of its switch.

use fmu_rotor::beam::element::ElementNodes;
use fmu_rotor::beam::rotation::{normalize_quat, quat_about, quat_mul, rotate};
use fmu_rotor::beam::{Element, EngineeringSection, SectionProperties};
use nalgebra::{SMatrix, SVector};

/// A small deterministic generator (64-bit LCG, top 53 bits) of uniform numbers in `[-1, 1)`.
struct Uniform(u64);

impl Uniform {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    fn vector(&mut self) -> [f64; 3] {
        [self.next(), self.next(), self.next()]
    }
}

fn coupled_element(random: &mut Uniform) -> Element {
    let section = SectionProperties::from_engineering(&EngineeringSection {
        ea: 50.0,
        ga_lag: 20.0,
        ga_flap: 30.0,
        gj: 1.5,
        ei_flap: 2.0,
        ei_lag: 5.0,
        mass_per_length: 1.0,
        inertia_flap: 1e-3,
        inertia_lag: 2e-3,
        tension_centre: [0.05 * random.next(), 0.03 * random.next()],
        shear_centre: [0.04 * random.next(), 0.02 * random.next()],
        centre_of_mass: [0.0; 2],
    });
    Element {
        length: 0.3,
        initial_stretch: [1.0, 0.0, 0.0],
        initial_curvature: [0.4 * random.next(), 0.2 * random.next(), 0.1 * random.next()],
        section,
    }
}

/// Node 1 somewhere, node 2 turned from it by `relative_angle` about a random axis and placed at
/// a random stretch, shear and offset.
fn random_nodes(random: &mut Uniform, relative_angle: f64) -> ElementNodes {
    let axis = random.vector();
    let norm = axis.iter().map(|a| a * a).sum::<f64>().sqrt();
    let first = quat_about([0.6, 0.0, 0.8], 3.0 * random.next());
    let first = normalize_quat(quat_mul(quat_about([0.0, 1.0, 0.0], 2.0 * random.next()), first));
    let second = normalize_quat(quat_mul(first, quat_about(axis.map(|a| a / norm), relative_angle)));
    let x1 = random.vector();
    let chord = rotate(first, [0.3 * (1.0 + 0.2 * random.next()), 0.05 * random.next(), 0.05 * random.next()]);
    ElementNodes { positions: [x1, [x1[0] + chord[0], x1[1] + chord[1], x1[2] + chord[2]]], rotations: [first, second] }
}

/// Random node velocities (m/s, up to 3) and angular velocities (rad/s, up to 3), frame axes.
fn random_rates(random: &mut Uniform) -> SVector<f64, 12> {
    SVector::from_fn(|_, _| 3.0 * random.next())
}

/// The gradient's rate along the increments' rates `rates` from the AD gradient and Hessian:
/// `H z'` plus, on each node's rotation, `w x g_psi / 2` (the chart's turning).
fn gradient_rate_ad(
    gradient: &SVector<f64, 12>,
    hessian: &SMatrix<f64, 12, 12>,
    rates: &SVector<f64, 12>,
) -> SVector<f64, 12> {
    let mut rate = hessian * rates;
    for i in [3, 9] {
        let (w, g) = (rates.fixed_rows::<3>(i).into_owned(), gradient.fixed_rows::<3>(i).into_owned());
        let mut view = rate.fixed_rows_mut::<3>(i);
        view += w.cross(&g) * 0.5;
    }
    rate
}

/// Largest difference between the closed form and AD, relative to the largest entry of each
/// (energy, gradient, Hessian, gradient's rate along `rates`).
fn compare(element: &Element, nodes: &ElementNodes, rates: &SVector<f64, 12>) -> (f64, f64, f64, f64) {
    let (energy, gradient, hessian) = element.strain_energy_derivatives(nodes);
    let (energy_ad, gradient_ad, hessian_ad) = element.strain_hessian_ad(nodes);
    // The gradient-only path (the time integration's) too.
    let (energy_only, gradient_only) = element.strain_energy_gradient(nodes);
    let energy_error = (energy - energy_ad).abs().max((energy_only - energy_ad).abs()) / energy_ad.abs();
    let gradient_error = (gradient - gradient_ad).amax().max((gradient_only - gradient_ad).amax()) / gradient_ad.amax();
    let hessian_error = (hessian - hessian_ad).amax() / hessian_ad.amax();
    let (gradient_moving, rate) = element.strain_energy_gradient_rate(nodes, rates);
    let rate_ad = gradient_rate_ad(&gradient_ad, &hessian_ad, rates);
    let rate_error = (rate - rate_ad).amax() / rate_ad.amax();
    let gradient_error = gradient_error.max((gradient_moving - gradient_ad).amax() / gradient_ad.amax());
    (energy_error, gradient_error, hessian_error, rate_error)
}

#[test]
fn closed_form_tangent_matches_the_ad_hessian_on_random_large_rotations() {
    let mut random = Uniform(29);
    let mut worst = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for case in 0..200 {
        let element = coupled_element(&mut random);
        let angle = 3.0 * (random.next() + 1.0) / 2.0;
        let nodes = random_nodes(&mut random, angle);
        let rates = random_rates(&mut random);
        let (energy, gradient, hessian, rate) = compare(&element, &nodes, &rates);
        assert!(energy < 1e-12, "case {case}: energy {energy:e}");
        assert!(gradient < 1e-10, "case {case} (angle {angle}): gradient {gradient:e}");
        assert!(hessian < 1e-10, "case {case} (angle {angle}): Hessian {hessian:e}");
        assert!(rate < 1e-10, "case {case} (angle {angle}): gradient's rate {rate:e}");
        worst = (worst.0.max(energy), worst.1.max(gradient), worst.2.max(hessian), worst.3.max(rate));
    }
    println!(
        "worst relative error over 200 cases: energy {:.1e}, gradient {:.1e}, Hessian {:.1e}, gradient's rate {:.1e}",
        worst.0, worst.1, worst.2, worst.3
    );
}

#[test]
fn closed_form_tangent_matches_the_ad_hessian_at_small_relative_rotations() {
    let mut random = Uniform(7);
    // Around the switch to the series (|phi|^2 = 1e-3) and down to zero.
    for angle in [0.0, 1e-9, 1e-5, 1e-3, 0.0316, 0.03163, 0.0317, 0.1] {
        let element = coupled_element(&mut random);
        let nodes = random_nodes(&mut random, angle);
        let rates = random_rates(&mut random);
        let (energy, gradient, hessian, rate) = compare(&element, &nodes, &rates);
        assert!(
            energy < 1e-12 && gradient < 1e-10 && hessian < 1e-10 && rate < 1e-10,
            "angle {angle}: {energy:e} {gradient:e} {hessian:e} {rate:e}"
        );
    }
}
