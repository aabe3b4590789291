//! Hostile and malformed archives, built here with the `zip` crate: each is refused with its
//! specific error (variant and message), nothing is written outside the extraction directory,
//! and nothing panics.

use crate::import_support;

use std::io::Write;
use std::path::{Path, PathBuf};

use cosim::import::{DescriptionError, ExtractLimits, Fmu, ImportError, OpenOptions};
use import_support::{compile_shared, packaged_fmu};
use zip::write::SimpleFileOptions;

/// A scratch area: `root/` holds the archives, `root/extract/` is where the importer creates its
/// temporary directories, so the test can see everything that was written.
struct Scratch {
    root: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("extract")).unwrap();
        Scratch { root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    fn options(&self) -> OpenOptions {
        OpenOptions { temp_dir: Some(self.path("extract")), ..OpenOptions::default() }
    }

    /// Writes an archive with `(name, content)` entries (deflated).
    fn zip(&self, name: &str, entries: &[(&str, &[u8])]) -> PathBuf {
        let path = self.path(name);
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for (entry, content) in entries {
            zip.start_file(*entry, options).unwrap();
            zip.write_all(content).unwrap();
        }
        zip.finish().unwrap();
        path
    }

    fn open(&self, archive: &Path) -> Result<Fmu, ImportError> {
        Fmu::open_with(archive, &self.options())
    }

    /// Everything under the scratch root, relative, sorted.
    fn listing(&self) -> Vec<String> {
        fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                out.push(path.strip_prefix(base).unwrap().display().to_string());
                if path.is_dir() {
                    walk(base, &path, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self.root.path(), self.root.path(), &mut out);
        out.sort();
        out
    }

    /// After a refused archive: only the archives and the (empty) extraction parent remain.
    fn assert_nothing_left(&self, archives: &[&str]) {
        let mut expected: Vec<String> = archives.iter().map(|s| s.to_string()).collect();
        expected.push("extract".into());
        expected.sort();
        assert_eq!(self.listing(), expected, "files left behind or written outside the extraction directory");
    }
}

/// A valid FMI 2.0 CS description for model `M`.
fn description(version: &str, interface: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="{version}" modelName="M" guid="{{0}}">
  {interface}
  <ModelVariables>
    <ScalarVariable name="u" valueReference="0" causality="input"><Real start="0"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure/>
</fmiModelDescription>
"#
    )
}

fn cs_description() -> String {
    description("2.0", r#"<CoSimulation modelIdentifier="M"/>"#)
}

#[test]
fn parent_directory_entry_is_refused_and_nothing_escapes() {
    let scratch = Scratch::new();
    let xml = cs_description();
    for (archive, evil) in [("a.fmu", "../evil.txt"), ("b.fmu", "resources/../../evil.txt"), ("c.fmu", "..\\evil.txt")]
    {
        let path = scratch.zip(archive, &[("modelDescription.xml", xml.as_bytes()), (evil, b"pwned")]);
        let err = scratch.open(&path).unwrap_err();
        let ImportError::UnsafeEntry { archive: a, entry, reason } = &err else { panic!("{err:?}") };
        assert_eq!(a, &path);
        assert_eq!(entry, evil);
        assert!(reason.contains("'..'"), "{reason}");
        let text = err.to_string();
        assert!(text.contains(&format!("refusing entry '{evil}'")) && text.contains(archive), "{text}");
    }
    // The would-be targets, relative to the extraction directory, do not exist.
    assert!(!scratch.path("evil.txt").exists());
    assert!(!scratch.path("extract/evil.txt").exists());
    scratch.assert_nothing_left(&["a.fmu", "b.fmu", "c.fmu"]);
}

#[test]
fn absolute_path_entry_is_refused() {
    let scratch = Scratch::new();
    let target = scratch.path("absolute-target.txt");
    let absolute = target.display().to_string();
    let path = scratch.zip("abs.fmu", &[("modelDescription.xml", cs_description().as_bytes()), (&absolute, b"pwned")]);
    let err = scratch.open(&path).unwrap_err();
    assert!(
        matches!(&err, ImportError::UnsafeEntry { entry, reason, .. } if *entry == absolute && reason.contains("absolute")),
        "{err:?}"
    );
    assert!(!target.exists());
    scratch.assert_nothing_left(&["abs.fmu"]);
}

#[test]
fn symbolic_link_entry_is_refused() {
    let scratch = Scratch::new();
    let path = scratch.path("link.fmu");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    zip.start_file("modelDescription.xml", SimpleFileOptions::default()).unwrap();
    zip.write_all(cs_description().as_bytes()).unwrap();
    zip.add_symlink("resources/passwd", "/etc/passwd", SimpleFileOptions::default()).unwrap();
    zip.finish().unwrap();
    let err = scratch.open(&path).unwrap_err();
    assert!(
        matches!(&err, ImportError::UnsafeEntry { entry, reason, .. } if entry == "resources/passwd" && reason.contains("symbolic link")),
        "{err:?}"
    );
    scratch.assert_nothing_left(&["link.fmu"]);
}

#[test]
fn truncated_archive_names_the_file() {
    let scratch = Scratch::new();
    let whole = std::fs::read(packaged_fmu("Fuselage")).unwrap();
    let path = scratch.path("Truncated.fmu");
    std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::NotAZip { path: p, .. } if *p == path), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("Truncated.fmu") && text.contains("not a readable FMU archive"), "{text}");
    scratch.assert_nothing_left(&["Truncated.fmu"]);
}

#[test]
fn corrupt_entry_data_is_an_extraction_error() {
    // A valid archive whose compressed data is damaged in the middle of the binary.
    let scratch = Scratch::new();
    let payload: Vec<u8> = (0..200_000u32).flat_map(|i| (i.wrapping_mul(2_654_435_761)).to_le_bytes()).collect();
    let path = scratch.zip(
        "corrupt.fmu",
        &[("modelDescription.xml", cs_description().as_bytes()), ("binaries/linux64/M.so", &payload)],
    );
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::Extract { entry, .. } if entry == "binaries/linux64/M.so"), "{err:?}: {err}");
    scratch.assert_nothing_left(&["corrupt.fmu"]);
}

#[test]
fn non_zip_file_is_refused() {
    let scratch = Scratch::new();
    let path = scratch.path("notes.fmu");
    std::fs::write(&path, "this is a text file, not an FMU\n").unwrap();
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::NotAZip { .. }), "{err:?}");
    assert!(err.to_string().contains("notes.fmu"), "{err}");
    let missing = scratch.path("missing.fmu");
    let err = scratch.open(&missing).unwrap_err();
    assert!(matches!(&err, ImportError::Io { path, .. } if *path == missing), "{err:?}");
    assert!(err.to_string().starts_with(&format!("cannot read {}", missing.display())), "{err}");
}

#[test]
fn fmi3_description_is_refused() {
    let scratch = Scratch::new();
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="M" instantiationToken="{0}">
  <CoSimulation modelIdentifier="M"/>
  <ModelVariables><Float64 name="u" valueReference="0" causality="input" start="0"/></ModelVariables>
  <ModelStructure/>
</fmiModelDescription>"#;
    let path = scratch.zip("fmi3.fmu", &[("modelDescription.xml", xml.as_bytes())]);
    let err = scratch.open(&path).unwrap_err();
    let ImportError::Description { archive, source } = &err else { panic!("{err:?}") };
    assert_eq!(archive, &path);
    assert_eq!(source, &DescriptionError::UnsupportedVersion { version: "3.0".into() });
    assert!(err.to_string().ends_with("fmi3.fmu: modelDescription.xml is FMI 3.0, only FMI 2.0 is supported"), "{err}");
    scratch.assert_nothing_left(&["fmi3.fmu"]);
}

#[test]
fn malformed_description_gives_line_and_column() {
    let scratch = Scratch::new();
    let xml = "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"g\">\n  <CoSimulation modelIdentifier=\"M\">\n</fmiModelDescription>\n";
    let path = scratch.zip("malformed.fmu", &[("modelDescription.xml", xml.as_bytes())]);
    let err = scratch.open(&path).unwrap_err();
    let ImportError::Description { source: DescriptionError::Xml { line, column, message }, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*line, 4, "{err}");
    assert_eq!(*column, 1, "{err}");
    assert!(message.contains("CoSimulation"), "{message}");
    assert!(
        err.to_string().contains("malformed.fmu: modelDescription.xml is not well-formed XML: line 4, column 1"),
        "{err}"
    );
}

#[test]
fn model_exchange_only_is_refused() {
    let scratch = Scratch::new();
    let xml = description("2.0", r#"<ModelExchange modelIdentifier="M"/>"#);
    let path = scratch.zip("me.fmu", &[("modelDescription.xml", xml.as_bytes()), ("binaries/linux64/M.so", b"")]);
    let err = scratch.open(&path).unwrap_err();
    assert!(
        matches!(
            &err,
            ImportError::Description { source: DescriptionError::NotCoSimulation { model_exchange: true }, .. }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("me.fmu: modelDescription.xml is Model Exchange only"), "{err}");
}

#[test]
fn missing_description_is_refused() {
    let scratch = Scratch::new();
    let path = scratch.zip("empty.fmu", &[("documentation/index.html", b"<html/>")]);
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::MissingModelDescription { archive } if *archive == path), "{err:?}");
    assert!(err.to_string().contains("has no modelDescription.xml"), "{err}");
}

#[test]
fn missing_binary_lists_the_platforms_present() {
    let scratch = Scratch::new();
    let path = scratch.zip(
        "windows-only.fmu",
        &[
            ("modelDescription.xml", cs_description().as_bytes()),
            ("binaries/win64/M.dll", b"MZ"),
            ("binaries/darwin64/M.dylib", b"\xcf\xfa\xed\xfe"),
        ],
    );
    let err = scratch.open(&path).unwrap_err();
    // The description alone is still readable, e.g. for `orchestrator inspect`.
    assert_eq!(cosim::import::read_model_description(&path).unwrap().model_name, "M");
    let ImportError::MissingBinary { platforms, expected, platform, has_sources, .. } = &err else { panic!("{err:?}") };
    assert_eq!(platforms, &["darwin64".to_string(), "win64".to_string()]);
    assert_eq!(expected, "binaries/linux64/M.so");
    assert_eq!(*platform, "linux64");
    assert!(!has_sources);
    assert_eq!(
        err.to_string(),
        format!(
            "{} has no binary for linux64: binaries/linux64/M.so is missing; it has binaries for: darwin64, win64",
            path.display()
        )
    );

    let path =
        scratch.zip("sources.fmu", &[("modelDescription.xml", cs_description().as_bytes()), ("sources/m.c", b"")]);
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::MissingBinary { platforms, has_sources: true, .. } if platforms.is_empty()));
    assert!(err.to_string().contains("it has no binaries at all (it ships sources/"), "{err}");
}

#[test]
fn unloadable_binary_gives_the_loader_message() {
    let scratch = Scratch::new();
    let path = scratch.zip(
        "garbage.fmu",
        &[("modelDescription.xml", cs_description().as_bytes()), ("binaries/linux64/M.so", b"not an ELF file")],
    );
    let err = scratch.open(&path).unwrap_err();
    let ImportError::LoadLibrary { library, message, .. } = &err else { panic!("{err:?}") };
    assert_eq!(library, "binaries/linux64/M.so");
    assert!(message.contains("M.so"), "the loader's own text is kept: {message}");
    assert!(err.to_string().contains("garbage.fmu: cannot load binaries/linux64/M.so: "), "{err}");
}

/// Defines `fmi2<name>` for each name, all as functions returning 0 (enough for symbol lookup;
/// the version functions return their texts).
fn stub_source(names: &[&str]) -> String {
    let mut source = String::from(
        "const char* fmi2GetVersion(void) { return \"2.0\"; }\nconst char* fmi2GetTypesPlatform(void) { return \"default\"; }\n",
    );
    for name in names {
        source.push_str(&format!("int fmi2{name}(void) {{ return 0; }}\n"));
    }
    source
}

const REQUIRED: &[&str] = &[
    "SetDebugLogging",
    "Instantiate",
    "FreeInstance",
    "SetupExperiment",
    "EnterInitializationMode",
    "ExitInitializationMode",
    "Terminate",
    "Reset",
    "GetReal",
    "GetInteger",
    "GetBoolean",
    "GetString",
    "SetReal",
    "SetInteger",
    "SetBoolean",
    "SetString",
    "DoStep",
];

#[test]
fn missing_required_function_is_named() {
    let scratch = Scratch::new();
    let without_do_step: Vec<&str> = REQUIRED.iter().copied().filter(|n| *n != "DoStep").collect();
    let binary = compile_shared(scratch.root.path(), "nostep", &stub_source(&without_do_step));
    let path = scratch.zip(
        "nostep.fmu",
        &[("modelDescription.xml", cs_description().as_bytes()), ("binaries/linux64/M.so", &binary)],
    );
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::MissingSymbol { symbol: "fmi2DoStep", .. }), "{err:?}");
    assert!(err.to_string().contains("binaries/linux64/M.so does not export the FMI 2.0 function fmi2DoStep"), "{err}");
}

#[test]
fn declared_capability_without_its_function_is_refused() {
    let scratch = Scratch::new();
    let binary = compile_shared(scratch.root.path(), "nostate", &stub_source(REQUIRED));
    let xml = description("2.0", r#"<CoSimulation modelIdentifier="M" canGetAndSetFMUstate="true"/>"#);
    let path =
        scratch.zip("nostate.fmu", &[("modelDescription.xml", xml.as_bytes()), ("binaries/linux64/M.so", &binary)]);
    let err = scratch.open(&path).unwrap_err();
    assert!(
        matches!(&err, ImportError::MissingCapability { flag: "canGetAndSetFMUstate", symbol: "fmi2GetFMUstate", .. }),
        "{err:?}"
    );
    // Without the flag the same binary loads, and the optional functions are absent.
    let path = scratch
        .zip("plain.fmu", &[("modelDescription.xml", cs_description().as_bytes()), ("binaries/linux64/M.so", &binary)]);
    let fmu = scratch.open(&path).unwrap();
    assert!(fmu.functions().get_fmu_state.is_none() && fmu.functions().get_directional_derivative.is_none());
}

#[test]
fn zip_bomb_is_stopped_by_the_byte_limit() {
    let scratch = Scratch::new();
    let zeros = vec![0u8; 4 << 20]; // 4 MiB that compress to a few kB
    let path = scratch
        .zip("bomb.fmu", &[("modelDescription.xml", cs_description().as_bytes()), ("resources/zeros.bin", &zeros)]);
    assert!(std::fs::metadata(&path).unwrap().len() < 64 << 10);
    let options = OpenOptions {
        limits: ExtractLimits { max_total_bytes: 1 << 20, ..ExtractLimits::default() },
        temp_dir: Some(scratch.path("extract")),
    };
    let err = Fmu::open_with(&path, &options).unwrap_err();
    assert!(
        matches!(&err, ImportError::TooLarge { entry, limit, .. } if entry == "resources/zeros.bin" && *limit == 1 << 20),
        "{err:?}"
    );
    assert!(err.to_string().contains("possible zip bomb"), "{err}");
    scratch.assert_nothing_left(&["bomb.fmu"]);
}

/// The headers claim 100 bytes, the data inflates to 4 MiB: the limit counts real bytes.
#[test]
fn lying_size_headers_do_not_bypass_the_limit() {
    let scratch = Scratch::new();
    let zeros = vec![0u8; 4 << 20];
    let path = scratch.zip("liar.fmu", &[("resources/zeros.bin", &zeros)]);
    let mut bytes = std::fs::read(&path).unwrap();
    let real = (4u32 << 20).to_le_bytes();
    let fake = 100u32.to_le_bytes();
    let mut patched = 0;
    for i in 0..bytes.len() - 4 {
        if bytes[i..i + 4] == real {
            bytes[i..i + 4].copy_from_slice(&fake);
            patched += 1;
        }
    }
    assert_eq!(patched, 2, "local and central header");
    std::fs::write(&path, &bytes).unwrap();
    let options = OpenOptions {
        limits: ExtractLimits { max_total_bytes: 1 << 20, ..ExtractLimits::default() },
        temp_dir: Some(scratch.path("extract")),
    };
    let err = Fmu::open_with(&path, &options).unwrap_err();
    assert!(matches!(&err, ImportError::TooLarge { .. } | ImportError::Extract { .. }), "{err:?}");
    scratch.assert_nothing_left(&["liar.fmu"]);
}

#[test]
fn too_many_entries_are_refused() {
    let scratch = Scratch::new();
    let names: Vec<String> = (0..20).map(|i| format!("resources/{i}.txt")).collect();
    let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), b"x".as_slice())).collect();
    let path = scratch.zip("many.fmu", &entries);
    let options = OpenOptions {
        limits: ExtractLimits { max_entries: 10, ..ExtractLimits::default() },
        temp_dir: Some(scratch.path("extract")),
    };
    let err = Fmu::open_with(&path, &options).unwrap_err();
    assert!(matches!(&err, ImportError::TooManyEntries { entries: 20, limit: 10, .. }), "{err:?}");
    scratch.assert_nothing_left(&["many.fmu"]);
}

#[test]
fn duplicate_entries_do_not_overwrite() {
    // Two names for one path: the second entry must not replace the first.
    let scratch = Scratch::new();
    let xml = cs_description();
    let path =
        scratch.zip("dup.fmu", &[("modelDescription.xml", xml.as_bytes()), ("./modelDescription.xml", b"<evil/>")]);
    let err = scratch.open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::Extract { entry, .. } if entry == "./modelDescription.xml"), "{err:?}");
    assert!(err.to_string().contains("two entries with this path"), "{err}");
}

/// `modelIdentifier` names the binary; one with path components could load a library from
/// anywhere, so it must be a C identifier.
#[test]
fn model_identifier_cannot_point_outside_the_archive() {
    let scratch = Scratch::new();
    let xml = description("2.0", r#"<CoSimulation modelIdentifier="../../../../../usr/lib/x86_64-linux-gnu/libm"/>"#);
    let path = scratch.zip("traversal.fmu", &[("modelDescription.xml", xml.as_bytes())]);
    let err = scratch.open(&path).unwrap_err();
    assert!(
        matches!(&err, ImportError::Description { source: DescriptionError::Invalid { line: 3, .. }, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("is not a C identifier"), "{err}");
}
