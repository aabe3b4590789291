//! How a run of the `orchestrator` binary ends when it does not end well, each case with a C FMU
//! built here (`Slow`, [`SLOW_C`]): results written as the run goes and on every error path,
//! Ctrl-C and SIGTERM, an FMU that crashes the process (SIGSEGV, abort) and an FMU call that never
//! returns (`--fmu-timeout`); the same with the instances isolated in child processes (`--isolate`).
//! The table in `docs/importer-robustness.md` lists the cases.

use crate::import_support;

use std::io::Write;
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

FMI2_PLATFORM_AND_VERSION

fmi2Component fmi2Instantiate(fmi2String name, int type, fmi2String guid, fmi2String resources,
                              const fmi2CallbackFunctions* f, fmi2Boolean visible, fmi2Boolean loggingOn) {
    (void)type; (void)guid; (void)resources; (void)visible; (void)loggingOn;
    Inst* i = f->allocateMemory(1, sizeof(Inst));
    i->cb = *f;
    strncpy(i->name, name, sizeof i->name - 1);
    i->sleep_ms = 10;
    i->fail_at = 1e300;
    return i;
}

FMI2_FREE_INSTANCE(Inst)
FMI2_IGNORE_DEBUG_LOGGING
FMI2_EXPERIMENT_SETS_TIME(Inst)
FMI2_TRIVIAL_MODES

static double* var(Inst* i, fmi2ValueReference vr) {
    switch (vr) {
    case 0: return &i->time;
    case 1: return &i->count;
    case 2: return &i->sleep_ms;
    case 3: return &i->fail_at;
    case 4: return &i->mode;
    default: return NULL;
    }
}
FMI2_REALS_THROUGH_VAR(2)
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

const SLOW_XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Slow" guid="{slow}" generationTool="gcc by hand">
  <CoSimulation modelIdentifier="Slow" canHandleVariableCommunicationStepSize="true"/>
  <ModelVariables>
    <ScalarVariable name="time" valueReference="0" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="count" valueReference="1" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="sleep_ms" valueReference="2" causality="parameter" variability="fixed"><Real start="10"/></ScalarVariable>
    <ScalarVariable name="fail_at" valueReference="3" causality="parameter" variability="fixed"><Real start="1e300"/></ScalarVariable>
    <ScalarVariable name="mode" valueReference="4" causality="parameter" variability="fixed"><Real start="0"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure><Outputs><Unknown index="1" dependencies=""/><Unknown index="2" dependencies=""/></Outputs></ModelStructure>
</fmiModelDescription>
"#;

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
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&fmu).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("modelDescription.xml", options).unwrap();
        zip.write_all(SLOW_XML.as_bytes()).unwrap();
        zip.start_file("binaries/linux64/Slow.so", options).unwrap();
        zip.write_all(&binary).unwrap();
        zip.finish().unwrap();
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

// ---------------------------------------------------------------------------------------------
// 1. Results are written as they are computed, and on every way the run ends.

#[test]
fn csv_rows_reach_the_file_while_the_run_goes() {
    // 10 ms per step, 100 s of steps: the run would take 100 s.
    let case = Case::new("", r#"{ "stop": 100, "step": 0.01 }"#);
    let child = case.start("results.csv", &[]);
    std::thread::sleep(Duration::from_millis(2500));
    // Rows computed more than a second ago are on disk while the process still runs.
    let during = csv_rows(&case.path("results.csv"));
    send(&child, "KILL");
    let (status, ..) = wait(child, Duration::from_secs(10));
    assert!(!status.success());
    assert!(during.len() >= 50, "after 2.5 s at most 1 s of rows may be buffered: {} rows", during.len());
    // Killed outright: still a valid CSV, cut at a row boundary or within the last row only.
    let csv = std::fs::read_to_string(case.path("results.csv")).unwrap();
    let complete = &csv[..csv.rfind('\n').unwrap() + 1];
    let rows = complete.lines().count() - 1;
    assert!(rows >= during.len(), "{rows} rows after the kill, {} before", during.len());
}

#[test]
fn a_failing_run_keeps_its_rows_and_says_why() {
    // fmi2Error from the step at t = 0.3 (step 0.1): rows 0 ... 0.3 are kept.
    for out in ["results.csv", "results.mat"] {
        let case = Case::new(r#""mode": 4, "fail_at": 0.3, "sleep_ms": 0"#, r#"{ "stop": 10, "step": 0.1 }"#);
        let (status, _, stderr, _) = wait(case.start(out, &[]), Duration::from_secs(30));
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("fmi2DoStep") && stderr.contains("the solver gave up at t = 0.3"), "{stderr}");
        assert!(
            stderr.contains("results so far:") && stderr.contains("(4 rows, to t = 0.30000000000000004 s)"),
            "{stderr}"
        );
        let summary = case.summary();
        let error = summary["error"].as_str().unwrap();
        assert!(error.contains("fmi2DoStep"), "{summary}");
        assert!(summary["stop_reason"].as_str().unwrap().contains("fmi2DoStep"), "{summary}");
        assert_eq!(summary["rows_written"], 4, "{summary}");
        if out.ends_with(".csv") {
            let rows = csv_rows(&case.path(out));
            assert_eq!(rows.len(), 4);
            assert!(case.path("results.units.csv").is_file());
        } else {
            // MAT v4: the data_2 matrix has one column per communication point.
            let bytes = std::fs::read(case.path(out)).unwrap();
            let at = bytes.windows(7).position(|w| w == b"data_2\0").expect("a data_2 matrix");
            let columns = i32::from_le_bytes(bytes[at - 12..at - 8].try_into().unwrap());
            assert_eq!(columns, 4, "rows 0, 0.1, 0.2, 0.3");
        }
        assert!(case.leftovers().is_empty(), "{:?}", case.leftovers());
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Ctrl-C and SIGTERM stop the run cleanly.

/// Sends signal `name` after a second of a long run, to the process, or, with `isolate`, to the
/// process group of the run and its `fmu-host` children (as Ctrl-C in a terminal does).
fn interrupt(expected_code: i32, name: &str, isolate: bool) {
    let case = Case::new("", r#"{ "stop": 100, "step": 0.01 }"#);
    let child = if isolate {
        use std::os::unix::process::CommandExt;
        case.command("results.csv", &["--isolate"]).process_group(0).spawn().unwrap()
    } else {
        case.start("results.csv", &[])
    };
    std::thread::sleep(Duration::from_millis(1000));
    let sent = Instant::now();
    if isolate {
        let group = format!("-{}", child.id());
        let signal = format!("-{}", name.trim_start_matches("SIG"));
        let status = Command::new("kill").arg(signal).arg("--").arg(group).status().unwrap();
        assert!(status.success());
    } else {
        send(&child, name.trim_start_matches("SIG"));
    }
    let (status, _, stderr, _) = wait(child, Duration::from_secs(20));
    assert!(sent.elapsed() < Duration::from_secs(3), "stopped within one step of the signal");
    assert_eq!(status.code(), Some(expected_code), "{stderr}");
    assert!(stderr.contains(&format!("{name} received")), "{stderr}");
    assert!(stderr.contains(&format!("interrupted by {name} at t = ")), "{stderr}");
    let rows = csv_rows(&case.path("results.csv"));
    assert!(rows.len() >= 20, "about 1 s of 10 ms steps: {} rows", rows.len());
    let summary = case.summary();
    assert!(summary["stop_reason"].as_str().unwrap().starts_with(&format!("interrupted by {name}")), "{summary}");
    assert_eq!(summary["rows_written"], rows.len(), "{summary}");
    // The FMU's extraction folder (a TempDir in TMPDIR) was removed.
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}

#[test]
fn sigint_stops_the_run_cleanly() {
    interrupt(130, "SIGINT", false);
}

#[test]
fn sigterm_stops_the_run_cleanly() {
    interrupt(143, "SIGTERM", false);
}

#[test]
fn sigint_to_the_process_group_stops_an_isolated_run_cleanly() {
    // The children ignore it; the run stops after the step in progress and ends them.
    interrupt(130, "SIGINT", true);
}

// ---------------------------------------------------------------------------------------------
// 3. A crashing FMU is named before the process dies.

fn crash(mode: u32, signal: i32, name: &str) {
    // 0.3 s per step of 0.05 s: the crash in the step from t = 0.3 comes after about 1.8 s, so the
    // rows up to t = 0.15 (computed 0.9 s in) went out with the flush at the first second.
    let case =
        Case::new(&format!(r#""mode": {mode}, "fail_at": 0.3, "sleep_ms": 300"#), r#"{ "stop": 10, "step": 0.05 }"#);
    let (status, _, stderr, elapsed) = wait(case.start("results.csv", &[]), Duration::from_secs(30));
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(signal), "the process dies of the signal: {status:?}\n{stderr}");
    assert!(elapsed > Duration::from_millis(1500));
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("fatal signal")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with(&format!("fatal signal {name} in instance 'slow' during fmi2DoStep at t = 0.3 s;")),
        "{stderr}"
    );
    let rows = csv_rows(&case.path("results.csv"));
    assert!(rows.last().unwrap()[0] >= 0.15 - 1e-9, "rows to t = 0.15 at least: {rows:?}");
}

#[test]
fn a_segfaulting_fmu_is_named() {
    crash(1, 11, "SIGSEGV");
}

#[test]
fn an_aborting_fmu_is_named() {
    crash(2, 6, "SIGABRT");
}

// ---------------------------------------------------------------------------------------------
// 4. An FMI call that never returns.

#[test]
fn a_hanging_fmu_call_ends_the_process_after_the_timeout() {
    // 10 ms steps of 0.1 s; the step from t = 0.5 never returns.
    let case = Case::new(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, elapsed) =
        wait(case.start("results.csv", &["--fmu-timeout", "1"]), Duration::from_secs(20));
    assert_eq!(status.code(), Some(124), "{stderr}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    assert!(
        stderr.contains("error: instance 'slow': fmi2DoStep at t = 0.5 s did not return within --fmu-timeout 1 s"),
        "{stderr}"
    );
    // The watchdog flushed the rows computed before the hang: 0 ... 0.5.
    let rows = csv_rows(&case.path("results.csv"));
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());

    // Without the option a normal run is not affected; a zero or negative limit is refused.
    let case = Case::new("", r#"{ "stop": 0.5, "step": 0.1 }"#);
    let (status, _, stderr, _) = wait(case.start("results.csv", &["--fmu-timeout", "5"]), Duration::from_secs(20));
    assert!(status.success(), "{stderr}");
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6);
    let (status, _, stderr, _) = wait(case.start("results.csv", &["--fmu-timeout", "0"]), Duration::from_secs(20));
    assert!(!status.success() && stderr.contains("--fmu-timeout 0: expected a positive number"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// 4b. Two instances stepped on two threads (`--threads 2`).

/// [`Case::new`] with instance `slow` given `parameters` after a second instance, `other`, that
/// runs normally. Both sleep 1 ms per step, so their steps are shared between the two threads
/// (`other` on the calling thread, `slow` on the worker).
fn two_instances(parameters: &str, experiment: &str) -> Case {
    let case = Case::new("", experiment);
    let fmu = case.path("Slow.fmu");
    std::fs::write(
        case.path("system.json"),
        format!(
            r#"{{ "fmus": {{ "other": {{ "path": {fmu:?}, "parameters": {{ "sleep_ms": 1 }} }},
                          "slow": {{ "path": {fmu:?}, "parameters": {{ "sleep_ms": 1, {parameters} }} }} }},
                 "experiment": {experiment},
                 "outputs": ["slow.time", "slow.count"] }}"#
        ),
    )
    .unwrap();
    case
}

#[test]
fn an_error_in_a_worker_thread_is_reported_as_on_one_thread() {
    // fmi2Error from slow's step at t = 0.3: the same error, naming slow, and the same rows.
    let case = two_instances(r#""mode": 4, "fail_at": 0.3"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let mut ends = Vec::new();
    for threads in ["1", "2"] {
        let (status, _, stderr, _) =
            wait(case.start(&format!("t{threads}.csv"), &["--threads", threads]), Duration::from_secs(30));
        assert_eq!(status.code(), Some(1), "{stderr}");
        let error = stderr.lines().find(|l| l.starts_with("error:")).unwrap_or_else(|| panic!("{stderr}")).to_string();
        assert!(
            error.ends_with("failed: slow: fmi2DoStep returned fmi2Error: the solver gave up at t = 0.3"),
            "{stderr}"
        );
        assert!(stderr.contains("the solver gave up at t = 0.3"), "{stderr}");
        ends.push((error, std::fs::read(case.path(&format!("t{threads}.csv"))).unwrap()));
    }
    assert_eq!(ends[0].0, ends[1].0);
    assert!(ends[0].1 == ends[1].1, "the CSV files differ");
    assert_eq!(csv_rows(&case.path("t2.csv")).len(), 4);
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
}

#[test]
fn a_hanging_call_in_a_worker_thread_ends_the_process_after_the_timeout() {
    // slow's step from t = 0.5 never returns while other's calls come and go on the other thread.
    let case = two_instances(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, elapsed) =
        wait(case.start("results.csv", &["--threads", "2", "--fmu-timeout", "1"]), Duration::from_secs(20));
    assert_eq!(status.code(), Some(124), "{stderr}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    assert!(
        stderr.contains("error: instance 'slow': fmi2DoStep at t = 0.5 s did not return within --fmu-timeout 1 s"),
        "{stderr}"
    );
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6);
}

// ---------------------------------------------------------------------------------------------
// 5. Isolated instances (`--isolate`): a crash, an exit or a hang is an ordinary error.

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

#[test]
fn isolated_runs_give_the_same_results_bit_for_bit() {
    let case = Case::new(r#""sleep_ms": 0"#, r#"{ "stop": 1, "step": 0.05 }"#);
    let (status, _, stderr, _) = wait(case.start("in-process.csv", &[]), Duration::from_secs(30));
    assert!(status.success(), "{stderr}");
    let (status, _, stderr, _) = wait(case.start("isolated.csv", &["--isolate"]), Duration::from_secs(30));
    assert!(status.success(), "{stderr}");
    let read = |name: &str| std::fs::read(case.path(name)).unwrap();
    assert_eq!(csv_rows(&case.path("isolated.csv")).len(), 21);
    assert!(read("in-process.csv") == read("isolated.csv"), "the CSV files differ");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));

    // The coupled helicopter (five instances, an algebraic loop solved by Newton with directional
    // derivatives, FMU states saved every step), all isolated.
    let example = std::fs::read_to_string(import_support::workspace_root().join("examples/helicopter.json")).unwrap();
    let mut text = example.clone();
    for model in ["Fuselage", "Rotor", "Aero", "Controls"] {
        let path = import_support::packaged_fmu(model);
        text = text.replace(&format!(r#""model": "{model}""#), &format!(r#""path": {path:?}"#));
    }
    assert_ne!(text, example);
    std::fs::write(case.path("system.json"), text).unwrap();
    let csv = |name: &str, extra: &[&str]| {
        let mut args = vec!["--stop", "0.05", "--output", "fuselage.*", "--output", "rotor.*"];
        args.extend_from_slice(extra);
        let (status, _, stderr, _) = wait(case.start(name, &args), Duration::from_secs(60));
        assert!(status.success(), "{stderr}");
        std::fs::read(case.path(name)).unwrap()
    };
    let (in_process, isolated) = (csv("heli.csv", &[]), csv("heli-isolated.csv", &["--isolate"]));
    assert!(in_process.len() > 1000 && in_process == isolated, "the helicopter CSV files differ");
    // Two threads against one, in process and isolated.
    assert!(csv("heli-2.csv", &["--threads", "2"]) == in_process, "two threads differ from one");
    assert!(csv("heli-isolated-2.csv", &["--isolate", "--threads", "2"]) == isolated, "isolated: two threads differ");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
}

/// Runs `Slow` isolated with `mode` from t = 0.3 (steps of 0.1 s): the run ends with an error
/// naming how the child ended, rows 0 ... 0.3 kept, summary written, nothing left behind.
fn isolated_failure(mode: u32, how: &str) {
    let case =
        Case::new(&format!(r#""mode": {mode}, "fail_at": 0.3, "sleep_ms": 0"#), r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, _) = wait(case.start("results.csv", &["--isolate"]), Duration::from_secs(30));
    assert_eq!(status.code(), Some(1), "an ordinary error: {status:?}\n{stderr}");
    let expected = format!("instance 'slow': the isolated FMU process {how} during fmi2DoStep at t = 0.3 s");
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(!stderr.contains("fatal signal"), "this process did not crash: {stderr}");
    assert!(
        stderr.contains("results so far:") && stderr.contains("(4 rows, to t = 0.30000000000000004 s)"),
        "{stderr}"
    );
    let rows = csv_rows(&case.path("results.csv"));
    assert_eq!(rows.len(), 4, "rows 0 ... 0.3: {rows:?}");
    let summary = case.summary();
    assert!(summary["error"].as_str().unwrap().contains(&expected), "{summary}");
    assert_eq!(summary["rows_written"], 4, "{summary}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}

#[test]
fn an_isolated_segfault_is_an_error_naming_the_call() {
    isolated_failure(1, "died of SIGSEGV");
}

#[test]
fn an_isolated_abort_is_an_error_naming_the_call() {
    isolated_failure(2, "died of SIGABRT");
}

#[test]
fn an_isolated_exit_is_an_error_naming_the_call() {
    isolated_failure(5, "exited with status 3");
}

#[test]
fn an_isolated_hanging_call_is_killed_after_the_timeout() {
    // 10 ms steps of 0.1 s; the step from t = 0.5 never returns.
    let case = Case::new(r#""mode": 3, "fail_at": 0.5"#, r#"{ "stop": 10, "step": 0.1 }"#);
    let (status, _, stderr, elapsed) =
        wait(case.start("results.csv", &["--isolate", "--fmu-timeout", "1"]), Duration::from_secs(20));
    assert_eq!(status.code(), Some(1), "an ordinary error, not the watchdog's exit 124: {stderr}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    let expected = "instance 'slow': fmi2DoStep at t = 0.5 s did not return within --fmu-timeout 1 s; its isolated \
                    process was killed";
    assert!(stderr.contains(expected), "{stderr}");
    assert_eq!(csv_rows(&case.path("results.csv")).len(), 6, "rows 0 ... 0.5");
    let summary = case.summary();
    assert!(summary["error"].as_str().unwrap().contains(expected), "{summary}");
    assert_eq!(summary["rows_written"], 6, "{summary}");
    assert!(case.leftovers().is_empty(), "left in TMPDIR: {:?}", case.leftovers());
    // The spinning child was killed, not left running.
    assert!(processes_of(&case).is_empty(), "{:?}", processes_of(&case));
}
