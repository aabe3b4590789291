//! Every `examples/*.json` parses, and resolves against the committed model descriptions of our
//! FMUs (`modelDescription/<model>.xml`, picked by the FMU file's stem), so the examples follow
//! the variable contract. A third-party FMU of an example (`SimpleAero` of
//! `third-party-aero.json`, built from `examples/third-party-aero/` by `bash scripts/test.sh`)
//! has no committed description: its model description is read from the built FMU in
//! `ROTORCRAFT_FMU_DIR` (default `target/fmus`). The FMU files are replaced by empty placeholders
//! in a scratch copy of the layout; CSV tables are copied from `examples/`.

use std::path::{Path, PathBuf};

use orchestrator::import::Fmu;
use orchestrator::import::model_description::ModelDescription;
use orchestrator::system::{SignalSpec, SystemDescription};

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
    let scratch = std::env::temp_dir().join(format!("system-examples-{}", std::process::id()));
    for file in files {
        let description = SystemDescription::from_file(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // The same layout in a scratch directory: placeholders for the FMUs, copies of the CSVs.
        let base = scratch.join("examples");
        std::fs::create_dir_all(&base).unwrap();
        for (_, fmu) in &description.fmus {
            let placeholder = base.join(&fmu.path);
            std::fs::create_dir_all(placeholder.parent().unwrap()).unwrap();
            std::fs::write(&placeholder, b"").unwrap();
        }
        for input in &description.inputs {
            if let SignalSpec::Table { csv, .. } = &input.signal {
                std::fs::create_dir_all(base.join(csv).parent().unwrap()).unwrap();
                std::fs::copy(examples.join(csv), base.join(csv)).unwrap();
            }
        }
        let copy = SystemDescription { base_dir: base, ..description };
        let system = copy
            .resolve(|fmu: &Path| {
                let stem = fmu.file_stem().and_then(|s| s.to_str()).ok_or("no file name")?;
                let xml = root.join("modelDescription").join(format!("{stem}.xml"));
                if !xml.is_file() {
                    let built = std::env::var_os("ROTORCRAFT_FMU_DIR")
                        .map(PathBuf::from)
                        .unwrap_or_else(|| root.join("target/fmus"))
                        .join(format!("{stem}.fmu"));
                    if !built.is_file() {
                        return Err(format!(
                            "no modelDescription/{stem}.xml and no built {}: run `bash scripts/test.sh`, which builds \
                             the third-party FMUs of the examples",
                            built.display()
                        ));
                    }
                    return Fmu::open(&built)
                        .map(|f| f.model_description().clone())
                        .map_err(|e| format!("{}: {e}", built.display()));
                }
                let bytes = std::fs::read(&xml).map_err(|e| format!("{}: {e}", xml.display()))?;
                ModelDescription::from_bytes(&bytes).map_err(|e| format!("{}: {e}", xml.display()))
            })
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!system.outputs.is_empty());
        std::fs::remove_dir_all(&scratch).unwrap();
    }
}
