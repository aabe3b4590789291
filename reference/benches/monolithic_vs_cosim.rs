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
//!   rate `fuselage.p`. `helicopter_half_step`: the same at 2.5 degrees (0.98 ms).
//!
//! Each group times a whole run (initialization included, instantiation excluded) of: the
//! orchestrator's Newton master over the packaged FMUs with the inputs held (`cosim_held`),
//! extrapolated linearly (`cosim_linear`) and quadratically (`cosim_quadratic`,
//! `extrapolation_order` 2); `monolithic_tight` (the reference at tolerance 1e-10, recording on
//! the same grid); and per extrapolated co-simulation `monolithic_matched_*`, the cheapest
//! reference run whose error is no larger than that co-simulation's: "the same accuracy" (it may
//! loosen the tolerance and record every 2nd to 64th macro step, since the recording grid bounds
//! its integrator step). Errors are against the tight run. Before the criterion measurements a
//! table with errors, wall times and the cost ratios is printed to stderr.
//!
//! Needs the built workspace and the packaged FMUs: `cargo build --release --workspace &&
//! ./target/release/orchestrator package --out target/fmus` (`ROTORCRAFT_FMU_DIR` overrides the
//! directory). Run with `cargo bench -p monolithic-reference --bench monolithic_vs_cosim`.

#[path = "../tests/reference/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use cosim::import::FacadeLogger;
use cosim::master::{FmuCache, Master, Results};
use cosim::system::System;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use monolithic_reference::{MonolithicSystem, Options, Registry};
use test_fmus::fixtures::{our_fmu, package_test_fmu};
use test_fmus::table1;

use common::system;

/// `master` options for inputs held (`order` 0) or extrapolated at `order` 1 or 2.
fn master_json(order: u8) -> String {
    match order {
        0 => r#""extrapolate_inputs": false"#.to_string(),
        n => format!(r#""extrapolate_inputs": true, "extrapolation_order": {n}"#),
    }
}

fn two_mass_json(order: u8) -> String {
    format!(
        r#"{{
  "fmus": {{
    "body": {{ "path": "TwoMassBody.fmu", "parameters": {{ "m": 1.0, "k": 4.0, "c": 0.0, "x0": 1.0 }} }},
    "load": {{ "path": "TwoMassLoad.fmu", "parameters": {{ "m_r": 1.5, "m2": 0.5, "k2": 2.0, "c2": 0.1 }} }}
  }},
  "connections": [ "body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F" ],
  "experiment": {{ "stop": 5.0, "step": 0.01 }},
  "master": {{ {master} }},
  "outputs": ["body.x", "body.a", "load.F"]
}}"#,
        master = master_json(order)
    )
}

/// The Seed 004 Table 1 rotor on Rotor.fmu + Aero.fmu ([`table1`]) at 0.2 deg collective, 5 degrees
/// of azimuth per macro step.
fn flap_json(order: u8) -> String {
    let rest = format!(
        r#""inputs": [ {{ "to": "rotor.blade[*].pitch", "signal": {{ "constant": 0.0034906585 }} }} ],
      "experiment": {{ "stop": 0.5, "step": {step} }},
      "master": {{ {master} }},
      "outputs": ["rotor.blade[1].flap", "aero.thrust"]"#,
        step = 5.0_f64.to_radians() / table1::OMEGA,
        master = master_json(order),
    );
    table1::rotor_aero_json(&our_fmu("Rotor"), &our_fmu("Aero"), &rest)
}

/// `examples/helicopter.json` with our packaged FMUs over 14 revolutions from its trim, a
/// lateral-cyclic sine (0.005 rad, 1 Hz) on top, `degrees` of azimuth per macro step, inputs
/// held (`order` 0) or extrapolated at `order` 1 or 2.
fn helicopter_system(degrees: f64, order: u8) -> System {
    let mut description = common::helicopter_with_stick(degrees);
    description.master.extrapolate_inputs = order > 0;
    description.master.extrapolation_order = order.max(1);
    monolithic_reference::resolve(&description).unwrap_or_else(|e| panic!("{e}"))
}

fn cosim_run(system: &System, fmus: &mut FmuCache) -> Results {
    let mut master = Master::new(system.clone(), fmus, Arc::new(FacadeLogger::default())).unwrap();
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

/// Max |run - reference| of `column` over the run's recorded times, relative to `scale`.
fn deviation(run: &Results, reference: &Results, column: &str, scale: f64) -> f64 {
    common::max_difference_on_coarser_grid(run, reference, column) / scale
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

/// The ways of passing inputs between macro steps, by extrapolation order.
const NAMES: [&str; 3] = ["held", "linear", "quadratic"];

/// A monolithic run at the accuracy of one extrapolated co-simulation: its tolerance, recording
/// stride and error, and the system to run.
struct Matched {
    tol: f64,
    stride: usize,
    err: f64,
    system: MonolithicSystem,
}

/// The accuracies of one comparison: errors relative to the tight monolithic run.
struct Accuracy {
    /// The tight monolithic run (tolerance 1e-10, recording on the co-simulation's grid).
    tight: MonolithicSystem,
    /// Error of the co-simulation with inputs held, extrapolated linearly and quadratically.
    errors: Vec<f64>,
    /// The monolithic runs matched to the two extrapolated co-simulations.
    matched: Vec<Matched>,
}

/// Runs every variant once and finds the monolithic runs of the same accuracy.
fn accuracy(variants: &[System; 3], column: &str, fmus: &mut FmuCache) -> Accuracy {
    let held = &variants[0];
    let step = held.experiment.step;
    let mut tight = monolithic(held, 1e-10);
    let reference = tight.run(step).unwrap();
    let scale = reference.column(column).unwrap().iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let errors: Vec<f64> = variants.iter().map(|v| deviation(&cosim_run(v, fmus), &reference, column, scale)).collect();
    // The same accuracy as each extrapolated co-simulation.
    let matched = errors[1..]
        .iter()
        .map(|&target| {
            let (tol, stride, err) = matched_accuracy(held, &reference, column, scale, target);
            Matched { tol, stride, err, system: monolithic(held, tol) }
        })
        .collect();
    Accuracy { tight, errors, matched }
}

/// Median wall times of `runs` whole runs, s.
struct WallTimes {
    /// The co-simulations, by extrapolation order.
    cosim: Vec<f64>,
    /// The tight monolithic run.
    tight: f64,
    /// The matched monolithic runs.
    matched: Vec<f64>,
}

/// Times every co-simulation variant and monolithic run of `accuracy`.
fn wall_times(variants: &[System; 3], accuracy: &mut Accuracy, fmus: &mut FmuCache, runs: usize) -> WallTimes {
    let step = variants[0].experiment.step;
    let cosim: Vec<f64> = variants
        .iter()
        .map(|v| {
            median_time(runs, || {
                black_box(cosim_run(v, fmus));
            })
        })
        .collect();
    let tight = median_time(runs, || {
        black_box(accuracy.tight.run(step).unwrap());
    });
    let matched: Vec<f64> = accuracy
        .matched
        .iter_mut()
        .map(|m| {
            let matched_step = step * m.stride as f64;
            median_time(runs, || {
                black_box(m.system.run(matched_step).unwrap());
            })
        })
        .collect();
    WallTimes { cosim, tight, matched }
}

/// The table of errors, wall times, real-time factors and cost ratios, to stderr.
fn print_table(group: &str, held: &System, column: &str, accuracy: &Accuracy, t: &WallTimes) {
    let step = held.experiment.step;
    let simulated = held.experiment.stop - held.experiment.start;
    eprintln!(
        "\n{group}: {simulated:.3} s simulated, macro step {step:.6} s; max |{column}| error relative to max |{column}|"
    );
    eprintln!("  {:<56} {:>10} {:>11} {:>9}", "run", "error", "wall [ms]", "RTF");
    for (k, name) in NAMES.iter().enumerate() {
        let row = format!("co-simulation, inputs {name}");
        eprintln!(
            "  {row:<56} {:>10.2e} {:>11.3} {:>9.0}",
            accuracy.errors[k],
            t.cosim[k] * 1e3,
            simulated / t.cosim[k]
        );
    }
    eprintln!(
        "  {:<56} {:>10.2e} {:>11.3} {:>9.0}",
        "monolithic, tol 1e-10, same grid",
        0.0,
        t.tight * 1e3,
        simulated / t.tight
    );
    for (k, Matched { tol, stride, err, .. }) in accuracy.matched.iter().enumerate() {
        let row = format!("monolithic, tol {tol:.0e}, every {stride} steps ({} match)", NAMES[k + 1]);
        eprintln!("  {row:<56} {err:>10.2e} {:>11.3} {:>9.0}", t.matched[k] * 1e3, simulated / t.matched[k]);
    }
    for (k, name) in NAMES.iter().enumerate().skip(1) {
        eprintln!(
            "  cost ratio co-simulation ({name}) / monolithic: {:.2} against the tight run on the same grid, {:.2} at the \
             same accuracy",
            t.cosim[k] / t.tight,
            t.cosim[k] / t.matched[k - 1]
        );
    }
    eprintln!("  monolithic 1e-10: {}", accuracy.tight.stats().to_text());
}

/// The criterion measurements of one group: every co-simulation variant, the tight and the
/// matched monolithic runs.
fn measure(c: &mut Criterion, group: &str, variants: &[System; 3], accuracy: &mut Accuracy, fmus: &mut FmuCache) {
    let step = variants[0].experiment.step;
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    for (name, system) in NAMES.iter().zip(variants) {
        g.bench_function(format!("cosim_{name}"), |b| {
            b.iter_batched(
                || Master::new(system.clone(), fmus, Arc::new(FacadeLogger::default())).unwrap(),
                |mut master| black_box(master.run(|_| {}).unwrap()),
                BatchSize::PerIteration,
            )
        });
    }
    let tight = &mut accuracy.tight;
    g.bench_function("monolithic_tight", |b| b.iter(|| black_box(tight.run(step).unwrap())));
    for (name, m) in NAMES[1..].iter().zip(accuracy.matched.iter_mut()) {
        let matched_step = step * m.stride as f64;
        g.bench_function(format!("monolithic_matched_{name}"), |b| {
            b.iter(|| black_box(m.system.run(matched_step).unwrap()))
        });
    }
    g.finish();
}

/// One benchmark group: the table, then the criterion measurements. `variants[order]` is the
/// system with inputs held (0) or extrapolated at that order (1, 2).
fn compare(c: &mut Criterion, group: &str, variants: [System; 3], column: &str) {
    let mut fmus = FmuCache::default();
    let mut accuracy = accuracy(&variants, column, &mut fmus);
    let times = wall_times(&variants, &mut accuracy, &mut fmus, 21);
    print_table(group, &variants[0], column, &accuracy, &times);
    measure(c, group, &variants, &mut accuracy, &mut fmus);
}

fn two_mass(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    package_test_fmu::<test_fmus::Body>(dir.path());
    package_test_fmu::<test_fmus::Load>(dir.path());
    let variants = [0, 1, 2].map(|order| system(&two_mass_json(order), dir.path()));
    compare(c, "two_mass", variants, "body.x");
}

fn flap(c: &mut Criterion) {
    let variants = [0, 1, 2].map(|order| system(&flap_json(order), Path::new("/")));
    compare(c, "flap", variants, "rotor.blade[1].flap");
}

fn helicopter(c: &mut Criterion) {
    compare(c, "helicopter", [0, 1, 2].map(|order| helicopter_system(5.0, order)), "fuselage.p");
}

/// The helicopter at half the macro step (2.5 degrees): what a finer step buys against the
/// monolithic reference, and so the most a multirate master (rotors and aerodynamics at 2.5
/// degrees, airframe and controls at 5) could gain (docs/performance.md, "Multirate").
fn helicopter_half_step(c: &mut Criterion) {
    compare(c, "helicopter_half_step", [0, 1, 2].map(|order| helicopter_system(2.5, order)), "fuselage.p");
}

criterion_group!(benches, two_mass, flap, helicopter, helicopter_half_step);
criterion_main!(benches);
