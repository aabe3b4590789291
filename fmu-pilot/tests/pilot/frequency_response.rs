//! The Pilot FMU's frequency response from cockpit acceleration to the biodynamic outputs, from
//! its Model Exchange Jacobians (`fmi2GetDirectionalDerivative`: `A`, `B`, `C`, `D`), against
//! the transfer function `gain K w^2 (1 + tau s) / (s^2 + 2 zeta w s + w^2)` (per g) evaluated
//! here by complex arithmetic, at 0.5 to 10 Hz: magnitude and phase agree to 1e-6 relative.
//! The coefficients are test values (not a published pilot): the check is of the realisation.

use fmu_core::Instance;
use fmu_core::verify::frequency_response::{frequency_response, model_exchange_instance};
use fmu_core::verify::vr;
use fmu_pilot::Pilot;
use fmu_pilot::layout::{G, x};

/// A complex number `re + i im`, with what the reference needs.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    fn new(re: f64, im: f64) -> Self {
        Complex { re, im }
    }
    fn mul(self, o: Complex) -> Complex {
        Complex::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
    fn sub(self, o: Complex) -> Complex {
        Complex::new(self.re - o.re, self.im - o.im)
    }
    fn div(self, o: Complex) -> Complex {
        let d = o.re * o.re + o.im * o.im;
        Complex::new((self.re * o.re + self.im * o.im) / d, (self.im * o.re - self.re * o.im) / d)
    }
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    fn arg(self) -> f64 {
        self.im.atan2(self.re)
    }
}

/// One axis's coefficients and the names of its parameters, input and output.
struct Axis {
    prefix: &'static str,
    input: &'static str,
    output: &'static str,
    /// Positions of its two states in `x`.
    states: [usize; 2],
    k: f64,
    omega: f64,
    zeta: f64,
    tau: f64,
}

/// The reference: `gain K w^2 (1 + tau s) / (s^2 + 2 zeta w s + w^2)` at `s = i w_f`, per g.
fn transfer_function(axis: &Axis, gain: f64, w_f: f64) -> Complex {
    let s = Complex::new(0.0, w_f);
    let w2 = axis.omega * axis.omega;
    let num = Complex::new(gain * axis.k * w2, 0.0).mul(Complex::new(1.0, axis.tau * w_f));
    let den = s.mul(s).sub(Complex::new(-w2, -2.0 * axis.zeta * axis.omega * w_f));
    num.div(den)
}

/// A Model Exchange instance with `model = 1`, the two axes and `gain`, in continuous-time mode.
fn instance(axes: &[Axis; 2], gain: f64) -> Instance<Pilot> {
    instance_of_model(1, axes, gain)
}

/// A Model Exchange instance with `model`, the axes' coefficients and `gain`.
fn instance_of_model(model: i32, axes: &[Axis], gain: f64) -> Instance<Pilot> {
    model_exchange_instance(|inst: &mut Instance<Pilot>| {
        inst.set_integer(&[vr::<Pilot>("model")], &[model]).unwrap();
        inst.set_real(&[vr::<Pilot>("gain")], &[gain]).unwrap();
        for axis in axes {
            for (name, v) in [("K", axis.k), ("omega", axis.omega), ("zeta", axis.zeta), ("tau", axis.tau)] {
                inst.set_real(&[vr::<Pilot>(&format!("{}.{name}", axis.prefix))], &[v]).unwrap();
            }
        }
    })
}

/// `C (i w I - A)^-1 B + D` of one axis (its two states), per m/s^2 of the input.
fn fmu_response(inst: &mut Instance<Pilot>, axis: &Axis, w_f: f64) -> Complex {
    let [re, im] = frequency_response(inst, &axis.states, vr::<Pilot>(axis.input), vr::<Pilot>(axis.output), w_f);
    Complex::new(re, im)
}

/// The two test axes (coefficients are test values, not a published pilot).
fn test_axes() -> [Axis; 2] {
    [
        Axis {
            prefix: "vertical",
            input: "acc.z",
            output: "bdft.collective",
            states: [x::VERTICAL, x::VERTICAL_RATE],
            k: 0.05,
            omega: 20.0,
            zeta: 0.3,
            tau: 0.02,
        },
        Axis {
            prefix: "lateral",
            input: "acc.y",
            output: "bdft.lat_cyclic",
            states: [x::LATERAL, x::LATERAL_RATE],
            k: -0.03,
            omega: 15.0,
            zeta: 0.6,
            tau: 0.0,
        },
    ]
}

#[test]
fn frequency_response_equals_the_transfer_function_from_0_5_to_10_hz() {
    let axes = test_axes();
    let gain = 1.7;
    let mut inst = instance(&axes, gain);
    let mut worst = 0.0_f64;
    for axis in &axes {
        for f_hz in [0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0] {
            let w_f = 2.0 * std::f64::consts::PI * f_hz;
            let reference = transfer_function(axis, gain, w_f);
            let fmu = fmu_response(&mut inst, axis, w_f);
            // The FMU's input is m/s^2, the transfer function's g.
            let magnitude = fmu.abs() * G;
            let rel_mag = (magnitude - reference.abs()).abs() / reference.abs();
            let rel_phase = (fmu.arg() - reference.arg()).abs() / reference.arg().abs().max(1e-3);
            worst = worst.max(rel_mag).max(rel_phase);
            assert!(
                rel_mag < 1e-6 && rel_phase < 1e-6,
                "{} at {f_hz} Hz: FMU |H| {magnitude:e} phase {:.9} rad, reference {:e} {:.9}",
                axis.prefix,
                fmu.arg(),
                reference.abs(),
                reference.arg()
            );
        }
    }
    eprintln!("worst relative error of magnitude and phase: {worst:e}");
}

#[test]
fn the_overall_gain_scales_both_paths() {
    let axes = test_axes();
    let w_f = 2.0 * std::f64::consts::PI * 3.0;
    let mut one = instance(&axes, 1.0);
    let mut three = instance(&axes, 3.0);
    for axis in &axes {
        let (h1, h3) = (fmu_response(&mut one, axis, w_f), fmu_response(&mut three, axis, w_f));
        assert!((h3.abs() / h1.abs() - 3.0).abs() < 1e-12, "{}", axis.prefix);
        assert!((h3.arg() - h1.arg()).abs() < 1e-12, "{}", axis.prefix);
    }
}

/// `model = 3`, the lateral arm alone (the parametric second-order arm; no published lateral
/// coefficients were found, docs/models.md): two states, the lateral path's frequency response
/// equals its transfer function at 0.1 to 20 Hz (through the arm's resonance at 15 rad/s =
/// 2.39 Hz), and nothing reaches the collective.
#[test]
fn lateral_arm_alone_has_two_states_and_the_transfer_functions_response() {
    let [vertical, lateral] = test_axes();
    let gain = 0.8;
    let mut inst = instance_of_model(3, std::slice::from_ref(&lateral), gain);
    assert_eq!(inst.continuous_state().len(), 2);
    let mut worst = 0.0_f64;
    for f_hz in [0.1, 0.5, 1.0, 2.0, 2.387, 3.0, 5.0, 10.0, 20.0] {
        let w_f = 2.0 * std::f64::consts::PI * f_hz;
        let reference = transfer_function(&lateral, gain, w_f);
        let fmu = fmu_response(&mut inst, &lateral, w_f);
        let rel = (Complex::new(fmu.re * G, fmu.im * G).sub(reference)).abs() / reference.abs();
        worst = worst.max(rel);
        assert!(rel < 1e-9, "{f_hz} Hz: FMU {fmu:?} * g, reference {reference:?}");
    }
    let to_collective = frequency_response(
        &mut inst,
        &[x::LATERAL, x::LATERAL_RATE],
        vr::<Pilot>(vertical.input),
        vr::<Pilot>(vertical.output),
        1.0,
    );
    assert_eq!(to_collective, [0.0, 0.0]);
    eprintln!("model = 3, lateral arm: worst relative complex error {worst:e}");
}
