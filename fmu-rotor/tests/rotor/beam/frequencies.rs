//! Natural frequencies of a uniform cantilever: non-rotating bending against Euler-Bernoulli
//! (`(beta_n L)^2 sqrt(EI / (m L^4))`, `beta_n L` from `cos x cosh x = -1`) and torsion
//! (`(2n - 1) pi / 2 sqrt(GJ / (I_p L^2))`); rotating flap and lag against the rotating
//! Euler-Bernoulli equation solved by shooting (`data/rotating_flap.csv`) and against published
//! tables (Hamza Cherif and Houmat 2004; Wright et al. 1982, `data/wright_1982_*.csv`). All within
//! 0.5 %.

use fmu_rotor::beam::{Beam, BeamState, Mode, ModeKind, NewtonSettings, TipLoad};
use nalgebra::DMatrix;

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
    speed_rows(include_str!("data/rotating_flap.csv"))
}

/// Rows `(speed, first N frequencies)` (rad/s) of a table in `data/`.
fn speed_rows<const N: usize>(text: &str) -> Vec<(f64, [f64; N])> {
    reference_rows(text)
        .iter()
        .map(|row| (row[0].parse().unwrap(), std::array::from_fn(|i| row[i + 1].parse().unwrap())))
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

/// The first three flap frequencies against Wright, Smith, Thresher and Wang, "Vibration modes
/// of centrifugally stiffened beams", ASME J. Appl. Mech. 49 (1982), as tabulated by Bir (AIAA
/// 2009-1035, Table 3a) and quoted in SMI-Lab-Inha/pybmodes (`data/wright_1982_flap.csv`, the
/// source in its header), at Omega = 0..12, within 0.5 % (the table's three decimals: at most
/// 1.4e-4 relative).
#[test]
fn rotating_flap_frequencies_match_wright_et_al_1982() {
    for (speed, published) in speed_rows::<3>(include_str!("data/wright_1982_flap.csv")) {
        let flap = frequencies_of(&rotating_modes(1.0, 3.0, speed), ModeKind::Flap, 3);
        for n in 0..3 {
            assert_within(flap[n], published[n], 5e-3, &format!("flap {} at {speed} (Wright et al. 1982)", n + 1));
        }
    }
}

/// Flap frequencies (rad/s, ascending) of the unit cantilever (m = 1, L = 1, EI_flap = 1)
/// turning about `z` at `speed` with a point mass `tip_mass` (kg) at its tip. The beam is
/// linearised about its equilibrium under the mass's centrifugal pull `tip_mass speed^2 x_tip`
/// (a dead load along `x`: flap motion along `z` leaves it unchanged), the mass is added to the
/// tip node's displacements, and the out-of-plane block (displacement `z`, rotation `y`, which
/// this straight untwisted beam decouples from lag, torsion and extension) is solved as
/// `K v = w^2 M v`.
fn flap_frequencies_with_tip_mass(speed: f64, tip_mass: f64, count: usize) -> Vec<f64> {
    let section = uniform_section(1.0, 3.0, 1.0, 1e6, 1.0, [1e-6, 1e-6]);
    let mut beam = uniform_cantilever(ELEMENTS, section);
    beam.frame_rate = [0.0, 0.0, speed];
    let settings = NewtonSettings { load_steps: 1, ..NewtonSettings::default() };
    let pull_at = |x_tip: f64| TipLoad::Dead([tip_mass * speed * speed * x_tip, 0.0, 0.0]);
    // The pull at the undeformed tip, then at the stretched tip (the stretch is ~1e-4).
    let first = beam.solve_static(pull_at(1.0), &settings).unwrap();
    let equilibrium = beam.solve_static(pull_at(first.positions[ELEMENTS][0]), &settings).unwrap();
    let mut linearised = beam.linearise(&equilibrium);
    let tip = 6 * (ELEMENTS - 1);
    for axis in 0..3 {
        linearised.mass[(tip + axis, tip + axis)] += tip_mass;
    }
    let flap_dofs: Vec<usize> = (0..ELEMENTS).flat_map(|node| [6 * node + 2, 6 * node + 4]).collect();
    let n = flap_dofs.len();
    let block = |matrix: &DMatrix<f64>| DMatrix::from_fn(n, n, |i, j| matrix[(flap_dofs[i], flap_dofs[j])]);
    let l_inv = block(&linearised.mass).cholesky().unwrap().l().try_inverse().unwrap();
    let reduced = &l_inv * block(&linearised.stiffness) * l_inv.transpose();
    let mut squares: Vec<f64> = reduced.symmetric_eigen().eigenvalues.iter().copied().collect();
    squares.sort_by(f64::total_cmp);
    squares.iter().take(count).map(|square| square.sqrt()).collect()
}

/// The first two flap frequencies with a tip mass equal to the blade's against Wright et al.
/// (1982) as tabulated by Bir (NREL/CP-500-47953, Table 5; `data/wright_1982_flap_tip_mass.csv`)
/// at Omega = 0..12, within 0.5 % (the table's four digits: at most 4.8e-4 relative).
#[test]
fn rotating_flap_frequencies_with_a_tip_mass_match_wright_et_al_1982() {
    for (speed, published) in speed_rows::<2>(include_str!("data/wright_1982_flap_tip_mass.csv")) {
        let flap = flap_frequencies_with_tip_mass(speed, 1.0, 2);
        for n in 0..2 {
            let what = format!("flap {} at {speed} with tip mass 1 (Wright et al. 1982)", n + 1);
            assert_within(flap[n], published[n], 5e-3, &what);
        }
    }
}

/// The published chordwise (lag) frequencies of Hamza Cherif and Houmat (ICAS 2004, Table 2,
/// slenderness 70, as quoted in mboct-fem-pkg `inst/fem_tests_060.tst`, commit b0fc510) at the
/// nondimensional speeds 2..10. Their beam stretches: slenderness `L / sqrt(I / A)` = 70 gives
/// `EA L^2 / EI` = 4900, and the Coriolis coupling of lag with extension lowers the lag
/// frequency below the inextensible `sqrt(omega_flap^2 - Omega^2)` (by 1.6 % at 10). Ours: the
/// unit beam with `EA` = 4900 N (shear stiff), 40 elements, with the gyroscopic terms
/// ([`Beam::gyroscopic_frequencies`]; the lowest is the 1st lag, below the 1st flap at these
/// speeds), within 0.5 %. The error grows like `Omega^2` (4.2e-3 at 10): we linearise about the
/// centrifugally stretched beam (docs/validation.md, "Lag with extension coupling").
#[test]
fn rotating_lag_frequencies_with_extension_coupling_match_the_published_table() {
    const PUBLISHED_LAG: [(f64, f64); 5] = [(2.0, 3.6195), (4.0, 3.888), (6.0, 4.2393), (8.0, 4.6105), (10.0, 4.97)];
    let mut section = uniform_section(1.0, 1.0, 1.0, 1e6, 1.0, [1e-6, 1e-6]);
    // EA (the extension entry of the stiffness matrix, diagonal without offsets).
    section.stiffness[0][0] = 4900.0;
    for (speed, published) in PUBLISHED_LAG {
        let mut beam = uniform_cantilever(40, section.clone());
        beam.frame_rate = [0.0, 0.0, speed];
        let settings = NewtonSettings { load_steps: 4, ..NewtonSettings::default() };
        let equilibrium = beam.solve_static(TipLoad::Dead([0.0; 3]), &settings).unwrap();
        let lag = beam.gyroscopic_frequencies(&equilibrium, 1)[0];
        assert_within(
            lag,
            published,
            5e-3,
            &format!("lag 1 at {speed}, EA L^2/EI 4900 (Hamza Cherif and Houmat 2004)"),
        );
    }
}
