//! How a run of the `orchestrator` binary ends when it does not end well, each case with a C FMU
//! built here (`Slow`, [`SLOW_C`]): results written as the run goes and on every error path,
//! Ctrl-C and SIGTERM, an FMU that crashes the process (SIGSEGV, abort) and an FMU call that never
//! returns (`--fmu-timeout`); the same with the instances isolated in child processes (`--isolate`).
//! The table in `docs/importer-robustness.md` lists the cases.

use crate::import_support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use import_support::compile_shared;

/// A counter that sleeps `sleep_ms` in every `fmi2DoStep`; the step that starts at or after
/// `fail_at` does what `mode` says: 1 writes through a NULL pointer, 2 calls `abort()`, 3 loops
/// forever, 4 returns `fmi2Error` (with a logged message), 5 calls `exit(3)`.
const SLOW_C: &str = r#"
#include <stdlib.h>
#include <time.h>

#include "fmi2_minimal.h"

typedef struct {
    fmi2CallbackFunctions cb;
    char name[64];
    double time, count, sleep_ms, fail_at, mode;
} Inst;

FMI2_INSTANTIATE(Inst,
    strncpy(i->name, name, sizeof i->name - 1);
    i->sleep_ms = 10;
    i->fail_at = 1e300;
)
FMI2_COMMON(Inst)
FMI2_EXPERIMENT_SETS_TIME(Inst)

FMI2_REAL_FIELDS(Inst, 2, &i->time, &i->count, &i->sleep_ms, &i->fail_at, &i->mode)
FMI2_ONLY_REALS

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior) {
    Inst* i = c;
    (void)noSetPrior;
    struct timespec pause = { (time_t)(i->sleep_ms / 1000), (long)(1e6 * (i->sleep_ms - 1000 * (time_t)(i->sleep_ms / 1000))) };
    nanosleep(&pause, NULL);
    if (t >= i->fail_at - 1e-9) {
        if (i->mode == 1) { volatile int* nowhere = NULL; *nowhere = 1; }
        if (i->mode == 2) abort();
        if (i->mode == 3) { volatile int spin = 1; while (spin) {} }
        if (i->mode == 4) {
            i->cb.logger(i->cb.componentEnvironment, i->name, fmi2Error, "logError", "the solver gave up at t = %g", t);
            return fmi2Error;
        }
        if (i->mode == 5) exit(3);
    }
    i->time = t + h;
    i->count += 1;
    return fmi2OK;
}
"#;

/// The description of [`SLOW_C`].
fn slow_xml() -> String {
    import_support::counter_description("Slow", &[("sleep_ms", "10"), ("fail_at", "1e300"), ("mode", "0")])
}

/// A test folder: `Slow.fmu`, `system.json`, and `tmp/`, the child's private TMPDIR.
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    /// `Slow.fmu` and a system of one instance `slow` with `parameters` (JSON object body) over
    /// `experiment` (JSON object).
    fn new(parameters: &str, experiment: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let binary = compile_shared(dir.path(), "slow", SLOW_C);
        let fmu = dir.path().join("Slow.fmu");
        import_support::write_c_fmu(&fmu, &slow_xml(), "Slow", &binary);
        std::fs::write(
            dir.path().join("system.json"),
            format!(
                r#"{{ "fmus": {{ "slow": {{ "path": {fmu:?}, "parameters": {{ {parameters} }} }} }},
                     "experiment": {experiment},
                     "outputs": ["slow.time", "slow.count"] }}"#
            ),
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        Case { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Starts `orchestrator run system.json --out <out> --summary-json summary.json <extra>` with
    /// TMPDIR set to `tmp/`.
    fn start(&self, out: &str, extra: &[&str]) -> Child {
        self.command(out, extra).spawn().unwrap()
    }

    /// The command of [`Case::start`].
    fn command(&self, out: &str, extra: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_orchestrator"));
        command
            // Temporary extractions, so that `leftovers` sees what a failing run leaves behind.
            .env("ROTORCRAFT_FMU_CACHE", "off")
            .arg("run")
            .arg(self.path("system.json"))
            .arg("--out")
            .arg(self.path(out))
            .arg("--summary-json")
            .arg(self.path("summary.json"))
            .args(extra)
            .env("TMPDIR", self.path("tmp"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// The extraction folders left in the child's TMPDIR.
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.path("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    fn summary(&self) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(self.path("summary.json")).unwrap()).unwrap()
    }
}

/// Waits for `child` at most `limit` (killing it after that, so that a failing test does not
/// hang): its status, stdout and stderr, and how long it ran.
fn wait(mut child: Child, limit: Duration) -> (ExitStatus, String, String, Duration) {
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            let output = child.wait_with_output().unwrap();
            panic!("still running after {limit:?}; stderr: {}", String::from_utf8_lossy(&output.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = child.wait_with_output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (status, text(&output.stdout), text(&output.stderr), started.elapsed())
}

/// The CSV rows (time, slow.time, slow.count), after checking the header; every line must parse.
fn csv_rows(path: &Path) -> Vec<Vec<f64>> {
    let csv = std::fs::read_to_string(path).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(r#""time","slow.time","slow.count""#), "{csv}");
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap_or_else(|_| panic!("bad number in {l:?}"))).collect())
        .collect();
    for (n, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 3, "{csv}");
        assert_eq!(row[2], n as f64, "row {n} is the state after {n} steps: {csv}");
    }
    rows
}

/// Signal `name` (`INT`, `TERM`, `KILL`) to the process `child`, with kill(1) (no `unsafe` here).
fn send(child: &Child, name: &str) {
    let status = Command::new("kill").arg(format!("-{name}")).arg(child.id().to_string()).status().unwrap();
    assert!(status.success());
}

/// The processes whose environment has `TMPDIR` set to this case's `tmp/`: the orchestrator
/// started by the test and its `fmu-host` children.
fn processes_of(case: &Case) -> Vec<String> {
    let needle = format!("TMPDIR={}", case.path("tmp").display());
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else { continue };
        if environ.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    found
}

mod crashes;
mod isolated;
mod signals;
mod sweep_worker;
mod sweeps;
mod written_results;
