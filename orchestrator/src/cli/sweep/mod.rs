//! `orchestrator sweep`: many runs or trims of one system over a set of points (a grid, a list
//! or random samples, see [`design`]), run by worker processes that each take a chunk of the
//! points (see [`worker`]; `"process": "point"`: each point in its own `orchestrator` process), so
//! that a crash or failure of one point is recorded and the others go on. Points already done with
//! the same inputs are skipped (resumable; [`fingerprint`]); `DIR/sweep.csv` has one row per point
//! (units in `sweep.units.csv`) and `DIR/sweep.svg` the results against the swept variable (see
//! [`plot`]). With `--slurm` the same points run as a Slurm job array writing into the same `DIR`
//! ([`slurm`]). Each task packs its points' files into a few files (see [`packed`]; `"packed":
//! false`: a folder per point). One sweep at a time writes into a folder ([`lock`]); each point
//! (or worker) runs in a process group of its own, ended on timeout and on Ctrl-C ([`children`]).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use serde_json::{Value, json};

mod children;
mod columns;
mod command;
mod design;
mod fingerprint;
mod lock;
mod packed;
mod plot;
mod slurm;
mod worker;

pub use command::{SweepArgs, sweep};

/// A sweep file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    /// The system description (JSON), relative to the sweep file.
    system: PathBuf,
    /// `run` or `trim` at every point.
    work: Work,
    /// Cartesian product of named values or ranges.
    #[serde(default)]
    grid: BTreeMap<String, Values>,
    /// Explicit points.
    #[serde(default)]
    list: Vec<BTreeMap<String, f64>>,
    /// Random samples.
    #[serde(default)]
    random: Option<design::RandomPoints>,
    /// Recorded outputs whose minimum, maximum, mean and final value go into `sweep.csv` (`run`).
    #[serde(default)]
    statistics: Vec<String>,
    /// Further command-line arguments for every point (e.g. `["--stop", "2"]`).
    #[serde(default)]
    arguments: Vec<String>,
    /// The swept variable on the plots' horizontal axis (default: the grid variable with the
    /// most values).
    #[serde(default)]
    plot_against: Option<String>,
    /// Results packed into a few files per task (default) or, with `false`, a folder per point.
    #[serde(default = "packed_by_default")]
    packed: bool,
    /// A process per chunk of points (default) or per point.
    #[serde(default)]
    process: ProcessPer,
}

/// What runs in one `orchestrator` process of its own.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ProcessPer {
    /// Each point (a crash costs only that point).
    Point,
    /// Each of the `--jobs` chunks: its points in sequence, in one process (see `worker`).
    #[default]
    Chunk,
}

/// `"packed"` when the sweep file does not say.
fn packed_by_default() -> bool {
    true
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Work {
    Run,
    Trim,
}

/// The values of one grid axis: a list, or `{"from", "to", "count"}` (evenly spaced, ends included).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Values {
    List(Vec<f64>),
    Range { from: f64, to: f64, count: usize },
}

impl Values {
    /// The number of values.
    fn len(&self) -> usize {
        match self {
            Values::List(v) => v.len(),
            Values::Range { count, .. } => *count,
        }
    }
}

/// One point: values by variable name, in the order of the sweep's variables.
type Point = Vec<(String, f64)>;

/// Names that are not `INSTANCE.VARIABLE` parameters but options of `run` or `trim`.
const OPTIONS: [(&str, &str); 5] =
    [("speed", "--speed"), ("turn_rate", "--turn-rate"), ("start", "--start"), ("stop", "--stop"), ("step", "--step")];

/// What the points of one `sweep` call share.
struct Call<'a> {
    /// This `orchestrator` executable, which runs the points.
    exe: PathBuf,
    /// The sweep's output folder.
    dir: &'a Path,
    /// Names the packed files and worker logs: the Slurm chunk, or `0`.
    task: String,
    /// The sweep's inputs now, fingerprinted into every point's status.
    inputs: fingerprint::SweepInputs,
    /// How long a point may run before its process group is ended.
    point_timeout: Option<Duration>,
}

/// A parsed sweep: its system, work and points.
pub struct Sweep {
    system: PathBuf,
    work: Work,
    points: Vec<Point>,
    statistics: Vec<String>,
    arguments: Vec<String>,
    /// The grid's variables and the number of values of each.
    grid: Vec<(String, usize)>,
    plot_against: Option<String>,
    packed: bool,
    process: ProcessPer,
    /// The sweep file (a worker process reads it again).
    file: PathBuf,
}

impl Sweep {
    /// Reads and checks a sweep file.
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let file: SweepFile = serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?;
        let base = path.parent().unwrap_or(Path::new(""));
        let system = std::path::absolute(base.join(&file.system))?;
        if !system.is_file() {
            bail!("{}: system: {} not found", path.display(), system.display());
        }
        let points = points(&file).with_context(|| format!("{}", path.display()))?;
        for (name, _) in points.first().into_iter().flatten() {
            let is_option = OPTIONS.iter().any(|(n, _)| n == name);
            if !is_option && !name.contains('.') {
                bail!(
                    "{}: '{name}' is neither INSTANCE.VARIABLE nor one of {:?}",
                    path.display(),
                    OPTIONS.map(|o| o.0)
                );
            }
            if file.work == Work::Run && (name == "speed" || name == "turn_rate") {
                bail!("{}: '{name}' is a trim condition; use \"work\": \"trim\"", path.display());
            }
        }
        if let Some(x) = &file.plot_against
            && !points[0].iter().any(|(n, _)| n == x)
        {
            bail!("{}: plot_against: '{x}' is not a swept variable", path.display());
        }
        let grid = file.grid.iter().map(|(n, v)| (n.clone(), v.len())).collect();
        Ok(Self {
            system,
            work: file.work,
            points,
            statistics: file.statistics,
            arguments: file.arguments,
            grid,
            plot_against: file.plot_against,
            packed: file.packed,
            process: file.process,
            file: std::path::absolute(path)?,
        })
    }

    /// Runs the points not done yet (with these inputs) in `dir`, `jobs` at a time (only those of
    /// `chunk` = (k, n): every n-th point from k, for a Slurm array task), each ended after
    /// `point_timeout`, then gathers `sweep.csv` and the plot. Fails when a point failed.
    pub fn run(
        &self,
        dir: &Path,
        jobs: usize,
        chunk: Option<(usize, usize)>,
        point_timeout: Option<Duration>,
    ) -> Result<()> {
        let folder = if self.packed { dir.to_path_buf() } else { dir.join("points") };
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", dir.display()))?;
        let _lock = lock::FolderLock::acquire(dir, chunk)?;
        cosim::import::process::install_interrupt_flag();
        let call = Call {
            exe: std::env::current_exe().context("cannot locate the orchestrator executable")?,
            dir,
            task: chunk.map_or(0, |(c, _)| c).to_string(),
            inputs: fingerprint::SweepInputs::of_system(&self.system)?,
            point_timeout,
        };
        let (todo, skipped) = self.pending(dir, chunk, &call.inputs);
        if self.packed {
            packed::forget(dir, &call.task, chunk.is_none(), &todo)?;
        }
        eprintln!("sweep: {} points, {} to run, {jobs} at a time", self.points.len(), todo.len());
        let started = Instant::now();
        let failed = match self.process {
            ProcessPer::Point => self.run_points(&call, jobs, &todo)?,
            ProcessPer::Chunk => worker::supervise(self, &call, jobs, &todo)?,
        };
        let wall = started.elapsed().as_secs_f64();
        if chunk.is_none() {
            self.gather(dir)?;
        }
        let ran = todo.len();
        println!(
            "sweep: {ran} points run in {wall:.1} s ({:.1} points per minute), {skipped} already done, {} failed",
            if wall > 0.0 { ran as f64 * 60.0 / wall } else { 0.0 },
            failed.len()
        );
        finished(dir, ran, &failed, self.packed)
    }

    /// Runs the points `todo`, each in its own process, `jobs` at a time; the failed points.
    fn run_points(&self, call: &Call, jobs: usize, todo: &[usize]) -> Result<Vec<usize>> {
        let packed = self.packed.then(|| packed::PackedTask::new(call.dir, &call.task)).transpose()?;
        let next = AtomicUsize::new(0);
        let failures = Mutex::new(Vec::new());
        let started = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..jobs.max(1) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&k) = todo.get(i) else { break };
                        if cosim::import::process::interrupt_requested().is_some() {
                            break;
                        }
                        let status = self.run_point(call, k, packed.as_ref());
                        let ok = status.as_ref().is_ok_and(|s| s["status"] == "ok");
                        if !ok {
                            failures.lock().unwrap_or_else(|p| p.into_inner()).push(k);
                        }
                        eprintln!(
                            "sweep: point {} of {} {} ({:.1} s)",
                            k + 1,
                            self.points.len(),
                            if ok { "done" } else { "FAILED" },
                            started.elapsed().as_secs_f64()
                        );
                    }
                });
            }
        });
        Ok(failures.into_inner().unwrap_or_else(|p| p.into_inner()))
    }

    /// The command line of point `k`, writing into `out`.
    fn arguments(&self, k: usize, out: &Path) -> Vec<String> {
        let mut args = vec![if self.work == Work::Run { "run" } else { "trim" }.to_string()];
        args.push(self.system.display().to_string());
        for (name, value) in &self.points[k] {
            match OPTIONS.iter().find(|(n, _)| n == name) {
                Some((_, option)) => args.push(format!("{option}={value:?}")),
                None => args.push(format!("--set={name}={value:?}")),
            }
        }
        let file = |name: &str| out.join(name).display().to_string();
        match self.work {
            Work::Run => {
                args.extend(["--out".into(), file("results.csv"), "--summary-json".into(), file("summary.json")])
            }
            Work::Trim => {
                args.extend(["--out".into(), file("trimmed.json"), "--summary-json".into(), file("summary.json")])
            }
        }
        args.extend(self.arguments.iter().cloned());
        if super::options::extraction_cache_disabled() {
            args.push("--no-fmu-cache".into());
        }
        args
    }

    /// Runs point `k` in its own process (ended after the call's point timeout); writes and
    /// returns its `status.json`, with the command and the fingerprint of its inputs (with `packed`: in a
    /// scratch folder, then appended to the task's packed files).
    fn run_point(&self, call: &Call, k: usize, packed: Option<&packed::PackedTask>) -> Result<Value> {
        let out = packed.map_or_else(|| point_dir(call.dir, k), |p| p.scratch(k));
        std::fs::create_dir_all(&out)?;
        let _ = std::fs::remove_file(out.join("status.json"));
        let args = self.arguments(k, &out);
        let mut status = children::run_point_process(&call.exe, &args, &out.join("log.txt"), call.point_timeout)?;
        status["inputs"] = call.inputs.fingerprint(&args, &out);
        status["command"] = json!(args);
        std::fs::write(out.join("status.json"), serde_json::to_string_pretty(&status)? + "\n")?;
        if let Some(packed) = packed {
            packed.append(k, &out, &status, &self.statistics)?;
        }
        Ok(status)
    }

    /// Writes `sweep.csv` (one row per point: its values, status, summary figures, statistics)
    /// and `sweep.svg` from whatever points have finished in `dir`.
    pub fn gather(&self, dir: &Path) -> Result<()> {
        let variables: Vec<String> =
            self.points.first().map(|p| p.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default();
        let inputs = fingerprint::SweepInputs::of_system(&self.system)?;
        let mut rows: Vec<BTreeMap<String, String>> = Vec::new();
        let mut figures: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new(); // the names in `figures`
        let recorded = packed::finished(dir);
        for (k, point) in self.points.iter().enumerate() {
            let record = recorded.get(&k);
            let out = point_dir(dir, k);
            let mut row = BTreeMap::new();
            row.insert("id".to_string(), format!("{k}"));
            for (name, value) in point {
                row.insert(name.clone(), format!("{value:?}"));
            }
            // Results of other inputs are not shown under this point's values.
            let status = self.recorded_status(dir, k, record, &inputs);
            let current = status["status"] != "stale";
            row.insert("status".into(), status["status"].as_str().unwrap_or("unknown").to_string());
            row.insert("error".into(), status["error"].as_str().unwrap_or("").replace('"', "'"));
            let mut add = |name: String, value: String| {
                if seen.insert(name.clone()) {
                    figures.push(name.clone());
                }
                row.insert(name, value);
            };
            let summary = record.map_or_else(|| read_json(&out.join("summary.json")), |r| r.summary.clone());
            if let Some(summary) = summary.filter(|_| current) {
                for (name, value) in flatten(&summary) {
                    add(name, value);
                }
            }
            if current && self.work == Work::Run && !self.statistics.is_empty() {
                let values = record
                    .map_or_else(|| statistics(&out.join("results.csv"), &self.statistics), |r| r.statistics.clone());
                for (name, value) in values {
                    add(name, value);
                }
            }
            rows.push(row);
        }
        let mut header = vec!["id".to_string()];
        header.extend(variables.iter().cloned());
        header.extend(["status".to_string(), "error".to_string()]);
        header.extend(figures.iter().cloned());
        let mut csv = header.iter().map(|h| format!("\"{h}\"")).collect::<Vec<_>>().join(",") + "\n";
        for row in &rows {
            let cells: Vec<String> = header
                .iter()
                .map(|h| {
                    let v = row.get(h).cloned().unwrap_or_default();
                    if v.parse::<f64>().is_ok() { v } else { format!("\"{v}\"") }
                })
                .collect();
            csv += &(cells.join(",") + "\n");
        }
        std::fs::write(dir.join("sweep.csv"), csv)?;
        let units_csv = (0..self.points.len())
            .map(|k| point_dir(dir, k).join("results.units.csv"))
            .chain([dir.join("packed").join("results.units.csv")])
            .find(|p| self.work == Work::Run && p.is_file());
        let units = columns::units(&self.system, &variables, &figures, &self.statistics, units_csv.as_deref());
        columns::write_units_csv(&dir.join("sweep.units.csv"), &header, &units)?;
        let (physics, diagnostics): (Vec<String>, Vec<String>) =
            figures.iter().cloned().partition(|f| columns::is_physics(f, &self.statistics));
        let diagnostics: Vec<String> = diagnostics.into_iter().filter(|f| !f.starts_with("condition.")).collect();
        let layout = plot::Layout {
            rows: &rows,
            variables: &variables,
            grid: &self.grid,
            x: self.plot_against.as_deref(),
            units: &units,
        };
        plot::draw(dir, &layout, &physics, &diagnostics)?;
        println!("sweep: {} ({} points)", dir.join("sweep.csv").display(), rows.len());
        Ok(())
    }

    /// Writes `DIR/sweep.sbatch` (a job array of `tasks` tasks, each running every `tasks`-th
    /// point with this executable, `jobs` at a time on as many cores, each ended after
    /// `point_timeout`) and submits it with `sbatch`, passing `options` through.
    pub fn submit_slurm(
        &self,
        sweep_file: &Path,
        dir: &Path,
        (tasks, jobs): (usize, usize),
        point_timeout: Option<Duration>,
        options: &[String],
    ) -> Result<()> {
        std::fs::create_dir_all(dir)?;
        let script = dir.join("sweep.sbatch");
        let text = slurm::JobScript {
            exe: &std::env::current_exe()?,
            sweep_file: &std::path::absolute(sweep_file)?,
            dir: &std::path::absolute(dir)?,
            tasks: tasks.clamp(1, self.points.len().max(1)),
            jobs,
            point_timeout,
        }
        .text();
        std::fs::write(&script, text)?;
        let output = Command::new("sbatch").args(options).arg(&script).output().with_context(|| {
            format!("cannot run sbatch (is Slurm installed?); the job script is {}", script.display())
        })?;
        if !output.status.success() {
            bail!("sbatch failed: {}", String::from_utf8_lossy(&output.stderr).trim());
        }
        println!(
            "{}; when it has finished: orchestrator sweep {} --out {} --gather",
            String::from_utf8_lossy(&output.stdout).trim(),
            sweep_file.display(),
            dir.display()
        );
        Ok(())
    }
}

fn point_dir(dir: &Path, k: usize) -> PathBuf {
    dir.join("points").join(format!("{k:04}"))
}

/// The end of a sweep run in `dir` of `ran` points: an error when it was interrupted or when
/// points failed (`failed`), naming where their reasons are (`packed` or not).
fn finished(dir: &Path, ran: usize, failed: &[usize], packed: bool) -> Result<()> {
    use cosim::import::process::{interrupt_requested, signal_name};
    if let Some(signal) = interrupt_requested() {
        bail!("interrupted by {}: the points in progress were ended; the same command resumes", signal_name(signal));
    }
    if !failed.is_empty() {
        let reasons = if packed { "packed/points-*.jsonl" } else { "points/<id>/status.json and log.txt" };
        bail!("{} of {ran} points failed (the reasons: {}/{reasons})", failed.len(), dir.display());
    }
    Ok(())
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The points of a sweep file: the grid's cartesian product, then the list, then random samples.
fn points(file: &SweepFile) -> Result<Vec<Point>> {
    let mut points: Vec<Point> = Vec::new();
    if !file.grid.is_empty() {
        points.push(Vec::new());
        for (name, values) in &file.grid {
            let values = match values {
                Values::List(v) => v.clone(),
                Values::Range { from, to, count } => match count {
                    0 => bail!("grid.{name}: count must be at least 1"),
                    1 => vec![*from],
                    n => (0..*n).map(|k| from + (to - from) * k as f64 / (*n - 1) as f64).collect(),
                },
            };
            if values.is_empty() {
                bail!("grid.{name}: no values");
            }
            points = points
                .iter()
                .flat_map(|p| {
                    values.iter().map(move |v| {
                        let mut q = p.clone();
                        q.push((name.clone(), *v));
                        q
                    })
                })
                .collect();
        }
    }
    for (k, entry) in file.list.iter().enumerate() {
        let point: Point = entry.iter().map(|(n, v)| (n.clone(), *v)).collect();
        if let Some(first) = points.first()
            && first.iter().map(|(n, _)| n).ne(point.iter().map(|(n, _)| n))
        {
            bail!("list[{k}]: every point must name the same variables as the others");
        }
        points.push(point);
    }
    if let Some(random) = &file.random {
        points.extend(design::sample(random)?);
    }
    if points.is_empty() {
        bail!("no points: give a grid, a list or random samples");
    }
    if points.iter().any(|p| p.iter().map(|(n, _)| n).ne(points[0].iter().map(|(n, _)| n))) {
        bail!("grid, list and random points must name the same variables");
    }
    Ok(points)
}

/// The scalar numbers and booleans of a summary JSON as `a.b` names, except what describes the
/// inputs of the run.
fn flatten(value: &Value) -> Vec<(String, String)> {
    fn walk(prefix: &str, value: &Value, out: &mut Vec<(String, String)>) {
        match value {
            Value::Number(n) => out.push((prefix.to_string(), n.to_string())),
            Value::Bool(b) => out.push((prefix.to_string(), u8::from(*b).to_string())),
            Value::Object(map) => {
                for (k, v) in map {
                    if k != "inputs" {
                        let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                        walk(&name, v, out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk("", value, &mut out);
    out
}

/// Minimum, maximum, mean and final value of each named column of a results CSV.
fn statistics(csv: &Path, names: &[String]) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(csv) else { return Vec::new() };
    statistics_of(&text, names)
}

/// Minimum, maximum, mean and final value of each named column of the text of a results CSV.
fn statistics_of(text: &str, names: &[String]) -> Vec<(String, String)> {
    if names.is_empty() {
        return Vec::new();
    }
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap_or("").split(',').map(|h| h.trim_matches('"').to_string()).collect();
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap_or(f64::NAN)).collect()).collect();
    let mut out = Vec::new();
    for name in names {
        let Some(c) = header.iter().position(|h| h == name) else { continue };
        let column: Vec<f64> = rows.iter().filter_map(|r| r.get(c).copied()).collect();
        if column.is_empty() {
            continue;
        }
        let min = column.iter().copied().fold(f64::INFINITY, f64::min);
        let max = column.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = column.iter().sum::<f64>() / column.len() as f64;
        for (what, v) in [("min", min), ("max", max), ("mean", mean), ("final", *column.last().expect("not empty"))] {
            out.push((format!("{name}.{what}"), format!("{v:?}")));
        }
    }
    out
}
