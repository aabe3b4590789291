//! Rotor: all integration tests of this crate in one test binary (one link instead of
//! 10); each former test file is a module, e.g. `cargo test -p fmu-rotor --test rotor blade_kinematics`.

mod beam;
mod blade_kinematics;
mod common;
mod declarations;
mod dissimilar;
mod energy;
mod fmi_interface;
mod frequencies;
mod kinematics_cache;
mod mass_matrix;
mod momentum;
mod restart;
mod state_outputs;
mod two_instances;
