//! Lateral-roll rotorcraft-pilot coupling on the bond-graph seed's Table 3 helicopter in hover with
//! the Pilot's lateral arm (`examples/seed-table3-hover-pilot.json`: cockpit lateral specific
//! force to lateral cyclic through the parametric second-order arm, `model = 3`, stick gearing
//! G = 0.1 of Table 3 in `lateral.K`). `orchestrator modes --multiblade --sweep pilot.gain=...`
//! finds the gain at which the regressive lag mode crosses `Re = 0`; nonlinear co-simulations just
//! below and just above it decay and grow at the linear rates. See docs/rpc-lateral.md.

use super::rotor::orchestrator;
use super::*;

const EXAMPLE: &str = "seed-table3-hover-pilot.json";

/// The regressive lag mode's real part (1/s) at each point of a `modes --sweep` of `pilot.gain`
/// over `gains`, with the extra `--set` arguments `sets`.
fn regressive_lag_growth(gains: &[f64], sets: &[String]) -> Vec<f64> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("modes");
    let system = test_fmus::fixtures::example_path(EXAMPLE);
    let sweep = format!("pilot.gain={}", gains.iter().map(f64::to_string).collect::<Vec<_>>().join(","));
    let mut args: Vec<OsString> =
        ["modes".into(), system.into_os_string(), "--out".into(), out.clone().into_os_string()]
            .into_iter()
            .chain(["--multiblade", "--sweep", &sweep].map(OsString::from))
            .collect();
    for set in sets {
        args.extend([OsString::from("--set"), OsString::from(set)]);
    }
    orchestrator(&args);
    let csv = std::fs::read_to_string(out.join("modes.csv")).unwrap();
    (0..gains.len())
        .map(|p| {
            let row = csv.lines().find(|l| {
                let f: Vec<&str> = l.split(',').collect();
                f[0] == p.to_string() && f[6] == "\"rotor.lag.cyclic regressive\"" && f[3].parse::<f64>().unwrap() > 0.0
            });
            row.unwrap_or_else(|| panic!("no regressive lag mode at point {p}: {csv}"))
                .split(',')
                .nth(2)
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

/// The pilot gain at which the regressive lag mode's real part crosses zero, from two `modes`
/// sweeps (gain 0 to 16 by 1, then eleven points across the bracketing step), interpolated
/// linearly within the last step (0.1 wide).
fn critical_gain(sets: &[String]) -> f64 {
    let bracket = |gains: &[f64]| -> (f64, f64, f64, f64) {
        let growth = regressive_lag_growth(gains, sets);
        let k = growth.iter().position(|&re| re > 0.0).unwrap_or_else(|| panic!("stable up to {gains:?}: {growth:?}"));
        assert!(k > 0, "unstable without the pilot: {growth:?}");
        (gains[k - 1], gains[k], growth[k - 1], growth[k])
    };
    let coarse: Vec<f64> = (0..=16).map(f64::from).collect();
    let (lo, hi, ..) = bracket(&coarse);
    let fine: Vec<f64> = (0..=10).map(|k| lo + (hi - lo) * f64::from(k) / 10.0).collect();
    let (lo, hi, re_lo, re_hi) = bracket(&fine);
    lo + (hi - lo) * re_lo / (re_lo - re_hi)
}

/// Growth rate (1/s) of the cyclic lag amplitude `(2/N) |sum lag_k e^(i psi_k)|` (fixed frame)
/// in a nonlinear co-simulation at pilot gain `gain`, started with a roll rate of 0.01 rad/s:
/// least-squares slope of its logarithm over 4-16 s (the other rotor and arm modes have decayed).
fn nonlinear_growth(gain: f64) -> f64 {
    let text = std::fs::read_to_string(test_fmus::fixtures::example_path(EXAMPLE)).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["fmus"]["pilot"]["parameters"]["gain"] = serde_json::json!(gain);
    json["fmus"]["fuselage"]["parameters"]["p0"] = serde_json::json!(0.01);
    json["experiment"]["stop"] = serde_json::json!(16.0);
    json["outputs"] = serde_json::json!(["rotor.blade[*].lag", "rotor.blade[*].azimuth"]);
    let (results, _) = common::run_description(&common::description_from_json(&json));
    let nb = 4;
    let column = |k: usize, what: &str| results.column(&format!("rotor.blade[{k}].{what}")).unwrap();
    let (lag, azimuth): (Vec<_>, Vec<_>) = (1..=nb).map(|k| (column(k, "lag"), column(k, "azimuth"))).unzip();
    let (mut st, mut sl, mut stt, mut stl, mut n) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, &t) in results.time.iter().enumerate().filter(|(_, t)| (4.0..=16.0).contains(*t)) {
        let (c, s) = (0..nb)
            .fold((0.0, 0.0), |(c, s), k| (c + lag[k][i] * azimuth[k][i].cos(), s + lag[k][i] * azimuth[k][i].sin()));
        let l = (2.0 / nb as f64 * c.hypot(s)).ln();
        (st, sl, stt, stl, n) = (st + t, sl + l, stt + t * t, stl + t * l, n + 1.0);
    }
    (n * stl - st * sl) / (n * stt - st * st)
}

/// The regressive lag mode loses damping as the pilot gain grows (the trend the RPC literature
/// describes for the lateral-roll case); at 0.9 and 1.1 times the critical gain that `modes`
/// finds, the nonlinear co-simulation decays and grows, at the linear rates within 10 %.
#[test]
fn the_critical_pilot_gain_from_modes_separates_decay_from_growth_in_nonlinear_runs() {
    let gains: Vec<f64> = (0..=16).map(f64::from).collect();
    let growth = regressive_lag_growth(&gains, &[]);
    assert!(growth[0] < 0.0 && growth[16] > 0.0, "{growth:?}");
    assert!(growth.windows(2).all(|w| w[1] > w[0]), "damping falls monotonically with the gain: {growth:?}");
    let critical = critical_gain(&[]);
    let (below, above) = (0.9 * critical, 1.1 * critical);
    let linear = regressive_lag_growth(&[below, above], &[]);
    let nonlinear = [nonlinear_growth(below), nonlinear_growth(above)];
    eprintln!(
        "critical pilot gain {critical:.4}; growth at {below:.4}: linear {:.5}, nonlinear {:.5} 1/s; at {above:.4}: \
         linear {:.5}, nonlinear {:.5} 1/s",
        linear[0], nonlinear[0], linear[1], nonlinear[1]
    );
    assert!(nonlinear[0] < 0.0 && nonlinear[1] > 0.0, "{nonlinear:?}");
    for (l, n) in linear.iter().zip(nonlinear) {
        assert!((n / l - 1.0).abs() < 0.1, "linear {l} against nonlinear {n}");
    }
}

/// The lag damper stabilises: the critical pilot gain rises with the damper's `c_lag`.
#[test]
fn more_lag_damping_raises_the_critical_pilot_gain() {
    let critical: Vec<f64> = [1000.0, 2000.0, 3000.0].map(|c| critical_gain(&[format!("rotor.c_lag={c}")])).to_vec();
    eprintln!("critical pilot gain at c_lag = 1000, 2000, 3000 N m s/rad: {critical:?}");
    assert!(critical.windows(2).all(|w| w[1] > w[0]), "{critical:?}");
}
