//! Tests of the elastic rotor: the beam's time-integration form (`fmu_rotor::beam::dynamics`)
//! and the `RotorElastic` FMU model.

mod blade;
mod fmu;
mod hub;

mod restore;
mod speed;
