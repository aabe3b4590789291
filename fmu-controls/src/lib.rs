//! Not built yet: this crate is reserved for the controls FMU (see the project's open issues).
