//! `examples/bo105.json` trimmed at 0, 30 and 50 m/s by `orchestrator trim` (through
//! `examples/bo105/trim_sweep.py`, the script of the documented sweep) against Padfield's Bo105
//! flight tests (Helicopter Flight Dynamics, 1996, Figs. 4.6(a), 4.10, 4.11, as digitised in the
//! HEROES toolbox: Musero45/TFG `heroes/heroesData/validationData/Bo105/`, commit 10dddfe; the
//! points are in `examples/bo105/padfield_bo105.py`) and against the script's own momentum and
//! blade-element power estimate. Figures and the bands' reasons: docs/validation.md, "The Bo105".

use super::*;

/// One row of `bo105-trim.csv`: column name to value.
fn rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| header.iter().map(|h| h.to_string()).zip(l.split(',').map(|v| v.parse().unwrap())).collect())
        .collect()
}

#[test]
fn bo105_trims_from_hover_to_50_m_per_s_near_padfields_flight_tests() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let script = root.join("examples/bo105/trim_sweep.py");
    succeeds(
        std::process::Command::new(crate::import_support::python())
            .arg(&script)
            .args(["--speeds", "0,30,50", "--out", dir.path().to_str().unwrap()])
            .args(["--orchestrator", env!("CARGO_BIN_EXE_orchestrator")])
            .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
            .current_dir(&root),
    );
    let rows = rows(&dir.path().join("bo105-trim.csv"));
    assert_eq!(rows.len(), 3);
    // Bands (deg) per speed 0, 30, 50 m/s: the errors found, rounded up (docs/validation.md),
    // with Padfield's fuselage table (drag, lift, pitching and yawing moment; eqs. 4B.6-4B.10).
    // Collective: within 0.5 deg to 30 m/s; at 50 m/s the model needs 1.4 deg less (its power is
    // below the flight test's there). Longitudinal cyclic 1.0 deg short of the test's aft cyclic
    // in hover, 0.2 deg (30 m/s) and 1.1 deg (50 m/s) less forward cyclic. Lateral cyclic 0.5 to
    // 1.2 deg short. Pitch within 0.3 deg in hover, 1.2 deg (30 m/s) and 1.4 deg (50 m/s) nose-up
    // of the test (with the drag area alone: 1.4 and 2.4 deg, and the longitudinal cyclic within
    // 0.1 deg; docs/bo105.md).
    let bands: [(&str, [f64; 3]); 4] = [
        ("theta0_centre_deg", [0.5, 0.5, 1.6]),
        ("theta1s_deg", [1.2, 0.4, 1.3]),
        ("theta1c_deg", [1.4, 0.7, 0.7]),
        ("pitch_deg", [0.4, 1.4, 1.6]),
    ];
    for (row, k) in rows.iter().zip(0..) {
        let speed = row["speed_m_per_s"];
        assert!(row["residual"] < 1e-3, "{speed} m/s: residual {}", row["residual"]);
        for (name, band) in &bands {
            let (ours, test) = (row[*name], row[&format!("test_{name}")]);
            eprintln!("{speed} m/s {name}: ours {ours:.3}, flight test {test:.3}, error {:+.3}", ours - test);
            assert!((ours - test).abs() < band[k], "{speed} m/s {name}: {ours} vs {test}");
        }
        // Main-rotor power against the independent momentum + blade-element estimate (same
        // solidity and cd0, the table's drag area at zero angles; ideal induced power): within
        // 5 % (-4.3 % at 50 m/s: the table's drag at the nose-down trim attitude is lower).
        let (main, momentum) = (row["main_power_kw"], row["momentum_power_kw"]);
        let total = main + row["tail_power_kw"];
        eprintln!(
            "{speed} m/s power: main {main:.1} kW, momentum estimate {momentum:.1} kW ({:+.1} %); main + tail \
             {total:.1} kW, flight test {:.1} kW",
            100.0 * (main / momentum - 1.0),
            row["test_power_kw"]
        );
        assert!((main / momentum - 1.0).abs() < 0.05, "{speed} m/s: {main} vs {momentum}");
        // The flight-test power (Fig. 4.11; engine power, presumably with transmission and
        // accessory losses) is 20 to 40 % above our rotors' power: reported, bounded loosely.
        assert!(total < row["test_power_kw"] && total > 0.55 * row["test_power_kw"], "{speed} m/s: {total}");
    }
}

/// The trial that confirms a converged trim settles at least the system's `settle_revolutions`:
/// the Aero's Pitt-Peters inflow restarts at its start values in every trial and needs about
/// 8 revolutions in hover. With the hover starts off (0.05, 0, 0 instead of the settled
/// 0.0494, 0.0013, -0.0026) and a confirmation of 4 revolutions the trim alternated between a
/// converged trial and a confirmation at 4e-3 without end; now it converges.
#[test]
fn the_confirming_trial_settles_a_dynamic_inflow() {
    let trim = trim_summary(&[
        "examples/bo105.json",
        "--set",
        "aero.lambda0_start=0.05",
        "--set",
        "aero.lambda_s_start=0",
        "--set",
        "aero.lambda_c_start=0",
    ]);
    assert_eq!(trim["converged"], true);
    assert!(trim["residual_max"].as_f64().unwrap() < 1e-3);
}

/// `orchestrator trim` with `args` from the workspace root: its `--summary-json`.
pub(super) fn trim_summary(args: &[&str]) -> serde_json::Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("trim.json");
    succeeds(orchestrator().arg("trim").args(args).arg("--summary-json").arg(&summary).current_dir(&root));
    serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap()
}
