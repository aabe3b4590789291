//! Misbehaving FMUs and archives, each built here (C compiled with the system compiler, archives
//! written with the `zip` crate), against the importer and the `orchestrator` binary: hostile log
//! formats, an FMU that terminates the simulation itself, binaries the loader refuses, duplicate
//! archive entries, and experiments with absurd numbers of communication points. The table in
//! `docs/importer-robustness.md` lists the cases.

use crate::import_support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use cosim::import::{Fmu, ImportError, Status, StepResult};
use import_support::{Collector, compile_shared};

/// A bouncing-ball-like counter: every completed step adds one to `count`. A step that would pass
/// `t_end` (default 0.35 s) stops there and returns `fmi2Discard`; with `terminate` = 1 (default)
/// `fmi2GetBooleanStatus(fmi2Terminated)` is then true (the FMU ended the simulation), with 0 it is
/// a plain discard. With `HOSTILE` defined, `fmi2Instantiate` and the first `fmi2DoStep` log
/// [`hostile_messages`] (the C function) through the variadic logger.
const BALL_C: &str = r#"

#include "fmi2_minimal.h"

typedef struct {
    fmi2CallbackFunctions cb;
    char name[64];
    double time, count, terminate, t_end, last_ok;
    int terminated, steps;
} Inst;

#define LOG(i, status, ...) (i)->cb.logger((i)->cb.componentEnvironment, (i)->name, status, "hostile", __VA_ARGS__)

#ifdef HOSTILE
static char big[100 * 1024 + 1];
static char utf8[4096 + 8];
static void hostile_messages(Inst* i) {
    memset(big, 'b', 100 * 1024);
    memset(utf8, 'a', 4095);
    strcpy(utf8 + 4095, "\xc3\xa9z"); /* an e-acute straddling the 4096-byte limit */
    LOG(i, fmi2Warning, "%s%s%s%n");
    LOG(i, fmi2Warning, "%n");
    LOG(i, fmi2Warning, "100%");
    LOG(i, fmi2Warning, "%s", "a real string");
    LOG(i, fmi2Warning, "%s", big);
    LOG(i, fmi2Warning, big);
    LOG(i, fmi2Warning, "%%n is a literal: %d%%", 7);
    LOG(i, fmi2Warning, "%5$hhn and more");
    LOG(i, fmi2Warning, utf8);
    LOG(i, fmi2Warning, NULL);
    LOG(i, fmi2Warning, "%d apples and %.2f pears, %s", 3, 0.5, "fine");
}
#else
static void hostile_messages(Inst* i) { (void)i; }
#endif

FMI2_PLATFORM_AND_VERSION

fmi2Component fmi2Instantiate(fmi2String name, int type, fmi2String guid, fmi2String resources,
                              const fmi2CallbackFunctions* f, fmi2Boolean visible, fmi2Boolean loggingOn) {
    (void)type; (void)guid; (void)resources; (void)visible; (void)loggingOn;
    Inst* i = f->allocateMemory(1, sizeof(Inst));
    i->cb = *f;
    strncpy(i->name, name, sizeof i->name - 1);
    i->terminate = 1;
    i->t_end = 0.35;
    hostile_messages(i);
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
    case 2: return &i->terminate;
    case 3: return &i->t_end;
    default: return NULL;
    }
}
FMI2_REALS_THROUGH_VAR(2)
FMI2_ONLY_REALS

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior) {
    Inst* i = c;
    (void)noSetPrior;
    if (i->steps++ == 0) hostile_messages(i);
    if (i->terminated) return fmi2Error;
    if (t + h > i->t_end + 1e-12) {
        i->time = i->last_ok = i->t_end;
        i->terminated = i->terminate != 0;
        LOG(i, fmi2Discard, "the ball came to rest at t = %g s", i->t_end);
        return fmi2Discard;
    }
    i->time = i->last_ok = t + h;
    i->count += 1;
    return fmi2OK;
}

fmi2Status fmi2GetRealStatus(fmi2Component c, int kind, fmi2Real* v) {
    if (kind != 2) return fmi2Discard;
    *v = ((Inst*)c)->last_ok;
    return fmi2OK;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, int kind, fmi2Boolean* v) {
    if (kind != 3) return fmi2Discard;
    *v = ((Inst*)c)->terminated;
    return fmi2OK;
}

/* FMU state (used when the description declares canGetAndSetFMUstate): a copy of the instance. */
fmi2Status fmi2GetFMUstate(fmi2Component c, void** state) {
    Inst* i = c;
    if (*state == NULL) *state = i->cb.allocateMemory(1, sizeof(Inst));
    memcpy(*state, i, sizeof(Inst));
    return fmi2OK;
}
fmi2Status fmi2SetFMUstate(fmi2Component c, void* state) { memcpy(c, state, sizeof(Inst)); return fmi2OK; }
fmi2Status fmi2FreeFMUstate(fmi2Component c, void** state) {
    ((Inst*)c)->cb.freeMemory(*state);
    *state = NULL;
    return fmi2OK;
}
"#;

const BALL_XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Ball" guid="{ball}" generationTool="gcc by hand">
  <CoSimulation modelIdentifier="Ball" canHandleVariableCommunicationStepSize="true"/>
  <ModelVariables>
    <ScalarVariable name="time" valueReference="0" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="count" valueReference="1" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="terminate" valueReference="2" causality="parameter" variability="fixed"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="t_end" valueReference="3" causality="parameter" variability="fixed"><Real start="0.35"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure><Outputs><Unknown index="1" dependencies=""/><Unknown index="2" dependencies=""/></Outputs></ModelStructure>
</fmiModelDescription>
"#;

/// Writes an FMU archive `dir/<file>` with the Ball description and `binary` as its
/// `binaries/linux64/Ball.so`.
fn ball_archive(dir: &Path, file: &str, binary: &[u8]) -> PathBuf {
    ball_archive_with(dir, file, binary, BALL_XML)
}

fn ball_archive_with(dir: &Path, file: &str, binary: &[u8], xml: &str) -> PathBuf {
    let path = dir.join(file);
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("modelDescription.xml", options).unwrap();
    zip.write_all(xml.as_bytes()).unwrap();
    zip.start_file("binaries/linux64/Ball.so", options).unwrap();
    zip.write_all(binary).unwrap();
    zip.finish().unwrap();
    path
}

/// `Ball.fmu` in `dir`, compiled with the hostile logging or without.
fn ball_fmu(dir: &Path, hostile: bool) -> PathBuf {
    let source = if hostile { format!("#define HOSTILE 1\n{BALL_C}") } else { BALL_C.to_string() };
    let binary = compile_shared(dir, "ball", &source);
    ball_archive(dir, "Ball.fmu", &binary)
}

/// `StatefulBall.fmu` in `dir`: the Ball declaring `canGetAndSetFMUstate`, so the master can roll
/// its steps back.
fn stateful_ball_fmu(dir: &Path) -> PathBuf {
    let binary = compile_shared(dir, "ball", BALL_C);
    let xml = BALL_XML.replace(r#"modelIdentifier="Ball""#, r#"modelIdentifier="Ball" canGetAndSetFMUstate="true""#);
    ball_archive_with(dir, "StatefulBall.fmu", &binary, &xml)
}

fn orchestrator() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_orchestrator"));
    command.env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir());
    command
}

/// Runs `orchestrator run system.json --out results.csv --summary-json summary.json` in `dir`
/// with a system of one Ball instance `ball` (extra JSON members `fmu_extra` for its entry).
fn run_ball(dir: &Path, fmu: &Path, fmu_extra: &str, experiment: &str) -> Output {
    run_ball_with(dir, fmu, fmu_extra, experiment, "")
}

/// [`run_ball`] with extra top-level JSON members `extra` (each preceded by a comma).
fn run_ball_with(dir: &Path, fmu: &Path, fmu_extra: &str, experiment: &str, extra: &str) -> Output {
    let system = dir.join("system.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "ball": {{ "path": {fmu:?} {fmu_extra} }} }},
                 "experiment": {experiment},
                 "outputs": ["ball.time", "ball.count"] {extra} }}"#
        ),
    )
    .unwrap();
    orchestrator()
        .arg("run")
        .arg(&system)
        .arg("--out")
        .arg(dir.join("results.csv"))
        .arg("--summary-json")
        .arg(dir.join("summary.json"))
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ---------------------------------------------------------------------------------------------
// 1. Log messages are formats: hostile ones neither crash nor leak memory.

const UNFORMATTED: &str = " [importer: message not formatted, it contains a %n directive]";

/// What the importer's logger must deliver for each message of `hostile_messages` (C).
fn expected_hostile() -> Vec<String> {
    let truncated = |n: usize| format!(" [importer: truncated, the message has {n} bytes]");
    vec![
        format!("%s%s%s%n{UNFORMATTED}"),
        format!("%n{UNFORMATTED}"),
        // A lone trailing '%' is an invalid format (vsnprintf fails): the raw text.
        "100%".to_string(),
        "a real string".to_string(),
        format!("{}{}", "b".repeat(4096), truncated(100 * 1024)),
        format!("{}{}", "b".repeat(4096), truncated(100 * 1024)),
        "%n is a literal: 7%".to_string(),
        format!("%5$hhn and more{UNFORMATTED}"),
        // Cut before the two-byte character that straddles the limit, not inside it.
        format!("{}{}", "a".repeat(4095), truncated(4098)),
        String::new(),
        "3 apples and 0.50 pears, fine".to_string(),
    ]
}

#[test]
fn hostile_log_formats_are_neutralised() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = Fmu::open(&ball_fmu(dir.path(), true)).unwrap();
    let logger = Arc::new(Collector::default());
    let mut slave = fmu.instantiate("ball", logger.clone()).unwrap();
    let expected = expected_hostile();
    let from_instantiate: Vec<String> = logger.messages().into_iter().map(|m| m.text).collect();
    assert_eq!(from_instantiate.len(), expected.len());
    for (n, (got, want)) in from_instantiate.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "message {n} logged by fmi2Instantiate");
    }

    // The same series from fmi2DoStep, then a normal step.
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    assert_eq!(slave.do_step(0.0, 0.1, true).unwrap(), StepResult::Complete);
    let messages = logger.messages();
    let from_step: Vec<&str> = messages[expected.len()..].iter().map(|m| m.text.as_str()).collect();
    assert_eq!(from_step, expected.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(messages.iter().all(|m| m.status == Status::Warning && m.instance == "ball"));
    let mut count = [0.0];
    slave.get_real(&[1], &mut count).unwrap();
    assert_eq!(count, [1.0], "the instance still works after the hostile messages");
}

#[test]
fn hostile_log_formats_do_not_crash_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), true);
    let out = run_ball(dir.path(), &fmu, "", r#"{ "stop": 0.2, "step": 0.1 }"#);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // StderrLogger prints warnings: the sane ones formatted, the %n one verbatim.
    assert!(stderr.contains("[fmi2Warning] ball (hostile): 3 apples and 0.50 pears, fine"), "{stderr}");
    assert!(stderr.contains(&format!("[fmi2Warning] ball (hostile): %s%s%s%n{UNFORMATTED}")), "{stderr}");
    assert!(stderr.contains("[fmi2Warning] ball (hostile): a real string\n"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// 2. An FMU that terminates the simulation ends the run cleanly.

#[test]
fn fmu_terminating_the_simulation_ends_the_run_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), false);
    let out = run_ball(dir.path(), &fmu, "", r#"{ "stop": 1.0, "step": 0.1 }"#);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "exit {:?}\nstdout: {stdout}\nstderr: {stderr}", out.status);
    let message = "instance 'ball' terminated the simulation at t = 0.35 s";
    assert!(stderr.contains(message), "{stderr}");
    assert!(stdout.contains(&format!("stopped early: {message}")), "{stdout}");
    assert!(!stderr.contains("discarded"), "not treated as a failed step: {stderr}");

    // Rows at 0, 0.1, 0.2 and 0.3: the communication points completed before the termination.
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), r#""time","ball.time","ball.count""#);
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 4, "{csv}");
    for (n, row) in rows.iter().enumerate() {
        assert!((row[0] - 0.1 * n as f64).abs() < 1e-12, "{csv}");
        assert_eq!(row[2], n as f64, "{csv}");
    }
    assert!(rows.last().unwrap()[0] < 0.35);

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop_reason"], message);
    assert!((summary["simulated_seconds"].as_f64().unwrap() - 0.3).abs() < 1e-12, "{summary}");
}

#[test]
fn a_plain_discard_is_still_a_failed_step() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), false);
    let out = run_ball(dir.path(), &fmu, r#", "parameters": { "terminate": 0 }"#, r#"{ "stop": 1.0, "step": 0.1 }"#);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("ball: fmi2DoStep from t = 0.3") && stderr.contains("was discarded"), "{stderr}");
    assert!(stderr.contains("the step cannot be retried"), "no FMU state support: {stderr}");
    assert!(!stderr.contains("terminated the simulation"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// With FMU state support a real discard is rolled back and retried smaller; a termination is not.
#[test]
fn only_a_real_discard_rolls_back() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = stateful_ball_fmu(dir.path());
    let summary = |dir: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
    };

    let out = run_ball(dir.path(), &fmu, "", r#"{ "stop": 1.0, "step": 0.1 }"#);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = summary(dir.path());
    assert_eq!(json["rollbacks"], 0, "{json}");
    assert_eq!(json["stop_reason"], "instance 'ball' terminated the simulation at t = 0.35 s");

    // A plain discard at 0.35 s: the step from 0.3 s is halved (0.3 -> 0.35 succeeds), then the
    // steps from 0.35 s are halved down to min_step and the run stops with an error.
    std::fs::remove_file(dir.path().join("summary.json")).unwrap();
    let out = run_ball_with(
        dir.path(),
        &fmu,
        r#", "parameters": { "terminate": 0 }"#,
        r#"{ "stop": 1.0, "step": 0.1 }"#,
        r#", "master": { "min_step": 0.02 }"#,
    );
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("ball: fmi2DoStep from t = 0.35"), "{stderr}");
    assert!(stderr.contains("halving down to min_step = 0.02 s did not help"), "{stderr}");
}

#[test]
fn terminated_is_a_step_result_of_the_import_api() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = Fmu::open(&ball_fmu(dir.path(), false)).unwrap();
    let mut slave = fmu.instantiate("ball", Arc::new(Collector::default())).unwrap();
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    assert!(!slave.terminated());
    assert_eq!(slave.do_step(0.0, 0.3, true).unwrap(), StepResult::Complete);
    assert_eq!(slave.do_step(0.3, 0.1, true).unwrap(), StepResult::Terminated);
    assert!(slave.terminated());
    assert_eq!(slave.last_successful_time().unwrap(), 0.35);
    slave.terminate().unwrap();
}

// ---------------------------------------------------------------------------------------------
// 3. The loader's own message for binaries it refuses.

/// A 64-byte ELF header: `class` 1 (32-bit) or 2 (64-bit), `machine` (3 = i386, 62 = x86-64,
/// 183 = AArch64), type ET_DYN, no program headers.
fn elf_header(class: u8, machine: u16) -> Vec<u8> {
    let mut bytes = vec![0u8; 64];
    bytes[..7].copy_from_slice(&[0x7f, b'E', b'L', b'F', class, 1, 1]);
    bytes[16..18].copy_from_slice(&3u16.to_le_bytes());
    bytes[18..20].copy_from_slice(&machine.to_le_bytes());
    bytes[20..24].copy_from_slice(&1u32.to_le_bytes());
    bytes
}

fn load_error(dir: &Path, file: &str, binary: &[u8]) -> (PathBuf, ImportError) {
    let path = ball_archive(dir, file, binary);
    let err = Fmu::open(&path).unwrap_err();
    (path, err)
}

#[test]
fn wrong_architecture_binary_gives_the_loaders_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (file, binary, reason) in [
        ("Elf32.fmu", elf_header(1, 3), "wrong ELF class: ELFCLASS32"),
        // glibc says "cannot open shared object file: No such file or directory" here.
        ("Aarch64.fmu", elf_header(2, 183), "an ELF file for AArch64 (e_machine 183)"),
        ("Text.fmu", format!("#!/bin/sh\n{}\n", "# not a library ".repeat(16)).into_bytes(), "invalid ELF header"),
    ] {
        let (path, err) = load_error(dir.path(), file, &binary);
        let ImportError::LoadLibrary { message, .. } = &err else { panic!("{file}: {err:?}") };
        let text = err.to_string();
        assert!(text.starts_with(&format!("{}: cannot load binaries/linux64/Ball.so: ", path.display())), "{text}");
        assert!(message.contains(reason), "{file}: {text}");
        assert!(!message.starts_with("No such file"), "{text}");
        assert!(text.contains(", not a Linux x86-64 shared library)"), "{file}: {text}");
    }
}

#[test]
fn missing_dependency_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // A binary linked against libballdep.so, which the FMU does not ship.
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let dep_c = dir.path().join("dep.c");
    std::fs::write(&dep_c, "int ball_dep(void) { return 1; }\n").unwrap();
    let dep_so = dir.path().join("libballdep.so");
    let status = Command::new(&compiler).args(["-shared", "-fPIC", "-o"]).arg(&dep_so).arg(&dep_c).status().unwrap();
    assert!(status.success());
    let ball_c = dir.path().join("ball.c");
    std::fs::write(&ball_c, format!("int ball_dep(void);\nint ball_uses_dep(void) {{ return ball_dep(); }}\n{BALL_C}"))
        .unwrap();
    let ball_so = dir.path().join("ball.so");
    let output = Command::new(&compiler)
        .args(["-shared", "-fPIC", "-Wl,--no-as-needed", "-o"])
        .arg(&ball_so)
        .arg(&ball_c)
        .arg("-I")
        .arg(test_fmus::fixtures::c_dir())
        .arg("-L")
        .arg(dir.path())
        .arg("-lballdep")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let (path, err) = load_error(dir.path(), "NeedsDep.fmu", &std::fs::read(&ball_so).unwrap());
    let text = err.to_string();
    assert!(text.starts_with(&format!("{}: cannot load binaries/linux64/Ball.so: ", path.display())), "{text}");
    assert!(text.contains("libballdep.so: cannot open shared object file: No such file or directory"), "{text}");
    assert!(text.contains("a library it depends on is missing: libballdep.so"), "{text}");
}

// ---------------------------------------------------------------------------------------------
// 4. Duplicate archive entries.

#[test]
fn duplicate_entry_names_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let binary = compile_shared(dir.path(), "ball", BALL_C);
    // Two descriptions: the zip writer refuses duplicate names, so the second is written under a
    // name of the same length and renamed in the bytes (local header and central directory).
    let path = dir.path().join("Dup.fmu");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("modelDescription.xml", options).unwrap();
    zip.write_all(BALL_XML.as_bytes()).unwrap();
    zip.start_file("binaries/linux64/Ball.so", options).unwrap();
    zip.write_all(&binary).unwrap();
    zip.start_file("modelDescription.xmX", options).unwrap();
    zip.write_all(BALL_XML.replace("{ball}", "{evil}").as_bytes()).unwrap();
    zip.finish().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let (from, to) = (b"modelDescription.xmX", b"modelDescription.xml");
    let mut renamed = 0;
    for i in 0..bytes.len() - from.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            renamed += 1;
        }
    }
    assert_eq!(renamed, 2, "local header and central directory");
    std::fs::write(&path, bytes).unwrap();

    let err = Fmu::open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::DuplicateEntry { entry, .. } if entry == "modelDescription.xml"), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("{}: refusing the archive: it has two entries named 'modelDescription.xml'", path.display())
    );
    // The description alone is refused the same way.
    let err = cosim::import::read_model_description(&path).unwrap_err();
    assert!(matches!(&err, ImportError::DuplicateEntry { .. }), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// 5. Bounded work.

#[test]
fn absurd_numbers_of_communication_points_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), false);
    for (experiment, numbers) in [
        (r#"{ "stop": 1e13, "step": 1.0 }"#, "(10000000000000.0 - 0.0) / 1.0 = 1e13 communication points"),
        (r#"{ "stop": 1e300, "step": 1e-300 }"#, "(1e300 - 0.0) / 1e-300 = inf communication points"),
        (r#"{ "start": 0, "stop": 2000000000, "step": 1 }"#, "= 2e9 communication points"),
    ] {
        let started = std::time::Instant::now();
        let out = run_ball(dir.path(), &fmu, "", experiment);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{experiment}: {stderr}");
        assert!(stderr.contains(numbers), "{experiment}: {stderr}");
        assert!(stderr.contains("more than the limit of 1e9"), "{stderr}");
        assert!(!stderr.contains("memory allocation") && !stderr.contains("panicked"), "{stderr}");
        assert!(started.elapsed().as_secs() < 30, "refused up front, not after running");
        assert!(!dir.path().join("results.csv").exists());
    }
}
