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

FMI2_INSTANTIATE(Inst,
    strncpy(i->name, name, sizeof i->name - 1);
    i->terminate = 1;
    i->t_end = 0.35;
    hostile_messages(i);
)
FMI2_COMMON(Inst)
FMI2_EXPERIMENT_SETS_TIME(Inst)

FMI2_REAL_FIELDS(Inst, 2, &i->time, &i->count, &i->terminate, &i->t_end)
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

/* The rest of the FMI 2.0 Co-Simulation API, never called here: FMPy loads every symbol. */
#define UNUSED(fn, ...) fmi2Status fn(__VA_ARGS__) { return fmi2Error; }
UNUSED(fmi2CancelStep, fmi2Component c)
UNUSED(fmi2GetStatus, fmi2Component c, int k, int* v)
UNUSED(fmi2GetIntegerStatus, fmi2Component c, int k, int* v)
UNUSED(fmi2GetStringStatus, fmi2Component c, int k, const char** v)
UNUSED(fmi2SetRealInputDerivatives, fmi2Component c, const fmi2ValueReference* vr, size_t n, const int* o,
       const fmi2Real* v)
UNUSED(fmi2GetRealOutputDerivatives, fmi2Component c, const fmi2ValueReference* vr, size_t n, const int* o,
       fmi2Real* v)
UNUSED(fmi2GetDirectionalDerivative, fmi2Component c, const fmi2ValueReference* u, size_t nu,
       const fmi2ValueReference* k, size_t nk, const fmi2Real* dk, fmi2Real* du)
UNUSED(fmi2SerializedFMUstateSize, fmi2Component c, void* s, size_t* n)
UNUSED(fmi2SerializeFMUstate, fmi2Component c, void* s, char* b, size_t n)
UNUSED(fmi2DeSerializeFMUstate, fmi2Component c, const char* b, size_t n, void** s)
"#;

/// The description of [`BALL_C`].
fn ball_xml() -> String {
    import_support::counter_description("Ball", &[("terminate", "1"), ("t_end", "0.35")])
}

/// Writes an FMU archive `dir/<file>` with the Ball description and `binary` as its
/// `binaries/linux64/Ball.so`.
fn ball_archive(dir: &Path, file: &str, binary: &[u8]) -> PathBuf {
    ball_archive_with(dir, file, binary, &ball_xml())
}

fn ball_archive_with(dir: &Path, file: &str, binary: &[u8], xml: &str) -> PathBuf {
    let path = dir.join(file);
    import_support::write_c_fmu(&path, xml, "Ball", binary);
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
    let xml = ball_xml().replace(r#"modelIdentifier="Ball""#, r#"modelIdentifier="Ball" canGetAndSetFMUstate="true""#);
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

mod archives;
mod loader;
mod log_formats;
mod termination;
