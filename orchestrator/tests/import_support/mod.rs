//! Helpers shared by the `import_*` integration tests: where the packaged FMUs and the Python
//! test environment are (both set up by `bash scripts/test.sh`), and a logger that keeps what
//! the FMUs say.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use cosim::import::{FmuLogger, Status};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("orchestrator/ is inside the workspace").to_path_buf()
}

/// `ROTORCRAFT_FMU_DIR/<identifier>.fmu` (default `target/fmus`); panics naming the set-up
/// command when it is missing.
pub fn packaged_fmu(identifier: &str) -> PathBuf {
    let dir = std::env::var_os("ROTORCRAFT_FMU_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/fmus"));
    let path = dir.join(format!("{identifier}.fmu"));
    assert!(
        path.is_file(),
        "{} is missing: run `bash scripts/test.sh` (or `cargo build --release --workspace && \
         ./target/release/orchestrator package --out target/fmus`), which packages the FMUs",
        path.display()
    );
    path
}

/// The Python of the test environment (`ROTORCRAFT_PYTHON`, default `target/venv/bin/python`);
/// panics naming the set-up command when it is missing.
pub fn python() -> PathBuf {
    let path = std::env::var_os("ROTORCRAFT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/venv/bin/python"));
    assert!(
        path.is_file(),
        "{} is missing: run `bash scripts/test.sh`, which creates the Python test environment",
        path.display()
    );
    path
}

/// One logged message.
#[derive(Debug, Clone)]
pub struct Message {
    /// Instance name as the FMU passed it.
    pub instance: String,
    /// Status.
    pub status: Status,
    /// Category.
    pub category: String,
    /// Text.
    pub text: String,
}

/// Keeps every message (and prints it, for failing tests' output).
#[derive(Default)]
pub struct Collector {
    /// The messages so far.
    pub messages: Mutex<Vec<Message>>,
}

impl Collector {
    /// A copy of the messages so far.
    pub fn messages(&self) -> Vec<Message> {
        self.messages.lock().unwrap().clone()
    }
}

impl FmuLogger for Collector {
    fn log(&self, instance: &str, status: Status, category: &str, message: &str) {
        eprintln!("[{status}] {instance} ({category}): {message}");
        self.messages.lock().unwrap().push(Message {
            instance: instance.to_string(),
            status,
            category: category.to_string(),
            text: message.to_string(),
        });
    }
}

/// Compiles C `source` into a shared library with the system C compiler (`CC`, default `cc`),
/// working in `dir`, and returns the library's bytes. `#include "fmi2_minimal.h"` finds the FMI
/// 2.0 declarations of `test-fmus/c`.
pub fn compile_shared(dir: &Path, name: &str, source: &str) -> Vec<u8> {
    compile_shared_with(dir, name, source, &[])
}

/// [`compile_shared`] with `extra` compiler arguments after the others (libraries to link, say).
pub fn compile_shared_with(dir: &Path, name: &str, source: &str, extra: &[&str]) -> Vec<u8> {
    let c = dir.join(format!("{name}.c"));
    let so = dir.join(format!("{name}.so"));
    std::fs::write(&c, source).unwrap();
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let output = Command::new(&compiler)
        .args(["-shared", "-fPIC", "-Wall", "-o"])
        .arg(&so)
        .arg(&c)
        .arg("-I")
        .arg(test_fmus::fixtures::c_dir())
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {compiler}: {e}"));
    assert!(output.status.success(), "{compiler} failed: {}", String::from_utf8_lossy(&output.stderr));
    let bytes = std::fs::read(&so).unwrap();
    std::fs::remove_file(c).unwrap();
    std::fs::remove_file(so).unwrap();
    bytes
}

/// Writes an FMU archive `path` of a C FMU: `xml` as its `modelDescription.xml` and `binary` as its
/// `binaries/linux64/<identifier>.so`.
pub fn write_c_fmu(path: &Path, xml: &str, identifier: &str, binary: &[u8]) {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("modelDescription.xml", options).unwrap();
    zip.write_all(xml.as_bytes()).unwrap();
    zip.start_file(format!("binaries/linux64/{identifier}.so"), options).unwrap();
    zip.write_all(binary).unwrap();
    zip.finish().unwrap();
}

/// The `modelDescription.xml` of a hand-written C counter FMU (`FMI2_REAL_FIELDS(Inst, 2, &i->time,
/// &i->count, ...)` in its source): the outputs `time` and `count` (value references 0 and 1),
/// then the fixed real `parameters` `(name, start)` from value reference 2, in their order.
pub fn counter_description(name: &str, parameters: &[(&str, &str)]) -> String {
    let parameters: String = parameters
        .iter()
        .enumerate()
        .map(|(k, (parameter, start))| {
            format!(
                "    <ScalarVariable name=\"{parameter}\" valueReference=\"{}\" causality=\"parameter\" \
                 variability=\"fixed\"><Real start=\"{start}\"/></ScalarVariable>\n",
                k + 2
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="{name}" guid="{{{guid}}}" generationTool="gcc by hand">
  <CoSimulation modelIdentifier="{name}" canHandleVariableCommunicationStepSize="true"/>
  <ModelVariables>
    <ScalarVariable name="time" valueReference="0" causality="output"><Real/></ScalarVariable>
    <ScalarVariable name="count" valueReference="1" causality="output"><Real/></ScalarVariable>
{parameters}  </ModelVariables>
  <ModelStructure><Outputs><Unknown index="1" dependencies=""/><Unknown index="2" dependencies=""/></Outputs></ModelStructure>
</fmiModelDescription>
"#,
        guid = name.to_lowercase()
    )
}

/// Builds `<name>.fmu` from the Python `source` with `pythonfmu build` of the test environment
/// (next to [`python`]); returns the directory holding it and its path.
pub fn build_with_pythonfmu(name: &str, source: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join(format!("{name}.py"));
    std::fs::write(&script, source).unwrap();
    let pythonfmu = python().with_file_name("pythonfmu");
    assert!(
        pythonfmu.is_file(),
        "{} is missing: run `bash scripts/test.sh`, which installs pythonfmu (tests/python/requirements.txt)",
        pythonfmu.display()
    );
    let output = Command::new(&pythonfmu)
        .args(["build", "-f"])
        .arg(&script)
        .arg("--dest")
        .arg(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", pythonfmu.display()));
    assert!(
        output.status.success(),
        "pythonfmu build failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let fmu = dir.path().join(format!("{name}.fmu"));
    assert!(fmu.is_file(), "pythonfmu wrote no {name}.fmu");
    (dir, fmu)
}

/// A PythonFMU model that refuses every step starting at or after t = 0.2 s: PythonFMU answers
/// with `fmi2Discard` and reports `fmi2Terminated`, so it ends the simulation there.
pub const REFUSER_PY: &str = r#"
from pythonfmu import Fmi2Causality, Fmi2Slave, Real


class Refuser(Fmi2Slave):
    description = "Refuses every step that starts at or after t = 0.2 s"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.y = 0.0
        self.register_variable(Real("y", causality=Fmi2Causality.output))

    def do_step(self, current_time, step_size):
        self.y = current_time + step_size
        return current_time < 0.2 - 1e-9
"#;

/// The `modelDescription.xml` of the FMU archive at `path`.
pub fn description_text(path: &Path) -> String {
    use std::io::Read as _;
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut xml = String::new();
    archive.by_name("modelDescription.xml").unwrap().read_to_string(&mut xml).unwrap();
    xml
}

/// Text → types → text → types through the one model-description schema: the second parse
/// equals the first, which is returned.
pub fn parse_write_parse(xml: &str) -> cosim::import::model_description::schema::ModelDescription {
    use cosim::import::model_description::schema::ModelDescription;
    let first = ModelDescription::parse(xml).unwrap();
    let second = ModelDescription::parse(&first.to_xml()).unwrap();
    assert_eq!(second, first);
    first
}
