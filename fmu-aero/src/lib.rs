//! Not built yet: this crate is reserved for the aero FMU (see the project's open issues).
