//! Cost of one output evaluation of the helicopter's main-rotor `Aero` (4 blades, 20 stations,
//! uniform inflow; `examples/helicopter.json`) through `fmu_core::Instance<Aero>` (the code path
//! of the exported C ABI minus the pointer checks), and of one blade-element pass of the inflow
//! iteration (`Aero::loads` along the inflow ratio, as `Dual64`); the output evaluation also
//! with the NACA 0012 table and Prandtl's tip and root loss (`airfoil = 1`, `tip_loss = 2`).
//!
//! `step`: one Co-Simulation step per inflow model (uniform, Pitt-Peters, Peters-He).
//!
//! Run with `cargo bench -p fmu-aero --bench outputs`.
//!
//! **Fixed work** (for instruction counts and paired whole-process runs, which a loaded machine
//! disturbs less than criterion's wall-clock times): with `AERO_BENCH_FIXED=NAME:COUNT` the
//! binary makes `COUNT` iterations of the bench `NAME` (one of the `outputs_*` or `step_*` below)
//! and exits, e.g. `AERO_BENCH_FIXED=outputs_uniform_inflow_table_tip_loss:400 valgrind
//! --tool=callgrind target/release/deps/outputs-*` (the difference of two counts removes the
//! set-up).

use std::hint::black_box;

use criterion::{Criterion, criterion_group};
use fmu_aero::Aero;
use fmu_aero::inflow::Inflow;
use fmu_aero::layout::u;
use fmu_core::model::Parameters;
use fmu_core::variable::{Causality, Kind};
use fmu_core::{Dual64, Instance};

/// Rotor speed of the main rotor, rad/s.
const OMEGA: f64 = 44.40118;
/// Root-reference radius, m.
const E: f64 = 0.6874;
/// Collective pitch of every blade, rad.
const PITCH: f64 = 0.14;

/// The main rotor's parameters of `examples/helicopter.json`.
const PARAMETERS: [(&str, f64); 13] = [
    ("R", 4.91),
    ("e", E),
    ("r_root", E),
    ("chord", 0.27),
    ("twist", -0.1396),
    ("a", 5.73),
    ("cd0", 0.008),
    ("cd2", 0.4),
    ("rho", 1.225),
    ("Omega", OMEGA),
    ("shaft.nx", 0.0),
    ("shaft.ny", 0.0),
    ("shaft.nz", -1.0),
];

/// Blade inputs in blade axes for a hovering rotor at `azimuth`, rad: root velocity
/// `Omega e` along blade y, angular velocity `Omega` about the shaft, the shaft (up, body -z)
/// tilted by the pitch; and a hub moving forward at 10 m/s.
fn blade_inputs(azimuth: f64) -> Vec<(String, f64)> {
    let mut values = Vec::new();
    for i in 1..=4 {
        let psi = azimuth + (i - 1) as f64 * std::f64::consts::FRAC_PI_2;
        let (s, c) = PITCH.sin_cos();
        for (name, v) in [
            ("vel.y", OMEGA * E + 10.0 * psi.sin()),
            ("omega.y", -OMEGA * s),
            ("omega.z", OMEGA * c),
            ("azimuth", psi),
            ("shaft.y", -s),
            ("shaft.z", -c),
        ] {
            values.push((format!("blade[{i}].{name}"), v));
        }
    }
    values.push(("hub.vel.x".into(), 10.0));
    values
}

/// The main rotor with the integer parameters `options` on top (e.g. `("airfoil", 1)`).
fn instance(options: &[(&str, i32)]) -> Instance<Aero> {
    let mut inst = Instance::<Aero>::new("bench");
    for (name, v) in PARAMETERS {
        let vr = inst.vr(name).unwrap();
        inst.set_real(&[vr], &[v]).unwrap();
    }
    for &(name, v) in [("nb", 4), ("n_sections", 20), ("inflow_model", 1)].iter().chain(options) {
        let vr = inst.vr(name).unwrap();
        inst.set_integer(&[vr], &[v]).unwrap();
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst
}

/// Parameter values by value reference: the main rotor's, the integer options given, defaults
/// otherwise.
struct MainRotor(Vec<fmu_core::Variable>, &'static [(&'static str, i32)]);

impl MainRotor {
    fn start(&self, vr: u32) -> Kind {
        self.0.iter().find(|v| v.vr == vr).unwrap().kind
    }
}

impl Parameters for MainRotor {
    fn real(&self, vr: u32) -> f64 {
        let name = &self.0.iter().find(|v| v.vr == vr).unwrap().name;
        if let Some((_, v)) = PARAMETERS.iter().find(|(n, _)| n == name) {
            return *v;
        }
        match self.start(vr) {
            Kind::Real { start, .. } => start,
            _ => unreachable!(),
        }
    }
    fn integer(&self, vr: u32) -> i32 {
        let name = self.0.iter().find(|v| v.vr == vr).unwrap().name.as_str();
        if let Some((_, v)) = self.1.iter().find(|(n, _)| *n == name) {
            return *v;
        }
        match name {
            "nb" => 4,
            "n_sections" => 20,
            "inflow_model" => 1,
            _ => match self.start(vr) {
                Kind::Integer { start, .. } => start,
                _ => unreachable!(),
            },
        }
    }
    fn boolean(&self, vr: u32) -> bool {
        match self.start(vr) {
            Kind::Boolean { start } => start,
            _ => unreachable!(),
        }
    }
}

/// The output-evaluation cases: name and integer options.
const OUTPUT_CASES: [(&str, &[(&str, i32)]); 4] = [
    ("outputs_uniform_inflow", &[]),
    // The NACA 0012 table and Prandtl's tip and root loss (issue 30: at most 1.5x the above).
    ("outputs_uniform_inflow_table_tip_loss", &[("airfoil", 1), ("tip_loss", 2)]),
    ("outputs_uniform_inflow_table", &[("airfoil", 1)]),
    ("outputs_uniform_inflow_tip_loss", &[("tip_loss", 2)]),
];

/// One iteration of `outputs_uniform_inflow` (see the module docs) of an instance with `options`.
fn outputs_iteration(options: &[(&str, i32)]) -> impl FnMut() -> f64 {
    let mut inst = instance(options);
    let sets: Vec<(Vec<u32>, Vec<f64>)> = [0.0, 0.1]
        .iter()
        .map(|&psi| {
            let inputs = blade_inputs(psi);
            (inputs.iter().map(|(n, _)| inst.vr(n).unwrap()).collect(), inputs.iter().map(|(_, v)| *v).collect())
        })
        .collect();
    let outputs: Vec<u32> =
        inst.catalog().variables.iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect();
    let mut y = vec![0.0; outputs.len()];
    let thrust = inst.vr("thrust").unwrap();
    for (vrs, values) in &sets {
        inst.set_real(vrs, values).unwrap();
        let mut t = [0.0];
        inst.get_real(&[thrust], &mut t).unwrap();
        assert!(t[0] > 1e4, "the bench rotor should lift: thrust {} N", t[0]);
    }
    // Alternating between two azimuths: every evaluation solves for the inflow (two or three
    // blade-element passes from the other azimuth's inflow).
    let mut k = 0;
    move || {
        let (vrs, values) = &sets[k & 1];
        k += 1;
        inst.set_real(vrs, values).unwrap();
        inst.get_real(&outputs, &mut y).unwrap();
        y[0]
    }
}

fn bench(c: &mut Criterion) {
    for (name, options) in OUTPUT_CASES {
        let mut iteration = outputs_iteration(options);
        c.bench_function(name, |b| b.iter(|| black_box(iteration())));
    }
    let inst = instance(&[]);

    let mut us = [Dual64::from(0.0); u::N];
    let inputs: Vec<&str> =
        inst.catalog().variables.iter().filter(|v| v.causality == Causality::Input).map(|v| v.name.as_str()).collect();
    for (name, v) in blade_inputs(0.0) {
        us[inputs.iter().position(|&n| n == name).unwrap()] = Dual64::from(v);
    }
    let inflow = Inflow::uniform(Dual64::new(0.05, 1.0));
    for (name, options) in [
        ("blade_element_pass", &[][..]),
        ("blade_element_pass_table_tip_loss", &[("airfoil", 1), ("tip_loss", 2)][..]),
        ("blade_element_pass_table", &[("airfoil", 1)][..]),
        ("blade_element_pass_tip_loss", &[("tip_loss", 2)][..]),
    ] {
        let variables = fmu_aero::layout::TABLES.variables();
        let aero = <Aero as fmu_core::model::Model>::configure(&MainRotor(variables, options)).unwrap();
        c.bench_function(name, |b| b.iter(|| black_box(aero.loads(black_box(&us), &inflow)).thrust));
    }
}

/// The Co-Simulation step cases: uniform momentum (today's default), Pitt-Peters and Peters-He
/// with 3, 10 and 36 states.
const STEP_CASES: [(&str, &[(&str, i32)]); 5] = [
    ("step_uniform", &[("inflow_model", 1)]),
    ("step_pitt_peters", &[("inflow_model", 2)]),
    ("step_peters_he_3_states", &[("inflow_model", 3), ("peters_he_harmonics", 1), ("peters_he_radial", 1)]),
    ("step_peters_he_10_states", &[("inflow_model", 3), ("peters_he_harmonics", 2), ("peters_he_radial", 2)]),
    ("step_peters_he_36_states", &[("inflow_model", 3), ("peters_he_harmonics", 4), ("peters_he_radial", 4)]),
];

/// One Co-Simulation step of 1 ms (set the blade inputs, `fmi2DoStep`, get all outputs), the
/// azimuth advancing, for each inflow model of [`STEP_CASES`].
fn step(c: &mut Criterion) {
    for (name, integers) in STEP_CASES {
        let mut iteration = step_iteration(integers);
        c.bench_function(name, |b| b.iter(|| black_box(iteration())));
    }
}

/// One iteration of a step bench of an instance with the integer parameters `integers`.
fn step_iteration(integers: &[(&str, i32)]) -> impl FnMut() -> f64 {
    let mut inst = instance(integers);
    let h = 1e-3;
    let sets: Vec<(Vec<u32>, Vec<f64>)> = (0..64)
        .map(|k| {
            let inputs = blade_inputs(OMEGA * h * k as f64);
            (inputs.iter().map(|(n, _)| inst.vr(n).unwrap()).collect(), inputs.iter().map(|(_, v)| *v).collect())
        })
        .collect();
    let outputs: Vec<u32> =
        inst.catalog().variables.iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect();
    let mut y = vec![0.0; outputs.len()];
    let mut k = 0;
    move || {
        let (vrs, values) = &sets[k % sets.len()];
        k += 1;
        inst.set_real(vrs, values).unwrap();
        let t = inst.time();
        inst.do_step(t, h).unwrap();
        inst.get_real(&outputs, &mut y).unwrap();
        y[0]
    }
}

/// `AERO_BENCH_FIXED=NAME:COUNT`: `COUNT` iterations of the bench `NAME` (see the module docs).
fn fixed_work(spec: &str) {
    let (name, count) = spec.split_once(':').expect("AERO_BENCH_FIXED=NAME:COUNT");
    let count: usize = count.parse().expect("a count");
    let options = OUTPUT_CASES.iter().chain(&STEP_CASES).find(|(n, _)| *n == name).expect("a bench name").1;
    let mut iteration: Box<dyn FnMut() -> f64> = if name.starts_with("step_") {
        Box::new(step_iteration(options))
    } else {
        Box::new(outputs_iteration(options))
    };
    let sum: f64 = (0..count).map(|_| iteration()).sum();
    println!("{name}: {count} iterations (checksum {sum})");
}

criterion_group!(benches, bench, step);

fn main() {
    if let Ok(spec) = std::env::var("AERO_BENCH_FIXED") {
        fixed_work(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
