//! What the master costs per communication step on a trivial FMU, against a bare loop.
//!
//! The FMU is `test-fmus/c/VanDerPol.c` (one RK4 step per `fmi2DoStep`, two outputs), compiled
//! here with the system C compiler and packaged with `test-fmus/c/VanDerPol.xml`. The same run,
//! 1e5 steps of 1e-4 s with both outputs read after every step, is timed four ways:
//!
//! - `bare`: the FMU's own function pointers in a plain loop (`fmi2DoStep` + `fmi2GetReal`), what
//!   a 40-line C program does;
//! - `master`: [`Master::run`] of the library, recording both outputs;
//! - `cli summary`: `orchestrator run` (progress display included), its summary's wall time;
//! - `cli process`: the whole `orchestrator run` process (unpacking, CSV writing included).
//!
//! Each figure is the best of five. Run with `cargo bench -p orchestrator --bench master_overhead`
//! after `cargo build --release -p orchestrator`.

use std::ffi::OsStr;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use cosim::import::{FacadeLogger, Fmu};
use cosim::master::{FmuCache, Master};
use cosim::system::{SystemContext, SystemDescription};

const STEPS: usize = 100_000;
const H: f64 = 1e-4;
const REPEATS: usize = 5;

/// Compiles and packages `VanDerPol.fmu` into `dir`.
fn van_der_pol_fmu(dir: &Path) -> PathBuf {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-fmus/c");
    let library = dir.join("VanDerPol.so");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&compiler)
        .args(["-O2", "-shared", "-fPIC", "-o"])
        .arg(&library)
        .arg(sources.join("VanDerPol.c"))
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {compiler}: {e}"));
    assert!(status.success(), "{compiler} failed on VanDerPol.c");
    let fmu = dir.join("VanDerPol.fmu");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&fmu).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("modelDescription.xml", options).unwrap();
    zip.write_all(&std::fs::read(sources.join("VanDerPol.xml")).unwrap()).unwrap();
    zip.start_file("binaries/linux64/VanDerPol.so", options).unwrap();
    zip.write_all(&std::fs::read(&library).unwrap()).unwrap();
    zip.finish().unwrap();
    fmu
}

/// Seconds per step of the bare loop through the FMU's function pointers.
fn bare(fmu: &Fmu) -> f64 {
    let mut slave = fmu.instantiate("bare", Arc::new(FacadeLogger::default())).unwrap();
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    let functions = *fmu.functions();
    let component = slave.raw_component();
    let vrs = [0u32, 1];
    let mut values = [0.0f64; 2];
    let started = Instant::now();
    let mut t = 0.0;
    for _ in 0..STEPS {
        // SAFETY: `component` is a live, initialised instance of this FMU (`slave` outlives the
        // loop); `vrs` and `values` both hold two elements; step, then get, as FMI 2.0 allows.
        let (step, get) = unsafe {
            (
                (functions.do_step)(component, t, H, 1),
                (functions.get_real)(component, vrs.as_ptr(), 2, values.as_mut_ptr()),
            )
        };
        assert!(step == 0 && get == 0);
        black_box(&values);
        t += H;
    }
    started.elapsed().as_secs_f64() / STEPS as f64
}

fn system_json(fmu: &Path) -> String {
    format!(
        r#"{{ "fmus": {{ "vdp": {{ "path": {fmu:?} }} }},
             "experiment": {{ "stop": {}, "step": {H} }},
             "outputs": ["vdp.x1", "vdp.x2"] }}"#,
        STEPS as f64 * H
    )
}

/// Seconds per step of [`Master::run`].
fn master(fmu: &Path) -> f64 {
    let description = SystemDescription::from_str(&system_json(fmu), "/", &SystemContext::default()).unwrap();
    let mut fmus = FmuCache::default();
    let system = description.resolve(|p| fmus.open(p).map(|f| f.model_description().clone())).unwrap();
    let mut master = Master::new(system, &mut fmus, Arc::new(FacadeLogger::default())).unwrap();
    let started = Instant::now();
    let results = master.run(|_| {}).unwrap();
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(results.time.len(), STEPS + 1);
    seconds / STEPS as f64
}

/// Seconds per step of `orchestrator run`: (its summary's wall time, the whole process).
fn cli(dir: &Path, fmu: &Path) -> (f64, f64) {
    let system = dir.join("vdp.json");
    std::fs::write(&system, system_json(fmu)).unwrap();
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/orchestrator");
    assert!(exe.is_file(), "{} missing: cargo build --release -p orchestrator", exe.display());
    let (csv, summary) = (dir.join("vdp.csv"), dir.join("vdp-summary.json"));
    let started = Instant::now();
    let args = [OsStr::new("run"), system.as_os_str(), OsStr::new("--out"), csv.as_os_str()];
    let out = Command::new(&exe).args(args).arg("--summary-json").arg(&summary).output().unwrap();
    let process = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    (json["wall_seconds"].as_f64().unwrap() / STEPS as f64, process / STEPS as f64)
}

fn best(mut f: impl FnMut() -> f64) -> f64 {
    (0..REPEATS).map(|_| f()).fold(f64::INFINITY, f64::min)
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument (a filter) is ignored here.
    let dir = tempfile::tempdir().unwrap();
    let path = van_der_pol_fmu(dir.path());
    let fmu = Fmu::open(&path).unwrap();
    let bare = best(|| bare(&fmu));
    let master = best(|| master(&path));
    let mut cli_runs = (0..REPEATS).map(|_| cli(dir.path(), &path)).collect::<Vec<_>>();
    cli_runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (summary, _) = cli_runs[0];
    let process = cli_runs.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
    println!("master overhead, VanDerPol C FMU, {STEPS} steps of {H} s, 2 outputs read per step (best of {REPEATS}):");
    println!("  {:<40} {:>9.3} us/step", "bare loop (fmi2DoStep + fmi2GetReal)", bare * 1e6);
    for (name, value) in [
        ("Master::run (library)", master),
        ("orchestrator run, summary wall time", summary),
        ("orchestrator run, whole process", process),
    ] {
        println!("  {:<40} {:>9.3} us/step  {:>6.1} x bare", name, value * 1e6, value / bare);
    }
}
