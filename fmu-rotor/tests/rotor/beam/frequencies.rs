//! Natural frequencies of a uniform cantilever: non-rotating bending against Euler-Bernoulli
//! (`(beta_n L)^2 sqrt(EI / (m L^4))`, `beta_n L` from `cos x cosh x = -1`) and torsion
//! (`(2n - 1) pi / 2 sqrt(GJ / (I_p L^2))`); rotating flap and lag against the rotating
//! Euler-Bernoulli equation solved by shooting (`data/rotating_flap.csv`). All within 0.5 %.

use fmu_rotor::beam::{Beam, BeamState, Mode, ModeKind, NewtonSettings, TipLoad};

use super::{reference_rows, uniform_cantilever, uniform_section};

/// Elements for the frequency checks.
const ELEMENTS: usize = 60;

/// Frequencies (rad/s) of the first `count` modes of `kind` among the lowest 40.
fn frequencies_of(modes: &[Mode], kind: ModeKind, count: usize) -> Vec<f64> {
    let found: Vec<f64> = modes.iter().filter(|m| m.kind == kind).map(|m| m.frequency).take(count).collect();
    assert_eq!(found.len(), count, "{kind:?} modes among {modes:?}");
    found
}

fn assert_within(ours: f64, reference: f64, tolerance: f64, what: &str) {
    let error = (ours - reference).abs() / reference;
    println!("{what}: ours {ours:.6} reference {reference:.6} relative error {error:.2e}");
    assert!(error < tolerance, "{what}: {ours} against {reference} (error {error:e})");
}

fn modes_at_rest(beam: &Beam) -> Vec<Mode> {
    beam.modes(&beam.undeformed, 40)
}

#[test]
fn bending_and_torsion_frequencies_match_the_closed_forms() {
    let roots: Vec<f64> =
        reference_rows(include_str!("data/cantilever_roots.csv")).iter().map(|row| row[1].parse().unwrap()).collect();
    // EI flap 1, EI lag 4, GJ 0.5 (N m^2), m = 2 kg/m, section inertias 1e-6 and 3e-6 kg m.
    let (ei_flap, ei_lag, gj, mass, inertia) = (1.0, 4.0, 0.5, 2.0, [1e-6, 3e-6]);
    let beam = uniform_cantilever(ELEMENTS, uniform_section(ei_flap, ei_lag, gj, 1e6, mass, inertia));
    let modes = modes_at_rest(&beam);
    for (kind, ei) in [(ModeKind::Flap, ei_flap), (ModeKind::Lag, ei_lag)] {
        for (n, ours) in frequencies_of(&modes, kind, 3).into_iter().enumerate() {
            let reference = roots[n] * roots[n] * (ei / mass).sqrt();
            assert_within(ours, reference, 5e-3, &format!("{kind:?} {}", n + 1));
        }
    }
    let polar = inertia[0] + inertia[1];
    for (n, ours) in frequencies_of(&modes, ModeKind::Torsion, 3).into_iter().enumerate() {
        let reference = (2 * n + 1) as f64 * std::f64::consts::FRAC_PI_2 * (gj / polar).sqrt();
        assert_within(ours, reference, 5e-3, &format!("torsion {}", n + 1));
    }
}

/// Rotating reference rows: nondimensional speed and flap frequencies 1..3.
fn rotating_reference() -> Vec<(f64, [f64; 3])> {
    reference_rows(include_str!("data/rotating_flap.csv"))
        .iter()
        .map(|row| (row[0].parse().unwrap(), [1, 2, 3].map(|i| row[i].parse().unwrap())))
        .collect()
}

/// Modes of a unit cantilever (m = 1, L = 1) turning about `z` at `speed` rad/s about the
/// rotating equilibrium (centrifugally stretched).
fn rotating_modes(ei_flap: f64, ei_lag: f64, speed: f64) -> Vec<Mode> {
    let (beam, equilibrium) = rotating_beam(ELEMENTS, ei_flap, ei_lag, speed);
    beam.modes(&equilibrium, 40)
}

/// A unit cantilever (m = 1, L = 1) turning about `z` at `speed` rad/s and its rotating
/// equilibrium (centrifugally stretched).
fn rotating_beam(elements: usize, ei_flap: f64, ei_lag: f64, speed: f64) -> (Beam, BeamState) {
    let section = uniform_section(ei_flap, ei_lag, 1.0, 1e6, 1.0, [1e-6, 1e-6]);
    let mut beam = uniform_cantilever(elements, section);
    beam.frame_rate = [0.0, 0.0, speed];
    let settings = NewtonSettings { load_steps: 1, ..NewtonSettings::default() };
    let equilibrium = beam.solve_static(TipLoad::Dead([0.0; 3]), &settings).unwrap();
    (beam, equilibrium)
}

#[test]
fn rotating_flap_frequencies_match_the_rotating_euler_bernoulli_beam() {
    for (speed, reference) in rotating_reference() {
        // EI flap 1: the speed in rad/s is the nondimensional speed.
        let flap = frequencies_of(&rotating_modes(1.0, 3.0, speed), ModeKind::Flap, 3);
        for n in 0..3 {
            assert_within(flap[n], reference[n], 5e-3, &format!("flap {} at {speed}", n + 1));
        }
    }
}

#[test]
fn rotating_lag_frequencies_match_omega_flap_squared_minus_omega_squared() {
    for (speed, reference) in rotating_reference() {
        let lag = frequencies_of(&rotating_modes(3.0, 1.0, speed), ModeKind::Lag, 2);
        for n in 0..2 {
            let expected = (reference[n] * reference[n] - speed * speed).sqrt();
            assert_within(lag[n], expected, 5e-3, &format!("lag {} at {speed}", n + 1));
        }
    }
}

/// With the Coriolis (gyroscopic) terms, flap (out of plane) is unchanged and lag moves only by
/// its small coupling with the stiff extension: both stay within 0.5 % of the references at
/// the nondimensional speed 6 (20 elements).
#[test]
fn gyroscopic_frequencies_keep_flap_and_lag_within_half_a_percent() {
    let (speed, reference) = rotating_reference().into_iter().find(|r| r.0 == 6.0).unwrap();
    let (beam, equilibrium) = rotating_beam(20, 1.0, 1.0, speed);
    let frequencies = beam.gyroscopic_frequencies(&equilibrium, 6);
    let nearest = |target: f64| {
        frequencies.iter().copied().min_by(|a, b| (a - target).abs().total_cmp(&(b - target).abs())).unwrap()
    };
    assert_within(nearest(reference[0]), reference[0], 5e-3, "gyroscopic flap 1 at 6");
    let lag = (reference[0] * reference[0] - speed * speed).sqrt();
    assert_within(nearest(lag), lag, 5e-3, "gyroscopic lag 1 at 6");
}

/// The published rotating uniform cantilever: Hamza Cherif and Houmat, "Natural frequencies of
/// rotating cantilever flexible beams by using the p-version of the finite element method",
/// ICAS 2004, Table 2 (p. 6), nondimensional 1st flap frequency at the nondimensional speeds 2,
/// 4, 6, 8, 10 (slenderness 70), as quoted in octave-user/mboct-fem-pkg `inst/fem_tests_060.tst`
/// (commit b0fc510). Within 0.5 % (the table's four decimals: 1e-5 relative).
#[test]
fn rotating_first_flap_frequency_matches_the_published_table() {
    const PUBLISHED: [(f64, f64); 5] = [(2.0, 4.1373), (4.0, 5.5850), (6.0, 7.3603), (8.0, 9.2568), (10.0, 11.2023)];
    for (speed, published) in PUBLISHED {
        let flap = frequencies_of(&rotating_modes(1.0, 3.0, speed), ModeKind::Flap, 1);
        assert_within(flap[0], published, 5e-3, &format!("flap 1 at {speed} (Hamza Cherif and Houmat 2004)"));
    }
}
