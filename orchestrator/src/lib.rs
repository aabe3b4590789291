//! The rotorcraft co-simulation orchestrator as a library: packaging of our FMUs (and, as the
//! issues land, FMU import, system descriptions, the master algorithm and trim).
#![warn(missing_docs)]

pub mod package;
