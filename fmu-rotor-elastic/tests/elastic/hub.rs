//! The articulated hub of RotorElastic (`hub_type = 1`, `fmu_rotor_elastic::hinge`): the rigid
//! limit against the Rotor FMU and the closed-form hinged-blade frequencies, the moment balance
//! of the hinges, and the per-blade pitch offset.

use fmu_rotor::Rotor;
use fmu_rotor::beam::BladeTable;
use fmu_rotor::beam::blade_dynamics::BladeDynamics;
use fmu_rotor_elastic::RotorElastic;
use fmu_rotor_elastic::layout::{MAX_BLADES, MAX_ELEMENTS};
use nalgebra::DMatrix;

use crate::blade::assert_within;
use crate::fmu::{instance, outputs_at, state_jacobian_of, table_file, uniform_table};

/// Hinge offset (m), springs `k_lag`, `k_flap` (N m/rad) of the rigid-limit cases.
const E: f64 = 0.3;
const K_LAG: f64 = 5000.0;
const K_FLAP: f64 = 2000.0;

/// Declared states per blade of RotorElastic (nodes' coordinates and rates).
const DECLARED_PER_BLADE: u32 = 12 * MAX_ELEMENTS as u32;

/// The lowest two positive imaginary parts of the eigenvalues of `jacobian` (rad/s), as the
/// inverses of the largest eigenvalues of its inverse (accurate for the lowest modes of a stiff
/// system, which the eigenvalues of the Jacobian itself resolve only to its norm times the
/// round-off).
fn lowest_frequencies(jacobian: &DMatrix<f64>) -> [f64; 2] {
    let inverse = jacobian.clone().try_inverse().expect("a regular Jacobian");
    let eigenvalues = inverse.complex_eigenvalues().map(|z| z.inv());
    let mut out: Vec<f64> = eigenvalues.iter().filter(|z| z.im > 1e-6).map(|z| z.im).collect();
    out.sort_by(f64::total_cmp);
    [out[0], out[1]]
}

/// The shipped blade's section data with the stiffnesses times `factor`, thin (flap section
/// inertia negligible), as a table and as the lumped beam of 8 elements.
fn stiff_blade(factor: f64) -> (String, BladeDynamics) {
    let stiffness = [6.2e3, 6.5e4, 4.8e3].map(|k| k * factor);
    let text = uniform_table(0.5, 4.91, stiffness, 6.12, [1e-9, 0.027], 5e7 * factor);
    let blade = BladeDynamics::new(BladeTable::parse(&text, "stiff").unwrap().beam(8)).unwrap();
    (text, blade)
}

/// Lumped mass, first moment and flap inertia about the hinge at `E`, and the polar inertia, of
/// `blade`: `(m, S, I, I_pitch)`.
fn about_hinge(blade: &BladeDynamics) -> (f64, f64, f64, f64) {
    let (mut m, mut s, mut i, mut i_pitch) = (0.0, 0.0, 0.0, 0.0);
    for (k, position) in blade.beam.undeformed.positions.iter().enumerate() {
        let (mass, arm) = (blade.node_mass[k], position[0] - E);
        (m, s, i) = (m + mass, s + mass * arm, i + mass * arm * arm + blade.node_inertia[k][1]);
        i_pitch += blade.node_inertia[k][0];
    }
    (m, s, i, i_pitch)
}

/// Rigid limit of the hinged elastic blade: one blade of the shipped blade's section data 1e4
/// times stiffer, on lag and flap hinges at 0.3 m (the beam clamped at 0.5 m) with springs of
/// 5000 and 2000 N m/rad, at 20, 30 and 44.401 rad/s. Its lowest two frequencies (the FMU's ME
/// Jacobian, 100 states) are the lag and flap modes of a rigid blade on those hinges:
/// against the Rotor FMU's ME Jacobian (an independent multibody formulation) with the same lumped
/// mass, first moment and inertias, and against the closed forms of the hinged rigid blade,
/// `nu_flap^2 = 1 + e S / I + k_flap / (I Omega^2)` and
/// `nu_lag^2 = (e S + k_lag / Omega^2) / (I + I_pitch)`; within 1e-3.
#[test]
fn a_very_stiff_hinged_blade_has_the_rigid_articulated_frequencies() {
    let (text, blade) = stiff_blade(1e4);
    let file = table_file("hinged-stiff.csv", &text);
    let (m, s, i, i_pitch) = about_hinge(&blade);
    let mut declared: Vec<u32> = (0..48).chain(96..144).collect();
    let hinges = MAX_BLADES as u32 * DECLARED_PER_BLADE;
    declared.extend(hinges..hinges + 4);
    for omega in [20.0, 30.0, 44.401] {
        let springs = [("k_lag", K_LAG), ("k_flap", K_FLAP)];
        let mut elastic = instance::<RotorElastic>(
            &[&[("Omega", omega), ("e", E)], &springs[..]].concat(),
            &[("nb", 1), ("n_elements", 8), ("hub_type", 1)],
            &[("rotary_inertia_scaling", false)],
            &[("blade_file", file.to_str().unwrap())],
        )
        .unwrap();
        let [lag, flap] = lowest_frequencies(&state_jacobian_of(&mut elastic, &declared));
        let reals = [("Omega", omega), ("R", 4.91), ("e", E), ("blade.m", m), ("blade.S", s), ("blade.I", i)];
        let extra = [("blade.I_pitch", i_pitch), ("c_lag", 0.0)];
        let mut rigid = instance::<Rotor>(&[&reals[..], &extra, &springs].concat(), &[("nb", 1)], &[], &[]).unwrap();
        // Blade 1's lag and flap, then their rates (the declared order: shaft, 8 blades, rates).
        let [rigid_lag, rigid_flap] = lowest_frequencies(&state_jacobian_of(&mut rigid, &[1, 2, 18, 19]));
        let closed_flap = omega * (1.0 + E * s / i + K_FLAP / (i * omega * omega)).sqrt();
        let closed_lag = omega * ((E * s + K_LAG / (omega * omega)) / (i + i_pitch)).sqrt();
        println!(
            "Omega {omega}: flap {flap:.6} rigid Rotor {rigid_flap:.6} closed {closed_flap:.6}; lag {lag:.6} rigid \
             Rotor {rigid_lag:.6} closed {closed_lag:.6} rad/s"
        );
        assert_within(flap, rigid_flap, 1e-3, &format!("flap vs Rotor at {omega}"));
        assert_within(flap, closed_flap, 1e-3, &format!("flap vs closed form at {omega}"));
        assert_within(lag, rigid_lag, 1e-3, &format!("lag vs Rotor at {omega}"));
        assert_within(lag, closed_lag, 1e-3, &format!("lag vs closed form at {omega}"));
    }
}

/// Moment balance of the hinges: with the hinge bodies massless, the moment the rotor puts on
/// the hub about the hinge point has, along the lag axis, the lag spring and damper moment
/// `k_lag zeta + c_lag zeta'` and, along the flap axis, the flap spring moment `k_flap beta`,
/// whatever the (elastic) blade does. One shipped blade at 30 rad/s, pitch 0.1 rad, the hub
/// accelerating, hinge angles and rates and an elastic tip velocity set; within 1e-9 of the
/// largest moment.
#[test]
fn the_hub_moment_about_the_hinges_is_the_hinge_spring_and_damper_moment() {
    let (k_lag, c_lag, k_flap) = (5000.0, 800.0, 2000.0);
    let reals = [("Omega", 30.0), ("e", E), ("k_lag", k_lag), ("c_lag", c_lag), ("k_flap", k_flap)];
    let blade_file = concat!(env!("CARGO_MANIFEST_DIR"), "/blades/bo105_uniform_blade.csv");
    let integers = [("nb", 1), ("hub_type", 1)];
    let mut inst = instance::<RotorElastic>(&reals, &integers, &[], &[("blade_file", blade_file)]).unwrap();
    let hinges = (MAX_BLADES as u32 * DECLARED_PER_BLADE) as usize;
    let mut x = vec![0.0; hinges + 4 * MAX_BLADES];
    inst.get_continuous_states(&mut x).unwrap();
    let [lag, flap, lag_rate, flap_rate] = [0.05, 0.08, 0.3, -0.2];
    x[hinges..hinges + 4].copy_from_slice(&[lag, flap, lag_rate, flap_rate]);
    x[96 + 6 * 7 + 2] = 0.4; // tip node (8 elements) vertical velocity, m/s
    let inputs = [("hub.acc.x", 1.0), ("hub.acc.y", -2.0), ("hub.acc.z", -6.81), ("blade[1].pitch", 0.1)];
    let names = ["hub.F.x", "hub.F.y", "hub.F.z", "hub.M.x", "hub.M.y", "hub.M.z"];
    let loads = outputs_at(&mut inst, Some(&x), &inputs, &names);
    // Blade 1 at psi = 0: x_S = x_H = (-1, 0, 0), y_S = (0, 1, 0), z_S = (0, 0, -1) (body axes).
    let (x_s, y_s) = ([-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    let force = [loads[0], loads[1], loads[2]];
    let arm = x_s.map(|c| c * E);
    let about_hinge: Vec<f64> = (0..3)
        .map(|k| loads[3 + k] - (arm[(k + 1) % 3] * force[(k + 2) % 3] - arm[(k + 2) % 3] * force[(k + 1) % 3]))
        .collect();
    let lag_axis = [0.0, 0.0, 1.0];
    let flap_axis: Vec<f64> = (0..3).map(|k| -(lag.sin() * x_s[k] + lag.cos() * y_s[k])).collect();
    let along = |axis: &[f64]| (0..3).map(|k| axis[k] * about_hinge[k]).sum::<f64>();
    let scale = about_hinge.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let (lag_moment, flap_moment) = (along(&lag_axis), along(&flap_axis));
    println!(
        "lag axis {lag_moment:.9} vs {:.9}, flap axis {flap_moment:.9} vs {:.9} N m (largest {scale:.3})",
        k_lag * lag + c_lag * lag_rate,
        k_flap * flap
    );
    assert!((lag_moment - (k_lag * lag + c_lag * lag_rate)).abs() < 1e-9 * scale, "{lag_moment}");
    assert!((flap_moment - k_flap * flap).abs() < 1e-9 * scale, "{flap_moment}");
}

/// Per-blade pitch offset (track error): blade 2 of two, offset 0.05 rad, zero pitch inputs, at
/// rest in its centrifugal equilibrium: its shaft axis in the equivalent blade's axes is
/// `(0, sin 0.05, cos 0.05)` (the straight blade pitched by the offset), blade 1's `(0, 0, 1)`;
/// within 1e-9.
#[test]
fn a_pitch_offset_pitches_its_blade_alone() {
    let offset = 0.05;
    let blade_file = concat!(env!("CARGO_MANIFEST_DIR"), "/blades/bo105_uniform_blade.csv");
    let reals = [("blade[2].pitch_offset", offset)];
    let mut inst = instance::<RotorElastic>(&reals, &[("nb", 2)], &[], &[("blade_file", blade_file)]).unwrap();
    let names = ["blade[1].shaft.y", "blade[1].shaft.z", "blade[2].shaft.y", "blade[2].shaft.z"];
    let shaft = outputs_at(&mut inst, None, &[], &names);
    println!("shaft axes {shaft:?}");
    let expected = [0.0, 1.0, offset.sin(), offset.cos()];
    for (ours, reference) in shaft.iter().zip(expected) {
        assert!((ours - reference).abs() < 1e-9, "{shaft:?} vs {expected:?}");
    }
}

/// Dissimilar blades: blade 2 of two with `mass_factor` 0.5 and `stiffness_factor` 2 at rest
/// (Omega = 0): every natural frequency of its beam is `sqrt(2 / 0.5) = 2` times blade 1's (the
/// eigenvalues scale with `sqrt(k / m)`), compared on the lowest six (FMU ME Jacobian, 8
/// elements); within 1e-9.
#[test]
fn mass_and_stiffness_factors_scale_the_frequencies_of_their_blade() {
    let (text, _) = stiff_blade(1.0);
    let file = table_file("dissimilar.csv", &text);
    let mut inst = instance::<RotorElastic>(
        &[("Omega", 0.0), ("blade[2].mass_factor", 0.5), ("blade[2].stiffness_factor", 2.0)],
        &[("nb", 2), ("n_elements", 8)],
        &[("rotary_inertia_scaling", false)],
        &[("blade_file", file.to_str().unwrap())],
    )
    .unwrap();
    let mut lowest = |first: u32| {
        let declared: Vec<u32> = (first..first + 48).chain(first + 96..first + 144).collect();
        let jacobian = state_jacobian_of(&mut inst, &declared);
        let inverse = jacobian.try_inverse().expect("a regular Jacobian");
        let mut out: Vec<f64> =
            inverse.complex_eigenvalues().iter().map(|z| z.inv()).filter(|z| z.im > 1e-6).map(|z| z.im).collect();
        out.sort_by(f64::total_cmp);
        out.truncate(6);
        out
    };
    let one = lowest(0);
    let two = lowest(DECLARED_PER_BLADE);
    for (a, b) in one.iter().zip(&two) {
        println!("blade 1 {a:.6} rad/s, blade 2 {b:.6} rad/s, ratio {:.12}", b / a);
        assert_within(*b, 2.0 * a, 1e-9, "frequency ratio");
    }
}

/// An imbalanced elastic blade: two blades, blade 2's mass times 1.2, axially very stiff (EA
/// 1e12 N: no stretch), at 44.401 rad/s in their centrifugal equilibria, hub at rest without
/// gravity: the hub force is the excess mass's centrifugal pull `0.2 m Omega^2 x_cg` along
/// blade 2 (`+x_H = (-1, 0, 0)` body axes at psi = pi: force along `(1, 0, 0)`), with `m`
/// and `x_cg` of the lumped blade; within 1e-6.
#[test]
fn an_imbalanced_elastic_blade_gives_the_closed_form_hub_force() {
    let omega = 44.401;
    let text = uniform_table(0.5, 4.91, [6.2e3, 6.5e4, 4.8e3], 6.12, [1e-9, 0.027], 1e12);
    let blade = BladeDynamics::new(BladeTable::parse(&text, "imbalance").unwrap().beam(8)).unwrap();
    let file = table_file("imbalance.csv", &text);
    let mut inst = instance::<RotorElastic>(
        &[("Omega", omega), ("blade[2].mass_factor", 1.2)],
        &[("nb", 2), ("n_elements", 8)],
        &[],
        &[("blade_file", file.to_str().unwrap())],
    )
    .unwrap();
    let zero = [("hub.acc.x", 0.0), ("hub.acc.y", 0.0), ("hub.acc.z", 0.0)];
    let force = outputs_at(&mut inst, None, &zero, &["hub.F.x", "hub.F.y", "hub.F.z"]);
    let (m, first_moment): (f64, f64) = blade
        .node_mass
        .iter()
        .zip(&blade.beam.undeformed.positions)
        .fold((0.0, 0.0), |(m, s), (mass, x)| (m + mass, s + mass * x[0]));
    let amplitude = 0.2 * first_moment * omega * omega;
    println!("hub force {force:?} N, closed form ({amplitude:.3}, 0, 0) N (blade mass {m:.4} kg)");
    let expected = [amplitude, 0.0, 0.0];
    for (ours, reference) in force.iter().zip(expected) {
        assert!((ours - reference).abs() < 1e-6 * amplitude, "{force:?} vs {expected:?}");
    }
}

/// The articulated hub in time (Co-Simulation, the FMU's own integrator): one blade of the
/// shipped section data 100 times stiffer on hinges at 0.3 m (`k_flap` 2000 N m/rad), 44.401
/// rad/s, released in its centrifugal equilibrium when gravity is switched on (hub specific force
/// 9.80665 m/s^2 along the shaft). Undamped, the flap swings between 0 and twice the static
/// droop, so the middle of its extremes over 0.2 s (1.4 flap periods) is the rigid blade's
/// static flap angle `-g S / (Omega^2 (I + e S) + k_flap)` (lumped S, I about the hinge): 2.2 %
/// off at 100 times the stiffness, 0.6 % at 1000 times (the elastic modes the sudden load
/// excites ride on the swing; 1000 times takes a minute); 3 % asserted.
#[test]
fn gravity_droops_the_hinged_blade_by_the_rigid_static_flap_angle() {
    use fmu_core::verify::{Sim, Val};
    let (omega, g) = (44.401, 9.80665);
    let (text, blade) = stiff_blade(100.0);
    let file = table_file("hinged-droop.csv", &text);
    let params = [
        ("Omega", Val::R(omega)),
        ("e", Val::R(E)),
        ("k_flap", Val::R(K_FLAP)),
        ("nb", Val::I(1)),
        ("hub_type", Val::I(1)),
    ];
    let mut sim =
        Sim::<RotorElastic>::try_new_with_strings(&params, &[("blade_file", file.to_str().unwrap())]).unwrap();
    sim.set3("hub.acc", [0.0, 0.0, -g]);
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    while sim.time() < 0.2 {
        sim.step(1e-3);
        let flap = sim.get("blade[1].flap");
        (low, high) = (low.min(flap), high.max(flap));
    }
    let (_, s, i, _) = about_hinge(&blade);
    let closed = -g * s / (omega * omega * (i + E * s) + K_FLAP);
    let middle = 0.5 * (low + high);
    println!("flap between {low:.6} and {high:.6} rad: middle {middle:.6}, static rigid blade {closed:.6} rad");
    assert_within(middle, closed, 3e-2, "static flap under gravity");
    assert!(high.abs() < 0.05 * closed.abs(), "released from zero flap: {high}");
}

/// The implicit integrators step the hingeless hub only: with `hub_type = 1` an implicit
/// `integrator` is refused with a message naming both parameters.
#[test]
fn an_implicit_integrator_with_hinges_is_refused_by_name() {
    let blade_file = concat!(env!("CARGO_MANIFEST_DIR"), "/blades/bo105_uniform_blade.csv");
    for integrator in [1, 2] {
        let integers = [("nb", 1), ("hub_type", 1), ("integrator", integrator)];
        let Err(error) = instance::<RotorElastic>(&[], &integers, &[], &[("blade_file", blade_file)]) else {
            panic!("integrator {integrator} with hub_type = 1 was accepted");
        };
        let message = format!("{error:?}");
        assert!(message.contains("integrator") && message.contains("hub_type"), "{message}");
    }
}
