//! Monolithic reference: all integration tests of this crate in one test binary (one link instead of
//! 6); each former test file is a module, e.g. `cargo test -p monolithic-reference --test reference errors`.

mod common;
mod errors;
mod flap_cosim;
mod fuselage_example;
mod helicopter;
mod signals;
mod two_mass;
