//! The voluntary pilot (McRuer's precision model with a Pade delay) and Mayo's mesomorphic
//! vertical path (`model = 2`): frequency responses from the Model Exchange Jacobians
//! (`C (i w I - A)^-1 B + D` over the configuration's states) against the closed forms written
//! here, at 0.05 to 10 Hz, to 1e-6 relative; and the Pade approximant's phase against the exact
//! delay `exp(-i w tau)`. Gains and time constants of the voluntary pilot are test values.

use fmu_core::Instance;
use fmu_core::verify::frequency_response::{frequency_response, model_exchange_instance};
use fmu_core::verify::vr;
use fmu_pilot::Pilot;
use fmu_pilot::layout::{G, x};
use nalgebra::Complex;

type C = Complex<f64>;

/// Frequencies of the comparison, Hz.
const FREQUENCIES_HZ: [f64; 6] = [0.05, 0.3, 1.0, 2.0, 5.0, 10.0];

/// A Model Exchange instance with the given integer and real parameters.
fn instance(integers: &[(&str, i32)], reals: &[(&str, f64)]) -> Instance<Pilot> {
    model_exchange_instance(|inst: &mut Instance<Pilot>| {
        for &(name, v) in integers {
            inst.set_integer(&[vr::<Pilot>(name)], &[v]).unwrap();
        }
        for &(name, v) in reals {
            inst.set_real(&[vr::<Pilot>(name)], &[v]).unwrap();
        }
    })
}

/// `C (i w I - A)^-1 B + D` from `input` to `output` over the declared states `slots`.
fn fmu_response(inst: &mut Instance<Pilot>, slots: &[usize], input: &str, output: &str, w: f64) -> C {
    let [re, im] = frequency_response(inst, slots, vr::<Pilot>(input), vr::<Pilot>(output), w);
    C::new(re, im)
}

/// The `(n, n)` Pade approximant of `exp(-tau s)`, n = 1 or 2.
fn pade(s: C, tau: f64, order: usize) -> C {
    let (a, b) = (tau / 2.0, if order == 2 { tau * tau / 12.0 } else { 0.0 });
    (s * s * b - s * a + 1.0) / (s * s * b + s * a + 1.0)
}

/// McRuer's precision model `K P_n(s) (T_lead s + 1) / (T_lag s + 1)`.
fn precision_model(s: C, k: f64, t_lead: f64, t_lag: f64, tau: f64, order: usize) -> C {
    let delay = if tau > 0.0 { pade(s, tau, order) } else { C::new(1.0, 0.0) };
    delay * (s * t_lead + 1.0) / (s * t_lag + 1.0) * k
}

/// Asserts the FMU's response equals `reference` at every frequency; returns the worst error.
fn compare(inst: &mut Instance<Pilot>, slots: &[usize], input: &str, output: &str, reference: impl Fn(C) -> C) -> f64 {
    let mut worst = 0.0_f64;
    for f in FREQUENCIES_HZ {
        let w = std::f64::consts::TAU * f;
        let (fmu, expected) = (fmu_response(inst, slots, input, output, w), reference(C::new(0.0, w)));
        let error = (fmu - expected).norm() / expected.norm();
        worst = worst.max(error);
        assert!(error < 1e-6, "{input} -> {output} at {f} Hz: FMU {fmu}, closed form {expected}");
    }
    worst
}

#[test]
fn roll_tracking_with_a_second_order_pade_delay_equals_the_precision_model() {
    let (k, t_lead, t_lag, tau) = (0.4, 0.5, 0.1, 0.25);
    let reals =
        [("voluntary.K", k), ("voluntary.T_lead", t_lead), ("voluntary.T_lag", t_lag), ("voluntary.delay", tau)];
    let mut inst = instance(&[("voluntary.task", 1), ("voluntary.pade_order", 2)], &reals);
    let slots = [x::PADE, x::PADE + 1, x::LEAD_LAG];
    assert_eq!(inst.continuous_state().len(), 3);
    let model = move |s| precision_model(s, k, t_lead, t_lag, tau, 2);
    let mut worst = compare(&mut inst, &slots, "cmd.phi", "lat_cyclic", model);
    worst = worst.max(compare(&mut inst, &slots, "phi", "lat_cyclic", move |s| -model(s)));
    worst = worst.max(compare(&mut inst, &slots, "cmd.phi", "voluntary", model));
    eprintln!("roll tracking, Pade 2: worst relative error {worst:e}");
}

#[test]
fn height_tracking_with_a_first_order_pade_delay_equals_the_precision_model() {
    let (k, t_lead, t_lag, tau) = (0.02, 1.0, 0.2, 0.3);
    let reals =
        [("voluntary.K", k), ("voluntary.T_lead", t_lead), ("voluntary.T_lag", t_lag), ("voluntary.delay", tau)];
    let mut inst = instance(&[("voluntary.task", 2), ("voluntary.pade_order", 1)], &reals);
    let slots = [x::PADE, x::LEAD_LAG];
    assert_eq!(inst.continuous_state().len(), 2);
    let model = move |s| precision_model(s, k, t_lead, t_lag, tau, 1);
    // The error is cmd.height + z (the height is -z).
    let mut worst = compare(&mut inst, &slots, "cmd.height", "collective", model);
    worst = worst.max(compare(&mut inst, &slots, "z", "collective", model));
    eprintln!("height tracking, Pade 1: worst relative error {worst:e}");
}

#[test]
fn without_a_delay_the_voluntary_pilot_is_the_lead_lag() {
    let (k, t_lead, t_lag) = (0.3, 0.4, 0.15);
    let reals = [("voluntary.K", k), ("voluntary.T_lead", t_lead), ("voluntary.T_lag", t_lag)];
    let mut inst = instance(&[("voluntary.task", 1)], &reals);
    assert_eq!(inst.continuous_state().len(), 1);
    compare(&mut inst, &[x::LEAD_LAG], "phi", "lat_cyclic", move |s| -precision_model(s, k, t_lead, t_lag, 0.0, 2));
}

#[test]
fn the_second_order_pade_phase_is_within_2e_3_rad_of_the_delay_up_to_w_tau_1() {
    // The FMU's delayed path alone: T_lead = T_lag makes the lead-lag 1.
    let tau = 0.2;
    let reals = [("voluntary.K", 1.0), ("voluntary.T_lead", 0.1), ("voluntary.T_lag", 0.1), ("voluntary.delay", tau)];
    for (order, bound) in [(2, 2e-3), (1, 8e-2)] {
        let mut inst = instance(&[("voluntary.task", 1), ("voluntary.pade_order", order)], &reals);
        let slots: Vec<usize> = (x::PADE..x::PADE + order as usize).chain([x::LEAD_LAG]).collect();
        for w_tau in [0.1, 0.5, 1.0] {
            let h = fmu_response(&mut inst, &slots, "cmd.phi", "voluntary", w_tau / tau);
            assert!((h.norm() - 1.0).abs() < 1e-12, "all-pass");
            let phase_error = (h.arg() + w_tau).abs();
            assert!(phase_error < bound, "order {order}, w tau {w_tau}: phase error {phase_error}");
        }
    }
}

#[test]
fn model_2_is_mayos_mesomorphic_pilot() {
    // Mayo 1989 as quoted in MBDyn tests/genel/statespace/mayo_meso: (4.02 s + 555.4) / (s^2 + 13.31 s + 555.4).
    let (k, gain) = (0.05, 1.3);
    let mut inst = instance(&[("model", 2)], &[("vertical.K", k), ("gain", gain)]);
    let slots = [x::VERTICAL, x::VERTICAL_RATE];
    assert_eq!(inst.continuous_state().len(), 2);
    // The FMU's input is m/s^2, the transfer function's g.
    let mayo = move |s: C| (s * 4.02 + 555.4) / (s * s + s * 13.31 + 555.4) * (gain * k / G);
    let worst = compare(&mut inst, &slots, "acc.z", "bdft.collective", mayo);
    eprintln!("Mayo mesomorphic: worst relative error {worst:e}");
}
