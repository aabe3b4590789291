//! `modelDescription.xml`: ours, generated from the code, equal to the committed files
//! (`committed`; `UPDATE_MODEL_DESCRIPTIONS=1 cargo test --release -p orchestrator --test
//! model_descriptions` rewrites them, the command that the generated files name), the outputs our
//! committed descriptions declare without feedthrough (`structure`), what the importer's parser
//! accepts and refuses (`checks`), and the schema's writer and the parser as each other's inverse
//! (`round_trip`). One test binary.

mod checks;
mod committed;
#[path = "../import_support/mod.rs"]
mod import_support;
mod round_trip;
mod structure;
