//! Shared helpers of the orchestrator tests: packaged FMUs and systems built from JSON.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use cosim::import::{FacadeLogger, Fmu, FmuLogger};
use cosim::master::{FmuCache, Master, Results};
use cosim::system::{System, SystemDescription};

#[allow(unused_imports)]
pub use test_fmus::fixtures::{fmu_dir, our_fmu, package_test_fmu};

/// Resolves a JSON system description whose relative paths start at `base`.
pub fn system(json: &str, base: &Path) -> System {
    resolve(&rotorcraft::system_from_str(json, base, &fmu_catalog::context()).unwrap_or_else(|e| panic!("{e}")))
}

/// Resolves a system description against its FMUs.
pub fn resolve(description: &SystemDescription) -> System {
    description.resolve(|path| Fmu::open(path).map(|f| f.model_description().clone())).unwrap_or_else(|e| panic!("{e}"))
}

/// `examples/<name>` with our packaged FMUs (looked up by file name in [`fmu_dir`]).
pub fn example(name: &str) -> SystemDescription {
    // `"model"` names are checked against our FMUs, as the orchestrator binary does.
    let mut description = rotorcraft::read_system(test_fmus::fixtures::example_path(name), &fmu_catalog::context())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    description.use_fmus_in(&fmu_dir()).unwrap_or_else(|e| panic!("{name}: {e}"));
    description
}

/// A system description written as JSON (relative paths from the current folder), with our
/// packaged FMUs for its `"model"` entries.
pub fn description_from_json(json: &serde_json::Value) -> SystemDescription {
    let mut description =
        rotorcraft::system_from_str(&json.to_string(), ".", &fmu_catalog::context()).unwrap_or_else(|e| panic!("{e}"));
    description.use_fmus_in(&fmu_dir()).unwrap_or_else(|e| panic!("{e}"));
    description
}

/// A numeric parameter as written in the description.
pub fn param(description: &SystemDescription, instance: &str, name: &str) -> f64 {
    description.number_parameter(instance, name).unwrap_or_else(|| panic!("{instance}.{name} is not a written number"))
}

/// Resolves and runs a system description.
pub fn run_description(description: &SystemDescription) -> (Results, Master) {
    run(resolve(description)).unwrap_or_else(|e| panic!("{e}"))
}

/// Builds a master for a system (opening its FMUs).
pub fn master(system: System) -> Result<Master, cosim::master::MasterError> {
    Master::new(system, &mut FmuCache::default(), logger())
}

/// Logger for tests: warnings and errors to stderr.
pub fn logger() -> Arc<dyn FmuLogger> {
    Arc::new(FacadeLogger::default())
}

/// Builds and runs a system.
pub fn run(system: System) -> Result<(Results, Master), cosim::master::MasterError> {
    let mut master = master(system)?;
    let results = master.run(|_| {})?;
    Ok((results, master))
}
