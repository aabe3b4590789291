//! An entry's manifest (size and SHA-256 of every extracted file), written when the entry is
//! sealed and checked on every use, and the file-system helpers of the cache: ownership and mode
//! checks, tree walks, removal.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{FILES, MANIFEST};

/// Why an entry is not used.
pub(super) enum Problem {
    /// There is none.
    Missing,
    /// It is unsound: the text completes "the cached extraction ... ".
    Bad(String),
}

/// What an entry held when it was made.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Manifest {
    /// The SHA-256 of the archive (the entry's name).
    archive_sha256: String,
    /// Every file under [`FILES`], by relative path.
    files: BTreeMap<String, FileRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct FileRecord {
    size: u64,
    sha256: String,
}

/// Writes the manifest of a fresh extraction in `dir` (files in `dir/fmu`), last, and makes the
/// files read-only and the directories private.
pub(super) fn seal(dir: &Path, key: &str) -> io::Result<()> {
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
pub(super) fn verify(entry: &Path, key: &str) -> Result<(), Problem> {
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
pub(super) fn walk(
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
pub(super) fn hash_file(path: &Path) -> io::Result<FileRecord> {
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
pub(super) fn owned_and_private(meta: &fs::Metadata) -> Result<(), String> {
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
pub(super) fn effective_uid() -> Option<u32> {
    static UID: OnceLock<Option<u32>> = OnceLock::new();
    *UID.get_or_init(|| {
        let status = fs::read_to_string("/proc/self/status").ok()?;
        let ids = status.lines().find_map(|line| line.strip_prefix("Uid:"))?;
        ids.split_whitespace().nth(1)?.parse().ok()
    })
}

/// Removes `path` and everything under it, making read-only directories writable first.
pub(super) fn remove_tree(path: &Path) -> io::Result<()> {
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
pub(super) fn tree_size(path: &Path) -> u64 {
    let mut bytes = 0;
    let _ = walk(path, path, &mut |_, _, meta| {
        bytes += if meta.is_file() { meta.len() } else { 0 };
        Ok(())
    });
    bytes
}

/// Whether `name` is an entry's name: 64 lowercase hexadecimal digits.
pub(super) fn is_key(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
