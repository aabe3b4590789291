//! Our FMUs against FMPy, a third-party importer (from PyPI, in the environment that
//! `scripts/test.sh` creates): Fuselage.fmu and Rotor.fmu stepped by FMPy follow the in-process
//! models (`fuselage`, `rotor`), and our orchestrator and FMPy agree on one FMU
//! (`orchestrator_vs_fmpy`), and FMPy sets a test FMU's String parameters (`strings`). One test
//! binary (one link instead of 4); e.g.
//! `cargo test -p rotorcraft-tests --test fmpy rotor::`.

mod fuselage;
mod orchestrator_vs_fmpy;
mod rotor;
mod strings;
