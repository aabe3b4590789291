//! The FMU extraction cache as the orchestrator uses it: a second run extracts nothing, runs
//! started at once share one entry, a tampered file is reported and replaced, an unsafe root is
//! not used, `--no-fmu-cache` and `ROTORCRAFT_FMU_CACHE=off` turn it off, isolated instances load
//! from it, `orchestrator cache [clear]`; and in one process, the same content through two paths
//! is two copies (the cache's own unit tests are in `cosim/src/import/cache/tests.rs`).

use crate::common;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cosim::import::ExtractionCache;
use cosim::master::FmuCache;

/// A folder with `system.json` (the Fuselage falling for 1 s) and `cache/`, the cache root.
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let fuselage = common::our_fmu("Fuselage");
        std::fs::write(
            dir.path().join("system.json"),
            format!(
                r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?} }} }},
                     "experiment": {{ "stop": 1.0, "step": 0.1 }},
                     "outputs": ["fuselage.z", "fuselage.w"] }}"#
            ),
        )
        .unwrap();
        Case { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn root(&self) -> PathBuf {
        self.path("cache")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_orchestrator"));
        command.args(args).env("ROTORCRAFT_FMU_CACHE", self.root());
        command
    }

    /// `orchestrator run system.json --out <out>` plus `extra`; must succeed.
    fn run(&self, out: &str, extra: &[&str]) -> Output {
        let system = self.path("system.json");
        let csv = self.path(out);
        let mut args = vec!["run", system.to_str().unwrap(), "--out", csv.to_str().unwrap()];
        args.extend(extra);
        let output = self.command(&args).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        output
    }

    fn csv(&self, out: &str) -> String {
        std::fs::read_to_string(self.path(out)).unwrap()
    }

    /// The names in the cache root, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The one entry's directory.
    fn entry(&self) -> PathBuf {
        let names = self.names();
        assert_eq!(names.len(), 1, "{names:?}");
        self.root().join(&names[0])
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn inode(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().ino()
}

#[test]
fn a_second_run_extracts_nothing() {
    let case = Case::new();
    case.run("first.csv", &[]);
    let entry = case.entry();
    let binary = entry.join("fmu/binaries/linux64/Fuselage.so");
    let before = (inode(&entry), inode(&binary), std::fs::metadata(&binary).unwrap().mtime());
    let second = case.run("second.csv", &[]);
    assert!(!stderr(&second).contains("warning"), "{}", stderr(&second));
    assert_eq!(case.entry(), entry);
    assert_eq!((inode(&entry), inode(&binary), std::fs::metadata(&binary).unwrap().mtime()), before);
    assert_eq!(case.csv("first.csv"), case.csv("second.csv"));

    let listing = case.command(&["cache"]).output().unwrap();
    let text = String::from_utf8_lossy(&listing.stdout);
    assert!(listing.status.success() && text.contains("Fuselage") && text.contains("1 entries"), "{text}");
    let cleared = case.command(&["cache", "clear"]).output().unwrap();
    assert!(cleared.status.success(), "{}", stderr(&cleared));
    assert!(!case.root().exists());
}

/// Two processes extracting into an empty cache at the same time: both run, one entry remains,
/// no unfinished extraction is left.
#[test]
fn two_runs_at_once_share_one_entry() {
    let case = Case::new();
    let system = case.path("system.json");
    let start = |out: &str| {
        let csv = case.path(out);
        case.command(&["run", system.to_str().unwrap(), "--out", csv.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start("a.csv"), start("b.csv"));
    for child in [a, b] {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
    }
    case.entry();
    assert_eq!(case.csv("a.csv"), case.csv("b.csv"));
}

#[test]
fn the_cache_can_be_turned_off() {
    let case = Case::new();
    case.run("r.csv", &["--no-fmu-cache"]);
    assert!(!case.root().exists());
    let system = case.path("system.json");
    let csv = case.path("off.csv");
    let output = case
        .command(&["run", system.to_str().unwrap(), "--out", csv.to_str().unwrap()])
        .env("ROTORCRAFT_FMU_CACHE", "off")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!case.root().exists());
    assert_eq!(case.csv("r.csv"), case.csv("off.csv"));
}

#[test]
fn isolated_instances_load_from_the_cache() {
    let case = Case::new();
    case.run("in-process.csv", &[]);
    let entry = case.entry();
    case.run("isolated.csv", &["--isolate"]);
    assert_eq!(case.entry(), entry);
    assert_eq!(case.csv("in-process.csv"), case.csv("isolated.csv"));
}

#[test]
fn a_tampered_binary_is_reported_and_replaced() {
    let case = Case::new();
    case.run("first.csv", &[]);
    let binary = case.entry().join("fmu/binaries/linux64/Fuselage.so");
    let original = std::fs::read(&binary).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut patched = original.clone();
    patched[original.len() / 2] ^= 0xff;
    std::fs::write(&binary, &patched).unwrap();

    let second = case.run("second.csv", &[]);
    let text = stderr(&second);
    assert!(text.contains("has a modified file: binaries/linux64/Fuselage.so"), "{text}");
    assert!(text.contains("it is not loaded; the FMU is extracted again"), "{text}");
    assert_eq!(std::fs::read(&binary).unwrap(), original);
    assert_eq!(case.csv("first.csv"), case.csv("second.csv"));
    let third = case.run("third.csv", &[]);
    assert!(!stderr(&third).contains("warning"), "{}", stderr(&third));
}

#[test]
fn a_cache_root_writable_by_others_is_not_used() {
    let case = Case::new();
    std::fs::create_dir(case.root()).unwrap();
    std::fs::set_permissions(case.root(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let output = case.run("r.csv", &[]);
    let text = stderr(&output);
    assert!(text.contains("is writable by group or others (mode 777): it is not used"), "{text}");
    assert_eq!(text.matches("warning").count(), 1, "{text}");
    assert!(case.names().is_empty());
}

/// Two paths of one content in one process: two FMUs with a library each (a second `dlopen` of
/// the cached file would return the first's library and share its global state).
#[test]
fn the_same_content_through_two_paths_is_two_copies() {
    let case = Case::new();
    let first = common::our_fmu("Fuselage");
    let copy = case.path("Copy.fmu");
    std::fs::copy(&first, &copy).unwrap();
    let mut fmus = FmuCache::default().with_extraction_cache(Some(ExtractionCache::at(case.root())));
    let a = fmus.open(&first).unwrap();
    let b = fmus.open(&copy).unwrap();
    assert!(a.directory().starts_with(case.root()), "{}", a.directory().display());
    assert!(!b.directory().starts_with(case.root()), "{}", b.directory().display());
    assert!(std::sync::Arc::ptr_eq(&a, &fmus.open(&first).unwrap()));
    for fmu in [&a, &b] {
        let mut slave = fmu.instantiate("fuselage", common::logger()).unwrap();
        slave.setup_experiment(None, 0.0, None).unwrap();
        slave.enter_initialization_mode().unwrap();
        slave.exit_initialization_mode().unwrap();
        slave.do_step(0.0, 0.1, true).unwrap();
    }
    drop((a, b, fmus));
    assert_eq!(case.names().len(), 1);
}
