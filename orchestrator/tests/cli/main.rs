//! The `orchestrator` binary as users run it: its commands and their output (`commands`), runs
//! that fail, hang or crash, in process and isolated (`run_failures`), and systems exported as
//! one FMU (`system_fmu`), the FMU extraction cache (`fmu_cache`). One test binary; filter by module, e.g.
//! `cargo test -p orchestrator --test cli ssp_export` or `--test cli run_failures::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../import_support/mod.rs"]
mod import_support;

mod commands;
mod fmu_cache;
mod run_failures;
mod system_fmu;
