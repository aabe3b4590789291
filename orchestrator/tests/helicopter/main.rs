//! The helicopter examples coupled from our FMUs: the example systems (`examples`), the
//! rotor-airframe coupling (`coupling`), the blade flap response (`flap_response`), the energy
//! check of the coupled system (`coupled_energy`) and the trim (`trim`). One test binary; filter
//! by module, e.g. `cargo test --release -p orchestrator --test helicopter trim:: -- --nocapture`.

#[path = "../common/mod.rs"]
mod common;

mod coupled_energy;
mod coupling;
mod examples;
mod flap_response;
mod trim;
mod wind;
