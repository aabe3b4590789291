//! `examples/fuselage_hover_gust.json` (the README's run command): the airframe alone, with a
//! constant hub force, a forward force step at t = 1 s and a lateral gust ramp from a CSV table,
//! run by the orchestrator and by the monolithic reference from the same file.
//!
//! With one FMU there is no coupling: the only difference is how the external signals enter.
//! Constants and a step on the communication grid are exact in both (the reference splits its
//! integration at the step), so the runs agree to integrator accuracy until the gust starts at
//! t = 2 s. The table's ramps are then held over each communication step by the orchestrator and
//! followed exactly by the reference: a first-order difference, which halves with the step.

use std::path::Path;

use monolithic_reference::MonolithicSystem;

fn example() -> cosim::system::System {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/fuselage_hover_gust.json");
    let _ = crate::common::our_fmu("Fuselage");
    monolithic_reference::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Max |difference| of `column` over rows with `t` in `[from, to]`.
fn max_difference_in(a: &cosim::master::Results, b: &cosim::master::Results, column: &str, from: f64, to: f64) -> f64 {
    let (ca, cb) = (a.column(column).unwrap(), b.column(column).unwrap());
    a.time
        .iter()
        .zip(ca.iter().zip(&cb))
        .filter(|(t, _)| (from..=to).contains(*t))
        .map(|(_, (x, y))| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn airframe_example_agrees_with_the_orchestrator_until_the_gust_then_at_first_order() {
    let mut system = example();
    let (cosim, _) = crate::common::cosim(&system);
    let mut reference = MonolithicSystem::from_system(&system).unwrap();
    let mono = reference.run(system.experiment.step).unwrap();
    assert_eq!(cosim.names, mono.names, "same columns");
    eprintln!("monolithic airframe: {}", reference.stats().to_text());

    // Until the gust: constant hub force and the forward step are exact on both sides.
    for column in ["fuselage.x", "fuselage.z", "fuselage.u", "fuselage.w", "fuselage.hub.acc.x"] {
        let d = max_difference_in(&cosim, &mono, column, 0.0, 2.0);
        assert!(d < 1e-7, "{column} differs by {d:e} before the gust");
    }
    // The forward step is seen at t = 1 s by both: a = 2100 N / 2100 kg.
    let ax = mono.column("fuselage.hub.acc.x").unwrap();
    let n1 = mono.time.iter().position(|&t| t >= 1.0).unwrap();
    assert!((ax[n1 - 1] - 0.0).abs() < 1e-9 && (ax[n1] - 1.0).abs() < 1e-9, "{} {}", ax[n1 - 1], ax[n1]);

    // After: the held gust ramps (first order in the step).
    let d_01 = max_difference_in(&cosim, &mono, "fuselage.y", 0.0, 10.0);
    system.experiment.step = 0.005;
    let (cosim_fine, _) = crate::common::cosim(&system);
    let mono_fine = reference.run(0.005).unwrap();
    let d_005 = max_difference_in(&cosim_fine, &mono_fine, "fuselage.y", 0.0, 10.0);
    eprintln!("lateral position, co-simulation vs monolithic: {d_01:.3e} m at 10 ms, {d_005:.3e} m at 5 ms");
    let order = (d_01 / d_005).log2();
    assert!((0.9..1.1).contains(&order), "order {order}");
}
