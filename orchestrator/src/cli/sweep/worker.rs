//! One process per chunk (`"process": "chunk"` in the sweep file): the sweep starts `--jobs`
//! worker processes (`orchestrator sweep SWEEP --out DIR --worker TASK`, the points on stdin),
//! each running its points in sequence in-process, as `orchestrator run` or `trim` would, saving
//! the process start and set-up per point. The worker reports each point's start and end on
//! stdout; when it dies (a crash in an FMU), the point it had started is recorded as failed with
//! the way the process ended, and a new worker goes on with the points after it. What the
//! points print goes to `DIR/logs/worker-TASK.log`.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use serde_json::{Value, json};

use super::packed::PackedTask;
use super::{Sweep, point_dir};

/// The worker's line before a point (followed by the point's index).
const STARTED: &str = "sweep-worker: started ";
/// The worker's line after a point (followed by the index and `ok` or `failed`).
const FINISHED: &str = "sweep-worker: finished ";

/// Runs `todo` in `jobs` worker processes (worker j takes every jobs-th point from the j-th);
/// the failed points. `task` names the packed files (`TASK-j` for worker j).
pub(super) fn supervise(
    sweep: &Sweep,
    exe: &Path,
    dir: &Path,
    jobs: usize,
    todo: &[usize],
    task: &str,
) -> Result<Vec<usize>> {
    let jobs = jobs.clamp(1, todo.len().max(1));
    std::fs::create_dir_all(dir.join("logs")).with_context(|| format!("cannot create {}/logs", dir.display()))?;
    let failed = Mutex::new(Vec::new());
    let started = Instant::now();
    let outcomes: Vec<Result<()>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|j| {
                let points: Vec<usize> = todo.iter().copied().skip(j).step_by(jobs).collect();
                let (failed, name) = (&failed, format!("{task}-{j}"));
                scope.spawn(move || run_worker(sweep, exe, dir, &name, points, failed, started))
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|_| Err(anyhow!("a worker thread panicked")))).collect()
    });
    outcomes.into_iter().collect::<Result<()>>()?;
    Ok(failed.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// Runs `points` in worker processes named `name`, a new one after each that dies in a point.
fn run_worker(
    sweep: &Sweep,
    exe: &Path,
    dir: &Path,
    name: &str,
    mut points: Vec<usize>,
    failed: &Mutex<Vec<usize>>,
    started: Instant,
) -> Result<()> {
    let log_path = dir.join("logs").join(format!("worker-{name}.log"));
    let fail = |k: usize| failed.lock().unwrap_or_else(|p| p.into_inner()).push(k);
    while !points.is_empty() {
        let mut log = std::fs::OpenOptions::new().create(true).append(true).open(&log_path)?;
        let mut child = Command::new(exe)
            .args(["sweep".as_ref(), sweep.file.as_os_str(), "--out".as_ref(), dir.as_os_str(), "--worker".as_ref()])
            .arg(name)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log.try_clone()?)
            .spawn()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let list: String = points.iter().map(|k| format!("{k}\n")).collect();
        // The worker reads all of its input before it writes: no deadlock; closed when dropped.
        child.stdin.take().expect("piped").write_all(list.as_bytes())?;
        let (mut running, mut finished) = (None, HashSet::new());
        for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
            let line = line?;
            if let Some(k) = line.strip_prefix(STARTED) {
                running = k.parse::<usize>().ok();
            } else if let Some((k, status)) = line.strip_prefix(FINISHED).and_then(|r| r.split_once(' ')) {
                let k: usize = k.parse()?;
                if status != "ok" {
                    fail(k);
                }
                finished.insert(k);
                running = None;
                let (done, all) = (k + 1, sweep.points.len());
                let seconds = started.elapsed().as_secs_f64();
                eprintln!(
                    "sweep: point {done} of {all} {} ({seconds:.1} s)",
                    if status == "ok" { "done" } else { "FAILED" }
                );
            } else {
                writeln!(log, "{line}")?;
            }
        }
        let exit = child.wait()?;
        points.retain(|k| !finished.contains(k));
        if exit.success() && points.is_empty() {
            break;
        }
        let Some(k) = running else {
            bail!("sweep worker {name} ended ({exit}) outside a point; see {}", log_path.display());
        };
        eprintln!("sweep: point {} of {} FAILED: the worker process died ({exit})", k + 1, sweep.points.len());
        record_death(sweep, dir, name, k, exit)?;
        // What the dead worker left of the point in its scratch folder (packed results).
        let _ = std::fs::remove_dir_all(super::packed::scratch_of(child.id(), k));
        fail(k);
        points.retain(|&p| p != k);
    }
    Ok(())
}

/// Records point `k` as failed because its worker process died with `exit`.
fn record_death(sweep: &Sweep, dir: &Path, name: &str, k: usize, exit: ExitStatus) -> Result<()> {
    let status = json!({
        "status": "failed",
        "exit_code": exit.code(),
        "error": format!("error: the sweep worker process died while running this point ({exit})"),
        "command": sweep.arguments(k, Path::new("OUT")),
        "process": "chunk",
    });
    if sweep.packed {
        let packed = PackedTask::new(dir, name)?;
        let scratch = packed.scratch(k);
        std::fs::create_dir_all(&scratch)?;
        std::fs::write(scratch.join("status.json"), serde_json::to_string_pretty(&status)? + "\n")?;
        packed.append(k, &scratch, &status, &sweep.statistics)
    } else {
        let out = point_dir(dir, k);
        std::fs::create_dir_all(&out)?;
        Ok(std::fs::write(out.join("status.json"), serde_json::to_string_pretty(&status)? + "\n")?)
    }
}

impl Sweep {
    /// The worker process: runs the points listed on stdin (one index a line) in sequence in
    /// this process, saying on stdout when each starts and ends; `task` names its packed files.
    pub fn work(&self, dir: &Path, task: &str) -> Result<()> {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        let points: Vec<usize> = text.lines().map(str::parse).collect::<Result<_, _>>().context("worker points")?;
        let packed = self.packed.then(|| PackedTask::new(dir, task)).transpose()?;
        // Each FMU is extracted, read and loaded once for all the points.
        cosim::master::FmuCache::keep_on_this_thread();
        for k in points {
            if k >= self.points.len() {
                bail!("worker: there is no point {k}");
            }
            println!("{STARTED}{k}");
            let status = self.run_point_here(dir, k, packed.as_ref())?;
            println!("{FINISHED}{k} {}", if status["status"] == "ok" { "ok" } else { "failed" });
        }
        Ok(())
    }

    /// Runs point `k` in this process, as its own process would (the same command line, an
    /// error or a panic recorded as the point's failure); writes and returns its `status.json`.
    fn run_point_here(&self, dir: &Path, k: usize, packed: Option<&PackedTask>) -> Result<Value> {
        let out = packed.map_or_else(|| point_dir(dir, k), |p| p.scratch(k));
        std::fs::create_dir_all(&out)?;
        let _ = std::fs::remove_file(out.join("status.json"));
        let args = self.arguments(k, &out);
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Result<()> {
            let line = std::iter::once("orchestrator".to_string()).chain(args.iter().cloned());
            crate::dispatch(<crate::Cli as clap::Parser>::try_parse_from(line)?)
        }));
        let error = match outcome {
            Ok(Ok(())) => String::new(),
            Ok(Err(e)) => format!("error: {}", crate::error_text(&e)),
            Err(panic) => {
                let text = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
                format!("error: panic: {}", text.unwrap_or_default())
            }
        };
        if !error.is_empty() {
            eprintln!("point {k}: {error}");
        }
        let status = json!({
            "status": if error.is_empty() { "ok" } else { "failed" },
            "exit_code": null,
            "error": error,
            "wall_seconds": started.elapsed().as_secs_f64(),
            "command": args,
            "process": "chunk",
        });
        std::fs::write(out.join("status.json"), serde_json::to_string_pretty(&status)? + "\n")?;
        if let Some(packed) = packed {
            packed.append(k, &out, &status, &self.statistics)?;
        }
        Ok(status)
    }
}
