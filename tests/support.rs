//! Helpers for the workspace-level tests: where the packaged FMUs and the Python environment
//! with the third-party importers are (both set up by `scripts/test.sh`).

use std::path::PathBuf;
use std::process::Command;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// Directory with the packaged `.fmu` files (`ROTORCRAFT_FMU_DIR`, default `target/fmus`).
pub fn fmu_dir() -> PathBuf {
    std::env::var_os("ROTORCRAFT_FMU_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target/fmus"))
}

/// Path of one packaged FMU; panics with the set-up command if it is missing.
pub fn fmu(identifier: &str) -> PathBuf {
    let path = fmu_dir().join(format!("{identifier}.fmu"));
    assert!(path.is_file(), "{} is missing: run `bash scripts/test.sh`, which packages the FMUs", path.display());
    path
}

/// The Python interpreter of the test environment (`ROTORCRAFT_PYTHON`, default
/// `target/venv/bin/python`), which has FMPy installed.
pub fn python() -> PathBuf {
    let path = std::env::var_os("ROTORCRAFT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/venv/bin/python"));
    assert!(path.is_file(), "{} is missing: run `bash scripts/test.sh`, which creates it with FMPy", path.display());
    path
}

/// A CSV file with a quoted header row, as a header and rows of numbers.
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Rows of values.
    pub rows: Vec<Vec<f64>>,
}

impl Table {
    /// Reads a CSV written by `simulate_with_fmpy.py`.
    pub fn read(path: &std::path::Path) -> Table {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let mut lines = text.lines();
        let header = lines.next().expect("header").split(',').map(|s| s.trim_matches('"').to_string()).collect();
        let rows = lines.map(|l| l.split(',').map(|v| v.parse().expect("number")).collect()).collect();
        Table { header, rows }
    }

    /// Index of a column.
    pub fn column(&self, name: &str) -> usize {
        self.header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column '{name}'"))
    }
}

/// Runs FMPy on `fmu` with fixed communication step `step` up to `stop`, with start values, and
/// returns its result table.
pub fn simulate_with_fmpy(
    fmu: &std::path::Path,
    stop: f64,
    step: f64,
    start: &[(&str, String)],
    outputs: &[&str],
) -> Table {
    // One file per call: the tests of one binary run in one process, several on the same FMU.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let out = std::env::temp_dir().join(format!(
        "fmpy-{}-{}-{}.csv",
        std::process::id(),
        CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        fmu.file_stem().and_then(|s| s.to_str()).unwrap_or("fmu")
    ));
    let mut cmd = Command::new(python());
    cmd.arg(workspace_root().join("tests/python/simulate_with_fmpy.py")).arg(fmu).arg(&out).args([
        "--stop",
        &stop.to_string(),
        "--step",
        &step.to_string(),
    ]);
    for (name, value) in start {
        cmd.arg("--start").arg(format!("{name}={value}"));
    }
    for name in outputs {
        cmd.arg("--output").arg(name);
    }
    let status = cmd.status().expect("cannot run the Python interpreter");
    assert!(status.success(), "FMPy simulation failed: {status}");
    let table = Table::read(&out);
    let _ = std::fs::remove_file(&out);
    table
}

/// Runs our FMU `identifier` in FMPy and its model `M` in-process through `fmu_core::Instance`,
/// with the same start values and FMPy's communication points (`start + n * step`), and asserts
/// that every output in `outputs` is bit-identical at every point. Returns FMPy's table.
pub fn assert_fmpy_matches_in_process<M: fmu_core::Model>(
    identifier: &str,
    reals: &[(&str, f64)],
    integers: &[(&str, i32)],
    outputs: &[&str],
    stop: f64,
    step: f64,
) -> Table {
    let mut start: Vec<(&str, String)> = reals.iter().map(|(n, v)| (*n, format!("{v:?}"))).collect();
    start.extend(integers.iter().map(|(n, v)| (*n, v.to_string())));
    let fmpy = simulate_with_fmpy(&fmu(identifier), stop, step, &start, outputs);

    let mut inst = fmu_core::Instance::<M>::new("reference");
    let vr = |inst: &fmu_core::Instance<M>, name: &str| inst.vr(name).unwrap_or_else(|| panic!("no variable {name}"));
    for (name, value) in reals {
        let r = vr(&inst, name);
        inst.set_real(&[r], &[*value]).unwrap();
    }
    for (name, value) in integers {
        let r = vr(&inst, name);
        inst.set_integer(&[r], &[*value]).unwrap();
    }
    inst.setup_experiment(0.0, Some(stop)).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let out_vrs: Vec<u32> = outputs.iter().map(|n| vr(&inst, n)).collect();
    let mut values = vec![0.0; out_vrs.len()];

    let time_col = fmpy.column("time");
    assert_eq!(fmpy.rows.len(), (stop / step).round() as usize + 1, "FMPy rows");
    let mut t = 0.0;
    for (n, row) in fmpy.rows.iter().enumerate() {
        if n > 0 {
            let next = n as f64 * step;
            inst.do_step(t, next - t).unwrap();
            t = next;
        }
        assert_eq!(row[time_col], t, "communication point {n}");
        inst.get_real(&out_vrs, &mut values).unwrap();
        for (k, name) in outputs.iter().enumerate() {
            let theirs = row[fmpy.column(name)];
            assert_eq!(
                theirs.to_bits(),
                values[k].to_bits(),
                "{name} at t = {t}: FMPy {theirs}, in-process {}",
                values[k]
            );
        }
    }
    eprintln!("FMPy vs in-process ({identifier}): {} rows x {} outputs, bit-identical", fmpy.rows.len(), outputs.len());
    fmpy
}
