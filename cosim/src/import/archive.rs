//! Safe extraction of an `.fmu` (a zip archive) into a fresh temporary directory (or, through
//! [`super::cache`], into an entry of the extraction cache).
//!
//! Every entry name is checked before anything is written: absolute paths, `..` components,
//! NUL bytes and symbolic links are refused with an error naming the entry, so nothing is ever
//! written outside the temporary directory. Files are created with `create_new` (never
//! overwriting, never following a link). An archive with two entries of the same name is refused
//! naming the entry (a zip reader keeps only one of them, so which one an importer extracts is
//! arbitrary; two names for the same path, `a` and `./a`, are refused when the second file is
//! created). Against zip bombs, the entry count and the total number
//! of bytes actually decompressed are limited; the sizes in the headers are not trusted.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Component, Path, PathBuf};

use super::ImportError;

/// Limits applied while extracting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtractLimits {
    /// Maximum total uncompressed bytes of all entries (default 1 GiB).
    pub max_total_bytes: u64,
    /// Maximum number of entries (default 100 000).
    pub max_entries: usize,
}

impl Default for ExtractLimits {
    fn default() -> Self {
        ExtractLimits { max_total_bytes: 1 << 30, max_entries: 100_000 }
    }
}

/// An extracted FMU: a temporary directory, removed (with everything in it) on drop; or, in the
/// process that hosts an isolated instance, a directory another process extracted and removes.
#[derive(Debug)]
pub struct ExtractedFmu {
    dir: Directory,
    archive: PathBuf,
}

/// Who removes the extraction directory.
#[derive(Debug)]
enum Directory {
    /// This process: removed on drop.
    Owned(tempfile::TempDir),
    /// The parent process of an isolated instance (see [`super::isolated`]): left alone.
    Borrowed(PathBuf),
    /// An entry of the extraction cache ([`super::cache`]): kept for later runs; the lease marks
    /// it as in use by this process until dropped.
    Cached(PathBuf, #[allow(dead_code)] super::cache::Lease),
}

impl ExtractedFmu {
    /// The directory holding the extracted files.
    pub fn path(&self) -> &Path {
        match &self.dir {
            Directory::Owned(dir) => dir.path(),
            Directory::Borrowed(dir) | Directory::Cached(dir, _) => dir,
        }
    }

    /// Whether the files are an entry of the extraction cache (kept after this process ends).
    pub fn is_cached(&self) -> bool {
        matches!(self.dir, Directory::Cached(..))
    }

    /// An extraction of this process into the temporary directory `dir` (removed on drop).
    pub(crate) fn owned(dir: tempfile::TempDir, archive: PathBuf) -> ExtractedFmu {
        register_live_extraction(dir.path());
        ExtractedFmu { dir: Directory::Owned(dir), archive }
    }

    /// The files of a cache entry, leased to this process while this lives.
    pub(crate) fn cached(dir: PathBuf, archive: PathBuf, lease: super::cache::Lease) -> ExtractedFmu {
        ExtractedFmu { dir: Directory::Cached(dir, lease), archive }
    }

    /// An extraction made by another process (the parent of an isolated instance), which keeps
    /// and removes `dir`: this process only loads from it.
    pub(crate) fn borrowed(dir: PathBuf, archive: PathBuf) -> ExtractedFmu {
        ExtractedFmu { dir: Directory::Borrowed(dir), archive }
    }

    /// The archive this was extracted from.
    pub fn archive(&self) -> &Path {
        &self.archive
    }
}

/// The extraction directories alive in this process, so that a process ended from another
/// thread (the `--fmu-timeout` watchdog, which calls `_exit`) can still remove them.
static LIVE_EXTRACTIONS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn register_live_extraction(dir: &Path) {
    LIVE_EXTRACTIONS.lock().unwrap_or_else(|p| p.into_inner()).push(dir.to_path_buf());
}

impl Drop for ExtractedFmu {
    fn drop(&mut self) {
        // The TempDir field removes the directory after this.
        let Directory::Owned(dir) = &self.dir else { return };
        let mut live = LIVE_EXTRACTIONS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(k) = live.iter().position(|d| d == dir.path()) {
            live.swap_remove(k);
        }
    }
}

/// Removes every extraction directory still alive (the process is about to end without running
/// destructors). A library mapped from one keeps working: its pages stay mapped.
pub(crate) fn remove_live_extractions() {
    let live = match LIVE_EXTRACTIONS.try_lock() {
        Ok(live) => live,
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for dir in live.iter() {
        let _ = fs::remove_dir_all(dir);
    }
}

/// Extracts `archive` into a new temporary directory under `TMPDIR` (default `/tmp`).
pub fn extract(archive: &Path, limits: &ExtractLimits) -> Result<ExtractedFmu, ImportError> {
    extract_in(archive, &std::env::temp_dir(), limits)
}

/// Extracts `archive` into a new temporary directory created inside `parent`.
pub fn extract_in(archive: &Path, parent: &Path, limits: &ExtractLimits) -> Result<ExtractedFmu, ImportError> {
    let open = || File::open(archive).map(BufReader::new);
    let create = || tempfile::Builder::new().prefix("rotorcraft-fmu-").tempdir_in(parent);
    let dir = extract_with(open, archive, limits, create, Path::to_path_buf)?;
    Ok(ExtractedFmu::owned(dir, archive.to_path_buf()))
}

/// Extracts the archive whose bytes `open` reads (named `archive` in errors) with every check
/// and limit of [`extract_in`]: the directory made by `create` (after the archive's directory
/// was checked) is returned; the files go into `target(its path)`, created if missing. On any
/// error the directory is removed.
pub(crate) fn extract_with<R: Read + Seek>(
    open: impl Fn() -> io::Result<R>,
    archive: &Path,
    limits: &ExtractLimits,
    create: impl FnOnce() -> io::Result<tempfile::TempDir>,
    target: impl FnOnce(&Path) -> PathBuf,
) -> Result<tempfile::TempDir, ImportError> {
    let archive_path = archive.to_path_buf();
    let file = open().map_err(|source| ImportError::Io { path: archive_path.clone(), source })?;
    let mut zip =
        zip::ZipArchive::new(file).map_err(|source| ImportError::NotAZip { path: archive_path.clone(), source })?;
    if zip.has_duplicate_names() {
        let entry = duplicate_name(open, zip.central_directory_start(), limits.max_entries);
        return Err(ImportError::DuplicateEntry { archive: archive_path, entry });
    }
    if zip.len() > limits.max_entries {
        return Err(ImportError::TooManyEntries {
            archive: archive_path,
            entries: zip.len(),
            limit: limits.max_entries,
        });
    }
    let dir = create().map_err(|source| ImportError::TempDir { archive: archive_path.clone(), source })?;
    let root = target(dir.path());
    if root != dir.path() {
        fs::create_dir_all(&root).map_err(|source| ImportError::TempDir { archive: archive_path.clone(), source })?;
    }

    let mut total: u64 = 0;
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).map_err(|source| ImportError::Extract {
            archive: archive_path.clone(),
            entry: format!("#{index}"),
            source: io::Error::other(source),
        })?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let unsafe_entry =
            |reason| ImportError::UnsafeEntry { archive: archive_path.clone(), entry: name.clone(), reason };
        if entry.is_symlink() {
            return Err(unsafe_entry("it is a symbolic link"));
        }
        let relative = safe_relative_path(&name).map_err(unsafe_entry)?;
        let extract_error =
            |source: io::Error| ImportError::Extract { archive: archive_path.clone(), entry: name.clone(), source };
        if relative.as_os_str().is_empty() {
            continue; // "./" or similar: the root itself
        }
        let target = root.join(&relative);
        if entry.is_dir() {
            fs::create_dir_all(&target).map_err(extract_error)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(extract_error)?;
        }
        let mut out = OpenOptions::new().write(true).create_new(true).open(&target).map_err(|e| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                extract_error(io::Error::new(e.kind(), "the archive has two entries with this path"))
            } else {
                extract_error(e)
            }
        })?;
        let remaining = limits.max_total_bytes - total;
        // One byte more than allowed is read to detect the overflow.
        let written = copy(&mut (&mut entry).take(remaining.saturating_add(1)), &mut out).map_err(extract_error)?;
        if written > remaining {
            return Err(ImportError::TooLarge { archive: archive_path, entry: name, limit: limits.max_total_bytes });
        }
        total += written;
        out.flush().map_err(extract_error)?;
    }
    Ok(dir)
}

/// The first name that occurs twice in the central directory of the archive `open` reads, which
/// starts at `start` (the zip reader reported duplicates, but its index keeps one entry per
/// name). The walk reads at most `max_entries` headers; when it cannot name the entry (a damaged
/// directory), a description stands in for the name.
fn duplicate_name<R: Read + Seek>(open: impl Fn() -> io::Result<R>, start: u64, max_entries: usize) -> String {
    fn walk<R: Read + Seek>(
        open: impl Fn() -> io::Result<R>,
        start: u64,
        max_entries: usize,
    ) -> io::Result<Option<String>> {
        /// Central directory file header: signature, then name, extra and comment lengths at 28.
        const SIGNATURE: [u8; 4] = [0x50, 0x4b, 0x01, 0x02];
        let mut reader = open()?;
        reader.seek(SeekFrom::Start(start))?;
        let mut seen = std::collections::HashSet::new();
        let mut header = [0u8; 46];
        for _ in 0..=max_entries {
            reader.read_exact(&mut header)?;
            if header[..4] != SIGNATURE {
                return Ok(None);
            }
            let field = |at: usize| u16::from_le_bytes([header[at], header[at + 1]]);
            let mut name = vec![0u8; usize::from(field(28))];
            reader.read_exact(&mut name)?;
            reader.seek_relative(i64::from(field(30)) + i64::from(field(32)))?;
            if !seen.insert(name.clone()) {
                return Ok(Some(String::from_utf8_lossy(&name).into_owned()));
            }
        }
        Ok(None)
    }
    walk(open, start, max_entries)
        .ok()
        .flatten()
        .unwrap_or_else(|| "(a name that occurs twice in the central directory)".to_string())
}

/// `io::copy` without its specialisations (so the zip reader's CRC check always runs to the end).
fn copy(reader: &mut impl Read, writer: &mut impl Write) -> io::Result<u64> {
    let mut buffer = [0u8; 64 * 1024];
    let mut written = 0u64;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => return Ok(written),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        writer.write_all(&buffer[..n])?;
        written += n as u64;
    }
}

/// The relative path an entry name denotes, or why it is refused. Both `/` and `\` separate
/// components (some Windows tools write `\`); empty and `.` components are skipped.
pub fn safe_relative_path(name: &str) -> Result<PathBuf, &'static str> {
    if name.contains('\0') {
        return Err("its name contains a NUL byte");
    }
    let bytes = name.as_bytes();
    if name.starts_with('/') || name.starts_with('\\') {
        return Err("it has an absolute path");
    }
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Err("it has an absolute path (drive letter)");
    }
    let mut path = PathBuf::new();
    for part in name.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => return Err("its path has a '..' component that could escape the extraction directory"),
            part => path.push(part),
        }
    }
    // Belt and braces: whatever `push` made of it must be plain relative components.
    if !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err("its path is not a plain relative path");
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names() {
        assert_eq!(safe_relative_path("binaries/linux64/A.so").unwrap(), PathBuf::from("binaries/linux64/A.so"));
        assert_eq!(safe_relative_path("./a//b/").unwrap(), PathBuf::from("a/b"));
        assert_eq!(safe_relative_path("binaries\\win64\\A.dll").unwrap(), PathBuf::from("binaries/win64/A.dll"));
        assert!(safe_relative_path("../evil.txt").is_err());
        assert!(safe_relative_path("a/../../evil.txt").is_err());
        assert!(safe_relative_path("a\\..\\evil.txt").is_err());
        assert!(safe_relative_path("/etc/passwd").is_err());
        assert!(safe_relative_path("\\evil").is_err());
        assert!(safe_relative_path("C:/evil").is_err());
        assert!(safe_relative_path("a\0b").is_err());
    }
}
