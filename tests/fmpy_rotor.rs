//! Rotor.fmu simulated by FMPy (a third-party importer, from PyPI) follows the same trajectory,
//! bit for bit, as the in-process model driven through `fmu_core::Instance` with the same
//! communication points.

use fmu_core::Instance;
use fmu_rotor::Rotor;
use rotorcraft_tests::{fmu, simulate_with_fmpy};

/// A 3-blade rotor with flap and lag free on a rotating, accelerating hub with gravity, pitch
/// and blade loads: every part of the model is exercised.
const REAL_STARTS: &[(&str, f64)] = &[
    ("e_lag", 0.2),
    ("blade.I_pitch", 3.0),
    ("blade.beta0", 0.04),
    ("blade.zeta0", 0.01),
    ("hub.I", 20.0),
    ("hub.acc.x", 0.5),
    ("hub.acc.z", -9.80665),
    ("hub.omega.y", 0.2),
    ("hub.vel.x", 20.0),
    ("blade[1].pitch", 0.1),
    ("blade[2].pitch", 0.14),
    ("blade[3].pitch_rate", 0.5),
    ("blade[1].F.z", 9000.0),
    ("blade[2].F.z", 11000.0),
    ("blade[3].M.y", -300.0),
];
const NB: i32 = 3;
const OUTPUTS: &[&str] = &[
    "hub.F.x",
    "hub.F.y",
    "hub.F.z",
    "hub.M.x",
    "hub.M.y",
    "hub.M.z",
    "azimuth",
    "shaft.torque",
    "energy.kinetic",
    "energy.potential",
    "blade[1].flap",
    "blade[2].lag",
    "blade[3].flap_rate",
    "blade[1].vel.y",
    "blade[2].omega.z",
];

#[test]
fn fmpy_trajectory_equals_in_process_trajectory() {
    let (stop, step) = (0.3, 0.003);
    let mut start: Vec<(&str, String)> = REAL_STARTS.iter().map(|(n, v)| (*n, format!("{v:?}"))).collect();
    start.push(("nb", NB.to_string()));
    let fmpy = simulate_with_fmpy(&fmu("Rotor"), stop, step, &start, OUTPUTS);

    let mut inst = Instance::<Rotor>::new("reference");
    let vr = |inst: &Instance<Rotor>, name: &str| inst.vr(name).unwrap_or_else(|| panic!("no variable {name}"));
    for (name, value) in REAL_STARTS {
        let r = vr(&inst, name);
        inst.set_real(&[r], &[*value]).unwrap();
    }
    let nb = vr(&inst, "nb");
    inst.set_integer(&[nb], &[NB]).unwrap();
    inst.setup_experiment(0.0, Some(stop)).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let out_vrs: Vec<u32> = OUTPUTS.iter().map(|n| vr(&inst, n)).collect();
    let mut values = vec![0.0; out_vrs.len()];

    let time_col = fmpy.column("time");
    assert_eq!(fmpy.rows.len(), (stop / step).round() as usize + 1, "FMPy rows");
    let mut max_diff: f64 = 0.0;
    let mut t = 0.0;
    for (n, row) in fmpy.rows.iter().enumerate() {
        if n > 0 {
            // FMPy's communication points: start + n * step, step size = difference.
            let next = n as f64 * step;
            inst.do_step(t, next - t).unwrap();
            t = next;
        }
        assert_eq!(row[time_col], t, "communication point {n}");
        inst.get_real(&out_vrs, &mut values).unwrap();
        for (k, name) in OUTPUTS.iter().enumerate() {
            let theirs = row[fmpy.column(name)];
            max_diff = max_diff.max((theirs - values[k]).abs());
            assert_eq!(
                theirs.to_bits(),
                values[k].to_bits(),
                "{name} at t = {t}: FMPy {theirs}, in-process {}",
                values[k]
            );
        }
    }
    eprintln!(
        "FMPy vs in-process (Rotor): {} rows x {} outputs, max |difference| = {max_diff:e}",
        fmpy.rows.len(),
        OUTPUTS.len()
    );
    // The trajectory is not trivial: the rotor turned and the blades flapped.
    let last = fmpy.rows.last().unwrap();
    assert!(last[fmpy.column("azimuth")] > 8.0 && last[fmpy.column("blade[1].flap")] != 0.04);
}
