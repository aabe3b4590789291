//! Shared helpers: packaged FMUs, systems from JSON, the orchestrator and the reference side by
//! side.
#![allow(dead_code)]

use std::f64::consts::PI;
use std::path::Path;
use std::sync::Arc;

use cosim::import::FacadeLogger;
use cosim::master::{FmuCache, Master, Results};
use cosim::system::{SignalSpec, System, SystemDescription};
use monolithic_reference::MonolithicSystem;

#[allow(unused_imports)]
pub use test_fmus::fixtures::{fmu_dir, our_fmu, package_test_fmu};

/// Resolves a JSON system description whose relative paths start at `base`, reading the model
/// descriptions from the FMU archives.
pub fn system(json: &str, base: &Path) -> System {
    let description =
        rotorcraft::system_from_str(json, base, &fmu_catalog::context()).unwrap_or_else(|e| panic!("{e}"));
    monolithic_reference::resolve(&description).unwrap_or_else(|e| panic!("{e}"))
}

/// `examples/<name>` with our packaged FMUs (looked up by file name in [`fmu_dir`]).
pub fn example(name: &str) -> SystemDescription {
    // `"model"` names are checked against our FMUs, as the orchestrator binary does.
    let mut description = rotorcraft::read_system(test_fmus::fixtures::example_path(name), &fmu_catalog::context())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    description.use_fmus_in(&fmu_dir()).unwrap_or_else(|e| panic!("{name}: {e}"));
    description
}

/// Main-rotor revolutions of [`helicopter_with_stick`].
pub const STICK_REVOLUTIONS: f64 = 14.0;

/// `examples/helicopter.json` from its hover trim with a lateral-cyclic sine of 0.005 rad at 1 Hz
/// on top (so that the helicopter moves), over 14 main-rotor revolutions at `degrees` of azimuth
/// per macro step.
pub fn helicopter_with_stick(degrees: f64) -> SystemDescription {
    let mut description = example("helicopter.json");
    let omega = description.number_parameter("rotor", "Omega").expect("rotor.Omega as a number");
    for input in description.inputs.iter_mut().filter(|i| i.to == "controls.lat_cyclic") {
        let SignalSpec::Constant(trim) = input.signal else { panic!("the example's lateral cyclic is a constant") };
        input.signal = SignalSpec::Sine { amplitude: 0.005, frequency: 1.0, phase: 0.0, offset: trim };
    }
    let revolution = 2.0 * PI / omega;
    description.experiment.start = 0.0;
    description.experiment.stop = STICK_REVOLUTIONS * revolution;
    description.experiment.step = revolution * degrees / 360.0;
    description
}

/// Max |run - reference| of `column` at the run's recorded times, a subset of the reference's
/// (a finer or equal grid).
pub fn max_difference_on_coarser_grid(run: &Results, reference: &Results, column: &str) -> f64 {
    let (a, b) = (run.column(column).unwrap(), reference.column(column).unwrap());
    let mut r = 0;
    let mut worst: f64 = 0.0;
    for (n, &t) in run.time.iter().enumerate() {
        while (reference.time[r] - t).abs() > 1e-9 * t.abs().max(1.0) {
            r += 1;
        }
        worst = worst.max((a[n] - b[r]).abs());
    }
    worst
}

/// Runs the system through the orchestrator (FMUs, communication steps).
pub fn cosim(system: &System) -> (Results, Master) {
    let mut master = Master::new(system.clone(), &mut FmuCache::default(), Arc::new(FacadeLogger::default())).unwrap();
    let results = master.run(|_| {}).unwrap();
    (results, master)
}

/// Runs the monolithic reference on the orchestrator's communication grid.
pub fn monolithic(system: &System) -> (Results, MonolithicSystem) {
    let mut reference = MonolithicSystem::from_system(system).unwrap_or_else(|e| panic!("{e}"));
    let results = reference.run(system.experiment.step).unwrap_or_else(|e| panic!("{e}"));
    (results, reference)
}

/// Max |a - b| of one column over two runs on the same grid.
pub fn max_difference(a: &Results, b: &Results, column: &str) -> f64 {
    assert_eq!(a.time.len(), b.time.len(), "same grid");
    for (ta, tb) in a.time.iter().zip(&b.time) {
        assert!((ta - tb).abs() <= 1e-12 * ta.abs().max(1.0), "same grid: {ta} vs {tb}");
    }
    let (ca, cb) = (a.column(column).unwrap(), b.column(column).unwrap());
    ca.iter().zip(&cb).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}
