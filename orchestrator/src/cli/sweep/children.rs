//! A sweep point's `orchestrator` process and how it ended. Each point runs in a process group of
//! its own (with the `fmu-host` processes it may start), so that the sweep can end all of it: when
//! the point outlives `--point-timeout`, and when the sweep gets SIGINT or SIGTERM (the flag of
//! [`process::install_interrupt_flag`]; Ctrl-C in a terminal reaches the sweep only, not the
//! points' groups). Ending a group sends SIGTERM (a run stops after the FMU call in progress and
//! writes its results), then SIGKILL after [`GRACE`] if anything is left. A point's process also
//! ends when the sweep dies without ending it (SIGKILL, a second Ctrl-C:
//! [`process::end_with_parent`]).

use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use cosim::import::process;
use serde_json::{Value, json};

/// How long a point's group has after SIGTERM before SIGKILL.
pub const GRACE: Duration = Duration::from_secs(2);

/// How often a running point is checked for its end, the timeout and an interrupt.
pub(super) const POLL: Duration = Duration::from_millis(5);

/// Why the sweep ended a point before it ended by itself.
pub(super) enum Ended {
    /// The point outlived the timeout (seconds).
    Timeout(f64),
    /// The sweep got this signal.
    Interrupt(i32),
}

/// Runs `exe args` in a process group of its own, stdout and stderr into `log`, ending the group
/// after `timeout` or on an interrupt of the sweep. Returns what goes into the point's
/// `status.json`: `status` (`ok`, `failed`, `interrupted`), `exit_code` (null when a signal ended
/// it), `signal` (its name, or null), `error` (the last `error:` or `fatal signal` line of the
/// log, or why the sweep ended it) and `wall_seconds`.
pub fn run_point_process(exe: &Path, args: &[String], log: &Path, timeout: Option<Duration>) -> Result<Value> {
    let file = File::create(log).with_context(|| format!("cannot write {}", log.display()))?;
    let started = Instant::now();
    let mut command = Command::new(exe);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(file.try_clone().with_context(|| format!("cannot write {}", log.display()))?)
        .stderr(file)
        .process_group(0);
    process::end_with_parent(&mut command);
    let spawned = command.spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => return Ok(json!({ "status": "failed", "error": format!("cannot start {}: {e}", exe.display()) })),
    };
    let (status, ended) = wait(&mut child, started, timeout)?;
    let wall = started.elapsed().as_secs_f64();
    let signal = status.signal().map(process::signal_name);
    let logged = std::fs::read_to_string(log).unwrap_or_default();
    let last_error = logged.lines().rev().find(|l| l.starts_with("error:") || l.starts_with("fatal signal"));
    let (state, error) = match ended {
        Some(ended) => ended.status_and_reason(),
        None if status.success() => ("ok", String::new()),
        None => {
            let cause = signal.map(|s| format!("ended by {s}"));
            let text = match (last_error, cause) {
                (Some(line), _) => line.to_string(),
                (None, Some(cause)) => cause,
                (None, None) => format!("exit code {}", status.code().unwrap_or(-1)),
            };
            ("failed", text)
        }
    };
    Ok(json!({
        "status": state,
        "exit_code": status.code(),
        "signal": signal,
        "error": error,
        "wall_seconds": wall,
    }))
}

impl Ended {
    /// The status (`interrupted` or `failed`) and error of a point the sweep ended this way.
    pub(super) fn status_and_reason(&self) -> (&'static str, String) {
        match self {
            Ended::Interrupt(s) => ("interrupted", format!("interrupted by {}", process::signal_name(*s))),
            Ended::Timeout(limit) => (
                "failed",
                format!("no result within --point-timeout {limit} s: its processes were ended (SIGTERM, then SIGKILL)"),
            ),
        }
    }

    /// Why a point that started at `since` should be ended now: an interrupt of the sweep, or
    /// `timeout` passed.
    pub(super) fn now(since: Instant, timeout: Option<Duration>) -> Option<Self> {
        if let Some(signal) = process::interrupt_requested() {
            Some(Ended::Interrupt(signal))
        } else {
            timeout.filter(|t| since.elapsed() >= *t).map(|t| Ended::Timeout(t.as_secs_f64()))
        }
    }
}

/// Waits for `child` (the leader of its own process group), ending its group after `timeout`
/// (from `started`) or when the sweep is interrupted; its exit status, and why the sweep ended it.
fn wait(child: &mut Child, started: Instant, timeout: Option<Duration>) -> Result<(ExitStatus, Option<Ended>)> {
    loop {
        if let Some(status) = child.try_wait().context("cannot wait for a point's process")? {
            return Ok((status, None));
        }
        if let Some(ended) = Ended::now(started, timeout) {
            return Ok((end_group(child)?, Some(ended)));
        }
        std::thread::sleep(POLL);
    }
}

/// Ends the process group of `child`: SIGTERM, then SIGKILL after [`GRACE`] while the leader
/// runs, and SIGKILL once more before the leader is reaped (so that nothing it started is left
/// and its group id cannot have been reused). Its exit status.
pub(super) fn end_group(child: &mut Child) -> Result<ExitStatus> {
    let group = child.id();
    let signal = |force| {
        process::signal_process_group(group, force).with_context(|| format!("cannot end process group {group}"))
    };
    signal(false)?;
    let asked = Instant::now();
    loop {
        // `try_wait` would reap the leader, freeing its id for reuse while the group may have
        // members left; look at /proc instead (a leader that has ended is a zombie, state Z).
        if leader_ended(group) || asked.elapsed() >= GRACE {
            break;
        }
        std::thread::sleep(POLL);
    }
    signal(true)?;
    child.wait().context("cannot wait for a point's process")
}

/// Whether process `pid` (our unreaped child) has ended: gone, or a zombie.
fn leader_ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses: `123 (orchestrator) Z ...`.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => true,
    }
}
