//! Shared helpers: packaged FMUs, systems from JSON, the orchestrator and the reference side by
//! side.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use monolithic_reference::MonolithicSystem;
use orchestrator::import::StderrLogger;
use orchestrator::master::{FmuCache, Master, Results};
use orchestrator::system::{System, SystemDescription};

/// The build directory holding the FMU shared libraries (`target/<profile>`).
pub fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(Path::parent).unwrap().to_path_buf()
}

/// Packages one of the test models as `<dir>/<identifier>.fmu` from its shared library.
pub fn package_test_fmu<M: fmu_core::Model>(dir: &Path) -> PathBuf {
    let id = M::INFO.model_identifier;
    let library = library_dir().join(format!("lib{id}.so"));
    assert!(
        library.is_file(),
        "{} is missing: build the workspace first (`cargo build --workspace`, or `bash scripts/test.sh`)",
        library.display()
    );
    let out = dir.join(format!("{id}.fmu"));
    fmu_core::package::write_fmu(&out, &fmu_core::model_description::<M>(), id, &library, &[]).unwrap();
    out
}

/// Our packaged FMUs (`ROTORCRAFT_FMU_DIR`, default `<workspace>/target/fmus`).
pub fn our_fmu(identifier: &str) -> PathBuf {
    let dir = std::env::var_os("ROTORCRAFT_FMU_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fmus"));
    let path = dir.join(format!("{identifier}.fmu"));
    assert!(path.is_file(), "{} is missing: run `bash scripts/test.sh`, which packages the FMUs", path.display());
    path
}

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
