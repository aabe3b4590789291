//! An isolated articulated rotor in vacuum through `orchestrator linearize` and `modes` (lag and
//! flap roots against the closed forms, the modes sweep), and linearisations against runs of the
//! nonlinear co-simulation: flap decay, roll response to lateral cyclic, ground resonance growth,
//! Seed Table 3.

use super::*;

/// The isolated rotor of the command-line tests: three blades on a fixed hub in vacuum, lag
/// hinge offset `e` with static moment `S`, inertia `I`, lag spring `k` and damper `c`, at
/// `Omega` (written as `DIR/rotor.json`).
const ROTOR: (f64, f64, f64, f64, f64, f64) = (30.0, 0.3, 390.0, 1953.0, 20000.0, 500.0);

fn rotor_system(dir: &Path) -> PathBuf {
    let (omega, e, s, i, k, c) = ROTOR;
    let json = format!(
        r#"{{
  "fmus": {{ "rotor": {{ "model": "Rotor", "parameters": {{
      "nb": 3, "Omega": {omega}, "R": 7.5, "e": {e}, "blade.m": 100.0, "blade.S": {s}, "blade.I": {i},
      "blade.I_pitch": 0.0, "k_lag": {k}, "c_lag": {c}, "k_flap": 0.0 }} }} }},
  "connections": [],
  "experiment": {{ "start": 0.0, "stop": 1.0, "step": 0.001 }},
  "outputs": ["rotor.hub.F.z"]
}}"#
    );
    let system = dir.join("rotor.json");
    std::fs::write(&system, json).unwrap();
    system
}

/// Runs `orchestrator ARGS` on our packaged FMUs; its standard output (the run must succeed).
pub(super) fn orchestrator<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .args(args)
        .env("ROTORCRAFT_FMU_DIR", common::fmu_dir())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The first Fourier coefficient at `f` Hz of the recorded `name` over the times in `window`
/// (whole periods): the complex amplitude `a` of `a e^(i 2 pi f t)`.
pub(super) fn first_harmonic(results: &Results, name: &str, f: f64, window: std::ops::Range<f64>) -> Complex<f64> {
    let x = results.column(name).unwrap();
    let (mut sum, mut n) = (Complex::new(0.0, 0.0), 0.0);
    for (&t, &v) in results.time.iter().zip(&x) {
        if window.contains(&t) {
            sum += Complex::from_polar(v, -std::f64::consts::TAU * f * t);
            n += 1.0;
        }
    }
    sum * (2.0 / n)
}

/// The frequency response `what` of the co-simulation, `nonlinear`, against the linear model's
/// `linear`: its magnitude within the fraction `magnitude` and its phase within `degrees`.
pub(super) fn assert_response_matches(
    what: &str,
    linear: Complex<f64>,
    nonlinear: Complex<f64>,
    magnitude: f64,
    degrees: f64,
) {
    eprintln!(
        "{what}: linear {:.4} at {:.2} deg, co-simulation {:.4} at {:.2} deg",
        linear.norm(),
        linear.arg().to_degrees(),
        nonlinear.norm(),
        nonlinear.arg().to_degrees()
    );
    assert!((nonlinear.norm() / linear.norm() - 1.0).abs() < magnitude, "{what}: {nonlinear} vs {linear}");
    assert!((nonlinear.arg() - linear.arg()).abs().to_degrees() < degrees, "{what}: {nonlinear} vs {linear}");
}

/// A JSON file.
pub(super) fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// An articulated rotor on a fixed hub in vacuum, through the command line: in the rotating
/// frame every blade has the flap root `i sqrt(1 + e S / I) Omega` and the lag root
/// `-c / 2I +- i sqrt(e S Omega^2 / I + k / I - (c / 2I)^2)`; the unused blades' states are
/// removed as inert.
#[test]
fn isolated_rotor_roots_match_the_closed_forms() {
    let (omega, e, s, i, k, c) = ROTOR;
    let dir = tempfile::tempdir().unwrap();
    let system = rotor_system(dir.path());
    let out = dir.path().join("lin.json");
    let stdout = orchestrator([OsStr::new("linearize"), system.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(dir.path().join("lin.mat").is_file());
    let lin = read_json(&out);
    assert_eq!(lin["states"].as_array().unwrap().len(), 12, "lag and flap of 3 blades, angles and rates");
    assert_eq!(lin["inert_states_removed"].as_array().unwrap().len(), 34 - 12);
    let flap = (1.0 + e * s / i).sqrt() * omega;
    let decay = c / (2.0 * i);
    let lag = (e * s * omega * omega / i + k / i - decay * decay).sqrt();
    let eigenvalues = lin["eigenvalues"].as_array().unwrap();
    assert_eq!(eigenvalues.len(), 12);
    for ev in eigenvalues {
        let (re, im) = (ev["re"].as_f64().unwrap(), ev["im"].as_f64().unwrap());
        let mode = ev["mode"].as_str().unwrap();
        if mode == "rotor.blade[*].flap" {
            assert!(re.abs() < 1e-9 && (im.abs() - flap).abs() < 1e-9 * flap, "flap {re} {im} vs {flap}");
        } else {
            assert_eq!(mode, "rotor.blade[*].lag");
            assert!((re + decay).abs() < 1e-9 && (im.abs() - lag).abs() < 1e-9 * lag, "lag {re} {im} vs {lag}");
        }
    }
    assert!(stdout.contains("rotor.blade[*].lag") && stdout.contains("22 inert ones removed"), "{stdout}");

    // Floquet exponents over a revolution (36 linearisations along the co-simulated trajectory):
    // the same roots modulo Omega (degenerate over the blades: any fixed-frame harmonic).
    let out = dir.path().join("floquet.json");
    orchestrator([
        OsStr::new("linearize"),
        system.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--floquet".as_ref(),
        "36".as_ref(),
    ]);
    let floquet = read_json(&out);
    let exponents = floquet["floquet"].as_array().unwrap();
    assert_eq!(exponents.len(), 12);
    for ev in exponents {
        let (re, im) = (ev["re"].as_f64().unwrap(), ev["im"].as_f64().unwrap());
        let modulo = |w: f64| ((w + 0.5 * omega).rem_euclid(omega) - 0.5 * omega).abs();
        if ev["mode"].as_str().unwrap().starts_with("rotor.flap.") {
            assert!(re.abs() < 1e-8 && (modulo(im) - modulo(flap)).abs() < 1e-6, "flap exponent {re} {im}");
        } else {
            assert!(ev["mode"].as_str().unwrap().starts_with("rotor.lag."), "{ev}");
            assert!((re + decay).abs() < 1e-8 && (modulo(im) - modulo(lag)).abs() < 1e-6, "lag exponent {re} {im}");
        }
    }

    // In multiblade coordinates the collective roots stay and the cyclic ones move by Omega:
    // regressive omega_r - Omega (flap: (nu - 1) Omega), progressive omega_r + Omega.
    let out = dir.path().join("mbc.json");
    orchestrator([
        OsStr::new("linearize"),
        system.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--multiblade".as_ref(),
    ]);
    let mbc = read_json(&out);
    let states: Vec<&str> = mbc["states"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert!(states.contains(&"rotor.flap.1c") && states.contains(&"rotor.lag.1s_rate"), "{states:?}");
    let expected = [
        ("rotor.flap.collective", 0.0, flap),
        ("rotor.flap.cyclic regressive", 0.0, flap - omega),
        ("rotor.flap.cyclic progressive", 0.0, flap + omega),
        ("rotor.lag.collective", -decay, lag),
        ("rotor.lag.cyclic regressive", -decay, omega - lag),
        ("rotor.lag.cyclic progressive", -decay, omega + lag),
    ];
    for ev in mbc["eigenvalues"].as_array().unwrap() {
        let (re, im) = (ev["re"].as_f64().unwrap(), ev["im"].as_f64().unwrap());
        let mode = ev["mode"].as_str().unwrap();
        let (_, want_re, want_im) = expected.iter().find(|(m, ..)| *m == mode).unwrap_or_else(|| panic!("mode {mode}"));
        assert!((re - want_re).abs() < 1e-8 && (im.abs() - want_im).abs() < 1e-8 * omega, "{mode}: {re} {im}");
    }
}

/// Rotor + Aero in hover without gravity, pitch or twist (`flap-response.json` without its
/// pitch step): the flap mode with aerodynamic damping from the linear model about beta = 0,
/// against the frequency (zero crossings) and decay (successive peaks) of the nonlinear
/// co-simulation released from beta = 0.005 rad.
#[test]
fn flap_mode_matches_the_decay_of_the_nonlinear_co_simulation() {
    let text = std::fs::read_to_string(test_fmus::fixtures::example_path("flap-response.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.as_object_mut().unwrap().remove("inputs");
    json["outputs"] = serde_json::json!(["rotor.blade[1].flap"]);
    json["experiment"]["stop"] = serde_json::json!(0.6);
    let mut description = |beta0: f64| {
        json["fmus"]["rotor"]["parameters"]["blade.beta0"] = serde_json::json!(beta0);
        common::description_from_json(&json)
    };
    let linear = description(0.0);
    let mut master =
        Master::new_model_exchange(common::resolve(&linear), &mut FmuCache::default(), common::logger()).unwrap();
    master.initialize().unwrap();
    let lin = master.linearize(&[]).unwrap();
    let lin = lin.without_states(&lin.inert_states());
    let flap = lin
        .modes(&RotorNaming::default())
        .unwrap()
        .into_iter()
        .find(|m| m.name == "rotor.blade[*].flap" && m.eigenvalue.im > 0.0)
        .unwrap();

    let (results, _) = common::run_description(&description(0.005));
    let (t, beta) = (&results.time, results.column("rotor.blade[1].flap").unwrap());
    let crossings: Vec<f64> = (1..t.len())
        .filter(|&i| beta[i - 1] * beta[i] < 0.0)
        .map(|i| t[i - 1] + (t[i] - t[i - 1]) * beta[i - 1] / (beta[i - 1] - beta[i]))
        .collect();
    let omega = std::f64::consts::PI * (crossings.len() - 1) as f64 / (crossings[crossings.len() - 1] - crossings[0]);
    // Peaks of |beta| (parabola through the three samples), half a period apart.
    let peaks: Vec<(f64, f64)> = (1..t.len() - 1)
        .filter(|&i| beta[i].abs() > beta[i - 1].abs() && beta[i].abs() >= beta[i + 1].abs())
        .map(|i| {
            let (y0, y1, y2) = (beta[i - 1].abs(), beta[i].abs(), beta[i + 1].abs());
            let d = (y0 - y2) / (2.0 * (y0 - 2.0 * y1 + y2));
            (t[i] + d * (t[i] - t[i - 1]), y1 - 0.25 * (y0 - y2) * d)
        })
        .collect();
    let (first, last) = (peaks[0], peaks[peaks.len() - 1]);
    let sigma = (last.1 / first.1).ln() / (last.0 - first.0);
    let (re, im) = (flap.eigenvalue.re, flap.eigenvalue.im);
    eprintln!("flap mode: linear {re:.5} +- {im:.5}i, co-simulation {sigma:.5} +- {omega:.5}i");
    assert!(crossings.len() >= 4 && peaks.len() >= 3);
    assert!((omega - im).abs() < 1e-3 * im, "frequency {omega} vs {im}");
    assert!((sigma - re).abs() < 1e-3 * re.abs(), "decay {sigma} vs {re}");
}

/// `orchestrator modes` over a lag-damper sweep of the isolated rotor: the collective lag decay
/// rate is `-c / 2I` at every point (closed form), and the eigenvalue map and the
/// frequency/damping chart are drawn.
#[test]
fn modes_sweep_follows_the_closed_form_and_draws_its_charts() {
    let (i, c_values) = (ROTOR.3, [100.0, 400.0, 900.0]);
    let dir = tempfile::tempdir().unwrap();
    let system = rotor_system(dir.path());
    let out = dir.path().join("modes");
    let sweep = format!("rotor.c_lag={}", c_values.map(|c| c.to_string()).join(","));
    orchestrator([
        OsStr::new("modes"),
        system.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--multiblade".as_ref(),
        "--sweep".as_ref(),
        sweep.as_ref(),
    ]);
    let csv = std::fs::read_to_string(out.join("modes.csv")).unwrap();
    for (p, c) in c_values.iter().enumerate() {
        let decay: Vec<f64> = csv
            .lines()
            .filter(|l| l.starts_with(&format!("{p},")) && l.ends_with("\"rotor.lag.collective\""))
            .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
            .collect();
        assert_eq!(decay.len(), 2, "a conjugate pair at point {p}: {csv}");
        assert!(decay.iter().all(|re| (re + c / (2.0 * i)).abs() < 1e-9), "c = {c}: {decay:?}");
    }
    for chart in ["eigenvalues.svg", "frequency-damping.svg"] {
        let svg = std::fs::read_to_string(out.join(chart)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("rotor.lag.cyclic regressive"), "{chart}");
    }
}

/// Frequency response of the coupled helicopter in hover, roll rate to lateral cyclic at 1 Hz:
/// the linear model's `G(i omega)` (multiblade coordinates) against the nonlinear co-simulation driven by a sine of
/// 0.001 rad about the trim (the first Fourier coefficient of `p` over `lat_cyclic`, 2 to 6 s).
#[test]
fn roll_response_to_lateral_cyclic_matches_a_sine_run_of_the_nonlinear_co_simulation() {
    let text = std::fs::read_to_string(test_fmus::fixtures::example_path("helicopter.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let description = common::description_from_json;
    let mut master =
        Master::new_model_exchange(common::resolve(&description(&json)), &mut FmuCache::default(), common::logger())
            .unwrap();
    master.initialize().unwrap();
    // In multiblade coordinates: the rotating-frame model frozen at the start azimuth is not the
    // hover's time-invariant model.
    let lin = master.linearize(&[]).unwrap();
    let rotors = Rotors::read(&mut master).unwrap();
    let lin = lin.without_states(&lin.inert_states()).transformed(&rotors).unwrap();
    let (i, o) = lin.input_output("controls.lat_cyclic", "fuselage.p").unwrap();
    let linear = lin.frequency_response(i, o, &[std::f64::consts::TAU])[0].unwrap();

    for input in json["inputs"].as_array_mut().unwrap() {
        if input["to"] == "controls.lat_cyclic" {
            let trim = input["signal"]["constant"].as_f64().unwrap();
            input["signal"] = serde_json::json!({ "sine": { "amplitude": 0.001, "frequency": 1.0, "offset": trim } });
        }
    }
    json["experiment"]["stop"] = serde_json::json!(6.0);
    json["outputs"] = serde_json::json!(["fuselage.p", "controls.lat_cyclic"]);
    let (results, _) = common::run_description(&description(&json));
    let nonlinear = first_harmonic(&results, "fuselage.p", 1.0, 2.0..6.0)
        / first_harmonic(&results, "controls.lat_cyclic", 1.0, 2.0..6.0);
    assert_response_matches("p / lat_cyclic at 1 Hz", linear, nonlinear, 0.02, 1.0);

    // The command line's Bode table says the same near 1 Hz.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lin.json");
    let helicopter = test_fmus::fixtures::example_path("helicopter.json");
    let bode = ["--multiblade", "--bode", "controls.lat_cyclic:fuselage.p", "--out"].map(OsStr::new);
    orchestrator([OsStr::new("linearize"), helicopter.as_os_str()].into_iter().chain(bode).chain([out.as_os_str()]));
    assert!(dir.path().join("lin.bode.svg").is_file());
    let csv = std::fs::read_to_string(dir.path().join("lin.bode.csv")).unwrap();
    let row: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect::<Vec<f64>>())
        .min_by(|a, b| (a[0] - 1.0).abs().total_cmp(&(b[0] - 1.0).abs()))
        .unwrap();
    assert!((row[1] / linear.norm() - 1.0).abs() < 0.01 && (row[3] - linear.arg().to_degrees()).abs() < 1.0, "{row:?}");
}

/// Ground resonance of the Bo105-class helicopter on its gear without lag dampers
/// (`examples/ground-run.json`, `rotor.c_lag = 0`): the growth rate of the regressive lag mode of
/// the linear model about the settled state (`linearize --settle 5 --multiblade`) against the
/// growth of the cyclic lag amplitude in the nonlinear co-simulation (least-squares fit of its
/// logarithm over 10-30 s).
#[test]
fn settled_ground_resonance_growth_matches_the_nonlinear_co_simulation() {
    let ground_run = test_fmus::fixtures::example_path("ground-run.json");
    let dir = tempfile::tempdir().unwrap();
    let regressive_lag_growth = |extra: &[&str]| {
        let out = dir.path().join(format!("lin{}.json", extra.len()));
        let args = ["linearize", ground_run.to_str().unwrap(), "--multiblade", "--set", "rotor.c_lag=0", "--out"];
        orchestrator(args.into_iter().chain([out.to_str().unwrap()]).chain(extra.iter().copied()));
        let lin = read_json(&out);
        let modes = lin["eigenvalues"].as_array().unwrap();
        let mode = modes.iter().find(|m| m["mode"] == "rotor.lag.cyclic regressive" && m["im"].as_f64().unwrap() > 0.0);
        mode.unwrap()["re"].as_f64().unwrap()
    };
    let at_start = regressive_lag_growth(&[]);
    let settled = regressive_lag_growth(&["--settle", "5"]);

    let text = std::fs::read_to_string(&ground_run).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["fmus"]["rotor"]["parameters"]["c_lag"] = serde_json::json!(0.0);
    json["experiment"]["stop"] = serde_json::json!(30.0);
    json["outputs"] = serde_json::json!(["rotor.blade[*].lag", "rotor.blade[*].azimuth"]);
    let (results, _) = common::run_description(&common::description_from_json(&json));
    let nb = 4;
    let columns = |what: &str| -> Vec<Vec<f64>> {
        (1..=nb).map(|k| results.column(&format!("rotor.blade[{k}].{what}")).unwrap()).collect()
    };
    let (lag, azimuth) = (columns("lag"), columns("azimuth"));
    // Cyclic lag (fixed frame): (2/N) sum lag_k (cos psi_k, sin psi_k); its length grows as e^(sigma t).
    let (mut st, mut sl, mut stt, mut stl, mut n) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, &t) in results.time.iter().enumerate() {
        if !(10.0..=30.0).contains(&t) {
            continue;
        }
        let (c, s) = (0..nb)
            .fold((0.0, 0.0), |(c, s), k| (c + lag[k][i] * azimuth[k][i].cos(), s + lag[k][i] * azimuth[k][i].sin()));
        let l = (2.0 / nb as f64 * c.hypot(s)).ln();
        (st, sl, stt, stl, n) = (st + t, sl + l, stt + t * t, stl + t * l, n + 1.0);
    }
    let nonlinear = (n * stl - st * sl) / (n * stt - st * st);
    eprintln!(
        "regressive lag growth: nonlinear {nonlinear:.5} 1/s; linear about the settled state {settled:.5}, about \
         the start {at_start:.5}"
    );
    assert!(nonlinear > 0.0 && (settled / nonlinear - 1.0).abs() < 0.01, "{settled} vs {nonlinear}");
}

/// The bond-graph seed's Table 3 helicopter in hover (`examples/seed-table3-hover.json`: lateral
/// and roll airframe freedoms, four blades with lag damper and flap hinge, Lock number 9, no
/// inflow), in multiblade coordinates about the state settled for 2 s. The seed's modal map shows
/// lightly damped regressing and advancing lag modes (soft in-plane: lag frequency below Omega)
/// beside aerodynamically damped flap modes, and its lateral cyclic sweep shows the two lag peaks
/// in the airframe response. Checked here: the differential lag root (no hub coupling) against
/// the closed form of the hinged blade in vacuum; the regressing and advancing lag modes lightly damped near
/// `Omega -+ omega_lag`; peaks of `|v / lat_cyclic|` at both; and the linear response at the
/// regressing lag peak against a sine run of the nonlinear co-simulation.
#[test]
fn seed_table3_lag_modes_and_lateral_cyclic_response() {
    let text = std::fs::read_to_string(test_fmus::fixtures::example_path("seed-table3-hover.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rotor = &json["fmus"]["rotor"]["parameters"];
    let p = |name: &str| rotor[name].as_f64().unwrap();
    let (omega, e, s, i, k, c) = (p("Omega"), p("e"), p("blade.S"), p("blade.I"), p("k_lag"), p("c_lag"));
    let omega_lag = (k / i + e * s * omega * omega / i).sqrt();
    let (lag_re, lag_im) = (-c / (2.0 * i), (omega_lag * omega_lag - (c / (2.0 * i)).powi(2)).sqrt());

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lin.json");
    let system = test_fmus::fixtures::example_path("seed-table3-hover.json");
    let args = ["--multiblade", "--settle", "2", "--bode", "controls.lat_cyclic:fuselage.v", "--out"];
    orchestrator(
        [OsStr::new("linearize"), system.as_os_str()].into_iter().chain(args.map(OsStr::new)).chain([out.as_os_str()]),
    );
    let lin = read_json(&out);
    let modes: Vec<(String, f64, f64, f64)> = lin["eigenvalues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["im"].as_f64().unwrap() > 0.0)
        .map(|m| {
            let v = |key: &str| m[key].as_f64().unwrap_or(f64::NAN);
            (m["mode"].as_str().unwrap().to_string(), v("re"), v("im"), v("damping"))
        })
        .collect();
    let mode = |name: &str| modes.iter().find(|m| m.0 == name).unwrap_or_else(|| panic!("{name} in {modes:?}"));
    let differential = mode("rotor.lag.differential");
    // Not exact: the coning (0.0175 rad) and the lift's in-plane component couple lag with flap.
    assert!(
        (differential.1 - lag_re).abs() < 1e-3 * lag_im && (differential.2 - lag_im).abs() < 1e-3 * lag_im,
        "{differential:?} vs {lag_re} +- {lag_im}i"
    );
    let (regressing, advancing) = (mode("rotor.lag.cyclic regressive"), mode("rotor.lag.cyclic progressive"));
    for (lag, fixed_frame) in [(regressing, omega - omega_lag), (advancing, omega + omega_lag)] {
        eprintln!("{}: {:.4} rad/s (uncoupled {fixed_frame:.4}), damping ratio {:.4}", lag.0, lag.2, lag.3);
        assert!((lag.2 / fixed_frame - 1.0).abs() < 0.1 && lag.3 > 0.0 && lag.3 < 0.05, "{lag:?}");
    }
    for flap in [mode("rotor.flap.cyclic regressive"), mode("rotor.flap.cyclic progressive")] {
        assert!(flap.3 > 0.2, "aerodynamically damped flap: {flap:?}");
    }

    // The lateral velocity's response to lateral cyclic peaks at both lag modes.
    let peaks = bode_peaks(&dir.path().join("lin.bode.csv"));
    for lag in [regressing, advancing] {
        let f = lag.2 / std::f64::consts::TAU;
        assert!(peaks.iter().any(|p| (p / f - 1.0).abs() < 0.02), "no peak near {f} Hz in {peaks:?}");
    }

    // At the regressing lag peak, the linear response against a sine run of the co-simulation.
    lateral_cyclic_response_against_cosimulation(json, regressing.2 / std::f64::consts::TAU);
}

/// The frequencies (Hz) of the local maxima of the gain in a Bode CSV (frequency, gain, ...).
fn bode_peaks(path: &std::path::Path) -> Vec<f64> {
    let csv = std::fs::read_to_string(path).unwrap();
    let rows: Vec<(f64, f64)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let v: Vec<f64> = l.split(',').map(|v| v.parse().unwrap()).collect();
            (v[0], v[1])
        })
        .collect();
    rows.windows(3).filter(|w| w[1].1 > w[0].1 && w[1].1 > w[2].1).map(|w| w[1].0).collect()
}

/// `fuselage.v / controls.lat_cyclic` at `f` Hz of the system `json`: the linear response about
/// the initial state against a sine run of the co-simulation (first Fourier coefficients over whole
/// periods after the transient has decayed).
fn lateral_cyclic_response_against_cosimulation(mut json: serde_json::Value, f: f64) {
    let description = common::description_from_json(&json);
    let mut master =
        Master::new_model_exchange(common::resolve(&description), &mut FmuCache::default(), common::logger()).unwrap();
    master.initialize().unwrap();
    let linear = master.linearize(&[]).unwrap();
    let rotors = Rotors::read(&mut master).unwrap();
    let linear = linear.without_states(&linear.inert_states()).transformed(&rotors).unwrap();
    let (ui, yo) = linear.input_output("controls.lat_cyclic", "fuselage.v").unwrap();
    let linear = linear.frequency_response(ui, yo, &[std::f64::consts::TAU * f])[0].unwrap();
    for input in json["inputs"].as_array_mut().unwrap() {
        if input["to"] == "controls.lat_cyclic" {
            input["signal"] = serde_json::json!({ "sine": { "amplitude": 0.0005, "frequency": f } });
        }
    }
    let periods = 30.0;
    let (from, to) = (12.0, 12.0 + periods / f);
    json["experiment"]["stop"] = serde_json::json!(to + 0.01);
    json["outputs"] = serde_json::json!(["fuselage.v", "controls.lat_cyclic"]);
    let (results, _) = common::run_description(&common::description_from_json(&json));
    let nonlinear = first_harmonic(&results, "fuselage.v", f, from..to)
        / first_harmonic(&results, "controls.lat_cyclic", f, from..to);
    assert_response_matches(&format!("v / lat_cyclic at {f:.4} Hz"), linear, nonlinear, 0.03, 2.0);
}

/// A per-blade lag damper factor (`blade[n].c_lag_factor`): on a fixed hub the blades are
/// independent, so blade 2 with half its damper has the lag root of `c / 2` and the others that
/// of `c` (closed form `-c / 2I +- i sqrt(e S Omega^2 / I + k / I - (c / 2I)^2)`).
#[test]
fn a_blade_with_its_own_damper_factor_has_its_own_lag_root() {
    let (omega, e, s, i, k, c) = ROTOR;
    let dir = tempfile::tempdir().unwrap();
    let system = rotor_system(dir.path());
    let out = dir.path().join("lin.json");
    let args = ["linearize", system.to_str().unwrap(), "--set", "rotor.blade[2].c_lag_factor=0.5", "--out"];
    orchestrator(args.into_iter().chain([out.to_str().unwrap()]));
    let lin = read_json(&out);
    let mut lag: Vec<(f64, f64)> = lin["eigenvalues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["mode"] == "rotor.blade[*].lag" && m["im"].as_f64().unwrap() > 0.0)
        .map(|m| (m["re"].as_f64().unwrap(), m["im"].as_f64().unwrap()))
        .collect();
    lag.sort_by(|p, q| p.0.total_cmp(&q.0));
    let root = |c: f64| {
        let decay = c / (2.0 * i);
        (-decay, (e * s * omega * omega / i + k / i - decay * decay).sqrt())
    };
    let want = [root(c), root(c), root(0.5 * c)];
    assert_eq!(lag.len(), 3, "{lag:?}");
    for (got, want) in lag.iter().zip(want) {
        assert!((got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9 * want.1, "{got:?} vs {want:?}");
    }
}
