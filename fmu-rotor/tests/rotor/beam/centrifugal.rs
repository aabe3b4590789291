//! The static centrifugal stretch of a blade with a root offset (`Beam::solve_static` in a
//! turning frame, the centrifugal load ramped with the load steps) against the closed form of
//! the rotating bar: `EA u'' + m Omega^2 (x + u) = 0`, `u(r_0) = 0`, `u'(R) = 0`, so
//! `u = A cos kx + B sin kx - x` with `k = Omega sqrt(m / EA)` (pure extension: the beam's
//! stretch strain and the centrifugal load on the displaced position are both exact there).

use fmu_rotor::beam::{Beam, NewtonSettings, TipLoad};

use super::uniform_section;

/// Tip displacement (m) of the rotating bar from `r0` to `tip` (m) with `k` (1/m).
fn bar_tip_displacement(r0: f64, tip: f64, k: f64) -> f64 {
    // A cos(k r0) + B sin(k r0) = r0 and -A sin(k R) + B cos(k R) = 1/k.
    let (c0, s0, c1, s1) = ((k * r0).cos(), (k * r0).sin(), (k * tip).cos(), (k * tip).sin());
    let det = c0 * c1 + s0 * s1;
    let a = (r0 * c1 - s0 / k) / det;
    let b = (c0 / k + s1 * r0) / det;
    a * c1 + b * s1 - tip
}

/// A blade from 0.5 to 1.5 m turning at 10 rad/s about z, mass 1 kg/m, `ea` (N), EI flap 1e2,
/// EI lag 3e2, GJ 50: the tip's radial displacement against the bar's closed form, within 5e-5
/// relative (40 elements; measured 1.5e-5 and 5e-9). EA = 400 N stretches the blade by 16 %
/// (k R = 0.75), EA = 1e6 N is a stiff blade (stretch 6e-5).
#[test]
fn the_ramped_centrifugal_stretch_matches_the_rotating_bar() {
    let (r0, length, omega, mass) = (0.5, 1.0, 10.0, 1.0);
    for ea in [400.0, 1e6] {
        let section = uniform_section(1e2, 3e2, 50.0, ea, mass, [1e-3, 3e-3]);
        let mut beam = Beam::straight([r0, 0.0, 0.0], length, 40, |_| section.clone(), |_| 0.0);
        beam.frame_rate = [0.0, 0.0, omega];
        let state = beam.solve_static(TipLoad::Dead([0.0; 3]), &NewtonSettings::default()).unwrap();
        let ours = state.positions[40][0] - (r0 + length);
        let reference = bar_tip_displacement(r0, r0 + length, omega * (mass / ea).sqrt());
        let error = (ours - reference).abs() / reference.abs();
        println!("EA {ea}: tip stretch ours {ours:.6e} m, rotating bar {reference:.6e} m, relative error {error:.2e}");
        assert!(error < 5e-5, "EA {ea}: {ours} against {reference} (error {error:e})");
    }
}

/// A Bo105-sized blade (0.5 to 4.91 m, 6.1 kg/m, EA 5e7 N, EI 6.2e3 / 6.5e4, GJ 4.8e3 N m^2)
/// with chordwise and flapwise offsets of the centre of mass (0.05, 0.02 m) and the tension
/// centre (0.02, 0.01 m) and 0.3 rad/m pretwist, at 44 rad/s: with the centrifugal load applied
/// at once Newton diverged at 0.16 % of the (zero) tip load; ramped, the solve converges, and the
/// result is an equilibrium of the full load (one more Newton iteration at the full rate moves
/// it by less than 1e-11 of the length) with the blade bent and twisted by the offsets.
#[test]
fn an_offset_blade_at_full_speed_converges_with_the_ramped_centrifugal_load() {
    use fmu_rotor::beam::{EngineeringSection, SectionProperties};
    let section = SectionProperties::from_engineering(&EngineeringSection {
        ea: 5e7,
        ga_lag: 5e6,
        ga_flap: 5e6,
        gj: 4.8e3,
        ei_flap: 6.2e3,
        ei_lag: 6.5e4,
        mass_per_length: 6.1,
        inertia_flap: 1e-3,
        inertia_lag: 3e-2,
        tension_centre: [0.01, 0.02],
        shear_centre: [0.0; 2],
        centre_of_mass: [0.02, 0.05],
    });
    let mut beam = Beam::straight([0.5, 0.0, 0.0], 4.41, 10, |_| section.clone(), |s| 0.3 * s);
    beam.frame_rate = [0.0, 0.0, 44.0];
    let mut state = beam.solve_static(TipLoad::Dead([0.0; 3]), &NewtonSettings::default()).unwrap();
    let tip = state.positions[10];
    let correction = beam.newton_step(&mut state, TipLoad::Dead([0.0; 3])).unwrap();
    println!("offset blade at 44 rad/s: tip at {tip:?} m, a further Newton correction {correction:.2e}");
    assert!(correction < 1e-11, "not an equilibrium: correction {correction:e}");
    assert!(tip[1].abs() > 0.01 && tip[2].abs() > 0.01, "the offsets bend the blade: tip {tip:?}");
}
