//! Co-simulation cost over monolithic cost, side by side in one run (issue 6): the same system,
//! the same simulated interval, the same recording grid.
//!
//! - `two_mass`: the two-mass oscillator with its force/acceleration loop (`TwoMassBody` +
//!   `TwoMassLoad`), 5 s, macro step 10 ms.
//! - `flap`: Rotor + Aero on a fixed hub (seed 004 Table 1, 4 blades, lag locked), 0.5 s, macro
//!   step 5 degrees of azimuth (3.0 ms).
//! - `helicopter`: `examples/helicopter.json` (Fuselage, main and tail Rotor and Aero, Controls;
//!   one 24-output loop) from its hover trim with a lateral-cyclic sine of 0.3 deg at 1 Hz, 14
//!   main-rotor revolutions (1.98 s), macro step 5 degrees of azimuth (1.97 ms); error of the roll
//!   rate `fuselage.p`.
//!
//! Each group times a whole run (initialization included, instantiation excluded) of:
//! `cosim_held` and `cosim_extrapolated` (the orchestrator's Newton master over the packaged
//! FMUs, inputs held or extrapolated), `monolithic_tight` (the reference at tolerance 1e-10,
//! recording on the same grid) and `monolithic_matched` (the cheapest reference run whose error
//! is no larger than the extrapolated co-simulation's: "the same accuracy"; it may loosen the
//! tolerance and record every 2nd to 64th macro step, since the recording grid bounds its
//! integrator step). Errors are against the tight run. Before the criterion measurements a
//! table with errors, wall times and the cost ratios is printed to stderr.
//!
//! Needs the built workspace and the packaged FMUs: `cargo build --release --workspace &&
//! ./target/release/orchestrator package --out target/fmus` (`ROTORCRAFT_FMU_DIR` overrides the
//! directory). Run with `cargo bench -p monolithic-reference --bench monolithic_vs_cosim`.

use std::f64::consts::PI;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use monolithic_reference::{MonolithicSystem, Options, Registry};
use orchestrator::import::StderrLogger;
use orchestrator::master::{FmuCache, Master, Results};
use orchestrator::system::{ParameterSpec, SignalSpec, System, SystemDescription};
use test_fmus::fixtures::{our_fmu, package_test_fmu};

fn system(json: &str, base: &Path) -> System {
    let description = SystemDescription::from_str(json, base).unwrap_or_else(|e| panic!("{e}"));
    monolithic_reference::resolve(&description).unwrap_or_else(|e| panic!("{e}"))
}

fn two_mass_json(extrapolate: bool) -> String {
    format!(
        r#"{{
  "fmus": {{
    "body": {{ "path": "TwoMassBody.fmu", "parameters": {{ "m": 1.0, "k": 4.0, "c": 0.0, "x0": 1.0 }} }},
    "load": {{ "path": "TwoMassLoad.fmu", "parameters": {{ "m_r": 1.5, "m2": 0.5, "k2": 2.0, "c2": 0.1 }} }}
  }},
  "connections": [ "body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F" ],
  "experiment": {{ "stop": 5.0, "step": 0.01 }},
  "master": {{ "extrapolate_inputs": {extrapolate} }},
  "outputs": ["body.x", "body.a", "load.F"]
}}"#
    )
}

fn flap_json(extrapolate: bool) -> String {
    let (omega, r, i, rho, a, gamma) = (29.0_f64, 7.5_f64, 1953.0, 1.225, 5.73, 9.0);
    let chord = gamma * i / (rho * a * r.powi(4));
    let mut connections = Vec::new();
    for part in ["vel.x", "vel.y", "vel.z", "omega.x", "omega.y", "omega.z", "azimuth", "shaft.x", "shaft.y", "shaft.z"]
    {
        connections.push(format!("\"rotor.blade[*].{part} -> aero.blade[*].{part}\""));
    }
    for part in ["F.x", "F.y", "F.z", "M.x", "M.y", "M.z"] {
        connections.push(format!("\"aero.blade[*].{part} -> rotor.blade[*].{part}\""));
    }
    format!(
        r#"{{
      "fmus": {{
        "rotor": {{ "path": {rotor:?}, "parameters": {{ "nb": 4, "Omega": {omega}, "R": {r}, "e": 0.3,
                   "blade.m": 100.0, "blade.S": 390.0, "blade.I": {i}, "blade.I_pitch": 0.0, "lock_lag": true,
                   "k_flap": 0.0, "blade.beta0": 0.0 }} }},
        "aero": {{ "path": {aero:?}, "parameters": {{ "nb": 4, "R": {r}, "e": 0.3, "r_root": 0.3, "chord": {chord},
                  "a": {a}, "rho": {rho}, "twist": 0.0, "cd0": 0.0, "cd2": 0.0, "n_sections": 20, "inflow_model": 0,
                  "Omega": {omega} }} }}
      }},
      "connections": [ {connections} ],
      "inputs": [ {{ "to": "rotor.blade[*].pitch", "signal": {{ "constant": 0.0034906585 }} }} ],
      "experiment": {{ "stop": 0.5, "step": {step} }},
      "master": {{ "extrapolate_inputs": {extrapolate} }},
      "outputs": ["rotor.blade[1].flap", "aero.thrust"]
    }}"#,
        rotor = our_fmu("Rotor"),
        aero = our_fmu("Aero"),
        connections = connections.join(", "),
        step = 5.0_f64.to_radians() / omega,
    )
}

/// `examples/helicopter.json` with our packaged FMUs over 14 revolutions from its trim, a
/// lateral-cyclic sine (0.005 rad, 1 Hz) on top, 5 degrees of azimuth per macro step.
fn helicopter_system(extrapolate: bool) -> System {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/helicopter.json");
    let mut description = SystemDescription::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
    for (_, fmu) in &mut description.fmus {
        let stem = fmu.path.file_stem().and_then(|s| s.to_str()).expect("an FMU file name").to_string();
        fmu.path = our_fmu(&stem);
    }
    let (_, rotor) = description.fmus.iter().find(|(n, _)| n == "rotor").expect("a main rotor 'rotor'");
    let omega = match rotor.parameters.iter().find(|(n, _)| n == "Omega") {
        Some((_, ParameterSpec::Number(v))) => *v,
        other => panic!("rotor.Omega: {other:?}"),
    };
    for input in description.inputs.iter_mut().filter(|i| i.to == "controls.lat_cyclic") {
        let SignalSpec::Constant(trim) = input.signal else { panic!("the example's lateral cyclic is a constant") };
        input.signal = SignalSpec::Sine { amplitude: 0.005, frequency: 1.0, phase: 0.0, offset: trim };
    }
    let revolution = 2.0 * PI / omega;
    description.experiment.start = 0.0;
    description.experiment.stop = 14.0 * revolution;
    description.experiment.step = revolution * 5.0 / 360.0;
    description.master.extrapolate_inputs = extrapolate;
    monolithic_reference::resolve(&description).unwrap_or_else(|e| panic!("{e}"))
}

fn cosim_run(system: &System, fmus: &mut FmuCache) -> Results {
    let mut master = Master::new(system.clone(), fmus, Arc::new(StderrLogger::default())).unwrap();
    master.run(|_| {}).unwrap()
}

fn monolithic(system: &System, tol: f64) -> MonolithicSystem {
    MonolithicSystem::with_options(system, &Registry::builtin(), Options::for_system(system).with_tolerance(tol))
        .unwrap()
}

/// Median wall time of `runs` calls, s.
fn median_time(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// Max |run - reference| of `column` over the run's recorded times (a subset of the
/// reference's grid), relative to `scale`.
fn deviation(run: &Results, reference: &Results, column: &str, scale: f64) -> f64 {
    let (a, b) = (run.column(column).unwrap(), reference.column(column).unwrap());
    let mut r = 0;
    let mut worst: f64 = 0.0;
    for (n, &t) in run.time.iter().enumerate() {
        while (reference.time[r] - t).abs() > 1e-9 * t.abs().max(1.0) {
            r += 1;
        }
        worst = worst.max((a[n] - b[r]).abs());
    }
    worst / scale
}

/// The cheapest monolithic run (fewest right-hand sides) whose error is within `target`: an
/// integrator tolerance and a recording stride (every `stride`-th macro step; the recording grid
/// bounds the integrator's step). Returns (tolerance, stride, error).
fn matched_accuracy(system: &System, reference: &Results, column: &str, scale: f64, target: f64) -> (f64, usize, f64) {
    let step = system.experiment.step;
    let mut best = (1e-10, 1, 0.0, usize::MAX);
    for stride in [1, 2, 4, 8, 16, 32, 64] {
        for tol in [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9] {
            let mut m = monolithic(system, tol);
            let Ok(results) = m.run(step * stride as f64) else { continue };
            let e = deviation(&results, reference, column, scale);
            if e <= target && m.stats().rhs_evaluations < best.3 {
                best = (tol, stride, e, m.stats().rhs_evaluations);
            }
        }
    }
    (best.0, best.1, best.2)
}

/// One benchmark group: the table, then the criterion measurements.
fn compare(c: &mut Criterion, group: &str, held: System, extrapolated: System, column: &str) {
    let mut fmus = FmuCache::default();
    let step = held.experiment.step;
    let mut tight = monolithic(&held, 1e-10);
    let reference = tight.run(step).unwrap();
    let scale = reference.column(column).unwrap().iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let err_held = deviation(&cosim_run(&held, &mut fmus), &reference, column, scale);
    let err_extrapolated = deviation(&cosim_run(&extrapolated, &mut fmus), &reference, column, scale);
    let (matched_tol, stride, matched_err) = matched_accuracy(&held, &reference, column, scale, err_extrapolated);
    let matched_step = step * stride as f64;
    let mut matched = monolithic(&held, matched_tol);

    let runs = 21;
    let t_held = median_time(runs, || {
        black_box(cosim_run(&held, &mut fmus));
    });
    let t_extrapolated = median_time(runs, || {
        black_box(cosim_run(&extrapolated, &mut fmus));
    });
    let t_tight = median_time(runs, || {
        black_box(tight.run(step).unwrap());
    });
    let t_matched = median_time(runs, || {
        black_box(matched.run(matched_step).unwrap());
    });
    let simulated = held.experiment.stop - held.experiment.start;
    eprintln!(
        "\n{group}: {simulated} s simulated, macro step {step:.6} s; max |{column}| error relative to max |{column}|"
    );
    eprintln!("  {:<46} {:>10} {:>11} {:>9}", "run", "error", "wall [ms]", "RTF");
    for (name, err, t) in [
        ("co-simulation, inputs held".to_string(), err_held, t_held),
        ("co-simulation, inputs extrapolated".to_string(), err_extrapolated, t_extrapolated),
        ("monolithic, tol 1e-10, same grid".to_string(), 0.0, t_tight),
        (format!("monolithic, tol {matched_tol:.0e}, every {stride} steps (matched)"), matched_err, t_matched),
    ] {
        eprintln!("  {name:<46} {err:>10.2e} {:>11.3} {:>9.0}", t * 1e3, simulated / t);
    }
    eprintln!(
        "  cost ratio co-simulation (extrapolated) / monolithic: {:.2} against the tight run on the same grid, \
         {:.2} at the same accuracy",
        t_extrapolated / t_tight,
        t_extrapolated / t_matched
    );
    eprintln!("  monolithic 1e-10: {}", tight.stats().to_text());
    eprintln!("  monolithic matched: {}", matched.stats().to_text());

    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    for (name, system) in [("cosim_held", &held), ("cosim_extrapolated", &extrapolated)] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || Master::new(system.clone(), &mut fmus, Arc::new(StderrLogger::default())).unwrap(),
                |mut master| black_box(master.run(|_| {}).unwrap()),
                BatchSize::PerIteration,
            )
        });
    }
    g.bench_function("monolithic_tight", |b| b.iter(|| black_box(tight.run(step).unwrap())));
    g.bench_function("monolithic_matched", |b| b.iter(|| black_box(matched.run(matched_step).unwrap())));
    g.finish();
}

fn two_mass(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    package_test_fmu::<test_fmus::Body>(dir.path());
    package_test_fmu::<test_fmus::Load>(dir.path());
    let held = system(&two_mass_json(false), dir.path());
    let extrapolated = system(&two_mass_json(true), dir.path());
    compare(c, "two_mass", held, extrapolated, "body.x");
}

fn flap(c: &mut Criterion) {
    let held = system(&flap_json(false), Path::new("/"));
    let extrapolated = system(&flap_json(true), Path::new("/"));
    compare(c, "flap", held, extrapolated, "rotor.blade[1].flap");
}

fn helicopter(c: &mut Criterion) {
    compare(c, "helicopter", helicopter_system(false), helicopter_system(true), "fuselage.p");
}

criterion_group!(benches, two_mass, flap, helicopter);
criterion_main!(benches);
