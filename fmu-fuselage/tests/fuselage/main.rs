//! Fuselage: all integration tests of this crate in one test binary (one link instead of
//! 9); each former test file is a module, e.g. `cargo test -p fmu-fuselage --test fuselage com_offset`.

mod airframe;
mod bo105_table;
mod com_offset;
mod common;
mod declarations;
mod dof_mask;
mod euler_sequences;
mod fmi_interface;
mod fuselage_table;
mod gunns_seed003;
mod landing_gear;
mod torque_free;
mod translation;
mod wind;
