//! Not built yet: this crate is reserved for the rotor FMU (see the project's open issues).
