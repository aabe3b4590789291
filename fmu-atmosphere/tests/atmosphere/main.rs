//! Atmosphere: all integration tests of this crate in one test binary; each file is a module,
//! e.g. `cargo test -p fmu-atmosphere --test atmosphere isa_table`.

mod fmi_interface;
mod gust;
mod isa_table;
mod turbulence_statistics;
