//! Shared helpers of the orchestrator tests: packaged FMUs and systems built from JSON.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use orchestrator::import::{Fmu, FmuLogger, StderrLogger};
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
