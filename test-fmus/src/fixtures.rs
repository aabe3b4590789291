//! Where tests find FMUs: the test models packaged on the fly from their built shared libraries,
//! and our own packaged FMUs.

use std::path::{Path, PathBuf};

/// The build directory holding the FMU shared libraries (`target/<profile>`), seen from a test
/// or bench executable in `target/<profile>/deps`.
pub fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current executable");
    exe.parent().and_then(Path::parent).expect("target/<profile>/deps").to_path_buf()
}

/// `test-fmus/c`: the C test FMUs and `fmi2_minimal.h`, the FMI 2.0 declarations they share
/// (pass it as `-I` to the C compiler).
pub fn c_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("c")
}

/// Packages model `M` as `<dir>/<modelIdentifier>.fmu` from its built shared library.
pub fn package_test_fmu<M: fmu_core::Model>(dir: &Path) -> PathBuf {
    let id = M::INFO.model_identifier;
    let library = library_dir().join(format!("lib{id}.so"));
    assert!(
        library.is_file(),
        "{} is missing: build the workspace first (`cargo build --workspace`, or `bash scripts/test.sh`)",
        library.display()
    );
    let out = dir.join(format!("{id}.fmu"));
    fmu_tooling::write_fmu(&out, &fmu_core::model_description::<M>(), id, &library, &[])
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    out
}

/// The directory of our packaged FMUs: `ROTORCRAFT_FMU_DIR`, default `<workspace>/target/fmus`.
pub fn fmu_dir() -> PathBuf {
    std::env::var_os("ROTORCRAFT_FMU_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fmus"))
}

/// A system description in `<workspace>/examples`.
pub fn example_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)
}

/// One of our packaged FMUs in [`fmu_dir`].
pub fn our_fmu(identifier: &str) -> PathBuf {
    let path = fmu_dir().join(format!("{identifier}.fmu"));
    assert!(path.is_file(), "{} is missing: run `bash scripts/test.sh`, which packages the FMUs", path.display());
    path
}

/// The FMU extraction cache of the tests (`target/<profile>/test-fmu-cache`): tests that start
/// the orchestrator binary set `ROTORCRAFT_FMU_CACHE` to it, so they never write to the user's
/// cache (the library itself uses no cache unless asked).
pub fn fmu_cache_dir() -> PathBuf {
    library_dir().join("test-fmu-cache")
}
