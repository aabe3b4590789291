//! Runs a system description through the orchestrator (co-simulation of the FMUs) and through
//! the monolithic reference, side by side, and prints the per-column differences, the work
//! figures and the cost ratio.
//!
//! ```sh
//! cargo run --release -p monolithic-reference --example compare -- examples/helicopter.json [--stop 2.0] [--tol 1e-10]
//! ```

use std::sync::Arc;
use std::time::Instant;

use cosim::import::FacadeLogger;
use cosim::master::{FmuCache, Master};
use monolithic_reference::{MonolithicSystem, Options, Registry};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut stop = None;
    let mut tol = 1e-10;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--stop" => stop = args.next().and_then(|v| v.parse::<f64>().ok()),
            "--tol" => tol = args.next().and_then(|v| v.parse::<f64>().ok()).expect("--tol needs a number"),
            _ => path = Some(a),
        }
    }
    let path = path.expect("usage: compare SYSTEM.json [--stop S] [--tol T]");
    let mut system = monolithic_reference::load(&path).unwrap_or_else(|e| panic!("{e}"));
    if let Some(stop) = stop {
        system.experiment.stop = stop;
    }
    let step = system.experiment.step;

    let options = Options::for_system(&system).with_tolerance(tol);
    let mut reference =
        MonolithicSystem::with_options(&system, &Registry::builtin(), options).unwrap_or_else(|e| panic!("{e}"));
    let (n_states, layout) = reference.state_layout();
    println!("{path}: {} instances, {n_states} states, {} evaluation levels", layout.len(), reference.levels());
    for l in reference.loops() {
        println!("  loop ({} outputs): {}", l.len(), l.join(", "));
    }
    let mono = reference.run(step).unwrap_or_else(|e| panic!("monolithic: {e}"));
    println!("monolithic (tol {tol:e}): {}", reference.stats().to_text());

    let mut fmus = FmuCache::default();
    let mut master = Master::new(system.clone(), &mut fmus, Arc::new(FacadeLogger::default())).unwrap();
    let wall = Instant::now();
    let cosim = master.run(|_| {}).unwrap_or_else(|e| panic!("co-simulation: {e}"));
    let cosim_seconds = wall.elapsed().as_secs_f64();
    println!("co-simulation:\n{}", master.summary(cosim_seconds).to_text());
    println!(
        "cost: co-simulation {:.4} s, monolithic {:.4} s, ratio {:.2}",
        cosim_seconds,
        reference.stats().wall_seconds,
        cosim_seconds / reference.stats().wall_seconds
    );
    println!("{:<32} {:>14} {:>14} {:>10}", "column", "max |diff|", "max |mono|", "relative");
    for name in &mono.names {
        let (a, b) = (cosim.column(name).unwrap(), mono.column(name).unwrap());
        let diff = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        let scale = b.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        println!("{name:<32} {diff:>14.4e} {scale:>14.4e} {:>10.2e}", if scale > 0.0 { diff / scale } else { diff });
    }
}
