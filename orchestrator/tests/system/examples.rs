//! Every `examples/*.json` parses, and resolves against the committed model descriptions of our
//! FMUs (`modelDescription/<model>.xml`, picked by the FMU file's stem), so the examples follow
//! the variable contract. A third-party FMU of an example (`SimpleAero` of
//! `third-party-aero*.json`, built from `examples/third-party-aero/` by `bash scripts/test.sh`)
//! has no committed description: its model description is read from the built FMU beside it.
//! Our own FMUs (`"model"` entries) are located as `orchestrator run` locates them.

use std::path::{Path, PathBuf};

use cosim::import::Fmu;
use cosim::import::model_description::ModelDescription;

#[test]
fn examples_resolve_against_the_committed_model_descriptions() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap();
    let examples = root.join("examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no examples/*.json");
    for file in files {
        let description = rotorcraft::read_system(&file, &fmu_catalog::context())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let system = description
            .resolve(|fmu: &Path| {
                let stem = fmu.file_stem().and_then(|s| s.to_str()).ok_or("no file name")?;
                let xml = root.join("modelDescription").join(format!("{stem}.xml"));
                if !xml.is_file() {
                    return Fmu::open(fmu)
                        .map(|f| f.model_description().clone())
                        .map_err(|e| format!("{}: {e}", fmu.display()));
                }
                let bytes = std::fs::read(&xml).map_err(|e| format!("{}: {e}", xml.display()))?;
                ModelDescription::from_bytes(&bytes).map_err(|e| format!("{}: {e}", xml.display()))
            })
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!system.outputs.is_empty());
    }
}
