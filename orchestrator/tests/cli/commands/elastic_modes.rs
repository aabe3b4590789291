//! `orchestrator modes --multiblade` on four elastic blades (`examples/rotor-elastic-vacuum.json`,
//! RotorElastic at 44.401 rad/s): each cyclic mode of `modes.csv` is named after the branch of a
//! single blade's rotating-frame frequency `w` it lies on, the independent reference being a
//! one-blade run of the same rotor: regressive at `|w - Omega|`, progressive at `w + Omega`
//! (Coleman's transform of identical, uncoupled blades in vacuum), including the blade modes
//! above `2 Omega`, whose regressive branch lies above `Omega` too.

use super::*;

/// Rotor speed of the example, rad/s.
const OMEGA: f64 = 44.401;

#[test]
fn multiblade_cyclic_modes_are_named_by_the_single_blade_branch_they_lie_on() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str, extra: &[&str]| {
        elastic_vacuum_modes(&dir.path().join(out), &[&["--set", "rotor.n_elements=4"][..], extra].concat())
    };
    let blade: Vec<f64> = run("one", &["--set", "rotor.nb=1"]).iter().map(|m| m.0).collect();
    let rotor = run("four", &["--set", "rotor.nb=4", "--multiblade"]);
    let near = |f: f64, g: f64| (f / g - 1.0).abs() < 1e-6;
    let (mut checked, mut regressive_above_omega) = (0, 0);
    for (frequency, name) in rotor.iter().filter(|(_, name)| name.contains(".cyclic ")) {
        let regressive = blade.iter().any(|&w| near(*frequency, (w - OMEGA).abs()));
        let progressive = blade.iter().any(|&w| near(*frequency, w + OMEGA));
        assert!(regressive || progressive, "{name} at {frequency} rad/s: no single-blade branch");
        if regressive && progressive {
            continue; // Two branches coincide: either name is right.
        }
        let expected = if progressive { "progressive" } else { "regressive" };
        assert!(name.ends_with(expected), "{name} at {frequency} rad/s lies on the {expected} branch");
        checked += 1;
        regressive_above_omega += usize::from(regressive && *frequency > OMEGA);
    }
    eprintln!("{checked} cyclic modes checked, {regressive_above_omega} regressive ones above Omega");
    assert!(
        checked >= 20 && regressive_above_omega >= 5,
        "{checked} checked, {regressive_above_omega} regressive above Omega"
    );
}
