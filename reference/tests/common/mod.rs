//! Shared helpers: packaged FMUs, systems from JSON, the orchestrator and the reference side by
//! side.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use monolithic_reference::MonolithicSystem;
use orchestrator::import::StderrLogger;
use orchestrator::master::{FmuCache, Master, Results};
use orchestrator::system::{System, SystemDescription};

#[allow(unused_imports)]
pub use test_fmus::fixtures::{our_fmu, package_test_fmu};

/// Resolves a JSON system description whose relative paths start at `base`, reading the model
/// descriptions from the FMU archives.
pub fn system(json: &str, base: &Path) -> System {
    let description = SystemDescription::from_str(json, base).unwrap_or_else(|e| panic!("{e}"));
    monolithic_reference::resolve(&description).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs the system through the orchestrator (FMUs, communication steps).
pub fn cosim(system: &System) -> (Results, Master) {
    let mut master = Master::new(system.clone(), &mut FmuCache::default(), Arc::new(StderrLogger::default())).unwrap();
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

/// Numbers as `[a, b, c]` in short scientific notation.
pub fn list(v: &[f64]) -> String {
    format!("[{}]", v.iter().map(|x| format!("{x:.3e}")).collect::<Vec<_>>().join(", "))
}
