//! Each loop's transfer function from the FCS FMU's Model Exchange Jacobians
//! (`fmi2GetDirectionalDerivative`: `A`, `B`, `C`, `D` over the configuration's states),
//! `C (i w I - A)^-1 B + D`, against the closed form of the documented structure
//! (`docs/models.md`, FCS) evaluated here in complex arithmetic, at 0.05 to 20 Hz: agreement to
//! 1e-6 relative (the difference's modulus over the reference's). Gains are test values.

use fmu_core::Instance;
use fmu_core::verify::frequency_response::{frequency_response, model_exchange_instance};
use fmu_core::verify::vr;
use fmu_fcs::Fcs;
use fmu_fcs::layout::x;
use nalgebra::Complex;

type C = Complex<f64>;

/// An input, an output and the closed-form transfer function between them.
type Pair = (&'static str, &'static str, Box<dyn Fn(C) -> C>);

/// Frequencies of the comparison, Hz.
const FREQUENCIES_HZ: [f64; 6] = [0.05, 0.2, 1.0, 3.0, 8.0, 20.0];

/// Actuator time constant of the cases that use one, s.
const TAU_A: f64 = 0.05;

/// A Model Exchange instance with the given real and boolean parameters, and the inputs set.
fn instance(reals: &[(&str, f64)], booleans: &[&str], inputs: &[(&str, f64)]) -> Instance<Fcs> {
    model_exchange_instance(|inst: &mut Instance<Fcs>| {
        for &(name, v) in reals.iter().chain(inputs) {
            inst.set_real(&[vr::<Fcs>(name)], &[v]).unwrap();
        }
        for name in booleans {
            inst.set_boolean(&[vr::<Fcs>(name)], &[true]).unwrap();
        }
    })
}

/// `C (i w I - A)^-1 B + D` from `input` to `output`, over the declared states `slots`.
fn fmu_response(inst: &mut Instance<Fcs>, slots: &[usize], input: &str, output: &str, w: f64) -> C {
    let [re, im] = frequency_response(inst, slots, vr::<Fcs>(input), vr::<Fcs>(output), w);
    C::new(re, im)
}

/// One check: a configuration, the states it must have, and closed forms per input-output pair.
struct Case {
    name: &'static str,
    reals: Vec<(&'static str, f64)>,
    booleans: Vec<&'static str>,
    inputs: Vec<(&'static str, f64)>,
    slots: Vec<usize>,
    pairs: Vec<Pair>,
}

/// The first-order actuator `1 / (tau_a s + 1)`.
fn actuator(s: C) -> C {
    C::new(1.0, 0.0) / (s * TAU_A + 1.0)
}

/// `K + Ki / s`.
fn pi(kp: f64, ki: f64) -> impl Fn(C) -> C {
    move |s: C| C::new(kp, 0.0) + C::new(ki, 0.0) / s
}

/// Runs a case: every pair at every frequency within 1e-6 relative; returns the worst error.
fn check(case: Case) -> f64 {
    let mut inst = instance(&case.reals, &case.booleans, &case.inputs);
    assert_eq!(inst.continuous_state().len(), case.slots.len(), "{}: number of states", case.name);
    let mut worst = 0.0_f64;
    for (input, output, reference) in &case.pairs {
        for f in FREQUENCIES_HZ {
            let w = std::f64::consts::TAU * f;
            let (fmu, expected) = (fmu_response(&mut inst, &case.slots, input, output, w), reference(C::new(0.0, w)));
            let error = (fmu - expected).norm() / expected.norm();
            worst = worst.max(error);
            assert!(error < 1e-6, "{}: {input} -> {output} at {f} Hz: FMU {fmu}, closed form {expected}", case.name);
        }
    }
    eprintln!("{}: worst relative error {worst:e}", case.name);
    worst
}

#[test]
fn gearing_and_actuator_equal_gear_over_tau_s_plus_1() {
    let gear = [0.3, -0.2, 0.15, 0.4];
    let mut reals: Vec<(&str, f64)> =
        ["gear.collective", "gear.lon_cyclic", "gear.lat_cyclic", "gear.pedal"].into_iter().zip(gear).collect();
    reals.push(("actuator.tau", TAU_A));
    let pairs: Vec<Pair> = vec![
        ("stick.collective", "collective", Box::new(move |s| actuator(s) * gear[0])),
        ("stick.lon", "lon_cyclic", Box::new(move |s| actuator(s) * gear[1])),
        ("stick.lat", "lat_cyclic", Box::new(move |s| actuator(s) * gear[2])),
        ("stick.pedal", "pedal", Box::new(move |s| actuator(s) * gear[3])),
    ];
    let slots = (x::ACTUATOR..x::ACTUATOR + 4).collect();
    check(Case { name: "gearing", reals, booleans: vec![], inputs: vec![], slots, pairs });
}

#[test]
fn sas_equals_rate_gain_times_washout_times_actuator() {
    let (kp, kq, kr, tau_w) = (0.08, 0.12, 0.2, 1.5);
    let washout = move |s: C| s * tau_w / (s * tau_w + 1.0);
    let reals =
        vec![("sas.K_p", kp), ("sas.K_q", kq), ("sas.K_r", kr), ("sas.washout_tau", tau_w), ("actuator.tau", TAU_A)];
    let pairs: Vec<Pair> = vec![
        ("p", "lat_cyclic", Box::new(move |s| washout(s) * actuator(s) * (-kp))),
        ("q", "lon_cyclic", Box::new(move |s| washout(s) * actuator(s) * kq)),
        ("r", "pedal", Box::new(move |s| washout(s) * actuator(s) * kr)),
        ("p", "aug.lat_cyclic", Box::new(move |s| washout(s) * (-kp))),
    ];
    let slots = (x::ACTUATOR..x::WASHOUT + 3).collect();
    check(Case { name: "SAS", reals, booleans: vec!["sas"], inputs: vec![], slots, pairs });
}

#[test]
fn sas_without_washout_is_pure_rate_feedback() {
    let reals = vec![("sas.K_p", 0.08), ("sas.K_q", 0.12), ("sas.K_r", 0.2)];
    let pairs: Vec<Pair> =
        vec![("p", "lat_cyclic", Box::new(|_| C::new(-0.08, 0.0))), ("r", "pedal", Box::new(|_| C::new(0.2, 0.0)))];
    check(Case { name: "SAS, no washout", reals, booleans: vec!["sas"], inputs: vec![], slots: vec![], pairs });
}

#[test]
fn attitude_and_heading_holds_equal_pi_controllers() {
    let (k_phi, ki_phi, k_theta, ki_theta, k_psi, ki_psi) = (0.5, 0.2, 0.7, 0.3, 0.9, 0.1);
    let reals = vec![
        ("attitude_hold.K_phi", k_phi),
        ("attitude_hold.Ki_phi", ki_phi),
        ("attitude_hold.K_theta", k_theta),
        ("attitude_hold.Ki_theta", ki_theta),
        ("heading_hold.K", k_psi),
        ("heading_hold.Ki", ki_psi),
    ];
    // A heading reference across the +-pi cut: the error is wrapped, its derivative is not changed.
    let inputs = vec![("cmd.psi", 3.0), ("psi", -3.0)];
    let pairs: Vec<Pair> = vec![
        ("phi", "lat_cyclic", Box::new(move |s| -pi(k_phi, ki_phi)(s))),
        ("cmd.phi", "lat_cyclic", Box::new(pi(k_phi, ki_phi))),
        ("theta", "lon_cyclic", Box::new(pi(k_theta, ki_theta))),
        ("cmd.theta", "lon_cyclic", Box::new(move |s| -pi(k_theta, ki_theta)(s))),
        ("psi", "pedal", Box::new(pi(k_psi, ki_psi))),
        ("cmd.psi", "pedal", Box::new(move |s| -pi(k_psi, ki_psi)(s))),
    ];
    let slots = (x::INTEGRAL..x::INTEGRAL + 3).collect();
    let booleans = vec!["attitude_hold", "heading_hold"];
    check(Case { name: "attitude and heading hold", reals, booleans, inputs, slots, pairs });
}

#[test]
fn hover_hold_equals_position_and_velocity_loops_through_the_attitude_hold() {
    let (k_theta, ki_theta, k_phi) = (0.7, 0.3, 0.5);
    let (k_pos, k_vel, k_z, k_w) = (0.4, 0.06, 0.8, 0.05);
    let psi: f64 = 0.7;
    let reals = vec![
        ("attitude_hold.K_phi", k_phi),
        ("attitude_hold.K_theta", k_theta),
        ("attitude_hold.Ki_theta", ki_theta),
        ("hover_hold.K_pos", k_pos),
        ("hover_hold.K_vel", k_vel),
        ("hover_hold.K_z", k_z),
        ("hover_hold.K_w", k_w),
    ];
    let pitch = pi(k_theta, ki_theta);
    let (s_psi, c_psi) = psi.sin_cos();
    // theta_ref = -K_vel (K_pos e_f - u), e_f = cos psi (cmd.x - x) + sin psi (cmd.y - y);
    // lon = -(K + Ki/s) (theta_ref - theta).
    let pairs: Vec<Pair> = vec![
        ("x", "lon_cyclic", Box::new(move |s| -pitch(s) * (k_vel * k_pos * c_psi))),
        ("y", "lon_cyclic", Box::new(move |s| -pi(k_theta, ki_theta)(s) * (k_vel * k_pos * s_psi))),
        ("u", "lon_cyclic", Box::new(move |s| -pi(k_theta, ki_theta)(s) * k_vel)),
        // phi_ref = K_vel (K_pos e_r - v), e_r = -sin psi (cmd.x - x) + cos psi (cmd.y - y); lat = K e_phi.
        ("x", "lat_cyclic", Box::new(move |_| C::new(k_phi * k_vel * k_pos * s_psi, 0.0))),
        ("v", "lat_cyclic", Box::new(move |_| C::new(-k_phi * k_vel, 0.0))),
        // collective = -K_w (K_z (cmd.z - z) - w).
        ("z", "collective", Box::new(move |_| C::new(k_w * k_z, 0.0))),
        ("w", "collective", Box::new(move |_| C::new(k_w, 0.0))),
    ];
    let slots = vec![x::INTEGRAL + 1];
    let (booleans, inputs) = (vec!["attitude_hold", "hover_hold"], vec![("psi", psi)]);
    check(Case { name: "hover hold", reals, booleans, inputs, slots, pairs });
}
