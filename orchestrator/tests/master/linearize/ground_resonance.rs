//! Ground resonance of Coleman and Feingold's model built from our FMUs (a hub mass on springs,
//! four lag-hinged blades, no aerodynamics; the system of `tests/python/test_ground_resonance.py`):
//! the Floquet exponents reported in the fixed frame, and the warning of `linearize` and `modes`
//! when the multiblade system depends on the azimuth.

use super::rotor::read_json;
use super::*;

/// The Coleman-Feingold system: hub mass 1000 kg on springs of 190 kN/m (lateral `k_ratio` of
/// it), four blades (50 kg, S 100 kg m, I 250 kg m2, e 0.3 m) with lag dampers `c_lag`, blade 1's
/// scaled by `blade1_factor` (0: inoperative), at `omega`; written as `DIR/NAME.json`.
fn coleman(dir: &Path, name: &str, c_lag: f64, blade1_factor: f64, k_ratio: f64, omega: f64) -> PathBuf {
    let legs: Vec<String> = (1..=4).flat_map(|i| ["x", "y", "z"].map(|a| format!("\"gear[{i}].{a}\": 0.0"))).collect();
    let json = format!(
        r#"{{
  "fmus": {{
    "hub": {{ "model": "Fuselage", "parameters": {{
      "mass": 1000.0, "cg.x": 0.0, "cg.y": 0.0, "cg.z": 0.0, "I.xx": 1e9, "I.yy": 1e9, "I.zz": 1e9,
      "I.xy": 0.0, "I.xz": 0.0, "I.yz": 0.0, "g": 0.0, "hub.x": 0.0, "hub.y": 0.0, "hub.z": 0.0, "z0": 0.001,
      "drag_area": 0.0, {legs}, "gear.k": 1.0, "gear.c": 100.0, "gear.k_h": 47500.0, "gear.c_h": 0.0,
      "gear.k_h_ratio": {k_ratio}, "ground_z": 0.0 }} }},
    "rotor": {{ "model": "Rotor", "parameters": {{
      "nb": 4, "Omega": {omega}, "R": 5.0, "e": 0.3, "blade.m": 50.0, "blade.S": 100.0, "blade.I": 250.0,
      "blade.I_pitch": 0.0, "k_lag": 0.0, "c_lag": {c_lag}, "blade[1].c_lag_factor": {blade1_factor},
      "k_flap": 0.0, "lock_flap": true, "hub.m": 0.0, "shaft.nx": 0.0, "shaft.ny": 0.0, "shaft.nz": -1.0,
      "shaft.ax": -1.0, "shaft.ay": 0.0, "shaft.az": 0.0 }} }}
  }},
  "connections": [
    "rotor.hub.F.* -> hub.hub.F.*", "rotor.hub.M.* -> hub.hub.M.*", "hub.hub.vel.* -> rotor.hub.vel.*",
    "hub.hub.omega.* -> rotor.hub.omega.*", "hub.hub.acc.* -> rotor.hub.acc.*", "hub.hub.alpha.* -> rotor.hub.alpha.*"
  ],
  "experiment": {{ "start": 0.0, "stop": 1.0, "step": 0.001 }},
  "outputs": ["hub.x", "hub.y"]
}}"#,
        legs = legs.join(", ")
    );
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, json).unwrap();
    path
}

/// Runs `orchestrator ARGS` (it must succeed): standard output and standard error.
fn run(args: &[&OsStr]) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .env("ROTORCRAFT_FMU_DIR", common::fmu_dir())
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    (String::from_utf8_lossy(&output.stdout).into_owned(), stderr)
}

/// `(re, im, damping, mode)` of each entry of a JSON eigenvalue list with `im >= 0`.
fn roots(list: &serde_json::Value) -> Vec<(f64, f64, f64, String)> {
    list.as_array()
        .unwrap()
        .iter()
        .filter(|m| m["im"].as_f64().unwrap() >= 0.0)
        .map(|m| {
            let v = |k: &str| m[k].as_f64().unwrap_or(f64::NAN);
            (v("re"), v("im"), v("damping"), m["mode"].as_str().unwrap().to_string())
        })
        .collect()
}

/// With identical blades on an isotropic hub the multiblade system is time-invariant, so its
/// eigenvalues are the fixed-frame roots exactly (Coleman's transform; the Python test checks
/// their real parts against an independent Floquet analysis). The Floquet exponents, whose
/// imaginary part `ln(mu) / T` is known only modulo Omega, must come out as the same fixed-frame
/// roots: frequency, damping ratio and, for the rotor's cyclic modes, regressive or progressive.
/// At 20 rad/s the regressive lag mode and the hub mode have coalesced (unstable); the
/// progressive lag mode (31.2 rad/s) lies beyond Omega.
#[test]
fn floquet_exponents_are_reported_at_the_fixed_frame_frequency() {
    let dir = tempfile::tempdir().unwrap();
    let omega = 20.0;
    let system = coleman(dir.path(), "isotropic", 0.0, 1.0, 1.0, omega);
    let out = dir.path().join("lin.json");
    let args = ["linearize", system.to_str().unwrap(), "--multiblade", "--floquet", "72", "--out"];
    let (_, stderr) = run(&args.into_iter().chain([out.to_str().unwrap()]).map(OsStr::new).collect::<Vec<_>>());
    assert!(!stderr.contains("depends on the rotor azimuth"), "isotropic: no warning: {stderr}");
    let lin = read_json(&out);
    let multiblade = roots(&lin["eigenvalues"]);
    let floquet = roots(&lin["floquet"]);
    let oscillatory = |r: &&(f64, f64, f64, String)| r.1 > 1.0;
    let (multiblade, floquet): (Vec<_>, Vec<_>) =
        (multiblade.iter().filter(oscillatory).collect(), floquet.iter().filter(oscillatory).collect());
    assert_eq!(multiblade.len(), floquet.len(), "{multiblade:?} vs {floquet:?}");
    assert!(multiblade.iter().any(|r| r.1 > omega), "a root beyond Omega: {multiblade:?}");
    for m in &multiblade {
        // The closest Floquet exponent: midpoint samples, second order in the interval.
        let f = floquet.iter().min_by(|a, b| ((a.1 - m.1).hypot(a.0 - m.0)).total_cmp(&(b.1 - m.1).hypot(b.0 - m.0)));
        let f = f.unwrap();
        eprintln!("multiblade {:+.5} {:+.5}i {} / Floquet {:+.5} {:+.5}i {}", m.0, m.1, m.3, f.0, f.1, f.3);
        assert!((f.1 - m.1).abs() < 1e-3 * omega && (f.0 - m.0).abs() < 1e-3 * omega, "{m:?} vs {f:?}");
        assert!((f.2 - m.2).abs() < 1e-3, "damping ratio {m:?} vs {f:?}");
    }
    // The same names (the two modes of the coalesced pair are a hub and a lag mode in either order).
    let names = |roots: &[&(f64, f64, f64, String)]| {
        let mut names: Vec<String> = roots.iter().map(|r| r.3.clone()).collect();
        names.sort();
        names
    };
    assert_eq!(names(&floquet), names(&multiblade));
}

/// One lag damper inoperative on an orthotropic hub (the certification case): dissimilar
/// blades make the multiblade system periodic, so its eigenvalues at one azimuth are not the
/// system's modes. `modes --multiblade` must warn and name the largest difference (in the
/// cyclic lag rows, where the missing damper acts), `modes --floquet` gives the growth rate.
/// The same system with every damper working is azimuth-independent: no warning.
#[test]
fn modes_warn_when_the_multiblade_system_depends_on_the_azimuth() {
    let dir = tempfile::tempdir().unwrap();
    let one_out = coleman(dir.path(), "one-out", 3000.0, 0.0, 0.5, 20.0);
    let all = coleman(dir.path(), "all", 3000.0, 1.0, 0.5, 20.0);
    let modes = |system: &Path, extra: &str| {
        let out = dir.path().join(format!("modes-{}{extra}", system.file_stem().unwrap().to_string_lossy()));
        let mut args = vec![OsStr::new("modes"), system.as_os_str(), OsStr::new("--out"), out.as_os_str()];
        args.extend(extra.split_whitespace().map(OsStr::new));
        run(&args)
    };
    let (_, stderr) = modes(&all, "--multiblade");
    assert!(!stderr.contains("depends on the rotor azimuth"), "{stderr}");
    let (_, stderr) = modes(&one_out, "--multiblade");
    assert!(stderr.contains("depends on the rotor azimuth") && stderr.contains("d(rotor.lag.1"), "{stderr}");
    assert!(stderr.contains("--floquet"), "{stderr}");
    let (stdout, stderr) = modes(&one_out, "--floquet 72");
    assert!(!stderr.contains("depends on the rotor azimuth"), "{stderr}");
    assert!(stdout.contains("least damped (Floquet)"), "{stdout}");
}

/// The four in-plane modes of the undamped Coleman-Feingold system on an orthotropic hub are
/// two cyclic lag modes (the rotor's two cyclic degrees of freedom) and the hub's two
/// translations: at every rotor speed, below, inside and above the instability band, `modes`
/// must name one regressive and one progressive lag mode and one hub mode per axis (the hub's
/// position counted with its velocity), and each conjugate as its root.
#[test]
fn modes_name_the_hub_modes_and_one_regressive_lag_mode() {
    let dir = tempfile::tempdir().unwrap();
    let system = coleman(dir.path(), "undamped", 0.0, 1.0, 0.5, 20.0);
    let out = dir.path().join("modes");
    let args = ["modes", system.to_str().unwrap(), "--multiblade", "--sweep", "rotor.Omega=10,14,20,30", "--out"];
    run(&args.into_iter().chain([out.to_str().unwrap()]).map(OsStr::new).collect::<Vec<_>>());
    let csv = std::fs::read_to_string(out.join("modes.csv")).unwrap();
    for point in 0..4 {
        let mut names: Vec<(String, bool)> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect::<Vec<_>>())
            .filter(|f| f[0] == point.to_string() && f[3].parse::<f64>().unwrap().abs() > 1.0)
            .map(|f| (f[6].trim_matches('"').to_string(), f[3].parse::<f64>().unwrap() > 0.0))
            .filter(|(name, _)| !name.contains("collective") && !name.contains("differential"))
            .collect();
        names.sort();
        let expected: Vec<(String, bool)> =
            ["hub.position.x", "hub.position.y", "rotor.lag.cyclic progressive", "rotor.lag.cyclic regressive"]
                .iter()
                .flat_map(|n| [(n.to_string(), false), (n.to_string(), true)])
                .collect();
        assert_eq!(names, expected, "point {point}: {csv}");
    }
}
