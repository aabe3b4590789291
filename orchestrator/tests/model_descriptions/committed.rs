//! The committed `modelDescription/<id>.xml` files are the public interface of our FMUs, and
//! `docs/variables/<id>.md` (with their index `docs/variables/README.md`) its reference for
//! readers; all must equal what the code generates ([`fmu_catalog::generated_files`]). After an
//! intended interface change, or after adding an FMU, regenerate them with
//! `UPDATE_MODEL_DESCRIPTIONS=1 cargo test --release -p orchestrator --test model_descriptions`
//! ([`fmu_catalog::REGENERATE_COMMAND`]).

use std::path::PathBuf;

use fmu_catalog::{REGENERATE_COMMAND, generated_files};

#[test]
fn committed_model_descriptions_match_the_code() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let update = std::env::var_os("UPDATE_MODEL_DESCRIPTIONS").is_some();
    let mut stale = Vec::new();
    for (relative, generated) in generated_files() {
        let path = root.join(relative);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, generated.as_bytes()).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != generated {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these generated files differ from the code: {stale:?}; if the interface change is intended, run \
         `{REGENERATE_COMMAND}` and commit the result"
    );
}
