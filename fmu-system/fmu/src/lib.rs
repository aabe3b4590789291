#![allow(non_snake_case)] // The library is named like an FMU binary, `RotorcraftSystem`.
//! `libRotorcraftSystem.so`: the FMI 2.0 Co-Simulation symbols for
//! [`fmu_system::SystemSlave`]. `orchestrator export SYSTEM.json --fmu OUT.fmu`
//! copies it into the archive as `binaries/linux64/<modelIdentifier>.so`.

use fmu_system::SystemSlave;

fmu_core::export_cosimulation!(SystemSlave);
