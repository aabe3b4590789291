//! Aero: all integration tests of this crate in one test binary (one link instead of
//! 5); each former test file is a module, e.g. `cargo test -p fmu-aero --test aero flap_linearisation`.

mod airfoil_file;
mod airfoil_sections;
mod common;
mod dynamic_stall;
mod dynamic_stall_fmu;
mod flap_linearisation;
mod fmi_interface;
mod forward_flight;
mod hover_caradonna_tung;
mod hover_inflow;
mod mach_clamp;
mod static_lift_seed004;
mod tip_loss_bem;
mod wind;
