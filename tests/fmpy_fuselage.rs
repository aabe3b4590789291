//! Fuselage.fmu simulated by FMPy (a third-party importer, from PyPI) follows the same
//! trajectory as the in-process model driven through `fmu_core::Instance` with the same
//! communication points.

use fmu_core::Instance;
use fmu_fuselage::Fuselage;
use rotorcraft_tests::{fmu, simulate_with_fmpy};

/// A tumbling, translating airframe with CoM offset, a product of inertia, loads at two
/// points and a non-default Euler sequence: every part of the model is exercised.
const REAL_STARTS: &[(&str, f64)] = &[
    ("mass", 1500.0),
    ("cg.x", 0.1),
    ("cg.z", 0.2),
    ("I.xz", -150.0),
    ("u0", 10.0),
    ("p0", 0.2),
    ("q0", -0.1),
    ("r0", 0.3),
    ("hub.F.x", 300.0),
    ("hub.F.z", -14000.0),
    ("hub.M.x", 50.0),
    ("ext.F.y", 20.0),
];
const EULER_SEQUENCE: i32 = 213;
const OUTPUTS: &[&str] = &[
    "x",
    "y",
    "z",
    "u",
    "v",
    "w",
    "p",
    "q",
    "r",
    "phi",
    "theta",
    "psi",
    "euler.1",
    "euler.2",
    "euler.3",
    "q.w",
    "q.x",
    "hub.acc.x",
    "hub.acc.z",
    "tail.vel.y",
    "ext.alpha.x",
];

#[test]
fn fmpy_trajectory_equals_in_process_trajectory() {
    let (stop, step) = (2.0, 0.01);
    let mut start: Vec<(&str, String)> = REAL_STARTS.iter().map(|(n, v)| (*n, format!("{v:?}"))).collect();
    start.push(("euler_sequence", EULER_SEQUENCE.to_string()));
    let fmpy = simulate_with_fmpy(&fmu("Fuselage"), stop, step, &start, OUTPUTS);

    let mut inst = Instance::<Fuselage>::new("reference");
    let vr = |inst: &Instance<Fuselage>, name: &str| inst.vr(name).unwrap_or_else(|| panic!("no variable {name}"));
    for (name, value) in REAL_STARTS {
        let r = vr(&inst, name);
        inst.set_real(&[r], &[*value]).unwrap();
    }
    let seq = vr(&inst, "euler_sequence");
    inst.set_integer(&[seq], &[EULER_SEQUENCE]).unwrap();
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
        "FMPy vs in-process: {} rows x {} outputs, max |difference| = {max_diff:e}",
        fmpy.rows.len(),
        OUTPUTS.len()
    );
    // The trajectory is not trivial: the body has moved and rotated.
    let last = fmpy.rows.last().unwrap();
    assert!(last[fmpy.column("x")].abs() > 1.0 && last[fmpy.column("phi")].abs() > 0.05);
}
