//! Trim cost (issue 6): Newton-Broyden against Newton with a finite-difference Jacobian at every
//! iteration, on `examples/helicopter.json`, side by side in one run.
//!
//! Cases, each run once by both methods from the same start (whole trims take seconds, so this
//! is a table of single runs rather than a criterion sampling):
//!
//! - `hover`: from a rough guess (collective and pedal 0.12 rad, cyclics and attitude 0) on a cold
//!   rotor (the example itself is already trimmed);
//! - `40 m/s from hover`: from the hover trim's controls, attitude and rotor state; Broyden also
//!   starts from the hover Jacobian, as in a speed sweep;
//! - `40 m/s cold`: from the rough guess.
//!
//! Reported per case and method: converged, iterations, trials (co-simulations), simulated
//! main-rotor revolutions, wall time; and the ratio of revolutions FD / Broyden. Both methods
//! share the same trials (warm-started, one settling and one averaged revolution each).
//!
//! Needs the built workspace and packaged FMUs (`cargo build --release --workspace &&
//! ./target/release/orchestrator package --out target/fmus`; `ROTORCRAFT_FMU_DIR` overrides).
//! Run with `cargo bench -p orchestrator --bench trim`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Arc;

use cosim::import::FacadeLogger;
use cosim::master::FmuCache;
use orchestrator::trim::{FlightCondition, JacobianMethod, Trim, TrimStart, Trimmer};

/// A start for each method.
type StartFor<'a> = Box<dyn Fn(JacobianMethod) -> TrimStart + 'a>;

/// Continues from `trim`, with or without its Jacobian.
fn start_from(trim: &Trim, with_jacobian: bool) -> TrimStart {
    TrimStart { jacobian: trim.jacobian.filter(|_| with_jacobian), ..trim.continuation() }
}

fn main() {
    let description = common::example("helicopter.json");
    let mut fmus = FmuCache::default();
    let mut trimmer = Trimmer::new(&description, &mut fmus, Arc::new(FacadeLogger::new(false))).unwrap();
    let cold = TrimStart { unknowns: [0.12, 0.0, 0.0, 0.12, 0.0, 0.0], rotor_states: None, jacobian: None };
    let hover = trimmer.trim(FlightCondition::hover(), cold.clone(), JacobianMethod::Broyden, |_| {}).unwrap();
    let fast = FlightCondition { speed: 40.0, turn_rate: 0.0 };
    let cases: [(&str, FlightCondition, StartFor); 3] = [
        ("hover", FlightCondition::hover(), Box::new(|_| cold.clone())),
        ("40 m/s from hover", fast, Box::new(|m| start_from(&hover, m == JacobianMethod::Broyden))),
        ("40 m/s cold", fast, Box::new(|_| cold.clone())),
    ];
    eprintln!(
        "{:<18} {:<8} {:>9} {:>10} {:>7} {:>11} {:>8} {:>10}",
        "case", "method", "converged", "iterations", "trials", "revolutions", "wall s", "residual"
    );
    for (name, condition, start) in &cases {
        let mut revolutions = [0u32; 3];
        let methods = [JacobianMethod::Broyden, JacobianMethod::FiniteDifference, JacobianMethod::Linearized];
        for (k, method) in methods.into_iter().enumerate() {
            let trim = trimmer.trim(*condition, start(method), method, |_| {}).unwrap();
            revolutions[k] = trim.revolutions;
            let max = trim.residual.iter().fold(0.0f64, |m, r| m.max(r.abs()));
            eprintln!(
                "{name:<18} {:<8} {:>9} {:>10} {:>7} {:>11} {:>8.2} {:>10.2e}",
                match method {
                    JacobianMethod::Broyden => "broyden",
                    JacobianMethod::FiniteDifference => "fd",
                    JacobianMethod::Linearized => "linear",
                },
                trim.converged,
                trim.iterations,
                trim.trials,
                trim.revolutions,
                trim.wall_seconds,
                max
            );
        }
        eprintln!(
            "{name:<18} revolutions fd / broyden = {:.1}, fd / linearized = {:.1}",
            revolutions[1] as f64 / revolutions[0] as f64,
            revolutions[1] as f64 / revolutions[2] as f64
        );
    }
}
