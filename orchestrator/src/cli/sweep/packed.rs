//! Packed sweep results (the default; `"packed": false` in the sweep file gives a folder of files
//! per point instead): each task (the local sweep, or one `--chunk` of a Slurm array) appends to two files in
//! `DIR/packed/`: `results-K.csv` (every point's recorded rows, a `point` column first) and
//! `points-K.jsonl` (one JSON line per finished point: status, summary, statistics). A point runs
//! in a scratch folder under the system's temporary directory (node-local on a cluster), which
//! is removed once its files are appended, so a million points leave a few files, not millions.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

/// The packed files of one task, appended to by its worker threads.
pub(super) struct PackedTask {
    dir: PathBuf,
    /// Names the files: `results-TASK.csv`, `points-TASK.jsonl`.
    task: String,
    /// Held while one point's files are appended, so that points never interleave.
    lock: Mutex<()>,
}

/// What is known of a finished point from the packed files.
pub(super) struct Record {
    /// Its `status.json` content.
    pub status: Value,
    /// Its summary JSON (none when the point wrote none).
    pub summary: Option<Value>,
    /// Minimum, maximum, mean and final value of the sweep's statistics.
    pub statistics: Vec<(String, String)>,
}

/// The scratch folder of point `k` in process `pid`.
pub(super) fn scratch_of(pid: u32, k: usize) -> PathBuf {
    std::env::temp_dir().join(format!("orchestrator-sweep-{pid}-{k}"))
}

/// `DIR/packed`.
fn packed_dir(dir: &Path) -> PathBuf {
    dir.join("packed")
}

impl PackedTask {
    /// The files of task `task` in `DIR/packed/`.
    pub(super) fn new(dir: &Path, task: &str) -> Result<Self> {
        let dir = packed_dir(dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let packed = Self { dir, task: task.to_string(), lock: Mutex::new(()) };
        packed.drop_unrecorded_rows()?;
        Ok(packed)
    }

    fn results_path(&self) -> PathBuf {
        self.dir.join(format!("results-{}.csv", self.task))
    }

    fn points_path(&self) -> PathBuf {
        self.dir.join(format!("points-{}.jsonl", self.task))
    }

    /// Cuts `results-K.csv` back to its length after the last point recorded in
    /// `points-K.jsonl`: rows of a point whose task was killed before its line are dropped (the
    /// point runs again).
    fn drop_unrecorded_rows(&self) -> Result<()> {
        let text = std::fs::read_to_string(self.points_path()).unwrap_or_default();
        let recorded = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|l| l["results_bytes"].as_u64())
            .max()
            .unwrap_or(0);
        let path = self.results_path();
        if std::fs::metadata(&path).is_ok_and(|m| m.len() > recorded) {
            let file = std::fs::OpenOptions::new().write(true).open(&path)?;
            file.set_len(recorded).with_context(|| format!("cannot truncate {}", path.display()))?;
        }
        Ok(())
    }

    /// Removes the lines of `points` from `points-K.jsonl` and their rows from `results-K.csv`
    /// (each file rewritten, then renamed over the old one).
    fn forget(&self, points: &HashSet<usize>) -> Result<()> {
        let text = std::fs::read_to_string(self.points_path()).unwrap_or_default();
        let lines: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        let of_points = |l: &Value| l["point"].as_u64().is_some_and(|k| points.contains(&(k as usize)));
        if !lines.iter().any(of_points) {
            return Ok(());
        }
        let csv = std::fs::read_to_string(self.results_path()).unwrap_or_default();
        let mut kept_csv = String::with_capacity(csv.len());
        for (n, row) in csv.lines().enumerate() {
            let point = row.split(',').next().and_then(|k| k.parse::<usize>().ok());
            if n == 0 || !point.is_some_and(|k| points.contains(&k)) {
                kept_csv += row;
                kept_csv.push('\n');
            }
        }
        if !csv.is_empty() {
            replace(&self.results_path(), &kept_csv)?;
        }
        let mut kept = String::new();
        for mut line in lines.into_iter().filter(|l| !of_points(l)) {
            // Every row left is of a recorded point.
            line["results_bytes"] = json!(kept_csv.len());
            kept += &(line.to_string() + "\n");
        }
        replace(&self.points_path(), &kept)
    }

    /// The scratch folder point `k` writes its files into (in this process).
    pub(super) fn scratch(&self, k: usize) -> PathBuf {
        scratch_of(std::process::id(), k)
    }

    /// Appends point `k` (its scratch folder `out` and `status`) to the task's files and removes
    /// the folder. `statistics` are the sweep's statistics, computed here from the point's CSV.
    pub(super) fn append(&self, k: usize, out: &Path, status: &Value, statistics: &[String]) -> Result<()> {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let text = std::fs::read_to_string(out.join("results.csv")).ok();
        if let Some(text) = &text {
            self.append_rows(k, text)?;
            let units = self.dir.join("results.units.csv");
            if !units.exists() {
                let _ = std::fs::copy(out.join("results.units.csv"), &units);
            }
        }
        // No results CSV: no statistics.
        let stats: serde_json::Map<String, Value> = text
            .map(|text| super::statistics_of(&text, statistics))
            .unwrap_or_default()
            .into_iter()
            .map(|(n, v)| (n, Value::String(v)))
            .collect();
        // What describes the inputs (the command line, the system's hash) is in the status.
        let summary = super::read_json(&out.join("summary.json")).map(|mut s| {
            s.as_object_mut().map(|m| m.remove("inputs"));
            s
        });
        let results_bytes = std::fs::metadata(self.results_path()).map_or(0, |m| m.len());
        let line = json!({ "point": k, "status": status, "summary": summary, "statistics": stats, "results_bytes": results_bytes });
        let path = self.points_path();
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&path)?;
        writeln!(file, "{line}").with_context(|| format!("cannot write {}", path.display()))?;
        std::fs::remove_dir_all(out).with_context(|| format!("cannot remove {}", out.display()))
    }

    /// Appends the rows of a point's results CSV to `results-K.csv` with `k` in a first `point`
    /// column (the header once, when the file is new; a point recording other columns is refused).
    fn append_rows(&self, k: usize, text: &str) -> Result<()> {
        let path = self.results_path();
        let mut lines = text.lines();
        let header = format!("\"point\",{}", lines.next().unwrap_or(""));
        let existing = first_line(&path);
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&path)?;
        match existing.as_deref() {
            None => writeln!(file, "{header}")?,
            Some(first) if first != header => {
                bail!("point {k} records other columns than {}: {header}", path.display())
            }
            Some(_) => {}
        }
        use std::fmt::Write as _;
        let mut rows = String::with_capacity(text.len() + 8 * text.lines().count());
        for line in lines {
            let _ = writeln!(rows, "{k},{line}"); // writing to a String cannot fail
        }
        file.write_all(rows.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The first line of the file at `path` without its line ending (`None`: no such file, or empty).
fn first_line(path: &Path) -> Option<String> {
    use std::io::BufRead;
    let mut line = String::new();
    let read = std::io::BufReader::new(std::fs::File::open(path).ok()?).read_line(&mut line).ok()?;
    if read == 0 {
        return None;
    }
    match line.strip_suffix('\n') {
        Some(content) => Some(content.strip_suffix('\r').unwrap_or(content).to_string()),
        None => Some(line),
    }
}

/// Removes the records and rows of `points` (about to run again) from the packed files of
/// `task` and its workers (`TASK-j`), or of every task with `all` (a whole sweep, which holds the
/// folder alone), so that results of an earlier run (failed, interrupted, or with other inputs)
/// are never read beside the new ones. Rows a killed task left unrecorded are dropped first.
pub(super) fn forget(dir: &Path, task: &str, all: bool, points: &[usize]) -> Result<()> {
    let points: HashSet<usize> = points.iter().copied().collect();
    let Ok(entries) = std::fs::read_dir(packed_dir(dir)) else { return Ok(()) };
    let mut tasks = BTreeSet::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let of_file = name.strip_prefix("points-").and_then(|n| n.strip_suffix(".jsonl"));
        let of_file = of_file.or_else(|| name.strip_prefix("results-").and_then(|n| n.strip_suffix(".csv")));
        if let Some(of_file) = of_file
            && (all || of_file == task || of_file.strip_prefix(task).is_some_and(|j| j.starts_with('-')))
        {
            tasks.insert(of_file.to_string());
        }
    }
    for task in tasks {
        let files = PackedTask { dir: packed_dir(dir), task, lock: Mutex::new(()) };
        files.drop_unrecorded_rows()?;
        files.forget(&points)?;
    }
    Ok(())
}

/// Writes `text` to `path` through a temporary file beside it, renamed over it.
fn replace(path: &Path, text: &str) -> Result<()> {
    let temporary = path.with_extension("rewrite");
    std::fs::write(&temporary, text).with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot replace {}", path.display()))
}

/// Every point recorded in `DIR/packed/points-*.jsonl` (a point run again: its last line).
pub(super) fn finished(dir: &Path) -> BTreeMap<usize, Record> {
    let mut records = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(packed_dir(dir)) else { return records };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with("points-") && name.ends_with(".jsonl")) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else { continue };
        // A line cut short by a killed task is skipped: that point runs again.
        for line in text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
            let Some(k) = line["point"].as_u64() else { continue };
            let statistics = line["statistics"]
                .as_object()
                .map(|m| m.iter().map(|(n, v)| (n.clone(), v.as_str().unwrap_or("").to_string())).collect())
                .unwrap_or_default();
            let summary = Some(line["summary"].clone()).filter(|s| !s.is_null());
            records.insert(k as usize, Record { status: line["status"].clone(), summary, statistics });
        }
    }
    records
}
