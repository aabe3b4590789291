//! Integer, Boolean, Enumeration and String variables through the `orchestrator` binary, with a C
//! FMU built here: discrete outputs recorded as numbers (Booleans 0/1), connected to inputs of
//! their own kind and Integer to Real (values passed at each communication point and held over
//! the next step), String variables skipped from recording with a warning.

use crate::import_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use import_support::compile_shared;

/// `Types`: a step counter `n` (Integer), `flag` = n odd (Boolean), `mode` = n mod 3 + 1
/// (Enumeration), `label` (String); inputs `n_in`, `m_in` (Integer), `flag_in` (Boolean), `x_in`
/// (Real); `echo` (Real) is computed by each step from the inputs held during it:
/// `n_in + 10 flag_in + 100 x_in + 1000 m_in`.
const TYPES_C: &str = r#"

#include "fmi2_minimal.h"

typedef struct {
    fmi2CallbackFunctions cb;
    int n, n_in, m_in, flag_in;
    double x_in, echo;
} Inst;

FMI2_INSTANTIATE(Inst)
FMI2_COMMON(Inst)
FMI2_IGNORE_EXPERIMENT

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2Real* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] == 6) v[k] = i->x_in; else if (vr[k] == 7) v[k] = i->echo; else return fmi2Error;
    }
    return fmi2OK;
}
fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2Real* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) { if (vr[k] == 6) i->x_in = v[k]; else return fmi2Error; }
    return fmi2OK;
}
fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2Integer* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) {
        switch (vr[k]) {
        case 0: v[k] = i->n; break;
        case 2: v[k] = i->n % 3 + 1; break;
        case 4: v[k] = i->n_in; break;
        case 8: v[k] = i->m_in; break;
        default: return fmi2Error;
        }
    }
    return fmi2OK;
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2Integer* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] == 4) i->n_in = v[k]; else if (vr[k] == 8) i->m_in = v[k]; else return fmi2Error;
    }
    return fmi2OK;
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2Boolean* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] == 1) v[k] = i->n % 2; else if (vr[k] == 5) v[k] = i->flag_in; else return fmi2Error;
    }
    return fmi2OK;
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2Boolean* v) {
    Inst* i = c;
    for (size_t k = 0; k < n; k++) { if (vr[k] == 5) i->flag_in = v[k] != 0; else return fmi2Error; }
    return fmi2OK;
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2String* v) {
    (void)c;
    for (size_t k = 0; k < n; k++) { if (vr[k] == 3) v[k] = "hello"; else return fmi2Error; }
    return fmi2OK;
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2String* v) {
    (void)c; (void)vr; (void)v; return n == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior) {
    Inst* i = c;
    (void)t; (void)h; (void)noSetPrior;
    i->echo = i->n_in + 10.0 * i->flag_in + 100.0 * i->x_in + 1000.0 * i->m_in;
    i->n += 1;
    return fmi2OK;
}
"#;

const TYPES_XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Types" guid="{types}" generationTool="gcc by hand">
  <CoSimulation modelIdentifier="Types" canHandleVariableCommunicationStepSize="true"/>
  <TypeDefinitions>
    <SimpleType name="Mode">
      <Enumeration><Item name="idle" value="1"/><Item name="run" value="2"/><Item name="stop" value="3"/></Enumeration>
    </SimpleType>
  </TypeDefinitions>
  <ModelVariables>
    <ScalarVariable name="n" valueReference="0" causality="output"><Integer/></ScalarVariable>
    <ScalarVariable name="flag" valueReference="1" causality="output"><Boolean/></ScalarVariable>
    <ScalarVariable name="mode" valueReference="2" causality="output"><Enumeration declaredType="Mode"/></ScalarVariable>
    <ScalarVariable name="label" valueReference="3" causality="output"><String/></ScalarVariable>
    <ScalarVariable name="n_in" valueReference="4" causality="input"><Integer start="0"/></ScalarVariable>
    <ScalarVariable name="flag_in" valueReference="5" causality="input"><Boolean start="false"/></ScalarVariable>
    <ScalarVariable name="x_in" valueReference="6" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="echo" valueReference="7" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="m_in" valueReference="8" causality="input"><Integer start="0"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs>
      <Unknown index="1" dependencies=""/><Unknown index="2" dependencies=""/><Unknown index="3" dependencies=""/>
      <Unknown index="4" dependencies=""/><Unknown index="8" dependencies=""/>
    </Outputs>
  </ModelStructure>
</fmiModelDescription>
"#;

fn types_fmu(dir: &Path) -> PathBuf {
    let binary = compile_shared(dir, "types", TYPES_C);
    let path = dir.join("Types.fmu");
    import_support::write_c_fmu(&path, TYPES_XML, "Types", &binary);
    path
}

/// Runs a system of two `Types` instances `a` and `b` with `connections` and `outputs` (JSON).
fn run(dir: &Path, connections: &str, outputs: &str, algorithm: &str) -> Output {
    let fmu = types_fmu(dir);
    let system = dir.join("system.json");
    std::fs::write(
        &system,
        format!(
            r#"{{ "fmus": {{ "a": {{ "path": {fmu:?} }}, "b": {{ "path": {fmu:?} }} }},
                 "connections": {connections},
                 "experiment": {{ "stop": 0.3, "step": 0.1 }},
                 "master": {{ "algorithm": "{algorithm}" }},
                 "outputs": {outputs} }}"#
        ),
    )
    .unwrap();
    Command::new(env!("CARGO_BIN_EXE_orchestrator"))
        .env("ROTORCRAFT_FMU_CACHE", test_fmus::fixtures::fmu_cache_dir())
        .arg("run")
        .arg(&system)
        .arg("--out")
        .arg(dir.join("results.csv"))
        .output()
        .unwrap()
}

const CONNECTIONS: &str = r#"["a.n -> b.n_in", "a.flag -> b.flag_in", "a.n -> b.x_in", "a.mode -> b.m_in"]"#;

#[test]
fn discrete_variables_are_recorded_and_connected() {
    for algorithm in ["newton", "jacobi", "gauss-seidel"] {
        let dir = tempfile::tempdir().unwrap();
        let outputs = r#"["a.n", "a.flag", "a.mode", "a.label", "b.echo", "b.n_in", "b.flag_in", "b.x_in"]"#;
        let out = run(dir.path(), CONNECTIONS, outputs, algorithm);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{algorithm}: {stderr}");
        assert!(stderr.contains("warning: a.label: String variables are not recorded"), "{stderr}");
        let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
        let mut lines = csv.lines();
        assert_eq!(lines.next().unwrap(), r#""time","a.n","a.flag","a.mode","b.echo","b.n_in","b.flag_in","b.x_in""#);
        let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
        // At each point: a's counter, its parity and mode; b's echo of the inputs it held during
        // the step (the values of the point before), and the inputs just passed to it.
        let expected = [
            [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
            [1.0, 1.0, 2.0, 1000.0, 1.0, 1.0, 1.0],
            [2.0, 0.0, 3.0, 2111.0, 2.0, 0.0, 2.0],
            [3.0, 1.0, 1.0, 3202.0, 3.0, 1.0, 3.0],
        ];
        assert_eq!(rows.len(), expected.len(), "{algorithm}: {csv}");
        for (row, want) in rows.iter().zip(&expected) {
            assert_eq!(&row[1..], want, "{algorithm}: {csv}");
        }
    }
}

#[test]
fn unsupported_type_pairs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Real to Integer: refused when the system is resolved.
    let out = run(dir.path(), r#"["b.echo -> a.n_in"]"#, r#"["a.n"]"#, "newton");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("type mismatch: 'b.echo' is Real but 'a.n_in' is Integer"), "{stderr}");
    // Boolean to Real: also refused.
    let out = run(dir.path(), r#"["a.flag -> b.x_in"]"#, r#"["a.n"]"#, "newton");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("type mismatch: 'a.flag' is Boolean but 'b.x_in' is Real"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
