//! Shared helpers of the orchestrator tests: packaged FMUs and systems built from JSON.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use orchestrator::import::{Fmu, FmuLogger, StderrLogger};
use orchestrator::master::{FmuCache, Master, Results};
use orchestrator::system::{System, SystemDescription};

#[allow(unused_imports)]
pub use test_fmus::fixtures::{our_fmu, package_test_fmu};

/// Resolves a JSON system description whose relative paths start at `base`.
pub fn system(json: &str, base: &Path) -> System {
    let description = SystemDescription::from_str(json, base).unwrap_or_else(|e| panic!("{e}"));
    description
        .resolve(|path| Fmu::open(path).map(|f| f.model_description().clone()).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Builds a master for a system (opening its FMUs).
pub fn master(system: System) -> Result<Master, orchestrator::master::MasterError> {
    Master::new(system, &mut FmuCache::default(), logger())
}

/// Logger for tests: warnings and errors to stderr.
pub fn logger() -> Arc<dyn FmuLogger> {
    Arc::new(StderrLogger::default())
}

/// Builds and runs a system.
pub fn run(system: System) -> Result<(Results, Master), orchestrator::master::MasterError> {
    let mut master = master(system)?;
    let results = master.run(|_| {})?;
    Ok((results, master))
}
