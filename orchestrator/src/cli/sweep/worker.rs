//! One process per chunk (the default; `"process": "point"` in the sweep file runs a process per
//! point instead): the sweep starts `--jobs`
//! worker processes (`orchestrator sweep SWEEP --out DIR --worker TASK`, the points on stdin),
//! each running its points in sequence in-process, as `orchestrator run` or `trim` would, saving
//! the process start and set-up per point. The worker reports each point's start and end on
//! stdout; when it dies (a crash in an FMU), the point it had started is recorded as failed with
//! the way the process ended, and a new worker goes on with the points after it. What the
//! points print goes to `DIR/logs/worker-TASK.log`.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use cosim::import::process;
use serde_json::{Value, json};

use super::children::{Ended, POLL, end_group};
use super::packed::PackedTask;
use super::{Call, Sweep, fingerprint::SweepInputs, point_dir};

/// The worker's line before a point (followed by the point's index).
const STARTED: &str = "sweep-worker: started ";
/// The worker's line after a point (followed by the index and `ok` or `failed`).
const FINISHED: &str = "sweep-worker: finished ";

/// Runs `todo` in `jobs` worker processes (worker j takes every jobs-th point from the j-th);
/// the failed points. The call's task names the packed files (`TASK-j` for worker j).
pub(super) fn supervise(sweep: &Sweep, call: &Call, jobs: usize, todo: &[usize]) -> Result<Vec<usize>> {
    let jobs = jobs.clamp(1, todo.len().max(1));
    let dir = call.dir;
    std::fs::create_dir_all(dir.join("logs")).with_context(|| format!("cannot create {}/logs", dir.display()))?;
    let failed = Mutex::new(Vec::new());
    let started = Instant::now();
    let outcomes: Vec<Result<()>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|j| {
                let points: Vec<usize> = todo.iter().copied().skip(j).step_by(jobs).collect();
                let worker = Worker { sweep, call, name: format!("{}-{j}", call.task), failed: &failed, started };
                scope.spawn(move || worker.run(points))
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|_| Err(anyhow!("a worker thread panicked")))).collect()
    });
    outcomes.into_iter().collect::<Result<()>>()?;
    Ok(failed.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// One worker slot of a chunk sweep: the processes that run its points, one after another.
struct Worker<'a> {
    sweep: &'a Sweep,
    call: &'a Call<'a>,
    /// `TASK-j`: names its log and packed files.
    name: String,
    /// The sweep's failed points, shared by the slots.
    failed: &'a Mutex<Vec<usize>>,
    /// When the sweep started (for its progress lines).
    started: Instant,
}

/// How one worker process ended.
struct Outcome {
    exit: ExitStatus,
    /// The point it had started and not finished, with when it started.
    running: Option<usize>,
    /// Why the sweep ended it (timeout, interrupt), if it did.
    ended: Option<Ended>,
}

impl Worker<'_> {
    fn log_path(&self) -> PathBuf {
        self.call.dir.join("logs").join(format!("worker-{}.log", self.name))
    }

    /// Runs `points` in worker processes, a new one after each that dies or is ended in a point.
    fn run(&self, mut points: Vec<usize>) -> Result<()> {
        let log_path = self.log_path();
        while !points.is_empty() && process::interrupt_requested().is_none() {
            let log_start = std::fs::metadata(&log_path).map_or(0, |m| m.len());
            let (outcome, finished) = self.run_process(&points)?;
            points.retain(|k| !finished.contains(k));
            let Some(k) = outcome.running else {
                if outcome.exit.success() || outcome.ended.is_some() {
                    continue;
                }
                bail!(
                    "sweep worker {} ended ({}) outside a point; see {}",
                    self.name,
                    outcome.exit,
                    log_path.display()
                );
            };
            let status = self.status_of_ended_point(k, &outcome, log_start);
            eprintln!("sweep: point {} of {} FAILED: {}", k + 1, self.sweep.points.len(), status["error"]);
            self.record(k, &status)?;
            self.failed.lock().unwrap_or_else(|p| p.into_inner()).push(k);
            points.retain(|&p| p != k);
        }
        Ok(())
    }

    /// Starts a worker process (in a process group of its own, ended with the sweep) for
    /// `points` and follows it to its end, ending its group on a point's timeout or an interrupt
    /// of the sweep; how it ended, and the points it finished.
    fn run_process(&self, points: &[usize]) -> Result<(Outcome, HashSet<usize>)> {
        let (sweep, exe, dir) = (self.sweep, &self.call.exe, self.call.dir);
        let mut log = std::fs::OpenOptions::new().create(true).append(true).open(self.log_path())?;
        let mut command = Command::new(exe);
        command
            .args(["sweep".as_ref(), sweep.file.as_os_str(), "--out".as_ref(), dir.as_os_str(), "--worker".as_ref()])
            .arg(&self.name)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log.try_clone()?)
            .process_group(0);
        process::end_with_parent(&mut command);
        let mut child = command.spawn().with_context(|| format!("cannot start {}", exe.display()))?;
        let list: String = points.iter().map(|k| format!("{k}\n")).collect();
        // The worker reads all of its input before it writes: no deadlock; closed when dropped.
        child.stdin.take().expect("piped").write_all(list.as_bytes())?;
        let lines = forward_lines(child.stdout.take().expect("piped"));
        let (mut running, mut finished) = (None, HashSet::new());
        let ended = loop {
            let line = match lines.recv_timeout(POLL) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    // The timeout counts from the start of the point in progress.
                    let since = running.map_or_else(Instant::now, |(_, since)| since);
                    match Ended::now(since, running.and(self.call.point_timeout)) {
                        Some(ended) => break Some(ended),
                        None => continue,
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break None,
            };
            if let Some(k) = line.strip_prefix(STARTED) {
                running = k.parse::<usize>().ok().map(|k| (k, Instant::now()));
            } else if let Some((k, status)) = line.strip_prefix(FINISHED).and_then(|r| r.split_once(' ')) {
                let k: usize = k.parse()?;
                if status != "ok" {
                    self.failed.lock().unwrap_or_else(|p| p.into_inner()).push(k);
                }
                finished.insert(k);
                running = None;
                let (done, all, seconds) = (k + 1, sweep.points.len(), self.started.elapsed().as_secs_f64());
                let word = if status == "ok" { "done" } else { "FAILED" };
                eprintln!("sweep: point {done} of {all} {word} ({seconds:.1} s)");
            } else {
                writeln!(log, "{line}")?;
            }
        };
        let exit = if ended.is_some() { end_group(&mut child)? } else { child.wait()? };
        // What the worker left of the point in its scratch folder (packed results).
        if let Some((k, _)) = running {
            let _ = std::fs::remove_dir_all(super::packed::scratch_of(child.id(), k));
        }
        Ok((Outcome { exit, running: running.map(|(k, _)| k), ended }, finished))
    }

    /// The status of point `k`, which its worker process did not finish (`outcome`): timed out,
    /// interrupted, or died, with the crash reporter's line from the worker's log after
    /// `log_start` (bytes) when there is one.
    fn status_of_ended_point(&self, k: usize, outcome: &Outcome, log_start: u64) -> Value {
        let signal = outcome.exit.signal().map(process::signal_name);
        let (state, error) = match &outcome.ended {
            Some(ended) => ended.status_and_reason(),
            None => {
                let log = std::fs::read(self.log_path()).unwrap_or_default();
                let log = String::from_utf8_lossy(log.get(log_start as usize..).unwrap_or_default());
                let crash = log.lines().rev().find(|l| l.starts_with("fatal signal")).map(str::to_string);
                let died = format!("error: the sweep worker process died while running this point ({})", outcome.exit);
                ("failed", crash.unwrap_or(died))
            }
        };
        let args = self.sweep.arguments(k, &point_dir(self.call.dir, k));
        json!({
            "status": state,
            "exit_code": outcome.exit.code(),
            "signal": signal,
            "error": error,
            "inputs": self.call.inputs.fingerprint(&args, &point_dir(self.call.dir, k)),
            "command": args,
            "process": "chunk",
        })
    }

    /// Records `status` as the status of point `k` (packed, or its `status.json`).
    fn record(&self, k: usize, status: &Value) -> Result<()> {
        let (sweep, dir) = (self.sweep, self.call.dir);
        if sweep.packed {
            let packed = PackedTask::new(dir, &self.name)?;
            let scratch = packed.scratch(k);
            std::fs::create_dir_all(&scratch)?;
            std::fs::write(scratch.join("status.json"), serde_json::to_string_pretty(status)? + "\n")?;
            packed.append(k, &scratch, status, &sweep.statistics)
        } else {
            let out = point_dir(dir, k);
            std::fs::create_dir_all(&out)?;
            Ok(std::fs::write(out.join("status.json"), serde_json::to_string_pretty(status)? + "\n")?)
        }
    }
}

/// The lines of `stdout`, read on a thread of their own and sent as they come; the channel
/// closes when the worker process (and everything holding its stdout) has ended.
fn forward_lines(stdout: ChildStdout) -> Receiver<String> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

impl Sweep {
    /// The worker process: runs the points listed on stdin (one index a line) in sequence in
    /// this process, saying on stdout when each starts and ends; `task` names its packed files.
    pub fn work(&self, dir: &Path, task: &str) -> Result<()> {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        let points: Vec<usize> = text.lines().map(str::parse).collect::<Result<_, _>>().context("worker points")?;
        let packed = self.packed.then(|| PackedTask::new(dir, task)).transpose()?;
        let inputs = SweepInputs::of_system(&self.system)?;
        // Each FMU is extracted, read and loaded once for all the points.
        cosim::master::FmuCache::keep_on_this_thread();
        for k in points {
            if k >= self.points.len() {
                bail!("worker: there is no point {k}");
            }
            // SIGTERM from the sweep (a timeout, Ctrl-C) stops the run in progress; start no other.
            if let Some(signal) = process::interrupt_requested() {
                bail!("worker: interrupted by {}", process::signal_name(signal));
            }
            println!("{STARTED}{k}");
            let status = self.run_point_here(dir, k, &inputs, packed.as_ref())?;
            println!("{FINISHED}{k} {}", if status["status"] == "ok" { "ok" } else { "failed" });
        }
        Ok(())
    }

    /// Runs point `k` in this process, as its own process would (the same command line, an
    /// error or a panic recorded as the point's failure); writes and returns its `status.json`,
    /// with the fingerprint of its `inputs`.
    fn run_point_here(&self, dir: &Path, k: usize, inputs: &SweepInputs, packed: Option<&PackedTask>) -> Result<Value> {
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
            "inputs": inputs.fingerprint(&args, &out),
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
