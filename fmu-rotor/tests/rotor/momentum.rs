//! The hub loads on the airframe equal the applied blade loads plus gravity minus the rate of
//! change of the rotor's linear momentum, and likewise for the angular momentum about P:
//!
//! ```text
//! F_hub = sum F_i + m_tot g - dL/dt
//! M_hub = sum (r_i x F_i + M_i) + (sum m c) x g - (dH_P/dt + v_P x L)
//! ```
//!
//! with `d/dt` the inertial rate (`X' + w x X` for airframe components). The test computes `L`
//! and `H_P` independently from the FMU's outputs (azimuths, flap and lag angles and rates,
//! shaft rate) and the pitch inputs with its own explicit kinematics (`tests/rotor/common`), and
//! differentiates them by central differences in time. Three scenarios cover the inputs: a fixed
//! hub with gravity and oscillating pitch (driven shaft), an airframe spinning up about P (free
//! shaft with a torque), and an airframe accelerating in translation (driven shaft, gravity).

use crate::common::{BladeState, ParamMap, RefRotor, Sim, TAIL_ROTOR_SHAFT, Val, axpy, b, cross, mv, norm, r};
use fmu_rotor::Rotor;

const G: f64 = 9.80665;

/// The hub motion as functions of time (airframe axes): P's velocity and acceleration and the
/// airframe's angular velocity and acceleration. Gravity in airframe axes is constant.
struct Scenario {
    name: &'static str,
    params: Vec<(&'static str, Val)>,
    gravity: [f64; 3],
    v_p: fn(f64) -> [f64; 3],
    a_p: fn(f64) -> [f64; 3],
    w: fn(f64) -> [f64; 3],
    alpha: fn(f64) -> [f64; 3],
    /// Pitch angle, rate, acceleration of blade `i` (0-based) at time t.
    pitch: fn(usize, f64) -> [f64; 3],
    shaft_torque: f64,
}

/// Constant blade loads (blade axes): force and couple of blade `i`.
fn blade_load(i: usize) -> ([f64; 3], [f64; 3]) {
    let k = i as f64;
    ([40.0 - 15.0 * k, 350.0 + 40.0 * k, 2500.0 - 300.0 * k], [120.0 * k - 50.0, -900.0 + 80.0 * k, 300.0 - 60.0 * k])
}

fn vec_names(prefix: &str) -> [String; 3] {
    ["x", "y", "z"].map(|c| format!("{prefix}.{c}"))
}

/// Sets all time-dependent inputs at the current communication point, with first-order input
/// derivatives so the FMU extrapolates them consistently over the step.
fn set_inputs(sim: &mut Sim, sc: &Scenario, nb: usize) {
    let t = sim.time();
    let (v, a, w, al) = ((sc.v_p)(t), (sc.a_p)(t), (sc.w)(t), (sc.alpha)(t));
    let acc = axpy(a, -1.0, sc.gravity);
    let mut vrs = Vec::new();
    let mut values = Vec::new();
    let mut ders = Vec::new();
    for (names, value, der) in
        [(vec_names("hub.vel"), v, a), (vec_names("hub.omega"), w, al), (vec_names("hub.acc"), acc, [0.0; 3])]
    {
        for k in 0..3 {
            vrs.push(crate::common::vr(&names[k]));
            values.push(value[k]);
            ders.push(der[k]);
        }
    }
    for (k, name) in vec_names("hub.alpha").iter().enumerate() {
        vrs.push(crate::common::vr(name));
        values.push(al[k]);
        ders.push(0.0);
    }
    for i in 0..nb {
        let [p, pd, pdd] = (sc.pitch)(i, t);
        for (name, value, der) in [("pitch", p, pd), ("pitch_rate", pd, pdd), ("pitch_acc", pdd, 0.0)] {
            vrs.push(crate::common::vr(&format!("blade[{}].{name}", i + 1)));
            values.push(value);
            ders.push(der);
        }
    }
    sim.inst.set_real(&vrs, &values).unwrap();
    let orders = vec![1; vrs.len()];
    sim.inst.set_real_input_derivatives(&vrs, &orders, &ders).unwrap();
}

/// One sample: time, the blade states the test reads, and the FMU's hub loads and shaft torque.
struct Sample {
    t: f64,
    blades: Vec<BladeState>,
    force: [f64; 3],
    moment: [f64; 3],
    shaft_torque: f64,
}

fn sample(sim: &mut Sim, sc: &Scenario, nb: usize) -> Sample {
    let t = sim.time();
    let blades = (0..nb)
        .map(|i| {
            let n = i + 1;
            let [p, pd, _] = (sc.pitch)(i, t);
            BladeState {
                azimuth: sim.get(&format!("blade[{n}].azimuth")),
                shaft_rate: sim.get("shaft.rate"),
                lag: sim.get(&format!("blade[{n}].lag")),
                lag_rate: sim.get(&format!("blade[{n}].lag_rate")),
                flap: sim.get(&format!("blade[{n}].flap")),
                flap_rate: sim.get(&format!("blade[{n}].flap_rate")),
                pitch: p,
                pitch_rate: pd,
            }
        })
        .collect();
    Sample { t, blades, force: sim.get3("hub.F"), moment: sim.get3("hub.M"), shaft_torque: sim.get("shaft.torque") }
}

/// Runs a scenario and returns the worst relative errors of force and moment (relative to the
/// largest hub force and moment seen), and of the shaft torque against `-z_H . M_hub`.
fn run(sc: &Scenario, delta: f64, n_samples: usize) -> (f64, f64, f64) {
    let mut owned: Vec<(String, Val)> = sc.params.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    owned.push(("tolerance".into(), r(1e-12)));
    owned.push(("shaft_torque".into(), r(sc.shaft_torque)));
    for i in 0..8 {
        let (f, m) = blade_load(i);
        for k in 0..3 {
            owned.push((vec_names(&format!("blade[{}].F", i + 1))[k].clone(), r(f[k])));
            owned.push((vec_names(&format!("blade[{}].M", i + 1))[k].clone(), r(m[k])));
        }
    }
    let params: Vec<(&str, Val)> = owned.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let map = ParamMap::new(&params);
    let reference = RefRotor::from(&map);
    let nb = Rotor::from_parameters(&map).unwrap().blade_count();
    let mut sim = Sim::new(&params);
    set_inputs(&mut sim, sc, nb);
    let mut samples = Vec::new();
    // Let the blades move away from the initial conditions first.
    let warmup = 0.05;
    while sim.time() < warmup - 1e-12 {
        sim.step(0.005);
        set_inputs(&mut sim, sc, nb);
    }
    for _ in 0..n_samples + 2 {
        samples.push(sample(&mut sim, sc, nb));
        sim.step(delta);
        set_inputs(&mut sim, sc, nb);
    }
    let total_mass = reference.hub_m + nb as f64 * reference.m;
    let z_h = reference.shaft_axis();
    let (mut ef, mut em, mut et, mut sf, mut sm) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for n in 1..=n_samples {
        let (prev, s, next) = (&samples[n - 1], &samples[n], &samples[n + 1]);
        let mom = |x: &Sample| reference.momentum(&x.blades, (sc.v_p)(x.t), (sc.w)(x.t));
        let ((l0, h0), (l, h), (l1, h1)) = (mom(prev), mom(s), mom(next));
        let dt = next.t - prev.t;
        let l_dot = axpy(l1, -1.0, l0).map(|c| c / dt);
        let h_dot = axpy(h1, -1.0, h0).map(|c| c / dt);
        let (w, v_p) = ((sc.w)(s.t), (sc.v_p)(s.t));
        // Applied loads and gravity.
        let mut f_ref = sc.gravity.map(|c| c * total_mass);
        let mut m_ref = [0.0; 3];
        for (i, bs) in s.blades.iter().enumerate() {
            let k = reference.blade(bs);
            let (f, m) = blade_load(i);
            let (fa, ma) = (mv(&k.rot, f), mv(&k.rot, m));
            f_ref = axpy(f_ref, 1.0, fa);
            m_ref = axpy(axpy(m_ref, 1.0, cross(k.root, fa)), 1.0, ma);
            m_ref = axpy(m_ref, reference.m, cross(k.com, sc.gravity));
        }
        f_ref = axpy(f_ref, -1.0, axpy(l_dot, 1.0, cross(w, l)));
        m_ref = axpy(m_ref, -1.0, axpy(axpy(h_dot, 1.0, cross(w, h)), 1.0, cross(v_p, l)));
        ef = ef.max(norm(axpy(s.force, -1.0, f_ref)));
        em = em.max(norm(axpy(s.moment, -1.0, m_ref)));
        sf = sf.max(norm(s.force));
        sm = sm.max(norm(s.moment));
        // The drive torque is the only moment the bearing transmits about the shaft axis.
        et = et.max((s.shaft_torque + crate::common::dot(z_h, s.moment)).abs());
    }
    eprintln!(
        "momentum [{}], delta {delta:e} s: max |F - F_ref| = {ef:.3e} N of max |F| {sf:.3e} N (rel {:.3e}); \
         max |M - M_ref| = {em:.3e} N m of max |M| {sm:.3e} N m (rel {:.3e}); max |shaft.torque + z_H.M| = {et:.3e} N m",
        sc.name,
        ef / sf,
        em / sm,
    );
    (ef / sf, em / sm, et / sm)
}

fn zero3(_: f64) -> [f64; 3] {
    [0.0; 3]
}

fn fixed_pitch(i: usize, _t: f64) -> [f64; 3] {
    [0.05 + 0.03 * i as f64, 0.0, 0.0]
}

fn scenarios() -> Vec<Scenario> {
    let common_params: Vec<(&'static str, Val)> = vec![
        ("e_lag", r(0.2)),
        ("blade.I_pitch", r(5.0)),
        ("k_flap", r(3000.0)),
        ("blade.beta0", r(0.05)),
        ("blade.zeta0", r(-0.02)),
        ("hub.m", r(60.0)),
        ("hub.I", r(25.0)),
    ];
    let with = |extra: &[(&'static str, Val)]| {
        let mut p = common_params.clone();
        p.extend_from_slice(extra);
        p
    };
    vec![
        Scenario {
            name: "fixed hub, gravity, oscillating pitch, driven shaft",
            params: with(&[]),
            gravity: [0.0, 0.0, G],
            v_p: zero3,
            a_p: zero3,
            w: zero3,
            alpha: zero3,
            pitch: |i, t| {
                // A cyclic-like pitch at 1/rev plus a 3 Hz collective wobble.
                let phase = 29.0 * t + 1.7 * i as f64;
                let wob = 2.0 * std::f64::consts::PI * 3.0;
                let th = 0.08 + 0.05 * phase.sin() + 0.01 * (wob * t).sin();
                let thd = 0.05 * 29.0 * phase.cos() + 0.01 * wob * (wob * t).cos();
                let thdd = -0.05 * 29.0 * 29.0 * phase.sin() - 0.01 * wob * wob * (wob * t).sin();
                [th, thd, thdd]
            },
            shaft_torque: 0.0,
        },
        Scenario {
            name: "airframe spinning up about P, free shaft with torque",
            params: with(&[("shaft_free", b(true)), ("nb", crate::common::i(3))]),
            gravity: [0.0; 3],
            v_p: zero3,
            a_p: zero3,
            w: |t| [0.2 + 0.5 * t, -0.3 + 0.8 * t, 0.1 - 0.4 * t],
            alpha: |_| [0.5, 0.8, -0.4],
            pitch: fixed_pitch,
            shaft_torque: 25000.0,
        },
        Scenario {
            name: "airframe accelerating in translation, gravity, tail-rotor shaft",
            params: with(&[&[("nb", crate::common::i(5))][..], &TAIL_ROTOR_SHAFT].concat()),
            gravity: [0.0, 0.0, G],
            v_p: |t| [30.0 + 2.0 * t, -1.0 + 0.5 * t, 3.0 - 4.0 * t],
            a_p: |_| [2.0, 0.5, -4.0],
            w: zero3,
            alpha: zero3,
            pitch: fixed_pitch,
            shaft_torque: 0.0,
        },
    ]
}

#[test]
fn hub_loads_equal_applied_loads_minus_momentum_rate() {
    // The central differences are O(delta^2): the discrepancy must be small and shrink fourfold
    // when delta halves (anything else would be a modelling error, not a truncation error).
    for sc in scenarios() {
        let (ef1, em1, _) = run(&sc, 1e-4, 30);
        let (ef, em, et) = run(&sc, 5e-5, 30);
        assert!(ef < 1e-6 && em < 1e-5, "{}: force {ef:e}, moment {em:e}", sc.name);
        assert!(
            ef1 / ef > 3.0 && em1 / em > 3.0,
            "{}: no second-order convergence: {ef1:e} -> {ef:e}, {em1:e} -> {em:e}",
            sc.name
        );
        assert!(et < 1e-9, "{}: shaft torque {et:e}", sc.name);
    }
}
