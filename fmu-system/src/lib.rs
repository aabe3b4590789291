#![allow(non_snake_case)] // The library is named like an FMU binary, `RotorcraftSystem`.
//! `libRotorcraftSystem.so`: the FMI 2.0 Co-Simulation symbols for
//! [`cosim::container::SystemSlave`]. `orchestrator export SYSTEM.json --fmu OUT.fmu`
//! copies it into the archive as `binaries/linux64/<modelIdentifier>.so`.

use cosim::container::SystemSlave;

fmu_core::export_cosimulation!(SystemSlave);
