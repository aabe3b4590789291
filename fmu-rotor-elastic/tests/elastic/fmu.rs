//! The RotorElastic model through the FMI layer (`fmu_core::Instance`, Model Exchange): modes
//! from its directional derivatives against the rotating and non-rotating cantilever
//! references; the rigid limit against the Rotor FMU with locked hinges; bad input.

use std::path::PathBuf;

use fmu_core::catalog::{DERIVATIVE_VR_BASE, STATE_VR_BASE};
use fmu_core::verify::vr;
use fmu_core::{Instance, Model};
use fmu_rotor::Rotor;
use fmu_rotor::beam::BladeTable;
use fmu_rotor::beam::blade_dynamics::{BladeDynamics, FrameMotion};
use fmu_rotor_elastic::RotorElastic;
use fmu_rotor_elastic::kinematics::{HubInputs, pitch_frame};
use nalgebra::DMatrix;

use crate::blade::{assert_within, reference_rows};

/// A blade table written to a file of its own under the test target folder.
pub fn table_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rotor-elastic");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A uniform blade from `root` to `tip` (m): `[EI flap, EI lag, GJ]`, mass per length,
/// section inertias `[flap, lag]`, EA (= GA).
pub fn uniform_table(root: f64, tip: f64, stiffness: [f64; 3], mass: f64, inertia: [f64; 2], ea: f64) -> String {
    let [eif, eil, gj] = stiffness;
    let row = |r: f64| format!("{r}, {ea}, {eif}, {eil}, {gj}, {mass}, {}, {}\n", inertia[0], inertia[1]);
    format!(
        "radius [m], EA [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], mass [kg/m], I_flap [kg m], I_lag [kg m]\n{}{}",
        row(root),
        row(tip)
    )
}

/// A Model Exchange instance of `M` with the parameters `reals`, `integers`, `booleans` and
/// `strings`, in continuous-time mode.
pub fn instance<M: Model>(
    reals: &[(&str, f64)],
    integers: &[(&str, i32)],
    booleans: &[(&str, bool)],
    strings: &[(&str, &str)],
) -> Result<Instance<M>, String> {
    let logger = Box::new(|_, _: &str, message: &str| eprintln!("{message}"));
    let mut inst = Instance::<M>::model_exchange("elastic-test", logger)?;
    let fail = |e: fmu_core::FmiError| format!("{e:?}");
    for &(name, value) in reals {
        inst.set_real(&[vr::<M>(name)], &[value]).map_err(fail)?;
    }
    for &(name, value) in integers {
        inst.set_integer(&[vr::<M>(name)], &[value]).map_err(fail)?;
    }
    for &(name, value) in booleans {
        inst.set_boolean(&[vr::<M>(name)], &[value]).map_err(fail)?;
    }
    for &(name, value) in strings {
        inst.set_string(&[vr::<M>(name)], &[value]).map_err(fail)?;
    }
    inst.setup_experiment(0.0, None).map_err(fail)?;
    inst.enter_initialization_mode().map_err(fail)?;
    inst.exit_initialization_mode().map_err(fail)?;
    inst.enter_continuous_time_mode().map_err(fail)?;
    Ok(inst)
}

/// The state Jacobian `d der(x) / d x` by the instance's directional derivatives.
fn state_jacobian<M: Model>(inst: &mut Instance<M>, n: usize) -> DMatrix<f64> {
    let states: Vec<u32> = (0..n as u32).map(|k| STATE_VR_BASE + k).collect();
    let derivatives: Vec<u32> = (0..n as u32).map(|k| DERIVATIVE_VR_BASE + k).collect();
    let mut jacobian = DMatrix::zeros(n, n);
    let mut column = vec![0.0; n];
    for (j, &state) in states.iter().enumerate() {
        inst.get_directional_derivative(&derivatives, &[state], &[1.0], &mut column).unwrap();
        jacobian.set_column(j, &nalgebra::DVector::from_column_slice(&column));
    }
    jacobian
}

/// Positive imaginary parts of the eigenvalues of the Jacobian restricted to the nodal
/// components `components` (of 0..6 per node in both halves), sorted.
fn frequencies(jacobian: &DMatrix<f64>, components: &[usize]) -> Vec<f64> {
    let picked: Vec<usize> = (0..jacobian.nrows()).filter(|i| components.contains(&(i % 6))).collect();
    let sub = DMatrix::from_fn(picked.len(), picked.len(), |r, c| jacobian[(picked[r], picked[c])]);
    let mut out: Vec<f64> = sub.complex_eigenvalues().iter().filter(|z| z.im > 1e-9).map(|z| z.im).collect();
    out.sort_by(f64::total_cmp);
    out
}

/// One blade of unit length and mass per length on the shaft axis (EI flap 1, EI lag 1, GJ
/// 0.5, section inertias 1e-6 and 1e-6 kg m), 16 elements (the declared maximum), the FMU's
/// Jacobian about its initial state (the centrifugal equilibrium, zero pitch, hub at rest): the
/// first flap and lag frequencies within 0.5 % of the rotating Euler-Bernoulli cantilever
/// (shooting, `tests/python/beam_reference.py`; lag `sqrt(flap^2 - Omega^2)`) at nondimensional
/// speeds 0, 4, 8 and 12; at rest also the first torsion frequency against
/// `pi / 2 sqrt(GJ / I_p)`.
#[test]
fn modes_from_the_fmu_jacobian_match_the_rotating_cantilever() {
    let file = table_file("unit.csv", &uniform_table(0.0, 1.0, [1.0, 1.0, 0.5], 1.0, [1e-6, 1e-6], 1e5));
    let file = file.to_str().unwrap();
    for (speed, reference) in reference_rows().into_iter().filter(|r| [0.0, 4.0, 8.0, 12.0].contains(&r.0)) {
        let mut inst = instance::<RotorElastic>(
            &[("Omega", speed)],
            &[("nb", 1), ("n_elements", 16)],
            &[("rotary_inertia_scaling", false)],
            &[("blade_file", file)],
        )
        .unwrap();
        let jacobian = state_jacobian(&mut inst, 12 * 16);
        let flap = frequencies(&jacobian, &[2, 4]);
        let lag = frequencies(&jacobian, &[0, 1, 5]);
        assert_within(flap[0], reference[0], 5e-3, &format!("flap 1 at {speed}"));
        assert_within(flap[1], reference[1], 2e-2, &format!("flap 2 at {speed} (16 elements)"));
        let lag_reference = (reference[0] * reference[0] - speed * speed).sqrt();
        assert_within(lag[0], lag_reference, 5e-3, &format!("lag 1 at {speed}"));
        if speed == 0.0 {
            let torsion = frequencies(&jacobian, &[3]);
            assert_within(torsion[0], std::f64::consts::FRAC_PI_2 * (0.5_f64 / 2e-6).sqrt(), 5e-3, "torsion 1 at rest");
        }
    }
}

/// The elastic rotor's outputs at the state `x` for the inputs `inputs` (names, values).
fn outputs_at<M: Model>(inst: &mut Instance<M>, x: Option<&[f64]>, inputs: &[(&str, f64)], names: &[&str]) -> Vec<f64> {
    if let Some(x) = x {
        inst.set_continuous_states(x).unwrap();
    }
    for &(name, value) in inputs {
        inst.set_real(&[vr::<M>(name)], &[value]).unwrap();
    }
    let vrs: Vec<u32> = names.iter().map(|n| vr::<M>(n)).collect();
    let mut values = vec![0.0; vrs.len()];
    inst.get_real(&vrs, &mut values).unwrap();
    values
}

/// The largest difference between the elastic rotor's hub loads and the rigid Rotor's (relative
/// to the largest force or moment component) for the shipped blade's stiffnesses times `factor`
/// (section flap inertia negligible, so that its lumped inertia is the thin rigid blade's): one
/// blade at 44.4 rad/s, pitched 0.1 rad, the hub accelerating (specific force (1, -2, -6.81)
/// m/s^2), the blade in its quasi-static equilibrium; the reference is the Rotor FMU (an
/// independent multibody formulation) with locked flap and lag hinges at the clamp radius and the
/// same mass, first moment and inertias.
fn rigid_limit_error(factor: f64) -> f64 {
    let (omega, pitch, acc) = (44.401, 0.1, [1.0, -2.0, -6.81]);
    let stiffness = [6.2e3, 6.5e4, 4.8e3].map(|k| k * factor);
    let text = uniform_table(0.5, 4.91, stiffness, 6.12, [1e-9, 0.027], 5e7 * factor);
    let file = table_file(&format!("stiff{factor}.csv"), &text);
    let blade = BladeDynamics::new(BladeTable::parse(&text, "stiff").unwrap().beam(8)).unwrap();
    let hub = HubInputs { omega: [0.0; 3], alpha: [0.0; 3] };
    let axes = fmu_rotor::rotor::hub_axes([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]).unwrap();
    let frame = pitch_frame(&axes, omega, 0.0, [pitch, 0.0, 0.0], &hub);
    let to_pitch = |v: [f64; 3]| fmu_core::vec3::mat_t_vec(&frame.rotation, v);
    let motion = FrameMotion { specific_force: to_pitch(acc), omega: to_pitch(frame.omega), alpha: [0.0; 3] };
    let x = blade.equilibrium(&motion).unwrap();
    let inputs = [("hub.acc.x", acc[0]), ("hub.acc.y", acc[1]), ("hub.acc.z", acc[2]), ("blade[1].pitch", pitch)];
    let names = ["hub.F.x", "hub.F.y", "hub.F.z", "hub.M.x", "hub.M.y", "hub.M.z", "shaft.torque"];
    let mut elastic = instance::<RotorElastic>(
        &[("Omega", omega)],
        &[("nb", 1), ("n_elements", 8)],
        &[("rotary_inertia_scaling", false)],
        &[("blade_file", file.to_str().unwrap())],
    )
    .unwrap();
    // The declared states: 16 nodes' coordinates, then their rates, per blade.
    let mut declared = vec![0.0; 8 * 12 * 16];
    declared[..48].copy_from_slice(&x[..48]);
    declared[96..144].copy_from_slice(&x[48..]);
    let ours = outputs_at(&mut elastic, Some(&declared), &inputs, &names);
    let reference = outputs_at(&mut rigid_equivalent(&blade, omega), None, &inputs, &names);
    let scale_force = reference[..3].iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let scale_moment = reference[3..].iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let mut worst: f64 = 0.0;
    for (k, name) in names.iter().enumerate() {
        let scale = if k < 3 { scale_force } else { scale_moment };
        let error = (ours[k] - reference[k]).abs() / scale;
        println!(
            "x{factor:e} {name}: elastic {:.6} rigid {:.6} error {error:.2e} of the largest",
            ours[k], reference[k]
        );
        worst = worst.max(error);
    }
    worst
}

/// The Rotor with one rigid blade of `blade`'s lumped mass, locked at a flap hinge at the clamp.
fn rigid_equivalent(blade: &BladeDynamics, omega: f64) -> Instance<Rotor> {
    let root = blade.beam.undeformed.positions[0][0];
    let arms = blade.beam.undeformed.positions.iter().map(|p| p[0] - root);
    let (mut m, mut s, mut i) = (0.0, 0.0, 0.0);
    for (k, arm) in arms.enumerate() {
        (m, s, i) = (m + blade.node_mass[k], s + blade.node_mass[k] * arm, i + blade.node_mass[k] * arm * arm);
    }
    let i_pitch: f64 = blade.node_inertia.iter().map(|j| j[0]).sum();
    let reals = [
        ("Omega", omega),
        ("R", 4.91),
        ("e", root),
        ("blade.m", m),
        ("blade.S", s),
        ("blade.I", i),
        ("blade.I_pitch", i_pitch),
        ("k_lag", 0.0),
        ("c_lag", 0.0),
    ];
    instance::<Rotor>(&reals, &[("nb", 1)], &[("lock_lag", true), ("lock_flap", true)], &[]).unwrap()
}

/// Rigid limit: as the blade stiffens, its hub loads tend to the rigid hingeless blade's, the
/// difference falling as 1 / stiffness (the deflection under the inertial loads, whose moment
/// arm the centrifugal force sees): 100 times stiffer, 100 times closer (60 to 140 accepted),
/// and within 1e-3 of the largest component at 1e5 times the shipped blade's stiffness.
#[test]
fn a_very_stiff_blade_gives_the_hub_loads_of_the_rigid_hingeless_blade() {
    let (soft, stiff) = (rigid_limit_error(1e3), rigid_limit_error(1e5));
    println!("rigid limit: error {soft:.3e} at 1e3, {stiff:.3e} at 1e5, ratio {:.1}", soft / stiff);
    assert!(stiff < 1e-3, "{stiff}");
    assert!((60.0..140.0).contains(&(soft / stiff)), "ratio {}", soft / stiff);
}

/// The shipped blade table at 44.401 rad/s (one blade, 10 elements, default parameters; the
/// table's relative name resolved against the crate's `blades/` folder as the FMU's resources):
/// the first flap, lag and torsion frequencies are those the table's header states it was tuned
/// to (1.12, 0.69, 3.49 /rev, within 1 %; scaled rotary inertia changes them by less than 0.5
/// %), and the rotary-inertia scaling lowers the largest eigenvalue magnitude at least fivefold.
#[test]
fn shipped_blade_frequencies_and_the_rotary_inertia_scaling() {
    let omega = 44.401;
    let resources = concat!(env!("CARGO_MANIFEST_DIR"), "/blades");
    let mut largest = Vec::new();
    for scaling in [false, true] {
        let mut inst = {
            let logger = Box::new(|_, _: &str, message: &str| eprintln!("{message}"));
            let mut inst = Instance::<RotorElastic>::model_exchange("shipped", logger).unwrap();
            inst.set_resources(Some(PathBuf::from(resources)));
            inst.set_integer(&[vr::<RotorElastic>("nb"), vr::<RotorElastic>("n_elements")], &[1, 10]).unwrap();
            inst.set_boolean(&[vr::<RotorElastic>("rotary_inertia_scaling")], &[scaling]).unwrap();
            inst.setup_experiment(0.0, None).unwrap();
            inst.enter_initialization_mode().unwrap();
            inst.exit_initialization_mode().unwrap();
            inst.enter_continuous_time_mode().unwrap();
            inst
        };
        let full = state_jacobian(&mut inst, 12 * 16);
        let active: Vec<usize> = (0..60).chain(96..156).collect();
        let jacobian = DMatrix::from_fn(120, 120, |r, c| full[(active[r], active[c])]);
        let per_rev = |components: &[usize]| frequencies(&jacobian, components)[0] / omega;
        let (flap, lag, torsion) = (per_rev(&[2, 4]), per_rev(&[0, 1, 5]), per_rev(&[3]));
        let tolerance = if scaling { 1.5e-2 } else { 1e-2 };
        assert_within(flap, 1.12, tolerance, &format!("flap 1 /rev (scaling {scaling})"));
        assert_within(lag, 0.69, tolerance, &format!("lag 1 /rev (scaling {scaling})"));
        assert_within(torsion, 3.49, tolerance, &format!("torsion 1 /rev (scaling {scaling})"));
        largest.push(jacobian.complex_eigenvalues().iter().map(|z| z.norm()).fold(0.0, f64::max));
    }
    println!("largest eigenvalue magnitude: {:.4e} rad/s without, {:.4e} with the scaling", largest[0], largest[1]);
    assert!(largest[0] > 5.0 * largest[1], "{largest:?}");
}

/// The aerodynamic interface of the straight blade (the initial state, the centrifugal
/// equilibrium at zero pitch, stretches the blade along its axis only) equals the rigid
/// Rotor's with locked hinges at the clamp radius, for a moving hub and a pitching blade:
/// `blade[1].vel`, `omega`, `shaft`, `azimuth` (the Aero FMU's inputs) to 1e-12.
#[test]
fn the_straight_blade_gives_the_aero_inputs_of_the_rigid_blade() {
    let inputs = [
        ("hub.vel.x", 12.0),
        ("hub.vel.y", -3.0),
        ("hub.vel.z", 1.5),
        ("hub.omega.x", 0.2),
        ("hub.omega.y", -0.1),
        ("hub.omega.z", 0.05),
        ("blade[1].pitch", 0.15),
        ("blade[1].pitch_rate", 0.7),
    ];
    let mut names: Vec<String> =
        ["vel", "omega", "shaft"].iter().flat_map(|v| ["x", "y", "z"].map(|c| format!("blade[1].{v}.{c}"))).collect();
    names.push("blade[1].azimuth".into());
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let resources = concat!(env!("CARGO_MANIFEST_DIR"), "/blades/bo105_uniform_blade.csv");
    let mut elastic = instance::<RotorElastic>(&[], &[("nb", 1)], &[], &[("blade_file", resources)]).unwrap();
    let ours = outputs_at(&mut elastic, None, &inputs, &names);
    let reals = [("Omega", 44.401), ("R", 4.91), ("e", 0.5), ("blade.I", 1600.0)];
    let mut rigid = instance::<Rotor>(&reals, &[("nb", 1)], &[("lock_lag", true), ("lock_flap", true)], &[]).unwrap();
    let reference = outputs_at(&mut rigid, None, &inputs, &names);
    for (k, name) in names.iter().enumerate() {
        println!("{name}: elastic {:.12} rigid {:.12}", ours[k], reference[k]);
        assert!((ours[k] - reference[k]).abs() < 1e-12 * reference[k].abs().max(1.0), "{name}");
    }
}

/// The spreading of the root force and moment onto the nodes reproduces them exactly: the sum
/// of the nodal forces is the force, the sum of the arms times the normal nodal forces and of the
/// nodal torques is the moment about the clamp (arms of a non-uniform mesh).
#[test]
fn the_spread_root_loads_keep_their_resultant_and_moment() {
    use fmu_rotor_elastic::kinematics::LoadSpreading;
    let arms = [0.0, 0.3, 0.8, 1.6, 2.0, 3.1];
    let spreading = LoadSpreading::new(&arms);
    let (force, moment) = ([50.0, -120.0, 900.0], [15.0, -2500.0, -400.0]);
    let (mut forces, mut moments) = (vec![[0.0; 3]; 6], vec![[0.0; 3]; 6]);
    spreading.spread(force, moment, &mut forces, &mut moments);
    let mut total = [0.0; 3];
    let mut about_root = [0.0; 3];
    for k in 0..6 {
        for c in 0..3 {
            total[c] += forces[k][c];
        }
        // r x f with r = (s, 0, 0), plus the nodal couple.
        about_root[0] += moments[k][0];
        about_root[1] += -arms[k] * forces[k][2] + moments[k][1];
        about_root[2] += arms[k] * forces[k][1] + moments[k][2];
    }
    for c in 0..3 {
        assert!((total[c] - force[c]).abs() < 1e-10 * 2500.0, "force {c}: {total:?}");
        assert!((about_root[c] - moment[c]).abs() < 1e-10 * 2500.0, "moment {c}: {about_root:?}");
    }
}
