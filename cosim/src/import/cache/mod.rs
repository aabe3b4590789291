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
//!   removed at a later miss, once an hour old. No room under the root (ENOSPC, EDQUOT while
//!   extracting) is a warning and a private temporary extraction, as for a root that cannot be
//!   written; a file or link where an entry's directory belongs is removed and the entry made
//!   again.
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

use std::collections::HashSet;
use std::fs;
use std::io::{self, Cursor};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use sha2::{Digest, Sha256};

use super::archive::{self, ExtractedFmu};
use super::{ImportError, OpenOptions};

mod manifest;

use manifest::{Problem, hex, is_key, owned_and_private, remove_tree, seal, tree_size, verify};

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
    log::warn!("{message}");
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
        let Some(temp) = self.extract_sealed(bytes, key, archive, limits)? else { return Ok(None) };
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

    /// `bytes` extracted into a new temporary directory in the root, with its manifest; `None`
    /// (after a warning) when the cache cannot hold it (not writable, no room).
    fn extract_sealed(
        &self,
        bytes: &[u8],
        key: &str,
        archive: &Path,
        limits: &super::ExtractLimits,
    ) -> Result<Option<tempfile::TempDir>, ImportError> {
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
            // The cache's file system is full (the archive itself is fine): as if not writable.
            Err(ImportError::Extract { source, .. })
                if matches!(source.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT)) =>
            {
                warn(&format!(
                    "the FMU extraction cache {} has no room ({source}): this run uses a temporary extraction",
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
        Ok(Some(temp))
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

    /// Removes a broken entry: a directory is set aside first (one `rename`, so no process sees
    /// it half removed), a file or link in its place is unlinked (also one step).
    fn discard(&self, entry: &Path) -> io::Result<()> {
        if !fs::symlink_metadata(entry)?.is_dir() {
            return fs::remove_file(entry);
        }
        let aside = tempfile::Builder::new().prefix(STALE_PREFIX).tempdir_in(&self.root)?.keep();
        // `rename` replaces the empty directory just made.
        if let Err(e) = fs::rename(entry, &aside) {
            let _ = fs::remove_dir(&aside);
            return Err(e);
        }
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

#[cfg(test)]
mod tests;
