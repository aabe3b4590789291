//! Controls: all integration tests of this crate in one test binary (one link instead of
//! 2); each former test file is a module, e.g. `cargo test -p fmu-controls --test controls fmi_interface`.

mod fmi_interface;
mod pitch_mixing;
