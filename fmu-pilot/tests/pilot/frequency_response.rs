//! The Pilot FMU's frequency response from cockpit acceleration to the biodynamic outputs, from
//! its Model Exchange Jacobians (`fmi2GetDirectionalDerivative`: `A`, `B`, `C`, `D`), against
//! the transfer function `gain K w^2 (1 + tau s) / (s^2 + 2 zeta w s + w^2)` (per g) evaluated
//! here by complex arithmetic, at 0.5 to 10 Hz: magnitude and phase agree to 1e-6 relative.
//! The coefficients are test values (not a published pilot): the check is of the realisation.

use fmu_core::Instance;
use fmu_core::catalog::{DERIVATIVE_VR_BASE, STATE_VR_BASE};
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
    let logger = Box::new(|_, _: &str, message: &str| eprintln!("{message}"));
    let mut inst = Instance::<Pilot>::model_exchange("pilot", logger).unwrap();
    inst.set_integer(&[inst.vr("model").unwrap()], &[1]).unwrap();
    inst.set_real(&[inst.vr("gain").unwrap()], &[gain]).unwrap();
    for axis in axes {
        for (name, v) in [("K", axis.k), ("omega", axis.omega), ("zeta", axis.zeta), ("tau", axis.tau)] {
            let r = inst.vr(&format!("{}.{name}", axis.prefix)).unwrap();
            inst.set_real(&[r], &[v]).unwrap();
        }
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.enter_continuous_time_mode().unwrap();
    inst
}

/// Column `d unknowns / d known` by the FMU's directional derivative.
fn column(inst: &mut Instance<Pilot>, unknowns: &[u32], known: u32) -> Vec<f64> {
    let mut out = vec![0.0; unknowns.len()];
    inst.get_directional_derivative(unknowns, &[known], &[1.0], &mut out).unwrap();
    out
}

/// `C (i w I - A)^-1 B + D` of one axis (its two states), per m/s^2 of the input.
fn fmu_response(inst: &mut Instance<Pilot>, axis: &Axis, w_f: f64) -> Complex {
    let vr = |name: &str| inst.vr(name).unwrap_or_else(|| panic!("no variable {name}"));
    let states = axis.states.map(|k| STATE_VR_BASE + k as u32);
    let derivatives = axis.states.map(|k| DERIVATIVE_VR_BASE + k as u32);
    let (input, output) = (vr(axis.input), vr(axis.output));
    let a: Vec<Vec<f64>> = states.iter().map(|&x| column(inst, &derivatives, x)).collect(); // a[j][i] = dA_ij
    let b = column(inst, &derivatives, input);
    let c: Vec<f64> = states.iter().map(|&x| column(inst, &[output], x)[0]).collect();
    let d = column(inst, &[output], input)[0];
    // (i w I - A) z = B, 2 x 2 by Cramer's rule.
    let m = |i: usize, j: usize| Complex::new(-a[j][i], if i == j { w_f } else { 0.0 });
    let bz = |k: usize| Complex::new(b[k], 0.0);
    let det = m(0, 0).mul(m(1, 1)).sub(m(0, 1).mul(m(1, 0)));
    let z0 = bz(0).mul(m(1, 1)).sub(m(0, 1).mul(bz(1))).div(det);
    let z1 = m(0, 0).mul(bz(1)).sub(m(1, 0).mul(bz(0))).div(det);
    Complex::new(c[0] * z0.re + c[1] * z1.re + d, c[0] * z0.im + c[1] * z1.im)
}

#[test]
fn frequency_response_equals_the_transfer_function_from_0_5_to_10_hz() {
    let axes = [
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
    ];
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
    let axes = [
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
    ];
    let w_f = 2.0 * std::f64::consts::PI * 3.0;
    let mut one = instance(&axes, 1.0);
    let mut three = instance(&axes, 3.0);
    for axis in &axes {
        let (h1, h3) = (fmu_response(&mut one, axis, w_f), fmu_response(&mut three, axis, w_f));
        assert!((h3.abs() / h1.abs() - 3.0).abs() < 1e-12, "{}", axis.prefix);
        assert!((h3.arg() - h1.arg()).abs() < 1e-12, "{}", axis.prefix);
    }
}
