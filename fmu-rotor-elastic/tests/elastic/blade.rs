//! The blade's equations of motion (`BladeDynamics`) alone: linearised frequencies about the
//! centrifugal equilibrium against the rotating Euler-Bernoulli cantilever (shooting solution,
//! `fmu-rotor/tests/rotor/beam/data/rotating_flap.csv`, by `tests/python/beam_reference.py`) and
//! the non-rotating closed forms; energy conservation in free vibration.

use fmu_rotor::beam::blade_dynamics::{BladeDynamics, FrameMotion};
use fmu_rotor::beam::{Beam, EngineeringSection, SectionProperties};
use nalgebra::DMatrix;

/// A uniform cantilever of length 1 from the frame's origin along x.
pub fn uniform_blade(
    elements: usize,
    ei_flap: f64,
    ei_lag: f64,
    gj: f64,
    mass: f64,
    inertia: [f64; 2],
) -> BladeDynamics {
    uniform_blade_with_ea(1e5, elements, [ei_flap, ei_lag, gj], mass, inertia)
}

/// A uniform cantilever of length 1 with axial and shear stiffness `ea` (N) and the bending and
/// torsion stiffnesses `[EI flap, EI lag, GJ]` (N m^2).
pub fn uniform_blade_with_ea(
    ea: f64,
    elements: usize,
    stiffness: [f64; 3],
    mass: f64,
    inertia: [f64; 2],
) -> BladeDynamics {
    let [ei_flap, ei_lag, gj] = stiffness;
    let section = EngineeringSection {
        ea,
        ga_lag: ea,
        ga_flap: ea,
        gj,
        ei_flap,
        ei_lag,
        mass_per_length: mass,
        inertia_flap: inertia[0],
        inertia_lag: inertia[1],
        tension_centre: [0.0; 2],
        shear_centre: [0.0; 2],
        centre_of_mass: [0.0; 2],
    };
    let properties = SectionProperties::from_engineering(&section);
    BladeDynamics::new(Beam::straight([0.0; 3], 1.0, elements, |_| properties.clone(), |_| 0.0)).unwrap()
}

/// A frame turning at `speed` rad/s about z, origin at rest, no gravity.
pub fn turning(speed: f64) -> FrameMotion<f64> {
    FrameMotion { specific_force: [0.0; 3], omega: [0.0, 0.0, speed], alpha: [0.0; 3] }
}

/// The positive imaginary parts of the eigenvalues of the Jacobian restricted to the nodal
/// components `components` (of 0..6 per node, in both halves of the state), sorted.
fn frequencies(jacobian: &DMatrix<f64>, free_nodes: usize, components: &[usize]) -> Vec<f64> {
    let half = 6 * free_nodes;
    let picked: Vec<usize> = (0..2 * half).filter(|i| components.contains(&(i % 6))).collect();
    let sub = DMatrix::from_fn(picked.len(), picked.len(), |r, c| jacobian[(picked[r], picked[c])]);
    let mut out: Vec<f64> = sub.complex_eigenvalues().iter().filter(|z| z.im > 1e-9).map(|z| z.im).collect();
    out.sort_by(f64::total_cmp);
    out
}

/// Rows `(speed, [flap 1..3])` of the rotating-cantilever reference (shooting solution by
/// `tests/python/beam_reference.py`), nondimensional.
pub fn reference_rows() -> Vec<(f64, [f64; 3])> {
    include_str!("../../../fmu-rotor/tests/rotor/beam/data/rotating_flap.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("speed"))
        .map(|l| {
            let v: Vec<f64> = l.split(',').map(|s| s.parse().unwrap()).collect();
            (v[0], [v[1], v[2], v[3]])
        })
        .collect()
}

/// Asserts `ours` within the relative `tolerance` of `reference`, printing both.
pub fn assert_within(ours: f64, reference: f64, tolerance: f64, what: &str) {
    let error = (ours - reference).abs() / reference.abs();
    println!("{what}: ours {ours:.6} reference {reference:.6} relative error {error:.2e}");
    assert!(error < tolerance, "{what}: {ours} against {reference} (error {error:e})");
}

/// Flap (u_z, psi_x, psi_y) and lag (u_x, u_y, psi_z) decouple about the stretched straight
/// equilibrium; the lowest flap frequencies match the shooting solution, the lag ones
/// `sqrt(omega_flap^2 - Omega^2)` (EI flap and lag swapped), within 0.5 % at 30 elements (section inertias 1e-6 kg m: the Euler-Bernoulli reference has no rotary inertia).
#[test]
fn rotating_flap_and_lag_frequencies_match_the_rotating_cantilever() {
    const ELEMENTS: usize = 30;
    for (speed, reference) in reference_rows().into_iter().filter(|r| [0.0, 4.0, 8.0, 12.0].contains(&r.0)) {
        let blade = uniform_blade(ELEMENTS, 1.0, 1.0, 1.0, 1.0, [1e-6, 1e-6]);
        let frame = turning(speed);
        let equilibrium = blade.equilibrium(&frame).unwrap();
        let jacobian = blade.jacobian(&frame, &equilibrium);
        let flap = frequencies(&jacobian, ELEMENTS, &[2, 3, 4]);
        let lag = frequencies(&jacobian, ELEMENTS, &[0, 1, 5]);
        for n in 0..3 {
            assert_within(flap[n], reference[n], 5e-3, &format!("flap {} at {speed}", n + 1));
        }
        for n in 0..2 {
            let expected = (reference[n] * reference[n] - speed * speed).sqrt();
            assert_within(lag[n], expected, 5e-3, &format!("lag {} at {speed}", n + 1));
        }
    }
}

/// One classical Runge-Kutta step of the blade's free vibration (no external loads).
pub fn rk4_step(blade: &BladeDynamics, frame: &FrameMotion<f64>, x: &mut [f64], h: f64) {
    let none = vec![[0.0; 3]; blade.beam.n_nodes()];
    let mut work = Vec::new();
    let mut f = |x: &[f64]| {
        let mut dx = vec![0.0; x.len()];
        blade.derivatives(frame, x, (&none, &none), &mut work, &mut dx);
        dx
    };
    let shifted = |k: &[f64], s: f64| x.iter().zip(k).map(|(a, b)| a + s * b).collect::<Vec<f64>>();
    let k1 = f(x);
    let k2 = f(&shifted(&k1, 0.5 * h));
    let k3 = f(&shifted(&k2, 0.5 * h));
    let k4 = f(&shifted(&k3, h));
    for i in 0..x.len() {
        x[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
}

/// Largest change of the Jacobi integral (the energy conserved in a frame turning at a constant
/// rate) over `duration` s of free flap-lag vibration with the classical Runge-Kutta method at
/// step `h`, relative to the vibration's energy. The blade starts at rest, bent by a uniform
/// flap and lag load (the equilibrium under a frame acceleration, which is then removed): a
/// smooth shape that leaves the stiff shear and extension modes, which the explicit method
/// damps, nearly unexcited.
fn energy_drift(h: f64, duration: f64) -> f64 {
    const EA: f64 = 1e3;
    let blade = uniform_blade_with_ea(EA, 6, [1.0, 2.0, 0.5], 1.0, [1e-2, 2e-2]);
    let frame = turning(4.0);
    let loaded = FrameMotion { specific_force: [0.0, 3.0, 2.0], ..frame };
    let equilibrium = blade.equilibrium(&frame).unwrap();
    let mut x = blade.equilibrium(&loaded).unwrap();
    let vibration = blade.jacobi_integral(&x, frame.omega) - blade.jacobi_integral(&equilibrium, frame.omega);
    let start = blade.jacobi_integral(&x, frame.omega);
    let steps = (duration / h).round() as usize;
    let mut drift: f64 = 0.0;
    for _ in 0..steps {
        rk4_step(&blade, &frame, &mut x, h);
        drift = drift.max((blade.jacobi_integral(&x, frame.omega) - start).abs());
    }
    drift / vibration
}

/// Free vibration in vacuum without damping conserves the Jacobi integral up to the
/// integrator's error. The classical Runge-Kutta method's amplification on an undamped
/// oscillation of frequency `w` is `|R(i h w)|^2 = 1 - (h w)^6 / 72 + ...` per step, so the
/// energy error over a fixed time is of order `h^5`: halving the step divides it by 32 (26 to
/// 38 accepted); at `h` = 5e-4 s it is below 1e-7 of the vibration energy.
#[test]
fn energy_is_conserved_in_free_vibration_at_the_integrators_order() {
    let (coarse, fine) = (energy_drift(1e-3, 1.5), energy_drift(5e-4, 1.5));
    let ratio = coarse / fine;
    println!("energy drift: h 1e-3 {coarse:.3e}, h 5e-4 {fine:.3e}, ratio {ratio:.2} (order {:.2})", ratio.log2());
    assert!((26.0..38.0).contains(&ratio), "drift ratio {ratio}");
    assert!(fine < 1e-7, "relative drift {fine}");
}

/// Stiffness-proportional damping `beta`: at rest (no centrifugal or geometric stiffness), each
/// elastic mode of frequency `omega` decays with the damping ratio `beta omega / 2` (Rayleigh
/// damping's closed form): the first three flap modes of a 12-element blade, `beta` = 2e-3 s,
/// within 1e-3 relative; without damping the ratios are zero to the eigen-solver's round-off (1e-6).
#[test]
fn stiffness_proportional_damping_gives_the_rayleigh_damping_ratios() {
    for beta in [0.0, 2e-3] {
        let mut blade = uniform_blade(12, 1.0, 4.0, 0.5, 1.0, [1e-4, 1e-4]);
        blade.damping = beta;
        let frame = turning(0.0);
        let x = vec![0.0; blade.n_states()];
        let jacobian = blade.jacobian(&frame, &x);
        let half = blade.n_states() / 2;
        let picked: Vec<usize> = (0..2 * half).filter(|i| [2, 4].contains(&(i % 6))).collect();
        let sub = DMatrix::from_fn(picked.len(), picked.len(), |r, c| jacobian[(picked[r], picked[c])]);
        let mut roots: Vec<(f64, f64)> =
            sub.complex_eigenvalues().iter().filter(|z| z.im > 1e-9).map(|z| (z.norm(), -z.re / z.norm())).collect();
        roots.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (n, (omega, zeta)) in roots.iter().take(3).enumerate() {
            let expected = beta * omega / 2.0;
            println!("beta {beta}: flap {} omega {omega:.5} zeta {zeta:.6e} expected {expected:.6e}", n + 1);
            assert!((zeta - expected).abs() <= 1e-3 * expected + 1e-6, "flap {}: {zeta} vs {expected}", n + 1);
        }
    }
}
