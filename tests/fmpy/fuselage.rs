//! Fuselage.fmu simulated by FMPy (a third-party importer, from PyPI) follows the same
//! trajectory as the in-process model driven through `fmu_core::Instance` with the same
//! communication points.

use fmu_fuselage::Fuselage;
use rotorcraft_tests::assert_fmpy_matches_in_process;

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
    let fmpy = assert_fmpy_matches_in_process::<Fuselage>(
        "Fuselage",
        REAL_STARTS,
        &[("euler_sequence", EULER_SEQUENCE)],
        OUTPUTS,
        2.0,
        0.01,
    );
    // The trajectory is not trivial: the body has moved and rotated.
    let last = fmpy.rows.last().unwrap();
    assert!(last[fmpy.column("x")].abs() > 1.0 && last[fmpy.column("phi")].abs() > 0.05);
}
