//! Rotor.fmu simulated by FMPy (a third-party importer, from PyPI) follows the same trajectory,
//! bit for bit, as the in-process model driven through `fmu_core::Instance` with the same
//! communication points.

use fmu_rotor::Rotor;
use rotorcraft_tests::assert_fmpy_matches_in_process;

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
    let fmpy = assert_fmpy_matches_in_process::<Rotor>("Rotor", REAL_STARTS, &[("nb", NB)], OUTPUTS, 0.3, 0.003);
    // The trajectory is not trivial: the rotor turned and the blades flapped.
    let last = fmpy.rows.last().unwrap();
    assert!(last[fmpy.column("azimuth")] > 8.0 && last[fmpy.column("blade[1].flap")] != 0.04);
}
