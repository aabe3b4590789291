//! Overhead of the safe import layer on the stepping path: one communication step of one
//! `Fuselage.fmu` instance (`fmi2DoStep` + `fmi2GetReal` of 12 outputs), called through the raw
//! function pointers ("bare"), through `Slave::do_step`/`Slave::get_real` ("slave") and through
//! an `IsolatedSlave` in a child process (`orchestrator fmu-host`, "isolated"); and the round
//! trip of one call (`fmi2GetReal` of one value) in process and isolated.
//!
//! Needs the packaged FMU: `bash scripts/test.sh` (or `cargo build --release --workspace &&
//! ./target/release/orchestrator package --out target/fmus`); `ROTORCRAFT_FMU_DIR` overrides the
//! directory. Run with `cargo bench -p orchestrator --bench step_overhead`.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use cosim::import::{FacadeLogger, Fmu, HostOptions, IsolatedSlave, OpenOptions, Slave, StepResult, extract_fmu};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};

/// Communication step, s.
const H: f64 = 1e-3;

/// Outputs read after every step.
const OUTPUTS: [&str; 12] =
    ["x", "y", "z", "u", "v", "w", "phi", "theta", "psi", "hub.acc.x", "hub.acc.y", "hub.acc.z"];

fn fuselage_fmu() -> PathBuf {
    let dir = std::env::var_os("ROTORCRAFT_FMU_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fmus"));
    let path = dir.join("Fuselage.fmu");
    assert!(path.is_file(), "{} is missing: run `bash scripts/test.sh` first, which packages the FMUs", path.display());
    path
}

/// An initialised instance and the value references of `outputs`.
fn setup(fmu: &Fmu, name: &str, outputs: &[&str]) -> (Slave, Vec<u32>) {
    let mut slave = fmu.instantiate(name, Arc::new(FacadeLogger::default())).expect("instantiate");
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    let md = fmu.model_description();
    let vrs = outputs.iter().map(|n| md.variable(n).expect("output").value_reference).collect();
    (slave, vrs)
}

/// The floor the other paths are measured against: `fmi2DoStep` then `fmi2GetReal` of
/// `outputs`, through the raw function pointers on an instance of `fmu`.
fn bare_fn_pointers(group: &mut BenchmarkGroup<'_, WallTime>, fmu: &Fmu, outputs: &[&str]) {
    let (slave, vrs) = setup(fmu, "bare", outputs);
    let functions = *fmu.functions();
    let component = slave.raw_component();
    let mut values = vec![0.0f64; vrs.len()];
    let mut t = 0.0;
    group.bench_function("bare_fn_pointers", |b| {
        b.iter(|| {
            // SAFETY: `component` is a live, initialised instance of this FMU (`slave` outlives
            // the benchmark), `vrs` and `values` have the same length, and the calls follow the
            // FMI state machine (step, then get).
            let (step, get) = unsafe {
                (
                    (functions.do_step)(component, t, H, 1),
                    (functions.get_real)(component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()),
                )
            };
            assert_eq!((step, get), (0, 0));
            t += H;
            black_box(&values);
        })
    });
    drop(slave);
}

fn step_overhead(c: &mut Criterion) {
    let fmu = Fmu::open(&fuselage_fmu()).expect("open Fuselage.fmu");
    let mut group = c.benchmark_group("step_overhead");

    bare_fn_pointers(&mut group, &fmu, &OUTPUTS);

    {
        let (mut slave, vrs) = setup(&fmu, "slave", &OUTPUTS);
        let mut values = [0.0f64; OUTPUTS.len()];
        let mut t = 0.0;
        group.bench_function("slave_safe_api", |b| {
            b.iter(|| {
                assert_eq!(slave.do_step(t, H, true).unwrap(), StepResult::Complete);
                slave.get_real(&vrs, &mut values).unwrap();
                t += H;
                black_box(&values);
            })
        });
    }
    let (mut isolated, vrs) = isolated_setup("isolated");
    {
        let mut values = [0.0f64; OUTPUTS.len()];
        let mut t = 0.0;
        group.bench_function("isolated_api", |b| {
            b.iter(|| {
                assert_eq!(isolated.do_step(t, H, true).unwrap(), StepResult::Complete);
                isolated.get_real(&vrs, &mut values).unwrap();
                t += H;
                black_box(&values);
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("call_round_trip");
    let (mut slave, _) = setup(&fmu, "round_trip", &OUTPUTS);
    let mut value = [0.0f64];
    group.bench_function("in_process_get_real_1", |b| {
        b.iter(|| {
            slave.get_real(&vrs[..1], &mut value).unwrap();
            black_box(&value);
        })
    });
    group.bench_function("isolated_get_real_1", |b| {
        b.iter(|| {
            isolated.get_real(&vrs[..1], &mut value).unwrap();
            black_box(&value);
        })
    });
    group.finish();
}

/// An initialised isolated instance of the Fuselage FMU, served by the `orchestrator` binary
/// of this build, and its output value references.
fn isolated_setup(name: &str) -> (IsolatedSlave, Vec<u32>) {
    let (extracted, md) = extract_fmu(&fuselage_fmu(), &OpenOptions::default()).expect("extract Fuselage.fmu");
    let host = HostOptions { executable: env!("CARGO_BIN_EXE_orchestrator").into(), timeout: None };
    let mut slave =
        IsolatedSlave::spawn(Arc::new(extracted), name, Arc::new(FacadeLogger::default()), &host).expect("spawn");
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    let vrs = OUTPUTS.iter().map(|n| md.variable(n).expect("output").value_reference).collect();
    (slave, vrs)
}

criterion_group!(benches, step_overhead, master_overhead);
criterion_main!(benches);

/// The orchestrator's overhead per macro step for a trivial FMU (`TwoMassBody`: two states,
/// one input, three outputs): the master's step and record (signal input, coupling, results
/// row), with and without the FMU-state save that makes rollback possible, against a bare loop
/// of `fmi2DoStep` + `fmi2GetReal` through function pointers on an instance of the same FMU, in
/// the same run.
fn master_overhead(c: &mut Criterion) {
    use cosim::master::{FmuCache, Master};
    use cosim::system::{SystemContext, SystemDescription};
    use test_fmus::Body;

    let dir = tempfile::tempdir().unwrap();
    let path = test_fmus::fixtures::package_test_fmu::<Body>(dir.path());
    let fmu = Fmu::open(&path).unwrap();
    let mut group = c.benchmark_group("master_overhead");
    bare_fn_pointers(&mut group, &fmu, &["x", "v", "a"]);
    for rollback in [true, false] {
        let json = format!(
            r#"{{
          "fmus": {{ "body": {{ "path": "TwoMassBody.fmu" }} }},
          "experiment": {{ "stop": 1e5, "step": 0.001 }},
          "master": {{ "rollback": {rollback} }},
          "inputs": [ {{ "to": "body.F", "signal": {{ "constant": 1.0 }} }} ],
          "outputs": ["body.x", "body.v", "body.a"]
        }}"#
        );
        let mut fmus = FmuCache::default();
        let system = SystemDescription::from_str(&json, dir.path(), &SystemContext::default())
            .unwrap()
            .resolve(|p| fmus.open(p).map(|f| f.model_description().clone()))
            .unwrap();
        let mut master = Master::new(system, &mut fmus, Arc::new(FacadeLogger::default())).unwrap();
        master.initialize().unwrap();
        let mut row = [0.0f64; 3];
        let name = if rollback { "master_step_and_record" } else { "master_step_and_record_no_rollback" };
        group.bench_function(name, |b| {
            b.iter(|| {
                master.step(H).unwrap();
                master.record(&mut row).unwrap();
                black_box(&row);
            })
        });
    }
    group.finish();
}
