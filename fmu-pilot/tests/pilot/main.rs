//! Pilot: all integration tests of this crate in one test binary; each file is a module, e.g.
//! `cargo test -p fmu-pilot --test pilot frequency_response`.

mod fmi_interface;
mod frequency_response;
mod voluntary_and_mayo;
