//! The co-simulation master (`cosim::master`) on the two-mass test FMUs and our FMUs: loops
//! found and solved (`loop_detection`, `two_mass`), failures (`failure_handling`), signal
//! inputs between communication points (`signal_extrapolation`), the step hook (`step_hook`)
//! and the linearisation (`linearize`). One test binary; filter by module, e.g.
//! `cargo test --release -p orchestrator --test master linearize::`. The allocation count of a
//! master step is `no_allocation` (a binary of its own: it installs a counting global allocator).

#[path = "../common/mod.rs"]
mod common;
#[path = "../import_support/mod.rs"]
mod import_support;

mod airfoil_file;
mod delayed_loop;
mod failure_handling;
mod fmu_cache_reuse;
mod fuselage_table;
mod linearize;
mod loop_detection;
mod signal_extrapolation;
mod state_only_reads;
mod step_hook;

mod strings;
mod two_mass;
