//! `modelDescription.xml`: ours, generated from the code, equal to the committed files
//! (`committed`; `UPDATE_MODEL_DESCRIPTIONS=1 cargo test -p orchestrator --test model_descriptions`
//! rewrites them, the command that the generated files name), and what the importer's parser
//! accepts and refuses (`checks`). One test binary.

mod checks;
mod committed;
mod structure;
