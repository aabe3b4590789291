//! One sweep at a time in a folder. A sweep holds an OS advisory lock (`flock(2)`, through
//! [`std::fs::File::try_lock`]) on `DIR/sweep.lock` while it runs; the system releases it when
//! the process ends, however it ends. A whole sweep takes it exclusively; a Slurm array task
//! (`--chunk K --chunks N`) takes it shared, so that the tasks of one job array run side by side,
//! plus an exclusive lock on `DIR/sweep-chunk-K-of-N.lock`, so that the same chunk never runs
//! twice. Each exclusive holder writes `PID on HOST` into its lock file, which the refusal names.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The locks a running sweep holds on its folder (released when dropped or when the process ends).
pub struct FolderLock {
    _files: Vec<File>,
}

/// How a lock file is taken.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Exclusive,
    Shared,
}

impl FolderLock {
    /// Locks `dir` for a whole sweep (`chunk` `None`) or for chunk `(k, n)`; refuses, naming the
    /// process that holds it, when another sweep writes into `dir`.
    pub fn acquire(dir: &Path, chunk: Option<(usize, usize)>) -> Result<Self> {
        let folder = dir.join("sweep.lock");
        let Some((k, n)) = chunk else {
            let file = try_lock(&folder, Mode::Exclusive).map_err(|held| refusal(dir, held, &chunk_holders(dir)))?;
            return Ok(Self { _files: vec![file] });
        };
        let shared = try_lock(&folder, Mode::Shared).map_err(|held| refusal(dir, held, &[]))?;
        let chunk_file = dir.join(format!("sweep-chunk-{k}-of-{n}.lock"));
        let own = try_lock(&chunk_file, Mode::Exclusive).map_err(|held| refusal(dir, held, &[]))?;
        Ok(Self { _files: vec![shared, own] })
    }
}

/// Why a lock was not taken: held by another process (the holder as written in the file, if it
/// wrote one), or another error.
enum Held {
    By(String),
    Error(anyhow::Error),
}

/// Opens `path` (created if missing) and locks it without waiting; an exclusive holder writes
/// itself into the file.
fn try_lock(path: &Path, mode: Mode) -> std::result::Result<File, Held> {
    let open = || OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path);
    let mut file = open().with_context(|| format!("cannot open {}", path.display())).map_err(Held::Error)?;
    let locked = match mode {
        Mode::Exclusive => file.try_lock(),
        Mode::Shared => file.try_lock_shared(),
    };
    match locked {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Err(Held::By(holder(path))),
        Err(TryLockError::Error(e)) => {
            return Err(Held::Error(anyhow::Error::new(e).context(format!("cannot lock {}", path.display()))));
        }
    }
    if mode == Mode::Exclusive {
        let me = format!("PID {} on {}", std::process::id(), host_name());
        file.set_len(0)
            .and_then(|()| file.write_all(me.as_bytes()))
            .with_context(|| format!("cannot write {}", path.display()))
            .map_err(Held::Error)?;
    }
    Ok(file)
}

/// What the holder of lock file `path` wrote: `PID 123 on host`, or that it is unknown.
fn holder(path: &Path) -> String {
    std::fs::read_to_string(path).ok().filter(|t| t.starts_with("PID ")).unwrap_or_else(|| "PID unknown".into())
}

/// The holders of the chunk locks of `dir` that are held now (Slurm array tasks running).
fn chunk_holders(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("sweep-chunk-")))
        .collect();
    files.sort();
    files
        .iter()
        .filter(|p| File::open(p).is_ok_and(|f| matches!(f.try_lock_shared(), Err(TryLockError::WouldBlock))))
        .map(|p| holder(p))
        .collect()
}

/// The error for a lock of `dir` not taken; `chunks`: the holders of its chunk locks, if any.
fn refusal(dir: &Path, held: Held, chunks: &[String]) -> anyhow::Error {
    match held {
        Held::Error(e) => e,
        Held::By(holder) => {
            let who = if chunks.is_empty() { holder } else { chunks.join(", ") };
            anyhow::anyhow!(
                "{} is in use by another sweep ({who}): wait for it to end, or give another --out",
                dir.display()
            )
        }
    }
}

/// This machine's name (`/proc/sys/kernel/hostname`), to tell Slurm nodes apart.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map_or_else(|_| "this host".into(), |h| h.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `flock` locks of separate opens conflict within one process too, so one process can play
    /// every sweep: the chunks of one job array side by side, but no whole sweep beside them, no
    /// chunk twice, and no chunk beside a whole sweep; each refusal names the holder.
    #[test]
    fn chunks_share_the_folder_and_whole_sweeps_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let me = format!("PID {} on ", std::process::id());
        let first = FolderLock::acquire(dir.path(), Some((0, 2))).unwrap();
        let second = FolderLock::acquire(dir.path(), Some((1, 2))).unwrap();
        let whole = FolderLock::acquire(dir.path(), None).err().expect("refused beside the chunks");
        assert!(whole.to_string().contains("is in use by another sweep (PID"), "{whole}");
        assert_eq!(whole.to_string().matches(&me).count(), 2, "both chunk holders named: {whole}");
        let again = FolderLock::acquire(dir.path(), Some((1, 2))).err().expect("chunk 1 twice");
        assert!(again.to_string().contains(&me), "{again}");
        drop((first, second));
        let whole = FolderLock::acquire(dir.path(), None).unwrap();
        let chunk = FolderLock::acquire(dir.path(), Some((0, 2))).err().expect("refused beside a whole sweep");
        assert!(chunk.to_string().contains(&me), "{chunk}");
        drop(whole);
        FolderLock::acquire(dir.path(), None).unwrap();
    }
}
