//! The committed `modelDescription/<id>.xml` files are the public interface of our FMUs; they
//! must equal what the code generates. After an intended interface change, regenerate them with
//! `UPDATE_MODEL_DESCRIPTIONS=1 cargo test -p orchestrator --test model_descriptions`.

use std::path::PathBuf;

use orchestrator::package::our_fmus;

#[test]
fn committed_model_descriptions_match_the_code() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../modelDescription");
    let update = std::env::var_os("UPDATE_MODEL_DESCRIPTIONS").is_some();
    let mut stale = Vec::new();
    for fmu in our_fmus() {
        let path = dir.join(format!("{}.xml", fmu.identifier));
        let generated = (fmu.model_description)();
        if update {
            std::fs::write(&path, generated.as_bytes()).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != *generated {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these model descriptions differ from the code: {stale:?}; if the interface change is intended, run \
         `UPDATE_MODEL_DESCRIPTIONS=1 cargo test -p orchestrator --test model_descriptions` and commit the result"
    );
}
