//! A small FMI 2.0 Co-Simulation FMU written in C (compiled here with the system C compiler):
//! it logs through the variadic `fmi2CallbackLogger` with real `printf` formats, fails
//! instantiation on request, discards too-large steps, returns `fmi2Fatal` on request, and
//! declares `canBeInstantiatedOnlyOncePerProcess` in one variant. This exercises the importer's
//! C logger shim and the status handling against a foreign binary.

use crate::import_support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cosim::import::{CallErrorKind, Fmu, ImportError, Status, StepResult};
use import_support::{Collector, compile_shared};

const STUB_C: &str = r#"

#include "fmi2_minimal.h"

typedef struct {
    fmi2CallbackFunctions cb;
    char name[64];
    double time, last_ok, u;
} Inst;

#define LOG(i, status, category, ...) (i)->cb.logger((i)->cb.componentEnvironment, (i)->name, status, category, __VA_ARGS__)

FMI2_PLATFORM_AND_VERSION

fmi2Component fmi2Instantiate(fmi2String name, int type, fmi2String guid, fmi2String resources,
                              const fmi2CallbackFunctions* f, fmi2Boolean visible, fmi2Boolean loggingOn) {
    (void)visible; (void)loggingOn;
    if (type != 1 || strcmp(name, "fail") == 0) {
        f->logger(f->componentEnvironment, name, fmi2Error, "logStatusError",
                  "cannot instantiate '%s' (type %d, GUID %s): code %d, ratio %.2f", name, type, guid, 42, 0.5);
        return NULL;
    }
    Inst* i = f->allocateMemory(1, sizeof(Inst));
    i->cb = *f;
    strncpy(i->name, name, sizeof i->name - 1);
    LOG(i, fmi2OK, "logEvents", "resources at %s", resources);
    return i;
}

void fmi2FreeInstance(fmi2Component c) {
    Inst* i = c;
    LOG(i, fmi2OK, "logEvents", "freeing %s", i->name);
    i->cb.freeMemory(i);
}

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String* categories) {
    (void)c; (void)on; (void)n; (void)categories;
    return fmi2OK;
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean td, fmi2Real tol, fmi2Real start, fmi2Boolean sd,
                               fmi2Real stop) {
    (void)td; (void)tol; (void)sd; (void)stop;
    ((Inst*)c)->time = start;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
fmi2Status fmi2ExitInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }
fmi2Status fmi2Reset(fmi2Component c) { ((Inst*)c)->time = 0; return fmi2OK; }

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2Real* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] == 0) v[k] = i->time;
        else if (vr[k] == 1) v[k] = i->u;
        else { LOG(i, fmi2Error, "logStatusError", "fmi2GetReal: unknown value reference %u", vr[k]); return fmi2Error; }
    }
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2Real* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] == 1) i->u = v[k];
        else { LOG(i, fmi2Error, "logStatusError", "fmi2SetReal: cannot set value reference %u", vr[k]); return fmi2Error; }
    }
    return fmi2OK;
}

#define UNSUPPORTED(fn, type) \
    fmi2Status fn(fmi2Component c, const fmi2ValueReference* vr, size_t n, type v) { \
        (void)vr; (void)n; (void)v; LOG((Inst*)c, fmi2Error, "logStatusError", #fn ": no such variables"); return fmi2Error; }
UNSUPPORTED(fmi2GetInteger, fmi2Integer*)
UNSUPPORTED(fmi2SetInteger, const fmi2Integer*)
UNSUPPORTED(fmi2GetBoolean, fmi2Boolean*)
UNSUPPORTED(fmi2SetBoolean, const fmi2Boolean*)
UNSUPPORTED(fmi2GetString, fmi2String*)
UNSUPPORTED(fmi2SetString, const fmi2String*)

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior) {
    Inst* i = c;
    (void)noSetPrior;
    if (h == 42.0) { LOG(i, fmi2Fatal, "logStatusFatal", "the answer is fatal (h = %g)", h); return fmi2Fatal; }
    if (h <= 0) {
        static char big[3001];
        memset(big, 'x', 3000);
        LOG(i, fmi2Error, "logStatusError", "step size %g is not positive; %s; end %d", h, big, 7);
        return fmi2Error;
    }
    if (h > 1.0) {
        i->last_ok = t + 1.0;
        LOG(i, fmi2Discard, "logStatusDiscard", "step of %g s too large, stopped at %g s", h, i->last_ok);
        return fmi2Discard;
    }
    if (h == 0.5) LOG(i, fmi2Warning, "logStatusWarning", "half step: %d%% done", 50);
    i->time = t + h;
    i->last_ok = i->time;
    return fmi2OK;
}

fmi2Status fmi2GetRealStatus(fmi2Component c, int kind, fmi2Real* v) {
    if (kind != 2) return fmi2Discard;
    *v = ((Inst*)c)->last_ok;
    return fmi2OK;
}
"#;

fn description(only_once: bool) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Stub" guid="{{stub}}" generationTool="gcc by hand">
  <CoSimulation modelIdentifier="Stub" canHandleVariableCommunicationStepSize="true"
      canBeInstantiatedOnlyOncePerProcess="{only_once}"/>
  <ModelVariables>
    <ScalarVariable name="time" valueReference="0" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="u" valueReference="1" causality="input"><Real start="0"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure><Outputs><Unknown index="1" dependencies=""/></Outputs></ModelStructure>
</fmiModelDescription>
"#
    )
}

/// Builds `Stub.fmu` (with or without the once-per-process flag) in `dir`.
fn stub_fmu(dir: &Path, only_once: bool) -> PathBuf {
    let binary = compile_shared(dir, "stub", STUB_C);
    let path = dir.join(if only_once { "StubOnce.fmu" } else { "Stub.fmu" });
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("modelDescription.xml", options).unwrap();
    zip.write_all(description(only_once).as_bytes()).unwrap();
    zip.start_file("binaries/linux64/Stub.so", options).unwrap();
    zip.write_all(&binary).unwrap();
    zip.start_file("resources/table.txt", options).unwrap();
    zip.write_all(b"1 2 3\n").unwrap();
    zip.finish().unwrap();
    path
}

/// `Stub.fmu` (see [`stub_fmu`]) built in a temporary directory, returned to keep it, and opened;
/// a logger that keeps what the FMU says.
fn open_stub(only_once: bool) -> (tempfile::TempDir, Fmu, Arc<Collector>) {
    let dir = tempfile::tempdir().unwrap();
    let fmu = Fmu::open(&stub_fmu(dir.path(), only_once)).unwrap();
    (dir, fmu, Arc::new(Collector::default()))
}

#[test]
fn formatted_messages_statuses_and_fatal() {
    let (_dir, fmu, logger) = open_stub(false);

    // Instantiation failure carries the FMU's formatted message.
    let err = fmu.instantiate("fail", logger.clone()).unwrap_err();
    let ImportError::Instantiate { model, instance, message } = &err else { panic!("{err:?}") };
    assert_eq!((model.as_str(), instance.as_str()), ("Stub", "fail"));
    assert_eq!(message.as_deref(), Some("cannot instantiate 'fail' (type 1, GUID {stub}): code 42, ratio 0.50"));

    let mut slave = fmu.instantiate("stub", logger.clone()).unwrap();
    let first = logger.messages().last().unwrap().text.clone();
    let resources = first.strip_prefix("resources at file://").expect(&first);
    assert!(resources.ends_with("/resources"), "{first}");
    assert!(Path::new(resources).join("table.txt").is_file(), "the resource URI points at the extracted files");

    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();

    // A warning is success; its message (with a literal %) reached the logger.
    assert_eq!(slave.do_step(0.0, 0.5, true).unwrap(), StepResult::Complete);
    let warning = logger.messages().last().unwrap().clone();
    assert_eq!((warning.status, warning.text.as_str()), (Status::Warning, "half step: 50% done"));

    // A discard is a step result, with the time reached.
    assert_eq!(slave.do_step(0.5, 2.0, true).unwrap(), StepResult::Discarded);
    assert_eq!(slave.last_successful_time().unwrap(), 1.5);

    // A long message (3 000 bytes, under the shim's 4 KiB bound) arrives whole.
    let err = slave.do_step(0.5, -1.0, true).unwrap_err();
    let message = err.message.as_deref().unwrap();
    let expected = format!("step size -1 is not positive; {}; end 7", "x".repeat(3000));
    assert_eq!(message, expected);
    assert_eq!(err.kind, CallErrorKind::Status(Status::Error));

    // Unknown value reference: the FMU's message, prefix not repeated in the display.
    let err = slave.get_real(&[9], &mut [0.0]).unwrap_err();
    assert_eq!(err.to_string(), "stub: fmi2GetReal returned fmi2Error: unknown value reference 9");

    // fmi2Fatal poisons the FMU: no further call reaches it, not even fmi2FreeInstance.
    let mut other = fmu.instantiate("other", logger.clone()).unwrap();
    let err = slave.do_step(0.5, 42.0, true).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::Status(Status::Fatal));
    assert!(err.to_string().contains("the answer is fatal (h = 42)"), "{err}");
    let err = other.setup_experiment(None, 0.0, None).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::InvalidArgument);
    assert!(err.to_string().contains("returned fmi2Fatal"), "{err}");
    let err = fmu.instantiate("third", logger.clone()).unwrap_err();
    assert!(err.to_string().contains("fmi2Fatal"), "{err}");
    let logged = logger.messages().len();
    drop(slave);
    drop(other);
    assert_eq!(logger.messages().len(), logged, "fmi2FreeInstance was not called after fmi2Fatal");
}

/// A function the FMU does not provide is named once, with the capability flag it lacks.
#[test]
fn an_unprovided_function_says_which_flag_is_missing() {
    let (_dir, fmu, logger) = open_stub(false);
    let mut slave = fmu.instantiate("stub", logger).unwrap();
    let err = slave.get_directional_derivative(&[0], &[1], &[1.0], &mut [0.0]).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::NotSupported);
    assert_eq!(
        err.to_string(),
        "stub: fmi2GetDirectionalDerivative is not provided by this FMU: providesDirectionalDerivative is not declared"
    );
}

#[test]
fn instances_are_freed_on_drop() {
    let (_dir, fmu, logger) = open_stub(false);
    let a = fmu.instantiate("a", logger.clone()).unwrap();
    let b = fmu.instantiate("b", logger.clone()).unwrap();
    drop(a);
    drop(b);
    let freed: Vec<String> =
        logger.messages().into_iter().filter(|m| m.text.starts_with("freeing")).map(|m| m.instance).collect();
    assert_eq!(freed, ["a", "b"]);
}

#[test]
fn once_per_process_is_enforced() {
    let (_dir, fmu, logger) = open_stub(true);
    let first = fmu.instantiate("first", logger.clone()).unwrap();
    let err = fmu.instantiate("second", logger.clone()).unwrap_err();
    assert!(matches!(&err, ImportError::OnlyOnce { existing, .. } if existing == "first"), "{err:?}");
    assert!(err.to_string().contains("canBeInstantiatedOnlyOncePerProcess"), "{err}");
    drop(first);
    fmu.instantiate("second", logger).unwrap();
}
