//! The parts of the `orchestrator` command line that library users and tests reach: the trim
//! and the plots. The co-simulation itself is the `cosim` library; our FMUs are `fmu-catalog`.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod plot;
pub mod trim;
