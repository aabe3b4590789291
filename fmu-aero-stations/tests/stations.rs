//! The station-level aero interface end to end: RotorElastic's station outputs (`aero_interface
//! = 1`) into AeroStations, its line loads back into RotorElastic. Independent references: the
//! equivalent-rigid-blade path through the Aero FMU (rigid limit), blade-element momentum theory
//! by `tests/python/reference_station_bemt.py` (hover), the cantilever under a uniform load
//! (static aeroelastic deflection).

use fmu_aero::Aero;
use fmu_aero_stations::AeroStations;
use fmu_core::catalog::{DERIVATIVE_VR_BASE, STATE_VR_BASE};
use fmu_core::verify::{Sim, Val, check_directional_derivatives, i, r, vr};
use fmu_core::{Instance, Model};
use fmu_rotor_elastic::RotorElastic;
use nalgebra::{DMatrix, DVector};

/// The Bo105-class rotor of the tests: radius, clamp radius, speed, blades.
const RADIUS: f64 = 4.91;
const CLAMP: f64 = 0.5;
const OMEGA: f64 = 44.401;
const NB: usize = 4;
/// Collective pitch and linear twist of the hover cases, rad.
const PITCH: f64 = 0.15;
const TWIST: f64 = -0.1396;

/// A uniform blade table from `CLAMP` to `RADIUS`, `[EI flap, EI lag, GJ]` (N m^2), mass 6.12
/// kg/m, EA = GA = `axial` (N), written under the test target folder.
fn blade_file(name: &str, bending: [f64; 3], axial: f64) -> String {
    let [eif, eil, gj] = bending;
    let row = |radius: f64| format!("{radius}, {axial}, {axial}, {axial}, {eif}, {eil}, {gj}, 6.12, 5e-4, 0.027\n");
    let text = format!(
        "radius [m], EA [N], GA_flap [N], GA_lag [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], mass [kg/m], \
         I_flap [kg m], I_lag [kg m]\n{}{}",
        row(CLAMP),
        row(RADIUS)
    );
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("aero-stations");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The elastic rotor with the station interface, `n` elements, a blade 1000 times stiffer than
/// the shipped one (the rigid limit), all blades at `PITCH`.
fn stiff_rotor(n: i32) -> Sim<RotorElastic> {
    let file = blade_file("stiff.csv", [6.2e6, 6.5e7, 4.8e6], 5e10);
    let params = [("Omega", r(OMEGA)), ("nb", i(NB as i32)), ("n_elements", i(n)), ("aero_interface", i(1))];
    let mut rotor = Sim::try_new_with_strings(&params, &[("blade_file", &file)]).unwrap();
    for b in 1..=NB {
        rotor.set(&format!("blade[{b}].pitch"), PITCH);
    }
    rotor
}

/// The aerodynamic parameters both aero models share.
fn aero_params() -> Vec<(&'static str, Val)> {
    let values = [("R", RADIUS), ("chord", 0.27), ("twist", TWIST), ("a", 5.73), ("cd0", 0.011), ("cd2", 0.4)];
    let mut params: Vec<(&str, Val)> = values.iter().map(|&(k, v)| (k, r(v))).collect();
    params.extend([("rho", r(1.225)), ("Omega", r(OMEGA)), ("nb", i(NB as i32)), ("inflow_model", i(2))]);
    params
}

/// Names of the station kinematics of blade `b`, station `k`.
fn station_outputs(b: usize, k: usize) -> Vec<String> {
    let mut names: Vec<String> = ["pos", "velocity", "ey", "ez"]
        .iter()
        .flat_map(|q| ["x", "y", "z"].map(|c| format!("blade[{b}].station[{k}].{q}.{c}")))
        .collect();
    names.push(format!("blade[{b}].station[{k}].width"));
    names
}

/// Copies the station kinematics of `n + 1` stations per blade from the rotor to the aero model.
fn connect_stations(rotor: &mut Sim<RotorElastic>, aero: &mut Sim<AeroStations>, n: usize) {
    for b in 1..=NB {
        for k in 1..=n + 1 {
            for name in station_outputs(b, k) {
                let value = rotor.get(&name);
                aero.set(&name, value);
            }
        }
    }
}

/// AeroStations' and Aero's `[thrust, torque]` at the inflow `lambda0`: the first on the stations
/// of the stiff elastic rotor with `n` elements, the second on the same rotor's equivalent rigid
/// blades (64 Gauss stations over the same span).
fn both_paths(n: usize, lambda0: f64) -> ([f64; 2], [f64; 2]) {
    let mut rotor = stiff_rotor(n as i32);
    let mut params = aero_params();
    params.push(("lambda0_start", r(lambda0)));
    let mut stations = Sim::<AeroStations>::new(&params);
    connect_stations(&mut rotor, &mut stations, n);
    params.extend([("e", r(CLAMP)), ("r_root", r(CLAMP)), ("n_sections", i(64))]);
    let mut rigid = Sim::<Aero>::new(&params);
    for b in 1..=NB {
        for q in
            ["vel.x", "vel.y", "vel.z", "omega.x", "omega.y", "omega.z", "azimuth", "shaft.x", "shaft.y", "shaft.z"]
        {
            let name = format!("blade[{b}].{q}");
            let value = rotor.get(&name);
            rigid.set(&name, value);
        }
    }
    (stations.get_names(["thrust", "torque"]), rigid.get_names(["thrust", "torque"]))
}

/// Rigid limit: on a blade 1000 times stiffer than the shipped one, AeroStations on the stations
/// gives the thrust and torque of Aero on the equivalent rigid blade (64 Gauss points: the
/// span integral to ~1e-12) within the trapezoidal rule's error, which falls as 1/n^2 with the
/// element count n (ratio 4 per halving, 3.5 to 4.5 accepted), below 1.5e-3 at 16 elements.
#[test]
fn station_loads_converge_to_the_equivalent_rigid_blade_aero() {
    let mut errors = Vec::new();
    for n in [4, 8, 16] {
        let (ours, reference) = both_paths(n, 0.05);
        let error = [0, 1].map(|k| (ours[k] - reference[k]) / reference[k]);
        println!(
            "{n:2} elements: thrust {:.3} vs {:.3} N ({:+.3e}), torque {:.3} vs {:.3} N m ({:+.3e})",
            ours[0], reference[0], error[0], ours[1], reference[1], error[1]
        );
        errors.push(error.map(f64::abs));
    }
    for k in 0..2 {
        for pair in errors.windows(2) {
            let ratio = pair[0][k] / pair[1][k];
            assert!((3.5..4.5).contains(&ratio), "convergence ratio {ratio} (quantity {k}): {errors:?}");
        }
        assert!(errors[2][k] < 1.5e-3, "{errors:?}");
    }
}

/// Hover: AeroStations' Pitt-Peters inflow run to its steady state on the stations of the stiff
/// rotor (16 elements) against blade-element momentum theory (`tests/python/
/// reference_station_bemt.py`, SciPy quadrature over the continuous span: lambda 0.0502287770,
/// thrust 22250.134308 N, torque 8039.363239 N m): within the stations' trapezoidal error
/// (measured 1/n^2 above: 4.3e-4 thrust, 1.1e-3 torque at 16 elements), 1.5e-3.
#[test]
fn hover_matches_blade_element_momentum() {
    let n = 16;
    let mut rotor = stiff_rotor(n as i32);
    let mut params = aero_params();
    params.push(("lambda0_start", r(0.05)));
    let mut aero = Sim::<AeroStations>::new(&params);
    connect_stations(&mut rotor, &mut aero, n);
    aero.run_to(3.0, 0.01);
    let [lambda, thrust, torque] = aero.get_names(["inflow", "thrust", "torque"]);
    let reference = [0.0502287770, 22250.134308, 8039.363239];
    for (name, ours, reference) in
        [("lambda", lambda, reference[0]), ("thrust", thrust, reference[1]), ("torque", torque, reference[2])]
    {
        let error = (ours - reference) / reference;
        println!("hover {name}: {ours:.6} vs BEMT {reference:.6} ({error:+.2e})");
        assert!(error.abs() < 1.5e-3, "{name}: {ours} vs {reference}");
    }
}

/// A Model Exchange instance of the elastic rotor in continuous-time mode.
fn model_exchange(reals: &[(&str, f64)], integers: &[(&str, i32)], blade_file: &str) -> Instance<RotorElastic> {
    let logger = Box::new(|_, _: &str, message: &str| eprintln!("{message}"));
    let mut inst = Instance::<RotorElastic>::model_exchange("stations-test", logger).unwrap();
    inst.set_string(&[vr::<RotorElastic>("blade_file")], &[blade_file]).unwrap();
    for &(name, value) in reals {
        inst.set_real(&[vr::<RotorElastic>(name)], &[value]).unwrap();
    }
    for &(name, value) in integers {
        inst.set_integer(&[vr::<RotorElastic>(name)], &[value]).unwrap();
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.enter_continuous_time_mode().unwrap();
    inst
}

/// Reads real variables of `M` by name.
fn get<M: Model>(inst: &mut Instance<M>, names: &[String]) -> Vec<f64> {
    let vrs: Vec<u32> = names.iter().map(|n| vr::<M>(n)).collect();
    let mut values = vec![0.0; vrs.len()];
    inst.get_real(&vrs, &mut values).unwrap();
    values
}

/// Moves blade 1 of the instance (its `6 n` coordinates and `6 n` rates, at their declared
/// positions) to its static equilibrium under the current inputs: three Newton steps
/// `-J^-1 f(x)`, `J` from the directional derivatives (the loads do not depend on the
/// deflection in the case below). Returns the last step's largest entry.
fn static_equilibrium(inst: &mut Instance<RotorElastic>, n: usize) -> f64 {
    let per_blade = 12 * fmu_rotor_elastic::MAX_ELEMENTS;
    let active: Vec<usize> = (0..6 * n).chain(per_blade / 2..per_blade / 2 + 6 * n).collect();
    let derivatives: Vec<u32> = active.iter().map(|&k| DERIVATIVE_VR_BASE + k as u32).collect();
    let mut x = vec![0.0; <RotorElastic as fmu_core::Model>::state_variables().len()];
    let mut last = f64::INFINITY;
    for _ in 0..3 {
        let mut jacobian = DMatrix::zeros(active.len(), active.len());
        let mut column = vec![0.0; active.len()];
        for (j, &state) in active.iter().enumerate() {
            let seed = STATE_VR_BASE + state as u32;
            inst.get_directional_derivative(&derivatives, &[seed], &[1.0], &mut column).unwrap();
            jacobian.set_column(j, &DVector::from_column_slice(&column));
        }
        let mut rate = x.clone();
        inst.get_derivatives(&mut rate).unwrap();
        let rate = DVector::from_iterator(active.len(), active.iter().map(|&k| rate[k]));
        let step = -jacobian.lu().solve(&rate).expect("a clamped beam has a regular Jacobian");
        inst.get_continuous_states(&mut x).unwrap();
        for (&k, step) in active.iter().zip(step.iter()) {
            x[k] += step;
        }
        inst.set_continuous_states(&x).unwrap();
        last = step.amax();
    }
    last
}

/// Static aeroelastic check: one blade at rest (Omega = 0) in a uniform 50 m/s stream from its
/// leading edge (the hub moving sideways), pitched 0.05 rad, no induced inflow: AeroStations
/// gives the same line load at every station, and RotorElastic's tip deflects by the cantilever
/// closed form `|f| L^4 / (8 EI)` (isotropic section, EI = 1e6 N m^2, L = 4.41 m; shear and
/// geometric nonlinearity below 1e-5) within 1e-5 at 4, 8 and 16 elements (the two-node element
/// with the trapezoidal, here consistent, nodal loads is exact at the nodes for this load), along
/// the load; the hub force is the load's resultant `f L` (1e-6).
#[test]
fn static_tip_deflection_under_uniform_lift_matches_the_cantilever() {
    let (ei, stream, pitch) = (1e6, 50.0, 0.05);
    let file = blade_file("isotropic.csv", [ei, ei, ei], 1e11);
    let span = RADIUS - CLAMP;
    let mut errors = Vec::new();
    for n in [4usize, 8, 16] {
        let integers = [("nb", 1), ("n_elements", n as i32), ("aero_interface", 1)];
        let mut rotor =
            model_exchange(&[("Omega", 0.0), ("hub.vel.y", stream), ("blade[1].pitch", pitch)], &integers, &file);
        let mut params = aero_params();
        params.retain(|(name, _)| !["nb", "inflow_model", "twist"].contains(name));
        params.extend([("nb", i(1)), ("inflow_model", i(0)), ("hub.vel.y", r(stream))]);
        let mut aero = Sim::<AeroStations>::new(&params);
        for k in 1..=n + 1 {
            let names = station_outputs(1, k);
            for (name, value) in names.iter().zip(get(&mut rotor, &names)) {
                aero.set(name, value);
            }
        }
        let mut load = [0.0; 3];
        for k in 1..=n + 1 {
            let f = aero.get3(&format!("blade[1].station[{k}].f"));
            let names: Vec<String> = ["x", "y", "z"].iter().map(|c| format!("blade[1].station[{k}].f.{c}")).collect();
            let vrs: Vec<u32> = names.iter().map(|n| vr::<RotorElastic>(n)).collect();
            rotor.set_real(&vrs, &f).unwrap();
            load = f;
        }
        let magnitude = load.iter().map(|c| c * c).sum::<f64>().sqrt();
        let tip_names: Vec<String> =
            ["x", "y", "z"].iter().map(|c| format!("blade[1].station[{}].pos.{c}", n + 1)).collect();
        let before = get(&mut rotor, &tip_names);
        let last_step = static_equilibrium(&mut rotor, n);
        assert!(last_step < 1e-8, "Newton's last step {last_step}");
        // The tip station's displacement (body axes), from the interface's own position output.
        let after = get(&mut rotor, &tip_names);
        let moved: Vec<f64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
        let deflection = moved.iter().map(|c| c * c).sum::<f64>().sqrt();
        let closed_form = magnitude * span.powi(4) / (8.0 * ei);
        let error = (deflection - closed_form) / closed_form;
        let along = (0..3).map(|k| moved[k] * load[k]).sum::<f64>() / (deflection * magnitude);
        println!(
            "{n:2} elements: |f| {magnitude:.4} N/m, tip {deflection:.6e} m vs {closed_form:.6e} ({error:+.3e}), \
             cos(angle to load) {along:.9}"
        );
        assert!(along > 1.0 - 1e-6, "{along}");
        let hub: Vec<f64> = get(&mut rotor, &["hub.F.x", "hub.F.y", "hub.F.z"].map(String::from));
        for k in 0..3 {
            assert!((hub[k] - load[k] * span).abs() < 1e-6 * magnitude * span, "hub.F {hub:?} vs {load:?} x {span}");
        }
        errors.push(error.abs());
    }
    assert!(errors.iter().all(|e| *e < 1e-5), "{errors:?}");
}

/// Both sides of the interface give exact directional derivatives (against fourth-order
/// central differences, 1e-6 of the column; 1e-5 for RotorElastic, below) and declare their direct feedthrough: AeroStations
/// on the stations of a moving, pitching 2-blade rotor (4 elements, azimuth 0.3 rad: no blade
/// along a body axis) in a wind, and RotorElastic
/// with `aero_interface = 1` under those station loads.
#[test]
fn both_models_have_exact_derivatives_and_declared_feedthrough() {
    let n = 4;
    let file = blade_file("shipped-like.csv", [6.2e3, 6.5e4, 4.8e3], 5e7);
    let params = [("Omega", r(OMEGA)), ("psi0", r(0.3)), ("nb", i(2)), ("n_elements", i(n)), ("aero_interface", i(1))];
    let mut rotor = Sim::<RotorElastic>::try_new_with_strings(&params, &[("blade_file", &file)]).unwrap();
    let motion = [("hub.vel", [20.0, -3.0, 1.0]), ("hub.omega", [0.1, -0.2, 0.05]), ("hub.acc", [0.5, 0.2, -9.0])];
    for (name, value) in motion {
        rotor.set3(name, value);
    }
    for b in 1..=2 {
        rotor.set(&format!("blade[{b}].pitch"), 0.1 + 0.02 * b as f64);
        rotor.set(&format!("blade[{b}].pitch_rate"), 0.3);
    }
    let mut params = aero_params();
    params.retain(|(name, _)| *name != "nb");
    params.extend([
        ("nb", i(2)),
        ("lambda0_start", r(0.04)),
        ("lambda_s_start", r(0.01)),
        ("lambda_c_start", r(-0.01)),
    ]);
    let mut aero = Sim::<AeroStations>::new(&params);
    aero.set3("hub.vel", [20.0, -3.0, 1.0]);
    aero.set3("wind", [2.0, 1.0, -0.5]);
    for b in 1..=2 {
        for k in 1..=n as usize + 1 {
            for name in station_outputs(b, k) {
                let value = rotor.get(&name);
                aero.set(&name, value);
            }
            let f = aero.get3(&format!("blade[{b}].station[{k}].f"));
            rotor.set3(&format!("blade[{b}].station[{k}].f"), f);
            rotor.set3(&format!("blade[{b}].station[{k}].m"), [0.1 * f[2], 0.0, -0.1 * f[1]]);
        }
    }
    let step = |_: &fmu_core::Variable, v: f64| 1e-5 * v.abs().max(1.0);
    check_directional_derivatives(&mut aero.inst, step, 1e-6).unwrap().assert_clean("AeroStations");
    // RotorElastic's hub force carries the 1.4e5 N centrifugal pull: central differences of it
    // are noisy at 1e-6 of a column (rounding 1e-16 x 1e5 N over a 1e-5 step), hence 1e-5.
    check_directional_derivatives(&mut rotor.inst, step, 1e-5).unwrap().assert_clean("RotorElastic (stations)");
}
