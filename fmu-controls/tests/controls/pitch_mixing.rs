//! Blade pitch from the Controls FMU against references computed here: the mixing formula over
//! one revolution, rates and accelerations against central differences of the angles, and the
//! actuator step response against `1 - exp(-t / tau)`.

use std::f64::consts::PI;

use fmu_controls::Controls;
use fmu_core::{Instance, Model};

fn vr(name: &str) -> u32 {
    Controls::variables().iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable '{name}'")).vr
}

struct Sim(Instance<Controls>);

impl Sim {
    fn new(params: &[(&str, f64)], nb: i32) -> Sim {
        let mut inst = Instance::<Controls>::new("controls-test");
        inst.set_integer(&[vr("nb")], &[nb]).unwrap();
        for &(name, v) in params {
            inst.set_real(&[vr(name)], &[v]).unwrap();
        }
        inst.setup_experiment(0.0, None).unwrap();
        inst.enter_initialization_mode().unwrap();
        inst.exit_initialization_mode().unwrap();
        Sim(inst)
    }
    fn set(&mut self, name: &str, v: f64) {
        self.0.set_real(&[vr(name)], &[v]).unwrap();
    }
    fn get(&mut self, name: &str) -> f64 {
        let mut v = [0.0];
        self.0.get_real(&[vr(name)], &mut v).unwrap();
        v[0]
    }
}

const NB: usize = 4;
const OMEGA: f64 = 29.0;
const GAINS: [f64; 4] = [1.1, 0.9, 1.2, 0.8];
const PHASE: f64 = 0.15;

/// The documented mixing, written out here: `(theta0, theta1c, theta1s, tail)`.
fn mixing(collective: f64, lon: f64, lat: f64, pedal: f64, tail_offset: f64) -> [f64; 4] {
    // The cyclic pitch is c cos(psi + phase) + s sin(psi + phase), c = -g_lat lat, s = -g_lon lon.
    let (c, s) = (-GAINS[2] * lat, -GAINS[1] * lon);
    let theta1c = c * PHASE.cos() + s * PHASE.sin();
    let theta1s = s * PHASE.cos() - c * PHASE.sin();
    [GAINS[0] * collective, theta1c, theta1s, tail_offset + GAINS[3] * pedal]
}

fn params(tau: f64) -> Vec<(&'static str, f64)> {
    vec![
        ("tau", tau),
        ("gain.collective", GAINS[0]),
        ("gain.lon", GAINS[1]),
        ("gain.lat", GAINS[2]),
        ("gain.pedal", GAINS[3]),
        ("phase", PHASE),
        ("tail.offset", 0.12),
        ("tolerance", 1e-12),
    ]
}

#[test]
fn pitch_over_one_revolution_matches_the_mixing_formula_and_its_derivatives() {
    let mut sim = Sim::new(&params(0.0), NB as i32);
    let (collective, lon, lat, pedal) = (0.14, 0.03, -0.02, 0.05);
    for (n, v) in [("collective", collective), ("lon_cyclic", lon), ("lat_cyclic", lat), ("pedal", pedal)] {
        sim.set(n, v);
    }
    sim.set("azimuth_rate", OMEGA);
    let q = mixing(collective, lon, lat, pedal, 0.12);
    for (name, k) in [("theta0", 0), ("theta1c", 1), ("theta1s", 2), ("tail_collective", 3)] {
        assert!((sim.get(name) - q[k]).abs() < 1e-15, "{name}");
    }
    // The angle as a function of time (azimuth = Omega t), and its central differences.
    let reference = |i: usize, t: f64| {
        let psi = OMEGA * t + 2.0 * PI * i as f64 / NB as f64;
        q[0] + q[1] * psi.cos() + q[2] * psi.sin()
    };
    let period = 2.0 * PI / OMEGA;
    // Truncation error (Omega h)^2 / 6 ~ 1.4e-8 for the rate.
    let h = 1e-5;
    let (mut e_angle, mut e_rate, mut e_acc) = (0.0_f64, 0.0_f64, 0.0_f64);
    for step in 0..=72 {
        let t = period * step as f64 / 72.0;
        // The FMU's pitch at t +- h: the azimuth input advanced by Omega h, read after set.
        let angle_at = |sim: &mut Sim, tt: f64, i: usize| {
            sim.set("azimuth", OMEGA * tt);
            sim.get(&format!("blade[{}].pitch", i + 1))
        };
        for i in 0..NB {
            let (a_m, a_0) = (angle_at(&mut sim, t - h, i), angle_at(&mut sim, t + h, i));
            let a_p = angle_at(&mut sim, t, i);
            let rate = sim.get(&format!("blade[{}].pitch_rate", i + 1));
            let acc = sim.get(&format!("blade[{}].pitch_acc", i + 1));
            let (fd_rate, fd_acc) = ((a_0 - a_m) / (2.0 * h), (a_0 - 2.0 * a_p + a_m) / (h * h));
            e_angle = e_angle.max((a_p - reference(i, t)).abs());
            e_rate = e_rate.max((rate - fd_rate).abs() / (OMEGA * 0.04));
            e_acc = e_acc.max((acc - fd_acc).abs() / (OMEGA * OMEGA * 0.04));
        }
        // Blades above nb are inactive.
        assert_eq!(sim.get("blade[5].pitch"), 0.0);
    }
    eprintln!(
        "one revolution, 4 blades, 73 azimuths: pitch vs mixing formula max error {e_angle:.1e} rad; rate vs central \
         difference {e_rate:.1e}, acceleration vs second difference {e_acc:.1e} (relative to Omega and Omega^2 times \
         the cyclic amplitude)"
    );
    assert!(e_angle < 1e-15);
    assert!(e_rate < 1e-7 && e_acc < 1e-6);
}

#[test]
fn actuator_step_response_matches_the_first_order_lag_and_its_derivatives() {
    let tau = 0.08;
    // Start in equilibrium at the initial inputs, then step all four pilot inputs at t = 0.
    let start = (0.10, 0.01, 0.0, 0.02);
    let mut p = params(tau);
    p.extend([("collective0", start.0), ("lon_cyclic0", start.1), ("lat_cyclic0", start.2), ("pedal0", start.3)]);
    let mut sim = Sim::new(&p, NB as i32);
    let step = (0.16, -0.02, 0.03, -0.04);
    for (n, v) in [("collective", step.0), ("lon_cyclic", step.1), ("lat_cyclic", step.2), ("pedal", step.3)] {
        sim.set(n, v);
    }
    sim.set("azimuth_rate", OMEGA);
    let q0 = mixing(start.0, start.1, start.2, start.3, 0.12);
    let q1 = mixing(step.0, step.1, step.2, step.3, 0.12);
    // Closed form: q(t) = q1 + (q0 - q1) exp(-t / tau); blade pitch with azimuth Omega t.
    let q_at = |t: f64| -> [f64; 4] { std::array::from_fn(|k| q1[k] + (q0[k] - q1[k]) * (-t / tau).exp()) };
    let pitch = |i: usize, t: f64| {
        let q = q_at(t);
        let psi = OMEGA * t + 2.0 * PI * i as f64 / NB as f64;
        q[0] + q[1] * psi.cos() + q[2] * psi.sin()
    };
    let h_comm = 0.002;
    let (mut e_q, mut e_pitch, mut e_rate, mut e_acc) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for n in 0..=250 {
        let t = n as f64 * h_comm;
        sim.set("azimuth", OMEGA * t);
        let q = [sim.get("theta0"), sim.get("theta1c"), sim.get("theta1s"), sim.get("tail_collective")];
        let qr = q_at(t);
        for k in 0..4 {
            // Normalised step response 1 - exp(-t / tau) of each channel.
            if (q1[k] - q0[k]).abs() > 0.0 {
                let measured = (q[k] - q0[k]) / (q1[k] - q0[k]);
                e_q = e_q.max((measured - (1.0 - (-t / tau).exp())).abs());
            }
            assert!((q[k] - qr[k]).abs() < 1e-10, "channel {k} at {t}");
        }
        let h = 1e-5;
        for i in 0..NB {
            let name = |s: &str| format!("blade[{}].{s}", i + 1);
            e_pitch = e_pitch.max((sim.get(&name("pitch")) - pitch(i, t)).abs());
            let fd_rate = (pitch(i, t + h) - pitch(i, t - h)) / (2.0 * h);
            let fd_acc = (pitch(i, t + h) - 2.0 * pitch(i, t) + pitch(i, t - h)) / (h * h);
            e_rate = e_rate.max((sim.get(&name("pitch_rate")) - fd_rate).abs() / fd_rate.abs().max(1.0));
            e_acc = e_acc.max((sim.get(&name("pitch_acc")) - fd_acc).abs() / fd_acc.abs().max(10.0));
        }
        if n < 250 {
            sim.0.do_step(t, h_comm).unwrap();
        }
    }
    eprintln!(
        "actuator step (tau {tau} s, 0.5 s): normalised response vs 1 - exp(-t/tau) max error {e_q:.1e}; blade pitch vs \
         closed form {e_pitch:.1e} rad; pitch rate vs central difference of the closed form {e_rate:.1e} (relative), \
         acceleration {e_acc:.1e}"
    );
    assert!(e_q < 1e-9 && e_pitch < 1e-10);
    assert!(e_rate < 1e-7 && e_acc < 1e-4);
}
