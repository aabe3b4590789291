//! FCS: all integration tests of this crate in one test binary; each file is a module, e.g.
//! `cargo test -p fmu-fcs --test fcs transfer_functions`.

mod fmi_interface;
mod transfer_functions;
