//! System descriptions (`cosim::system`): resolving JSON systems against model descriptions
//! (`resolve`), signal tables (`signals`) and every example under `examples/` (`examples`).
//! One test binary; filter by module, e.g. `cargo test -p orchestrator --test system resolve::`.

mod examples;
mod resolve;
mod signals;
