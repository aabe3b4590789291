use super::*;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use super::manifest::effective_uid;

const XML: &str = r#"<?xml version="1.0"?>
<fmiModelDescription fmiVersion="2.0" modelName="Fake" guid="{0}">
  <CoSimulation modelIdentifier="Fake"/>
  <ModelVariables/>
  <ModelStructure/>
</fmiModelDescription>"#;

/// A scratch folder with `fake.fmu` (description, "binary", a resource) and a cache root.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let scratch = Scratch { dir: tempfile::tempdir().unwrap() };
        scratch.zip("fake.fmu", &[("binaries/linux64/Fake.so", b"not really ELF".as_slice())]);
        scratch
    }

    /// Writes archive `name` with the description and `extra` entries.
    fn zip(&self, name: &str, extra: &[(&str, &[u8])]) -> PathBuf {
        let path = self.dir.path().join(name);
        let mut zip = zip::ZipWriter::new(fs::File::create(&path).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("modelDescription.xml", options).unwrap();
        zip.write_all(XML.as_bytes()).unwrap();
        zip.start_file("resources/table.txt", options).unwrap();
        zip.write_all(b"1 2 3").unwrap();
        for (entry, content) in extra {
            zip.start_file(*entry, options).unwrap();
            zip.write_all(content).unwrap();
        }
        zip.finish().unwrap();
        path
    }

    fn archive(&self) -> PathBuf {
        self.dir.path().join("fake.fmu")
    }

    fn cache(&self) -> ExtractionCache {
        ExtractionCache::at(self.dir.path().join("cache"))
    }

    /// The names in the cache root, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.cache().root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn extract(&self) -> ExtractedFmu {
        self.cache().extract(&self.archive(), &self.options()).unwrap()
    }

    /// Private extractions go to `tmp/` in the scratch folder.
    fn options(&self) -> OpenOptions {
        let tmp = self.dir.path().join("tmp");
        fs::create_dir_all(&tmp).unwrap();
        OpenOptions { temp_dir: Some(tmp), ..OpenOptions::default() }
    }
}

fn inode(path: &Path) -> u64 {
    fs::metadata(path).unwrap().ino()
}

#[test]
fn a_second_extraction_uses_the_entry_of_the_first() {
    let scratch = Scratch::new();
    let first = scratch.extract();
    assert!(first.is_cached());
    let files = first.path().to_path_buf();
    assert_eq!(fs::read(files.join("binaries/linux64/Fake.so")).unwrap(), b"not really ELF");
    let entry = files.parent().unwrap().to_path_buf();
    assert_eq!(entry.parent().unwrap(), scratch.cache().root());
    assert!(is_key(&entry.file_name().unwrap().to_string_lossy()));
    // Private and read-only.
    let mode = |p: &Path| fs::metadata(p).unwrap().mode() & 0o777;
    assert_eq!(mode(scratch.cache().root()), 0o700);
    assert_eq!(mode(&entry), 0o700);
    assert_eq!(mode(&files.join("binaries")), 0o700);
    assert_eq!(mode(&files.join("modelDescription.xml")), 0o400);
    assert_eq!(mode(&entry.join(MANIFEST)), 0o400);
    let before = (inode(&entry), inode(&files.join("binaries/linux64/Fake.so")));
    drop(first);
    assert!(entry.is_dir(), "an entry outlives its use");

    // The hit: the same directory, the same files, nothing new in the root.
    let second = scratch.extract();
    assert!(second.is_cached());
    assert_eq!(second.path(), files);
    assert_eq!(before, (inode(&entry), inode(&files.join("binaries/linux64/Fake.so"))));
    assert_eq!(scratch.names(), [entry.file_name().unwrap().to_string_lossy().into_owned()]);
    // Another archive: another entry.
    scratch.zip("other.fmu", &[("binaries/linux64/Fake.so", b"another binary".as_slice())]);
    let other = scratch.cache().extract(&scratch.dir.path().join("other.fmu"), &scratch.options()).unwrap();
    assert_ne!(other.path(), files);
    assert_eq!(scratch.names().len(), 2);
    let (entries, stale) = scratch.cache().entries().unwrap();
    assert_eq!((entries.len(), stale), (2, 0));
    assert!(entries.iter().all(|e| e.complete && e.model.as_deref() == Some("Fake") && e.bytes > 0));
}

/// Several extractions of one archive at once (threads here; processes race the same way,
/// see the orchestrator's `fmu_cache` tests): one entry, used by all, nothing left over.
#[test]
fn concurrent_extractions_agree_on_one_entry() {
    let scratch = Scratch::new();
    let cache = scratch.cache();
    cache.prepare_root().unwrap();
    let bytes = fs::read(scratch.archive()).unwrap();
    let key = hex(&Sha256::digest(&bytes));
    let barrier = std::sync::Barrier::new(6);
    let results: Vec<PathBuf> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..6)
            .map(|_| {
                scope.spawn(|| {
                    barrier.wait();
                    cache.entry(&bytes, &key, &scratch.archive(), &Default::default()).unwrap().unwrap()
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert!(results.iter().all(|r| *r == cache.root().join(&key).join(FILES)), "{results:?}");
    assert_eq!(scratch.names(), std::slice::from_ref(&key));
    verify(&cache.root().join(&key), &key).map_err(|_| "unsound").unwrap();
}

#[test]
fn a_modified_file_is_never_used_and_is_extracted_again() {
    let scratch = Scratch::new();
    let files = scratch.extract().path().to_path_buf();
    let binary = files.join("binaries/linux64/Fake.so");
    fs::set_permissions(&binary, fs::Permissions::from_mode(0o600)).unwrap();
    fs::write(&binary, b"not really ELF, patched").unwrap();
    let again = scratch.extract();
    assert!(again.is_cached());
    assert_eq!(again.path(), files);
    assert_eq!(fs::read(&binary).unwrap(), b"not really ELF");
    assert_eq!(fs::metadata(&binary).unwrap().mode() & 0o777, 0o400);
    assert_eq!(scratch.names().len(), 1, "the bad entry is gone: {:?}", scratch.names());
    drop(again);

    // Same size, other bytes.
    fs::set_permissions(&binary, fs::Permissions::from_mode(0o600)).unwrap();
    fs::write(&binary, b"NOT really ELF").unwrap();
    let entry = files.parent().unwrap();
    assert!(
        matches!(verify(entry, &entry.file_name().unwrap().to_string_lossy()), Err(Problem::Bad(why)) if why.contains("modified file: binaries/linux64/Fake.so"))
    );
    assert_eq!(fs::read(scratch.extract().path().join("binaries/linux64/Fake.so")).unwrap(), b"not really ELF");

    // A file added (a library the binary would load from its own folder), one removed, a link,
    // a missing manifest.
    let key = entry.file_name().unwrap().to_string_lossy().into_owned();
    let problem = |change: &dyn Fn()| {
        change();
        let why = match verify(entry, &key) {
            Err(Problem::Bad(why)) => why,
            _ => panic!("not detected"),
        };
        let repaired = scratch.extract();
        assert_eq!(fs::read(repaired.path().join("binaries/linux64/Fake.so")).unwrap(), b"not really ELF");
        assert!(verify(entry, &key).is_ok());
        why
    };
    let extra = files.join("binaries/linux64/libdep.so");
    assert!(problem(&|| fs::write(&extra, b"x").unwrap()).contains("a file the archive does not have"));
    assert!(problem(&|| fs::remove_file(files.join("resources/table.txt")).unwrap()).contains("lacks the file"));
    let link = &|| {
        fs::remove_file(files.join("resources/table.txt")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", files.join("resources/table.txt")).unwrap();
    };
    assert!(problem(link).contains("link"));
    assert!(problem(&|| fs::remove_file(entry.join(MANIFEST)).unwrap()).contains("no manifest"));
}

#[test]
fn a_root_writable_by_others_is_not_used() {
    let scratch = Scratch::new();
    let root = scratch.cache().root().to_path_buf();
    fs::create_dir(&root).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o777)).unwrap();
    let extracted = scratch.extract();
    assert!(!extracted.is_cached());
    assert!(extracted.path().starts_with(scratch.dir.path().join("tmp")), "{}", extracted.path().display());
    assert!(scratch.names().is_empty());
    assert!(scratch.cache().prepare_root().unwrap_err().contains("writable by group or others"));
    fs::set_permissions(&root, fs::Permissions::from_mode(0o700)).unwrap();
    assert!(scratch.extract().is_cached());
}

/// Two `Fmu`s of the same content in one process would be one library (`dlopen` returns the
/// one already loaded): the second extraction while the first lives is a private copy.
#[test]
fn the_same_content_twice_in_one_process_gets_a_private_copy() {
    let scratch = Scratch::new();
    let copy = scratch.dir.path().join("copy.fmu");
    fs::copy(scratch.archive(), &copy).unwrap();
    let first = scratch.extract();
    let second = scratch.cache().extract(&copy, &scratch.options()).unwrap();
    assert!(first.is_cached() && !second.is_cached());
    assert_ne!(first.path(), second.path());
    assert_eq!(second.archive(), copy);
    drop(first);
    let third = scratch.cache().extract(&copy, &scratch.options()).unwrap();
    assert!(third.is_cached());
}

#[test]
fn a_hostile_archive_is_refused_and_leaves_nothing() {
    let scratch = Scratch::new();
    let evil = scratch.zip("evil.fmu", &[("../evil.txt", b"x".as_slice())]);
    let err = scratch.cache().extract(&evil, &scratch.options()).unwrap_err();
    assert!(matches!(&err, ImportError::UnsafeEntry { entry, .. } if entry == "../evil.txt"), "{err:?}");
    assert!(scratch.names().is_empty(), "{:?}", scratch.names());
    assert!(!scratch.dir.path().join("evil.txt").exists());
}

/// What a process killed while extracting leaves is removed an hour later, at the next miss.
#[test]
fn old_unfinished_extractions_are_removed() {
    let scratch = Scratch::new();
    let root = scratch.cache().root().to_path_buf();
    for name in [".tmp-old", ".stale-old", ".tmp-recent"] {
        fs::create_dir_all(root.join(name).join("fmu")).unwrap();
    }
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    for name in [".tmp-old", ".stale-old"] {
        let times = fs::FileTimes::new().set_modified(two_hours_ago);
        fs::File::open(root.join(name)).unwrap().set_times(times).unwrap();
    }
    fs::set_permissions(&root, fs::Permissions::from_mode(0o700)).unwrap();
    assert!(scratch.extract().is_cached());
    let names = scratch.names();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], ".tmp-recent");
}

#[test]
fn clear_removes_everything() {
    let scratch = Scratch::new();
    drop(scratch.extract());
    assert!(scratch.cache().clear().unwrap() > 0);
    assert!(!scratch.cache().root().exists());
    assert_eq!(scratch.cache().clear().unwrap(), 0);
    assert!(scratch.extract().is_cached());
}

#[test]
fn settings() {
    assert!(is_key(&"0a".repeat(32)));
    assert!(!is_key(&"0A".repeat(32)));
    assert!(!is_key(".tmp-x"));
    assert_eq!(effective_uid(), Some(fs::metadata("/proc/self").unwrap().uid()));
}

/// What checking an entry costs against extracting it: `FMU=path/to/X.fmu cargo test
/// --release -p cosim verification_cost -- --ignored --nocapture` (see docs/performance.md).
#[test]
#[ignore = "a measurement"]
fn verification_cost() {
    let archive = PathBuf::from(std::env::var_os("FMU").expect("FMU=path of an .fmu"));
    let dir = tempfile::tempdir().unwrap();
    let cache = ExtractionCache::at(dir.path().join("cache"));
    cache.prepare_root().unwrap();
    let median = |mut times: Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2] * 1e3
    };
    let time = |f: &mut dyn FnMut()| {
        let started = std::time::Instant::now();
        f();
        started.elapsed().as_secs_f64()
    };
    let bytes = fs::read(&archive).unwrap();
    let key = hex(&Sha256::digest(&bytes));
    let entry = cache.entry(&bytes, &key, &archive, &Default::default()).unwrap().unwrap();
    let entry = entry.parent().unwrap();
    let (mut extract, mut hash, mut check) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..21 {
        extract.push(time(&mut || drop(archive::extract(&archive, &Default::default()).unwrap())));
        hash.push(time(&mut || drop(hex(&Sha256::digest(fs::read(&archive).unwrap())))));
        check.push(time(&mut || verify(entry, &key).map_err(|_| "unsound").unwrap()));
    }
    println!(
        "{}: {} bytes, {} bytes extracted; medians of 21: extraction {:.2} ms, archive hash {:.2} ms, \
         full verification {:.2} ms",
        archive.display(),
        bytes.len(),
        tree_size(entry),
        median(extract),
        median(hash),
        median(check)
    );
}

/// An entry replaced by a plain file (or a link) is repaired: the file is removed and the FMU
/// extracted into the entry again, with no `.stale-*` folder left behind, run after run.
#[test]
fn an_entry_replaced_by_a_file_is_repaired() {
    let scratch = Scratch::new();
    let entry = scratch.extract().path().parent().unwrap().to_path_buf();
    let key = entry.file_name().unwrap().to_string_lossy().into_owned();
    for replacement in ["file", "link"] {
        remove_tree(&entry).unwrap();
        match replacement {
            "file" => fs::write(&entry, b"not a directory").unwrap(),
            _ => std::os::unix::fs::symlink("/etc", &entry).unwrap(),
        }
        for _ in 0..2 {
            let repaired = scratch.extract();
            assert!(repaired.is_cached(), "{replacement}: the cache entry is used again");
            assert!(fs::symlink_metadata(&entry).unwrap().is_dir(), "{replacement}");
            assert!(verify(&entry, &key).is_ok(), "{replacement}");
            assert_eq!(scratch.names(), std::slice::from_ref(&key), "{replacement}: nothing left beside the entry");
        }
    }
}
