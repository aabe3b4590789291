//! Monolithic reference: the models of a co-simulation system coupled in-process, without FMI,
//! as one ODE with one integrator and the algebraic loops solved at every right-hand-side
//! evaluation (DESIGN.md section 7 item 4, issue 6 item 4).
//!
//! It is the accuracy reference for co-simulation error (no input is ever held over a
//! communication step: the inputs are exactly the consistent outputs at each instant) and the
//! speed limit that co-simulation overhead is measured against.
//!
//! # How
//!
//! - The coupled system is built from the **same JSON system description** the orchestrator
//!   runs ([`cosim::system::System`]): each instance becomes the Rust model named by its
//!   FMU's `modelIdentifier` ([`Registry`]: our FMUs, those of [`fmu_catalog::visit_our_models`],
//!   and the test models `TwoMassBody`, `TwoMassLoad`), checked against the FMU's GUID so both sides run the
//!   same interface, configured from the declared start values overridden by the system's
//!   parameters ([`ParameterStore`]), as `fmi2EnterInitializationMode` would.
//! - The state is the concatenation of every model's states; one Dormand-Prince 5(4)
//!   ([`fmu_core::ode::Dopri5`]) integrates it with error control (tolerances in [`Options`],
//!   default `1e-10`). Each model's `project_state` runs on its slice after every accepted step.
//! - At every right-hand-side evaluation `f(t, x)`: external signals at `t`; the connected
//!   outputs in dependency order (the feedthrough graph and its strongly connected components
//!   exactly as the orchestrator's master, [`cosim::master::graph`]); every algebraic
//!   loop by Newton on `z - g(z) = 0` with `dg/dz` exact by forward-mode AD ([`fmu_core::Dual64`])
//!   through each model's generic output equations; then every model's derivatives with those
//!   consistent inputs.
//! - The run is split at the times where step signals switch and table signals kink, so the
//!   integrator never straddles a discontinuity; inside a segment a step holds the value of the
//!   segment (its stages at the segment end see the value before a switch there).
//! - [`MonolithicSystem::run`] records on the orchestrator's communication grid and returns the
//!   orchestrator's [`Results`](cosim::master::Results) with the same column names
//!   (`instance.variable`), so the two compare column by column.
//!
//! # Example
//!
//! ```no_run
//! use monolithic_reference::{MonolithicSystem, load};
//!
//! let system = load("examples/helicopter.json").unwrap();
//! let mut reference = MonolithicSystem::from_system(&system).unwrap();
//! let results = reference.run(system.experiment.step).unwrap();
//! println!("{}", reference.stats().to_text());
//! # let _ = results;
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod coupling;
pub mod monolithic;
pub mod registry;

pub use coupling::{CONTRACTION, CouplingCounters, JacobianUpdate, LoopFailure};
pub use monolithic::{Error, MonolithicSystem, Options, Stats, load, resolve};
pub use registry::{DynModel, ModelFactory, ParameterStore, Registry};
