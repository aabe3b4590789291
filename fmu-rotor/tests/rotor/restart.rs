//! The per-blade initial-state parameters (`blade[i].dlag0`, `dflap0`, `lag_rate0`,
//! `flap_rate0`) together with `psi0` restart a run exactly where another left off: the rotor is
//! time-invariant under a shift of `psi0` (`psi = psi0 + Omega t`), so a second run started from
//! the first run's state at `T` retraces the first run from `T` on. This is how the trim hands a
//! periodic rotor state from one trial to the next.

use crate::common::{Sim, Val, b, r};

const NB: usize = 4;
const OMEGA: f64 = 44.4;

fn params(extra: &[(String, f64)]) -> Vec<(String, Val)> {
    let mut p: Vec<(String, Val)> = vec![
        ("nb".into(), Val::I(NB as i32)),
        ("Omega".into(), r(OMEGA)),
        ("k_lag".into(), r(56400.0)),
        ("c_lag".into(), r(463.0)),
        ("blade.beta0".into(), r(0.03)),
        ("blade.zeta0".into(), r(0.01)),
        ("lock_lag".into(), b(false)),
        ("lock_flap".into(), b(false)),
        ("tolerance".into(), r(1e-11)),
    ];
    p.extend(extra.iter().map(|(n, v)| (n.clone(), r(*v))));
    p
}

fn sim(extra: &[(String, f64)]) -> Sim {
    let p = params(extra);
    let refs: Vec<(&str, Val)> = p.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let mut sim = Sim::new(&refs);
    // Blade loads differing per blade and a tilted specific force keep every state moving.
    sim.set3("hub.acc", [0.8, -0.5, -9.8]);
    sim.set3("hub.omega", [0.05, -0.03, 0.0]);
    for i in 1..=NB {
        let k = i as f64;
        sim.set3(&format!("blade[{i}].F"), [30.0 * k, -50.0, 900.0 + 40.0 * k]);
        sim.set3(&format!("blade[{i}].M"), [5.0, -200.0 * k, 60.0]);
        sim.set(&format!("blade[{i}].pitch"), 0.1 + 0.01 * k);
    }
    sim
}

#[test]
fn a_run_restarted_from_its_state_retraces_it() {
    let h = 2.0 * std::f64::consts::PI / OMEGA / 72.0;
    let mut first = sim(&[]);
    for _ in 0..50 {
        first.step(h);
    }
    let t_restart = first.time();
    let mut extra = vec![("psi0".to_string(), first.get("azimuth"))];
    for i in 1..=NB {
        extra.push((format!("blade[{i}].dlag0"), first.get(&format!("blade[{i}].lag")) - 0.01));
        extra.push((format!("blade[{i}].dflap0"), first.get(&format!("blade[{i}].flap")) - 0.03));
        extra.push((format!("blade[{i}].lag_rate0"), first.get(&format!("blade[{i}].lag_rate"))));
        extra.push((format!("blade[{i}].flap_rate0"), first.get(&format!("blade[{i}].flap_rate"))));
    }
    let mut second = sim(&extra);
    let names: Vec<String> = (1..=NB)
        .flat_map(|i| ["lag", "flap", "lag_rate", "flap_rate"].map(|q| format!("blade[{i}].{q}")))
        .chain(["hub.F.x", "hub.F.y", "hub.M.x", "hub.M.y", "shaft.torque"].map(String::from))
        .collect();
    let (mut worst, mut moved) = (0.0f64, 0.0f64);
    let start: Vec<f64> = names.iter().map(|n| second.get(n)).collect();
    for _ in 0..100 {
        first.step(h);
        second.step(h);
        for (n, s) in names.iter().zip(&start) {
            let (a, b) = (first.get(n), second.get(n));
            worst = worst.max((a - b).abs() / (1.0 + a.abs()));
            moved = moved.max((b - s).abs() / (1.0 + s.abs()));
        }
    }
    eprintln!(
        "restart at t = {t_restart:.4} s: worst relative difference over 100 steps {worst:.3e} (the states moved by \
         up to {moved:.3e})"
    );
    assert!(moved > 1e-3, "the states must move for the comparison to mean something");
    // Both runs integrate the same ODE from the same state with the integrator at 1e-11; they differ
    // only through the error-controlled step sequences.
    assert!(worst < 1e-8, "{worst:e}");
}
