//! The extraction cache: each `.fmu` is extracted once per content, into
//! `<root>/<SHA-256 of the .fmu>/`, and later runs and sweep points load it from there instead of
//! unzipping it again.
//!
//! - **Root**: `$ROTORCRAFT_FMU_CACHE` (`off` turns the cache off), else
//!   `$XDG_CACHE_HOME/rotorcraft/fmus`, else `$HOME/.cache/rotorcraft/fmus` ([`setting_from_env`]).
//!   The library uses it only when asked ([`ExtractionCache`] given to
//!   [`super::extract_fmu_cached`] or [`crate::master::FmuCache::with_extraction_cache`]); the
//!   orchestrator's commands ask unless `--no-fmu-cache`.
//! - **Key**: the SHA-256 of the archive's bytes, read once into memory; a miss extracts from
//!   those same bytes, so an archive rewritten meanwhile cannot land under the old key.
//! - **Concurrency**: an entry is extracted (by [`super::archive`], with all its checks and
//!   limits) into a temporary directory inside the root and renamed into place, manifest
//!   included, in one `rename`: an entry is complete or absent. When another process won the race,
//!   its entry is used and ours removed. What a process killed meanwhile leaves (`.tmp-*`) is
//!   removed at a later miss, once an hour old.
//! - **Tampering**: the root and entries are created with mode 0700, the files made read-only. A
//!   root not owned by this user or writable by group or others is not used (one warning; the FMUs
//!   are extracted into private temporary directories). Every entry has a manifest (size and
//!   SHA-256 of every file), and on every use *all* files are checked against it, and no file may
//!   be missing or added (checking all costs 6–17 % of an extraction, see
//!   docs/performance.md). An entry that fails gets a warning naming the problem and is replaced
//!   by a fresh extraction; its files are never loaded.
//! - **One process, one lease**: a second `dlopen` of the same file returns the library already
//!   loaded, so two [`super::Fmu`]s of the same content (two paths, or one archive opened twice)
//!   would share its global state without knowing it. An entry is therefore leased to one
//!   extraction at a time per process; the next extraction of the same content while the lease
//!   lives gets a private temporary copy, as without the cache.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{self, Cursor, Read};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::archive::{self, ExtractedFmu};
use super::{ImportError, OpenOptions};

/// The environment variable naming the cache root, or `off`.
pub const ENV: &str = "ROTORCRAFT_FMU_CACHE";

/// The extracted files inside an entry.
const FILES: &str = "fmu";
/// The manifest inside an entry, beside [`FILES`].
const MANIFEST: &str = "manifest.json";
/// Prefix of the directories being extracted.
const TEMP_PREFIX: &str = ".tmp-";
/// Prefix of entries set aside to be removed.
const STALE_PREFIX: &str = ".stale-";
/// How old an unfinished extraction must be to be removed as left over.
const LEFTOVER_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Where the cache is, as the environment says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// `ROTORCRAFT_FMU_CACHE=off`.
    Off,
    /// The root directory.
    At(PathBuf),
    /// No usable variable is set.
    Unavailable,
}

/// The cache root: `$ROTORCRAFT_FMU_CACHE` (`off`: none; a relative path is taken from the current
/// directory), else `$XDG_CACHE_HOME/rotorcraft/fmus`, else `$HOME/.cache/rotorcraft/fmus` (the
/// last two only when absolute).
pub fn setting_from_env() -> Setting {
    if let Some(value) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
        if value == "off" {
            return Setting::Off;
        }
        let path = PathBuf::from(value);
        if path.is_absolute() {
            return Setting::At(path);
        }
        return std::env::current_dir().map_or(Setting::Unavailable, |dir| Setting::At(dir.join(path)));
    }
    let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|p| p.is_absolute());
    if let Some(xdg) = absolute("XDG_CACHE_HOME") {
        return Setting::At(xdg.join("rotorcraft").join("fmus"));
    }
    if let Some(home) = absolute("HOME") {
        return Setting::At(home.join(".cache").join("rotorcraft").join("fmus"));
    }
    Setting::Unavailable
}

/// A directory of extracted FMUs, one entry per archive content (see the [module](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractionCache {
    root: PathBuf,
}

/// One entry of the cache, as [`ExtractionCache::entries`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its directory.
    pub path: PathBuf,
    /// Total bytes of its files.
    pub bytes: u64,
    /// Whether it has its manifest (an entry without one is extracted again on use).
    pub complete: bool,
    /// The `modelIdentifier` of the model description, when readable.
    pub model: Option<String>,
}

static WARNED_UNAVAILABLE: AtomicBool = AtomicBool::new(false);
static WARNED_ROOT: AtomicBool = AtomicBool::new(false);

fn warn(message: &str) {
    eprintln!("warning: {message}");
}

fn warn_once(flag: &AtomicBool, message: &str) {
    if !flag.swap(true, Ordering::Relaxed) {
        warn(message);
    }
}

impl ExtractionCache {
    /// A cache with root `root` (created on first use).
    pub fn at(root: impl Into<PathBuf>) -> ExtractionCache {
        ExtractionCache { root: root.into() }
    }

    /// The cache the environment names ([`setting_from_env`]); `None` when it is off, or, with one
    /// warning per process, when no variable names a directory.
    pub fn from_env() -> Option<ExtractionCache> {
        match setting_from_env() {
            Setting::Off => None,
            Setting::At(root) => Some(ExtractionCache::at(root)),
            Setting::Unavailable => {
                warn_once(
                    &WARNED_UNAVAILABLE,
                    &format!(
                        "no directory for the FMU extraction cache ({ENV}, XDG_CACHE_HOME and HOME are unset): \
                         FMUs are extracted into temporary directories"
                    ),
                );
                None
            }
        }
    }

    /// The root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The extracted files of `archive`: its cache entry when it has a sound one (checked
    /// against its manifest), else a new entry, extracted with `options.limits`. When the cache
    /// cannot be used (a root refused or not writable), or the entry is already leased in this
    /// process, a private extraction into `options.temp_dir` instead. An archive the extractor
    /// refuses is an error, as without the cache.
    pub fn extract(&self, archive: &Path, options: &OpenOptions) -> Result<ExtractedFmu, ImportError> {
        let bytes = fs::read(archive).map_err(|source| ImportError::Io { path: archive.to_path_buf(), source })?;
        let key = hex(&Sha256::digest(&bytes));
        let private = || extract_private(&bytes, archive, options);
        if let Err(why) = self.prepare_root() {
            warn_once(
                &WARNED_ROOT,
                &format!(
                    "the FMU extraction cache {} {why}: it is not used, FMUs are extracted into temporary directories",
                    self.root.display()
                ),
            );
            return private();
        }
        let Some(lease) = Lease::take(&self.root.join(&key)) else { return private() };
        match self.entry(&bytes, &key, archive, &options.limits)? {
            Some(files) => Ok(ExtractedFmu::cached(files, archive.to_path_buf(), lease)),
            None => private(),
        }
    }

    /// The files of the sound entry of `bytes` (archive `archive`, SHA-256 `key`), extracted
    /// now if it has none (an unsound one is replaced); `None` (after a warning) when the cache
    /// cannot hold it.
    fn entry(
        &self,
        bytes: &[u8],
        key: &str,
        archive: &Path,
        limits: &super::ExtractLimits,
    ) -> Result<Option<PathBuf>, ImportError> {
        let entry = self.root.join(key);
        match verify(&entry, key) {
            Ok(()) => return Ok(Some(entry.join(FILES))),
            Err(Problem::Missing) => {}
            Err(Problem::Bad(why)) => {
                warn(&format!(
                    "the cached extraction of {} ({}) {why}: it is not loaded; the FMU is extracted again",
                    archive.display(),
                    entry.display()
                ));
                if let Err(e) = self.discard(&entry) {
                    warn(&format!("cannot remove {}: {e}; this run uses a temporary extraction", entry.display()));
                    return Ok(None);
                }
            }
        }
        self.remove_leftovers();
        let created = archive::extract_with(
            || Ok(Cursor::new(bytes)),
            archive,
            limits,
            || tempfile::Builder::new().prefix(TEMP_PREFIX).tempdir_in(&self.root),
            |dir| dir.join(FILES),
        );
        let temp = match created {
            Ok(temp) => temp,
            Err(ImportError::TempDir { source, .. }) => {
                warn(&format!(
                    "cannot write into the FMU extraction cache {} ({source}): this run uses a temporary extraction",
                    self.root.display()
                ));
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if let Err(e) = seal(temp.path(), key) {
            warn(&format!(
                "cannot write the manifest of a cache entry in {} ({e}): this run uses a temporary extraction",
                self.root.display()
            ));
            return Ok(None);
        }
        match fs::rename(temp.path(), &entry) {
            Ok(()) => {
                let _ = temp.keep();
            }
            // Another process put the entry in place first: use it, ours goes with `temp`.
            Err(_) if entry.is_dir() => {
                drop(temp);
                if let Err(problem) = verify(&entry, key) {
                    let why = match problem {
                        Problem::Missing => "vanished".to_string(),
                        Problem::Bad(why) => why,
                    };
                    warn(&format!(
                        "the cached extraction of {} ({}), made by another process, {why}: this run uses a \
                         temporary extraction",
                        archive.display(),
                        entry.display()
                    ));
                    return Ok(None);
                }
            }
            Err(e) => {
                warn(&format!(
                    "cannot move an extraction into {} ({e}): this run uses a temporary extraction",
                    entry.display()
                ));
                return Ok(None);
            }
        }
        Ok(Some(entry.join(FILES)))
    }

    /// Creates the root (mode 0700) if missing and checks it: a directory owned by this user,
    /// not writable by group or others.
    fn prepare_root(&self) -> Result<(), String> {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.root)
            .map_err(|e| format!("cannot be created ({e})"))?;
        let meta = fs::metadata(&self.root).map_err(|e| format!("cannot be read ({e})"))?;
        if !meta.is_dir() {
            return Err("is not a directory".into());
        }
        owned_and_private(&meta)
    }

    /// Removes what processes ended during an extraction (or a removal) left: `.tmp-*` and
    /// `.stale-*` directories untouched for [`LEFTOVER_AGE`] (an extraction takes seconds).
    fn remove_leftovers(&self) {
        let Ok(listing) = fs::read_dir(&self.root) else { return };
        for item in listing.flatten() {
            let name = item.file_name();
            let name = name.to_string_lossy();
            if !(name.starts_with(TEMP_PREFIX) || name.starts_with(STALE_PREFIX)) {
                continue;
            }
            let old = item
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|modified| modified.elapsed().is_ok_and(|age| age > LEFTOVER_AGE));
            if old {
                let _ = remove_tree(&item.path());
            }
        }
    }

    /// Sets a broken entry aside (one `rename`, so no process sees it half removed) and removes it.
    fn discard(&self, entry: &Path) -> io::Result<()> {
        let aside = tempfile::Builder::new().prefix(STALE_PREFIX).tempdir_in(&self.root)?.keep();
        // `rename` replaces the empty directory just made.
        fs::rename(entry, &aside)?;
        let _ = remove_tree(&aside);
        Ok(())
    }

    /// The entries, sorted by name, and the bytes of unfinished or stale directories beside them.
    pub fn entries(&self) -> io::Result<(Vec<Entry>, u64)> {
        let mut entries = Vec::new();
        let mut other = 0;
        let listing = match fs::read_dir(&self.root) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((entries, 0)),
            Err(e) => return Err(e),
        };
        for item in listing {
            let path = item?.path();
            let bytes = tree_size(&path);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if !is_key(&name) {
                other += bytes;
                continue;
            }
            let manifest = fs::read(path.join(MANIFEST)).ok();
            let model = fs::read(path.join(FILES).join("modelDescription.xml"))
                .ok()
                .and_then(|xml| super::ModelDescription::from_bytes(&xml).ok())
                .map(|d| d.co_simulation.model_identifier);
            entries.push(Entry { path, bytes, complete: manifest.is_some(), model });
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        Ok((entries, other))
    }

    /// Removes the root and everything in it (entries in use by a running process stay readable
    /// to it: their files are open or mapped). Returns the bytes freed.
    pub fn clear(&self) -> io::Result<u64> {
        if !self.root.exists() {
            return Ok(0);
        }
        let bytes = tree_size(&self.root);
        remove_tree(&self.root)?;
        Ok(bytes)
    }
}

/// Extracts `bytes` (the archive `archive`) into a new private temporary directory.
fn extract_private(bytes: &[u8], archive: &Path, options: &OpenOptions) -> Result<ExtractedFmu, ImportError> {
    let parent = options.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    let dir = archive::extract_with(
        || Ok(Cursor::new(bytes)),
        archive,
        &options.limits,
        || tempfile::Builder::new().prefix("rotorcraft-fmu-").tempdir_in(&parent),
        Path::to_path_buf,
    )?;
    Ok(ExtractedFmu::owned(dir, archive.to_path_buf()))
}

/// A cache entry in use by this process (see the [module](self)): released on drop.
#[derive(Debug)]
pub(crate) struct Lease(PathBuf);

static LEASED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

impl Lease {
    /// The lease of the entry at `entry`, unless it is taken.
    fn take(entry: &Path) -> Option<Lease> {
        let mut leased = LEASED.lock().unwrap_or_else(|p| p.into_inner());
        leased.get_or_insert_with(HashSet::new).insert(entry.to_path_buf()).then(|| Lease(entry.to_path_buf()))
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(leased) = LEASED.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
            leased.remove(&self.0);
        }
    }
}

/// Why an entry is not used.
enum Problem {
    /// There is none.
    Missing,
    /// It is unsound: the text completes "the cached extraction ... ".
    Bad(String),
}

/// What an entry held when it was made.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    /// The SHA-256 of the archive (the entry's name).
    archive_sha256: String,
    /// Every file under [`FILES`], by relative path.
    files: BTreeMap<String, FileRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct FileRecord {
    size: u64,
    sha256: String,
}

/// Writes the manifest of a fresh extraction in `dir` (files in `dir/fmu`), last, and makes the
/// files read-only and the directories private.
fn seal(dir: &Path, key: &str) -> io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    let files = fs::canonicalize(dir.join(FILES))?;
    let mut records = BTreeMap::new();
    walk(&files, &files, &mut |relative, path, meta| {
        if meta.is_dir() {
            fs::set_permissions(path, fs::Permissions::from_mode(0o700))
        } else {
            records.insert(relative.to_string(), hash_file(path)?);
            fs::set_permissions(path, fs::Permissions::from_mode(0o400))
        }
    })?;
    fs::set_permissions(&files, fs::Permissions::from_mode(0o700))?;
    let manifest = Manifest { archive_sha256: key.to_string(), files: records };
    let text = serde_json::to_vec_pretty(&manifest).map_err(io::Error::other)?;
    let path = dir.join(MANIFEST);
    let mut out = fs::OpenOptions::new().write(true).create_new(true).mode(0o400).open(&path)?;
    io::Write::write_all(&mut out, &text)?;
    out.sync_all()
}

/// Checks entry `entry` of archive hash `key`: present, owned by this user and private, with a
/// manifest of that archive, and exactly the files of the manifest, each of its size and hash.
fn verify(entry: &Path, key: &str) -> Result<(), Problem> {
    let meta = match fs::symlink_metadata(entry) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Problem::Missing),
        Err(e) => return Err(Problem::Bad(format!("cannot be read ({e})"))),
    };
    if !meta.is_dir() {
        return Err(Problem::Bad("is not a directory".into()));
    }
    owned_and_private(&meta).map_err(Problem::Bad)?;
    let manifest = match fs::read(entry.join(MANIFEST)) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(Problem::Bad("is incomplete (it has no manifest)".into()));
        }
        Err(e) => return Err(Problem::Bad(format!("has an unreadable manifest ({e})"))),
    };
    let manifest: Manifest =
        serde_json::from_slice(&manifest).map_err(|e| Problem::Bad(format!("has a damaged manifest ({e})")))?;
    if manifest.archive_sha256 != key {
        return Err(Problem::Bad("has the manifest of another archive".into()));
    }
    let files = entry.join(FILES);
    let mut found = HashSet::new();
    walk(&files, &files, &mut |relative, path, meta| {
        if meta.is_dir() {
            return Ok(());
        }
        let Some(record) = manifest.files.get(relative) else {
            return Err(io::Error::other(format!("has a file the archive does not have: {relative}")));
        };
        if meta.len() != record.size || hash_file(path)? != *record {
            return Err(io::Error::other(format!("has a modified file: {relative}")));
        }
        found.insert(relative.to_string());
        Ok(())
    })
    .map_err(|e| Problem::Bad(e.to_string()))?;
    if let Some(missing) = manifest.files.keys().find(|name| !found.contains(*name)) {
        return Err(Problem::Bad(format!("lacks the file {missing}")));
    }
    Ok(())
}

/// Calls `visit(relative path, path, metadata)` for everything under `dir` (depth first, links
/// not followed); a symbolic link or any other special file is an error.
fn walk(
    base: &Path,
    dir: &Path,
    visit: &mut dyn FnMut(&str, &Path, &fs::Metadata) -> io::Result<()>,
) -> io::Result<()> {
    for item in fs::read_dir(dir)? {
        let path = item?.path();
        let meta = fs::symlink_metadata(&path)?;
        let relative = path.strip_prefix(base).map_err(io::Error::other)?.to_string_lossy().into_owned();
        if !meta.is_dir() && !meta.is_file() {
            return Err(io::Error::other(format!("has a link or special file: {relative}")));
        }
        visit(&relative, &path, &meta)?;
        if meta.is_dir() {
            walk(base, &path, visit)?;
        }
    }
    Ok(())
}

/// Size and SHA-256 of a regular file (opened without following a link).
fn hash_file(path: &Path) -> io::Result<FileRecord> {
    let mut file = fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW).open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 256 * 1024];
    let mut size = 0u64;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
    Ok(FileRecord { size, sha256: hex(&hasher.finalize()) })
}

/// Owned by this process's user and not writable by group or others.
fn owned_and_private(meta: &fs::Metadata) -> Result<(), String> {
    let uid = effective_uid().ok_or("cannot be checked (this process's user id is unknown)")?;
    if meta.uid() != uid {
        return Err(format!("is owned by another user (uid {}, this process runs as {uid})", meta.uid()));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!("is writable by group or others (mode {:o})", meta.mode() & 0o7777));
    }
    Ok(())
}

/// The effective user id, from `/proc/self/status` (no `unsafe` call needed).
fn effective_uid() -> Option<u32> {
    static UID: OnceLock<Option<u32>> = OnceLock::new();
    *UID.get_or_init(|| {
        let status = fs::read_to_string("/proc/self/status").ok()?;
        let ids = status.lines().find_map(|line| line.strip_prefix("Uid:"))?;
        ids.split_whitespace().nth(1)?.parse().ok()
    })
}

/// Removes `path` and everything under it, making read-only directories writable first.
fn remove_tree(path: &Path) -> io::Result<()> {
    let _ = walk(path, path, &mut |_, p, meta| {
        if meta.is_dir() {
            let _ = fs::set_permissions(p, fs::Permissions::from_mode(0o700));
        }
        Ok(())
    });
    let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o700));
    fs::remove_dir_all(path)
}

/// Total bytes of the files under `path`.
fn tree_size(path: &Path) -> u64 {
    let mut bytes = 0;
    let _ = walk(path, path, &mut |_, _, meta| {
        bytes += if meta.is_file() { meta.len() } else { 0 };
        Ok(())
    });
    bytes
}

/// Whether `name` is an entry's name: 64 lowercase hexadecimal digits.
fn is_key(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
}
