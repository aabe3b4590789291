//! The fast paths of the blade's equations (`BladeDynamics`): the closed-form internal loads of
//! the `f64` evaluation against the AD strain-energy gradient (the dual-number evaluation), and
//! the exact Jacobian against finite differences of the `f64` evaluation.

use fmu_rotor::beam::blade_dynamics::{BladeDynamics, FrameMotion};
use fmu_rotor::beam::{Beam, EngineeringSection, SectionProperties};
use num_dual::Dual64;

/// A uniform 1 m blade with pretwist (1 rad over the span) and distinct stiffnesses, at 0.2 m
/// from the frame's origin: every coupling of the element's force is exercised.
pub fn twisted_blade(elements: usize) -> BladeDynamics {
    let section = EngineeringSection {
        ea: 2e4,
        ga_lag: 1e4,
        ga_flap: 8e3,
        gj: 0.6,
        ei_flap: 1.0,
        ei_lag: 3.0,
        mass_per_length: 1.0,
        inertia_flap: 1e-2,
        inertia_lag: 3e-2,
        tension_centre: [0.0; 2],
        shear_centre: [0.0; 2],
        centre_of_mass: [0.0; 2],
    };
    let properties = SectionProperties::from_engineering(&section);
    BladeDynamics::new(Beam::straight([0.2, 0.0, 0.0], 1.0, elements, |_| properties.clone(), |s| s)).unwrap()
}

/// Deterministic pseudo-random numbers in [-1, 1) (a 64-bit linear congruential generator).
pub struct Random(pub u64);

impl Random {
    /// The next number.
    pub fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// A random state: displacements up to `0.05` m, rotation vectors up to `angle` rad per
/// component, rates up to 2 m/s and 3 rad/s.
pub fn random_state(blade: &BladeDynamics, random: &mut Random, angle: f64) -> Vec<f64> {
    let half = blade.n_states() / 2;
    (0..blade.n_states())
        .map(|i| {
            let scale = match (i < half, i % 6 < 3) {
                (true, true) => 0.05,
                (true, false) => angle,
                (false, true) => 2.0,
                (false, false) => 3.0,
            };
            scale * random.next()
        })
        .collect()
}

/// A frame with every motion term.
fn moving_frame() -> FrameMotion<f64> {
    FrameMotion { specific_force: [0.3, -1.2, -9.8], omega: [0.2, -0.1, 40.0], alpha: [1.5, 0.7, -3.0] }
}

/// The derivative for `f64` (closed-form internal loads) equals the real part of the derivative
/// for `Dual64` (AD of the strain energy) to round-off on random states with rotations up to
/// 2.5 rad, with nodal loads: largest difference 1e-12 of the derivative's largest entry.
#[test]
fn closed_form_internal_loads_equal_the_ad_gradient_on_random_states() {
    let blade = twisted_blade(5);
    let frame = moving_frame();
    let dual_frame = FrameMotion {
        specific_force: frame.specific_force.map(Dual64::from),
        omega: frame.omega.map(Dual64::from),
        alpha: frame.alpha.map(Dual64::from),
    };
    let nodes = blade.beam.n_nodes();
    let mut random = Random(7);
    let mut worst: f64 = 0.0;
    for _ in 0..50 {
        let x = random_state(&blade, &mut random, 2.5);
        let forces: Vec<[f64; 3]> = (0..nodes).map(|_| [random.next(), random.next(), random.next()]).collect();
        let moments: Vec<[f64; 3]> = (0..nodes).map(|_| [random.next(), random.next(), random.next()]).collect();
        let mut dx = vec![0.0; x.len()];
        let clamp = blade.derivatives(&frame, &x, (&forces, &moments), &mut Vec::new(), &mut dx);
        let lift = |v: &Vec<[f64; 3]>| v.iter().map(|a| a.map(Dual64::from)).collect::<Vec<_>>();
        let xd: Vec<Dual64> = x.iter().map(|&v| Dual64::from(v)).collect();
        let mut dxd = vec![Dual64::from(0.0); x.len()];
        let clamp_d = blade.derivatives(&dual_frame, &xd, (&lift(&forces), &lift(&moments)), &mut Vec::new(), &mut dxd);
        let largest = dx.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let differences = dx.iter().zip(&dxd).map(|(a, b)| (a - b.re).abs());
        let clamp_differences = (0..3)
            .map(|k| (clamp.force[k] - clamp_d.force[k].re).abs().max((clamp.moment[k] - clamp_d.moment[k].re).abs()));
        worst = worst.max(differences.chain(clamp_differences).fold(0.0, f64::max) / largest);
    }
    println!("closed form vs AD internal loads: worst relative difference {worst:.2e}");
    assert!(worst < 1e-12, "closed form vs AD: {worst:e}");
}

/// The exact Jacobian (forward AD, what Model Exchange's directional derivatives and
/// `linearize` use) against central finite differences of the `f64` derivative (closed-form
/// internal loads), step 1e-6 of each state's scale: within 1e-8 of the Jacobian's largest entry
/// (the differences' truncation and round-off).
#[test]
fn the_exact_jacobian_matches_finite_differences_of_the_closed_form_derivative() {
    let blade = twisted_blade(4);
    let frame = moving_frame();
    let x = random_state(&blade, &mut Random(11), 1.0);
    let jacobian = blade.jacobian(&frame, &x);
    let none = vec![[0.0; 3]; blade.beam.n_nodes()];
    let evaluate = |x: &[f64]| {
        let mut dx = vec![0.0; x.len()];
        blade.derivatives(&frame, x, (&none, &none), &mut Vec::new(), &mut dx);
        dx
    };
    let mut worst: f64 = 0.0;
    for column in 0..x.len() {
        let step = 1e-6;
        let (mut plus, mut minus) = (x.clone(), x.clone());
        plus[column] += step;
        minus[column] -= step;
        let (fp, fm) = (evaluate(&plus), evaluate(&minus));
        for row in 0..x.len() {
            let difference = (fp[row] - fm[row]) / (2.0 * step);
            worst = worst.max((difference - jacobian[(row, column)]).abs());
        }
    }
    let relative = worst / jacobian.amax();
    println!("Jacobian vs finite differences: worst {relative:.2e} of the largest entry {:.3e}", jacobian.amax());
    assert!(relative < 1e-8, "Jacobian vs finite differences: {relative:e}");
}
