//! The committed `modelDescription/<id>.xml` files are the public interface of our FMUs, and
//! `docs/variables/<id>.md` its reference for readers; both must equal what the code generates.
//! After an intended interface change, regenerate them with
//! `UPDATE_MODEL_DESCRIPTIONS=1 cargo test -p orchestrator --test model_descriptions`.

use std::path::PathBuf;

use fmu_catalog::our_fmus;

#[test]
fn committed_model_descriptions_match_the_code() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let update = std::env::var_os("UPDATE_MODEL_DESCRIPTIONS").is_some();
    let mut stale = Vec::new();
    for fmu in our_fmus() {
        let files = [
            (root.join(format!("modelDescription/{}.xml", fmu.identifier)), (fmu.model_description)().to_string()),
            (root.join(format!("docs/variables/{}.md", fmu.identifier)), (fmu.variables_markdown)()),
        ];
        for (path, generated) in files {
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
    }
    assert!(
        stale.is_empty(),
        "these generated files differ from the code: {stale:?}; if the interface change is intended, run \
         `UPDATE_MODEL_DESCRIPTIONS=1 cargo test -p orchestrator --test model_descriptions` and commit the result"
    );
}
