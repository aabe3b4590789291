//! Collective bounce on the ground (`examples/ground-run-pilot.json`: the Bo105-class helicopter
//! on its gear, rotor turning, with Mayo's mesomorphic pilot closing cockpit vertical
//! acceleration to the collective): the root locus of `orchestrator modes` over the pilot gain
//! and its stability boundary against the growth and decay of the nonlinear co-simulation; the
//! Bode path of `linearize --bode` against Mayo's transfer function; the ground frequency
//! response from the collective lever to the cockpit's vertical acceleration against sine runs.

use super::rotor::{assert_response_matches, first_harmonic, orchestrator, read_json};
use super::*;

/// The example's system file.
fn ground_run_pilot() -> PathBuf {
    test_fmus::fixtures::example_path("ground-run-pilot.json")
}

/// The example as JSON with the pilot gain `vertical.K` set, recording `outputs`, stopping at
/// `stop` s.
fn ground_run_pilot_json(gain: f64, outputs: &[&str], stop: f64) -> serde_json::Value {
    let mut json = read_json(&ground_run_pilot());
    json["fmus"]["pilot"]["parameters"]["vertical.K"] = serde_json::json!(gain);
    json["outputs"] = serde_json::json!(outputs);
    json["experiment"]["stop"] = serde_json::json!(stop);
    json
}

/// The multiblade linear model of `json` about its start (the example starts on its settled
/// state), from the Model Exchange instances.
fn linear_model(json: &serde_json::Value) -> cosim::linear::LinearModel {
    let description = common::description_from_json(json);
    let mut master =
        Master::new_model_exchange(common::resolve(&description), &mut FmuCache::default(), common::logger()).unwrap();
    master.initialize().unwrap();
    let linear = master.linearize(&[]).unwrap();
    let rotors = Rotors::read(&mut master).unwrap();
    linear.without_states(&linear.inert_states()).transformed(&rotors).unwrap()
}

/// The exponential rate (1/s) of the component at `omega` (rad/s) of the recorded `name` over
/// `window`: its first Fourier coefficient over each period, whose logarithm of the magnitude is
/// fitted by least squares (the other modes and the mean do not enter, unlike a peak envelope).
fn growth_rate_at(results: &Results, name: &str, omega: f64, window: std::ops::Range<f64>) -> f64 {
    let (f, period) = (omega / std::f64::consts::TAU, std::f64::consts::TAU / omega);
    let (mut st, mut sl, mut stt, mut stl, mut n) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut start = window.start;
    while start + period <= window.end {
        let (t, l) = (start + 0.5 * period, first_harmonic(results, name, f, start..start + period).norm().ln());
        (st, sl, stt, stl, n) = (st + t, sl + l, stt + t * t, stl + t * l, n + 1.0);
        start += period;
    }
    (n * stl - st * sl) / (n * stt - st * st)
}

/// The first Fourier coefficient at `f` Hz of the recorded `name` about its mean over `window`
/// (the mean, -g for an acceleration, would leak into it where the window is not whole periods
/// of the recording's steps).
fn harmonic_about_mean(results: &Results, name: &str, f: f64, window: std::ops::Range<f64>) -> Complex<f64> {
    let x = results.column(name).unwrap();
    let inside: Vec<(f64, f64)> =
        results.time.iter().zip(&x).filter(|(t, _)| window.contains(*t)).map(|(t, v)| (*t, *v)).collect();
    let mean = inside.iter().map(|(_, v)| v).sum::<f64>() / inside.len() as f64;
    let mut about_mean = Results::new(vec![name.to_string()], inside.len());
    for (t, v) in inside {
        about_mean.push(t, &[v - mean]);
    }
    first_harmonic(&about_mean, name, f, window)
}

/// The root locus over the pilot gain: `modes --sweep pilot.vertical.K=...` finds the stability
/// boundary (the collective flap, or coning, mode turning unstable) between 0.10 and 0.13 rad/g.
/// Independently, the nonlinear co-simulation at these two gains decays and grows at the linear
/// model's real part of that mode (least-squares fit of the logarithm of the biodynamic
/// collective's amplitude at the mode's frequency, period by period over 1.5-4.5 s), and the zero of the two nonlinear rates, interpolated
/// linearly, is the critical gain of `modes`.
#[test]
fn collective_bounce_critical_gain_matches_the_nonlinear_co_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("modes");
    let system = ground_run_pilot();
    let args = ["--multiblade", "--sweep", "pilot.vertical.K=0,0.05,0.10,0.13,0.16", "--out"];
    orchestrator(
        [OsStr::new("modes"), system.as_os_str()].into_iter().chain(args.map(OsStr::new)).chain([out.as_os_str()]),
    );
    let boundaries = read_json(&out.join("stability-boundaries.json"));
    let [boundary] = boundaries.as_array().unwrap().as_slice() else { panic!("one boundary: {boundaries}") };
    let critical = boundary["value"].as_f64().unwrap();
    assert_eq!(boundary["mode"], "rotor.flap.collective", "{boundary}");
    assert!(out.join("eigenvalues.svg").exists() && out.join("frequency-damping.svg").exists());

    let mut rates = Vec::new();
    for gain in [0.10, 0.13] {
        let json = ground_run_pilot_json(gain, &["pilot.bdft.collective"], 4.6);
        let linear = linear_model(&json);
        let modes = linear.modes(&RotorNaming::default()).unwrap();
        let coning = modes
            .iter()
            .filter(|m| m.eigenvalue.im > 20.0)
            .max_by(|a, b| a.eigenvalue.re.total_cmp(&b.eigenvalue.re))
            .unwrap()
            .eigenvalue;
        let (results, _) = common::run_description(&common::description_from_json(&json));
        let nonlinear = growth_rate_at(&results, "pilot.bdft.collective", coning.im, 1.5..4.5);
        eprintln!(
            "K = {gain}: least damped mode {:.4} +- {:.3}i 1/s ({:.3} Hz); nonlinear growth rate {nonlinear:.4} 1/s",
            coning.re,
            coning.im,
            coning.im / std::f64::consts::TAU
        );
        assert!((nonlinear - coning.re).abs() < 0.02 * coning.re.abs(), "K = {gain}: {nonlinear} vs {}", coning.re);
        rates.push(nonlinear);
    }
    assert!(rates[0] < 0.0 && rates[1] > 0.0, "{rates:?}");
    let nonlinear_critical = 0.10 + 0.03 * rates[0] / (rates[0] - rates[1]);
    eprintln!("critical gain: modes {critical:.5}, nonlinear runs {nonlinear_critical:.5} rad/g");
    assert!((critical / nonlinear_critical - 1.0).abs() < 0.02, "{critical} vs {nonlinear_critical}");
}

/// Mayo's mesomorphic pilot with gain 0.1 rad/g, from the cockpit's body-z specific force
/// (m/s^2) to the biodynamic collective (rad): `(K / g) (4.02 s + 555.4) / (s^2 + 13.31 s + 555.4)`.
fn mayo_closed_form(f: f64) -> Complex<f64> {
    let s = Complex::new(0.0, std::f64::consts::TAU * f);
    (s * 4.02 + 555.4) / (s * s + s * 13.31 + 555.4) * (0.1 / 9.80665)
}

/// `linearize --bode` on the Pilot alone (Mayo's mesomorphic pilot, `model = 2`) against
/// [`mayo_closed_form`] at every frequency of the CSV, over the default range (0.01-30 Hz, 400
/// points) and over `--bode-range 1:10:901`; the printed gain peak against the closed form's
/// maximum (a scan of 1e5 points), within the grid's spacing.
#[test]
fn bode_of_mayo_pilot_matches_its_transfer_function() {
    let dir = tempfile::tempdir().unwrap();
    let system = dir.path().join("pilot.json");
    let json = serde_json::json!({
        "fmus": { "pilot": { "model": "Pilot", "parameters": { "model": 2, "vertical.K": 0.1 } } },
        "connections": [],
        "experiment": { "start": 0.0, "stop": 1.0, "step": 0.001 },
        "inputs": [ { "to": "pilot.acc.z", "signal": { "constant": -9.80665 } } ],
        "outputs": [ "pilot.bdft.collective" ]
    });
    std::fs::write(&system, json.to_string()).unwrap();
    let peak = (0..100_000)
        .map(|k| 1.0 + 9.0 * k as f64 / 99_999.0)
        .max_by(|a, b| mayo_closed_form(*a).norm().total_cmp(&mayo_closed_form(*b).norm()))
        .unwrap();
    for (range, rows_expected, (lo, hi)) in [(None, 400, (0.01_f64, 30.0_f64)), (Some("1:10:901"), 901, (1.0, 10.0))] {
        let out = dir.path().join(format!("lin{rows_expected}.json"));
        let mut args = vec!["--bode", "pilot.acc.z:pilot.bdft.collective"];
        args.extend(range.map(|r| ["--bode-range", r]).into_iter().flatten());
        let stdout = orchestrator(
            [OsStr::new("linearize"), system.as_os_str()]
                .into_iter()
                .chain(args.into_iter().map(OsStr::new))
                .chain([OsStr::new("--out"), out.as_os_str()]),
        );
        let csv = std::fs::read_to_string(out.with_extension("bode.csv")).unwrap();
        let (mut worst_gain, mut worst_phase, mut frequencies) = (0.0_f64, 0.0_f64, Vec::new());
        for line in csv.lines().skip(1) {
            let v: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
            worst_gain = worst_gain.max((v[1] / mayo_closed_form(v[0]).norm() - 1.0).abs());
            worst_phase = worst_phase.max((v[3] - mayo_closed_form(v[0]).arg().to_degrees()).abs());
            frequencies.push(v[0]);
        }
        let printed: f64 = stdout
            .split("gain peaks at ")
            .nth(1)
            .and_then(|rest| rest.split(" Hz").next())
            .and_then(|f| f.parse().ok())
            .unwrap_or_else(|| panic!("no peak printed: {stdout}"));
        let spacing = (hi / lo).powf(1.0 / (rows_expected - 1) as f64);
        eprintln!(
            "{} frequencies {lo}-{hi} Hz: largest gain error {worst_gain:.2e} (relative), phase error {worst_phase:.2e} \
             deg; peak printed {printed} Hz, closed form {peak:.4} Hz",
            frequencies.len()
        );
        assert!(worst_gain < 1e-9 && worst_phase < 1e-7, "{worst_gain} {worst_phase}");
        assert_eq!(frequencies.len(), rows_expected);
        assert!((frequencies[0] / lo - 1.0).abs() < 1e-12 && (frequencies[rows_expected - 1] / hi - 1.0).abs() < 1e-12);
        assert!(printed / peak < spacing && peak / printed < spacing, "{printed} vs {peak}");
    }
}

/// The ground frequency response from the collective lever (`pilot.collective_cmd`, rad of
/// blade pitch) to the cockpit's body-z specific force (`fuselage.ext.acc.z`), without the pilot
/// (gain 0) and with it (0.05 rad/g, below the critical gain): the linear model's response
/// against sine runs of the nonlinear co-simulation (0.001 rad about the example's collective;
/// first Fourier coefficients about the mean over 12 periods after 6 s). With the pilot, the
/// response to the lever's whole motion (`pilot.collective`: voluntary plus biodynamic) is the
/// airframe's response without the pilot, as the bond-graph seed found its ground test's
/// transfer function pilot independent. The airframe's vertical mode on its gear lies between 2
/// and 3 Hz, where the seed's ground test shows its resonance.
#[test]
fn ground_frequency_response_matches_sine_runs_of_the_co_simulation() {
    let (input, lever, output) = ("pilot.collective_cmd", "pilot.collective", "fuselage.ext.acc.z");
    let response = |linear: &cosim::linear::LinearModel, f: f64| {
        let (ui, yo) = linear.input_output(input, output).unwrap();
        linear.frequency_response(ui, yo, &[std::f64::consts::TAU * f])[0].unwrap()
    };
    let without_pilot = linear_model(&ground_run_pilot_json(0.0, &[input, output], 1.0));
    let modes = without_pilot.modes(&RotorNaming::default()).unwrap();
    let heave = modes.iter().find(|m| m.name == "fuselage.position.z" && m.eigenvalue.im > 0.0).unwrap();
    eprintln!("vertical mode on the gear: {:.3} Hz, damping ratio {:.3}", heave.frequency_hz, heave.damping.unwrap());
    assert!((2.0..3.0).contains(&heave.frequency_hz), "{heave:?}");
    for (gain, f) in [(0.0, 2.5), (0.05, 2.0), (0.05, 3.0)] {
        let mut json = ground_run_pilot_json(gain, &[input, lever, output], 1.0);
        let linear = response(&linear_model(&json), f);
        for entry in json["inputs"].as_array_mut().unwrap() {
            if entry["to"] == input {
                let offset = entry["signal"]["constant"].as_f64().unwrap();
                entry["signal"] =
                    serde_json::json!({ "sine": { "amplitude": 0.001, "frequency": f, "offset": offset } });
            }
        }
        let (from, to) = (6.0, 6.0 + 12.0 / f);
        json["experiment"]["stop"] = serde_json::json!(to + 0.01);
        let (results, _) = common::run_description(&common::description_from_json(&json));
        let harmonic = |name: &str| harmonic_about_mean(&results, name, f, from..to);
        let what = format!("K = {gain}: acc.z / collective_cmd at {f} Hz");
        assert_response_matches(&what, linear, harmonic(output) / harmonic(input), 0.01, 0.5);
        let what = format!("K = {gain}: acc.z / pilot.collective at {f} Hz against the airframe without the pilot");
        assert_response_matches(&what, response(&without_pilot, f), harmonic(output) / harmonic(lever), 0.01, 0.5);
    }
}
